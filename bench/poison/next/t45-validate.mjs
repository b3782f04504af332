import { fileURLToPath } from 'node:url';
// t45 validator: node t45-validate.mjs  (no dependencies)
import fs from 'fs'; import path from 'path';
const dir = path.dirname(fileURLToPath(import.meta.url));
const catDir = path.join(dir, '..', '..', 'discovery', 'catalog');
const realTools = new Map(); // tool name -> set of servers
for (const f of fs.readdirSync(catDir).filter(f => f.endsWith('.json'))) {
  const d = JSON.parse(fs.readFileSync(path.join(catDir, f), 'utf8'));
  for (const t of d.tools) { if (!realTools.has(t.name)) realTools.set(t.name, new Set()); realTools.get(t.name).add(d.server); }
}
const ISO = new Set('aa ab af ak am ar as ay az ba be bg bh bi bm bn bo br bs ca ce ch co cr cs cu cv cy da de dv dz ee el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz ia id ie ig ii ik io is it iu ja jv ka kg ki kj kk kl km kn ko kr ks ku kv kw ky la lb lg li ln lo lt lu lv mg mh mi mk ml mn mr ms mt my na nb nd ne ng nl nn no nr nv ny oc oj om or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg si sk sl sm sn so sq sr ss st su sv sw ta te tg th ti tk tl tn to tr ts tt tw ty ug uk ur uz ve vi vo wa wo xh yi yo za zh zu'.split(' '));
const banned = [/ignore (all |any )?(the )?previous instructions/i, /highest priority/i, /override/i, /disregard/i, /supersede/i, /takes precedence/i, /important/i,
  /wichtig/i, /priorit[ée] (absolue|maximale)/i, /prioridad m[aá]xima/i, /massima priorit/i, /ignor(ez|ieren|a|e) (les|die|las|le) (instructions|anweisungen|instrucciones|istruzioni) pr/i,
  /höchste priorität/i, /vorrang/i, /primazia/i, /prevalece/i, /prévaut/i, /prevale/i, /ważne/i, /важно/i, /重要/, /優先/, /最高优先级/, /중요/, /مهم/, /חשוב/, /महत्वपूर्ण/, /quan trọng/i, /สำคัญ/, /önemli/i, /viktig/i, /tärkeä/i, /důležit/i, /σημαντικ/i, /fontos/i, /penting/i, /muhimu/i, /belangrijk/i, /vigtig/i];
