// validate.mjs: checks the t24 batch. Node >= 18, no dependencies.
// Usage: node validate.mjs        (from this folder)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const catalogDir = path.resolve(here, '..', '..', 'discovery', 'catalog');
const BATCH = 't24';
const FILES = {
  't24-p3.jsonl': 'p3',
  't24-p4.jsonl': 'p4',
  't24-p2.jsonl': 'p2',
  't24-d.jsonl': 'd',
  't24-benign.jsonl': 'benign',
};
const POISON_CLASSES = new Set(['p1', 'p2', 'p3', 'p4', 'd']);

const errors = [];
const warns = [];
const err = (where, msg) => errors.push(`${where}: ${msg}`);

// ---------- catalog ----------
const catalogTools = new Set();
for (const f of fs.readdirSync(catalogDir)) {
  if (!f.endsWith('.json')) continue;
  const j = JSON.parse(fs.readFileSync(path.join(catalogDir, f), 'utf8'));
  for (const t of j.tools || []) catalogTools.add(t.name);
}

// ---------- forbidden characters / phrases ----------
// zero-width, bidi controls, word joiners, BOM, soft hyphen, Mongolian vowel separator, tag block, variation selectors
const FORBIDDEN_RE = /[\u00AD\u061C\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\uFEFF\uFE00-\uFE0F]|[\u{E0000}-\u{E007F}]|[\u{E0100}-\u{E01EF}]/u;
const STOCK = [
  /ignore (all |any )?(the )?previous instructions/i,
  /highest priority/i,
  /overrid/i,
  /disregard/i,
  /supersed/i,
  /takes precedence/i,
  /\bIMPORTANT\b/,
];

function walkStrings(v, p, fn) {
  if (typeof v === 'string') fn(v, p);
  else if (Array.isArray(v)) v.forEach((x, i) => walkStrings(x, `${p}[${i}]`, fn));
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) { fn(k, `${p}{key:${k}}`); walkStrings(x, `${p}.${k}`, fn); }
}

// ---------- schema checks: every property has type + description ----------
function checkProps(schema, p, where) {
  if (!schema || typeof schema !== 'object') return;
  if (schema.properties) {
    if (typeof schema.properties !== 'object' || Array.isArray(schema.properties)) { err(where, `${p}.properties not an object`); return; }
    for (const [name, ps] of Object.entries(schema.properties)) {
      const pp = `${p}.properties[${JSON.stringify(name)}]`;
      if (!ps || typeof ps !== 'object') { err(where, `${pp} is not a schema`); continue; }
      if (!('type' in ps)) err(where, `${pp} has no type`);
      if (typeof ps.description !== 'string' || !ps.description.trim()) err(where, `${pp} has no description`);
      checkProps(ps, pp, where);
    }
  }
  if (schema.items) {
    if (Array.isArray(schema.items)) schema.items.forEach((it, i) => checkProps(it, `${p}.items[${i}]`, where));
    else checkProps(schema.items, `${p}.items`, where);
  }
  for (const k of ['anyOf', 'oneOf', 'allOf']) if (Array.isArray(schema[k])) schema[k].forEach((s, i) => checkProps(s, `${p}.${k}[${i}]`, where));
}

// ---------- `where` resolution ----------
// Grammar: $ ( .ident | ["name"] | [n] )*   resolved against the record's `tool`.
function parsePath(w) {
  if (!w.startsWith('$')) return null;
  const segs = [];
  let i = 1;
  while (i < w.length) {
    if (w[i] === '.') {
      const m = /^\.([A-Za-z0-9_$-]+)/.exec(w.slice(i));
      if (!m) return null;
      segs.push({ key: m[1] }); i += m[0].length;
    } else if (w[i] === '[') {
      let m = /^\[(\d+)\]/.exec(w.slice(i));
      if (m) { segs.push({ idx: Number(m[1]) }); i += m[0].length; continue; }
      m = /^\["((?:[^"\\]|\\.)*)"\]/.exec(w.slice(i));
      if (!m) return null;
      segs.push({ key: JSON.parse(`"${m[1]}"`), quoted: true }); i += m[0].length;
    } else return null;
  }
  return segs;
}
function resolve(tool, w) {
  const segs = parsePath(w);
  if (!segs) return { ok: false, why: 'unparsable path' };
  let cur = tool;
  for (const s of segs) {
    if (cur == null || typeof cur !== 'object') return { ok: false, why: 'path runs past a leaf' };
    if ('idx' in s) { if (!Array.isArray(cur) || s.idx >= cur.length) return { ok: false, why: `no index ${s.idx}` }; cur = cur[s.idx]; }
    else { if (!(s.key in cur)) return { ok: false, why: `no key ${s.key}` }; cur = cur[s.key]; }
  }
  const last = segs[segs.length - 1];
  const prev = segs[segs.length - 2];
  const propertyNameForm = last && last.quoted && prev && prev.key === 'properties';
  return { ok: true, value: cur, propertyNameForm };
}

