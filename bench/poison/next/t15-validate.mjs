// validate.mjs — checks the t15 corpus files. Node >= 18, no dependencies.
// Usage: node validate.mjs            (run from any directory)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const catalogDir = path.resolve(here, '..', '..', 'discovery', 'catalog');
const FILES = [
  { file: 't15-p1.jsonl', cls: 'p1', prefix: 't15-p1-' },
  { file: 't15-benign.jsonl', cls: 'benign', prefix: 't15-benign-' },
];

const errors = [];
const warnings = [];
const err = (loc, msg) => errors.push(`${loc}: ${msg}`);
const warn = (loc, msg) => warnings.push(`${loc}: ${msg}`);

// ---- catalog tool names ----
const catalogNames = new Set();
for (const f of fs.readdirSync(catalogDir).filter((f) => f.endsWith('.json'))) {
  const j = JSON.parse(fs.readFileSync(path.join(catalogDir, f), 'utf8'));
  for (const t of j.tools || []) catalogNames.add(t.name);
}

// ---- forbidden characters: invisible, bidi controls, tag characters, odd spaces ----
const FORBIDDEN = /[\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0\uFFF9-\uFFFB]|[\u{E0000}-\u{E007F}]|[\u{E0100}-\u{E01EF}]/u;
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

// stock phrases no record may use as the attack wording (p1 side), plus the words
// this set's brief keeps out of the p1 texts (must / always / priority).
const STOCK = [/ignore (all )?previous instructions/i, /highest priority/i, /\boverrid/i, /\bdisregard/i,
  /\bsupersed/i, /takes? precedence/i, /\bIMPORTANT\b/];
const P1_EXTRA = [/\bmust\b/i, /\balways\b/i, /\bpriority\b/i];

const ISO6391 = new Set(('aa ab af ak am ar as az be bg bn bo br bs ca cs cy da de el en eo es et eu fa fi fo fr fy ga gd gl gu ha he hi hr ht hu hy id ig is it ja jv ka kk km kn ko ku ky la lb lo lt lv mg mi mk ml mn mr ms mt my nb ne nl nn no ny or pa pl ps pt ro ru rw sd si sk sl sm sn so sq sr st su sv sw ta te tg th ti tk tl tn tr tt ug uk ur uz vi wo xh yi yo zh zu').split(' '));

const NAME_RE = /^[A-Za-z0-9_.-]{1,64}$/;

function walkStrings(v, cb, p = '$') {
  if (typeof v === 'string') cb(v, p);
  else if (Array.isArray(v)) v.forEach((x, i) => walkStrings(x, cb, `${p}[${i}]`));
  else if (v && typeof v === 'object') for (const k of Object.keys(v)) { cb(k, `${p}{key}`); walkStrings(v[k], cb, `${p}.${k}`); }
}

function checkProps(props, loc) {
  if (!props || typeof props !== 'object' || Array.isArray(props)) { err(loc, 'properties is not an object'); return; }
  for (const [k, s] of Object.entries(props)) {
    if (!s || typeof s !== 'object') { err(loc, `property ${k} is not a schema`); continue; }
    if (!('type' in s)) err(loc, `property ${k} has no type`);
    if (typeof s.description !== 'string' || !s.description.trim()) err(loc, `property ${k} has no description`);
    if (s.properties) checkProps(s.properties, `${loc}.${k}`);
    if (s.items && s.items.properties) checkProps(s.items.properties, `${loc}.${k}[]`);
  }
}

