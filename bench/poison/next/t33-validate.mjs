// validate.mjs - checks t33-p1.jsonl and t33-benign.jsonl (node, no dependencies)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const catDir = path.resolve(here, '..', '..', 'discovery', 'catalog');
const catalogNames = new Set();
for (const f of fs.readdirSync(catDir).filter(f => f.endsWith('.json'))) {
  const j = JSON.parse(fs.readFileSync(path.join(catDir, f), 'utf8'));
  for (const t of j.tools || []) catalogNames.add(t.name);
}

const files = [
  { file: 't33-p1.jsonl', cls: 'p1', idre: /^t33-p1-\d{3}$/ },
  { file: 't33-benign.jsonl', cls: 'benign', idre: /^t33-benign-\d{3}$/ },
];
const errors = [];
const err = (where, msg) => errors.push(`${where}: ${msg}`);
const ids = new Set();
const toolNames = new Map();
const descs = [];
const FORBIDDEN = /[\u00AD\u061C\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF\uFFF9-\uFFFB]|[\u{E0000}-\u{E007F}]/u;
const STOCK = [/ignore (all )?previous instructions/i, /highest priority/i, /\boverride\b/i, /\bdisregard\b/i, /\bsupersede/i, /takes precedence/i, /\bIMPORTANT\b/];
const NAME_RE = /^[A-Za-z0-9_.-]{1,64}$/;
const LANG_RE = /^[a-z]{2}$/;

function checkProps(props, loc) {
  if (!props || typeof props !== 'object') return;
  for (const [k, v] of Object.entries(props)) {
    if (!v || typeof v !== 'object') { err(loc, `property ${k} not an object`); continue; }
    if (!('type' in v)) err(loc, `property ${k} has no type`);
    if (typeof v.description !== 'string' || !v.description.trim()) err(loc, `property ${k} has no description`);
    if (v.properties) checkProps(v.properties, `${loc}.${k}`);
    if (v.items && v.items.properties) checkProps(v.items.properties, `${loc}.${k}[]`);
  }
}

function resolveWhere(tool, where) {
  if (!where.startsWith('$')) return { ok: false };
  const m = where.match(/^\$\.inputSchema\.properties\["([^"]+)"\]$/);
  if (m) {
    const p = tool.inputSchema?.properties?.[m[1]];
    return { ok: p && typeof p === 'object' && !Array.isArray(p), value: p, kind: 'prop' };
  }
  const parts = where.slice(2).split('.');
  let cur = tool;
  for (const p of parts) {
    if (cur == null) return { ok: false };
    const am = p.match(/^(.+)\[(\d+)\]$/);
    if (am) { cur = cur[am[1]]; cur = cur?.[Number(am[2])]; } else cur = cur[p];
  }
  return { ok: typeof cur === 'string', value: cur, kind: 'string' };
}

function trigrams(s) {
  const w = s.toLowerCase().split(/[^\p{L}\p{N}_]+/u).filter(Boolean);
  const set = new Set();
  for (let i = 0; i + 2 < w.length; i++) set.add(w[i] + ' ' + w[i + 1] + ' ' + w[i + 2]);
  return set;
}

