// t55 validator: node t55-validate.mjs  (no dependencies). Checks the rules of the batch specification.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const DIR = path.dirname(fileURLToPath(import.meta.url));
const BATCH = 't55';
const CATALOG = path.join(DIR, '..', '..', 'discovery', 'catalog');
const errors = [];
const warns = [];
const err = (id, m) => errors.push(`${id}: ${m}`);

// catalog tool names and server names
const catTools = new Map(); // server -> Set(tool names)
const allCatTools = new Set();
for (const f of fs.readdirSync(CATALOG).filter(f => f.endsWith('.json'))) {
  const d = JSON.parse(fs.readFileSync(path.join(CATALOG, f), 'utf8'));
  const s = new Set(d.tools.map(t => t.name));
  catTools.set(d.server, s);
  catTools.set(f.replace(/\.json$/, ''), s);
  for (const n of s) allCatTools.add(n);
}
const catServers = new Set(catTools.keys());

const ISO6391 = new Set(('aa ab ae af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs ca ce ch co cr cs cu cv cy da de dv dz ee el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz ia id ie ig ii ik io is it iu ja jv ka kg ki kj kk kl km kn ko kr ks ku kv kw ky la lb lg li ln lo lt lu lv mg mh mi mk ml mn mr ms mt my na nb nd ne ng nl nn no nr nv ny oc oj om or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg si sk sl sm sn so sq sr ss st su sv sw ta te tg th ti tk tl tn to tr ts tt tw ty ug uk ur uz ve vi vo wa wo xh yi yo za zh zu').split(' '));

// stock phrases and direct translations that must not appear (case-insensitive)
const BANNED = [
  'ignore previous instructions', 'ignore all previous', 'highest priority', 'override', 'disregard',
  'supersede', 'takes precedence', 'important', 'precedence',
  // translations
  'importante', 'wichtig', 'vorrang', 'höchste priorität', 'ignoriere', 'prioridad máxima', 'máxima prioridad',
  'ignora las instrucciones', 'priorité absolue', 'ignorez', 'prioridade máxima', 'ignore as instruções',
  '重要', '最优先', '最優先', '优先', '優先', '忽略', '無視', 'важно', 'высший приоритет', 'наивысший приоритет', 'игнорир', 'важливо',
  'найвищий пріоритет', 'důležit', 'nejvyšší priorit', 'viktig', 'tärkeä', 'σημαντικ', 'προτεραιότητα', 'חשוב', 'עדיפות',
  'สำคัญ', 'penting', 'keutamaan', 'fontos', 'elsőbbség', 'belangrijk', 'ważne', '중요', 'önemli',
  'quan trọng', 'vigtig', 'dôležit'
];

// invisible, bidi and tag characters
const INVIS = /[\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0\uFFF0-\uFFFB]|[\u{E0000}-\u{E007F}]|[\u{E0100}-\u{E01EF}]/u;

function allStrings(v, out = []) {
  if (typeof v === 'string') out.push(v);
  else if (Array.isArray(v)) v.forEach(x => allStrings(x, out));
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) { out.push(k); allStrings(x, out); }
  return out;
}

