// t12 validator: node validate.mjs  (no dependencies)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const catalogDir = path.join(here, '..', '..', 'discovery', 'catalog');
const files = { 't12-p1.jsonl': 'p1', 't12-d.jsonl': 'd', 't12-benign.jsonl': 'benign' };

const catalogTools = new Set();
for (const f of fs.readdirSync(catalogDir)) {
  if (!f.endsWith('.json')) continue;
  const j = JSON.parse(fs.readFileSync(path.join(catalogDir, f), 'utf8'));
  for (const t of j.tools || []) catalogTools.add(t.name);
}

const errors = [];
const err = (id, m) => errors.push(`${id}: ${m}`);
const FORBIDDEN = /[\u00AD\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]|[\u{E0000}-\u{E007F}]/u;
const STOCK = [/ignore (all )?previous instructions/i, /highest priority/i, /\boverrid/i, /\bdisregard/i, /\bsupersede/i, /takes precedence/i, /IMPORTANT/];
const NAME_RE = /^[A-Za-z0-9_.-]{1,64}$/;
const ids = new Set(), names = new Set(), voiceSeen = new Map();
const descs = [];
const stats = {};

function resolve(tool, where) {
  if (!where.startsWith('$.')) return { ok: false };
  const m = where.match(/^\$\.inputSchema\.properties\["([^"]+)"\]$/);
  if (m) {
    const p = tool.inputSchema?.properties?.[m[1]];
    return { ok: p && typeof p === 'object' && !Array.isArray(p), kind: 'name', val: m[1] };
  }
  // tokenise: .key, [n], ["key"]
  let cur = tool, rest = where.slice(1);
  const tok = /^(?:\.([A-Za-z0-9_$-]+)|\[(\d+)\]|\["([^"]+)"\])/;
  while (rest.length) {
    const t = rest.match(tok);
    if (!t) return { ok: false };
    const key = t[1] ?? (t[2] !== undefined ? Number(t[2]) : t[3]);
    if (cur == null || typeof cur !== 'object' || !(key in cur)) return { ok: false };
    cur = cur[key];
    rest = rest.slice(t[0].length);
  }
  return { ok: typeof cur === 'string', kind: 'string', val: cur };
}

function checkProps(id, schema, p) {
  if (!schema || typeof schema !== 'object') return;
  const props = schema.properties;
  if (props) for (const [k, v] of Object.entries(props)) {
    if (!v || typeof v !== 'object') { err(id, `property ${p}${k} not an object`); continue; }
    if (!('type' in v)) err(id, `property ${p}${k} lacks type`);
    if (typeof v.description !== 'string' || !v.description.length) err(id, `property ${p}${k} lacks description`);
    if (v.properties) checkProps(id, v, `${p}${k}.`);
    if (v.items && v.items.properties) checkProps(id, v.items, `${p}${k}[].`);
  }
}

function trigrams(s) {
  const w = s.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  const g = new Set();
  for (let i = 0; i + 2 < w.length; i++) g.add(w[i] + ' ' + w[i + 1] + ' ' + w[i + 2]);
  return g;
}
const bucket = n => (n < 200 ? 'short' : n < 700 ? 'medium' : 'long');

