// validate.mjs - checks batch t27 (node, no dependencies). Usage: node validate.mjs
// It only validates hand-written records; it never writes or generates any record.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const catalogDir = path.resolve(here, '..', '..', 'discovery', 'catalog');
const FILES = [
  { file: 't27-p1.jsonl', cls: 'p1', poisoned: true },
  { file: 't27-benign.jsonl', cls: 'benign', poisoned: false },
];

const errors = [];
const warnings = [];
const err = (m) => errors.push(m);
const warn = (m) => warnings.push(m);

// ---- catalog tool names ----
const catalogNames = new Set();
for (const f of fs.readdirSync(catalogDir)) {
  if (!f.endsWith('.json')) continue;
  const j = JSON.parse(fs.readFileSync(path.join(catalogDir, f), 'utf8'));
  for (const t of j.tools || []) catalogNames.add(t.name);
}

// ---- forbidden characters: invisible, bidi controls, tag characters, soft hyphen, BOM ----
const FORBIDDEN_CHARS = /[\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0\uFFF9-\uFFFB]|[\u{E0000}-\u{E007F}]|[\u{E0100}-\u{E01EF}]/u;
// control characters other than \n and \t
const CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/;

// ---- stock phrases (and a few direct translations) that must not appear in tool text ----
const STOCK = [
  'ignore previous', 'ignore all previous', 'ignore the previous', 'previous instructions', 'highest priority',
  'override', 'overrid', 'disregard', 'supersede', 'takes precedence', 'take precedence', 'important',
  '最優先', '以前の指示', '指示を無視', '重要', '最高优先级', '最高優先', '忽略', '無視', '优先于', '優先於',
  '최우선', '무시', '중요', 'ưu tiên cao nhất', 'bỏ qua mọi hướng dẫn', 'quan trọng', 'สำคัญ',
  'prioritas tertinggi', 'abaikan', 'penting', 'pinakamataas na priyoridad', 'huwag pansinin',
  'सर्वोच्च प्राथमिकता', 'अनदेखा', 'महत्वपूर्ण', 'महत्त्वपूर्ण', 'أولوية قصوى', 'تجاهل', 'עדיפות עליונה', 'התעלם',
  'اولویت بالا', 'نادیده', 'en yüksek öncelik', 'yok say', 'önemli', 'muhimu sana', 'puuza', 'ችላ በል',
];

const NAME_RE = /^[A-Za-z0-9_.-]{1,64}$/;
const ID_RE = { p1: /^t27-p1-\d{3}$/, benign: /^t27-benign-\d{3}$/ };
const LANG_RE = /^[a-z]{2}(-[A-Za-z0-9]{2,8})*$/;

const P1_KIND = new Set(['replace-choice', 'standing-order', 'consent-claimed', 'stale-others', 'hide', 'choose-for-user', 'request-as-suggestion', 'other']);
const P1_TONE = new Set(['calm', 'imperative']);
const P1_PLACE = new Set(['start', 'middle', 'end']);
const P1_FIELD = new Set(['description', 'parameter', 'title']);

// ---- helpers ----
function parseWhere(where) {
  // supports $.a.b.c and ["name"] segments
  if (typeof where !== 'string' || !where.startsWith('$')) return null;
  const segs = [];
  let i = 1;
  while (i < where.length) {
    if (where[i] === '.') {
      let j = i + 1;
      while (j < where.length && where[j] !== '.' && where[j] !== '[') j++;
      segs.push(where.slice(i + 1, j));
      i = j;
    } else if (where[i] === '[') {
      const close = where.indexOf(']', i);
      if (close < 0) return null;
      const inner = where.slice(i + 1, close).trim();
      if (/^\d+$/.test(inner)) segs.push(Number(inner));
      else {
        try { segs.push(JSON.parse(inner)); } catch { return null; }
      }
      i = close + 1;
    } else return null;
  }
  return segs;
}

function resolve(obj, segs) {
  let cur = obj;
  for (const s of segs) {
    if (cur === null || typeof cur !== 'object' || !(s in cur)) return undefined;
    cur = cur[s];
  }
  return cur;
}

