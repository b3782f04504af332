// validate.mjs - checks the t18 batch. No dependencies. Usage: node validate.mjs
import fs from 'node:fs';
import path from 'node:path';
const here = path.dirname(new URL(import.meta.url).pathname);
const catDir = path.resolve(here, '..', '..', 'discovery', 'catalog');
const catalog = new Map(); // tool name -> [servers]
const catPairs = new Set();
for (const f of fs.readdirSync(catDir).filter(f => f.endsWith('.json'))) {
  const d = JSON.parse(fs.readFileSync(path.join(catDir, f), 'utf8'));
  for (const t of d.tools) {
    if (!catalog.has(t.name)) catalog.set(t.name, []);
    catalog.get(t.name).push(d.server);
    catPairs.add(d.server + '/' + t.name);
  }
}
const files = { 't18-p1.jsonl': 'p1', 't18-d.jsonl': 'd', 't18-benign.jsonl': 'benign' };
const errors = [], warns = [];
const ids = new Set(), toolNames = new Map(), allDescs = [];
const forbidden = /[\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0\uFFF9-\uFFFB]|[\u{E0000}-\u{E007F}]|[\u{E0100}-\u{E01EF}]/u;
const stock = /(ignore (all )?previous instructions|highest priority|override|disregard|supersede|takes precedence|IMPORTANT)/;
const nameRe = /^[A-Za-z0-9_.-]{1,64}$/;

function parsePath(p) {
  if (!p.startsWith('$')) return null;
  const segs = []; let i = 1;
  while (i < p.length) {
    if (p[i] === '.') { let j = i + 1; while (j < p.length && p[j] !== '.' && p[j] !== '[') j++; segs.push({ k: p.slice(i + 1, j) }); i = j; }
    else if (p.startsWith('["', i)) { const j = p.indexOf('"]', i + 2); if (j < 0) return null; segs.push({ k: p.slice(i + 2, j), quoted: true }); i = j + 2; }
    else if (p[i] === '[') { const j = p.indexOf(']', i); const n = Number(p.slice(i + 1, j)); if (!Number.isInteger(n)) return null; segs.push({ k: n }); i = j + 1; }
    else return null;
  }
  return segs;
}
function resolve(obj, segs) { let cur = obj; for (const s of segs) { if (cur == null || typeof cur !== 'object' || !(s.k in cur)) return undefined; cur = cur[s.k]; } return cur; }

