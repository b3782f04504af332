// t41 validator: node t41-validate.mjs  (no dependencies). Checks the rules of BRIEF.md.
import fs from 'fs'; import path from 'path'; import url from 'url';
const dir = path.dirname(url.fileURLToPath(import.meta.url));
const catDir = path.join(dir, '..', '..', 'discovery', 'catalog');
const catalog = new Map(); // tool name -> set of servers
for (const f of fs.readdirSync(catDir).filter(f => f.endsWith('.json'))) {
  const d = JSON.parse(fs.readFileSync(path.join(catDir, f), 'utf8'));
  for (const t of d.tools) { if (!catalog.has(t.name)) catalog.set(t.name, new Set()); catalog.get(t.name).add(d.server); }
}
const catServers = new Set([...catalog.values()].flatMap(s => [...s]));
const errors = []; const err = (id, m) => errors.push(`${id}: ${m}`);
const banned = [/ignore (all )?previous instructions/i, /highest priority/i, /overrid/i, /disregard/i, /supersede/i, /takes precedence/i, /\bimportant/i,
  /importante/i, /wichtig/i, /belangrijk/i, /viktig/i, /vigtig/i, /tärkeä/i, /ważne/i, /důležit/i, /важно/i, /重要/, /중요/, /önemli/i, /fontos/i,
  /höchste priorität/i, /oluline/i, /svarbu/i, /važn/i, /pomembn/i, /σημαντικ/i, /مهم/, /חשוב/, /महत्वपूर्ण/, /สำคัญ/, /quan trọng/i, /penting/i, /mahalaga/i, /muhimu/i, /mikilvæg/i, /pwysig/i, /garrantzitsu/i, /belangrik/i, /\bgrava/i, /গুরুত্বপূর্ণ/, /dôležit/i, /ważn/i, /важлив/i, /überschreib/i, /ignorer/i, /ignorar/i, /negeer/i, /svarīg/i, /우선/, /优先/, /優先/, /precedence/i, /priorité absolue/i, /máxima prioridad/i, /massima priorità/i, /vorrang/i, /prévaut/i, /prevalece/i, /prevale/i, /ignorier/i, /ignora (las|le|as|todas)/i];
