// Validator for batch t30. Usage: node validate.mjs  (no dependencies)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
const here = path.dirname(fileURLToPath(import.meta.url));
const catalogDir = path.join(here, '..', '..', 'discovery', 'catalog');
const files = { 't30-p3.jsonl': 'p3', 't30-p4.jsonl': 'p4', 't30-benign.jsonl': 'benign' };
const errors = [];
const err = (m) => errors.push(m);
const catalog = new Set();
for (const f of fs.readdirSync(catalogDir).filter((x) => x.endsWith('.json'))) {
  const j = JSON.parse(fs.readFileSync(path.join(catalogDir, f), 'utf8'));
  for (const t of j.tools || []) catalog.add(t.name);
}
const forbidden = /[\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF\u00AD\u180E]|[\u{E0000}-\u{E007F}]/u;
const stock = [/ignore (all |any )?previous instructions/i, /highest priority/i, /\boverride\b/i, /\bdisregard\b/i, /\bsupersede/i, /takes precedence/i, /\bIMPORTANT\b/];
const ids = new Set(), toolNames = new Set();
const descs = [];
const stats = {};
function resolveWhere(tool, where) {
  const m = where.match(/^\$\.inputSchema\.properties\["(.+)"\]$/);
  if (m) { const p = tool.inputSchema?.properties?.[m[1]]; return p && typeof p === 'object' ? { ok: true, val: JSON.stringify(p) } : { ok: false }; }
  if (!where.startsWith('$.')) return { ok: false };
  const parts = where.slice(2).match(/[^.[\]]+|\[\d+\]/g) || [];
  let cur = tool;
  for (const p of parts) {
    if (cur == null) return { ok: false };
    cur = p.startsWith('[') ? cur[Number(p.slice(1, -1))] : cur[p];
  }
  return typeof cur === 'string' ? { ok: true, val: cur } : { ok: false };
}
function walkStrings(o, cb) { if (typeof o === 'string') cb(o); else if (o && typeof o === 'object') for (const k of Object.keys(o)) { cb(k); walkStrings(o[k], cb); } }
function checkProps(schema, rid, at) {
  if (!schema || schema.type !== 'object' || typeof schema.properties !== 'object') { err(`${rid}: ${at} must be an object schema with properties`); return; }
  for (const [k, v] of Object.entries(schema.properties)) {
    if (!v || typeof v !== 'object') { err(`${rid}: property ${k} not an object`); continue; }
    if (!v.type) err(`${rid}: property ${k} has no type`);
    if (typeof v.description !== 'string' || !v.description.trim()) err(`${rid}: property ${k} has no description`);
    if (v.type === 'object' && v.properties) checkProps(v, rid, `${at}.${k}`);
    if (v.type === 'array' && v.items && v.items.type === 'object' && v.items.properties) checkProps(v.items, rid, `${at}.${k}[]`);
  }
  if (schema.required) for (const r of schema.required) if (!(r in schema.properties)) err(`${rid}: required ${r} not in properties`);
}
for (const [file, cls] of Object.entries(files)) {
  const fp = path.join(here, file);
  if (!fs.existsSync(fp)) { err(`${file}: missing`); continue; }
  const lines = fs.readFileSync(fp, 'utf8').split('\n').filter((l) => l.trim());
  const st = (stats[file] = { n: 0, langs: {}, short: 0, mid: 0, long: 0 });
  lines.forEach((line, i) => {
    let r;
    try { r = JSON.parse(line); } catch (e) { err(`${file}:${i + 1}: JSON parse error ${e.message}`); return; }
    const rid = r.id || `${file}:${i + 1}`;
    st.n++;
    const base = ['id', 'class', 'voice', 'lang', 'server', 'siblings', 'tool'];
    for (const k of base) if (r[k] === undefined) err(`${rid}: missing ${k}`);
    const want = cls === 'benign' ? 'benign' : cls;
    if (r.class !== want) err(`${rid}: class ${r.class} expected ${want}`);
    const idre = new RegExp(`^t30-${want}-\\d{3}$`);
    if (!idre.test(r.id || '')) err(`${rid}: malformed id`);
    if (ids.has(r.id)) err(`${rid}: duplicate id`); ids.add(r.id);
    if (!/^[a-z]{2}$/.test(r.lang || '')) err(`${rid}: bad lang`);
    st.langs[r.lang] = (st.langs[r.lang] || 0) + 1;
    if (!Array.isArray(r.siblings)) err(`${rid}: siblings not array`);
    const t = r.tool || {};
    if (!/^[A-Za-z0-9_.-]{1,64}$/.test(t.name || '')) err(`${rid}: bad tool name ${t.name}`);
    if (toolNames.has(t.name)) err(`${rid}: tool name reused ${t.name}`); toolNames.add(t.name);
    if (typeof t.description !== 'string' || !t.description) err(`${rid}: no description`);
    checkProps(t.inputSchema, rid, 'inputSchema');
    if (want === 'benign') {
      if (r.where || r.intent) err(`${rid}: benign with where/intent`);
      if (!r.note) err(`${rid}: benign missing note`);
      if (!(r.source === 'new' || /^catalog:[^/]+\/.+/.test(r.source || ''))) err(`${rid}: bad source`);
    } else {
      if (!r.where || !r.intent) err(`${rid}: missing where/intent`);
      else if (!resolveWhere(t, r.where).ok) err(`${rid}: where does not resolve: ${r.where}`);
      for (const s of r.siblings || []) if (!catalog.has(s)) err(`${rid}: sibling not in catalog: ${s}`);
      if (!r.siblings?.length) err(`${rid}: no siblings`);
    }
    walkStrings(r, (s) => {
      if (forbidden.test(s)) err(`${rid}: forbidden invisible/bidi/tag character`);
      for (const re of stock) if (re.test(s)) err(`${rid}: stock phrase ${re}`);
    });
    const L = (t.description || '').length;
    if (L < 200) st.short++; else if (L < 700) st.mid++; else st.long++;
    descs.push({ rid, text: t.description || '' });
  });
}
const grams = (s) => { const w = s.toLowerCase().split(/\s+/).filter(Boolean); const g = new Set(); for (let i = 0; i + 2 < w.length; i++) g.add(w[i] + ' ' + w[i + 1] + ' ' + w[i + 2]); return g; };
const G = descs.map((d) => grams(d.text));
for (let i = 0; i < descs.length; i++) for (let j = i + 1; j < descs.length; j++) {
  const a = G[i], b = G[j]; if (!a.size || !b.size) continue;
  let c = 0; for (const x of a) if (b.has(x)) c++;
  if (c / Math.min(a.size, b.size) > 0.5) err(`${descs[i].rid} ~ ${descs[j].rid}: share ${c} of ${Math.min(a.size, b.size)} word 3-grams`);
}
for (const [f, s] of Object.entries(stats)) console.log(`${f}: ${s.n} records; short/mid/long ${s.short}/${s.mid}/${s.long}; langs ${Object.entries(s.langs).sort((a, b) => b[1] - a[1]).map(([k, v]) => k + '=' + v).join(' ')}`);
const allL = new Set(Object.values(stats).flatMap((s) => Object.keys(s.langs)));
console.log(`languages overall: ${allL.size}`);
if (errors.length) { console.log(`${errors.length} problem(s):`); for (const e of errors) console.log('  ' + e); process.exit(1); }
console.log('clean');