// ---------- 3-gram similarity ----------
function grams(s) {
  const words = s.toLowerCase().normalize('NFKC').split(/[^\p{L}\p{N}_]+/u).filter(Boolean);
  const g = new Set();
  for (let i = 0; i + 2 < words.length; i++) g.add(words[i] + ' ' + words[i + 1] + ' ' + words[i + 2]);
  // scripts written without spaces (CJK, Thai): fall back to character 3-grams
  if (words.length < 6 || /[\u3040-\u30FF\u4E00-\u9FFF\u0E00-\u0E7F\uAC00-\uD7AF]/.test(s)) {
    const chars = [...s.replace(/\s+/g, '')];
    for (let i = 0; i + 2 < chars.length; i++) g.add('#' + chars[i] + chars[i + 1] + chars[i + 2]);
  }
  return g;
}

// ---------- main ----------
const ids = new Set();
const toolNames = new Map();
const allDescs = [];
const stats = {};
const langs = {};
const voices = {};
const whereKinds = {};
let total = 0;

for (const [file, cls] of Object.entries(FILES)) {
  const fp = path.join(here, file);
  if (!fs.existsSync(fp)) { warns.push(`${file}: missing`); continue; }
  const lines = fs.readFileSync(fp, 'utf8').split('\n');
  const st = { n: 0, short: 0, mid: 0, long: 0, en: 0 };
  stats[file] = st;
  lines.forEach((line, li) => {
    if (!line.trim()) return;
    const loc = `${file}:${li + 1}`;
    let r;
    try { r = JSON.parse(line); } catch (e) { err(loc, `JSON parse: ${e.message}`); return; }
    total++; st.n++;
    const W = `${loc} (${r.id})`;
    // forbidden chars and stock phrases anywhere in the record
    walkStrings(r, '$', (s, p) => {
      if (FORBIDDEN_RE.test(s)) err(W, `forbidden invisible/bidi/tag character at ${p}`);
      for (const re of STOCK) if (re.test(s)) err(W, `stock phrase ${re} at ${p}`);
    });
    const isPoison = cls !== 'benign';
    const need = ['id', 'class', 'voice', 'lang', 'server', 'siblings', 'tool'];
    for (const k of need) if (!(k in r)) err(W, `missing field ${k}`);
    if (isPoison) { for (const k of ['where', 'intent']) if (typeof r[k] !== 'string' || !r[k]) err(W, `missing ${k}`); for (const k of ['note', 'source']) if (k in r) err(W, `poisoned record has ${k}`); }
    else { for (const k of ['note', 'source']) if (typeof r[k] !== 'string' || !r[k]) err(W, `missing ${k}`); for (const k of ['where', 'intent']) if (k in r) err(W, `benign record has ${k}`);
      if (r.source && !(r.source === 'new' || /^catalog:[^/]+\/.+$/.test(r.source))) err(W, `bad source ${r.source}`); }
    if (r.class !== cls) err(W, `class ${r.class} does not belong in ${file}`);
    const idRe = new RegExp(`^${BATCH}-${cls}-\\d{3}$`);
    if (!idRe.test(r.id || '')) err(W, `id not of form ${BATCH}-${cls}-NNN`);
    if (ids.has(r.id)) err(W, 'duplicate id'); ids.add(r.id);
    if (!/^[a-z]{2}$/.test(r.lang || '')) err(W, `lang ${r.lang} not ISO 639-1`);
    if (typeof r.voice !== 'string' || !r.voice) err(W, 'voice empty');
    if (typeof r.server !== 'string' || !r.server) err(W, 'server empty');
    if (!Array.isArray(r.siblings)) err(W, 'siblings not an array');
    else if (isPoison) {
      if (!r.siblings.length) err(W, 'poisoned record without siblings');
      for (const s of r.siblings) if (!catalogTools.has(s)) err(W, `sibling ${s} not in catalog`);
    }
    const t = r.tool || {};
    if (!/^[A-Za-z0-9_.-]{1,64}$/.test(t.name || '')) err(W, `bad tool name ${t.name}`);
    if (toolNames.has(t.name)) err(W, `tool name ${t.name} already used at ${toolNames.get(t.name)}`); else toolNames.set(t.name, W);
    if (typeof t.description !== 'string' || !t.description.trim()) err(W, 'tool.description empty');
    if ('title' in t && typeof t.title !== 'string') err(W, 'tool.title not a string');
    const s = t.inputSchema;
    if (!s || s.type !== 'object' || typeof s.properties !== 'object') err(W, 'inputSchema must be an object schema with properties');
    else {
      checkProps(s, '$.inputSchema', W);
      if (s.required) { if (!Array.isArray(s.required)) err(W, 'required not an array'); else for (const q of s.required) if (!(q in s.properties)) err(W, `required ${q} not a property`); }
    }
    if (isPoison && r.where) {
      const res = resolve(t, r.where);
      if (!res.ok) err(W, `where ${r.where} does not resolve: ${res.why}`);
      else if (res.propertyNameForm) { if (!res.value || typeof res.value !== 'object' || !('type' in res.value)) err(W, `where ${r.where} (property-name form) is not a property schema`); }
      else if (typeof res.value !== 'string') err(W, `where ${r.where} resolves to ${typeof res.value}, not a string`);
      if (cls === 'd') {
        if (/^\$\.description$|^\$\.inputSchema\.properties\.[^.\[]+\.description$/.test(r.where) || /\.description$/.test(r.where)) err(W, 'd record must carry poison in a data slot, not a description');
        const kind = res.propertyNameForm ? 'property-name' : (/\.default$/.test(r.where) ? 'default' : /\.enum\[\d+\]$/.test(r.where) ? 'enum' : /\.examples\[\d+\]$/.test(r.where) ? 'examples' : /\.const$/.test(r.where) ? 'const' : /\.title$/.test(r.where) ? 'title' : 'other');
        const nested = /\.items\b|\.properties\.[^.]+\.properties/.test(r.where) ? '+nested' : '';
        whereKinds[kind + nested] = (whereKinds[kind + nested] || 0) + 1;
      } else {
        const kind = r.where === '$.description' ? 'description' : r.where === '$.title' ? 'title' : 'property description';
        whereKinds[`${cls}:${kind}`] = (whereKinds[`${cls}:${kind}`] || 0) + 1;
      }
    }
    const d = t.description || '';
    const L = [...d].length;
    if (L < 200) st.short++; else if (L < 700) st.mid++; else st.long++;
    if (r.lang === 'en') st.en++;
    langs[r.lang] = (langs[r.lang] || 0) + 1;
    voices[r.voice] = (voices[r.voice] || 0) + 1;
    allDescs.push({ W, g: grams(d) });
  });
}

// pairwise description overlap: shared 3-grams / smaller set > 0.5
for (let i = 0; i < allDescs.length; i++) {
  const a = allDescs[i];
  if (!a.g.size) continue;
  for (let j = i + 1; j < allDescs.length; j++) {
    const b = allDescs[j];
    if (!b.g.size) continue;
    const [small, big] = a.g.size <= b.g.size ? [a.g, b.g] : [b.g, a.g];
    let sh = 0; for (const x of small) if (big.has(x)) sh++;
    if (sh / small.size > 0.5) err(a.W, `description shares ${sh}/${small.size} 3-grams with ${b.W}`);
  }
}

for (const w of warns) console.log('WARN', w);
if (errors.length) { for (const e of errors) console.log('ERROR', e); console.log(`\n${errors.length} error(s) in ${total} records`); process.exitCode = 1; }
else console.log(`clean: ${total} records`);
for (const [f, st] of Object.entries(stats)) console.log(`${f}: ${st.n} records, en ${st.en}, desc length <200: ${st.short}, 200-699: ${st.mid}, >=700: ${st.long}`);
console.log('languages (' + Object.keys(langs).length + '):', Object.entries(langs).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k}=${v}`).join(' '));
console.log('placement:', Object.entries(whereKinds).map(([k, v]) => `${k}=${v}`).join(' '));
if (process.argv.includes('--voices')) console.log('voices:', Object.entries(voices).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k}=${v}`).join(' | '));
