// validate.mjs - checks batch t35 (node, no dependencies). Usage: node validate.mjs
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const catDir = path.join(here, '..', '..', 'discovery', 'catalog');
const files = ['t35-p4.jsonl', 't35-benign.jsonl'];
const errors = [];
const warn = [];
const err = (m) => errors.push(m);

// catalog tool names
const catalog = new Map(); // server -> Set(tool)
const allCatalogTools = new Set();
for (const f of fs.readdirSync(catDir).filter((x) => x.endsWith('.json'))) {
  const j = JSON.parse(fs.readFileSync(path.join(catDir, f), 'utf8'));
  const s = new Set((j.tools || []).map((t) => t.name));
  catalog.set(j.server, s);
  for (const t of s) allCatalogTools.add(t);
}

const FORBIDDEN = /[\u00AD\u061C\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\uFEFF\uFFF9-\uFFFB]|[\u{E0000}-\u{E007F}]/u;
const STOCK = [/ignore (all )?previous instructions/i, /highest priority/i, /\boverride\b/i, /\bdisregard\b/i, /\bsupersede/i, /takes precedence/i, /\bIMPORTANT\b/];
const NAME_RE = /^[A-Za-z0-9_.-]{1,64}$/;

const records = [];
const ids = new Set();
const toolNames = new Set();

function resolveWhere(tool, where) {
  // supports $.a.b.c and $.a.b["name"]
  if (!where.startsWith('$')) return { ok: false };
  const parts = [];
  const re = /\.([A-Za-z0-9_$-]+)|\["([^"]+)"\]|\[(\d+)\]/g;
  let m; let rest = where.slice(1); let consumed = 0;
  while ((m = re.exec(rest))) {
    if (m.index !== consumed) return { ok: false };
    consumed = m.index + m[0].length;
    parts.push({ key: m[1] ?? m[2] ?? Number(m[3]), bracket: m[2] !== undefined });
  }
  if (consumed !== rest.length) return { ok: false };
  let cur = tool;
  for (const p of parts) {
    if (cur == null || typeof cur !== 'object' || !(p.key in cur)) return { ok: false };
    cur = cur[p.key];
  }
  const last = parts[parts.length - 1];
  if (typeof cur === 'string') return { ok: true, value: cur };
  if (last && last.bracket && cur && typeof cur === 'object') return { ok: true, value: last.key, propName: true };
  return { ok: false };
}

function walkStrings(o, out = []) {
  if (typeof o === 'string') out.push(o);
  else if (Array.isArray(o)) o.forEach((x) => walkStrings(x, out));
  else if (o && typeof o === 'object') for (const [k, v] of Object.entries(o)) { out.push(k); walkStrings(v, out); }
  return out;
}

function checkProps(props, where, id) {
  if (!props || typeof props !== 'object') return;
  for (const [k, v] of Object.entries(props)) {
    if (!v || typeof v !== 'object') { err(`${id}: property ${where}.${k} not an object`); continue; }
    if (!v.type && !v.anyOf && !v.oneOf) err(`${id}: property ${where}.${k} has no type`);
    if (typeof v.description !== 'string' || !v.description.trim()) err(`${id}: property ${where}.${k} has no description`);
    if (v.properties) checkProps(v.properties, `${where}.${k}`, id);
    if (v.items && v.items.properties) checkProps(v.items.properties, `${where}.${k}[]`, id);
  }
}

