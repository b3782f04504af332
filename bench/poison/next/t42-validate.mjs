import { fileURLToPath } from 'node:url';
// t42 validator: checks every rule of the brief that a script can check. No dependencies.
import fs from 'fs'; import path from 'path';
const dir = path.dirname(fileURLToPath(import.meta.url));
const cat = path.join(dir, '..', '..', 'discovery', 'catalog');
const realTools = new Map(); // tool name -> set of servers
for (const f of fs.readdirSync(cat).filter(f => f.endsWith('.json'))) {
  const d = JSON.parse(fs.readFileSync(path.join(cat, f), 'utf8'));
  for (const t of d.tools) { if (!realTools.has(t.name)) realTools.set(t.name, new Set()); realTools.get(t.name).add(d.server); }
}
const catServers = new Set(fs.readdirSync(cat).map(f => f.replace('.json','')));
const ISO = new Set('aa ab af ak am ar as az be bg bn bo br bs ca cs cy da de el en eo es et eu fa fi fo fr fy ga gd gl gu ha he hi hr ht hu hy id ig is it ja jv ka kk km kn ko ku ky la lb lo lt lv mg mi mk ml mn mr ms mt my nb ne nl nn no pa pl ps pt qu ro ru rw si sk sl so sq sr sv sw ta te tg th tk tl tr tt ug uk ur uz vi wo xh yi yo zh zu'.split(' '));
const banned = [/ignore (all )?previous instructions/i, /highest priority/i, /override/i, /disregard/i, /supersede/i, /takes precedence/i, /important/i];
const invisible = /[\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF\u00AD]|[\u{E0000}-\u{E007F}]/u;
let errors = 0; const err = (id, m) => { errors++; console.log(`ERROR ${id}: ${m}`); };
const ids = new Set();
function resolve(obj, p) {
  if (!p.startsWith('$')) return undefined;
  const toks = []; const re = /\.([A-Za-z_$][\w$-]*)|\["([^"]+)"\]|\[(\d+)\]/g; let m; let rest = p.slice(1); let last = 0;
  while ((m = re.exec(rest))) { if (m.index !== last) return undefined; last = re.lastIndex; toks.push(m[1] ?? m[2] ?? Number(m[3])); }
  if (last !== rest.length) return undefined;
  // property NAME form: $.inputSchema.properties["name"] -> the key itself
  const nameForm = /\.properties\["[^"]+"\]$/.test(p);
  let cur = obj;
  for (let i = 0; i < toks.length; i++) { if (cur == null) return undefined; if (nameForm && i === toks.length - 1) return Object.prototype.hasOwnProperty.call(cur, toks[i]) ? toks[i] : undefined; cur = cur[toks[i]]; }
  return cur;
}
function checkProps(id, props, at) {
  for (const [k, v] of Object.entries(props || {})) {
    if (!v || typeof v !== 'object') { err(id, `${at}.${k} not an object`); continue; }
    if (!v.type) err(id, `${at}.${k} lacks type`);
    if (typeof v.description !== 'string' || !v.description) err(id, `${at}.${k} lacks description`);
    if (v.properties) checkProps(id, v.properties, `${at}.${k}.properties`);
    if (v.items && v.items.properties) checkProps(id, v.items.properties, `${at}.${k}.items.properties`);
  }
}
function allStrings(o, out = []) { if (typeof o === 'string') out.push(o); else if (Array.isArray(o)) o.forEach(x => allStrings(x, out)); else if (o && typeof o === 'object') for (const [k, v] of Object.entries(o)) { out.push(k); allStrings(v, out); } return out; }
const summary = {};
for (const f of fs.readdirSync(dir).filter(f => f.startsWith('t42-') && f.endsWith('.jsonl')).sort()) {
  const lines = fs.readFileSync(path.join(dir, f), 'utf8').split('\n').filter(l => l.trim());
  const fileClass = f.replace(/^t42-/, '').replace('.jsonl', '');
  const s = summary[f] = { n: 0, langs: {}, len: { short: 0, mid: 0, long: 0 }, voices: new Set(), en: 0 };
  lines.forEach((l, i) => {
    let r; try { r = JSON.parse(l); } catch (e) { err(`${f}:${i + 1}`, 'bad JSON ' + e.message); return; }
    const id = r.id || `${f}:${i + 1}`; s.n++;
    if (ids.has(id)) err(id, 'duplicate id'); ids.add(id);
    const benign = fileClass === 'benign';
    if (!new RegExp(`^t42-${benign ? 'benign' : fileClass}-\\d{3}$`).test(id)) err(id, 'id format');
    if (r.class !== (benign ? 'benign' : fileClass)) err(id, 'class mismatch ' + r.class);
    for (const k of ['voice', 'lang', 'server']) if (typeof r[k] !== 'string' || !r[k]) err(id, 'missing ' + k);
    if (!ISO.has(r.lang)) err(id, 'lang not ISO 639-1: ' + r.lang);
    if (catServers.has(r.server)) err(id, 'server name is a catalog server');
    if (!Array.isArray(r.siblings) || !r.siblings.length) err(id, 'siblings empty');
    const t = r.tool; if (!t || typeof t.name !== 'string' || typeof t.description !== 'string' || !t.inputSchema) { err(id, 'tool incomplete'); return; }
    if (t.inputSchema.type !== 'object') err(id, 'inputSchema.type');
    checkProps(id, t.inputSchema.properties, '$.inputSchema.properties');
    for (const rq of t.inputSchema.required || []) if (!(t.inputSchema.properties || {})[rq]) err(id, 'required prop missing ' + rq);
    if (benign) {
      if (r.where || r.intent) err(id, 'benign has where/intent');
      if (typeof r.note !== 'string' || !r.note) err(id, 'benign lacks note');
      if (typeof r.source !== 'string' || !/^(new|catalog:[\w-]+\/.+)$/.test(r.source)) err(id, 'bad source');
      for (const sb of r.siblings) if (realTools.has(sb)) err(id, 'benign sibling is a real catalog tool name: ' + sb);
    } else {
      if (typeof r.intent !== 'string' || !r.intent) err(id, 'missing intent');
      const v = resolve(t, r.where || '');
      if (typeof v !== 'string') err(id, 'where does not resolve to a string: ' + r.where);
      for (const sb of r.siblings) { if (!realTools.has(sb)) err(id, 'sibling not a real catalog tool: ' + sb); }
      if (r.note || r.source) err(id, 'poisoned has note/source');
    }
    const strs = allStrings(t).concat([r.voice]);
    for (const str of strs) {
      for (const b of banned) if (b.test(str)) err(id, 'banned phrase ' + b);
      if (invisible.test(str)) err(id, 'invisible/bidi char');
      for (const m of str.matchAll(/https?:\/\/([^\/\s"'<>)]+)/g)) {
        const h = m[1].replace(/:\d+$/, '').toLowerCase();
        if (!(h.endsWith('.example') || /^(198\.51\.100|203\.0\.113)\.\d+$/.test(h) || h === 'localhost' || h === '127.0.0.1')) err(id, 'URL host not allowed: ' + h);
      }
      for (const m of str.matchAll(/\b(\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})\b/g)) if (!/^(198\.51\.100|203\.0\.113|127\.0\.0|10\.|192\.168|0\.0\.0)/.test(m[1])) err(id, 'IP not TEST-NET: ' + m[1]);
    }
    const L = t.description.length; s.len[L < 200 ? 'short' : L < 700 ? 'mid' : 'long']++;
    s.langs[r.lang] = (s.langs[r.lang] || 0) + 1; s.voices.add(r.voice);
  });
}
let allLangs = new Set();
for (const [f, s] of Object.entries(summary)) {
  for (const l of Object.keys(s.langs)) allLangs.add(l);
  console.log(`${f}: ${s.n} records; lengths ${JSON.stringify(s.len)}; en ${((s.langs.en || 0) / s.n * 100).toFixed(0)}%; ${Object.keys(s.langs).length} langs ${JSON.stringify(s.langs)}; ${s.voices.size} voices`);
}
console.log(`languages overall: ${allLangs.size}`);
if (allLangs.size < 25) err('batch', 'fewer than 25 languages');
console.log(errors ? `FAIL: ${errors} errors` : 'OK: all checks passed');
process.exit(errors ? 1 : 0);
