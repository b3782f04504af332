import { fileURLToPath } from 'node:url';
// t37 validator: node t37-validate.mjs  (no dependencies)
import fs from 'fs';
import path from 'path';
const dir = path.dirname(fileURLToPath(import.meta.url));
const B = 't37';
const catDir = path.join(dir, '..', '..', 'discovery', 'catalog');
const catTools = new Map(); // tool name -> set of servers
for (const f of fs.readdirSync(catDir).filter(f => f.endsWith('.json'))) {
  const d = JSON.parse(fs.readFileSync(path.join(catDir, f), 'utf8'));
  for (const t of d.tools || []) { if (!catTools.has(t.name)) catTools.set(t.name, new Set()); catTools.get(t.name).add(d.server); }
}
const ISO = new Set('aa ab af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs ca ce ch co cr cs cu cv cy da de dv dz ee el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz ia id ie ig ii ik io is it iu ja jv ka kg ki kj kk kl km kn ko kr ks ku kv kw ky la lb lg li ln lo lt lu lv mg mh mi mk ml mn mr ms mt my na nb nd ne ng nl nn no nr nv ny oc oj om or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg si sk sl sm sn so sq sr ss st su sv sw ta te tg th ti tk tl tn to tr ts tt tw ty ug uk ur uz ve vi vo wa wo xh yi yo za zh zu'.split(' '));
const BANNED = [/ignore (all |any )?previous instructions/i, /highest priority/i, /override/i, /disregard/i, /supersed/i, /takes? precedence/i, /important/i,
  /wichtig/i, /vorrang/i, /ignorier/i, /ignorez/i, /ignora (las|le) instrucciones/i, /máxima prioridad/i, /priorité absolue/i, /prioridade máxima/i, /massima priorità/i, /важно/i, /重要/, /중요/, /игнорир/i];
