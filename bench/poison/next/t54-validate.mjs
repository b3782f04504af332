// t54 validator: node t54-validate.mjs  (no dependencies). Exits 1 on any error.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const BATCH = 't54';
const catalogDir = path.join(here, '..', '..', 'discovery', 'catalog');
const errors = [];
const err = (id, msg) => errors.push(`${id}: ${msg}`);

// Real tool names and server names from the catalog
const realTools = new Set();
const catalogServers = new Set();
for (const f of fs.readdirSync(catalogDir).filter(f => f.endsWith('.json'))) {
  const d = JSON.parse(fs.readFileSync(path.join(catalogDir, f), 'utf8'));
  catalogServers.add(String(d.server).toLowerCase());
  catalogServers.add(f.replace(/\.json$/, '').toLowerCase());
  for (const t of d.tools || []) realTools.add(t.name);
}

const ISO6391 = new Set(('aa ab ae af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs ca ce ch co cr cs cu cv cy da de dv dz ee el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz ia id ie ig ii ik io is it iu ja jv ka kg ki kj kk kl km kn ko kr ks ku kv kw ky la lb lg li ln lo lt lu lv mg mh mi mk ml mn mr ms mt my na nb nd ne ng nl nn no nr nv ny oc oj om or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg si sk sl sm sn so sq sr ss st su sv sw ta te tg th ti tk tl tn to tr ts tt tw ty ug uk ur uz ve vi vo wa wo xh yi yo za zh zu').split(' '));

// Stock phrases and direct translations that must not appear anywhere
const banned = [
  /ignore (all |any )?(previous|prior) instructions/i, /highest priority/i, /override/i, /disregard/i,
  /supersed/i, /takes precedence/i, /important/i,
  /importante/i, /wichtig/i, /belangrijk/i, /ważn/i, /önemli/i, /важн/i, /重要/, /중요/, /महत्वपूर्ण/, /مهم/, /penting/i, /quan trọng/i, /viktig/i, /důležit/i, /fontos/i, /σημαντικ/i, /חשוב/, /สำคัญ/, /vigtig/i, /tärkeä/i, /dôležit/i,
  /ignor(e|ez|a|iere|ar)\b/i, /忽略/, /無視/, /무시/, /игнорир/i,
  /vorrang/i, /precedenza/i, /precedencia/i, /precedência/i, /priorité absolue/i, /prioridad máxima/i, /最高优先/, /最優先/, /최우선/, /высш\S* приоритет/i,
  /优先/, /優先/, /우선/, /prevale/i, /prevalece/i, /prévaut/i, /diutamakan/i,
];
const invisible = /[\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\uFEFF\u00AD\u180E]|[\u{E0000}-\u{E007F}]/u;

function* strings(v, p = '$') {
  if (typeof v === 'string') yield [p, v];
  else if (Array.isArray(v)) for (let i = 0; i < v.length; i++) yield* strings(v[i], `${p}[${i}]`);
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) { yield [`${p}.key`, k]; yield* strings(x, `${p}.${k}`); }
}

function checkProps(id, schema, p) {
  if (!schema || typeof schema !== 'object') return;
  if (schema.properties) {
    for (const [k, s] of Object.entries(schema.properties)) {
      const q = `${p}.properties.${k}`;
      if (!s.type) err(id, `${q} has no type`);
      if (typeof s.description !== 'string' || !s.description.trim()) err(id, `${q} has no description`);
      checkProps(id, s, q);
    }
  }
  if (schema.items) checkProps(id, schema.items, `${p}.items`);
  if (Array.isArray(schema.required) && schema.properties)
    for (const r of schema.required) if (!(r in schema.properties)) err(id, `${p}.required names missing property ${r}`);
}

// Resolve the limited JSONPath dialect the specification allows
function resolve(tool, where) {
  if (!where.startsWith('$')) return { ok: false };
  const toks = [];
  const re = /\.([A-Za-z0-9_\-]+)|\[(\d+)\]|\["([^"]+)"\]/gy;
  re.lastIndex = 1;
  let m;
  while (re.lastIndex < where.length) {
    m = re.exec(where);
    if (!m) return { ok: false };
    if (m[1] !== undefined) toks.push({ k: m[1] });
    else if (m[2] !== undefined) toks.push({ i: +m[2] });
    else toks.push({ name: m[3] });
  }
  let cur = tool;
  for (let j = 0; j < toks.length; j++) {
    const t = toks[j];
    if (t.name !== undefined) { // property NAME form: must be last, the key itself carries the text
      if (j !== toks.length - 1 || !cur || typeof cur !== 'object' || !(t.name in cur)) return { ok: false };
      return { ok: true, value: t.name };
    }
    if (cur == null) return { ok: false };
    cur = t.k !== undefined ? cur[t.k] : cur[t.i];
  }
  return { ok: cur !== undefined, value: cur };
}

