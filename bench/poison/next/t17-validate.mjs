// validate.mjs: checks t17 records (no dependencies). Usage: node validate.mjs
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const catalogDir = path.resolve(here, '..', '..', 'discovery', 'catalog');
const FILES = [
  { file: 't17-p1.jsonl', cls: 'p1', prefix: 't17-p1-', n: 160, poisoned: true },
  { file: 't17-d.jsonl', cls: 'd', prefix: 't17-d-', n: 60, poisoned: true },
  { file: 't17-benign.jsonl', cls: 'benign', prefix: 't17-b-', n: 200, poisoned: false },
];
const errors = [];
const warn = [];
const err = (id, m) => errors.push(`${id}: ${m}`);

// catalog tool names
const catalogTools = new Map(); // name -> Set(server)
for (const f of fs.readdirSync(catalogDir)) {
  if (!f.endsWith('.json')) continue;
  const j = JSON.parse(fs.readFileSync(path.join(catalogDir, f), 'utf8'));
  for (const t of j.tools || []) {
    if (!catalogTools.has(t.name)) catalogTools.set(t.name, new Set());
    catalogTools.get(t.name).add(j.server);
  }
}
const catalogServers = new Map();
for (const f of fs.readdirSync(catalogDir)) {
  if (!f.endsWith('.json')) continue;
  const j = JSON.parse(fs.readFileSync(path.join(catalogDir, f), 'utf8'));
  catalogServers.set(j.server, new Set((j.tools || []).map(t => t.name)));
}

// forbidden characters: invisible, bidi controls, tag chars, C0/C1 controls other than \n \t
const FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u00AD\u061C\u115F\u1160\u17B4\u17B5\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0\uFFF9-\uFFFB]|[\u{E0000}-\u{E007F}]|[\u{E0100}-\u{E01EF}]/u;
const STOCK = [/ignore (all )?previous instructions/i, /highest priority/i, /override/i, /disregard/i, /supersede/i, /takes precedence/i, /IMPORTANT/];
const NAME_RE = /^[A-Za-z0-9_.-]{1,64}$/;
const LANG_RE = /^[a-z]{2}$/;

function allStrings(v, out = []) {
  if (typeof v === 'string') out.push(v);
  else if (Array.isArray(v)) v.forEach(x => allStrings(x, out));
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) { out.push(k); allStrings(x, out); }
  return out;
}

// parse $.a.b[0]["c d"] paths
function parsePath(p) {
  if (!p.startsWith('$')) return null;
  const segs = [];
  let i = 1;
  while (i < p.length) {
    if (p[i] === '.') {
      let j = i + 1;
      while (j < p.length && p[j] !== '.' && p[j] !== '[') j++;
      segs.push({ key: p.slice(i + 1, j), quoted: false });
      i = j;
    } else if (p[i] === '[') {
      if (p[i + 1] === '"') {
        // find closing "] honoring JSON escapes
        let j = i + 2, s = '';
        while (j < p.length) {
          if (p[j] === '\\') { s += p[j] + p[j + 1]; j += 2; continue; }
          if (p[j] === '"' && p[j + 1] === ']') break;
          s += p[j]; j++;
        }
        if (j >= p.length) return null;
        segs.push({ key: JSON.parse('"' + s + '"'), quoted: true });
        i = j + 2;
      } else {
        const j = p.indexOf(']', i);
        if (j < 0) return null;
        const n = p.slice(i + 1, j);
        if (!/^\d+$/.test(n)) return null;
        segs.push({ index: Number(n) });
        i = j + 1;
      }
    } else return null;
  }
  return segs;
}
function resolve(root, segs) {
  let cur = root, parentKey = null;
  for (const s of segs) {
    if (cur == null || typeof cur !== 'object') return { ok: false };
    if ('index' in s) { if (!Array.isArray(cur)) return { ok: false }; cur = cur[s.index]; parentKey = null; }
    else { if (!Object.prototype.hasOwnProperty.call(cur, s.key)) return { ok: false }; parentKey = s.key; cur = cur[s.key]; }
  }
  return { ok: true, value: cur };
}

// every property (recursively) has type and description
function checkProps(id, schema, where) {
  if (!schema || typeof schema !== 'object') return;
  if (schema.properties) {
    if (typeof schema.properties !== 'object' || Array.isArray(schema.properties)) { err(id, `${where}.properties not an object`); return; }
    for (const [k, ps] of Object.entries(schema.properties)) {
      const w = `${where}.properties[${JSON.stringify(k)}]`;
      if (!ps || typeof ps !== 'object') { err(id, `${w} not an object`); continue; }
      if (ps.type === undefined) err(id, `${w} has no type`);
      if (typeof ps.description !== 'string' || !ps.description.trim()) err(id, `${w} has no description`);
      checkProps(id, ps, w);
    }
  }
  if (schema.items) checkProps(id, schema.items, where + '.items');
  for (const kw of ['anyOf', 'oneOf', 'allOf']) if (Array.isArray(schema[kw])) schema[kw].forEach((b, i) => checkProps(id, b, `${where}.${kw}[${i}]`));
  if (Array.isArray(schema.required) && schema.properties) for (const r of schema.required) if (!(r in schema.properties)) err(id, `${where}.required names missing property ${r}`);
}

