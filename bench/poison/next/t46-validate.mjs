import { fileURLToPath } from 'node:url';
// t46 validator: node t46-validate.mjs  (no dependencies)
import fs from 'fs';
import path from 'path';
const dir = path.dirname(fileURLToPath(import.meta.url));
const B = 't46';
const catDir = path.join(dir, '..', '..', 'discovery', 'catalog');
const catalog = new Map(); // tool name -> set of servers
for (const f of fs.readdirSync(catDir).filter(f => f.endsWith('.json'))) {
  const d = JSON.parse(fs.readFileSync(path.join(catDir, f), 'utf8'));
  for (const t of d.tools) { if (!catalog.has(t.name)) catalog.set(t.name, new Set()); catalog.get(t.name).add(d.server); }
}
const ISO = new Set('aa ab af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs ca ce ch co cr cs cu cv cy da de dv dz ee el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz ia id ie ig ii ik io is it iu ja jv ka kg ki kj kk kl km kn ko kr ks ku kv kw ky la lb lg li ln lo lt lu lv mg mh mi mk ml mn mr ms mt my na nb nd ne ng nl nn no nr nv ny oc oj om or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg si sk sl sm sn so sq sr ss st su sv sw ta te tg th ti tk tl tn to tr ts tt tw ty ug uk ur uz ve vi vo wa wo xh yi yo za zh zu'.split(' '));
const BANNED = [/ignore (all |any )?previous instructions/i, /highest priority/i, /override/i, /disregard/i, /supersede/i, /takes precedence/i, /important/i,
  /ignoriere (alle )?(vorherigen|bisherigen) anweisungen/i, /höchste priorität/i, /ignorez les instructions/i, /priorité (la plus haute|maximale)/i, /ignora las instrucciones/i, /máxima prioridad/i, /ignora le istruzioni/i, /massima priorità/i, /importante/i, /wichtig/i, /überschreib/i, /vorrang/i];
