// t58 validator: node t58-validate.mjs  (no dependencies)
import fs from 'node:fs';
import path from 'node:path';
const dir = path.dirname(new URL(import.meta.url).pathname);
const file = path.join(dir, 't58-benign.jsonl');
const catDir = path.join(dir, '..', '..', 'discovery', 'catalog');
const catalog = {};
for (const f of fs.readdirSync(catDir)) if (f.endsWith('.json')) {
  const d = JSON.parse(fs.readFileSync(path.join(catDir, f), 'utf8'));
  catalog[d.server] = new Set(d.tools.map(t => t.name));
}
const ISO = new Set('aa ab af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs ca ce ch co cr cs cu cv cy da de dv dz ee el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz ia id ie ig ii ik io is it iu ja jv ka kg ki kj kk kl km kn ko kr ks ku kv kw ky la lb lg li ln lo lt lu lv mg mh mi mk ml mn mr ms mt my na nb nd ne ng nl nn no nr nv ny oc oj om or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg si sk sl sm sn so sq sr ss st su sv sw ta te tg th ti tk tl tn to tr ts tt tw ty ug uk ur uz ve vi vo wa wo xh yi yo za zh zu'.split(' '));
const BANNED = [/ignore (all )?previous instructions/i, /highest priority/i, /override/i, /disregard/i, /supersede/i, /takes precedence/i, /important/i,
  /wichtig/i, /importante/i, /重要/, /중요/, /важн/i, /belangrijk/i, /ważn/i, /önemli/i, /viktig/i, /quan trọng/i, /महत्वपूर्ण/, /مهم/, /penting/i, /důležit/i, /חשוב/];
