// Validator for batch t34 (no dependencies). Usage: node validate.mjs
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const catalogDir = path.resolve(here, '..', '..', 'discovery', 'catalog');
const FILES = [
  { file: 't34-d.jsonl', cls: ['d'], prefix: 't34-d-', poisoned: true },
  { file: 't34-benign.jsonl', cls: ['benign'], prefix: 't34-benign-', poisoned: false },
];

const errors = [];
const warnings = [];
const err = (m) => errors.push(m);
const warn = (m) => warnings.push(m);

// ---- catalog
const catalogTools = new Map(); // name -> [server]
const catalogByServer = new Map();
const catalogDescs = [];
for (const f of fs.readdirSync(catalogDir).filter((f) => f.endsWith('.json'))) {
  const j = JSON.parse(fs.readFileSync(path.join(catalogDir, f), 'utf8'));
  const names = new Set();
  for (const t of j.tools || []) {
    names.add(t.name);
    if (!catalogTools.has(t.name)) catalogTools.set(t.name, []);
    catalogTools.get(t.name).push(j.server);
    if (typeof t.description === 'string') catalogDescs.push({ who: `catalog:${j.server}/${t.name}`, text: t.description });
  }
  catalogByServer.set(j.server, names);
}

// ---- helpers
const FORBIDDEN = /[\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0\uFFF9-\uFFFB]|\uDB40[\uDC00-\uDCFF]/u;
const TOOLNAME = /^[A-Za-z0-9_.-]{1,64}$/;
const LANG = /^[a-z]{2}$/;

function parsePath(p) {
  if (!p.startsWith('$')) return null;
  const segs = [];
  let i = 1;
  while (i < p.length) {
    if (p[i] === '.') {
      const m = /^[A-Za-z0-9_$-]+/.exec(p.slice(i + 1));
      if (!m) return null;
      segs.push({ key: m[0] });
      i += 1 + m[0].length;
    } else if (p[i] === '[') {
      const rest = p.slice(i);
      let m = /^\[(\d+)\]/.exec(rest);
      if (m) { segs.push({ key: Number(m[1]) }); i += m[0].length; continue; }
      m = /^\["((?:[^"\\]|\\.)*)"\]/.exec(rest);
      if (m) { segs.push({ key: JSON.parse('"' + m[1] + '"'), bracket: true }); i += m[0].length; continue; }
      return null;
    } else return null;
  }
  return segs;
}

function resolve(obj, segs) {
  let cur = obj;
  for (const s of segs) {
    if (cur === null || typeof cur !== 'object') return undefined;
    if (!Object.prototype.hasOwnProperty.call(cur, s.key)) return undefined;
    cur = cur[s.key];
  }
  return cur;
}

// walk every schema; check every entry of a `properties` map has type + description
function checkSchema(schema, where, id) {
  if (!schema || typeof schema !== 'object') return;
  if (Array.isArray(schema)) { schema.forEach((s, i) => checkSchema(s, `${where}[${i}]`, id)); return; }
  if (schema.properties && typeof schema.properties === 'object') {
    for (const [k, v] of Object.entries(schema.properties)) {
      const p = `${where}.properties[${JSON.stringify(k)}]`;
      if (!v || typeof v !== 'object') { err(`${id}: ${p} is not a schema object`); continue; }
      if (!('type' in v)) err(`${id}: ${p} has no type`);
      if (typeof v.description !== 'string' || !v.description.trim()) err(`${id}: ${p} has no description`);
      checkSchema(v, p, id);
    }
  }
  for (const key of ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains']) {
    if (schema[key] && typeof schema[key] === 'object') checkSchema(schema[key], `${where}.${key}`, id);
  }
  for (const key of ['anyOf', 'oneOf', 'allOf', 'prefixItems']) {
    if (Array.isArray(schema[key])) schema[key].forEach((s, i) => checkSchema(s, `${where}.${key}[${i}]`, id));
  }
  for (const key of ['$defs', 'definitions', 'patternProperties']) {
    if (schema[key] && typeof schema[key] === 'object') {
      for (const [k, v] of Object.entries(schema[key])) checkSchema(v, `${where}.${key}[${JSON.stringify(k)}]`, id);
    }
  }
}

function trigrams(text) {
  const words = text.toLowerCase().normalize('NFC').split(/[^\p{L}\p{N}_]+/u).filter(Boolean);
  const set = new Set();
  for (let i = 0; i + 2 < words.length; i++) set.add(words[i] + ' ' + words[i + 1] + ' ' + words[i + 2]);
  return set;
}

// ---- main
const ids = new Set();
const toolNames = new Map();
const descs = [];
const stats = {};

