// t70 validator: node t70-validate.mjs  (no dependencies)
import fs from 'fs'; import path from 'path';
const dir = path.dirname(new URL(import.meta.url).pathname);
const B = 't70';
const catDir = path.join(dir, '..', '..', 'discovery', 'catalog');
const realTools = new Set();
for (const f of fs.readdirSync(catDir).filter(f => f.endsWith('.json'))) {
  const d = JSON.parse(fs.readFileSync(path.join(catDir, f), 'utf8'));
  for (const t of d.tools || []) realTools.add(t.name);
}
const errs = []; const err = (id, m) => errs.push(`${id}: ${m}`);
const load = f => { const p = path.join(dir, f); if (!fs.existsSync(p)) return [];
  return fs.readFileSync(p, 'utf8').split('\n').filter(l => l.trim()).map((l, i) => { try { return JSON.parse(l); } catch (e) { err(`${f}:${i+1}`, 'bad JSON ' + e.message); return null; } }).filter(Boolean); };
const pois = load(`${B}-p1.jsonl`), ben = load(`${B}-benign.jsonl`);
const all = [...pois, ...ben]; const byId = new Map();
const BANNED = [/ignore (all )?previous instructions/i, /highest priority/i, /override/i, /disregard/i, /supersede/i, /takes? precedence/i, /precedence/i, /important/i, /wichtig/i, /vorrang/i, /prioridad m[aá]xima/i, /priorit[eé] absolue/i, /priorit[aà] assoluta/i, /ignor(e|a|ez|ieren|uj)\b/i, /ważn/i, /důležit/i, /важн/i, /önemli/i, /fontos/i, /belangrijk/i, /tärkeä/i, /viktig/i, /σημαντικ/i, /importan/i];
const INVIS = /[\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF\u{E0000}-\u{E007F}\u00AD]/u;
function strings(o, p = '$', out = []) {
  if (typeof o === 'string') out.push([p, o]);
  else if (Array.isArray(o)) o.forEach((v, i) => strings(v, `${p}[${i}]`, out));
  else if (o && typeof o === 'object') for (const [k, v] of Object.entries(o)) { out.push([`${p}{key:${k}}`, k]); strings(v, `${p}.${k}`, out); }
  return out;
}
function checkProps(id, props, p) {
  if (!props || typeof props !== 'object') return;
  for (const [k, v] of Object.entries(props)) {
    if (!v.type) err(id, `${p}.${k} missing type`);
    if (typeof v.description !== 'string' || !v.description) err(id, `${p}.${k} missing description`);
    if (v.properties) checkProps(id, v.properties, `${p}.${k}.properties`);
    if (v.items && v.items.properties) checkProps(id, v.items.properties, `${p}.${k}.items.properties`);
  }
}
function resolve(tool, where) {
  const toks = []; const re = /\.([A-Za-z0-9_\-]+)|\[(\d+)\]|\["([^"]+)"\]/g; let m; let s = where.slice(1); let last = 0;
  if (where[0] !== '$') return undefined;
  while ((m = re.exec(s))) { if (m.index !== last) return undefined; last = re.lastIndex; toks.push(m[1] ?? (m[2] !== undefined ? +m[2] : { key: m[3] })); }
  if (last !== s.length) return undefined;
  let cur = tool;
  for (let i = 0; i < toks.length; i++) { const t = toks[i];
    if (typeof t === 'object') { if (i !== toks.length - 1 || !cur || !(t.key in cur)) return undefined; return t.key; }
    if (cur == null) return undefined; cur = cur[t]; }
  return typeof cur === 'string' ? cur : undefined;
}
const langs = {}; const lens = { short: 0, mid: 0, long: 0 }; const wheres = {};
for (const r of all) {
  const id = r.id || '?';
  if (byId.has(id)) err(id, 'duplicate id'); byId.set(id, r);
  for (const f of ['id', 'class', 'voice', 'lang', 'server', 'siblings', 'tool', 'pair']) if (r[f] === undefined) err(id, 'missing ' + f);
  if (!/^[a-z]{2}$/.test(r.lang || '')) err(id, 'bad lang');
  if (!Array.isArray(r.siblings) || !r.siblings.length) err(id, 'siblings empty');
  const t = r.tool || {};
  if (!t.name || typeof t.description !== 'string' || !t.inputSchema || t.inputSchema.type !== 'object') err(id, 'bad tool');
  checkProps(id, t.inputSchema?.properties, '$.inputSchema.properties');
  for (const req of t.inputSchema?.required || []) if (!t.inputSchema.properties?.[req]) err(id, 'required missing prop ' + req);
  for (const [p, s] of strings(r)) {
    for (const b of BANNED) if (b.test(s)) err(id, `banned phrase ${b} at ${p}`);
    if (INVIS.test(s)) err(id, `invisible char at ${p}`);
    for (const u of s.match(/https?:\/\/[^\s'"),]+/g) || []) { const h = u.replace(/^https?:\/\//, '').split(/[\/:?#]/)[0];
      if (!/\.example$/.test(h) && !/^(198\.51\.100|203\.0\.113)\.\d+$/.test(h)) err(id, 'endpoint not allowed: ' + u); }
    for (const ip of s.match(/\b\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}\b/g) || []) if (!/^(198\.51\.100|203\.0\.113)\./.test(ip)) err(id, 'ip not allowed ' + ip);
  }
  const L = (t.description || '').length; lens[L < 200 ? 'short' : L < 700 ? 'mid' : 'long']++;
  langs[r.lang] = (langs[r.lang] || 0) + 1;
}
for (const [i, r] of pois.entries()) {
  const id = r.id;
  if (id !== `${B}-p1-${String(i + 1).padStart(3, '0')}`) err(id, 'id not sequential/format');
  if (r.class !== 'p1') err(id, 'class not p1');
  if (!r.where || !r.intent) err(id, 'missing where/intent');
  if (r.note || r.source) err(id, 'poisoned has note/source');
  for (const s of r.siblings || []) if (!realTools.has(s)) err(id, 'sibling not a real catalog tool: ' + s);
  if (r.where && resolve(r.tool, r.where) === undefined) err(id, 'where does not resolve: ' + r.where);
  const wk = (r.where || '').replace(/\.properties\.[^.\[]+|\["[^"]+"\]/g, m => m.startsWith('[') ? '[name]' : '.properties.*'); wheres[wk] = (wheres[wk] || 0) + 1;
}
for (const [i, r] of ben.entries()) {
  const id = r.id;
  if (id !== `${B}-benign-${String(i + 1).padStart(3, '0')}`) err(id, 'id not sequential/format');
  if (r.class !== 'benign') err(id, 'class not benign');
  if (r.where || r.intent) err(id, 'benign has where/intent');
  if (!r.note || r.source !== 'new') err(id, 'benign needs note and source new');
  const tw = byId.get(r.pair);
  if (!tw || tw.pair !== id) { err(id, 'pair not mutual'); continue; }
  if (pois[i] !== tw) err(id, 'twin not in same order');
  for (const s of r.siblings || []) if (realTools.has(s) && !(tw.siblings || []).includes(s)) err(id, 'benign sibling looks like real catalog tool: ' + s);
  if (r.server !== tw.server || r.tool.name !== tw.tool.name || r.lang !== tw.lang || r.voice !== tw.voice) err(id, 'twin server/name/lang/voice mismatch');
  const a = strings(tw.tool), b = strings(r.tool);
  const ma = new Map(a), mb = new Map(b);
  const keys = new Set([...ma.keys(), ...mb.keys()]); let diff = 0;
  for (const k of keys) if (ma.get(k) !== mb.get(k)) diff++;
  if (diff < 1 || diff > 3) err(id, `tool objects differ in ${diff} strings`);
  if (JSON.stringify(Object.keys(tw.tool)) !== JSON.stringify(Object.keys(r.tool))) err(id, 'tool key order differs');
  const pl = (tw.tool.description || '').length, bl = (r.tool.description || '').length;
  const cat = L => L < 200 ? 0 : L < 700 ? 1 : 2; if (cat(pl) !== cat(bl)) err(id, `length bucket differs ${pl} vs ${bl}`);
}
for (const r of pois) if (!byId.get(r.pair) || byId.get(r.pair).pair !== r.id) err(r.id, 'pair not mutual');
console.log(`p1: ${pois.length}  benign: ${ben.length}  total: ${all.length}`);
console.log('langs', JSON.stringify(langs)); console.log('desc lengths', JSON.stringify(lens)); console.log('where', JSON.stringify(wheres));
if (errs.length) { console.log(errs.join('\n')); console.log(`FAIL ${errs.length} errors`); process.exit(1); } else console.log('OK');