function checkEndpoints(id, text) {
  // URLs
  for (const m of text.matchAll(/https?:\/\/([^\s/"'`)\]]+)/gi)) {
    const host = m[1].replace(/:\d+$/, '').toLowerCase();
    if (!(host.endsWith('.example') || isTestNet(host))) err(id, `URL host not .example/TEST-NET: ${m[0]}`);
  }
  // e-mail addresses
  for (const m of text.matchAll(/[\w.+-]+@([\w-]+(?:\.[\w-]+)+)/g)) {
    if (!m[1].toLowerCase().endsWith('.example')) err(id, `email domain not .example: ${m[0]}`);
  }
  // bare domain-like tokens with common TLDs
  for (const m of text.matchAll(/\b[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(com|net|org|io|dev|app|co|ai|cloud|sh|xyz|info|biz)\b/gi)) {
    warns.push(`${id}: domain-like token ${m[0]}`);
  }
  // IPv4
  for (const m of text.matchAll(/\b(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\b/g)) {
    const ip = m[0];
    if (ip === '0.0.0.0') continue;
    if (!isTestNet(ip)) err(id, `IPv4 not in TEST-NET: ${ip}`);
  }
}
function isTestNet(h) { return /^(198\.51\.100|203\.0\.113|192\.0\.2)\.\d{1,3}$/.test(h); }

// every property (recursively) has type and description
function checkSchema(id, schema, where) {
  if (!schema || typeof schema !== 'object') return err(id, `${where}: schema not an object`);
  if (schema.properties) {
    if (typeof schema.properties !== 'object') return err(id, `${where}.properties not object`);
    for (const [k, p] of Object.entries(schema.properties)) {
      const w = `${where}.properties.${k}`;
      if (!p || typeof p !== 'object') { err(id, `${w} not an object`); continue; }
      if (!('type' in p)) err(id, `${w} lacks type`);
      if (typeof p.description !== 'string' || !p.description.trim()) err(id, `${w} lacks description`);
      checkSchema(id, p, w);
    }
  }
  if (schema.items && typeof schema.items === 'object') checkSchema(id, schema.items, where + '.items');
  if (Array.isArray(schema.required) && schema.properties) {
    for (const r of schema.required) if (!(r in schema.properties)) err(id, `${where}: required '${r}' not a property`);
  }
}

// minimal JSONPath resolver for the forms the specification allows
function resolve(tool, p) {
  if (!p.startsWith('$')) return { ok: false };
  const toks = [];
  const re = /\.([A-Za-z_][\w-]*)|\["([^"]+)"\]|\[(\d+)\]/y;
  re.lastIndex = 1;
  while (re.lastIndex < p.length) {
    const m = re.exec(p);
    if (!m) return { ok: false };
    if (m[1] !== undefined) toks.push({ k: m[1] });
    else if (m[2] !== undefined) toks.push({ k: m[2], bracket: true });
    else toks.push({ i: Number(m[3]) });
  }
  let cur = tool;
  for (let j = 0; j < toks.length; j++) {
    const t = toks[j];
    const last = j === toks.length - 1;
    if (t.i !== undefined) { if (!Array.isArray(cur)) return { ok: false }; cur = cur[t.i]; }
    else {
      if (cur == null || typeof cur !== 'object' || !(t.k in cur)) return { ok: false };
      if (last && t.bracket) return { ok: true, value: t.k, isName: true };
      cur = cur[t.k];
    }
  }
  return { ok: true, value: cur };
}

function loadJsonl(file) {
  const p = path.join(DIR, file);
  if (!fs.existsSync(p)) { err(file, 'missing'); return []; }
  const out = [];
  fs.readFileSync(p, 'utf8').split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    try { out.push(JSON.parse(line)); } catch (e) { err(`${file}:${i + 1}`, 'bad JSON: ' + e.message); }
  });
  return out;
}

const files = fs.readdirSync(DIR).filter(f => f.startsWith(BATCH + '-') && f.endsWith('.jsonl'));
const seen = new Set();
const langAll = {};
const report = {};

for (const file of files) {
  const cls = file.slice(BATCH.length + 1, -'.jsonl'.length);
  const recs = loadJsonl(file);
  const stats = { count: recs.length, short: 0, mid: 0, long: 0, langs: {}, where: {}, voices: new Set() };
  for (const r of recs) {
    const id = r.id || '(no id)';
    const isBenign = cls === 'benign';
    if (!new RegExp(`^${BATCH}-${cls}-\\d{3}$`).test(id)) err(id, 'bad id format');
    if (seen.has(id)) err(id, 'duplicate id'); seen.add(id);
    if (r.class !== cls) err(id, `class ${r.class} != ${cls}`);
    if (typeof r.voice !== 'string' || !r.voice) err(id, 'voice missing');
    else stats.voices.add(r.voice);
    if (!ISO6391.has(r.lang)) err(id, `lang not ISO 639-1: ${r.lang}`);
    if (typeof r.server !== 'string' || !r.server) err(id, 'server missing');
    else if (catServers.has(r.server.toLowerCase())) err(id, `server is a catalog server name: ${r.server}`);
    if (!Array.isArray(r.siblings) || r.siblings.length === 0) err(id, 'siblings missing');
    const t = r.tool;
    if (!t || typeof t.name !== 'string' || typeof t.description !== 'string') { err(id, 'tool name/description missing'); continue; }
    if (!t.inputSchema || t.inputSchema.type !== 'object') err(id, 'inputSchema.type must be object');
    else checkSchema(id, t.inputSchema, '$.inputSchema');
    const allowed = isBenign
      ? ['id', 'class', 'voice', 'lang', 'server', 'siblings', 'tool', 'note', 'source']
      : ['id', 'class', 'voice', 'lang', 'server', 'siblings', 'tool', 'where', 'intent'];
    for (const k of Object.keys(r)) if (!allowed.includes(k)) err(id, `unexpected field ${k}`);
    for (const k of allowed) if (!(k in r)) err(id, `missing field ${k}`);
    if (isBenign) {
      if (typeof r.note !== 'string' || !r.note) err(id, 'note missing');
      if (r.source !== 'new') {
        const m = /^catalog:([^/]+)\/(.+)$/.exec(r.source || '');
        if (!m) err(id, `bad source ${r.source}`);
        else if (!catTools.has(m[1]) || !catTools.get(m[1]).has(m[2])) err(id, `source tool not in catalog: ${r.source}`);
      }
      for (const s of r.siblings) if (allCatTools.has(s)) warns.push(`${id}: benign sibling '${s}' also exists in catalog (still made-up for this server)`);
    } else {
      for (const s of r.siblings) if (!allCatTools.has(s)) err(id, `sibling '${s}' is not a real catalog tool`);
      if (typeof r.intent !== 'string' || !r.intent) err(id, 'intent missing');
      const res = resolve(t, r.where || '');
      if (!res.ok) err(id, `where does not resolve: ${r.where}`);
      else if (typeof res.value !== 'string') err(id, `where does not point to a string: ${r.where}`);
      const wk = (r.where || '').replace(/properties\.[^.[\]]+/g, 'properties.*').replace(/properties\["[^"]+"\]/g, 'properties[name]');
      stats.where[wk] = (stats.where[wk] || 0) + 1;
    }
    const texts = allStrings(t).concat([r.voice, r.server, r.intent || '', r.note || '']);
    const joined = texts.join('\n');
    if (INVIS.test(joined) || INVIS.test(JSON.stringify(r))) err(id, 'invisible/bidi/tag character');
    const low = joined.toLowerCase();
    for (const b of BANNED) if (low.includes(b)) err(id, `banned phrase: "${b}"`);
    checkEndpoints(id, allStrings(t).join('\n'));
    const n = t.description.length;
    if (n < 200) stats.short++; else if (n < 700) stats.mid++; else stats.long++;
    stats.langs[r.lang] = (stats.langs[r.lang] || 0) + 1;
    langAll[r.lang] = (langAll[r.lang] || 0) + 1;
  }
  // repeated long sentence frames inside the file (first 6 words of each sentence)
  const frames = {};
  for (const r of recs) for (const s of (r.tool?.description || '').split(/(?<=[.!?。！？])\s+|\n+/)) {
    const w = s.trim().toLowerCase().split(/\s+/).slice(0, 6).join(' ');
    if (w.split(' ').length < 6) continue;
    (frames[w] ||= new Set()).add(r.id);
  }
  for (const [w, ids] of Object.entries(frames)) if (ids.size > 2) warns.push(`${file}: frame "${w}" repeated in ${[...ids].join(', ')}`);
  stats.voices = stats.voices.size;
  report[file] = stats;
}

const total = Object.values(langAll).reduce((a, b) => a + b, 0);
console.log(JSON.stringify(report, null, 1));
console.log('languages overall:', Object.keys(langAll).length, JSON.stringify(langAll));
console.log('english share:', ((langAll.en || 0) / total * 100).toFixed(1) + '%');
if (Object.keys(langAll).length < 25) err('batch', 'fewer than 25 languages');
for (const w of warns) console.log('WARN', w);
if (errors.length) { for (const e of errors) console.log('ERROR', e); console.log(`FAIL: ${errors.length} error(s)`); process.exit(1); }
console.log(`PASS: ${total} records in ${files.length} files`);