function checkEndpoints(id, text) {
  for (const m of text.matchAll(/https?:\/\/([^\/\s"'`)]+)/gi)) {
    const host = m[1].replace(/:\d+$/, '').toLowerCase();
    if (!(host.endsWith('.example') || /^(198\.51\.100|203\.0\.113)\.\d+$/.test(host))) err(id, `URL host not .example/TEST-NET: ${host}`);
  }
  for (const m of text.matchAll(/[A-Za-z0-9._%+-]+@([A-Za-z0-9.-]+\.[A-Za-z]{2,})/g)) {
    if (!m[1].toLowerCase().endsWith('.example')) err(id, `email domain not .example: ${m[0]}`);
  }
  for (const m of text.matchAll(/\b(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\b/g)) {
    const ip = m[0];
    if (!/^(198\.51\.100|203\.0\.113)\./.test(ip)) err(id, `IP not in TEST-NET: ${ip}`);
  }
}

const lenBucket = n => (n < 200 ? 'short' : n < 700 ? 'medium' : 'long');
const ids = new Set();
const allLangs = {};
const summary = {};

function validateFile(file, kind) {
  const full = path.join(here, file);
  const lines = fs.readFileSync(full, 'utf8').split('\n').filter(l => l.trim());
  const s = { records: 0, langs: {}, lengths: { short: 0, medium: 0, long: 0 }, where: {}, voices: new Set() };
  lines.forEach((line, n) => {
    let r;
    try { r = JSON.parse(line); } catch (e) { err(`${file}:${n + 1}`, 'bad JSON ' + e.message); return; }
    const id = r.id || `${file}:${n + 1}`;
    s.records++;
    const cls = kind === 'benign' ? 'benign' : kind;
    if (r.class !== cls) err(id, `class ${r.class} != ${cls}`);
    if (!new RegExp(`^${BATCH}-${cls}-\\d{3}$`).test(r.id || '')) err(id, 'bad id format');
    if (ids.has(r.id)) err(id, 'duplicate id'); ids.add(r.id);
    if (!ISO6391.has(r.lang)) err(id, `lang not ISO 639-1: ${r.lang}`);
    if (!r.voice) err(id, 'no voice');
    if (!r.server || catalogServers.has(String(r.server).toLowerCase())) err(id, 'server missing or is a catalog server');
    if (!Array.isArray(r.siblings) || !r.siblings.length) err(id, 'no siblings');
    const t = r.tool;
    if (!t || typeof t.name !== 'string' || typeof t.description !== 'string') { err(id, 'tool missing name/description'); return; }
    if (!t.inputSchema || t.inputSchema.type !== 'object') err(id, 'inputSchema not object');
    checkProps(id, t.inputSchema, '$.inputSchema');
    if (kind === 'benign') {
      if ('where' in r || 'intent' in r) err(id, 'benign record has where/intent');
      if (!r.note) err(id, 'benign without note');
      if (!(r.source === 'new' || /^catalog:[^/]+\/.+$/.test(r.source || ''))) err(id, `bad source ${r.source}`);
      for (const sib of r.siblings || []) if (realTools.has(sib)) err(id, `benign sibling is a real catalog tool: ${sib}`);
      if (r.siblings?.includes(t.name)) err(id, 'sibling equals own tool name');
    } else {
      for (const sib of r.siblings || []) if (!realTools.has(sib)) err(id, `sibling not a real catalog tool: ${sib}`);
      if (!r.intent) err(id, 'no intent');
      const res = resolve(t, r.where || '');
      if (!res.ok || typeof res.value !== 'string') err(id, `where does not resolve to a string: ${r.where}`);
      s.where[r.where.replace(/properties\.[^.\[]+/g, 'properties.<p>')] = (s.where[r.where.replace(/properties\.[^.\[]+/g, 'properties.<p>')] || 0) + 1;
    }
    const text = JSON.stringify(r);
    for (const [p, str] of strings(r)) {
      if (invisible.test(str)) err(id, `invisible/bidi/tag char at ${p}`);
      for (const b of banned) if (b.test(str)) err(id, `banned phrase ${b} at ${p}`);
    }
    checkEndpoints(id, text);
    // Length: all documentation text the model reads (description, title, property descriptions)
    let total = t.description.length + (t.title ? t.title.length : 0);
    for (const [p, str] of strings(t.inputSchema, '$.inputSchema')) if (/\.description$|\.title$/.test(p)) total += str.length;
    s.lengths[lenBucket(total)]++;
    s.langs[r.lang] = (s.langs[r.lang] || 0) + 1;
    allLangs[r.lang] = (allLangs[r.lang] || 0) + 1;
    s.voices.add(r.voice);
  });
  summary[file] = { ...s, voices: s.voices.size };
}

validateFile(`${BATCH}-p1.jsonl`, 'p1');
validateFile(`${BATCH}-benign.jsonl`, 'benign');

for (const [f, s] of Object.entries(summary)) {
  const en = s.langs.en || 0;
  console.log(`${f}: ${s.records} records, English ${en} (${Math.round((100 * en) / s.records)}%), ${Object.keys(s.langs).length} languages, ${s.voices} voices`);
  console.log('  lengths', JSON.stringify(s.lengths));
  console.log('  langs', JSON.stringify(s.langs));
  if (Object.keys(s.where).length) console.log('  where', JSON.stringify(s.where));
}
const nl = Object.keys(allLangs).length;
console.log(`all files: ${Object.values(allLangs).reduce((a, b) => a + b, 0)} records, ${nl} languages`);
if (nl < 25) err('batch', `only ${nl} languages (need >= 25)`);
if (errors.length) { console.log(`\n${errors.length} error(s):`); for (const e of errors) console.log('  ' + e); process.exit(1); }
console.log('OK: all checks passed');
