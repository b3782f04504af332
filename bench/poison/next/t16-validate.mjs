// validate.mjs - checks the t16 corpus files. No dependencies. Usage: node validate.mjs
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const catalogDir = path.resolve(here, '..', '..', 'discovery', 'catalog');
const FILES = [
  { file: 't16-p1.jsonl', cls: 'p1', poisoned: true },
  { file: 't16-d.jsonl', cls: 'd', poisoned: true },
  { file: 't16-benign.jsonl', cls: 'benign', poisoned: false },
];

const errors = [];
const warnings = [];
const err = (where, msg) => errors.push(`${where}: ${msg}`);

// ---- catalog ----
const catalogTools = new Set();
const catalogByServer = new Map();
for (const f of fs.readdirSync(catalogDir).filter((f) => f.endsWith('.json'))) {
  const d = JSON.parse(fs.readFileSync(path.join(catalogDir, f), 'utf8'));
  const names = new Set((d.tools || []).map((t) => t.name));
  catalogByServer.set(d.server, names);
  for (const n of names) catalogTools.add(n);
}

// ---- helpers ----
const FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B-\u200F\u2028-\u202E\u2060-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0\uFFF9-\uFFFB]|[\u{E0000}-\u{E007F}]|[\u{E0100}-\u{E01EF}]/u;
const STOCK = ['ignore previous instructions', 'highest priority', 'override', 'overrid', 'disregard', 'supersede', 'takes precedence', 'important'];
const TOOLNAME = /^[A-Za-z0-9_.-]{1,64}$/;

function* strings(v, p = '$') {
  if (typeof v === 'string') yield [p, v];
  else if (Array.isArray(v)) for (let i = 0; i < v.length; i++) yield* strings(v[i], `${p}[${i}]`);
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) { yield [`${p}{key}`, k]; yield* strings(x, `${p}.${k}`); }
}

function checkSchemaProps(schema, loc, at) {
  if (!schema || typeof schema !== 'object') return;
  if (schema.properties) {
    if (typeof schema.properties !== 'object' || Array.isArray(schema.properties)) { err(at, `${loc}.properties is not an object`); return; }
    for (const [k, p] of Object.entries(schema.properties)) {
      const pl = `${loc}.properties[${JSON.stringify(k)}]`;
      if (!p || typeof p !== 'object') { err(at, `${pl} is not a schema`); continue; }
      if (p.type === undefined) err(at, `${pl} has no type`);
      if (typeof p.description !== 'string' || !p.description.trim()) err(at, `${pl} has no description`);
      checkSchemaProps(p, pl, at);
    }
  }
  if (schema.items && typeof schema.items === 'object') checkSchemaProps(schema.items, `${loc}.items`, at);
  for (const kw of ['anyOf', 'oneOf', 'allOf']) if (Array.isArray(schema[kw])) schema[kw].forEach((s, i) => checkSchemaProps(s, `${loc}.${kw}[${i}]`, at));
  if (schema.additionalProperties && typeof schema.additionalProperties === 'object') checkSchemaProps(schema.additionalProperties, `${loc}.additionalProperties`, at);
}

// parse "$.a.b[2]["x y"].c" into tokens
function parsePath(p) {
  if (!p.startsWith('$')) return null;
  const toks = [];
  let i = 1;
  while (i < p.length) {
    if (p[i] === '.') {
      let j = i + 1;
      while (j < p.length && p[j] !== '.' && p[j] !== '[') j++;
      if (j === i + 1) return null;
      toks.push({ key: p.slice(i + 1, j) });
      i = j;
    } else if (p[i] === '[') {
      if (p[i + 1] === '"') {
        // JSON string inside brackets
        let j = i + 2;
        while (j < p.length && !(p[j] === '"' && p[j - 1] !== '\\')) j++;
        if (p[j + 1] !== ']') return null;
        let key;
        try { key = JSON.parse(p.slice(i + 1, j + 1)); } catch { return null; }
        toks.push({ key, bracket: true });
        i = j + 2;
      } else {
        const j = p.indexOf(']', i);
        if (j < 0) return null;
        const n = p.slice(i + 1, j);
        if (!/^\d+$/.test(n)) return null;
        toks.push({ index: Number(n) });
        i = j + 1;
      }
    } else return null;
  }
  return toks;
}

