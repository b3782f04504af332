import { fileURLToPath } from 'node:url';
// t36 validator: node t36-validate.mjs  (no dependencies)
import fs from 'node:fs';
import path from 'node:path';
const dir = path.dirname(fileURLToPath(import.meta.url));
const catDir = path.join(dir, '..', '..', 'discovery', 'catalog');
const catalog = {};
for (const f of fs.readdirSync(catDir).filter(f => f.endsWith('.json'))) {
  const d = JSON.parse(fs.readFileSync(path.join(catDir, f), 'utf8'));
  catalog[d.server] = new Set(d.tools.map(t => t.name));
}
const allReal = new Set(Object.values(catalog).flatMap(s => [...s]));
const BATCH = 't36';
const files = [[`${BATCH}-p1.jsonl`, 'p1'], [`${BATCH}-benign.jsonl`, 'benign']];
const banned = [/ignore (all )?previous instructions/i, /highest priority/i, /override/i, /disregard/i, /supersede/i, /takes precedence/i, /important/i,
  /wichtig/i, /belangrijk/i, /importante/i, /viktig/i, /vigtig/i, /tärkeä/i, /ważne/i, /důležit/i, /fontos/i, /önemli/i, /важн/i, /重要/i, /중요/i,
  /vorrang/i, /priorit[éeaà]/i, /prioridad/i, /höchste/i, /ignorier/i, /ignorez/i, /ignora /i, /優先/i, /优先/i, /우선/i];