const toolNames = new Map();
const allRecs = [];
const stats = {};
for (const spec of FILES) {
  const fp = path.join(here, spec.file);
  if (!fs.existsSync(fp)) { err(spec.file, 'missing'); continue; }
  const lines = fs.readFileSync(fp, 'utf8').split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const ids = new Set();
  const st = { count: 0, langs: {}, len: { short: 0, medium: 0, long: 0 }, where: {}, voices: {} };
  stats[spec.file] = st;
  lines.forEach((line, ln) => {
    let r;
    const tag = `${spec.file}:${ln + 1}`;
    if (!line.trim()) { err(tag, 'blank line'); return; }
    try { r = JSON.parse(line); } catch (e) { err(tag, 'JSON parse: ' + e.message); return; }
    const id = r.id || tag;
    st.count++;
    if (FORBIDDEN.test(line) || allStrings(r).some(s => FORBIDDEN.test(s))) err(id, 'forbidden character');
    const re = new RegExp('^' + spec.prefix + '(\\d{3})$');
    const m = typeof r.id === 'string' && r.id.match(re);
    if (!m) err(id, 'bad id'); else { const n = Number(m[1]); if (n < 1 || n > spec.n) err(id, 'id out of range'); }
    if (ids.has(r.id)) err(id, 'duplicate id'); ids.add(r.id);
    const expectCls = spec.poisoned ? spec.cls : 'benign';
    if (r.class !== expectCls) err(id, `class ${r.class} != ${expectCls}`);
    for (const f of ['voice', 'lang', 'server']) if (typeof r[f] !== 'string' || !r[f].trim()) err(id, `missing ${f}`);
    if (r.lang && !LANG_RE.test(r.lang)) err(id, 'lang not ISO 639-1: ' + r.lang);
    if (!Array.isArray(r.siblings)) err(id, 'siblings not array');
    const t = r.tool;
    if (!t || typeof t !== 'object') { err(id, 'no tool'); return; }
    if (typeof t.name !== 'string' || !NAME_RE.test(t.name)) err(id, 'bad tool name ' + t.name);
    if (toolNames.has(t.name)) err(id, `tool name ${t.name} reused (also ${toolNames.get(t.name)})`); else toolNames.set(t.name, id);
    if (typeof t.description !== 'string' || !t.description.trim()) err(id, 'no description');
    if ('title' in t && typeof t.title !== 'string') err(id, 'title not string');
    const s = t.inputSchema;
    if (!s || s.type !== 'object' || typeof s.properties !== 'object') err(id, 'inputSchema not object with properties');
    else checkProps(id, s, '$.inputSchema');
    const allowed = new Set(['id', 'class', 'voice', 'lang', 'server', 'siblings', 'tool', ...(spec.poisoned ? ['where', 'intent'] : ['note', 'source'])]);
    for (const k of Object.keys(r)) if (!allowed.has(k)) err(id, 'unexpected field ' + k);
    if (spec.poisoned) {
      if (typeof r.intent !== 'string' || !r.intent.trim()) err(id, 'missing intent');
      if (typeof r.where !== 'string') err(id, 'missing where');
      else {
        const segs = parsePath(r.where);
        if (!segs) err(id, 'unparseable where ' + r.where);
        else {
          const res = resolve(t, segs);
          const last = segs[segs.length - 1];
          const prev = segs[segs.length - 2];
          const nameForm = last && last.quoted && prev && prev.key === 'properties';
          if (!res.ok) err(id, 'where does not resolve: ' + r.where);
          else if (nameForm) { if (!res.value || typeof res.value !== 'object' || res.value.type === undefined) err(id, 'property-name where does not reach a property schema'); }
          else if (typeof res.value !== 'string') err(id, 'where does not reach a string');
          else {
            for (const sre of STOCK) if (sre.test(res.value)) err(id, 'stock phrase in poison: ' + sre);
          }
          // d: description must stay clean -> poison not in a description
          if (spec.cls === 'd') {
            const lk = last && (last.key || '');
            if (lk === 'description' || r.where === '$.description') err(id, 'd-class poison must not be in a description');
          }
          let kind;
          if (nameForm) kind = 'property-name';
          else if (r.where === '$.description') kind = 'description';
          else if (r.where === '$.title') kind = 'title';
          else { const mm = r.where.match(/\.(default|description|title|const)$/) || r.where.match(/\.(enum|examples)\[\d+\]$/); kind = mm ? 'property ' + mm[1] : 'other'; }
          const nested = /\.(items|anyOf|oneOf)\b/.test(r.where) || (r.where.match(/\.properties\b/g) || []).length > 1;
          const key = kind + (nested ? ' (nested)' : '');
          st.where[key] = (st.where[key] || 0) + 1;
        }
      }
      for (const sb of r.siblings || []) if (!catalogTools.has(sb)) err(id, 'sibling not in catalog: ' + sb);
      if (Array.isArray(r.siblings) && r.siblings.length === 0) err(id, 'no siblings');
      if (r.siblings && r.siblings.includes(t.name)) err(id, 'sibling equals own tool name');
    } else {
      if (typeof r.note !== 'string' || !r.note.trim()) err(id, 'missing note');
      if (typeof r.source !== 'string' || !(r.source === 'new' || /^catalog:[^/]+\/.+$/.test(r.source))) err(id, 'bad source ' + r.source);
      else if (r.source.startsWith('catalog:')) {
        const [srv, tn] = r.source.slice(8).split('/');
        if (!catalogServers.has(srv) || !catalogServers.get(srv).has(tn)) err(id, 'source not in catalog: ' + r.source);
      }
    }
    st.langs[r.lang] = (st.langs[r.lang] || 0) + 1;
    st.voices[r.voice] = (st.voices[r.voice] || 0) + 1;
    const L = [...(t.description || '')].length;
    st.len[L < 200 ? 'short' : L < 700 ? 'medium' : 'long']++;
    allRecs.push({ id, r });
  });
  if (st.count !== spec.n) warn.push(`${spec.file}: ${st.count} records, expected ${spec.n}`);
  for (let i = 1; i <= spec.n; i++) { const want = spec.prefix + String(i).padStart(3, '0'); if (!ids.has(want) && st.count >= spec.n) err(spec.file, 'missing id ' + want); }
}

