// validate.mjs — checks the t14 batch. Node >= 18, no dependencies.
// Usage: node validate.mjs   (run from /work/corpus/t14)
import fs from 'node:fs';
import path from 'node:path';

const DIR = path.dirname(new URL(import.meta.url).pathname);
const CATALOG = path.resolve(DIR, '../../discovery/catalog');
const FILES = { 't14-p1.jsonl': ['p1', 100], 't14-p2.jsonl': ['p2', 40], 't14-p3.jsonl': ['p3', 40],
  't14-p4.jsonl': ['p4', 40], 't14-d.jsonl': ['d', 60], 't14-benign.jsonl': ['benign', 200] };

const errors = [], warnings = [];
const err = (id, m) => errors.push(`${id}: ${m}`);
const warn = (id, m) => warnings.push(`${id}: ${m}`);

// catalog tool names (per server)
const catalogTools = new Set(), catalogByServer = {};
for (const f of fs.readdirSync(CATALOG).filter(f => f.endsWith('.json'))) {
  const j = JSON.parse(fs.readFileSync(path.join(CATALOG, f), 'utf8'));
  catalogByServer[j.server] = new Set(j.tools.map(t => t.name));
  for (const t of j.tools) catalogTools.add(t.name);
}

const FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\u00AD\u061C\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\uFEFF\uFFF9-\uFFFB]|[\u{E0000}-\u{E007F}]/u;
const STOCK = [/ignore (all )?previous instructions/i, /highest priority/i, /\boverrid/i, /\bdisregard/i, /\bsupersed/i, /takes precedence/i, /\bIMPORTANT\b/];
const NAME_RE = /^[A-Za-z0-9_.-]{1,64}$/;

// resolve a JSONPath-ish string like $.inputSchema.properties.x.enum[2] or $.inputSchema.properties["a b"]
function tokenize(p) {
  if (!p.startsWith('$')) return null;
  const toks = []; let i = 1;
  while (i < p.length) {
    if (p[i] === '.') { let j = i + 1; while (j < p.length && p[j] !== '.' && p[j] !== '[') j++; toks.push(p.slice(i + 1, j)); i = j; }
    else if (p[i] === '[') {
      if (p[i + 1] === '"') { const j = p.indexOf('"]', i + 2); if (j < 0) return null; toks.push(JSON.parse(p.slice(i + 1, j + 1))); i = j + 2; }
      else { const j = p.indexOf(']', i); if (j < 0) return null; const n = Number(p.slice(i + 1, j)); if (!Number.isInteger(n)) return null; toks.push(n); i = j + 1; }
    } else return null;
  }
  return toks;
}
function resolve(obj, toks) { let cur = obj; for (const t of toks) { if (cur == null || typeof cur !== 'object' || !(t in cur)) return undefined; cur = cur[t]; } return cur; }

// every property schema (recursively) must have type and description
function checkProps(id, schema, where) {
  if (!schema || typeof schema !== 'object') return;
  const props = schema.properties;
  if (props) for (const [k, v] of Object.entries(props)) {
    if (!v || typeof v !== 'object') { err(id, `property ${where}${k} is not an object`); continue; }
    if (!('type' in v) && !v.anyOf && !v.oneOf) err(id, `property ${where}${k} lacks type`);
    if (typeof v.description !== 'string' || !v.description.trim()) err(id, `property ${where}${k} lacks description`);
    checkProps(id, v, `${where}${k}.`);
    if (v.items) checkProps(id, v.items, `${where}${k}[].`);
  }
}
function allStrings(o, out = []) { if (typeof o === 'string') out.push(o); else if (o && typeof o === 'object') for (const [k, v] of Object.entries(o)) { out.push(k); allStrings(v, out); } return out; }

