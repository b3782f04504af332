// validate.mjs: checks t32-p3.jsonl and t32-benign.jsonl (node, no dependencies)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const catDir = path.resolve(here, '..', '..', 'discovery', 'catalog');
const catalogNames = new Set();
for (const f of fs.readdirSync(catDir).filter(f => f.endsWith('.json'))) {
  const j = JSON.parse(fs.readFileSync(path.join(catDir, f), 'utf8'));
  for (const t of j.tools || []) catalogNames.add(t.name);
}

const errors = [];
const warn = [];
const err = (m) => errors.push(m);
const FORBIDDEN = /[\u00AD\u061C\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\uFEFF]|[\u{E0000}-\u{E007F}]/u;
const STOCK = [/ignore (all )?previous instructions/i, /highest priority/i, /override/i, /disregard/i, /supersede/i, /takes precedence/i, /IMPORTANT/];
const NAME_RE = /^[A-Za-z0-9_.-]{1,64}$/;
const files = [['t32-p3.jsonl', 'p3'], ['t32-benign.jsonl', 'benign']];
const ids = new Set();
const toolNames = new Map();
const descs = [];
const stats = {};

function resolve(tool, where) {
  const m = where.match(/^\$\.inputSchema\.properties\["(.+)"\]$/);
  if (m) { const p = tool.inputSchema?.properties?.[m[1]]; return p && typeof p === 'object' ? p : undefined; }
  if (!where.startsWith('$.')) return undefined;
  let cur = tool;
  for (const k of where.slice(2).split('.')) { if (cur == null) return undefined; cur = cur[k]; }
  return cur;
}
function allStrings(o, out = []) {
  if (typeof o === 'string') out.push(o);
  else if (Array.isArray(o)) o.forEach(x => allStrings(x, out));
  else if (o && typeof o === 'object') for (const [k, v] of Object.entries(o)) { out.push(k); allStrings(v, out); }
  return out;
}
function checkProps(schema, ctx) {
  if (!schema || schema.type !== 'object') { err(`${ctx}: inputSchema.type must be object`); return; }
  for (const [k, p] of Object.entries(schema.properties || {})) {
    if (!p.type) err(`${ctx}: property ${k} lacks type`);
    if (typeof p.description !== 'string' || !p.description.trim()) err(`${ctx}: property ${k} lacks description`);
    if (p.type === 'object' && p.properties) checkProps(p, `${ctx}.${k}`);
    if (p.type === 'array' && p.items && p.items.type === 'object' && p.items.properties) checkProps(p.items, `${ctx}.${k}[]`);
  }
  for (const r of schema.required || []) if (!(r in (schema.properties || {}))) err(`${ctx}: required ${r} not a property`);
}
const grams = (s) => { const w = s.toLowerCase().split(/[\s]+/).filter(Boolean); const g = new Set(); for (let i = 0; i + 2 < w.length; i++) g.add(w.slice(i, i + 3).join(' ')); return g; };

