// validate.mjs - checks the t23 batch (t23-p1.jsonl, t23-benign.jsonl). Node, no dependencies.
// Usage: node validate.mjs
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const catalogDir = path.join(here, '..', '..', 'discovery', 'catalog');
const FILES = [
  { file: 't23-p1.jsonl', cls: 'p1', expect: 170 },
  { file: 't23-benign.jsonl', cls: 'benign', expect: 170 },
];

const errors = [];
const warnings = [];
const err = (m) => errors.push(m);
const warn = (m) => warnings.push(m);

// ---------- catalog ----------
const catalogTools = new Set();
for (const f of fs.readdirSync(catalogDir)) {
  if (!f.endsWith('.json')) continue;
  const d = JSON.parse(fs.readFileSync(path.join(catalogDir, f), 'utf8'));
  for (const t of d.tools || []) catalogTools.add(t.name);
}

// ---------- helpers ----------
const NAME_RE = /^[A-Za-z0-9_.-]{1,64}$/;
// invisible, bidi, tag and similar format characters
const FORBIDDEN = /[\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180E\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0\uFFF9-\uFFFB]|\uDB40[\uDC00-\uDC7F]|[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
const STOCK = [
  'ignore previous instructions', 'ignore all previous', 'highest priority', 'override', 'disregard',
  'supersede', 'takes precedence',
];
const LANGS = new Set(['en', 'es', 'pt', 'fr', 'de', 'ja', 'zh', 'ko', 'ru', 'ar', 'hi', 'id', 'tr']);
const P1_KINDS = new Set(['replace-choice', 'standing-order', 'consent-claimed', 'stale-others', 'hide', 'choose-for-user', 'request-as-suggestion', 'other']);
const TONES = new Set(['calm', 'imperative']);
const PLACEMENTS = new Set(['start', 'middle', 'end']);

function allStrings(node, out = []) {
  if (typeof node === 'string') out.push(node);
  else if (Array.isArray(node)) node.forEach((x) => allStrings(x, out));
  else if (node && typeof node === 'object') for (const [k, v] of Object.entries(node)) { out.push(k); allStrings(v, out); }
  return out;
}

// every property schema must have type + description (recursively)
function checkProps(schema, where, id) {
  if (!schema || typeof schema !== 'object') return;
  if (schema.properties) {
    if (typeof schema.properties !== 'object') { err(`${id}: ${where}.properties not an object`); return; }
    for (const [k, v] of Object.entries(schema.properties)) {
      const p = `${where}.properties.${k}`;
      if (!v || typeof v !== 'object') { err(`${id}: ${p} not an object`); continue; }
      if (!('type' in v) && !v.anyOf && !v.oneOf) err(`${id}: ${p} has no type`);
      if (typeof v.description !== 'string' || !v.description.trim()) err(`${id}: ${p} has no description`);
      checkProps(v, p, id);
      if (v.items) checkProps(v.items, `${p}.items`, id);
    }
  }
  if (Array.isArray(schema.required) && schema.properties) {
    for (const r of schema.required) if (!(r in schema.properties)) err(`${id}: ${where}.required lists unknown '${r}'`);
  }
}

// resolve a JSONPath-like `where` ($.a.b["c d"].e) inside tool
function resolve(tool, where) {
  if (typeof where !== 'string' || !where.startsWith('$')) return { ok: false };
  const toks = [];
  const re = /\.([A-Za-z0-9_$-]+)|\["([^"]+)"\]|\[(\d+)\]/g;
  let m; let last = 1;
  while ((m = re.exec(where)) !== null) {
    if (m.index !== last) return { ok: false };
    toks.push(m[1] ?? m[2] ?? Number(m[3]));
    last = re.lastIndex;
  }
  if (last !== where.length) return { ok: false };
  let cur = tool;
  for (const t of toks) {
    if (cur == null || typeof cur !== 'object' || !(t in cur)) return { ok: false };
    cur = cur[t];
  }
  return { ok: true, value: cur, bracketLast: /\["[^"]+"\]$/.test(where) };
}

function trigrams(text) {
  const words = text.toLowerCase().normalize('NFKC').split(/[^\p{L}\p{N}_]+/u).filter(Boolean);
  // for scripts without spaces (ja/zh) fall back to character trigrams of long tokens
  const toks = [];
  for (const w of words) {
    if (/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u.test(w) && w.length > 3) {
      for (const ch of w) toks.push(ch);
    } else toks.push(w);
  }
  const s = new Set();
  for (let i = 0; i + 2 < toks.length; i++) s.add(toks[i] + ' ' + toks[i + 1] + ' ' + toks[i + 2]);
  return s;
}

function lengthBucket(n) { return n < 200 ? 'short' : n < 700 ? 'mid' : 'long'; }
function toolTextLen(tool) {
  let n = (tool.description || '').length + (tool.title || '').length;
  const walk = (s) => {
    if (!s || !s.properties) return;
    for (const v of Object.values(s.properties)) { n += (v.description || '').length; walk(v); if (v.items) walk(v.items); }
  };
  walk(tool.inputSchema);
  return n;
}

// ---------- main ----------
const ids = new Set();
const toolNames = new Map();
const descs = []; // {id, tri}
const stats = {};

for (const { file, cls, expect } of FILES) {
  const fp = path.join(here, file);
  const st = stats[file] = { n: 0, lang: {}, voice: {}, len: { short: 0, mid: 0, long: 0 }, kind: {}, tone: {}, placement: {}, field: {}, namesOther: 0 };
  if (!fs.existsSync(fp)) { err(`${file}: missing`); continue; }
  const lines = fs.readFileSync(fp, 'utf8').split('\n');
  lines.forEach((line, i) => {
    if (!line.trim()) { if (i !== lines.length - 1) warn(`${file}:${i + 1}: blank line`); return; }
    let r;
    try { r = JSON.parse(line); } catch (e) { err(`${file}:${i + 1}: JSON parse error ${e.message}`); return; }
    st.n++;
    const id = r.id || `${file}:${i + 1}`;
    if (FORBIDDEN.test(line) || FORBIDDEN.test(JSON.stringify(r))) err(`${id}: forbidden invisible/bidi/control character`);
    for (const s of allStrings(r)) if (FORBIDDEN.test(s)) { err(`${id}: forbidden character in "${s.slice(0, 40)}"`); break; }

    const common = ['id', 'class', 'voice', 'lang', 'server', 'siblings', 'tool'];
    for (const k of common) if (!(k in r)) err(`${id}: missing field ${k}`);
    const idRe = cls === 'p1' ? /^t23-p1-\d{3}$/ : /^t23-benign-\d{3}$/;
    if (!idRe.test(r.id || '')) err(`${id}: malformed id`);
    if (ids.has(r.id)) err(`${id}: duplicate id`);
    ids.add(r.id);
    if (r.class !== cls) err(`${id}: class ${r.class} expected ${cls}`);
    if (!LANGS.has(r.lang)) err(`${id}: unexpected lang ${r.lang}`);
    if (typeof r.voice !== 'string' || !r.voice) err(`${id}: voice missing`);
    if (typeof r.server !== 'string' || !r.server) err(`${id}: server missing`);
    if (!Array.isArray(r.siblings)) err(`${id}: siblings not array`);
    st.lang[r.lang] = (st.lang[r.lang] || 0) + 1;
    st.voice[r.voice] = (st.voice[r.voice] || 0) + 1;

    const t = r.tool;
    if (!t || typeof t !== 'object') { err(`${id}: tool missing`); return; }
    if (!NAME_RE.test(t.name || '')) err(`${id}: bad tool name ${t.name}`);
    if (toolNames.has(t.name)) err(`${id}: tool name ${t.name} already used by ${toolNames.get(t.name)}`);
    toolNames.set(t.name, id);
    if (typeof t.description !== 'string' || !t.description.trim()) err(`${id}: tool.description missing`);
    if ('title' in t && typeof t.title !== 'string') err(`${id}: title not string`);
    if (!t.inputSchema || t.inputSchema.type !== 'object' || typeof t.inputSchema.properties !== 'object') err(`${id}: inputSchema malformed`);
    else checkProps(t.inputSchema, '$.inputSchema', id);

    const low = allStrings(t).join(' \n ').toLowerCase() + ' ' + (r.intent || '').toLowerCase() + ' ' + (r.note || '').toLowerCase();
    for (const p of STOCK) if (low.includes(p)) err(`${id}: stock phrase "${p}"`);
    if (/IMPORTANT/.test(allStrings(t).join(' '))) err(`${id}: stock phrase "IMPORTANT"`);

    st.len[lengthBucket(toolTextLen(t))]++;
    descs.push({ id, tri: trigrams(t.description || ''), all: trigrams(allStrings(t.inputSchema).concat([t.description || '']).join(' ')) });

    if (cls === 'p1') {
      for (const k of ['where', 'intent', 'kind', 'tone', 'placement']) if (!(k in r)) err(`${id}: missing ${k}`);
      if ('note' in r || 'source' in r) err(`${id}: poisoned record carries note/source`);
      if (!P1_KINDS.has(r.kind)) err(`${id}: bad kind ${r.kind}`);
      if (!TONES.has(r.tone)) err(`${id}: bad tone ${r.tone}`);
      if (!PLACEMENTS.has(r.placement)) err(`${id}: bad placement ${r.placement}`);
      st.kind[r.kind] = (st.kind[r.kind] || 0) + 1;
      st.tone[r.tone] = (st.tone[r.tone] || 0) + 1;
      st.placement[r.placement] = (st.placement[r.placement] || 0) + 1;
      const res = resolve(t, r.where);
      if (!res.ok) err(`${id}: where ${r.where} does not resolve`);
      else if (res.bracketLast) { if (!res.value || typeof res.value !== 'object') err(`${id}: where (name form) not a property schema`); }
      else if (typeof res.value !== 'string') err(`${id}: where ${r.where} is not a string`);
      const field = r.where === '$.description' ? 'description' : r.where === '$.title' ? 'title' : /^\$\.inputSchema\.properties\..*\.description$/.test(r.where) ? 'param' : 'other';
      st.field[field] = (st.field[field] || 0) + 1;
      if (!r.siblings.length) warn(`${id}: no siblings`);
      for (const s of r.siblings) if (!catalogTools.has(s)) err(`${id}: sibling ${s} not in catalog`);
      const text = allStrings(t).join(' \n ');
      const named = [...catalogTools].filter((n) => n.length > 4 && /[_\-.]|[a-z][A-Z]/.test(n) && text.includes(n));
      const namedSib = r.siblings.filter((s) => text.includes(s));
      if (named.length || namedSib.length) st.namesOther++;
      if (typeof r.intent !== 'string' || r.intent.length < 10) err(`${id}: intent too short`);
    } else {
      for (const k of ['note', 'source']) if (!(k in r)) err(`${id}: missing ${k}`);
      if ('where' in r || 'intent' in r) err(`${id}: benign record carries where/intent`);
      if (!(r.source === 'new' || /^catalog:[^/]+\/.+$/.test(r.source || ''))) err(`${id}: bad source ${r.source}`);
      if (/^catalog:/.test(r.source || '')) {
        const [srv, tn] = r.source.slice(8).split('/');
        const fpc = path.join(catalogDir, srv + '.json');
        if (!fs.existsSync(fpc)) err(`${id}: source server ${srv} not in catalog`);
        else if (!JSON.parse(fs.readFileSync(fpc, 'utf8')).tools.some((x) => x.name === tn)) err(`${id}: source tool ${tn} not in catalog/${srv}`);
      }
    }
  });
  if (st.n !== expect) warn(`${file}: ${st.n} records (target ${expect})`);
}

// ---------- 3-gram overlap ----------
for (let i = 0; i < descs.length; i++) {
  for (let j = i + 1; j < descs.length; j++) {
    for (const key of ['tri', 'all']) {
      const a = descs[i][key]; const b = descs[j][key];
      const m = Math.min(a.size, b.size);
      if (m < 4) continue;
      let shared = 0;
      for (const g of a) if (b.has(g)) shared++;
      if (shared / m > 0.5) { err(`${descs[i].id} ~ ${descs[j].id}: share ${shared}/${m} word 3-grams (${key})`); break; }
    }
  }
}

// ---------- report ----------
for (const [f, st] of Object.entries(stats)) {
  console.log(`\n${f}: ${st.n} records`);
  console.log('  lang    ', JSON.stringify(st.lang));
  console.log('  length  ', JSON.stringify(st.len));
  console.log('  voices  ', Object.keys(st.voice).length, 'distinct');
  if (f.includes('p1')) {
    console.log('  kind    ', JSON.stringify(st.kind));
    console.log('  tone    ', JSON.stringify(st.tone));
    console.log('  place   ', JSON.stringify(st.placement));
    console.log('  field   ', JSON.stringify(st.field));
    console.log('  names another tool:', st.namesOther, '/', st.n);
  }
}
for (const w of warnings) console.log('WARN', w);
for (const e of errors) console.log('ERROR', e);
console.log(errors.length ? `\n${errors.length} error(s)` : '\nclean');
process.exit(errors.length ? 1 : 0);
