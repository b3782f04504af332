// Validator for the t11 corpus. Usage: node validate.mjs   (no dependencies)
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = dirname(fileURLToPath(import.meta.url));
const FILES = { p1: 't11-p1.jsonl', benign: 't11-benign.jsonl' };
const EXPECTED = { p1: 200, benign: 200 };
const errors = [];
const err = (m) => errors.push(m);

// invisible / bidi / tag characters (ZWNJ U+200C tolerated only when lang === 'fa')
const FORBIDDEN = /[\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180E\u200B\u200D-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0\uFFF9-\uFFFB]|[\u{E0000}-\u{E007F}]|[\u{E0100}-\u{E01EF}]/u;
const ZWNJ = /\u200C/;

function walkStrings(v, path, cb) {
  if (typeof v === 'string') cb(v, path);
  else if (Array.isArray(v)) v.forEach((x, i) => walkStrings(x, `${path}[${i}]`, cb));
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walkStrings(x, `${path}.${k}`, cb);
}

function resolveWhere(obj, where) {
  if (typeof where !== 'string' || !where.startsWith('$.')) return undefined;
  let cur = { tool: obj.tool }; // pointer is relative to the tool definition
  cur = obj.tool;
  for (const part of where.slice(2).split('.')) {
    if (cur == null || typeof cur !== 'object' || !(part in cur)) return undefined;
    cur = cur[part];
  }
  return cur;
}

const median = (a) => { const s = [...a].sort((x, y) => x - y); const n = s.length; return n ? (n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2) : 0; };
const bucket = (n) => (n < 200 ? 'short(<200)' : n < 700 ? 'medium(200-699)' : 'long(>=700)');

const ids = new Set();
const toolNames = new Map();
const stats = {};

for (const [cls, file] of Object.entries(FILES)) {
  let text;
  try { text = readFileSync(join(dir, file), 'utf8'); } catch (e) { err(`${file}: cannot read (${e.message})`); continue; }
  const lines = text.split('\n').filter((l, i, a) => !(i === a.length - 1 && l === ''));
  const st = (stats[cls] = { n: 0, lens: [], langs: {}, buckets: {}, voices: {}, where: {} });
  lines.forEach((line, idx) => {
    const loc = `${file}:${idx + 1}`;
    let o;
    try { o = JSON.parse(line); } catch (e) { err(`${loc}: invalid JSON (${e.message})`); return; }
    st.n++;
    for (const f of ['id', 'class', 'voice', 'lang', 'server', 'siblings', 'tool']) if (!(f in o)) err(`${loc}: missing ${f}`);
    if (o.class !== cls) err(`${loc}: class ${o.class} != ${cls}`);
    if (!new RegExp(`^t11-${cls}-\\d{3}$`).test(o.id || '')) err(`${loc}: bad id ${o.id}`);
    if (ids.has(o.id)) err(`${loc}: duplicate id ${o.id}`); ids.add(o.id);
    if (typeof o.lang !== 'string' || !/^[a-z]{2}$/.test(o.lang)) err(`${loc}: lang must be ISO 639-1`);
    if (!Array.isArray(o.siblings) || o.siblings.some((s) => typeof s !== 'string')) err(`${loc}: siblings must be array of strings`);
    for (const f of ['voice', 'server']) if (typeof o[f] !== 'string' || !o[f]) err(`${loc}: ${f} must be non-empty string`);
    const t = o.tool || {};
    if (typeof t.name !== 'string' || !/^[A-Za-z0-9_.-]{1,64}$/.test(t.name)) err(`${loc}: bad tool.name ${t.name}`);
    if (typeof t.description !== 'string' || !t.description.trim()) err(`${loc}: tool.description missing`);
    if ('title' in t && typeof t.title !== 'string') err(`${loc}: tool.title must be string`);
    const s = t.inputSchema;
    if (!s || s.type !== 'object' || typeof s.properties !== 'object') err(`${loc}: inputSchema must be an object schema with properties`);
    else {
      for (const [pn, p] of Object.entries(s.properties)) {
        if (!p || typeof p.type !== 'string') err(`${loc}: property ${pn} lacks type`);
        if (typeof p.description !== 'string') err(`${loc}: property ${pn} lacks description`);
      }
      for (const r of s.required || []) if (!(r in s.properties)) err(`${loc}: required ${r} not in properties`);
    }
    if (toolNames.has(t.name)) err(`${loc}: tool name ${t.name} already used at ${toolNames.get(t.name)}`);
    else toolNames.set(t.name, loc);
    if (cls === 'p1') {
      if (typeof o.intent !== 'string' || !o.intent) err(`${loc}: missing intent`);
      const v = resolveWhere(o, o.where);
      if (typeof v !== 'string' || !v) err(`${loc}: where ${o.where} does not resolve to a string`);
      st.where[o.where?.replace(/properties\.[^.]+/, 'properties.*')] = (st.where[o.where?.replace(/properties\.[^.]+/, 'properties.*')] || 0) + 1;
    } else {
      if (typeof o.note !== 'string' || !o.note) err(`${loc}: missing note`);
      if ('where' in o || 'intent' in o) err(`${loc}: benign line must not carry where/intent`);
    }
    walkStrings(o, '$', (str, p) => {
      const m = str.match(FORBIDDEN);
      if (m) err(`${loc}: forbidden invisible/bidi/tag char U+${m[0].codePointAt(0).toString(16).toUpperCase().padStart(4, '0')} at ${p}`);
      if (ZWNJ.test(str) && o.lang !== 'fa') err(`${loc}: ZWNJ outside Persian at ${p}`);
    });
    const len = [...(t.description || '')].length;
    st.lens.push(len);
    st.buckets[bucket(len)] = (st.buckets[bucket(len)] || 0) + 1;
    st.langs[o.lang] = (st.langs[o.lang] || 0) + 1;
    st.voices[o.voice] = (st.voices[o.voice] || 0) + 1;
  });
  if (st.n !== EXPECTED[cls]) err(`${file}: expected ${EXPECTED[cls]} lines, got ${st.n}`);
  const en = st.langs.en || 0;
  const others = Object.keys(st.langs).filter((l) => l !== 'en').length;
  if (Math.abs(en / st.n - 0.55) > 0.03) err(`${file}: English share ${(en / st.n).toFixed(2)} not ~0.55`);
  if (others < 25) err(`${file}: only ${others} non-English languages`);
}

for (const [cls, st] of Object.entries(stats)) {
  console.log(`[${cls}] lines=${st.n} median_description_length=${median(st.lens)} chars`);
  console.log(`  length buckets: ${JSON.stringify(st.buckets)}`);
  console.log(`  languages (${Object.keys(st.langs).length}): ${JSON.stringify(st.langs)}`);
  console.log(`  voices: ${JSON.stringify(st.voices)}`);
  if (cls === 'p1') console.log(`  where: ${JSON.stringify(st.where)}`);
}
console.log(`unique tool names: ${toolNames.size}`);
if (errors.length) { console.log(`FAIL (${errors.length} problems)`); for (const e of errors.slice(0, 50)) console.log('  - ' + e); process.exit(1); }
console.log('PASS');