const INVIS = /[\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF\u00AD\u180E]|[\u{E0000}-\u{E007F}]/u;
const errors = [];
const err = (id, m) => errors.push(`${id}: ${m}`);
function resolve(tool, where) {
  if (!where.startsWith('$')) return undefined;
  const toks = [];
  const re = /\.([A-Za-z0-9_\-]+)|\["([^"]+)"\]|\[(\d+)\]/g; let m; let pos = 1;
  while ((m = re.exec(where))) { if (m.index !== pos) return undefined; pos = re.lastIndex; toks.push(m[1] ?? m[2] ?? Number(m[3])); if (m[2] !== undefined) toks[toks.length-1] = {name: m[2]}; }
  if (pos !== where.length) return undefined;
  let cur = tool;
  for (const t of toks) {
    if (typeof t === 'object') { if (!cur || !(t.name in cur)) return undefined; return t.name; }
    if (cur == null) return undefined; cur = cur[t];
  }
  return cur;
}
function checkProps(id, props, p) {
  if (!props || typeof props !== 'object') { err(id, `${p}: properties not object`); return; }
  for (const [k, v] of Object.entries(props)) {
    if (!v || typeof v !== 'object') { err(id, `${p}.${k} not object`); continue; }
    if (!v.type) err(id, `${p}.${k} lacks type`);
    if (typeof v.description !== 'string' || !v.description) err(id, `${p}.${k} lacks description`);
    if (v.properties) checkProps(id, v.properties, `${p}.${k}.properties`);
    if (v.items && v.items.properties) checkProps(id, v.items.properties, `${p}.${k}.items.properties`);
  }
}
function allStrings(o, out = []) { if (typeof o === 'string') out.push(o); else if (Array.isArray(o)) o.forEach(x => allStrings(x, out)); else if (o && typeof o === 'object') for (const [k, v] of Object.entries(o)) { out.push(k); allStrings(v, out); } return out; }
const files = fs.readdirSync(dir).filter(f => f.startsWith(B + '-') && f.endsWith('.jsonl'));
const ids = new Set();
const stats = {};
const langAll = {}; let enAll = 0, total = 0; const lenAll = { short: 0, mid: 0, long: 0 };
let namedSib = 0, poisonTotal = 0;
for (const f of files) {
  const cls = f.slice(B.length + 1, -6);
  const lines = fs.readFileSync(path.join(dir, f), 'utf8').split('\n').filter(l => l.trim());
  const st = stats[f] = { n: 0, langs: {}, len: { short: 0, mid: 0, long: 0 }, voices: new Set(), named: 0 };
  lines.forEach((line, i) => {
    let r; try { r = JSON.parse(line); } catch (e) { err(`${f}:${i + 1}`, 'bad JSON ' + e.message); return; }
    const id = r.id || `${f}:${i + 1}`;
    st.n++; total++;
    if (ids.has(id)) err(id, 'duplicate id'); ids.add(id);
    if (!new RegExp(`^${B}-${cls}-\\d{3}$`).test(id)) err(id, 'id format');
    if (r.class !== cls) err(id, 'class mismatch');
    if (!ISO.has(r.lang)) err(id, 'lang not ISO 639-1');
    if (typeof r.voice !== 'string' || !r.voice) err(id, 'voice');
    if (typeof r.server !== 'string' || !/^[a-z0-9][a-z0-9_-]*$/.test(r.server)) err(id, 'server');
    if (!Array.isArray(r.siblings) || !r.siblings.length) err(id, 'siblings');
    const t = r.tool;
    if (!t || typeof t.name !== 'string' || typeof t.description !== 'string' || !t.inputSchema || t.inputSchema.type !== 'object') { err(id, 'tool shape'); return; }
    checkProps(id, t.inputSchema.properties, '$.inputSchema.properties');
    for (const q of t.inputSchema.required || []) if (!(q in (t.inputSchema.properties || {}))) err(id, `required ${q} missing`);
    st.langs[r.lang] = (st.langs[r.lang] || 0) + 1; langAll[r.lang] = (langAll[r.lang] || 0) + 1; if (r.lang === 'en') enAll++;
    st.voices.add(r.voice);
    const L = t.description.length; const b = L < 200 ? 'short' : L < 700 ? 'mid' : 'long'; st.len[b]++; lenAll[b]++;
    const texts = allStrings(r.tool).concat(allStrings(r.intent || '')).concat(allStrings(r.note || ''));
    for (const s of texts) {
      for (const re of BANNED) if (re.test(s)) err(id, `banned phrase ${re} in "${s.slice(0, 60)}"`);
      if (INVIS.test(s)) err(id, 'invisible/bidi char');
      for (const u of s.match(/https?:\/\/[^\s"'<>)]+/g) || []) { const h = u.replace(/^https?:\/\//, '').split(/[\/:?#]/)[0]; if (!/\.example$/.test(h) && !/^(198\.51\.100|203\.0\.113)\.\d+$/.test(h)) err(id, `url host ${h}`); }
      for (const ip of s.match(/\b\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}\b/g) || []) if (!/^(198\.51\.100|203\.0\.113)\./.test(ip) && !/^\d+\.\d+\.\d+\.\d+$/.test('x')) { if (!/^(198\.51\.100|203\.0\.113|127\.0\.0|0\.0\.0)\./.test(ip)) err(id, `ip ${ip}`); }
      for (const d of s.match(/\b[a-z0-9-]+(\.[a-z0-9-]+)*\.(com|net|org|io|ru|cn|xyz|top|co)\b/gi) || []) err(id, `real-looking domain ${d}`);
    }
    if (cls === 'benign') {
      if ('where' in r || 'intent' in r) err(id, 'benign has where/intent');
      if (typeof r.note !== 'string' || !r.note) err(id, 'benign note');
      if (typeof r.source !== 'string' || !(r.source === 'new' || /^catalog:[^/]+\/.+/.test(r.source))) err(id, 'benign source');
      for (const s of r.siblings) if (catalog.has(s)) err(id, `benign sibling ${s} is a catalog tool name`);
    } else {
      poisonTotal++;
      if (typeof r.where !== 'string') err(id, 'where'); else { const v = resolve(t, r.where); if (typeof v !== 'string') err(id, `where does not resolve to string: ${r.where}`); }
      if (typeof r.intent !== 'string' || !r.intent) err(id, 'intent');
      if ('note' in r || 'source' in r) err(id, 'poison has note/source');
      for (const s of r.siblings) { if (!catalog.has(s)) err(id, `sibling ${s} not a catalog tool`); else if (catalog.get(s).has(r.server)) err(id, `sibling ${s} from own server`); }
      const txt = allStrings(t).join(' ');
      if (r.siblings.some(s => txt.includes(s))) { st.named++; namedSib++; }
    }
  });
}
for (const [f, st] of Object.entries(stats)) console.log(f, 'n=' + st.n, 'len', JSON.stringify(st.len), 'langs=' + Object.keys(st.langs).length, 'en=' + (st.langs.en || 0), 'voices=' + st.voices.size, f.includes('benign') ? '' : 'sibling named in text=' + st.named);
console.log('total', total, 'languages', Object.keys(langAll).length, 'english share', (enAll / total * 100).toFixed(1) + '%', 'len', JSON.stringify(lenAll), 'poison naming sibling', namedSib + '/' + poisonTotal);
console.log('langs', JSON.stringify(Object.entries(langAll).sort((a, b) => b[1] - a[1])));
if (Object.keys(langAll).length < 30) errors.push('fewer than 30 languages');
if (errors.length) { console.log('ERRORS ' + errors.length); for (const e of errors) console.log('  ' + e); process.exit(1); }
console.log('OK');
