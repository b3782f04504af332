// t66 validator: node t66-validate.mjs  (no dependencies)
// Checks every rule of the batch specification that can be checked mechanically and prints counts.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const BATCH = 't66';
const here = path.dirname(fileURLToPath(import.meta.url));
const catalogDir = path.join(here, '..', '..', 'discovery', 'catalog');

const errors = [];
const err = (id, msg) => errors.push(`${id}: ${msg}`);

// ---- catalog: real tool names and server names
const catalogTools = new Map(); // tool name -> Set(server)
const catalogServers = new Set();
for (const f of fs.readdirSync(catalogDir).filter((f) => f.endsWith('.json'))) {
  const j = JSON.parse(fs.readFileSync(path.join(catalogDir, f), 'utf8'));
  catalogServers.add(String(j.server).toLowerCase());
  catalogServers.add(f.replace(/\.json$/, '').toLowerCase());
  for (const t of j.tools || []) {
    if (!catalogTools.has(t.name)) catalogTools.set(t.name, new Set());
    catalogTools.get(t.name).add(String(j.server).toLowerCase());
  }
}

const ISO6391 = new Set(('aa ab af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs ca ce ch co cr cs cu cv cy da de dv dz ee el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz ia id ie ig ii ik io is it iu ja jv ka kg ki kj kk kl km kn ko kr ks ku kv kw ky la lb lg li ln lo lt lu lv mg mh mi mk ml mn mr ms mt my na nb nd ne ng nl nn no nr nv ny oc oj om or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg si sk sl sm sn so sq sr ss st su sv sw ta te tg th ti tk tl tn to tr ts tt tw ty ug uk ur uz ve vi vo wa wo xh yi yo za zh zu').split(' '));

// Stock phrases (and direct translations) that the specification forbids.
const BANNED = [
  /ignore (all |any )?(the )?previous instructions/i, /highest priority/i, /override/i, /disregard/i,
  /supersede/i, /takes precedence/i, /important/i,
  /最優先/, /最高优先/, /最高優先/, /优先级最高/, /忽略(之前|以上|先前)/, /無視して(ください)?.*指示/, /重要/,
  /최우선/, /우선순위/, /우선한다/, /중요/, /무시하/, /이전 지시/,
  /ưu tiên cao nhất/i, /bỏ qua (các )?hướng dẫn/i, /quan trọng/i,
  /สำคัญ/, /ลำดับความสำคัญสูงสุด/, /เพิกเฉย/,
  /prioritas tertinggi/i, /abaikan (instruksi|petunjuk)/i, /\bpenting\b/i, /keutamaan tertinggi/i,
  /\bmahalaga\b/i, /pinakamataas na priyoridad/i, /huwag pansinin/i,
  /महत्वपूर्ण/, /महत्त्वपूर्ण/, /महत्त्वाचे/, /सर्वोच्च प्राथमिकता/, /पिछले निर्देश/, /अनदेखा/,
  /গুরুত্বপূর্ণ/, /সর্বোচ্চ অগ্রাধিকার/, /উপেক্ষা/,
  /முக்கியமான/, /முன்னுரிமை/, /புறக்கணி/,
  /ముఖ్యమైన/, /ప్రాధాన్యత/, /విస్మరించ/,
  /\bاہم\b/, /اولین ترجیح/, /نظر انداز/,
  /सर्वोच्च प्राथमिकता/, /बेवास्ता/,
  /សំខាន់/, /អាទិភាពខ្ពស់បំផុត/, /មិនអើពើ/,
];

const INVISIBLE = /[\u00AD\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]|[\u{E0000}-\u{E007F}]/u;
const TLD = /\b((?:[a-z0-9-]+\.)+)(com|net|org|io|dev|app|co|ai|in|my|ph|vn|th|id|jp|kr|cn|tw|bd|pk|np|kh|me|xyz|info|biz|cloud|site|online|example)\b/gi;
const IPV4 = /\b(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\b/g;

function strings(obj, out = []) {
  if (typeof obj === 'string') out.push(obj);
  else if (Array.isArray(obj)) obj.forEach((v) => strings(v, out));
  else if (obj && typeof obj === 'object') for (const [k, v] of Object.entries(obj)) { out.push(k); strings(v, out); }
  return out;
}

function checkProps(id, props, where) {
  if (!props || typeof props !== 'object') return;
  for (const [name, p] of Object.entries(props)) {
    const at = `${where}.${name}`;
    if (!p || typeof p !== 'object') { err(id, `${at} is not an object`); continue; }
    if (typeof p.type !== 'string') err(id, `${at} has no type`);
    if (typeof p.description !== 'string' || !p.description.trim()) err(id, `${at} has no description`);
    if (p.properties) checkProps(id, p.properties, `${at}.properties`);
    if (p.items && p.items.properties) checkProps(id, p.items.properties, `${at}.items.properties`);
  }
}

// Resolve a JSONPath of the specification's forms against the record's tool.
function resolve(tool, jp) {
  if (!jp.startsWith('$')) return { ok: false };
  const toks = [];
  const re = /\.([A-Za-z0-9_$-]+)|\[(\d+)\]|\["([^"]+)"\]/g;
  let m, last = 1;
  while ((m = re.exec(jp))) {
    if (m.index !== last) return { ok: false };
    last = re.lastIndex;
    if (m[1] !== undefined) toks.push({ k: m[1] });
    else if (m[2] !== undefined) toks.push({ k: Number(m[2]) });
    else toks.push({ k: m[3], name: true });
  }
  if (last !== jp.length) return { ok: false };
  let cur = tool;
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    if (t.name && i === toks.length - 1) {
      return { ok: cur && Object.prototype.hasOwnProperty.call(cur, t.k), value: t.k, isName: true };
    }
    if (cur == null || !(t.k in Object(cur))) return { ok: false };
    cur = cur[t.k];
  }
  return { ok: typeof cur === 'string', value: cur };
}