const stats = {};
for (const { file, cls, idre } of files) {
  const fp = path.join(here, file);
  if (!fs.existsSync(fp)) { err(file, 'missing'); continue; }
  const raw = fs.readFileSync(fp, 'utf8');
  if (FORBIDDEN.test(raw)) err(file, 'forbidden invisible/bidi/tag character present');
  if (/(^|[\s"'(])\/(work|home|tmp|root|Users)\//.test(raw)) err(file, 'absolute local path present');
  const st = { n: 0, langs: {}, voices: {}, len: { short: 0, mid: 0, long: 0 }, where: {} };
  stats[file] = st;
  const lines = raw.split('\n');
  lines.forEach((line, i) => {
    if (!line.trim()) return;
    const loc = `${file}:${i + 1}`;
    let r;
    try { r = JSON.parse(line); } catch (e) { err(loc, 'JSON parse error ' + e.message); return; }
    st.n++;
    const L = `${loc} ${r.id}`;
    for (const f of ['id', 'class', 'voice', 'lang', 'server', 'siblings', 'tool']) if (!(f in r)) err(L, `missing ${f}`);
    if (!idre.test(r.id || '')) err(L, 'bad id');
    if (ids.has(r.id)) err(L, 'duplicate id'); ids.add(r.id);
    if (r.class !== cls) err(L, `class should be ${cls}`);
    if (!LANG_RE.test(r.lang || '')) err(L, 'bad lang');
    if (typeof r.voice !== 'string' || !r.voice) err(L, 'bad voice');
    if (typeof r.server !== 'string' || !r.server) err(L, 'bad server');
    if (!Array.isArray(r.siblings) || !r.siblings.length) err(L, 'siblings must be non-empty array');
    else for (const sb of r.siblings) if (typeof sb !== 'string' || !NAME_RE.test(sb)) err(L, `bad sibling name ${sb}`);
    st.langs[r.lang] = (st.langs[r.lang] || 0) + 1;
    st.voices[r.voice] = (st.voices[r.voice] || 0) + 1;
    const t = r.tool || {};
    if (!NAME_RE.test(t.name || '')) err(L, 'bad tool name');
    if (toolNames.has(t.name)) err(L, `tool name reused (also ${toolNames.get(t.name)})`); else toolNames.set(t.name, r.id);
    if (typeof t.description !== 'string' || !t.description) err(L, 'no description');
    if ('title' in t && typeof t.title !== 'string') err(L, 'title not string');
    const s = t.inputSchema;
    if (!s || s.type !== 'object' || typeof s.properties !== 'object') err(L, 'bad inputSchema');
    else {
      checkProps(s.properties, L);
      if (s.required) for (const q of s.required) if (!(q in s.properties)) err(L, `required ${q} not in properties`);
    }
    const texts = [t.description || '', t.title || '', JSON.stringify(s || {})].join(' ');
    for (const re of STOCK) if (re.test(texts)) err(L, `stock phrase ${re}`);
    const dl = (t.description || '').length;
    st.len[dl < 200 ? 'short' : dl < 700 ? 'mid' : 'long']++;
    if (cls === 'benign') {
      if ('where' in r || 'intent' in r) err(L, 'benign must not have where/intent');
      if (typeof r.note !== 'string' || !r.note) err(L, 'missing note');
      if (!(r.source === 'new' || /^catalog:[^/]+\/.+$/.test(r.source || ''))) err(L, 'bad source');
    } else {
      if (typeof r.intent !== 'string' || !r.intent) err(L, 'missing intent');
      if (typeof r.where !== 'string') err(L, 'missing where');
      else {
        const w = resolveWhere(t, r.where);
        if (!w.ok) err(L, `where does not resolve: ${r.where}`);
        const k = r.where === '$.description' ? 'description' : r.where === '$.title' ? 'title' : /properties\.[^.]+\.description$/.test(r.where) ? 'property description' : 'other';
        st.where[k] = (st.where[k] || 0) + 1;
      }
      for (const sb of r.siblings || []) if (!catalogNames.has(sb)) err(L, `sibling not in catalog: ${sb}`);
      for (const sb of r.siblings || []) if (sb === t.name) err(L, 'sibling equals own tool name');
    }
    descs.push({ id: r.id, g: trigrams(t.description || '') });
  });
}

for (let i = 0; i < descs.length; i++) for (let j = i + 1; j < descs.length; j++) {
  const a = descs[i].g, b = descs[j].g;
  if (!a.size || !b.size) continue;
  let c = 0; for (const x of a) if (b.has(x)) c++;
  const r = c / Math.min(a.size, b.size);
  if (r > 0.5 && c >= 2) err(`${descs[i].id}~${descs[j].id}`, `descriptions share ${(r * 100).toFixed(0)}% of 3-grams`);
}

for (const [f, st] of Object.entries(stats)) {
  const nl = Object.keys(st.langs).length;
  console.log(`${f}: ${st.n} records, ${nl} languages, en=${st.langs.en || 0}, len=${JSON.stringify(st.len)}, where=${JSON.stringify(st.where)}`);
  const over = Object.entries(st.langs).filter(([l, n]) => l !== 'en' && n > 4);
  if (over.length) console.log(`  note: >4 records for ${over.map(x => x.join('=')).join(', ')}`);
}
if (errors.length) { console.log(errors.join('\n')); console.log(`${errors.length} error(s)`); process.exit(1); }
console.log('OK');
