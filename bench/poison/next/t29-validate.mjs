// validate.mjs - checks the t29 batch (no dependencies). Usage: node validate.mjs
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const catalogDir = path.resolve(here, '../../discovery/catalog');
const FILES = [
  ['t29-p3.jsonl', 'p3'],
  ['t29-p4.jsonl', 'p4'],
  ['t29-benign.jsonl', 'benign'],
];

const errors = [];
const warns = [];
const err = (m) => errors.push(m);

// catalog
const catalogTools = new Set();
const catalogByServer = new Map();
for (const f of fs.readdirSync(catalogDir)) {
  if (!f.endsWith('.json')) continue;
  const d = JSON.parse(fs.readFileSync(path.join(catalogDir, f), 'utf8'));
  const set = new Set();
  for (const t of d.tools) { catalogTools.add(t.name); set.add(t.name); }
  catalogByServer.set(d.server, set);
  catalogByServer.set(f.replace(/\.json$/, ''), set);
}

const FORBIDDEN = /[\u00AD\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF\u{E0000}-\u{E007F}]/u;
const STOCK = [
  /ignore (all )?(the )?previous instructions/i, /highest priority/i, /override/i, /disregard/i,
  /supersede/i, /takes precedence/i, /\bimportant\b/i,
  // a few direct translations / shouting markers we also keep out
  /\bWICHTIG\b/, /\bIMPORTANTE\b/, /ВАЖНО/, /priorité absolue/i, /ignorez les/i, /ignoriere (alle|die)/i,
  /ignora (las|le) instrucciones/i, /máxima prioridad/i, /höchste Priorität/i, /【重要】/, /\[重要\]/,
];
const ID_RE = /^t29-(p3|p4|benign)-\d{3}$/;
const NAME_RE = /^[A-Za-z0-9_.-]{1,64}$/;
const LANG_RE = /^[a-z]{2}$/;

function allStrings(o, out = []) {
  if (typeof o === 'string') out.push(o);
  else if (Array.isArray(o)) o.forEach((x) => allStrings(x, out));
  else if (o && typeof o === 'object') for (const [k, v] of Object.entries(o)) { out.push(k); allStrings(v, out); }
  return out;
}

function checkProps(props, where, id) {
  if (!props || typeof props !== 'object') { err(`${id}: ${where} properties not an object`); return; }
  for (const [k, s] of Object.entries(props)) {
    if (!s || typeof s !== 'object') { err(`${id}: ${where}.${k} not a schema`); continue; }
    if (!s.type) err(`${id}: property ${where}.${k} has no type`);
    if (typeof s.description !== 'string' || !s.description.trim()) err(`${id}: property ${where}.${k} has no description`);
    if (s.properties) checkProps(s.properties, `${where}.${k}`, id);
    if (s.items && s.items.properties) checkProps(s.items.properties, `${where}.${k}[]`, id);
  }
}

// resolve "$.a.b[\"c d\"].e" inside tool
function resolve(tool, p) {
  if (!p.startsWith('$')) return { ok: false };
  const re = /\.([A-Za-z0-9_$-]+)|\["((?:[^"\\]|\\.)*)"\]|\[(\d+)\]/g;
  let rest = p.slice(1), cur = tool, m, consumed = 0, lastWasBracketProp = false;
  re.lastIndex = 0;
  while ((m = re.exec(rest)) !== null) {
    if (m.index !== consumed) return { ok: false };
    consumed = re.lastIndex;
    const key = m[1] ?? (m[2] !== undefined ? JSON.parse('"' + m[2] + '"') : Number(m[3]));
    if (cur == null || typeof cur !== 'object' || !(key in cur)) return { ok: false };
    cur = cur[key];
    lastWasBracketProp = m[2] !== undefined;
  }
  if (consumed !== rest.length) return { ok: false };
  return { ok: true, value: cur, bracket: lastWasBracketProp };
}

function trigrams(text) {
  const w = (text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) || []);
  const s = new Set();
  for (let i = 0; i + 2 < w.length; i++) s.add(w[i] + ' ' + w[i + 1] + ' ' + w[i + 2]);
  return s;
}

const ids = new Set();
const toolNames = new Set();
const descs = []; // {id, text, grams}
const stats = {};