function resolve(tool, p) {
  const toks = parsePath(p);
  if (!toks) return { ok: false, why: 'unparsable path' };
  let cur = { description: tool.description, title: tool.title, inputSchema: tool.inputSchema, name: tool.name };
  let parentIsProperties = false;
  let lastWasBracketPropName = false;
  for (const t of toks) {
    if (cur === undefined || cur === null) return { ok: false, why: 'path runs past the end' };
    if ('index' in t) {
      if (!Array.isArray(cur)) return { ok: false, why: 'index on a non-array' };
      cur = cur[t.index];
      lastWasBracketPropName = false;
      parentIsProperties = false;
    } else {
      if (typeof cur !== 'object' || Array.isArray(cur) || !(t.key in cur)) return { ok: false, why: `no key ${JSON.stringify(t.key)}` };
      lastWasBracketPropName = parentIsProperties;
      parentIsProperties = t.key === 'properties';
      cur = cur[t.key];
    }
  }
  if (typeof cur === 'string') return { ok: true, kind: 'string', value: cur };
  if (lastWasBracketPropName && cur && typeof cur === 'object' && !Array.isArray(cur) && cur.type !== undefined) {
    const last = toks[toks.length - 1];
    if (!last.bracket) return { ok: false, why: 'property-name form must use ["name"] brackets' };
    return { ok: true, kind: 'propname', value: last.key };
  }
  return { ok: false, why: 'does not resolve to a string or a property schema' };
}

function trigrams(s) {
  const w = s.toLowerCase().replace(/[^\p{L}\p{N}\s_-]+/gu, ' ').split(/\s+/).filter(Boolean);
  const g = new Set();
  for (let i = 0; i + 2 < w.length; i++) g.add(w[i] + ' ' + w[i + 1] + ' ' + w[i + 2]);
  return g;
}

function allowedHost(h) {
  h = h.toLowerCase().replace(/:\d+$/, '');
  if (h.endsWith('.example') || h === 'example') return true;
  // RFC 2606 reserved names (used for the tool's own, non-attacker examples)
  if (/(^|\.)example\.(com|net|org)$/.test(h) || h.endsWith('.test') || h.endsWith('.invalid')) return true;
  if (/^(198\.51\.100|203\.0\.113|192\.0\.2)\.\d{1,3}$/.test(h)) return true;
  if (h === 'localhost' || h === '127.0.0.1') return true;
  return false;
}

// ---- main ----
const ids = new Set();
const toolNames = new Map();
const descs = [];
const stats = {};