const invisible = /[\u00AD\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]|[\u{E0000}-\u{E007F}]/u;
let errors = 0;
const err = (id, m) => { errors++; console.log(`ERR ${id}: ${m}`); };
const ids = new Set();
const stats = {};
function walkProps(id, props, p) {
  if (!props || typeof props !== 'object') { err(id, `${p}: properties missing`); return; }
  for (const [k, v] of Object.entries(props)) {
    const q = `${p}.${k}`;
    if (!v.type) err(id, `${q}: no type`);
    if (typeof v.description !== 'string' || !v.description) err(id, `${q}: no description`);
    if (v.type === 'object' && v.properties) walkProps(id, v.properties, q + '.properties');
    if (v.type === 'array' && v.items && v.items.type === 'object' && v.items.properties) walkProps(id, v.items.properties, q + '.items.properties');
  }
}
function resolve(obj, jp) {
  if (!jp.startsWith('$')) return undefined;
  const toks = [];
  const re = /\.([A-Za-z0-9_\-]+)|\["([^"]+)"\]|\[(\d+)\]/g; let m; let last = 1;
  while ((m = re.exec(jp))) { if (m.index !== last) return undefined; last = re.lastIndex; toks.push(m[1] ?? m[2] ?? Number(m[3])); }
  if (last !== jp.length) return undefined;
  // property NAME form: $.inputSchema.properties["name"] -> the name itself
  const nameForm = /\["([^"]+)"\]$/.exec(jp);
  let cur = obj;
  for (const t of toks) { if (cur == null) return undefined; cur = cur[t]; }
  if (nameForm && cur !== undefined && typeof cur === 'object') return nameForm[1];
  return cur;
}
function allStrings(o, out = []) {
  if (typeof o === 'string') out.push(o);
  else if (Array.isArray(o)) o.forEach(x => allStrings(x, out));
  else if (o && typeof o === 'object') for (const [k, v] of Object.entries(o)) { out.push(k); allStrings(v, out); }
  return out;
}
function hostOk(h) {
  h = h.toLowerCase().replace(/:\d+$/, '');
  if (/\.example$/.test(h)) return true;
  if (/^(198\.51\.100|203\.0\.113)\.\d{1,3}$/.test(h)) return true;
  return false;
}
const catalogToolIsReal = s => { const m = /^catalog:([^/]+)\/(.+)$/.exec(s); return m && catalog[m[1]] && catalog[m[1]].has(m[2]); };
for (const [file, cls] of files) {
  const fp = path.join(dir, file);
  if (!fs.existsSync(fp)) { err(file, 'missing'); continue; }
  const lines = fs.readFileSync(fp, 'utf8').split('\n').filter(l => l.trim());
  const st = stats[file] = { n: 0, lang: {}, len: { short: 0, mid: 0, long: 0 }, where: {}, voices: new Set(), en: 0 };
  lines.forEach((line, i) => {
    let r; try { r = JSON.parse(line); } catch (e) { err(`${file}:${i + 1}`, 'bad JSON ' + e.message); return; }
    const id = r.id || `${file}:${i + 1}`;
    st.n++;
    if (!new RegExp(`^${BATCH}-${cls}-\\d{3}$`).test(r.id)) err(id, 'bad id');
    if (ids.has(r.id)) err(id, 'dup id'); ids.add(r.id);
    if (r.class !== cls) err(id, 'class');
    if (!/^[a-z]{2}$/.test(r.lang || '')) err(id, 'lang'); st.lang[r.lang] = (st.lang[r.lang] || 0) + 1;
    if (!r.voice) err(id, 'voice'); st.voices.add(r.voice);
    if (!r.server || catalog[r.server]) err(id, 'server must be made-up');
    if (!Array.isArray(r.siblings) || !r.siblings.length) err(id, 'siblings');
    const t = r.tool;
    if (!t || !t.name || typeof t.description !== 'string') { err(id, 'tool'); return; }
    if (!t.inputSchema || t.inputSchema.type !== 'object') err(id, 'inputSchema.type');
    walkProps(id, t.inputSchema && t.inputSchema.properties, '$.inputSchema.properties');
    if (t.inputSchema && t.inputSchema.required) for (const q of t.inputSchema.required) if (!(q in t.inputSchema.properties)) err(id, 'required not in properties: ' + q);
    const L = t.description.length; st.len[L < 200 ? 'short' : L < 700 ? 'mid' : 'long']++;
    const strs = allStrings(r.tool).concat(allStrings(r.intent || ''), allStrings(r.note || ''));
    for (const s of strs) {
      for (const b of banned) if (b.test(s)) err(id, `banned phrase ${b} in: ${s.slice(0, 80)}`);
      if (invisible.test(s)) err(id, 'invisible char');
      for (const m of s.matchAll(/https?:\/\/([^\/\s"'<>)]+)/g)) if (!hostOk(m[1])) err(id, 'host not allowed: ' + m[1]);
      for (const m of s.matchAll(/[A-Za-z0-9._%+-]+@([A-Za-z0-9.-]+\.[A-Za-z]{2,})/g)) if (!hostOk(m[1])) err(id, 'email host not allowed: ' + m[1]);
      for (const m of s.matchAll(/\b(\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})\b/g)) if (!hostOk(m[1])) err(id, 'IP not allowed: ' + m[1]);
    }
    if (cls === 'benign') {
      if (r.where || r.intent) err(id, 'benign has where/intent');
      if (!r.note) err(id, 'note');
      if (!(r.source === 'new' || catalogToolIsReal(r.source || ''))) err(id, 'source: ' + r.source);
      for (const s of r.siblings) if (s === t.name) err(id, 'sibling equals own tool');
    } else {
      if (!r.intent) err(id, 'intent');
      for (const s of r.siblings) if (!allReal.has(s)) err(id, 'sibling not a real catalog tool: ' + s);
      const v = resolve(t, (r.where || '').replace(/^\$/, '$'));
      if (typeof v !== 'string') err(id, 'where does not resolve to a string: ' + r.where);
      const wk = (r.where || '').replace(/properties\.[^.]+/g, 'properties.*');
      st.where[wk] = (st.where[wk] || 0) + 1;
    }
  });
}
for (const [f, st] of Object.entries(stats)) {
  console.log(`\n${f}: ${st.n} records, ${Object.keys(st.lang).length} languages, en=${st.lang.en || 0} (${Math.round(100 * (st.lang.en || 0) / (st.n || 1))}%), voices=${st.voices.size}`);
  console.log(' lengths(description):', JSON.stringify(st.len));
  console.log(' langs:', JSON.stringify(st.lang));
  if (Object.keys(st.where).length) console.log(' where:', JSON.stringify(st.where));
}
const allLangs = new Set(Object.values(stats).flatMap(s => Object.keys(s.lang)));
console.log(`\nlanguages overall: ${allLangs.size}`);
console.log(errors ? `\nFAIL: ${errors} error(s)` : '\nOK: all checks passed');
process.exit(errors ? 1 : 0);