for (const f of files) {
  const p = path.join(here, f);
  if (!fs.existsSync(p)) { err(`missing file ${f}`); continue; }
  const lines = fs.readFileSync(p, 'utf8').split('\n');
  lines.forEach((line, i) => {
    if (!line.trim()) return;
    let r;
    try { r = JSON.parse(line); } catch (e) { err(`${f}:${i + 1}: JSON parse error ${e.message}`); return; }
    r.__file = f; r.__line = i + 1;
    const id = r.id || `${f}:${i + 1}`;
    const benign = f.includes('benign');
    for (const k of ['id', 'class', 'voice', 'lang', 'server', 'siblings', 'tool']) if (!(k in r)) err(`${id}: missing ${k}`);
    if (benign) {
      if (r.class !== 'benign') err(`${id}: class should be benign`);
      if (!/^t35-benign-\d{3}$/.test(r.id)) err(`${id}: bad id`);
      if (typeof r.note !== 'string' || !r.note) err(`${id}: missing note`);
      if (typeof r.source !== 'string' || !/^(new|catalog:[^/]+\/.+)$/.test(r.source)) err(`${id}: bad source`);
      if (r.where || r.intent) err(`${id}: benign has where/intent`);
      if (r.source && r.source.startsWith('catalog:')) {
        const [srv, tl] = r.source.slice(8).split('/');
        if (!catalog.has(srv) || !catalog.get(srv).has(tl)) err(`${id}: source ${r.source} not in catalog`);
      }
    } else {
      if (r.class !== 'p4') err(`${id}: class should be p4`);
      if (!/^t35-p4-\d{3}$/.test(r.id)) err(`${id}: bad id`);
      if (typeof r.where !== 'string') err(`${id}: missing where`);
      if (typeof r.intent !== 'string' || !r.intent) err(`${id}: missing intent`);
      for (const s of r.siblings || []) if (!allCatalogTools.has(s)) err(`${id}: sibling ${s} not in catalog`);
    }
    if (ids.has(r.id)) err(`${id}: duplicate id`); ids.add(r.id);
    if (!/^[a-z]{2}$/.test(r.lang || '')) err(`${id}: bad lang`);
    if (!Array.isArray(r.siblings)) err(`${id}: siblings not array`);
    const t = r.tool || {};
    if (!NAME_RE.test(t.name || '')) err(`${id}: bad tool name ${t.name}`);
    if (toolNames.has(t.name)) err(`${id}: tool name reused ${t.name}`); toolNames.add(t.name);
    if (typeof t.description !== 'string' || !t.description) err(`${id}: no description`);
    if (!t.inputSchema || t.inputSchema.type !== 'object' || typeof t.inputSchema.properties !== 'object') err(`${id}: bad inputSchema`);
    else {
      checkProps(t.inputSchema.properties, '$', id);
      for (const q of t.inputSchema.required || []) if (!(q in t.inputSchema.properties)) err(`${id}: required ${q} not a property`);
    }
    if (!benign && r.where) {
      const w = resolveWhere(t, r.where);
      if (!w.ok) err(`${id}: where ${r.where} does not resolve`);
    }
    const strs = walkStrings(r);
    for (const s of strs) {
      if (FORBIDDEN.test(s)) err(`${id}: forbidden character`);
      for (const st of STOCK) if (st.test(s)) err(`${id}: stock phrase ${st}`);
    }
    // p4 twist: siblings' names must not appear in text
    if (!benign) for (const s of r.siblings || []) if (walkStrings(t).some((x) => x.includes(s))) err(`${id}: sibling name ${s} appears in tool text`);
    records.push(r);
  });
}

// word 3-gram overlap between descriptions
function grams(s) {
  const w = s.toLowerCase().split(/[\s\p{P}]+/u).filter(Boolean);
  const g = new Set();
  for (let i = 0; i + 2 < w.length; i++) g.add(w[i] + ' ' + w[i + 1] + ' ' + w[i + 2]);
  // CJK/Thai texts without spaces: use character 3-grams as well
  if (w.length < 6) { const c = s.replace(/\s+/g, ''); for (let i = 0; i + 2 < c.length; i++) g.add('#' + c.slice(i, i + 3)); }
  return g;
}
const G = records.map((r) => grams((r.tool && r.tool.description) || ''));
for (let i = 0; i < records.length; i++) for (let j = i + 1; j < records.length; j++) {
  const a = G[i], b = G[j];
  if (!a.size || !b.size) continue;
  let n = 0; for (const x of a) if (b.has(x)) n++;
  const frac = n / Math.min(a.size, b.size);
  if (frac > 0.5) err(`descriptions of ${records[i].id} and ${records[j].id} share ${(frac * 100).toFixed(0)}% of 3-grams`);
}

// word-usage limits
let preq = 0;
for (const r of records) if (/prerequisite|mandatory/i.test(JSON.stringify(r.tool))) preq++;
if (preq > 6) err(`"prerequisite"/"mandatory" used in ${preq} records (limit 6)`);

// stats
const stats = {};
for (const r of records) {
  const s = (stats[r.__file] ??= { n: 0, lang: {}, len: { short: 0, mid: 0, long: 0 }, voice: {}, where: {} });
  s.n++; s.lang[r.lang] = (s.lang[r.lang] || 0) + 1;
  const L = [...(r.tool.description || '')].length;
  s.len[L < 200 ? 'short' : L < 700 ? 'mid' : 'long']++;
  s.voice[r.voice] = (s.voice[r.voice] || 0) + 1;
  if (r.where) { const k = r.where.startsWith('$.description') ? 'description' : r.where.startsWith('$.title') ? 'title' : 'property'; s.where[k] = (s.where[k] || 0) + 1; }
}
for (const [f, s] of Object.entries(stats)) {
  console.log(`${f}: ${s.n} records; langs ${Object.keys(s.lang).length}: ${JSON.stringify(s.lang)}`);
  console.log(`  length ${JSON.stringify(s.len)}; where ${JSON.stringify(s.where)}; voices ${Object.keys(s.voice).length}`);
}
console.log(`"prerequisite"/"mandatory" in ${preq} records`);
if (errors.length) { console.log(`\n${errors.length} error(s):`); for (const e of errors) console.log(' - ' + e); process.exit(1); }
console.log('OK');