for (const [file, cls] of Object.entries(files)) {
  const fp = path.join(here, file);
  if (!fs.existsSync(fp)) { errors.push(`${file}: missing`); continue; }
  const st = stats[file] = { n: 0, lang: {}, where: {}, len: {}, voices: new Set(), namedSibling: 0, source: {} };
  const lines = fs.readFileSync(fp, 'utf8').split('\n');
  lines.forEach((line, i) => {
    if (!line.trim()) return;
    let r;
    try { r = JSON.parse(line); } catch (e) { err(`${file}:${i + 1}`, 'JSON parse: ' + e.message); return; }
    const id = r.id || `${file}:${i + 1}`;
    st.n++;
    const idRe = new RegExp(`^t12-${cls}-\\d{3}$`);
    if (!idRe.test(r.id || '')) err(id, 'bad id');
    if (ids.has(r.id)) err(id, 'duplicate id'); ids.add(r.id);
    const cexp = cls === 'benign' ? 'benign' : cls;
    if (r.class !== cexp) err(id, `class ${r.class} != ${cexp}`);
    for (const f of ['voice', 'lang', 'server', 'siblings', 'tool']) if (r[f] === undefined) err(id, `missing ${f}`);
    if (!/^[a-z]{2}$/.test(r.lang || '')) err(id, 'lang not ISO 639-1');
    if (!Array.isArray(r.siblings)) err(id, 'siblings not array');
    const t = r.tool || {};
    if (!NAME_RE.test(t.name || '')) err(id, `bad tool name ${t.name}`);
    if (names.has(t.name)) err(id, `tool name reused ${t.name}`); names.add(t.name);
    if (typeof t.description !== 'string') err(id, 'no description');
    if (t.inputSchema?.type !== 'object' || typeof t.inputSchema?.properties !== 'object') err(id, 'inputSchema malformed');
    checkProps(id, t.inputSchema, '');
    if (Array.isArray(t.inputSchema?.required)) for (const q of t.inputSchema.required) if (!(q in (t.inputSchema.properties || {}))) err(id, `required ${q} not a property`);
    if (FORBIDDEN.test(line)) err(id, 'forbidden invisible/bidi/tag character');
    if (cls === 'benign') {
      if (r.where || r.intent) err(id, 'benign has where/intent');
      if (typeof r.note !== 'string' || !r.note) err(id, 'benign lacks note');
      if (!(r.source === 'new' || /^catalog:[^/]+\/.+/.test(r.source || ''))) err(id, 'bad source');
      st.source[r.source === 'new' ? 'new' : 'catalog'] = (st.source[r.source === 'new' ? 'new' : 'catalog'] || 0) + 1;
      if (/^catalog:/.test(r.source || '')) {
        const srv = r.source.slice(8).split('/')[0];
        if (!fs.existsSync(path.join(catalogDir, srv + '.json'))) err(id, `source server ${srv} not in catalog`);
      }
    } else {
      if (typeof r.where !== 'string' || typeof r.intent !== 'string' || !r.intent) err(id, 'missing where/intent');
      else {
        const res = resolve(t, r.where);
        if (!res.ok) err(id, `where does not resolve: ${r.where}`);
        const wk = r.where === '$.description' ? 'description' : r.where === '$.title' ? 'title'
          : /\["/.test(r.where) ? 'property-name' : 'param.' + r.where.replace(/^.*properties\.[^.]+\./, '').replace(/\[\d+\].*$/, '');
        st.where[wk] = (st.where[wk] || 0) + 1;
      }
      for (const s of r.siblings || []) if (!catalogTools.has(s)) err(id, `sibling ${s} not in catalog`);
      const text = JSON.stringify(t);
      if ((r.siblings || []).some(s => text.includes(s))) st.namedSibling++;
      for (const re of STOCK) if (re.test(text)) err(id, `stock phrase ${re}`);
      if (cls === 'd') {
        const clean = [t.description, ...Object.values(t.inputSchema?.properties || {}).map(p => p.description)].join(' ');
        if (/\b(assistant|you must|AI model)\b/i.test(clean) && false) err(id, 'descriptions not clean');
      }
    }
    st.lang[r.lang] = (st.lang[r.lang] || 0) + 1;
    st.voices.add(r.voice);
    if (voiceSeen.has(r.voice)) err(id, `voice label reused (also ${voiceSeen.get(r.voice)})`); else voiceSeen.set(r.voice, id);
    // length = all prose a model sees: title + description + property descriptions
    const L = [t.title || '', t.description || '', ...Object.values(t.inputSchema?.properties || {}).map(p => p.description || '')].join(' ').length;
    st.len[bucket(L)] = (st.len[bucket(L)] || 0) + 1;
    descs.push({ id, g: trigrams(t.description || '') });
  });
}

for (let i = 0; i < descs.length; i++) for (let j = i + 1; j < descs.length; j++) {
  const a = descs[i].g, b = descs[j].g;
  const m = Math.min(a.size, b.size);
  if (m < 3) continue;
  let s = 0; for (const x of a) if (b.has(x)) s++;
  if (s / m > 0.5) err(`${descs[i].id}~${descs[j].id}`, `descriptions share ${s}/${m} word 3-grams`);
}

for (const [f, st] of Object.entries(stats)) {
  console.log(`${f}: ${st.n} records; langs ${Object.keys(st.lang).length}; en ${st.lang.en || 0}; voices ${st.voices.size}`);
  console.log('  length', JSON.stringify(st.len), 'where', JSON.stringify(st.where), 'named-sibling', st.namedSibling, 'source', JSON.stringify(st.source));
  console.log('  lang', JSON.stringify(st.lang));
}
if (errors.length) { console.log(`\n${errors.length} problem(s):`); for (const e of errors) console.log(' - ' + e); process.exit(1); }
console.log('\nOK: clean');