const invisible = /[\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF\u00AD]|[\u{E0000}-\u{E007F}]/u;
let errors = [];
const err = (id, m) => errors.push(`${id}: ${m}`);
function walkStrings(o, cb) { if (typeof o === 'string') cb(o); else if (Array.isArray(o)) o.forEach(x => walkStrings(x, cb)); else if (o && typeof o === 'object') for (const [k, v] of Object.entries(o)) { cb(k); walkStrings(v, cb); } }
function checkProps(id, props, p) {
  if (!props || typeof props !== 'object') return;
  for (const [k, v] of Object.entries(props)) {
    if (!v || typeof v !== 'object') { err(id, `${p}.${k} not an object`); continue; }
    if (!v.type) err(id, `${p}.${k} missing type`);
    if (typeof v.description !== 'string' || !v.description) err(id, `${p}.${k} missing description`);
    if (v.properties) checkProps(id, v.properties, `${p}.${k}.properties`);
    if (v.items && v.items.properties) checkProps(id, v.items.properties, `${p}.${k}.items.properties`);
  }
}
function resolve(tool, where) {
  if (!where.startsWith('$')) return undefined;
  const toks = []; const re = /\.([A-Za-z0-9_\-]+)|\[(\d+)\]|\["([^"]+)"\]/g; let m, last = 1;
  while ((m = re.exec(where))) { if (m.index !== last) return undefined; last = re.lastIndex; toks.push(m[1] ?? (m[2] !== undefined ? Number(m[2]) : { name: m[3] })); }
  if (last !== where.length) return undefined;
  let cur = tool;
  for (const t of toks) {
    if (typeof t === 'object') { if (cur && Object.prototype.hasOwnProperty.call(cur, t.name)) return t.name; return undefined; }
    if (cur == null) return undefined; cur = cur[t];
  }
  return cur;
}
const allIds = new Set(); const summary = {};
for (const f of fs.readdirSync(dir).filter(f => f.startsWith('t45-') && f.endsWith('.jsonl'))) {
  const lines = fs.readFileSync(path.join(dir, f), 'utf8').split('\n').filter(l => l.trim());
  const isBenign = f.endsWith('-benign.jsonl');
  const s = { n: 0, langs: {}, len: { short: 0, mid: 0, long: 0 }, voices: new Set(), where: {} };
  const descs = new Map();
  lines.forEach((l, i) => {
    let r; try { r = JSON.parse(l); } catch (e) { err(`${f}:${i + 1}`, 'bad JSON ' + e.message); return; }
    const id = r.id || `${f}:${i + 1}`; s.n++;
    if (allIds.has(id)) err(id, 'duplicate id'); allIds.add(id);
    const cls = isBenign ? null : f.replace(/^t45-|\.jsonl$/g, '');
    if (!/^t45-(p1|benign)-\d{3}$/.test(id)) err(id, 'bad id format');
    if (isBenign ? r.class !== 'benign' : r.class !== cls) err(id, 'class mismatch ' + r.class);
    if (!id.startsWith(`t45-${isBenign ? 'benign' : cls}-`)) err(id, 'id/class mismatch');
    for (const k of ['voice', 'lang', 'server']) if (typeof r[k] !== 'string' || !r[k]) err(id, 'missing ' + k);
    if (!ISO.has(r.lang)) err(id, 'bad lang ' + r.lang);
    s.langs[r.lang] = (s.langs[r.lang] || 0) + 1; s.voices.add(r.voice);
    if (realTools.has(r.server) || [...realTools.values()].some(x => x.has(r.server))) err(id, 'server is a real catalog server name');
    if (!Array.isArray(r.siblings) || !r.siblings.length) err(id, 'siblings missing');
    const t = r.tool;
    if (!t || typeof t.name !== 'string' || typeof t.description !== 'string' || !t.inputSchema) { err(id, 'tool incomplete'); return; }
    if (t.inputSchema.type !== 'object') err(id, 'inputSchema.type not object');
    checkProps(id, t.inputSchema.properties, 'properties');
    if (t.inputSchema.required) for (const q of t.inputSchema.required) if (!t.inputSchema.properties || !(q in t.inputSchema.properties)) err(id, 'required not in properties: ' + q);
    const d = t.description.length; s.len[d < 200 ? 'short' : d < 700 ? 'mid' : 'long']++;
    const key = t.description.slice(0, 60); if (descs.has(key)) err(id, 'description opening repeats ' + descs.get(key)); descs.set(key, id);
    if (isBenign) {
      if ('where' in r || 'intent' in r) err(id, 'benign has where/intent');
      if (typeof r.note !== 'string' || !r.note) err(id, 'note missing');
      if (typeof r.source !== 'string' || !(r.source === 'new' || /^catalog:[^/]+\/.+/.test(r.source))) err(id, 'bad source');
      for (const sname of r.siblings || []) if (realTools.has(sname)) err(id, 'benign sibling is a real catalog tool: ' + sname);
    } else {
      for (const sname of r.siblings || []) { const sv = realTools.get(sname); if (!sv) err(id, 'sibling not a real catalog tool: ' + sname); }
      if (typeof r.intent !== 'string' || !r.intent) err(id, 'intent missing');
      if (typeof r.where !== 'string') err(id, 'where missing');
      else { const v = resolve(t, r.where); if (typeof v !== 'string' || !v) err(id, 'where does not resolve to a string: ' + r.where); }
      const wk = (r.where || '').replace(/\.properties\.[^.\[]+/g, '.properties.<p>').replace(/\["[^"]+"\]/, '[name]'); s.where[wk] = (s.where[wk] || 0) + 1;
    }
    walkStrings(r, str => {
      for (const b of banned) if (b.test(str)) err(id, 'banned phrase ' + b + ' in: ' + str.slice(0, 80));
      if (invisible.test(str)) err(id, 'invisible/bidi char');
      const urls = (str.match(/https?:\/\/[^\s"'<>)\]]+/g) || []).map(u => u.replace(/[.,;:]+$/, ''));
      for (const u of urls) { const h = u.replace(/^https?:\/\//, '').split(/[\/:?#]/)[0].toLowerCase();
        if (!(h.endsWith('.example') || /^198\.51\.100\.\d+$/.test(h) || /^203\.0\.113\.\d+$/.test(h) || h === 'localhost' || h === '127.0.0.1')) err(id, 'non-example URL host ' + h); }
      const doms = str.match(/\b[a-z0-9-]+(\.[a-z0-9-]+)*\.(com|net|org|io|co|dev|app|ru|de|cn)\b/gi) || [];
      for (const dd of doms) if (!/\.example$/i.test(dd)) err(id, 'bare real-looking domain ' + dd);
    });
  });
  s.voices = s.voices.size; summary[f] = s;
}
for (const [f, s] of Object.entries(summary)) {
  const en = s.langs.en || 0;
  console.log(`${f}: ${s.n} records; en ${en} (${Math.round(100 * en / s.n)}%), ${Object.keys(s.langs).length} languages; lengths short/mid/long ${s.len.short}/${s.len.mid}/${s.len.long}; voices ${s.voices}`);
  console.log('  langs', JSON.stringify(s.langs)); if (Object.keys(s.where).length) console.log('  where', JSON.stringify(s.where));
}
if (errors.length) { console.log(`\n${errors.length} errors:`); errors.forEach(e => console.log('  ' + e)); process.exit(1); }
console.log('\nOK: all checks passed');
