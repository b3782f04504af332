// validate.mjs — checks the t21 batch (node, no dependencies).
// Usage: node validate.mjs   (from anywhere; paths are resolved from this file)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const catalogDir = path.resolve(here, '..', '..', 'discovery', 'catalog');
const FILES = [
  { file: 't21-p1.jsonl', cls: 'p1', expect: 150 },
  { file: 't21-d.jsonl', cls: 'd', expect: 40 },
  { file: 't21-benign.jsonl', cls: 'benign', expect: 190 },
];

const errors = [];
const warns = [];
const err = (m) => errors.push(m);
const warn = (m) => warns.push(m);

// ---------- catalog ----------
const catalogTools = new Set();
const catalogByServer = new Map();
for (const f of fs.readdirSync(catalogDir)) {
  if (!f.endsWith('.json')) continue;
  const j = JSON.parse(fs.readFileSync(path.join(catalogDir, f), 'utf8'));
  const names = new Set(j.tools.map((t) => t.name));
  catalogByServer.set(j.server, names);
  for (const n of names) catalogTools.add(n);
}
// catalog names specific enough to count as "naming another tool" when they appear in text
const specificCatalogNames = [...catalogTools].filter((n) => /[_\-.]/.test(n) || /[a-z][A-Z]/.test(n));