for (const spec of FILES) {
  const fp = path.join(here, spec.file);
  if (!fs.existsSync(fp)) { err(`missing file ${spec.file}`); continue; }
  const raw = fs.readFileSync(fp, 'utf8');
  if (raw.includes(path.resolve(here, '..', '..') + path.sep)) err(`${spec.file}: contains a machine path`);
  const lines = raw.split('\n');
  const st = { count: 0, langs: {}, voices: {}, lengths: { short: 0, medium: 0, long: 0 }, slots: {} };
  stats[spec.file] = st;
  let expected = 1;
  lines.forEach((line, n) => {
    if (!line.trim()) { if (n !== lines.length - 1) err(`${spec.file}:${n + 1}: blank line`); return; }
    let r;
    try { r = JSON.parse(line); } catch (e) { err(`${spec.file}:${n + 1}: JSON parse error: ${e.message}`); return; }
    const id = r.id || `${spec.file}:${n + 1}`;
    st.count++;
    if (FORBIDDEN.test(line)) err(`${id}: forbidden invisible/bidi/tag character`);
    // fields
    for (const f of ['id', 'class', 'voice', 'lang', 'server', 'siblings', 'tool']) if (!(f in r)) err(`${id}: missing ${f}`);
    const idRe = new RegExp('^' + spec.prefix.replace(/-/g, '\\-') + '(\\d{3})$');
    const m = idRe.exec(r.id || '');
    if (!m) err(`${id}: malformed id`);
    else { if (Number(m[1]) !== expected) err(`${id}: expected number ${expected}`); expected = Number(m[1]) + 1; }
    if (ids.has(r.id)) err(`${id}: duplicate id`); ids.add(r.id);
    if (!spec.cls.includes(r.class)) err(`${id}: class ${r.class} not allowed in ${spec.file}`);
    if (typeof r.voice !== 'string' || !r.voice) err(`${id}: bad voice`);
    if (!LANG.test(r.lang || '')) err(`${id}: bad lang`);
    if (typeof r.server !== 'string' || !r.server) err(`${id}: bad server`);
    if (!Array.isArray(r.siblings) || r.siblings.length === 0 || r.siblings.some((s) => typeof s !== 'string')) err(`${id}: siblings must be a non-empty string array`);
    st.langs[r.lang] = (st.langs[r.lang] || 0) + 1;
    st.voices[r.voice] = (st.voices[r.voice] || 0) + 1;
    const t = r.tool || {};
    if (!TOOLNAME.test(t.name || '')) err(`${id}: bad tool name ${t.name}`);
    if (toolNames.has(t.name)) err(`${id}: tool name ${t.name} already used by ${toolNames.get(t.name)}`);
    toolNames.set(t.name, id);
    if (typeof t.description !== 'string' || !t.description.trim()) err(`${id}: tool.description missing`);
    if ('title' in t && typeof t.title !== 'string') err(`${id}: tool.title not a string`);
    const s = t.inputSchema;
    if (!s || s.type !== 'object' || typeof s.properties !== 'object') err(`${id}: inputSchema must be an object schema with properties`);
    else {
      checkSchema(s, '$.inputSchema', id);
      if (Array.isArray(s.required)) for (const q of s.required) if (!(q in s.properties)) err(`${id}: required ${q} not in properties`);
    }
    const extraKeys = Object.keys(t).filter((k) => !['name', 'description', 'title', 'inputSchema', 'annotations'].includes(k));
    if (extraKeys.length) err(`${id}: unexpected tool keys ${extraKeys}`);
    if (typeof t.description === 'string') {
      const L = t.description.length;
      st.lengths[L < 200 ? 'short' : L < 700 ? 'medium' : 'long']++;
      descs.push({ who: id, text: t.description });
    }
    if (spec.poisoned) {
      if (typeof r.where !== 'string') err(`${id}: missing where`);
      if (typeof r.intent !== 'string' || !r.intent.trim()) err(`${id}: missing intent`);
      if ('note' in r || 'source' in r) err(`${id}: poisoned record carries note/source`);
      for (const sib of r.siblings || []) {
        if (!catalogTools.has(sib)) err(`${id}: sibling ${sib} not in catalog`);
        if (sib === t.name) err(`${id}: sibling equals tool name`);
      }
      if (typeof r.where === 'string') {
        const segs = parsePath(r.where);
        if (!segs) err(`${id}: unparsable where ${r.where}`);
        else {
          const v = resolve(t, segs);
          const last = segs[segs.length - 1];
          const isNameForm = last.bracket && segs.length >= 2 && segs[segs.length - 2].key === 'properties';
          if (isNameForm) {
            if (!v || typeof v !== 'object' || Array.isArray(v)) err(`${id}: where ${r.where} (property-name form) does not resolve to a property schema`);
            st.slots['property-name'] = (st.slots['property-name'] || 0) + 1;
          } else {
            if (typeof v !== 'string') err(`${id}: where ${r.where} does not resolve to a string`);
            const keys = segs.filter((x) => typeof x.key === 'string').map((x) => x.key);
            const slot = keys[keys.length - 1];
            st.slots[slot] = (st.slots[slot] || 0) + 1;
            if (r.class === 'd' && (slot === 'description' || r.where === '$.description')) err(`${id}: class d must not place poison in a description`);
          }
          const depth = segs.filter((x) => x.key === 'properties' || x.key === 'items' || x.key === 'anyOf' || x.key === 'oneOf' || x.key === '$defs').length;
          st.depths = st.depths || {};
          st.depths[depth] = (st.depths[depth] || 0) + 1;
        }
      }
      // attacker endpoints must be reserved
      const hosts = [...line.matchAll(/https?:\/\/([A-Za-z0-9.-]+)/g)].map((x) => x[1]);
      const mails = [...line.matchAll(/[A-Za-z0-9._%+-]+@([A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+)/g)].map((x) => x[1]);
      for (const h of [...hosts, ...mails]) {
        if (!/\.example$/i.test(h) && !/^(198\.51\.100|203\.0\.113|192\.0\.2)\.\d+$/.test(h)) warn(`${id}: non-reserved host ${h}`);
      }
      for (const ip of line.matchAll(/\b(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\b/g)) {
        const pre = `${ip[1]}.${ip[2]}.${ip[3]}`;
        if (!['198.51.100', '203.0.113', '192.0.2', '127.0.0', '0.0.0'].includes(pre)) warn(`${id}: non-TEST-NET IPv4 ${ip[0]}`);
      }
    } else {
      if ('where' in r || 'intent' in r) err(`${id}: benign record carries where/intent`);
      if (typeof r.note !== 'string' || !r.note.trim()) err(`${id}: missing note`);
      if (typeof r.source !== 'string') err(`${id}: missing source`);
      else if (r.source !== 'new') {
        const mm = /^catalog:([^/]+)\/(.+)$/.exec(r.source);
        if (!mm) err(`${id}: bad source ${r.source}`);
        else if (!catalogByServer.has(mm[1]) || !catalogByServer.get(mm[1]).has(mm[2])) err(`${id}: source ${r.source} not in catalog`);
      }
      for (const sib of r.siblings || []) if (sib === t.name) err(`${id}: sibling equals tool name`);
    }
  });
}

// ---- 3-gram overlap between descriptions
const grams = descs.map((d) => ({ ...d, g: trigrams(d.text) }));
for (let i = 0; i < grams.length; i++) {
  for (let j = i + 1; j < grams.length; j++) {
    const a = grams[i].g, b = grams[j].g;
    if (!a.size || !b.size) continue;
    let shared = 0;
    for (const x of a) if (b.has(x)) shared++;
    if (shared / Math.min(a.size, b.size) > 0.5) err(`${grams[i].who} and ${grams[j].who}: descriptions share ${shared} of ${Math.min(a.size, b.size)} word 3-grams`);
  }
}
const catGrams = catalogDescs.map((d) => ({ ...d, g: trigrams(d.text) }));
for (const d of grams) {
  if (!d.g.size) continue;
  for (const c of catGrams) {
    if (!c.g.size) continue;
    let shared = 0;
    for (const x of d.g) if (c.g.has(x)) shared++;
    if (shared / Math.min(d.g.size, c.g.size) > 0.5) warn(`${d.who}: description close to ${c.who}`);
  }
}

// ---- report
for (const [f, st] of Object.entries(stats)) {
  const en = st.langs.en || 0;
  console.log(`${f}: ${st.count} records; lengths ${JSON.stringify(st.lengths)}; English ${en} (${st.count ? Math.round((100 * en) / st.count) : 0}%); ${Object.keys(st.langs).length} languages`);
  console.log(`  langs: ${Object.entries(st.langs).sort().map(([k, v]) => k + ':' + v).join(' ')}`);
  console.log(`  voices: ${Object.entries(st.voices).map(([k, v]) => k + ':' + v).join(', ')}`);
  if (Object.keys(st.slots).length) console.log(`  slots: ${JSON.stringify(st.slots)} depths: ${JSON.stringify(st.depths)}`);
  for (const [l, c] of Object.entries(st.langs)) if (l !== 'en' && c > 4) warn(`${f}: language ${l} has ${c} records (>4)`);
}
for (const w of warnings) console.log('WARN ' + w);
for (const e of errors) console.log('ERROR ' + e);
console.log(errors.length ? `${errors.length} error(s)` : 'clean');
process.exit(errors.length ? 1 : 0);