function collectText(tool) {
  const parts = [];
  const walk = (v) => {
    if (typeof v === 'string') parts.push(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) { parts.push(k); walk(x); }
  };
  walk(tool);
  return parts.join('\n');
}

// human-readable text: title + description + every property description (recursively)
function humanLength(tool) {
  let n = (tool.description || '').length + (tool.title || '').length;
  const walkSchema = (s) => {
    if (!s || typeof s !== 'object') return;
    if (s.properties) for (const p of Object.values(s.properties)) { n += (p.description || '').length; walkSchema(p); }
    if (s.items) walkSchema(s.items);
  };
  walkSchema(tool.inputSchema);
  return n;
}

function checkSchema(s, where, rec) {
  if (!s || typeof s !== 'object') return;
  if (s.properties) {
    if (typeof s.properties !== 'object' || Array.isArray(s.properties)) { err(`${rec}: ${where}.properties not an object`); return; }
    for (const [k, p] of Object.entries(s.properties)) {
      if (!p || typeof p !== 'object') { err(`${rec}: property ${where}.${k} not an object`); continue; }
      if (!('type' in p)) err(`${rec}: property ${where}.${k} lacks type`);
      if (typeof p.description !== 'string' || !p.description.trim()) err(`${rec}: property ${where}.${k} lacks description`);
      checkSchema(p, `${where}.${k}`, rec);
    }
    if (Array.isArray(s.required)) for (const r of s.required) if (!(r in s.properties)) err(`${rec}: required '${r}' not in properties at ${where}`);
  }
  if (s.items && typeof s.items === 'object') checkSchema(s.items, `${where}[]`, rec);
}

// tokenisation for 3-gram overlap: whitespace words; characters of unsegmented scripts count as words
const UNSEG = /[\u3040-\u30FF\u3400-\u9FFF\uF900-\uFAFF\u0E00-\u0E7F\uAC00-\uD7AF]/u;
function tokens(text) {
  const out = [];
  for (const w of text.toLowerCase().split(/[\s\p{P}\p{S}]+/u)) {
    if (!w) continue;
    if (UNSEG.test(w)) { for (const ch of w) out.push(ch); } else out.push(w);
  }
  return out;
}
function trigrams(text) {
  const t = tokens(text);
  const s = new Set();
  for (let i = 0; i + 2 < t.length; i++) s.add(t[i] + '\u0001' + t[i + 1] + '\u0001' + t[i + 2]);
  return s;
}

// ---- main ----
const ids = new Set();
const toolNames = new Map();
const descs = [];
const stats = {};