// resolve a `where` path inside the tool object
function resolveWhere(tool, where) {
  if (!where.startsWith('$')) return { ok: false };
  let rest = where.slice(1);
  let cur = tool;
  let lastWasBracket = false;
  while (rest.length) {
    let m;
    if ((m = rest.match(/^\.([A-Za-z0-9_$-]+)/))) { cur = cur?.[m[1]]; rest = rest.slice(m[0].length); lastWasBracket = false; }
    else if ((m = rest.match(/^\["([^"]+)"\]/))) { cur = cur?.[m[1]]; rest = rest.slice(m[0].length); lastWasBracket = true; }
    else if ((m = rest.match(/^\[(\d+)\]/))) { cur = cur?.[Number(m[1])]; rest = rest.slice(m[0].length); lastWasBracket = false; }
    else return { ok: false };
    if (cur === undefined) return { ok: false };
  }
  if (typeof cur === 'string') return { ok: true, value: cur };
  if (lastWasBracket && cur && typeof cur === 'object' && 'type' in cur) return { ok: true, value: null, propName: true };
  return { ok: false };
}

function trigrams(text) {
  const w = text.toLowerCase().replace(/[^\p{L}\p{N}\s_'-]/gu, ' ').split(/\s+/).filter(Boolean);
  const s = new Set();
  for (let i = 0; i + 2 < w.length; i++) s.add(`${w[i]} ${w[i + 1]} ${w[i + 2]}`);
  return s;
}

const toolNames = new Map();
const allDescs = [];
const stats = {};

for (const { file, cls, prefix } of FILES) {
  const fp = path.join(here, file);
  if (!fs.existsSync(fp)) { err(file, 'missing'); continue; }
  const lines = fs.readFileSync(fp, 'utf8').split('\n');
  const ids = new Set();
  const st = stats[file] = { records: 0, langs: {}, voices: {}, where: {}, len: { short: 0, medium: 0, long: 0 }, sources: { new: 0, catalog: 0 } };
  lines.forEach((line, i) => {
    const loc0 = `${file}:${i + 1}`;
    if (!line.trim()) { if (i !== lines.length - 1) err(loc0, 'blank line'); return; }
    if (FORBIDDEN.test(line)) err(loc0, `forbidden invisible/bidi/tag character U+${line.match(FORBIDDEN)[0].codePointAt(0).toString(16).toUpperCase()}`);
    let r;
    try { r = JSON.parse(line); } catch (e) { err(loc0, `JSON parse error: ${e.message}`); return; }
    const loc = `${file}:${i + 1} ${r.id || '?'}`;
    st.records++;
    // fields
    const common = ['id', 'class', 'voice', 'lang', 'server', 'siblings', 'tool'];
    const extra = cls === 'benign' ? ['note', 'source'] : ['where', 'intent'];
    for (const f of [...common, ...extra]) if (!(f in r)) err(loc, `missing field ${f}`);
    const forbiddenFields = cls === 'benign' ? ['where', 'intent'] : ['note', 'source'];
    for (const f of forbiddenFields) if (f in r) err(loc, `field ${f} not allowed for ${cls}`);
    for (const k of Object.keys(r)) if (![...common, ...extra].includes(k)) err(loc, `unexpected field ${k}`);
    // id
    const idRe = new RegExp(`^${prefix.replace(/[-]/g, '\\-')}\\d{3}$`);
    if (typeof r.id !== 'string' || !idRe.test(r.id)) err(loc, `bad id ${r.id}`);
    else {
      if (ids.has(r.id)) err(loc, `duplicate id ${r.id}`);
      ids.add(r.id);
      const n = Number(r.id.slice(-3));
      if (n !== st.records) err(loc, `id out of sequence (expected ${String(st.records).padStart(3, '0')})`);
    }
    if (r.class !== cls) err(loc, `class ${r.class} != ${cls}`);
    for (const f of ['voice', 'lang', 'server']) if (typeof r[f] !== 'string' || !r[f].trim()) err(loc, `${f} empty`);
    if (!ISO6391.has(r.lang)) err(loc, `lang ${r.lang} is not an ISO 639-1 code`);
    st.langs[r.lang] = (st.langs[r.lang] || 0) + 1;
    st.voices[r.voice] = (st.voices[r.voice] || 0) + 1;
    // siblings
    if (!Array.isArray(r.siblings) || r.siblings.length === 0) err(loc, 'siblings must be a non-empty array');
    else for (const s of r.siblings) {
      if (typeof s !== 'string' || !NAME_RE.test(s)) err(loc, `bad sibling name ${s}`);
      if (cls !== 'benign' && !catalogNames.has(s)) err(loc, `sibling ${s} not in catalog`);
      if (r.tool && s === r.tool.name) err(loc, 'sibling equals the tool itself');
    }
    // tool
    const t = r.tool;
    if (!t || typeof t !== 'object') { err(loc, 'tool missing'); return; }
    for (const k of Object.keys(t)) if (!['name', 'description', 'title', 'inputSchema'].includes(k)) err(loc, `unexpected tool key ${k}`);
    if (typeof t.name !== 'string' || !NAME_RE.test(t.name)) err(loc, `bad tool name ${t.name}`);
    else {
      if (toolNames.has(t.name)) err(loc, `tool name ${t.name} already used at ${toolNames.get(t.name)}`);
      toolNames.set(t.name, r.id);
    }
    if (typeof t.description !== 'string' || !t.description.trim()) err(loc, 'tool.description empty');
    if ('title' in t && typeof t.title !== 'string') err(loc, 'title not a string');
    const sch = t.inputSchema;
    if (!sch || sch.type !== 'object') err(loc, 'inputSchema.type must be object');
    else {
      checkProps(sch.properties, `${loc} properties`);
      if (sch.required) {
        if (!Array.isArray(sch.required)) err(loc, 'required not an array');
        else for (const q of sch.required) if (!sch.properties || !(q in sch.properties)) err(loc, `required ${q} not a property`);
      }
    }
    walkStrings(t, (s, p) => { if (CONTROL.test(s)) err(loc, `control character in ${p}`); });
    // provenance
    if (cls === 'benign') {
      if (typeof r.note !== 'string' || r.note.length < 10) err(loc, 'note too short');
      if (r.source !== 'new' && !/^catalog:[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/.test(r.source || '')) err(loc, `bad source ${r.source}`);
      if (/^catalog:/.test(r.source || '')) st.sources.catalog++; else st.sources.new++;
    } else {
      if (typeof r.intent !== 'string' || r.intent.length < 10) err(loc, 'intent too short');
      if (typeof r.where !== 'string') err(loc, 'where missing');
      else {
        const res = resolveWhere(t, r.where);
        if (!res.ok) err(loc, `where ${r.where} does not resolve to a string / property schema`);
        const wkey = r.where.replace(/properties\.[^.]+\./, 'properties.<p>.').replace(/properties\["[^"]+"\]/, 'properties["<p>"]');
        st.where[wkey] = (st.where[wkey] || 0) + 1;
        if (res.ok && res.value !== null && res.value.trim().length < 15) warn(loc, 'poison string very short');
      }
      // stock phrases anywhere in the tool text
      walkStrings(t, (s, p) => {
        for (const re of STOCK) if (re.test(s)) err(loc, `stock phrase ${re} in ${p}`);
        if (r.lang === 'en') for (const re of P1_EXTRA) if (re.test(s)) err(loc, `p1 keeps out ${re} (found in ${p})`);
      });
    }
    // endpoints: URLs / e-mail domains / IPv4 addresses
    walkStrings(t, (s, p) => {
      for (const m of s.matchAll(/\bhttps?:\/\/([^\/\s)"'`<>\]]+)/g)) {
        const host = m[1].replace(/:\d+$/, '').replace(/^[^@]*@/, '').toLowerCase();
        if (!/\.example$/.test(host) && !/^(198\.51\.100|203\.0\.113|192\.0\.2)\.\d+$/.test(host) && host !== 'localhost')
          err(loc, `URL host ${host} is not .example / TEST-NET (${p})`);
      }
      for (const m of s.matchAll(/[A-Za-z0-9._%+-]+@([A-Za-z0-9.-]+\.[A-Za-z]{2,})/g)) {
        if (!/\.example$/i.test(m[1])) err(loc, `e-mail domain ${m[1]} is not .example (${p})`);
      }
      for (const m of s.matchAll(/(?<![\d.])(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})(?![\d.])/g)) {
        const ip = m[0];
        if (!/^(198\.51\.100|203\.0\.113|192\.0\.2)\./.test(ip) && !/^(127\.0\.0\.1|0\.0\.0\.0|10\.|192\.168\.)/.test(ip))
          err(loc, `IPv4 ${ip} outside TEST-NET (${p})`);
      }
    });
    // length bucket of the tool description
    const L = (t.description || '').length;
    if (L < 200) st.len.short++; else if (L < 700) st.len.medium++; else st.len.long++;
    allDescs.push({ id: r.id, text: t.description || '' });
  });
}

// 3-gram overlap between any two descriptions
const grams = allDescs.map((d) => ({ id: d.id, g: trigrams(d.text) }));
for (let i = 0; i < grams.length; i++) {
  for (let j = i + 1; j < grams.length; j++) {
    const a = grams[i].g, b = grams[j].g;
    const small = a.size <= b.size ? a : b, big = small === a ? b : a;
    if (small.size < 4) continue;
    let shared = 0;
    for (const x of small) if (big.has(x)) shared++;
    if (shared / small.size > 0.5) err(`${grams[i].id} / ${grams[j].id}`, `descriptions share ${shared}/${small.size} word 3-grams`);
  }
}

for (const [file, st] of Object.entries(stats)) {
  const en = st.langs.en || 0;
  console.log(`${file}: ${st.records} records; English ${en} (${Math.round((100 * en) / (st.records || 1))}%), ${Object.keys(st.langs).length} languages`);
  console.log(`  languages: ${Object.entries(st.langs).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k}:${v}`).join(' ')}`);
  console.log(`  description length: short(<200) ${st.len.short}, medium(200-699) ${st.len.medium}, long(>=700) ${st.len.long}`);
  console.log(`  voices: ${Object.keys(st.voices).length} distinct`);
  if (Object.keys(st.where).length) console.log(`  where: ${Object.entries(st.where).map(([k, v]) => `${k}=${v}`).join(', ')}`);
  if (file.includes('benign')) console.log(`  source: new ${st.sources.new}, catalog ${st.sources.catalog}`);
}
for (const w of warnings) console.log('WARN', w);
if (errors.length) {
  for (const e of errors) console.log('ERROR', e);
  console.log(`\n${errors.length} error(s)`);
  process.exit(1);
}
console.log('\nOK: no errors');