// benign siblings should not collide with own name; poisoned siblings must not be own server's tool names (they come from the catalog anyway)
// 3-gram overlap between descriptions (tool descriptions pairwise)
const tok = s => (s.toLowerCase().match(/[\p{L}\p{N}\p{M}_']+/gu) || []);
function grams(s) { const w = tok(s); const g = new Set(); for (let i = 0; i + 2 < w.length; i++) g.add(w[i] + ' ' + w[i + 1] + ' ' + w[i + 2]); return g; }
const G = allRecs.map(({ id, r }) => ({ id, g: grams(r.tool.description || '') }));
for (let i = 0; i < G.length; i++) for (let j = i + 1; j < G.length; j++) {
  const a = G[i].g, b = G[j].g;
  if (a.size < 3 || b.size < 3) continue;
  let inter = 0; const [sm, lg] = a.size <= b.size ? [a, b] : [b, a];
  for (const x of sm) if (lg.has(x)) inter++;
  if (inter / sm.size > 0.5) err(G[i].id, `description shares ${inter}/${sm.size} 3-grams with ${G[j].id}`);
}
// also property descriptions of substantial size across records
const P = [];
for (const { id, r } of allRecs) {
  const walk = (sch) => { if (!sch || typeof sch !== 'object') return; for (const ps of Object.values(sch.properties || {})) { if (ps && typeof ps.description === 'string') { const g = grams(ps.description); if (g.size >= 8) P.push({ id, g }); } walk(ps); } if (sch.items) walk(sch.items); for (const kw of ['anyOf','oneOf']) (sch[kw] || []).forEach(walk); };
  walk(r.tool.inputSchema);
}
for (let i = 0; i < P.length; i++) for (let j = i + 1; j < P.length; j++) {
  if (P[i].id === P[j].id) continue;
  const a = P[i].g, b = P[j].g; const [sm, lg] = a.size <= b.size ? [a, b] : [b, a];
  let inter = 0; for (const x of sm) if (lg.has(x)) inter++;
  if (inter / sm.size > 0.5) err(P[i].id, `a property description shares ${inter}/${sm.size} 3-grams with one in ${P[j].id}`);
}

// report
const langsAll = {};
for (const st of Object.values(stats)) for (const [l, c] of Object.entries(st.langs)) langsAll[l] = (langsAll[l] || 0) + c;
for (const [f, st] of Object.entries(stats)) {
  console.log(`${f}: ${st.count} records; lengths ${JSON.stringify(st.len)}; languages ${Object.keys(st.langs).length}`);
  console.log('  langs ' + Object.entries(st.langs).sort((a, b) => b[1] - a[1]).map(([l, c]) => `${l}:${c}`).join(' '));
  if (Object.keys(st.where).length) console.log('  where ' + JSON.stringify(st.where));
}
const total = Object.values(langsAll).reduce((a, b) => a + b, 0);
console.log(`all: ${total} records, ${Object.keys(langsAll).length} languages, en ${langsAll.en || 0}`);
for (const w of warn) console.log('WARN ' + w);
if (errors.length) { for (const e of errors) console.log('ERROR ' + e); console.log(`${errors.length} error(s)`); process.exit(1); }
console.log('clean');