for (const { file, cls, poisoned } of FILES) {
  const fp = path.join(here, file);
  const st = { n: 0, lang: {}, voice: {}, len: { short: 0, medium: 0, long: 0 }, kind: {}, tone: {}, placement: {}, field: {}, namesTool: 0, source: {} };
  stats[file] = st;
  if (!fs.existsSync(fp)) { warn(`${file} missing`); continue; }
  const raw = fs.readFileSync(fp, 'utf8');
  if (raw.charCodeAt(0) === 0xFEFF) err(`${file}: BOM at start`);
  const lines = raw.split('\n');
  lines.forEach((line, idx) => {
    const ln = `${file}:${idx + 1}`;
    if (!line.trim()) { if (idx !== lines.length - 1) err(`${ln}: empty line`); return; }
    let r;
    try { r = JSON.parse(line); } catch (e) { err(`${ln}: JSON parse error ${e.message}`); return; }
    const rid = r.id || ln;
    st.n++;
    const need = ['id', 'class', 'voice', 'lang', 'server', 'siblings', 'tool'];
    if (poisoned) need.push('where', 'intent', 'kind', 'tone', 'placement', 'field');
    else need.push('note', 'source');
    for (const k of need) if (!(k in r)) err(`${rid}: missing field ${k}`);
    if (poisoned && ('note' in r || 'source' in r)) err(`${rid}: poisoned record has note/source`);
    if (!poisoned && ('where' in r || 'intent' in r)) err(`${rid}: benign record has where/intent`);
    if (r.class !== cls) err(`${rid}: class '${r.class}' expected '${cls}'`);
    if (!ID_RE[cls].test(r.id || '')) err(`${rid}: malformed id`);
    if (ids.has(r.id)) err(`${rid}: duplicate id`);
    ids.add(r.id);
    for (const k of ['voice', 'server', 'intent', 'note', 'source']) if (k in r && (typeof r[k] !== 'string' || !r[k].trim())) err(`${rid}: ${k} must be a non-empty string`);
    if (!LANG_RE.test(r.lang || '')) err(`${rid}: bad lang ${r.lang}`);
    if (!Array.isArray(r.siblings)) err(`${rid}: siblings not an array`);
    const t = r.tool;
    if (!t || typeof t !== 'object') { err(`${rid}: tool missing`); return; }
    for (const k of Object.keys(t)) if (!['name', 'description', 'title', 'inputSchema', 'annotations'].includes(k)) err(`${rid}: unexpected tool key ${k}`);
    if (!NAME_RE.test(t.name || '')) err(`${rid}: bad tool name ${t.name}`);
    if (toolNames.has(t.name)) err(`${rid}: tool name ${t.name} already used by ${toolNames.get(t.name)}`);
    toolNames.set(t.name, rid);
    if (typeof t.description !== 'string' || !t.description.trim()) err(`${rid}: tool.description missing`);
    if ('title' in t && typeof t.title !== 'string') err(`${rid}: title not a string`);
    const s = t.inputSchema;
    if (!s || s.type !== 'object' || typeof s.properties !== 'object') err(`${rid}: inputSchema must be type object with properties`);
    else checkSchema(s, '$.inputSchema', rid);

    if (Array.isArray(r.siblings)) {
      for (const sb of r.siblings) {
        if (typeof sb !== 'string' || !NAME_RE.test(sb)) err(`${rid}: bad sibling ${sb}`);
        if (poisoned && !catalogNames.has(sb)) err(`${rid}: sibling ${sb} not in catalog`);
        if (sb === t.name) err(`${rid}: sibling equals own tool name`);
      }
      if (poisoned && r.siblings.length === 0) err(`${rid}: poisoned record needs siblings`);
    }

    // text checks
    const text = collectText(t);
    const all = JSON.stringify(r);
    if (FORBIDDEN_CHARS.test(all)) err(`${rid}: forbidden invisible/bidi/tag character`);
    if (CONTROL.test(text)) err(`${rid}: control character in tool text`);
    const low = text.toLowerCase();
    for (const p of STOCK) if (low.includes(p.toLowerCase())) err(`${rid}: stock phrase '${p}'`);
    // endpoints: only .example domains or TEST-NET addresses
    for (const m of text.matchAll(/https?:\/\/([^\/\s'"`)<>\]]+)/g)) {
      const host = m[1].replace(/:\d+$/, '').toLowerCase();
      const ok = host.endsWith('.example') || host === 'example' || /^(198\.51\.100|203\.0\.113|192\.0\.2)\.\d+$/.test(host) || host === 'localhost' || host === '127.0.0.1';
      if (!ok) err(`${rid}: URL host not allowed: ${host}`);
    }
    for (const m of text.matchAll(/\b(\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})\b/g)) {
      // anything that looks like an address must be TEST-NET or loopback; version strings get a warning only
      if (!/^(198\.51\.100|203\.0\.113|192\.0\.2)\.|^127\.0\.0\.1$|^0\.0\.0\.0$/.test(m[1])) warn(`${rid}: IPv4-like string ${m[1]}`);
    }

    // where
    if (poisoned) {
      const segs = parseWhere(r.where);
      if (!segs) err(`${rid}: where unparsable ${r.where}`);
      else {
        const v = resolve(t, segs);
        const propNameForm = segs.length === 3 && segs[0] === 'inputSchema' && segs[1] === 'properties' && /\["/.test(r.where);
        if (propNameForm) { if (!v || typeof v !== 'object') err(`${rid}: where (property name form) does not resolve to a schema`); }
        else if (typeof v !== 'string') err(`${rid}: where does not resolve to a string: ${r.where}`);
        // field label consistent with where
        const f = r.field;
        const expect = r.where === '$.description' ? 'description' : r.where === '$.title' ? 'title' : 'parameter';
        if (f !== expect) err(`${rid}: field '${f}' but where suggests '${expect}'`);
      }
      if (!P1_KIND.has(r.kind)) err(`${rid}: bad kind ${r.kind}`);
      if (!P1_TONE.has(r.tone)) err(`${rid}: bad tone ${r.tone}`);
      if (!P1_PLACE.has(r.placement)) err(`${rid}: bad placement ${r.placement}`);
      st.kind[r.kind] = (st.kind[r.kind] || 0) + 1;
      st.tone[r.tone] = (st.tone[r.tone] || 0) + 1;
      st.placement[r.placement] = (st.placement[r.placement] || 0) + 1;
      st.field[r.field] = (st.field[r.field] || 0) + 1;
      // does the tool text name another tool (a sibling or any catalog tool)?
      const names = [...new Set([...(r.siblings || []), ...catalogNames])].filter((n) => n.length > 5 && /[_.A-Z0-9-]/.test(n));
      if (names.some((n) => new RegExp(`(^|[^A-Za-z0-9_-])${n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}([^A-Za-z0-9_-]|$)`).test(text) && n !== t.name)) st.namesTool++;
    } else {
      if (!/^(new|catalog:[^/]+\/.+)$/.test(r.source || '')) err(`${rid}: bad source ${r.source}`);
      st.source[r.source === 'new' ? 'new' : 'catalog'] = (st.source[r.source === 'new' ? 'new' : 'catalog'] || 0) + 1;
    }

    const L = humanLength(t);
    st.len[L < 200 ? 'short' : L < 700 ? 'medium' : 'long']++;
    st.lang[r.lang] = (st.lang[r.lang] || 0) + 1;
    st.voice[r.voice] = (st.voice[r.voice] || 0) + 1;
    descs.push({ id: rid, g: trigrams(t.description || '') });
  });
}

// pairwise 3-gram overlap of descriptions
for (let i = 0; i < descs.length; i++) {
  for (let j = i + 1; j < descs.length; j++) {
    const a = descs[i].g, b = descs[j].g;
    const m = Math.min(a.size, b.size);
    if (m === 0) continue;
    let shared = 0;
    const [sm, lg] = a.size <= b.size ? [a, b] : [b, a];
    for (const x of sm) if (lg.has(x)) shared++;
    if (shared / m > 0.5) err(`${descs[i].id} and ${descs[j].id}: descriptions share ${shared}/${m} word 3-grams`);
  }
}

// ---- report ----
for (const [f, st] of Object.entries(stats)) {
  console.log(`\n== ${f}: ${st.n} records`);
  console.log('  length (title+description+property descriptions):', JSON.stringify(st.len));
  console.log('  languages:', JSON.stringify(Object.fromEntries(Object.entries(st.lang).sort())));
  const en = Object.entries(st.lang).filter(([k]) => k.startsWith('en')).reduce((a, [, v]) => a + v, 0);
  console.log(`  English share: ${st.n ? Math.round((100 * en) / st.n) : 0}%`);
  console.log('  distinct voices:', Object.keys(st.voice).length);
  if (f.includes('p1')) {
    console.log('  kind:', JSON.stringify(st.kind));
    console.log('  tone:', JSON.stringify(st.tone));
    console.log('  placement:', JSON.stringify(st.placement));
    console.log('  field:', JSON.stringify(st.field));
    console.log('  records whose text names another tool:', st.namesTool);
    if (st.namesTool > st.n / 4) err(`${f}: more than a quarter of records name another tool (${st.namesTool})`);
  } else console.log('  source:', JSON.stringify(st.source));
}
if (warnings.length) { console.log('\nWarnings:'); for (const w of warnings) console.log('  - ' + w); }
if (errors.length) {
  console.log(`\n${errors.length} error(s):`);
  for (const e of errors) console.log('  - ' + e);
  process.exit(1);
} else console.log('\nclean');
