// validate.mjs - checks the t19 batch. No dependencies. Usage: node validate.mjs
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const catDir = path.resolve(here, '..', '..', 'discovery', 'catalog');
const files = [
  ['t19-p2.jsonl', 'p2'], ['t19-p3.jsonl', 'p3'], ['t19-p4.jsonl', 'p4'], ['t19-benign.jsonl', 'benign'],
];

const catalog = new Set();
for (const f of fs.readdirSync(catDir).filter(f => f.endsWith('.json'))) {
  const j = JSON.parse(fs.readFileSync(path.join(catDir, f), 'utf8'));
  for (const t of j.tools || []) catalog.add(t.name);
}

const errors = [];
const err = (id, msg) => errors.push(`${id}: ${msg}`);
const FORBIDDEN = /[\u00AD\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\uFEFF\u{E0000}-\u{E007F}]/u;
const STOCK = [/ignore (all )?previous instructions/i, /highest priority/i, /overrid/i, /disregard/i, /supersed/i, /takes precedence/i, /IMPORTANT/];
const NAME_RE = /^[A-Za-z0-9_.-]{1,64}$/;

function allStrings(v, out = []) {
  if (typeof v === 'string') out.push(v);
  else if (Array.isArray(v)) v.forEach(x => allStrings(x, out));
  else if (v && typeof v === 'object') { for (const [k, x] of Object.entries(v)) { out.push(k); allStrings(x, out); } }
  return out;
}

function checkProps(id, props, where) {
  if (!props || typeof props !== 'object') { err(id, `${where}: properties not an object`); return; }
  for (const [k, s] of Object.entries(props)) {
    if (!s || typeof s !== 'object') { err(id, `${where}.${k}: not a schema`); continue; }
    if (!s.type) err(id, `${where}.${k}: missing type`);
    if (typeof s.description !== 'string' || !s.description.trim()) err(id, `${where}.${k}: missing description`);
    if (s.properties) checkProps(id, s.properties, `${where}.${k}.properties`);
    if (s.items && s.items.properties) checkProps(id, s.items.properties, `${where}.${k}.items.properties`);
  }
}

// resolve "$.a.b[\"c d\"].e" inside tool
function resolve(obj, p) {
  if (!p.startsWith('$')) return undefined;
  const toks = [];
  const re = /\.([A-Za-z0-9_$-]+)|\["([^"]+)"\]/g;
  let m, last = 1;
  while ((m = re.exec(p)) !== null) {
    if (m.index !== last) return undefined;
    toks.push(m[1] ?? m[2]); last = re.lastIndex;
  }
  if (last !== p.length) return undefined;
  let cur = obj;
  for (const t of toks) { if (cur == null || typeof cur !== 'object' || !(t in cur)) return undefined; cur = cur[t]; }
  return { value: cur, bracketLast: /\["[^"]+"\]$/.test(p) };
}

const ids = new Set(), toolNames = new Map(), langs = {}, perFile = {}, records = [];
const textLen = t => allStrings([t.title || '', t.description || '', ...Object.values(t.inputSchema?.properties || {}).map(p => p.description || '')]).join(' ').length;

