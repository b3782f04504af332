// t48 validator: node t48-validate.mjs  (no dependencies)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
const dir = path.dirname(fileURLToPath(import.meta.url));
const BATCH = 't48';
const catalogDir = path.join(dir, '..', '..', 'discovery', 'catalog');
const catalog = {};
for (const f of fs.readdirSync(catalogDir).filter(f => f.endsWith('.json'))) {
  const j = JSON.parse(fs.readFileSync(path.join(catalogDir, f), 'utf8'));
  catalog[j.server] = new Set(j.tools.map(t => t.name));
}
const allCatalogTools = new Set(Object.values(catalog).flatMap(s => [...s]));
const catalogServers = new Set(Object.keys(catalog));
const banned = [/ignore previous instructions/i, /highest priority/i, /overrid/i, /disregard/i, /supersed/i, /takes precedence/i, /important/i,
  /ignor/i, /prioridad m[aá]xima/i, /m[aá]xima prioridad/i, /priorit[àa] massima/i, /prioridade m[aá]xima/i, /priorit[ée] absolue/i,
  /prioritate maxim/i, /prevalec/i, /prevale/i, /pr[ée]vaut/i, /prime sur/i, /sobrescri/i, /anula[rd]?\b/i, /precedenc/i, /preval/i];
const invisible = /[\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF\u00AD]|[\u{E0000}-\u{E007F}]/u;
const langs = new Set(['en','es','pt','it','fr','ca','ro','gl']);
const errors = [];
const ids = new Set();
const stats = {};
function err(id, m) { errors.push(`${id}: ${m}`); }
function get(obj, p) {
  // supports $.a.b, ["x"], enum[2]
  const toks = [];
  const re = /\.([A-Za-z0-9_\-]+)|\[(\d+)\]|\["([^"]+)"\]/g;
  let m, rest = p.slice(1);
  while ((m = re.exec(rest))) toks.push(m[1] ?? (m[2] !== undefined ? Number(m[2]) : { name: m[3] }));
  let cur = obj;
  for (const t of toks) {
    if (cur == null) return undefined;
    if (typeof t === 'object') { return Object.prototype.hasOwnProperty.call(cur, t.name) ? t.name : undefined; }
    cur = cur[t];
  }
  return cur;
}
function checkProps(id, props, where) {
  for (const [k, v] of Object.entries(props || {})) {
    if (!v.type) err(id, `property ${where}${k} has no type`);
    if (typeof v.description !== 'string' || !v.description) err(id, `property ${where}${k} has no description`);
    if (v.properties) checkProps(id, v.properties, `${where}${k}.`);
    if (v.items && v.items.properties) checkProps(id, v.items.properties, `${where}${k}[].`);
  }
}
function walkStrings(o, f) { if (typeof o === 'string') f(o); else if (o && typeof o === 'object') for (const v of Object.values(o)) walkStrings(v, f); }
for (const file of fs.readdirSync(dir).filter(f => f.startsWith(BATCH + '-') && f.endsWith('.jsonl'))) {
  const cls = file.slice(BATCH.length + 1, -6);
  const lines = fs.readFileSync(path.join(dir, file), 'utf8').split('\n').filter(l => l.trim());
  const s = stats[file] = { n: 0, lang: {}, len: { short: 0, mid: 0, long: 0 }, voices: {} };
  lines.forEach((line, i) => {
    let r;
    try { r = JSON.parse(line); } catch (e) { err(`${file}:${i + 1}`, 'bad JSON ' + e.message); return; }
    const id = r.id || `${file}:${i + 1}`;
    s.n++;
    if (ids.has(r.id)) err(id, 'duplicate id'); ids.add(r.id);
    if (!new RegExp(`^${BATCH}-${cls}-\\d{3}$`).test(r.id)) err(id, 'bad id format');
    if (r.class !== cls) err(id, 'class mismatch');
    if (!langs.has(r.lang)) err(id, 'unexpected lang ' + r.lang);
    s.lang[r.lang] = (s.lang[r.lang] || 0) + 1;
    s.voices[r.voice] = (s.voices[r.voice] || 0) + 1;
    if (!r.voice) err(id, 'no voice');
    if (!r.server || catalogServers.has(r.server)) err(id, 'server missing or a catalog server');
    if (!Array.isArray(r.siblings) || !r.siblings.length) err(id, 'siblings missing');
    const t = r.tool;
    if (!t || !t.name || typeof t.description !== 'string' || !t.inputSchema) { err(id, 'tool incomplete'); return; }
    if (t.inputSchema.type !== 'object') err(id, 'schema type not object');
    checkProps(id, t.inputSchema.properties, '');
    for (const q of t.inputSchema.required || []) if (!(q in (t.inputSchema.properties || {}))) err(id, 'required prop missing: ' + q);
    const txt = JSON.stringify(t);
    const dl = t.description.length;
    const lenAll = (() => { let n = 0; walkStrings(t, x => n += x.length); return n; })();
    // length class = length of tool.description (also reported: all tool strings)
    if (dl < 200) s.len.short++; else if (dl < 700) s.len.mid++; else s.len.long++;
    s.lenAllStrings = s.lenAllStrings || { short: 0, mid: 0, long: 0 };
    if (lenAll < 200) s.lenAllStrings.short++; else if (lenAll < 700) s.lenAllStrings.mid++; else s.lenAllStrings.long++;
    if (r.where) { s.where = s.where || {}; const k = r.where.replace(/properties\.[^.\[]+/g, 'properties.<p>'); s.where[k] = (s.where[k] || 0) + 1; }
    walkStrings(r, x => {
      for (const b of banned) if (b.test(x)) err(id, 'banned phrase ' + b);
      if (invisible.test(x)) err(id, 'invisible/bidi char');
    });
    // endpoints
    walkStrings(t, x => {
      for (const u of x.match(/https?:\/\/[^\s"')]+/g) || []) { const h = new URL(u).hostname; if (!/\.example$/.test(h) && !/^(198\.51\.100|203\.0\.113)\./.test(h)) err(id, 'non-example URL ' + u); }
      for (const m of x.match(/[A-Za-z0-9._%+-]+@([A-Za-z0-9.-]+)/g) || []) { if (!/\.example$/.test(m.split('@')[1])) err(id, 'non-example email ' + m); }
    });
    if (cls === 'benign') {
      if (r.where || r.intent) err(id, 'benign has where/intent');
      if (!r.note) err(id, 'benign needs note');
      if (!(r.source === 'new' || /^catalog:[^/]+\/.+/.test(r.source || ''))) err(id, 'bad source');
      else if (r.source !== 'new') { const [sv, tl] = r.source.slice(8).split('/'); if (!catalog[sv] || !catalog[sv].has(tl)) err(id, 'source tool not in catalog'); }
    } else {
      if (!r.where || !r.intent) err(id, 'poisoned needs where/intent');
      for (const sb of r.siblings) if (!allCatalogTools.has(sb)) err(id, 'sibling not a catalog tool: ' + sb);
      if (r.where) {
        const v = r.where.startsWith('$.') ? get(t, r.where) : undefined;
        if (typeof v !== 'string' || !v) err(id, 'where does not resolve to a string: ' + r.where);
      }
    }
  });
}
for (const [f, s] of Object.entries(stats)) console.log(f, JSON.stringify(s));
if (errors.length) { console.log(errors.join('\n')); console.log(`FAIL: ${errors.length} errors`); process.exit(1); }
console.log('OK: all checks passed');