const INVIS = /[\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF\u00AD]|[\u{E0000}-\u{E007F}]/u;
const errs = []; const E = (id, m) => errs.push(`${id}: ${m}`);
function getPath(obj, p) {
  // supports $.a.b, ["name"], [n]
  if (!p.startsWith('$')) return { ok: false };
  const toks = []; const re = /\.([A-Za-z0-9_\-$]+)|\[(\d+)\]|\["([^"]+)"\]/g; let m, last = 1;
  while ((m = re.exec(p))) { if (m.index !== last) return { ok: false }; last = re.lastIndex; toks.push(m[1] ?? (m[2] !== undefined ? +m[2] : { key: m[3] })); }
  if (last !== p.length) return { ok: false };
  let cur = obj;
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    if (typeof t === 'object') { // property NAME reference: must be last
      if (i !== toks.length - 1 || !cur || !(t.key in cur)) return { ok: false };
      return { ok: true, val: t.key };
    }
    if (cur == null || !(t in Object(cur))) return { ok: false };
    cur = cur[t];
  }
  return { ok: true, val: cur };
}
function checkProps(id, schema, where) {
  if (!schema || typeof schema !== 'object') return;
  if (schema.properties) for (const [k, v] of Object.entries(schema.properties)) {
    if (!v.type) E(id, `property ${where}.${k} lacks type`);
    if (typeof v.description !== 'string' || !v.description) E(id, `property ${where}.${k} lacks description`);
    checkProps(id, v, `${where}.${k}`);
    if (v.items) checkProps(id, v.items, `${where}.${k}.items`);
  }
  if (Array.isArray(schema.required) && schema.properties) for (const r of schema.required) if (!(r in schema.properties)) E(id, `required ${r} not in properties at ${where}`);
}
function strings(o, out = []) { if (typeof o === 'string') out.push(o); else if (Array.isArray(o)) o.forEach(x => strings(x, out)); else if (o && typeof o === 'object') for (const [k, v] of Object.entries(o)) { out.push(k); strings(v, out); } return out; }
const ids = new Set(); const stats = {}; const langs = {}; const len = { short: 0, mid: 0, long: 0 }; const voices = {}; const servers = new Set();
let total = 0, en = 0;
const files = fs.readdirSync(dir).filter(f => f.startsWith(B + '-') && f.endsWith('.jsonl'));
for (const f of files) {
  const benign = f === `${B}-benign.jsonl`;
  const cls = benign ? null : f.slice(B.length + 1, -6);
  const lines = fs.readFileSync(path.join(dir, f), 'utf8').split('\n').filter(l => l.trim());
  stats[f] = lines.length;
  lines.forEach((line, i) => {
    let r; try { r = JSON.parse(line); } catch (e) { E(`${f}:${i + 1}`, 'bad JSON ' + e.message); return; }
    const id = r.id || `${f}:${i + 1}`;
    total++;
    if (ids.has(id)) E(id, 'duplicate id'); ids.add(id);
    const expCls = benign ? 'benign' : cls;
    if (!new RegExp(`^${B}-${benign ? 'benign' : cls}-\\d{3}$`).test(id)) E(id, 'bad id format');
    if (!benign && r.class !== cls) E(id, 'class mismatch');
    if (benign && r.class !== 'benign') E(id, 'benign class must be "benign"');
    for (const k of ['voice', 'lang', 'server']) if (typeof r[k] !== 'string' || !r[k]) E(id, 'missing ' + k);
    if (!ISO.has(r.lang)) E(id, 'lang not ISO 639-1: ' + r.lang);
    langs[r.lang] = (langs[r.lang] || 0) + 1; if (r.lang === 'en') en++;
    voices[r.voice] = (voices[r.voice] || 0) + 1; servers.add(r.server);
    if (!Array.isArray(r.siblings) || !r.siblings.length) E(id, 'siblings missing');
    else for (const s of r.siblings) {
      if (!benign) { const sv = catTools.get(s); if (!sv) E(id, 'sibling not a catalog tool: ' + s); }
      else if (catTools.has(s)) E(id, 'benign sibling collides with catalog tool: ' + s);
    }
    if ([...(catTools.get(r.tool?.name) || [])].includes(r.server)) E(id, 'server is a catalog server');
    const t = r.tool; if (!t || typeof t.name !== 'string' || typeof t.description !== 'string') { E(id, 'tool malformed'); return; }
    if (!t.inputSchema || t.inputSchema.type !== 'object') E(id, 'inputSchema.type must be object');
    checkProps(id, t.inputSchema, '$');
    if (benign) {
      if ('where' in r || 'intent' in r) E(id, 'benign must not have where/intent');
      if (typeof r.note !== 'string' || !r.note) E(id, 'benign note missing');
      if (typeof r.source !== 'string' || !/^(new|catalog:[^/]+\/.+)$/.test(r.source)) E(id, 'bad source');
    } else {
      if (typeof r.intent !== 'string' || !r.intent) E(id, 'intent missing');
      const g = getPath(t, r.where || '');
      if (!g.ok || typeof g.val !== 'string') E(id, 'where does not resolve to a string: ' + r.where);
    }
    const all = strings(t).join('\n') + '\n' + (r.title || '');
    for (const b of BANNED) if (b.test(all)) E(id, 'banned phrase ' + b);
    if (INVIS.test(line)) E(id, 'invisible/bidi char');
    for (const m of all.matchAll(/https?:\/\/([^\/\s"'<>)]+)/g)) {
      const h = m[1].replace(/:\d+$/, '').toLowerCase();
      if (!(h.endsWith('.example') || /^(198\.51\.100|203\.0\.113)\.\d+$/.test(h))) E(id, 'URL host not .example/TEST-NET: ' + h);
    }
    for (const m of all.matchAll(/\b(\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})\b/g)) {
      const ip = m[1]; if (!/^(198\.51\.100|203\.0\.113|127\.0\.0|10\.|192\.168\.|0\.0\.0)/.test(ip) && !/^\d\.\d+\.\d+\.\d+$/.test(ip)) E(id, 'IP not TEST-NET/private: ' + ip);
    }
    const L = t.description.length; if (L < 200) len.short++; else if (L < 700) len.mid++; else len.long++;
  });
}
const nonEnLangs = Object.keys(langs).filter(l => l !== 'en');
console.log('files', stats);
console.log('total', total, 'english', en, `(${(100 * en / total).toFixed(1)}%)`, 'non-English languages', nonEnLangs.length);
console.log('langs', JSON.stringify(langs));
console.log('description length', len);
console.log('distinct voices', Object.keys(voices).length, 'distinct servers', servers.size);
if (nonEnLangs.length < 25) errs.push('fewer than 25 non-English languages');
if (en / total > 0.5) errs.push('more than half English');
if (errs.length) { console.log('ERRORS', errs.length); errs.forEach(e => console.log('  ' + e)); process.exit(1); }
console.log('OK');