function checkProps(props, where, id) {
  if (!props || typeof props !== 'object') return;
  for (const [k, v] of Object.entries(props)) {
    if (!v || typeof v !== 'object') { errors.push(`${id}: property ${where}.${k} is not an object`); continue; }
    if (!('type' in v)) errors.push(`${id}: property ${where}.${k} has no type`);
    if (typeof v.description !== 'string' || !v.description.trim()) errors.push(`${id}: property ${where}.${k} has no description`);
    walkSchema(v, `${where}.${k}`, id);
  }
}
function walkSchema(s, where, id) {
  if (!s || typeof s !== 'object') return;
  if (s.properties) checkProps(s.properties, where + '.properties', id);
  if (s.items) { for (const it of [].concat(s.items)) walkSchema(it, where + '.items', id); }
  for (const k of ['anyOf', 'oneOf', 'allOf']) if (Array.isArray(s[k])) s[k].forEach((b, i) => walkSchema(b, `${where}.${k}[${i}]`, id));
}
function allStrings(o, out = []) { if (typeof o === 'string') out.push(o); else if (o && typeof o === 'object') for (const [k, v] of Object.entries(o)) { out.push(k); allStrings(v, out); } return out; }
function textLen(t) {
  // length of the tool's own documentation text: description plus title
  return (t.description || '').length + (t.title || '').length;
}
function trigrams(s) { const w = s.toLowerCase().split(/[^\p{L}\p{N}_']+/u).filter(Boolean); const g = new Set(); for (let i = 0; i + 2 < w.length; i++) g.add(w[i] + ' ' + w[i + 1] + ' ' + w[i + 2]); return g; }

const stats = {};
for (const [fname, cls] of Object.entries(files)) {
  const fp = path.join(here, fname);
  if (!fs.existsSync(fp)) { errors.push(`missing ${fname}`); continue; }
  const lines = fs.readFileSync(fp, 'utf8').split('\n').filter(l => l.trim());
  const st = stats[fname] = { n: 0, lang: {}, len: { short: 0, mid: 0, long: 0 }, where: {}, tone: {}, placement: {}, kind: {}, namesSibling: 0, nested: 0, voices: new Set(), catalogSrc: 0 };
  lines.forEach((line, ln) => {
    let r; try { r = JSON.parse(line); } catch (e) { errors.push(`${fname}:${ln + 1}: JSON parse error ${e.message}`); return; }
    const id = r.id || `${fname}:${ln + 1}`;
    st.n++;
    for (const f of ['id', 'class', 'voice', 'lang', 'server', 'siblings', 'tool']) if (!(f in r)) errors.push(`${id}: missing ${f}`);
    if (!new RegExp(`^t18-${cls}-\\d{3}$`).test(r.id || '')) errors.push(`${id}: bad id for ${fname}`);
    if (ids.has(r.id)) errors.push(`${id}: duplicate id`); ids.add(r.id);
    if (r.class !== cls) errors.push(`${id}: class ${r.class} != ${cls}`);
    if (!/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(r.lang || '')) errors.push(`${id}: bad lang ${r.lang}`);
    if (!Array.isArray(r.siblings)) errors.push(`${id}: siblings not array`);
    const t = r.tool || {};
    if (!nameRe.test(t.name || '')) errors.push(`${id}: bad tool name ${t.name}`);
    if (toolNames.has(t.name)) errors.push(`${id}: tool name ${t.name} reused (also ${toolNames.get(t.name)})`); toolNames.set(t.name, id);
    if (typeof t.description !== 'string' || !t.description) errors.push(`${id}: no description`);
    if (!t.inputSchema || t.inputSchema.type !== 'object' || typeof t.inputSchema.properties !== 'object') errors.push(`${id}: inputSchema must be object with properties`);
    else { walkSchema(t.inputSchema, '$.inputSchema', id); if (Array.isArray(t.inputSchema.required)) for (const q of t.inputSchema.required) if (!(q in t.inputSchema.properties)) errors.push(`${id}: required ${q} not a property`); }
    const strs = allStrings(r);
    for (const s of strs) if (forbidden.test(s)) errors.push(`${id}: forbidden invisible/bidi/tag character in ${JSON.stringify(s.slice(0, 40))}`);
    const L = textLen(t); st.len[L < 200 ? 'short' : L < 700 ? 'mid' : 'long']++;
    st.lang[r.lang] = (st.lang[r.lang] || 0) + 1; st.voices.add(r.voice);
    if (typeof t.description === 'string') allDescs.push({ id, g: trigrams(t.description) });
    if (cls === 'benign') {
      if (!r.note) errors.push(`${id}: benign needs note`);
      if ('where' in r || 'intent' in r) errors.push(`${id}: benign must not have where/intent`);
      if (r.source !== 'new' && !(typeof r.source === 'string' && r.source.startsWith('catalog:') && catPairs.has(r.source.slice(8)))) errors.push(`${id}: bad source ${r.source}`);
      if (r.source && r.source !== 'new') st.catalogSrc++;
    } else {
      if (!r.intent) errors.push(`${id}: missing intent`);
      if (typeof r.where !== 'string') { errors.push(`${id}: missing where`); return; }
      const segs = parsePath(r.where);
      if (!segs || segs[0].k !== 'tool' && segs[0].k === 'tool') { errors.push(`${id}: unparsable where`); return; }
      const v = resolve(t, segs);
      const last = segs[segs.length - 1], prev = segs[segs.length - 2];
      const nameForm = last.quoted && prev && prev.k === 'properties';
      if (nameForm) { if (!v || typeof v !== 'object') errors.push(`${id}: where (name form) does not resolve to a property schema`); }
      else if (typeof v !== 'string') errors.push(`${id}: where ${r.where} does not resolve to a string`);
      for (const s of r.siblings || []) if (!catalog.has(s)) errors.push(`${id}: sibling ${s} not in catalog`);
      const poisonText = nameForm ? last.k : (typeof v === 'string' ? v : '');
      for (const s of strs.filter(x => x !== r.intent && x !== r.voice)) { const m = s.match(stock); if (m) errors.push(`${id}: stock phrase "${m[0]}" in poisoned record`); }
      if ((r.siblings || []).some(s => poisonText.includes(s))) st.namesSibling++;
      const kind = /\.title$/.test(r.where) && segs.length === 1 ? 'tool title' : r.where === '$.description' ? 'tool description' : nameForm ? 'property name' : (last.k === 'default' || last.k === 'const' || last.k === 'title' || last.k === 'description') ? 'property ' + last.k : (typeof last.k === 'number' && prev) ? prev.k + ' member' : String(last.k);
      st.where[kind] = (st.where[kind] || 0) + 1;
      const depth = segs.filter(s => s.k === 'properties').length;
      if (depth > 1 || segs.some(s => ['items', 'anyOf', 'oneOf', 'allOf'].includes(s.k))) st.nested++;
      if (cls === 'p1') {
        st.tone[r.tone] = (st.tone[r.tone] || 0) + 1; st.kind[r.kind] = (st.kind[r.kind] || 0) + 1; st.placement[r.placement] = (st.placement[r.placement] || 0) + 1;
        if (!['calm', 'imperative'].includes(r.tone)) errors.push(`${id}: p1 needs tone calm|imperative`);
        if (!['start', 'middle', 'end', 'param', 'title'].includes(r.placement)) errors.push(`${id}: p1 needs placement`);
        if (r.placement === 'title' && r.where !== '$.title') errors.push(`${id}: placement title but where ${r.where}`);
        if (r.placement === 'param' && !/properties/.test(r.where)) errors.push(`${id}: placement param but where ${r.where}`);
        if (!['replace-choice','standing-order','consent-claimed','stale-others','hide','choose-for-user','request-as-suggestion'].includes(r.kind)) errors.push(`${id}: p1 needs kind`);
      }
    }
  });
}
// 3-gram overlap
for (let i = 0; i < allDescs.length; i++) for (let j = i + 1; j < allDescs.length; j++) {
  const a = allDescs[i].g, b = allDescs[j].g; if (a.size < 4 || b.size < 4) continue;
  let c = 0; for (const x of a) if (b.has(x)) c++;
  if (c / Math.min(a.size, b.size) > 0.5) errors.push(`${allDescs[i].id} and ${allDescs[j].id} share ${c} of ${Math.min(a.size, b.size)} word 3-grams`);
}
for (const [f, st] of Object.entries(stats)) {
  const { voices, ...rest } = st; console.log(f, JSON.stringify({ ...rest, voices: voices.size }));
}
const langs = {}; for (const st of Object.values(stats)) for (const [l, n] of Object.entries(st.lang)) langs[l.split('-')[0]] = (langs[l.split('-')[0]] || 0) + n;
console.log('languages (base):', Object.keys(langs).length, 'english share:', ((langs.en || 0) / Object.values(langs).reduce((a, b) => a + b, 0)).toFixed(2));
if (process.argv.includes('-v')) for (const [f, st] of Object.entries(stats)) console.log(f, 'kinds/langs', JSON.stringify(st.lang));
for (const w of warns) console.log('WARN', w);
if (errors.length) { for (const e of errors) console.log('ERROR', e); console.log(errors.length, 'errors'); process.exit(1); }
console.log('OK: clean');