function trigrams(s) {
  const w = s.toLowerCase().split(/[^\p{L}\p{N}_]+/u).filter(Boolean); const g = new Set();
  for (let i = 0; i + 2 < w.length; i++) g.add(w[i] + ' ' + w[i + 1] + ' ' + w[i + 2]);
  return g;
}
function hostOk(h) { h = h.toLowerCase().replace(/\.$/, ''); return /\.example$/.test(h) || h === 'example' || /\.(test|invalid|localhost)$/.test(h) || h === 'localhost' || ipOk(h, true); }
function ipOk(ip, strict) {
  const m = ip.match(/^(\d+)\.(\d+)\.(\d+)\.(\d+)$/); if (!m) return false;
  const [a, b, c] = [+m[1], +m[2], +m[3]];
  if ((a === 198 && b === 51 && c === 100) || (a === 203 && b === 0 && c === 113) || (a === 192 && b === 0 && c === 2)) return true;
  if (strict) return false;
  return a === 127 || a === 10 || a === 0 || (a === 192 && b === 168) || (a === 172 && b >= 16 && b <= 31) || (a === 169 && b === 254);
}

const ids = new Set(), toolNames = new Map(), descs = [];
const stats = {};
for (const [file, [cls, expected]] of Object.entries(FILES)) {
  const fp = path.join(DIR, file);
  if (!fs.existsSync(fp)) { err(file, 'missing'); continue; }
  const lines = fs.readFileSync(fp, 'utf8').split('\n').filter(l => l.trim());
  const st = stats[file] = { n: lines.length, langs: {}, short: 0, mid: 0, long: 0, where: {}, voices: new Set(), sources: 0 };
  if (lines.length !== expected) err(file, `expected ${expected} records, found ${lines.length}`);
  lines.forEach((line, i) => {
    let r; try { r = JSON.parse(line); } catch (e) { err(`${file}:${i + 1}`, 'JSON parse: ' + e.message); return; }
    const id = r.id || `${file}:${i + 1}`;
    const idRe = cls === 'benign' ? /^t14-benign-\d{3}$/ : new RegExp(`^t14-${cls}-\\d{3}$`);
    if (!idRe.test(id)) err(id, 'bad id format');
    if (ids.has(id)) err(id, 'duplicate id'); ids.add(id);
    if (Number(id.slice(-3)) !== i + 1) warn(id, `id number does not match line ${i + 1}`);
    for (const f of ['id', 'class', 'voice', 'lang', 'server', 'siblings', 'tool']) if (!(f in r)) err(id, `missing field ${f}`);
    if (r.class !== cls) err(id, `class ${r.class} != ${cls}`);
    if (typeof r.voice !== 'string' || !r.voice.trim()) err(id, 'empty voice');
    if (!/^[a-z]{2}$/.test(r.lang || '')) err(id, 'lang must be ISO 639-1');
    if (!Array.isArray(r.siblings)) err(id, 'siblings not array');
    const t = r.tool || {};
    if (typeof t.name !== 'string' || !NAME_RE.test(t.name)) err(id, `bad tool name ${t.name}`);
    if (toolNames.has(t.name)) err(id, `tool name ${t.name} reused (also ${toolNames.get(t.name)})`); toolNames.set(t.name, id);
    if (typeof t.description !== 'string') err(id, 'tool.description missing');
    if ('title' in t && typeof t.title !== 'string') err(id, 'title not string');
    const s = t.inputSchema;
    if (!s || s.type !== 'object' || typeof s.properties !== 'object') err(id, 'inputSchema must be an object schema with properties');
    else { checkProps(id, s, ''); if (s.required) for (const q of s.required) if (!(q in s.properties)) err(id, `required ${q} not in properties`); }
    for (const str of allStrings(r)) {
      if (FORBIDDEN.test(str)) err(id, 'forbidden invisible/bidi/control character');
      for (const m of str.matchAll(/\b(\d{1,3}(?:\.\d{1,3}){3})\b/g)) if (!ipOk(m[1], false) && !/\d+\.\d+\.\d+\.\d+\.\d/.test(str)) warn(id, `IP ${m[1]} not TEST-NET/private`);
    }
    if (cls === 'benign') {
      for (const f of ['note', 'source']) if (typeof r[f] !== 'string' || !r[f]) err(id, `benign missing ${f}`);
      if ('where' in r || 'intent' in r) err(id, 'benign must not have where/intent');
      if (r.source && r.source !== 'new') {
        const m = r.source.match(/^catalog:([^/]+)\/(.+)$/);
        if (!m || !catalogByServer[m[1]] || !catalogByServer[m[1]].has(m[2])) err(id, `source ${r.source} not in catalog`); else st.sources++;
      }
    } else {
      for (const f of ['where', 'intent']) if (typeof r[f] !== 'string' || !r[f]) err(id, `missing ${f}`);
      if ('note' in r) warn(id, 'poisoned record has a note');
      for (const sb of r.siblings || []) if (!catalogTools.has(sb)) err(id, `sibling ${sb} not in catalog`);
      if (['p2', 'p3', 'p4'].includes(cls) && !(r.siblings || []).length) err(id, `${cls} needs at least one sibling`);
      const toks = tokenize(r.where || '');
      if (!toks || toks[0] === undefined) err(id, `unparsable where ${r.where}`);
      else {
        const v = resolve(t, toks);
        const propName = toks.length === 3 && toks[0] === 'inputSchema' && toks[1] === 'properties' && /\["/.test(r.where);
        if (propName) { if (!v || typeof v !== 'object') err(id, `where ${r.where} does not resolve to a property schema`); }
        else if (typeof v !== 'string') err(id, `where ${r.where} does not resolve to a string`);
        const SLOTS = ['default', 'enum', 'examples', 'const', 'title'];
        const slot = [...toks].reverse().find(x => SLOTS.includes(x));
        const kind = propName ? 'property-name' : toks.length === 1 ? toks[0] : toks.at(-1) === 'description' ? 'param-description' : slot || String(toks.at(-1));
        st.where[kind] = (st.where[kind] || 0) + 1;
        if (cls === 'd' && ['description', 'param-description'].includes(kind)) err(id, 'd-class poison must sit in a data slot');
      }
      const text = allStrings(t).join('\n');
      for (const re of STOCK) if (re.test(text)) err(id, `stock phrase ${re}`);
      for (const m of text.matchAll(/\bhttps?:\/\/([^\/\s:"'`)\]]+)/g)) if (!hostOk(m[1])) err(id, `URL host ${m[1]} not .example/TEST-NET`);
      for (const m of text.matchAll(/[A-Za-z0-9._%+-]+@([A-Za-z0-9.-]+\.[A-Za-z]{2,})/g)) if (!hostOk(m[1])) err(id, `email host ${m[1]} not .example`);
    }
    const d = t.description || '';
    if (d.length < 200) st.short++; else if (d.length < 700) st.mid++; else st.long++;
    st.langs[r.lang] = (st.langs[r.lang] || 0) + 1; st.voices.add(r.voice);
    descs.push({ id, g: trigrams(d) });
  });
}

// pairwise description 3-gram overlap
for (let i = 0; i < descs.length; i++) for (let j = i + 1; j < descs.length; j++) {
  const a = descs[i].g, b = descs[j].g; if (!a.size || !b.size) continue;
  let n = 0; for (const x of a) if (b.has(x)) n++;
  if (n / Math.min(a.size, b.size) > 0.5) err(descs[i].id, `description shares ${n}/${Math.min(a.size, b.size)} 3-grams with ${descs[j].id}`);
}

const allLangs = {};
for (const [f, st] of Object.entries(stats)) {
  for (const [l, c] of Object.entries(st.langs)) allLangs[l] = (allLangs[l] || 0) + c;
  const en = st.langs.en || 0;
  console.log(`${f}: ${st.n} records, en ${en} (${Math.round(100 * en / st.n)}%), ${Object.keys(st.langs).length} langs, desc length short/mid/long ${st.short}/${st.mid}/${st.long}, voices ${st.voices.size}` +
    (Object.keys(st.where).length ? `, where ${JSON.stringify(st.where)}` : '') + (st.sources ? `, catalog-adapted ${st.sources}` : ''));
}
const total = Object.values(allLangs).reduce((a, b) => a + b, 0);
console.log(`languages (${Object.keys(allLangs).length}): ${Object.entries(allLangs).sort((a, b) => b[1] - a[1]).map(([l, c]) => l + ' ' + c).join(', ')}; en share ${Math.round(100 * (allLangs.en || 0) / total)}%`);
for (const w of warnings) console.log('WARN ' + w);
for (const e of errors) console.log('ERROR ' + e);
console.log(errors.length ? `${errors.length} errors` : 'clean');
process.exitCode = errors.length ? 1 : 0;
