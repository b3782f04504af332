import { fileURLToPath } from 'node:url';
// t47 validator: node t47-validate.mjs  (no dependencies)
import fs from 'fs';
import path from 'path';
const dir = path.dirname(fileURLToPath(import.meta.url));
const B = 't47';
const catDir = path.join(dir, '..', '..', 'discovery', 'catalog');
const realTools = new Set();
for (const f of fs.readdirSync(catDir)) if (f.endsWith('.json')) {
  const d = JSON.parse(fs.readFileSync(path.join(catDir, f), 'utf8'));
  for (const t of d.tools || []) realTools.add(t.name);
}
const ISO = new Set('aa ab af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs ca ce ch co cr cs cu cv cy da de dv dz ee el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz ia id ie ig ii ik io is it iu ja jv ka kg ki kj kk kl km kn ko kr ks ku kv kw ky la lb lg li ln lo lt lu lv mg mh mi mk ml mn mr ms mt my na nb nd ne ng nl nn no nr nv ny oc oj om or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg si sk sl sm sn so sq sr ss st su sv sw ta te tg th ti tk tl tn to tr ts tt tw ty ug uk ur uz ve vi vo wa wo xh yi yo za zh zu'.split(' '));
const banned = [/ignore (all )?previous instructions/i, /highest priority/i, /override/i, /disregard/i, /supersede/i, /takes precedence/i, /important/i,
  /ignoriere/i, /ignorez/i, /ignora las instrucciones/i, /priorité absolue/i, /höchste priorität/i, /máxima prioridad/i, /wichtig/i, /importante/i, /重要/, /важно/i, /ważne/i];