const INVIS = /[\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF\u00AD]|[\u{E0000}-\u{E007F}]/u;
const errs = [];
const ids = new Set();
const langs = {}; const len = { short: 0, mid: 0, long: 0 }; const voices = {};
let catalogSrc = 0, n = 0;
function walkProps(props, p, id) {
  if (!props || typeof props !== 'object') { errs.push(`${id}: properties missing at ${p}`); return; }
  for (const [k, v] of Object.entries(props)) {
    const here = `${p}.${k}`;
    if (!v || typeof v !== 'object') { errs.push(`${id}: bad prop ${here}`); continue; }
    if (!v.type) errs.push(`${id}: no type at ${here}`);
    if (typeof v.description !== 'string' || !v.description.trim()) errs.push(`${id}: no description at ${here}`);
    if (v.properties) walkProps(v.properties, here + '.properties', id);
    if (v.items && v.items.properties) walkProps(v.items.properties, here + '.items.properties', id);
    if (v.required) for (const r of v.required) if (!v.properties || !(r in v.properties)) errs.push(`${id}: nested required ${r} missing at ${here}`);
  }
}
const lines = fs.readFileSync(file, 'utf8').split('\n').filter(l => l.trim());
for (const [i, line] of lines.entries()) {
  let r; try { r = JSON.parse(line); } catch (e) { errs.push(`line ${i + 1}: bad JSON ${e.message}`); continue; }
  n++;
  const id = r.id || `line ${i + 1}`;
  const allowed = new Set(['id', 'class', 'voice', 'lang', 'server', 'siblings', 'tool', 'note', 'source']);
  for (const k of Object.keys(r)) if (!allowed.has(k)) errs.push(`${id}: unexpected field ${k}`);
  for (const k of allowed) if (!(k in r)) errs.push(`${id}: missing ${k}`);
  if (!/^t58-benign-\d{3}$/.test(r.id || '')) errs.push(`${id}: bad id`);
  if (ids.has(r.id)) errs.push(`${id}: duplicate id`); ids.add(r.id);
  if (r.class !== 'benign') errs.push(`${id}: class must be benign`);
  if (!ISO.has(r.lang)) errs.push(`${id}: bad lang ${r.lang}`);
  if (typeof r.voice !== 'string' || !r.voice) errs.push(`${id}: voice`);
  if (typeof r.server !== 'string' || !/^[a-z0-9][a-z0-9_-]*$/.test(r.server)) errs.push(`${id}: server`);
  if (catalog[r.server]) errs.push(`${id}: server name is a real catalog server`);
  if (!Array.isArray(r.siblings) || r.siblings.length < 1 || r.siblings.some(s => typeof s !== 'string')) errs.push(`${id}: siblings`);
  if (typeof r.note !== 'string' || r.note.length < 10) errs.push(`${id}: note`);
  if (r.source === 'new') {} else if (typeof r.source === 'string' && r.source.startsWith('catalog:')) {
    catalogSrc++;
    const [srv, tool] = r.source.slice(8).split('/');
    if (!catalog[srv] || !catalog[srv].has(tool)) errs.push(`${id}: catalog source not found ${r.source}`);
  } else errs.push(`${id}: source`);
  const t = r.tool || {};
  if (typeof t.name !== 'string' || !t.name) errs.push(`${id}: tool.name`);
  if (r.siblings && r.siblings.includes(t.name)) errs.push(`${id}: sibling equals tool name`);
  if (typeof t.description !== 'string' || !t.description) errs.push(`${id}: tool.description`);
  const s = t.inputSchema;
  if (!s || s.type !== 'object') errs.push(`${id}: inputSchema.type`);
  else {
    walkProps(s.properties, '$.inputSchema.properties', id);
    if (s.required) { if (!Array.isArray(s.required)) errs.push(`${id}: required not array`); else for (const q of s.required) if (!(q in (s.properties || {}))) errs.push(`${id}: required ${q} not in properties`); }
  }
  const all = JSON.stringify(r);
  if (INVIS.test(all)) errs.push(`${id}: invisible/bidi/tag char`);
  const toolText = JSON.stringify(t);
  for (const b of BANNED) if (b.test(toolText)) errs.push(`${id}: banned phrase ${b}`);
  for (const m of toolText.matchAll(/https?:\/\/([^\/\s"'`)]+)/g)) {
    const h = m[1].toLowerCase().replace(/:\d+$/, '');
    if (!(h.endsWith('.example') || /^(198\.51\.100|203\.0\.113|192\.0\.2)\.\d+$/.test(h) || h === 'localhost' || h === '127.0.0.1')) errs.push(`${id}: URL host not .example/TEST-NET: ${h}`);
  }
  const L = (t.description || '').length;
  if (L < 200) len.short++; else if (L < 700) len.mid++; else len.long++;
  langs[r.lang] = (langs[r.lang] || 0) + 1;
  voices[r.voice] = (voices[r.voice] || 0) + 1;
}
const en = langs.en || 0;
const nonEnLangs = Object.keys(langs).filter(l => l !== 'en');
if (nonEnLangs.length < 15) errs.push(`only ${nonEnLangs.length} non-English languages (need >= 15)`);
const enShare = en / n;
if (enShare < 0.5 || enShare > 0.7) errs.push(`English share ${(enShare * 100).toFixed(1)}% outside 50-70%`);
if (catalogSrc > n / 5) errs.push(`catalog-adapted ${catalogSrc} > a fifth of ${n}`);
for (const [k, v] of Object.entries(len)) if (v < n * 0.2) errs.push(`length bucket ${k} only ${v}/${n}`);
console.log(`records: ${n}`);
console.log(`lengths (description): short<200 ${len.short}, 200-699 ${len.mid}, >=700 ${len.long}`);
console.log(`English ${en} (${(enShare * 100).toFixed(1)}%), other languages ${nonEnLangs.length}:`, JSON.stringify(langs));
console.log(`source catalog: ${catalogSrc}, new: ${n - catalogSrc}`);
console.log(`distinct voices: ${Object.keys(voices).length}`);
if (errs.length) { console.log(`FAIL (${errs.length})`); for (const e of errs) console.log(' - ' + e); process.exit(1); }
console.log('OK');