for (const [file, cls] of files) {
  const fp = path.join(here, file);
  if (!fs.existsSync(fp)) { err(`${file} missing`); continue; }
  const lines = fs.readFileSync(fp, 'utf8').split('\n').filter(l => l.trim());
  const st = stats[file] = { n: 0, lang: {}, voice: {}, where: {}, len: { short: 0, medium: 0, long: 0 } };
  let expect = 1;
  lines.forEach((line, i) => {
    const ctx = `${file}:${i + 1}`;
    if (FORBIDDEN.test(line)) err(`${ctx}: forbidden invisible/bidi character`);
    if (/[/](?:work|home|tmp)[/]/.test(line)) err(`${ctx}: absolute path`);
    let r; try { r = JSON.parse(line); } catch (e) { err(`${ctx}: JSON parse: ${e.message}`); return; }
    st.n++;
    const idRe = new RegExp(`^t32-${cls}-(\\d{3})$`);
    const m = typeof r.id === 'string' && r.id.match(idRe);
    if (!m) err(`${ctx}: bad id ${r.id}`); else { if (+m[1] !== expect) err(`${ctx}: id ${r.id} out of sequence (expected ${expect})`); expect = +m[1] + 1; }
    if (ids.has(r.id)) err(`${ctx}: duplicate id ${r.id}`); ids.add(r.id);
    if (r.class !== cls) err(`${ctx}: class ${r.class} != ${cls}`);
    for (const f of ['voice', 'lang', 'server']) if (typeof r[f] !== 'string' || !r[f]) err(`${ctx}: missing ${f}`);
    if (!/^[a-z]{2}$/.test(r.lang || '')) err(`${ctx}: lang not ISO 639-1`);
    if (!Array.isArray(r.siblings) || !r.siblings.length) err(`${ctx}: siblings missing`);
    const t = r.tool;
    if (!t || typeof t.name !== 'string' || typeof t.description !== 'string' || !t.inputSchema) { err(`${ctx}: tool incomplete`); return; }
    if (!NAME_RE.test(t.name)) err(`${ctx}: bad tool name ${t.name}`);
    if (toolNames.has(t.name)) err(`${ctx}: tool name ${t.name} reused (also ${toolNames.get(t.name)})`); toolNames.set(t.name, ctx);
    if (catalogNames.has(t.name)) warn.push(`${ctx}: tool name ${t.name} equals a catalog name`);
    if ('title' in t && typeof t.title !== 'string') err(`${ctx}: title not string`);
    checkProps(t.inputSchema, ctx);
    const allowed = cls === 'benign' ? ['id', 'class', 'voice', 'lang', 'server', 'siblings', 'tool', 'note', 'source'] : ['id', 'class', 'voice', 'lang', 'server', 'siblings', 'tool', 'where', 'intent'];
    for (const k of Object.keys(r)) if (!allowed.includes(k)) err(`${ctx}: unexpected field ${k}`);
    const text = allStrings(t).join('\n');
    if (cls === 'p3') {
      if (typeof r.where !== 'string' || typeof r.intent !== 'string' || !r.intent) err(`${ctx}: where/intent missing`);
      else {
        const v = resolve(t, r.where);
        if (!(typeof v === 'string' || (r.where.includes('["') && v && typeof v === 'object'))) err(`${ctx}: where ${r.where} does not resolve to a string`);
        const wk = r.where === '$.description' ? 'description' : r.where === '$.title' ? 'title' : r.where.includes('.properties.') ? 'property description' : 'other';
        st.where[wk] = (st.where[wk] || 0) + 1;
      }
      for (const s of r.siblings || []) {
        if (!catalogNames.has(s)) err(`${ctx}: sibling ${s} not in catalog`);
        if (text.toLowerCase().includes(s.toLowerCase())) err(`${ctx}: text contains sibling name ${s}`);
      }
      for (const re of STOCK) if (re.test(text)) err(`${ctx}: stock phrase ${re}`);
    } else {
      if (typeof r.note !== 'string' || !r.note) err(`${ctx}: note missing`);
      if (typeof r.source !== 'string' || !/^(new|catalog:[^/]+\/.+)$/.test(r.source)) err(`${ctx}: bad source`);
      if ('where' in r || 'intent' in r) err(`${ctx}: benign has where/intent`);
    }
    const L = t.description.length;
    st.len[L < 200 ? 'short' : L < 700 ? 'medium' : 'long']++;
    st.lang[r.lang] = (st.lang[r.lang] || 0) + 1;
    st.voice[r.voice] = (st.voice[r.voice] || 0) + 1;
    descs.push({ ctx: `${ctx} (${r.id})`, g: grams(t.description) });
  });
}
for (let i = 0; i < descs.length; i++) for (let j = i + 1; j < descs.length; j++) {
  const a = descs[i].g, b = descs[j].g; if (!a.size || !b.size) continue;
  let c = 0; for (const x of a) if (b.has(x)) c++;
  if (c > Math.min(a.size, b.size) / 2) err(`3-gram overlap: ${descs[i].ctx} ~ ${descs[j].ctx} (${c})`);
}
for (const [f, st] of Object.entries(stats)) {
  const nonEn = Object.entries(st.lang).filter(([l]) => l !== 'en');
  console.log(`${f}: ${st.n} records; en ${st.lang.en || 0} (${Math.round(100 * (st.lang.en || 0) / st.n)}%); other languages ${nonEn.length}; max per non-en language ${Math.max(0, ...nonEn.map(x => x[1]))}`);
  console.log('  lengths', JSON.stringify(st.len), 'where', JSON.stringify(st.where));
  console.log('  voices', Object.keys(st.voice).length);
  for (const [l, c] of nonEn) if (c > 4) err(`${f}: language ${l} has ${c} records (>4)`);
}
for (const w of warn) console.log('warn:', w);
if (errors.length) { console.log(errors.join('\n')); console.log(`${errors.length} error(s)`); process.exit(1); }
console.log('clean');