const invisible = /[\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF\u00AD\u180E]|[\u{E0000}-\u{E007F}]/u;
const errors = [];
const err = (id, m) => errors.push(`${id}: ${m}`);
function parsePath(p) {
  if (!p.startsWith('$')) return null;
  const toks = []; let i = 1;
  while (i < p.length) {
    if (p[i] === '.') { const m = /^\.([A-Za-z0-9_$-]+)/.exec(p.slice(i)); if (!m) return null; toks.push({k: m[1], br: false}); i += m[0].length; }
    else if (p[i] === '[') {
      const m = /^\[(\d+)\]/.exec(p.slice(i)); if (m) { toks.push({k: Number(m[1]), br: false}); i += m[0].length; continue; }
      const s = /^\["((?:[^"\\]|\\.)*)"\]/.exec(p.slice(i)); if (!s) return null; toks.push({k: JSON.parse('"' + s[1] + '"'), br: true}); i += s[0].length;
    } else return null;
  }
  return toks;
}
function checkProps(id, props, where) {
  if (!props || typeof props !== 'object') return;
  for (const [k, v] of Object.entries(props)) {
    if (!v || typeof v !== 'object') { err(id, `property ${where}.${k} not an object`); continue; }
    if (!v.type && !v.const && !v.anyOf && !v.oneOf) err(id, `property ${where}.${k} has no type`);
    if (!v.type) err(id, `property ${where}.${k} has no type`);
    if (typeof v.description !== 'string' || !v.description.trim()) err(id, `property ${where}.${k} has no description`);
    walkSchema(id, v, `${where}.${k}`);
  }
}
function walkSchema(id, s, where) {
  if (!s || typeof s !== 'object') return;
  if (s.properties) checkProps(id, s.properties, where + '.properties');
  if (s.items) { if (s.items.properties) checkProps(id, s.items.properties, where + '.items.properties'); for (const b of ['anyOf','oneOf']) if (s.items[b]) s.items[b].forEach((x, i) => walkSchema(id, x, `${where}.items.${b}[${i}]`)); }
  for (const b of ['anyOf', 'oneOf', 'allOf']) if (Array.isArray(s[b])) s[b].forEach((x, i) => walkSchema(id, x, `${where}.${b}[${i}]`));
}
function urls(str) { return [...str.matchAll(/\b(?:https?|wss?|ftp):\/\/([^\/\s"'<>:?#]+)/gi)].map(m => m[1].toLowerCase()); }
function okHost(h) {
  if (/^(198\.51\.100|203\.0\.113|192\.0\.2)\.\d+$/.test(h)) return true;
  if (h === 'localhost' || h === '127.0.0.1') return true;
  return /(^|\.)example(\.com|\.org|\.net)?$/.test(h) || /\.example$/.test(h) || /\.test$/.test(h) || /\.invalid$/.test(h);
}
const files = fs.readdirSync(dir).filter(f => f.startsWith(B + '-') && f.endsWith('.jsonl'));
const ids = new Set(); const stats = {};
let all = [];
for (const f of files) {
  const lines = fs.readFileSync(path.join(dir, f), 'utf8').split('\n').filter(l => l.trim());
  const benign = f.endsWith('-benign.jsonl');
  const st = stats[f] = {n: 0, en: 0, langs: {}, short: 0, mid: 0, long: 0, slots: {}, nested: 0, voices: new Set()};
  lines.forEach((l, i) => {
    let r; try { r = JSON.parse(l); } catch (e) { err(`${f}:${i + 1}`, 'bad JSON ' + e.message); return; }
    const id = r.id || `${f}:${i + 1}`;
    all.push(r);
    st.n++;
    if (ids.has(id)) err(id, 'duplicate id'); ids.add(id);
    const cls = benign ? 'benign' : f.slice(B.length + 1, -6);
    if (!new RegExp(`^${B}-${cls}-\\d{3}$`).test(id)) err(id, 'bad id format');
    if (r.class !== cls) err(id, `class ${r.class} != ${cls}`);
    for (const k of ['voice', 'lang', 'server', 'siblings', 'tool']) if (r[k] === undefined) err(id, 'missing ' + k);
    if (!ISO.has(r.lang)) err(id, 'bad lang ' + r.lang);
    st.langs[r.lang] = (st.langs[r.lang] || 0) + 1; if (r.lang === 'en') st.en++;
    st.voices.add(r.voice);
    if (!Array.isArray(r.siblings) || !r.siblings.length) err(id, 'siblings empty');
    const t = r.tool || {};
    if (typeof t.name !== 'string' || typeof t.description !== 'string') err(id, 'tool name/description');
    if (!t.inputSchema || t.inputSchema.type !== 'object') err(id, 'inputSchema not object');
    checkProps(id, t.inputSchema?.properties, '$.inputSchema.properties');
    if (Array.isArray(t.inputSchema?.required)) for (const q of t.inputSchema.required) if (!t.inputSchema.properties?.[q]) err(id, 'required missing prop ' + q);
    const dl = (t.description || '').length; if (dl < 200) st.short++; else if (dl < 700) st.mid++; else st.long++;
    const s = JSON.stringify(r);
    if (invisible.test(s)) err(id, 'invisible/bidi char');
    const toolStr = JSON.stringify(t) + ' ' + (r.note || '');
    for (const b of banned) if (b.test(toolStr)) err(id, 'banned phrase ' + b);
    for (const h of urls(s)) if (!okHost(h)) err(id, 'non-example host ' + h);
    if (benign) {
      if (r.where || r.intent) err(id, 'benign has where/intent');
      if (!r.note) err(id, 'benign missing note');
      if (!(r.source === 'new' || /^catalog:[^/]+\/.+/.test(r.source || ''))) err(id, 'bad source');
      for (const sb of r.siblings) if (realTools.has(sb)) err(id, 'benign sibling is a real catalog tool: ' + sb);
    } else {
      if (!r.where || !r.intent) err(id, 'missing where/intent');
      for (const sb of r.siblings || []) if (!realTools.has(sb)) err(id, 'sibling not a real catalog tool: ' + sb);
      const toks = parsePath(r.where || '');
      if (!toks) { err(id, 'unparseable where ' + r.where); return; }
      let cur = r.tool; let ok = true;
      for (const tk of toks) { if (cur == null || typeof cur !== 'object' || !(tk.k in cur)) { ok = false; break; } cur = cur[tk.k]; }
      const last = toks[toks.length - 1];
      if (!ok) err(id, 'where does not resolve ' + r.where);
      else if (last.br && toks[toks.length - 2]?.k === 'properties') { /* property name carrier */ }
      else if (typeof cur !== 'string') err(id, 'where not a string ' + r.where);
      if (cls === 'd') {
        let slot = null;
        const strToks = toks.filter(x => typeof x.k === 'string'); const lk = strToks[strToks.length - 1]?.k;
        if (last.br && toks[toks.length - 2]?.k === 'properties') slot = 'propname';
        else if (toks.some(x => x.k === 'default')) slot = 'default';
        else if (last.k === 'const') slot = 'const';
        else if (last.k === 'title' && toks.length > 2) slot = 'title';
        else if (typeof last.k === 'number' && lk === 'enum') slot = 'enum';
        else if (typeof last.k === 'number' && lk === 'examples') slot = 'examples';
        if (!slot) err(id, 'class d where is not a data slot: ' + r.where);
        st.slots[slot] = (st.slots[slot] || 0) + 1;
        const propCount = toks.filter(x => x.k === 'properties').length;
        const nested = propCount > 1 || toks.some(x => x.k === 'items' || x.k === 'anyOf' || x.k === 'oneOf' || x.k === 'allOf');
        if (nested) st.nested++;
      }
    }
  });
}
for (const [f, st] of Object.entries(stats)) {
  console.log(`${f}: ${st.n} records; en ${st.en} (${(100 * st.en / st.n).toFixed(0)}%); languages ${Object.keys(st.langs).length}; voices ${st.voices.size}`);
  console.log(`  lengths (description): short ${st.short}, mid ${st.mid}, long ${st.long}`);
  console.log('  langs', JSON.stringify(st.langs));
  if (Object.keys(st.slots).length) console.log(`  slots ${JSON.stringify(st.slots)}; nested ${st.nested}`);
}
const allLangs = new Set(all.map(r => r.lang));
console.log(`total ${all.length}; languages overall ${allLangs.size}`);
if (allLangs.size < 25) errors.push(`only ${allLangs.size} languages overall (need >= 25)`);
if (errors.length) { console.log(`\n${errors.length} ERRORS`); for (const e of errors) console.log('  ' + e); process.exit(1); }
console.log('OK');