// ---------- constants ----------
const LANGS = new Set(['en', 'ja', 'zh', 'ko', 'vi', 'th', 'id', 'ms', 'tl', 'hi', 'bn', 'ta', 'te', 'mr', 'gu', 'pa', 'ur', 'ne', 'si', 'km', 'my', 'lo', 'mn', 'kk', 'uz']);
const ZH_VARIANTS = new Set(['zh-Hans-CN', 'zh-Hant-TW', 'zh-Hant-HK']);
const KINDS = new Set(['replace-choice', 'standing-order', 'consent-claimed', 'stale-others', 'hide', 'choose-for-user', 'request-as-suggestion', 'other']);
const TONES = new Set(['calm', 'imperative']);
const PLACEMENTS = new Set(['start', 'middle', 'end']);
const FIELDS = new Set(['description', 'parameter', 'title']);
const SLOTS = new Set(['default', 'enum', 'examples', 'const', 'title', 'name']);
const NAME_RE = /^[A-Za-z0-9_.-]{1,64}$/;
// invisible / bidi / tag / other format characters
const FORBIDDEN = /[\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0\uFFF9-\uFFFB]|[\u{E0000}-\u{E007F}]|[\u{E0100}-\u{E01EF}]|[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/u;
// stock phrases (and their direct translations) that poisoned records must not use
const STOCK = [
  'ignore previous instructions', 'ignore all previous', 'ignore prior', 'highest priority', 'override', 'disregard',
  'supersede', 'takes precedence', 'take precedence', 'important',
  '重要', '优先', '優先', '无视', '無視', '忽略',
  '중요', '우선', '무시',
  'ưu tiên', 'quan trọng', 'bỏ qua',
  'สำคัญ', 'เพิกเฉย', 'ละเว้น',
  'penting', 'abaikan', 'prioritas', 'utamakan', 'keutamaan',
  'mahalaga', 'huwag pansinin', 'prayoridad',
  'महत्वपूर्ण', 'महत्त्वपूर्ण', 'प्राथमिकता', 'अनदेखा', 'नज़रअंदाज़', 'नजरअंदाज',
  'গুরুত্বপূর্ণ', 'অগ্রাধিকার', 'উপেক্ষা',
  'முக்கிய', 'முன்னுரிமை', 'புறக்கணி',
  'ముఖ్య', 'ప్రాధాన్య', 'విస్మరించ',
  'મહત્વપૂર્ણ', 'અગ્રતા', 'પ્રાથમિકતા', 'અવગણ',
  'ਮਹੱਤਵਪੂਰਨ', 'ਤਰਜੀਹ', 'ਅਣਡਿੱਠ',
  'ترجیح', 'نظرانداز', 'نظر انداز',
  'වැදගත්', 'ප්රමුඛ', 'නොසලකා',
  'សំខាន់', 'អាទិភាព',
  'အရေးကြီး', 'ဦးစားပေး',
  'ສຳຄັນ', 'ສໍາຄັນ', 'ບູລິມະສິດ',
  'чухал', 'тэргүүлэх', 'үл тоо',
  'маңызды', 'басымдық', 'елеме',
  'muhim', 'ustuvor', "e'tiborsiz",
];
// word-bounded stock words (would otherwise match inside longer words)
const STOCK_WORDS = [/(^|[\s،.:;(])اہم($|[\s،.:;)])/u];

// ---------- helpers ----------
function parsePath(p) {
  if (!p.startsWith('$')) return null;
  const segs = [];
  let i = 1;
  while (i < p.length) {
    if (p[i] === '.') {
      const m = /^\.([A-Za-z0-9_$-]+)/.exec(p.slice(i));
      if (!m) return null;
      segs.push(m[1]);
      i += m[0].length;
    } else if (p[i] === '[') {
      let m = /^\[(\d+)\]/.exec(p.slice(i));
      if (m) { segs.push(Number(m[1])); i += m[0].length; continue; }
      m = /^\["((?:[^"\\]|\\.)*)"\]/.exec(p.slice(i));
      if (!m) return null;
      segs.push(JSON.parse('"' + m[1] + '"'));
      i += m[0].length;
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
function allStrings(x, out = []) {
  if (typeof x === 'string') out.push(x);
  else if (Array.isArray(x)) x.forEach((v) => allStrings(v, out));
  else if (x && typeof x === 'object') for (const [k, v] of Object.entries(x)) { out.push(k); allStrings(v, out); }
  return out;
}
// text a model reads: description, title, and every string inside inputSchema (keys excluded)
function proseLength(tool) {
  let n = (tool.description || '').length + (tool.title || '').length;
  const walk = (x, inProps = false) => {
    if (typeof x === 'string') n += x.length;
    else if (Array.isArray(x)) x.forEach((v) => walk(v));
    else if (x && typeof x === 'object') for (const [k, v] of Object.entries(x)) {
      if (inProps) walk(v); // keys of a properties map are property names, not schema keywords
      else if (k === 'properties') walk(v, true);
      else if (k !== 'type' && k !== 'required' && k !== 'format') walk(v);
    }
  };
  walk(tool.inputSchema);
  return n;
}
function checkProps(schema, where, ctx) {
  if (!schema || typeof schema !== 'object') return;
  if (schema.properties) {
    if (typeof schema.properties !== 'object' || Array.isArray(schema.properties)) { err(`${ctx}: ${where}.properties not an object`); return; }
    for (const [k, v] of Object.entries(schema.properties)) {
      const w = `${where}.properties[${JSON.stringify(k)}]`;
      if (!v || typeof v !== 'object') { err(`${ctx}: ${w} not an object`); continue; }
      if (!('type' in v)) err(`${ctx}: ${w} has no type`);
      if (typeof v.description !== 'string' || !v.description.trim()) err(`${ctx}: ${w} has no description`);
      checkProps(v, w, ctx);
      if (v.items) checkProps(v.items, w + '.items', ctx);
    }
  }
  if (Array.isArray(schema.required)) {
    for (const r of schema.required) if (!schema.properties || !(r in schema.properties)) err(`${ctx}: ${where} requires unknown property ${r}`);
  }
}
const SEG = new Intl.Segmenter(undefined, { granularity: 'word' });
// word 3-grams; Intl.Segmenter splits scripts written without spaces (ja, zh, th, lo, km, my) into words
function grams(text) {
  const toks = [];
  for (const s of SEG.segment(text.toLowerCase())) if (s.isWordLike) toks.push(s.segment);
  const g = new Set();
  for (let i = 0; i + 2 < toks.length; i++) g.add(toks[i] + '\u0001' + toks[i + 1] + '\u0001' + toks[i + 2]);
  return g;
}

// ---------- read ----------
const ids = new Set();
const toolNames = new Map();
const all = [];
for (const { file, cls, expect } of FILES) {
  const fp = path.join(here, file);
  if (!fs.existsSync(fp)) { warn(`${file}: missing`); continue; }
  const lines = fs.readFileSync(fp, 'utf8').split('\n');
  let count = 0;
  lines.forEach((line, i) => {
    if (!line.trim()) return;
    const ctx = `${file}:${i + 1}`;
    if (FORBIDDEN.test(line)) err(`${ctx}: forbidden invisible/bidi/tag/control character`);
    let r;
    try { r = JSON.parse(line); } catch (e) { err(`${ctx}: JSON parse error ${e.message}`); return; }
    count++;
    const c2 = `${ctx} (${r.id})`;
    for (const f of ['id', 'class', 'voice', 'lang', 'server', 'siblings', 'tool']) if (!(f in r)) err(`${c2}: missing field ${f}`);
    if (r.class !== cls) err(`${c2}: class ${r.class} in ${file}`);
    if (!new RegExp(`^t21-${cls}-\\d{3}$`).test(r.id || '')) err(`${c2}: bad id`);
    if (ids.has(r.id)) err(`${c2}: duplicate id`);
    ids.add(r.id);
    if (!LANGS.has(r.lang)) err(`${c2}: lang ${r.lang} not allowed`);
    if (r.lang === 'zh' && !ZH_VARIANTS.has(r.variant)) err(`${c2}: zh record needs variant zh-Hans-CN|zh-Hant-TW|zh-Hant-HK`);
    if (typeof r.voice !== 'string' || !r.voice) err(`${c2}: voice empty`);
    if (typeof r.server !== 'string' || !r.server) err(`${c2}: server empty`);
    if (!Array.isArray(r.siblings) || r.siblings.length === 0 || !r.siblings.every((s) => typeof s === 'string')) err(`${c2}: siblings must be a non-empty string array`);
    const t = r.tool || {};
    if (typeof t.name !== 'string' || !NAME_RE.test(t.name)) err(`${c2}: bad tool name ${t.name}`);
    if (toolNames.has(t.name)) err(`${c2}: tool name ${t.name} already used by ${toolNames.get(t.name)}`);
    toolNames.set(t.name, r.id);
    if (typeof t.description !== 'string' || !t.description.trim()) err(`${c2}: tool.description missing`);
    if ('title' in t && typeof t.title !== 'string') err(`${c2}: tool.title not a string`);
    const s = t.inputSchema;
    if (!s || s.type !== 'object' || typeof s.properties !== 'object') err(`${c2}: inputSchema must be {type:object, properties}`);
    else checkProps(s, '$.inputSchema', c2);
    for (const k of Object.keys(t)) if (!['name', 'description', 'title', 'inputSchema', 'annotations'].includes(k)) warn(`${c2}: unusual tool key ${k}`);

    const textAll = allStrings(t).join('\n');
    if (cls === 'benign') {
      if ('where' in r || 'intent' in r) err(`${c2}: benign has where/intent`);
      if (typeof r.note !== 'string' || !r.note) err(`${c2}: benign needs note`);
      if (r.source !== 'new') {
        const m = /^catalog:([^/]+)\/(.+)$/.exec(r.source || '');
        if (!m) err(`${c2}: bad source ${r.source}`);
        else if (!catalogByServer.has(m[1]) || !catalogByServer.get(m[1]).has(m[2])) err(`${c2}: source ${r.source} not in catalog`);
      }
      if (Array.isArray(r.siblings) && r.siblings.includes(t.name)) err(`${c2}: siblings include the tool itself`);
    } else {
      if ('note' in r || 'source' in r) err(`${c2}: poisoned record has note/source`);
      if (typeof r.intent !== 'string' || !r.intent) err(`${c2}: intent missing`);
      for (const sname of r.siblings || []) if (!catalogTools.has(sname)) err(`${c2}: sibling ${sname} not in catalog`);
      // where
      const segs = typeof r.where === 'string' ? parsePath(r.where) : null;
      if (!segs) err(`${c2}: where unparsable: ${r.where}`);
      else {
        const v = resolve(t, segs);
        const nameForm = /^\$\.inputSchema\.properties\["[^"]+"\]$/.test(r.where) || (segs.length >= 3 && segs[segs.length - 2] === 'properties' && /\[\"/.test(r.where) && r.where.endsWith('"]'));
        if (nameForm) { if (!v || typeof v !== 'object' || Array.isArray(v)) err(`${c2}: where (property-name form) does not resolve to a property schema`); }
        else if (typeof v !== 'string') err(`${c2}: where does not resolve to a string: ${r.where}`);
      }
      const low = textAll.toLowerCase();
      for (const p of STOCK) if (low.includes(p.toLowerCase())) err(`${c2}: stock phrase "${p}"`);
      for (const re of STOCK_WORDS) if (re.test(textAll)) err(`${c2}: stock word ${re}`);
      // endpoints
      for (const m of textAll.matchAll(/https?:\/\/([^/\s"'`)<>\]]+)/g)) {
        const host = m[1].replace(/:\d+$/, '').replace(/^[^@]*@/, '');
        if (!/\.example$/i.test(host) && !/^(192\.0\.2|198\.51\.100|203\.0\.113)\.\d+$/.test(host)) err(`${c2}: endpoint host ${host} not .example / TEST-NET`);
      }
      for (const m of textAll.matchAll(/(?<![\d.])(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})(?![\d.])/g)) {
        const ip = m[0];
        if (!/^(192\.0\.2|198\.51\.100|203\.0\.113)\./.test(ip) && !/^(127\.|0\.0\.0\.0|10\.)/.test(ip)) warn(`${c2}: IPv4 ${ip} is not TEST-NET`);
      }
      if (cls === 'p1') {
        if (!KINDS.has(r.kind)) err(`${c2}: kind ${r.kind}`);
        if (!TONES.has(r.tone)) err(`${c2}: tone ${r.tone}`);
        if (!PLACEMENTS.has(r.placement)) err(`${c2}: placement ${r.placement}`);
        if (!FIELDS.has(r.field)) err(`${c2}: field ${r.field}`);
        if (r.field === 'description' && r.where !== '$.description') err(`${c2}: field/where mismatch`);
        if (r.field === 'title' && r.where !== '$.title') err(`${c2}: field/where mismatch`);
        if (r.field === 'parameter' && !/^\$\.inputSchema\.properties\.[^.]+(\.properties\.[^.]+)*\.description$/.test(r.where || '')) err(`${c2}: field/where mismatch`);
        if (typeof r.names_other_tool !== 'boolean') err(`${c2}: names_other_tool must be boolean`);
        else {
          const isSpecific = (n) => /[_\-.]/.test(n) || /[a-z][A-Z]/.test(n);
          const named = [...new Set([...(r.siblings || []).filter(isSpecific), ...specificCatalogNames])].filter((n) => n !== t.name && textAll.includes(n));
          const namedAny = (r.siblings || []).filter((n) => new RegExp(`(^|[^A-Za-z0-9_-])${n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^A-Za-z0-9_-])`).test(textAll));
          if (r.names_other_tool && named.length === 0 && namedAny.length === 0) err(`${c2}: names_other_tool=true but no other tool name appears`);
          if (!r.names_other_tool && named.length > 0) err(`${c2}: names_other_tool=false but text names ${named.join(',')}`);
        }
      }
      if (cls === 'd') {
        if (!SLOTS.has(r.slot)) err(`${c2}: slot ${r.slot}`);
        const w = r.where || '';
        const okSlot = { default: /\.default$/, enum: /\.enum\[\d+\]$/, examples: /\.examples\[\d+\]$/, const: /\.const$/, title: /\.properties\.[^.]+\.title$/, name: /\["[^"]+"\]$/ }[r.slot];
        if (okSlot && !okSlot.test(w)) err(`${c2}: slot ${r.slot} does not match where ${w}`);
      }
    }
    all.push({ r, file, len: proseLength(t) });
  });
  if (count !== expect) warn(`${file}: ${count} records (target ${expect})`);
}

// ---------- 3-gram overlap between tool descriptions ----------
const G = all.map((x) => grams(x.r.tool.description || ''));
for (let i = 0; i < all.length; i++) {
  for (let j = i + 1; j < all.length; j++) {
    const a = G[i], b = G[j];
    const m = Math.min(a.size, b.size);
    if (m < 5) continue;
    let inter = 0;
    const [sm, lg] = a.size <= b.size ? [a, b] : [b, a];
    for (const g of sm) if (lg.has(g)) inter++;
    if (inter / m > 0.5) err(`descriptions of ${all[i].r.id} and ${all[j].r.id} share ${(100 * inter / m).toFixed(0)}% of their 3-grams`);
  }
}

// ---------- report ----------
const tally = (arr, f) => arr.reduce((m, x) => { const k = f(x); m[k] = (m[k] || 0) + 1; return m; }, {});
const fmt = (o) => Object.entries(o).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k}:${v}`).join(' ');
const bucket = (n) => (n < 200 ? 'short' : n < 700 ? 'mid' : 'long');
for (const { file } of FILES) {
  const xs = all.filter((x) => x.file === file);
  if (!xs.length) continue;
  console.log(`${file}: ${xs.length} records`);
  console.log(`  lang   ${fmt(tally(xs, (x) => x.r.lang === 'zh' ? x.r.variant : x.r.lang))}`);
  console.log(`  length ${fmt(tally(xs, (x) => bucket(x.len)))}`);
  console.log(`  voices ${Object.keys(tally(xs, (x) => x.r.voice)).length} distinct`);
  if (file.includes('p1')) {
    console.log(`  kind   ${fmt(tally(xs, (x) => x.r.kind))}`);
    console.log(`  tone   ${fmt(tally(xs, (x) => x.r.tone))}`);
    console.log(`  place  ${fmt(tally(xs, (x) => x.r.placement))}`);
    console.log(`  field  ${fmt(tally(xs, (x) => x.r.field))}`);
    console.log(`  names_other_tool ${fmt(tally(xs, (x) => String(x.r.names_other_tool)))}`);
  }
  if (file.includes('-d.')) console.log(`  slot   ${fmt(tally(xs, (x) => x.r.slot))}`);
}
const langAll = tally(all, (x) => x.r.lang);
console.log(`all langs: ${fmt(langAll)}  (en share ${(100 * (langAll.en || 0) / Math.max(1, all.length)).toFixed(1)}%)`);
for (const w of warns) console.log('WARN ' + w);
for (const e of errors) console.log('ERROR ' + e);
if (errors.length === 0) console.log(`clean (${all.length} records, ${warns.length} warnings)`);
else { console.log(`${errors.length} errors`); process.exitCode = 1; }