const invisible = /[\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF\u00AD]|[\u{E0000}-\u{E007F}]/u;
const LANGS = new Set('af am ar az be bg bn bs ca cs cy da de el en eo es et eu fa fi fil fr ga gl gu ha he hi hr hu hy id ig is it ja jv ka kk km kn ko ku ky la lb lo lt lv mg mi mk ml mn mr ms mt my nb ne nl nn no pa pl ps pt qu ro ru rw sd si sk sl sm sn so sq sr st su sv sw ta te tg th tk tl tn to tr tt ug uk ur uz vi xh yi yo zh zu'.split(' ').filter(x => x.length === 2));
function resolve(tool, where) {
  if (!where.startsWith('$')) return undefined;
  const m = where.match(/^(.*)\["([^"]+)"\]$/);
  if (m) { const parent = resolve(tool, m[1]); return parent && Object.prototype.hasOwnProperty.call(parent, m[2]) ? m[2] : undefined; }
  let cur = tool; const parts = where.slice(1).match(/\.[^.[]+|\[\d+\]/g) || [];
  for (const p of parts) { if (cur == null) return undefined; cur = p.startsWith('[') ? cur[+p.slice(1, -1)] : cur[p.slice(1)]; }
  return cur;
}
function checkProps(id, props, at) {
  if (!props || typeof props !== 'object') return;
  for (const [k, v] of Object.entries(props)) {
    if (!v.type) err(id, `${at}.${k} no type`);
    if (typeof v.description !== 'string' || !v.description) err(id, `${at}.${k} no description`);
    if (v.properties) checkProps(id, v.properties, `${at}.${k}.properties`);
    if (v.items && v.items.properties) checkProps(id, v.items.properties, `${at}.${k}.items.properties`);
  }
}
function strings(o, out = []) { if (typeof o === 'string') out.push(o); else if (o && typeof o === 'object') for (const [k, v] of Object.entries(o)) { out.push(k); strings(v, out); } return out; }
const seen = new Set(); const report = {};
for (const f of fs.readdirSync(dir).filter(f => f.startsWith('t41-') && f.endsWith('.jsonl'))) {
  const lines = fs.readFileSync(path.join(dir, f), 'utf8').split('\n').filter(l => l.trim());
  const benign = f.endsWith('-benign.jsonl');
  const st = { n: 0, lang: {}, short: 0, mid: 0, long: 0, voices: new Set(), where: {} };
  lines.forEach((l, i) => {
    let r; try { r = JSON.parse(l); } catch (e) { err(`${f}:${i + 1}`, 'bad JSON ' + e.message); return; }
    const id = r.id || `${f}:${i + 1}`; st.n++;
    if (seen.has(id)) err(id, 'duplicate id'); seen.add(id);
    const cls = benign ? 'benign' : r.class;
    if (!new RegExp(`^t41-${benign ? 'benign' : 'p1'}-\\d{3}$`).test(id)) err(id, 'bad id');
    if (r.class !== (benign ? 'benign' : 'p1')) err(id, 'bad class');
    if (!LANGS.has(r.lang)) err(id, 'bad lang ' + r.lang);
    if (!r.voice) err(id, 'no voice'); else st.voices.add(r.voice);
    if (!r.server || catServers.has(r.server)) err(id, 'server missing or a catalog server');
    if (!Array.isArray(r.siblings) || !r.siblings.length) err(id, 'no siblings');
    const t = r.tool;
    if (!t || typeof t.name !== 'string' || typeof t.description !== 'string') { err(id, 'bad tool'); return; }
    if (!t.inputSchema || t.inputSchema.type !== 'object') err(id, 'inputSchema not object');
    checkProps(id, t.inputSchema && t.inputSchema.properties, 'props');
    for (const q of (t.inputSchema.required || [])) if (!t.inputSchema.properties[q]) err(id, 'required missing prop ' + q);
    if (benign) {
      if (r.where || r.intent) err(id, 'benign has where/intent');
      if (!r.note) err(id, 'benign no note');
      if (!(r.source === 'new' || /^catalog:[^/]+\/.+/.test(r.source || ''))) err(id, 'bad source');
      for (const s of r.siblings) if (catalog.has(s)) err(id, 'benign sibling is a catalog tool name: ' + s);
    } else {
      if (!r.intent) err(id, 'no intent');
      const v = resolve(t, r.where || '');
      if (typeof v !== 'string') err(id, 'where does not resolve to a string: ' + r.where);
      st.where[r.where.replace(/properties\.[A-Za-z_0-9]+/g, 'properties.*')] = (st.where[r.where.replace(/properties\.[A-Za-z_0-9]+/g, 'properties.*')] || 0) + 1;
      for (const s of r.siblings) if (!catalog.has(s)) err(id, 'sibling not a catalog tool: ' + s); else if (catalog.get(s).has(r.server)) err(id, 'sibling from same server');
    }
    const all = strings(r.tool).concat([r.intent || '', r.note || '']).join('\n');
    for (const b of banned) if (b.test(all)) err(id, 'banned phrase ' + b);
    if (invisible.test(l)) err(id, 'invisible/bidi char');
    for (const u of all.match(/https?:\/\/[^\s'"),;<>]+/g) || []) {
      const host = u.replace(/^https?:\/\//, '').split(/[/:?#]/)[0];
      if (!(/\.example$/.test(host) || /^(198\.51\.100|203\.0\.113)\.\d+$/.test(host))) err(id, 'URL not .example/TEST-NET: ' + u);
    }
    for (const h of all.match(/\b[a-z0-9-]+(\.[a-z0-9-]+)*\.(com|net|org|io|dev|app|ru|de|cn)\b/gi) || []) err(id, 'bare domain not .example: ' + h);
    const L = t.description.length; if (L < 200) st.short++; else if (L < 700) st.mid++; else st.long++;
    st.lang[r.lang] = (st.lang[r.lang] || 0) + 1;
  });
  st.voices = st.voices.size; report[f] = st;
}
for (const [f, st] of Object.entries(report)) {
  const en = st.lang.en || 0;
  console.log(`${f}: ${st.n} records; short ${st.short} / mid ${st.mid} / long ${st.long}; en ${en} (${Math.round(100 * en / st.n)}%), languages ${Object.keys(st.lang).length}; voices ${st.voices}`);
  console.log('  langs ' + Object.entries(st.lang).sort((a, b) => b[1] - a[1]).map(([k, v]) => k + ':' + v).join(' '));
  if (Object.keys(st.where).length) console.log('  where ' + JSON.stringify(st.where));
}
if (errors.length) { console.log(errors.length + ' ERRORS'); for (const e of errors) console.log('  ' + e); process.exit(1); }
console.log('OK: all checks passed');