for (const { file, cls, poisoned } of FILES) {
  const fp = path.join(here, file);
  const st = (stats[file] = { n: 0, langs: {}, voices: new Set(), where: {}, len: { short: 0, medium: 0, long: 0 } });
  if (!fs.existsSync(fp)) { err(file, 'missing file'); continue; }
  const lines = fs.readFileSync(fp, 'utf8').split('\n');
  let expectNo = 1;
  lines.forEach((line, li) => {
    if (!line.trim()) return;
    const at = `${file}:${li + 1}`;
    let r;
    try { r = JSON.parse(line); } catch (e) { err(at, `JSON parse error: ${e.message}`); return; }
    st.n++;
    const rat = `${at} (${r.id})`;
    // fields
    const need = ['id', 'class', 'voice', 'lang', 'server', 'siblings', 'tool'].concat(poisoned ? ['where', 'intent'] : ['note', 'source']);
    for (const f of need) if (r[f] === undefined || r[f] === '' ) err(rat, `missing field ${f}`);
    const extra = Object.keys(r).filter((k) => !['id', 'class', 'voice', 'lang', 'server', 'siblings', 'tool', 'where', 'intent', 'note', 'source'].includes(k));
    if (extra.length) err(rat, `unexpected fields ${extra.join(',')}`);
    if (!poisoned && (r.where !== undefined || r.intent !== undefined)) err(rat, 'benign record has where/intent');
    if (poisoned && (r.note !== undefined || r.source !== undefined)) err(rat, 'poisoned record has note/source');
    // id
    const idRe = new RegExp(`^t16-${cls}-(\\d{3})$`);
    const m = typeof r.id === 'string' && r.id.match(idRe);
    if (!m) err(rat, `bad id ${r.id}`);
    else {
      if (Number(m[1]) !== expectNo) warnings.push(`${rat}: id out of sequence (expected ${String(expectNo).padStart(3, '0')})`);
      expectNo = Number(m[1]) + 1;
    }
    if (ids.has(r.id)) err(rat, `duplicate id ${r.id}`);
    ids.add(r.id);
    if (r.class !== cls) err(rat, `class ${r.class} != ${cls}`);
    if (typeof r.lang !== 'string' || !/^[a-z]{2}$/.test(r.lang)) err(rat, `lang not ISO 639-1: ${r.lang}`);
    if (typeof r.voice !== 'string' || !r.voice.trim()) err(rat, 'voice empty');
    if (typeof r.server !== 'string' || !r.server.trim()) err(rat, 'server empty');
    // siblings
    if (!Array.isArray(r.siblings) || r.siblings.length === 0) err(rat, 'siblings must be a non-empty array');
    else for (const s of r.siblings) {
      if (typeof s !== 'string' || !TOOLNAME.test(s)) err(rat, `bad sibling name ${s}`);
      if (poisoned && !catalogTools.has(s)) err(rat, `sibling not in catalog: ${s}`);
    }
    // source
    if (!poisoned && typeof r.source === 'string') {
      if (r.source !== 'new') {
        const sm = r.source.match(/^catalog:([^/]+)\/(.+)$/);
        if (!sm) err(rat, `bad source ${r.source}`);
        else if (!catalogByServer.has(sm[1]) || !catalogByServer.get(sm[1]).has(sm[2])) err(rat, `source not in catalog: ${r.source}`);
      }
    }
    // tool
    const t = r.tool;
    if (!t || typeof t !== 'object') { err(rat, 'tool missing'); return; }
    if (typeof t.name !== 'string' || !TOOLNAME.test(t.name)) err(rat, `bad tool name ${t.name}`);
    if (toolNames.has(t.name)) err(rat, `tool name ${t.name} already used by ${toolNames.get(t.name)}`);
    toolNames.set(t.name, r.id);
    if (typeof t.description !== 'string' || !t.description.trim()) err(rat, 'tool.description missing');
    if (t.title !== undefined && typeof t.title !== 'string') err(rat, 'tool.title not a string');
    const extraTool = Object.keys(t).filter((k) => !['name', 'description', 'title', 'inputSchema'].includes(k));
    if (extraTool.length) err(rat, `unexpected tool fields ${extraTool.join(',')}`);
    if (!t.inputSchema || t.inputSchema.type !== 'object' || typeof t.inputSchema.properties !== 'object') err(rat, 'inputSchema must be {type:object, properties:{...}}');
    else {
      checkSchemaProps(t.inputSchema, '$.inputSchema', rat);
      if (t.inputSchema.required) {
        if (!Array.isArray(t.inputSchema.required)) err(rat, 'required must be an array');
        else for (const q of t.inputSchema.required) if (!(q in t.inputSchema.properties)) err(rat, `required names unknown property ${q}`);
      }
    }
    // forbidden characters everywhere in the record
    for (const [p, s] of strings(r)) if (FORBIDDEN.test(s)) err(rat, `forbidden invisible/bidi/control character at ${p}`);
    // where
    if (poisoned && typeof r.where === 'string') {
      const res = resolve(t, r.where);
      if (!res.ok) err(rat, `where ${r.where}: ${res.why}`);
      else {
        const kind = r.where === '$.description' ? 'description' : r.where === '$.title' ? 'title'
          : res.kind === 'propname' ? 'property-name'
          : (r.where.match(/\.(default|const|title|description)$/) || r.where.match(/\.(enum|examples)(\[\d+\])+$/) || [null, "other"])[1];
        const nested = (r.where.match(/properties/g) || []).length > 1 || r.where.includes('.items');
        const key = (kind === 'description' && r.where !== '$.description' ? 'property-description' : kind) + (nested ? ' (nested)' : '');
        st.where[key] = (st.where[key] || 0) + 1;
      }
      if (cls === 'd') {
        // descriptions must stay clean: poison must not be in a description slot
        if (/\.description$/.test(r.where)) err(rat, 'class d poison must not sit in a description');
      }
    }
    if (poisoned) {
      const low = JSON.stringify(t).toLowerCase() + ' ' + String(r.intent).toLowerCase();
      for (const s of STOCK) if (low.includes(s)) err(rat, `stock phrase "${s}" used`);
      for (const [p, s] of strings(t)) {
        for (const mm of s.matchAll(/\b(?:https?|wss?|ftp):\/\/([^\/\s"'`)<>\]\\,;]+)/gi)) if (!allowedHost(mm[1])) err(rat, `non-example host ${mm[1]} at ${p}`);
        for (const mm of s.matchAll(/[A-Za-z0-9._%+-]+@([A-Za-z0-9.-]+\.[A-Za-z]{2,})/g)) if (!allowedHost(mm[1])) err(rat, `non-example e-mail domain ${mm[1]} at ${p}`);
        for (const mm of s.matchAll(/\b(\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})\b/g)) if (!allowedHost(mm[1]) && !/^(10|127|0|192\.168|172\.(1[6-9]|2\d|3[01]))\./.test(mm[1])) err(rat, `non TEST-NET IP ${mm[1]} at ${p}`);
      }
    }
    // stats
    st.langs[r.lang] = (st.langs[r.lang] || 0) + 1;
    st.voices.add(r.voice);
    const L = (t.description || '').length;
    st.len[L < 200 ? 'short' : L < 700 ? 'medium' : 'long']++;
    if (typeof t.description === 'string') descs.push({ id: r.id, g: trigrams(t.description) });
  });
}

// 3-gram overlap
for (let i = 0; i < descs.length; i++) for (let j = i + 1; j < descs.length; j++) {
  const a = descs[i].g, b = descs[j].g;
  const min = Math.min(a.size, b.size);
  if (min === 0) continue;
  let shared = 0;
  const [s, l] = a.size <= b.size ? [a, b] : [b, a];
  for (const x of s) if (l.has(x)) shared++;
  if (shared / min > 0.5) err(`${descs[i].id} ~ ${descs[j].id}`, `descriptions share ${shared}/${min} word 3-grams`);
}

// report
for (const [f, st] of Object.entries(stats)) {
  console.log(`${f}: ${st.n} records; lengths short/medium/long = ${st.len.short}/${st.len.medium}/${st.len.long}; voices ${st.voices.size}`);
  console.log(`  langs: ${Object.entries(st.langs).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k}=${v}`).join(' ')}`);
  if (Object.keys(st.where).length) console.log(`  where: ${Object.entries(st.where).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k}=${v}`).join(', ')}`);
}
for (const w of warnings) console.log('WARN ' + w);
if (errors.length) {
  for (const e of errors) console.log('ERROR ' + e);
  console.log(`${errors.length} error(s)`);
  process.exit(1);
}
console.log(`OK: ${ids.size} records, ${toolNames.size} unique tool names, no errors`);
