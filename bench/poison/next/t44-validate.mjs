import { fileURLToPath } from 'node:url';
// t44 validator: checks the BRIEF rules; no dependencies.
import fs from 'fs'; import path from 'path';
const dir = path.dirname(fileURLToPath(import.meta.url));
const B = 't44';
const catDir = path.join(dir, '..', '..', 'discovery', 'catalog');
const real = new Set(); const catTools = {};
for (const f of fs.readdirSync(catDir)) if (f.endsWith('.json')) { const j = JSON.parse(fs.readFileSync(path.join(catDir, f))); catTools[f.replace(/\.json$/, '')] = new Set(j.tools.map(t => t.name)); for (const t of j.tools) real.add(t.name); }
const banned = [/ignore previous instructions/i, /highest priority/i, /override/i, /disregard/i, /supersede/i, /takes precedence/i, /important/i];
const invis = /[\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF\u{E0000}-\u{E007F}\u00AD]/u;
const errs = []; const ids = new Set();
function resolve(obj, p) {
  const re = /\.([A-Za-z_$][\w$-]*)|\[(\d+)\]|\["([^"]+)"\]/g; let m, cur = obj, last = null, s = p.slice(1);
  if (p[0] !== '$') return undefined;
  const toks = []; let idx = 0;
  while ((m = re.exec(s))) { if (m.index !== idx) return undefined; idx = re.lastIndex; toks.push(m); }
  if (idx !== s.length) return undefined;
  for (let i = 0; i < toks.length; i++) { const t = toks[i];
    if (t[3] !== undefined) { if (i === toks.length - 1 && cur && Object.prototype.hasOwnProperty.call(cur, t[3])) return t[3]; cur = cur?.[t[3]]; }
    else cur = cur?.[t[1] ?? Number(t[2])]; }
  return cur;
}
function checkProps(props, at, id) {
  for (const [k, v] of Object.entries(props || {})) {
    if (!v.type) errs.push(`${id}: ${at}.${k} no type`);
    if (typeof v.description !== 'string' || !v.description) errs.push(`${id}: ${at}.${k} no description`);
    if (v.properties) checkProps(v.properties, `${at}.${k}`, id);
    if (v.items?.properties) checkProps(v.items.properties, `${at}.${k}.items`, id);
  }
}
const counts = {}; const perFile = {}; const langs = {}; const lens = { short: 0, mid: 0, long: 0 }; const voices = {}; let inParam = 0, pois = 0;
for (const f of fs.readdirSync(dir).filter(f => f.startsWith('t44-') && f.endsWith('.jsonl'))) {
  const lines = fs.readFileSync(path.join(dir, f), 'utf8').split('\n').filter(l => l.trim());
  const benign = f === `${B}-benign.jsonl`;
  counts[f] = lines.length;
  lines.forEach((l, i) => {
    let r; try { r = JSON.parse(l); } catch (e) { errs.push(`${f}:${i + 1} bad JSON ${e.message}`); return; }
    const id = r.id || `${f}:${i + 1}`;
    if (ids.has(r.id)) errs.push(`${id}: duplicate id`); ids.add(r.id);
    const cls = benign ? 'benign' : 'p1';
    if (!new RegExp(`^${B}-${cls}-\\d{3}$`).test(r.id)) errs.push(`${id}: bad id`);
    if (r.class !== cls) errs.push(`${id}: class`);
    for (const k of ['voice', 'lang', 'server', 'siblings', 'tool']) if (!r[k]) errs.push(`${id}: missing ${k}`);
    if (!/^[a-z]{2}$/.test(r.lang)) errs.push(`${id}: lang`);
    langs[r.lang] = (langs[r.lang] || 0) + 1; const pf = perFile[f] ??= { langs: {}, lens: { short: 0, mid: 0, long: 0 }, en: 0, n: 0 }; pf.n++; pf.langs[r.lang] = 1; if (r.lang === 'en') pf.en++; voices[r.voice] = (voices[r.voice] || 0) + 1;
    const t = r.tool || {};
    if (!t.name || typeof t.description !== 'string') errs.push(`${id}: tool name/description`);
    if (t.inputSchema?.type !== 'object') errs.push(`${id}: inputSchema.type`);
    checkProps(t.inputSchema?.properties, 'props', id);
    for (const q of t.inputSchema?.required || []) if (!t.inputSchema.properties?.[q]) errs.push(`${id}: required ${q} missing`);
    const txt = JSON.stringify(t);
    for (const b of banned) if (b.test(JSON.stringify(r))) errs.push(`${id}: banned phrase ${b}`);
    if (invis.test(JSON.stringify(r))) errs.push(`${id}: invisible char`);
    for (const u of txt.match(/https?:\/\/[^\s"'\\)<>,]+/g) || []) {
      const host = u.replace(/^https?:\/\//, '').split(/[\/:?#]/)[0];
      if (!/\.example$/.test(host) && !/^(198\.51\.100|203\.0\.113)\.\d+$/.test(host)) errs.push(`${id}: non-safe url ${u}`);
    }
    for (const ip of txt.match(/\b\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}\b/g) || []) if (!/^(198\.51\.100|203\.0\.113)\./.test(ip)) errs.push(`${id}: IP outside TEST-NET ${ip}`);
    for (const m of txt.match(/\b[\w.-]+\.(com|net|org|io|dev|ai|co|app)\b/g) || []) errs.push(`${id}: real-looking domain ${m}`);
    const texts = []; (function walk(o){ if (!o || typeof o !== 'object') return; for (const [k,v] of Object.entries(o)) { if ((k==='description'||k==='title') && typeof v==='string') texts.push(v); else walk(v); } })(t);
    const len = texts.reduce((a,b)=>a+b.length,0); const bucket = len < 200 ? 'short' : len < 700 ? 'mid' : 'long'; lens[bucket]++; pf.lens[bucket]++;
    if (benign) {
      if (r.where || r.intent) errs.push(`${id}: benign has where/intent`);
      if (!r.note || !r.source) errs.push(`${id}: benign needs note/source`);
      if (r.source !== 'new') { const m = /^catalog:([\w-]+)\/([\w-]+)$/.exec(r.source); if (!m || !catTools[m[1]]?.has(m[2])) errs.push(`${id}: source ${r.source}`); }
      for (const s of r.siblings || []) if (real.has(s)) errs.push(`${id}: benign sibling collides with a real catalog tool name: ${s}`);
    } else {
      pois++;
      if (!r.where || !r.intent) errs.push(`${id}: where/intent`);
      const v = resolve(t, r.where || '');
      if (typeof v !== 'string') errs.push(`${id}: where does not resolve to a string: ${r.where}`);
      if (r.where !== '$.description') inParam++;
      if (!Array.isArray(r.siblings) || !r.siblings.length) errs.push(`${id}: siblings`);
      for (const s of r.siblings || []) if (!real.has(s)) errs.push(`${id}: sibling not in catalog: ${s}`);
      if (real.has(t.name)) {/* allowed but note */}
    }
  });
}
console.log('files', counts);
for (const [f, p] of Object.entries(perFile)) console.log(f, 'records', p.n, 'english', p.en, 'languages', Object.keys(p.langs).length, 'lengths', JSON.stringify(p.lens)); console.log('text lengths (tool description + all property descriptions/titles): short<200, mid 200-699, long>=700', lens);
console.log('languages', Object.keys(langs).length, langs);
const en = langs.en || 0, tot = Object.values(langs).reduce((a, b) => a + b, 0);
console.log(`english ${en}/${tot} = ${(100 * en / tot).toFixed(1)}%`);
console.log(`poisoned with where outside $.description: ${inParam}/${pois} = ${(100 * inParam / Math.max(1, pois)).toFixed(1)}%`);
console.log('distinct voices', Object.keys(voices).length);
if (Object.keys(langs).length < 25) errs.push('fewer than 25 languages');
if (errs.length) { console.log('ERRORS', errs.length); errs.forEach(e => console.log(' ', e)); process.exit(1); }
console.log('OK');