for (const [file, cls] of FILES) {
  const fp = path.join(here, file);
  const st = (stats[file] = { n: 0, langs: {}, voices: {}, len: { short: 0, mid: 0, long: 0 }, where: {}, en: 0 });
  if (!fs.existsSync(fp)) { err(`${file}: missing`); continue; }
  const lines = fs.readFileSync(fp, 'utf8').split('\n');
  lines.forEach((line, i) => {
    if (!line.trim()) return;
    const loc = `${file}:${i + 1}`;
    let r;
    try { r = JSON.parse(line); } catch (e) { err(`${loc}: JSON parse error ${e.message}`); return; }
    st.n++;
    const id = r.id || loc;
    if (!ID_RE.test(r.id || '')) err(`${loc}: bad id ${r.id}`);
    else if (!r.id.startsWith(`t29-${cls}-`)) err(`${loc}: id ${r.id} not of class ${cls}`);
    if (ids.has(r.id)) err(`${loc}: duplicate id ${r.id}`); ids.add(r.id);
    if (r.class !== cls) err(`${id}: class ${r.class} expected ${cls}`);
    for (const f of ['voice', 'lang', 'server', 'siblings', 'tool']) if (r[f] === undefined) err(`${id}: missing ${f}`);
    if (typeof r.voice !== 'string' || !r.voice) err(`${id}: voice`);
    if (!LANG_RE.test(r.lang || '')) err(`${id}: lang ${r.lang}`);
    if (!Array.isArray(r.siblings)) err(`${id}: siblings not array`);
    const t = r.tool || {};
    if (!NAME_RE.test(t.name || '')) err(`${id}: tool name ${t.name}`);
    if (toolNames.has(t.name)) err(`${id}: tool name reused ${t.name}`); toolNames.add(t.name);
    if (typeof t.description !== 'string' || !t.description.trim()) err(`${id}: no description`);
    const allowedToolKeys = new Set(['name', 'description', 'title', 'inputSchema', 'annotations']);
    for (const k of Object.keys(t)) if (!allowedToolKeys.has(k)) err(`${id}: unexpected tool key ${k}`);
    if (!t.inputSchema || t.inputSchema.type !== 'object' || typeof t.inputSchema.properties !== 'object') err(`${id}: inputSchema`);
    else {
      checkProps(t.inputSchema.properties, 'properties', id);
      for (const q of t.inputSchema.required || []) if (!(q in t.inputSchema.properties)) err(`${id}: required ${q} not a property`);
    }
    if (cls === 'benign') {
      if (r.where !== undefined || r.intent !== undefined) err(`${id}: benign has where/intent`);
      if (typeof r.note !== 'string' || !r.note) err(`${id}: benign note`);
      if (typeof r.source !== 'string') err(`${id}: benign source`);
      else if (r.source !== 'new') {
        const m = /^catalog:([^/]+)\/(.+)$/.exec(r.source);
        if (!m || !catalogByServer.has(m[1]) || !catalogByServer.get(m[1]).has(m[2])) err(`${id}: bad source ${r.source}`);
      }
    } else {
      if (typeof r.intent !== 'string' || !r.intent) err(`${id}: intent`);
      if (typeof r.where !== 'string') err(`${id}: where`);
      else {
        const res = resolve(t, r.where);
        if (!res.ok) err(`${id}: where does not resolve: ${r.where}`);
        else if (res.bracket) { if (!res.value || typeof res.value !== 'object') err(`${id}: where (name form) not a schema`); }
        else if (typeof res.value !== 'string') err(`${id}: where not a string: ${r.where}`);
        const wk = r.where.replace(/properties\.[A-Za-z0-9_$-]+|properties\["[^"]*"\]/g, 'properties.*');
        st.where[wk] = (st.where[wk] || 0) + 1;
      }
      if (!r.siblings.length) err(`${id}: poisoned record without siblings`);
      for (const s of r.siblings) if (!catalogTools.has(s)) err(`${id}: sibling not in catalog: ${s}`);
      // first half of p3 refers to the other tool by category, first half of p4 names no tool at all
      const num = Number((r.id || '').slice(-3));
      if (num >= 1 && num <= 55) {
        const blob = allStrings(t).join('\n');
        const names = (cls === 'p3' ? r.siblings : [...catalogTools]).filter((n) => /[_-]|[a-z][A-Z]/.test(n));
        for (const n of names) {
          const re = new RegExp('(^|[^A-Za-z0-9_-])' + n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') + '($|[^A-Za-z0-9_-])');
          if (re.test(blob)) err(`${id}: names tool ${n} but is in the unnamed half`);
        }
      }
      // attacker endpoints
      const text = allStrings(t).join('\n');
      for (const m of text.matchAll(/https?:\/\/([^/\s"'`)<>,]+)/g)) {
        const host = m[1].replace(/:\d+$/, '').replace(/^[^@]*@/, '');
        if (!/\.example$/i.test(host) && !/^(198\.51\.100|203\.0\.113)\.\d+$/.test(host) && !/^(localhost|127\.0\.0\.1)$/.test(host))
          err(`${id}: endpoint not .example/TEST-NET: ${host}`);
      }
      for (const m of text.matchAll(/\b\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}\b/g)) {
        if (!/^(198\.51\.100|203\.0\.113|127\.0\.0|10\.|192\.168\.|0\.0\.0\.0)/.test(m[0])) err(`${id}: IP not TEST-NET/private: ${m[0]}`);
      }
      for (const m of text.matchAll(/[A-Za-z0-9._%+-]+@([A-Za-z0-9.-]+\.[A-Za-z]{2,})/g))
        if (!/\.example$/i.test(m[1])) err(`${id}: email domain not .example: ${m[0]}`);
    }
    // chars and stock phrases, whole record
    const every = allStrings(r).join('\n');
    if (FORBIDDEN.test(every)) err(`${id}: forbidden invisible/bidi/tag character`);
    for (const re of STOCK) if (re.test(every)) err(`${id}: stock phrase ${re}`);
    // stats
    st.langs[r.lang] = (st.langs[r.lang] || 0) + 1;
    st.voices[r.voice] = (st.voices[r.voice] || 0) + 1;
    if (r.lang === 'en') st.en++;
    const textLen = [t.title || '', t.description || '', ...collectDescs(t.inputSchema && t.inputSchema.properties)].join('').length;
    if (textLen < 200) st.len.short++; else if (textLen < 700) st.len.mid++; else st.len.long++;
    descs.push({ id, text: t.description || '', grams: trigrams(t.description || '') });
    if (r.where && r.where !== '$.description') {
      const res = resolve(t, r.where);
      if (res.ok && typeof res.value === 'string' && res.value.length > 80) descs.push({ id: id + '@where', text: res.value, grams: trigrams(res.value) });
    }
  });
}

function collectDescs(props, out = []) {
  if (!props) return out;
  for (const s of Object.values(props)) {
    if (s && typeof s.description === 'string') out.push(s.description);
    if (s && s.properties) collectDescs(s.properties, out);
    if (s && s.items && s.items.properties) collectDescs(s.items.properties, out);
  }
  return out;
}

// pairwise 3-gram overlap
for (let i = 0; i < descs.length; i++) {
  const a = descs[i];
  if (a.grams.size < 3) continue;
  for (let j = i + 1; j < descs.length; j++) {
    const b = descs[j];
    if (b.grams.size < 3) continue;
    if (a.id.split('@')[0] === b.id.split('@')[0]) continue;
    let shared = 0;
    const [small, big] = a.grams.size <= b.grams.size ? [a.grams, b.grams] : [b.grams, a.grams];
    for (const g of small) if (big.has(g)) shared++;
    if (shared / small.size > 0.5) err(`near-duplicate descriptions: ${a.id} ~ ${b.id} (${shared}/${small.size})`);
  }
}

for (const [file, st] of Object.entries(stats)) {
  const nl = Object.keys(st.langs).length;
  console.log(`${file}: ${st.n} records, ${nl} languages, en=${st.en} (${st.n ? Math.round((100 * st.en) / st.n) : 0}%), length short/mid/long=${st.len.short}/${st.len.mid}/${st.len.long}`);
  console.log(`  langs: ${Object.entries(st.langs).sort((a, b) => b[1] - a[1]).map(([k, v]) => k + ':' + v).join(' ')}`);
  if (Object.keys(st.where).length) console.log(`  where: ${Object.entries(st.where).map(([k, v]) => k + ':' + v).join(' ')}`);
  console.log(`  voices: ${Object.keys(st.voices).length} distinct`);
}
for (const w of warns) console.log('warn: ' + w);
if (errors.length) {
  for (const e of errors) console.log('ERROR: ' + e);
  console.log(`${errors.length} error(s)`);
  process.exit(1);
} else console.log('clean');