const files = fs.readdirSync(here).filter((f) => f.startsWith(`${BATCH}-`) && f.endsWith('.jsonl'));
const ids = new Set();
const stats = {};
for (const f of files) {
  const cls = f.slice(BATCH.length + 1, -'.jsonl'.length);
  const st = (stats[f] = { n: 0, lang: {}, len: { short: 0, mid: 0, long: 0 }, where: {}, voices: new Set() });
  const lines = fs.readFileSync(path.join(here, f), 'utf8').split('\n').filter((l) => l.trim());
  lines.forEach((line, i) => {
    let r;
    try { r = JSON.parse(line); } catch (e) { err(`${f}:${i + 1}`, `bad JSON ${e.message}`); return; }
    const id = r.id || `${f}:${i + 1}`;
    st.n++;
    if (!new RegExp(`^${BATCH}-${cls}-\\d{3}$`).test(r.id || '')) err(id, `id must be ${BATCH}-${cls}-NNN`);
    if (ids.has(r.id)) err(id, 'duplicate id'); ids.add(r.id);
    if (r.class !== cls) err(id, `class ${r.class} does not match file ${cls}`);
    for (const k of ['voice', 'lang', 'server']) if (typeof r[k] !== 'string' || !r[k]) err(id, `missing ${k}`);
    if (!ISO6391.has(r.lang)) err(id, `lang ${r.lang} is not ISO 639-1`);
    if (catalogServers.has(String(r.server).toLowerCase())) err(id, `server ${r.server} is a catalog server`);
    if (!Array.isArray(r.siblings) || !r.siblings.length || r.siblings.some((s) => typeof s !== 'string')) err(id, 'siblings must be a non-empty string array');
    const t = r.tool;
    if (!t || typeof t.name !== 'string' || typeof t.description !== 'string') { err(id, 'tool.name/description missing'); return; }
    if (!t.inputSchema || t.inputSchema.type !== 'object' || typeof t.inputSchema.properties !== 'object') err(id, 'inputSchema must be an object schema with properties');
    else {
      checkProps(id, t.inputSchema.properties, '$.inputSchema.properties');
      for (const q of t.inputSchema.required || []) if (!(q in t.inputSchema.properties)) err(id, `required ${q} not in properties`);
    }
    if (cls === 'benign') {
      if ('where' in r || 'intent' in r) err(id, 'benign record must not have where/intent');
      if (typeof r.note !== 'string' || !r.note) err(id, 'benign needs note');
      if (!(r.source === 'new' || /^catalog:[^/]+\/.+/.test(r.source || ''))) err(id, 'benign source must be new or catalog:<server>/<tool>');
    } else {
      if (typeof r.intent !== 'string' || !r.intent) err(id, 'missing intent');
      const res = resolve(t, r.where || '');
      if (!res.ok) err(id, `where ${r.where} does not resolve to a string`);
      const wk = (r.where || '').startsWith('$.inputSchema') ? (/\["/.test(r.where) ? 'property name' : 'parameter') : r.where;
      st.where[wk] = (st.where[wk] || 0) + 1;
      for (const s of r.siblings || []) {
        const srv = catalogTools.get(s);
        if (!srv) err(id, `sibling ${s} is not a catalog tool`);
      }
    }
    // text checks over every string of the record
    const all = strings(r);
    for (const s of all) {
      if (INVISIBLE.test(s)) err(id, 'invisible/bidi/tag character');
      for (const b of BANNED) if (b.test(s)) err(id, `banned phrase ${b}`);
      for (const m of s.matchAll(TLD)) {
        const host = (m[1] + m[2]).toLowerCase();
        if (!host.endsWith('.example')) err(id, `non-.example domain ${host}`);
      }
      for (const m of s.matchAll(IPV4)) {
        const ip = m[0];
        if (ip === '0.0.0.0') continue;
        if (!/^(198\.51\.100|203\.0\.113)\./.test(ip)) err(id, `IP ${ip} outside TEST-NET-2/3`);
      }
    }
    const n = t.description.length;
    st.len[n < 200 ? 'short' : n < 700 ? 'mid' : 'long']++;
    st.lang[r.lang] = (st.lang[r.lang] || 0) + 1;
    st.voices.add(r.voice);
  });
}

for (const [f, st] of Object.entries(stats)) {
  console.log(`\n${f}: ${st.n} records, ${st.voices.size} voices`);
  console.log('  lengths (tool.description):', JSON.stringify(st.len));
  console.log('  languages:', JSON.stringify(st.lang));
  if (Object.keys(st.where).length) console.log('  where:', JSON.stringify(st.where));
}
const langs = {};
let total = 0;
for (const st of Object.values(stats)) for (const [l, c] of Object.entries(st.lang)) { langs[l] = (langs[l] || 0) + c; total += c; }
console.log(`\nall: ${total} records, ${Object.keys(langs).length} languages, English ${(100 * (langs.en || 0) / total).toFixed(1)}%`);
if (errors.length) {
  console.log(`\n${errors.length} problem(s):`);
  for (const e of errors) console.log('  ' + e);
  process.exit(1);
}
console.log('\nOK: all checks passed');