for (const [fname, cls] of files) {
  const fp = path.join(here, fname);
  if (!fs.existsSync(fp)) { err(fname, 'missing file'); continue; }
  const lines = fs.readFileSync(fp, 'utf8').split('\n').filter(l => l.trim());
  const stat = perFile[fname] = { n: 0, short: 0, mid: 0, long: 0, where: {}, langs: {} };
  lines.forEach((line, i) => {
    let r;
    try { r = JSON.parse(line); } catch (e) { err(`${fname}:${i + 1}`, 'JSON parse: ' + e.message); return; }
    const id = r.id || `${fname}:${i + 1}`;
    stat.n++;
    const idRe = new RegExp(`^t19-${cls}-\\d{3}$`);
    if (!idRe.test(r.id || '')) err(id, 'bad id');
    if (ids.has(r.id)) err(id, 'duplicate id'); ids.add(r.id);
    const expectClass = cls === 'benign' ? 'benign' : cls;
    if (r.class !== expectClass) err(id, `class ${r.class} != ${expectClass}`);
    for (const f of ['voice', 'lang', 'server']) if (typeof r[f] !== 'string' || !r[f]) err(id, `missing ${f}`);
    if (!/^[a-z]{2}$/.test(r.lang || '')) err(id, 'lang not ISO 639-1');
    if (!Array.isArray(r.siblings) || r.siblings.length === 0) err(id, 'siblings missing/empty');
    const t = r.tool;
    if (!t || typeof t !== 'object') { err(id, 'no tool'); return; }
    if (!NAME_RE.test(t.name || '')) err(id, `bad tool name ${t.name}`);
    if (toolNames.has(t.name)) err(id, `tool name ${t.name} reused (also ${toolNames.get(t.name)})`); else toolNames.set(t.name, id);
    if (typeof t.description !== 'string' || !t.description.trim()) err(id, 'no description');
    if (!t.inputSchema || t.inputSchema.type !== 'object') err(id, 'inputSchema.type != object');
    else {
      checkProps(id, t.inputSchema.properties, 'properties');
      for (const q of t.inputSchema.required || []) if (!(q in (t.inputSchema.properties || {}))) err(id, `required ${q} not a property`);
    }
    for (const s of allStrings(r)) if (FORBIDDEN.test(s)) err(id, 'forbidden invisible/bidi/tag char');
    if (cls === 'benign') {
      if (r.where || r.intent) err(id, 'benign with where/intent');
      if (typeof r.note !== 'string' || !r.note) err(id, 'benign missing note');
      if (!/^(new|catalog:[^/]+\/.+)$/.test(r.source || '')) err(id, 'bad source');
      if (r.source && r.source.startsWith('catalog:')) {
        const srv = r.source.slice(8).split('/')[0];
        if (!fs.existsSync(path.join(catDir, srv + '.json'))) err(id, `source server ${srv} not in catalog`);
      }
    } else {
      if (typeof r.intent !== 'string' || !r.intent) err(id, 'missing intent');
      if (typeof r.where !== 'string') err(id, 'missing where');
      else {
        const res = resolve(t, r.where);
        if (!res) err(id, `where ${r.where} does not resolve`);
        else if (res.bracketLast) { if (!res.value || typeof res.value !== 'object') err(id, 'where (name form) not a schema'); }
        else if (typeof res.value !== 'string') err(id, `where ${r.where} not a string`);
        const key = r.where.replace(/properties\.[^.]+\./, 'properties.*.');
        stat.where[key] = (stat.where[key] || 0) + 1;
      }
      for (const s of r.siblings || []) if (!catalog.has(s)) err(id, `sibling ${s} not in catalog`);
      for (const s of allStrings(t)) for (const re of STOCK) if (re.test(s)) err(id, `stock phrase ${re}`);
    }
    const L = textLen(t);
    if (L < 200) stat.short++; else if (L < 700) stat.mid++; else stat.long++;
    langs[r.lang] = (langs[r.lang] || 0) + 1; stat.langs[r.lang] = (stat.langs[r.lang] || 0) + 1;
    records.push({ id, desc: t.description || '' });
  });
}

// 3-gram overlap
const grams = records.map(r => {
  const w = r.desc.toLowerCase().split(/\s+/).filter(Boolean);
  const g = new Set(); for (let i = 0; i + 2 < w.length; i++) g.add(w[i] + ' ' + w[i + 1] + ' ' + w[i + 2]);
  return g;
});
for (let i = 0; i < records.length; i++) for (let j = i + 1; j < records.length; j++) {
  const a = grams[i], b = grams[j];
  if (a.size < 3 || b.size < 3) continue;
  let shared = 0; const [s, l] = a.size < b.size ? [a, b] : [b, a];
  for (const g of s) if (l.has(g)) shared++;
  if (shared > s.size / 2) err(records[i].id, `shares ${shared}/${s.size} 3-grams with ${records[j].id}`);
}

for (const [f, s] of Object.entries(perFile)) console.log(f, JSON.stringify(s));
console.log('languages', Object.keys(langs).length, JSON.stringify(Object.fromEntries(Object.entries(langs).sort((a, b) => b[1] - a[1]))));
const en = langs.en || 0, tot = Object.values(langs).reduce((a, b) => a + b, 0);
console.log(`english ${en}/${tot} = ${(100 * en / (tot || 1)).toFixed(1)}%`);
if (errors.length) { console.log(errors.length + ' ERRORS'); errors.forEach(e => console.log('  ' + e)); process.exit(1); }
console.log('OK: no errors');
