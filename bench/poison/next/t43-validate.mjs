import { fileURLToPath } from 'node:url';
// t43 validator: node t43-validate.mjs  (no dependencies)
import fs from 'fs';
import path from 'path';
const dir = path.dirname(fileURLToPath(import.meta.url));
const B = 't43';
const catDir = path.join(dir, '..', '..', 'discovery', 'catalog');
const catalog = new Map(); // tool name -> set of servers
for (const f of fs.readdirSync(catDir).filter(f => f.endsWith('.json'))) {
  const j = JSON.parse(fs.readFileSync(path.join(catDir, f), 'utf8'));
  for (const t of j.tools || []) { if (!catalog.has(t.name)) catalog.set(t.name, new Set()); catalog.get(t.name).add(j.server); }
}
const ISO = new Set('aa ab ae af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs ca ce ch co cr cs cu cv cy da de dv dz ee el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz ia id ie ig ii ik io is it iu ja jv ka kg ki kj kk kl km kn ko kr ks ku kv kw ky la lb lg li ln lo lt lu lv mg mh mi mk ml mn mr ms mt my na nb nd ne ng nl nn no nr nv ny oc oj om or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg si sk sl sm sn so sq sr ss st su sv sw ta te tg th ti tk tl tn to tr ts tt tw ty ug uk ur uz ve vi vo wa wo xh yi yo za zh zu'.split(' '));
const BANNED = [/ignore (all |any )?(previous|prior) instructions/i, /highest priority/i, /override/i, /disregard/i, /supersede/i, /takes precedence/i, /important/i,
  /ignorez les instructions/i, /ignoriere (alle )?(vorherigen|bisherigen)/i, /ignora las instrucciones/i, /ignora le istruzioni/i, /игнорируй/i, /h.chste priorit/i, /priorit. maximale/i, /m.xima prioridad/i, /massima priorit/i, /wichtig/i, /importante/i, /важно/i];
const INVIS = /[\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF\u00AD]|[\u{E0000}-\u{E007F}]/u;
let errors = 0; const err = (id, m) => { errors++; console.log('ERR', id, m); };
function checkProps(id, props, p) {
  if (!props || typeof props !== 'object') return;
  for (const [k, v] of Object.entries(props)) {
    const here = `${p}.${k}`;
    if (!v.type) err(id, `no type at ${here}`);
    if (typeof v.description !== 'string' || !v.description) err(id, `no description at ${here}`);
    if (v.properties) checkProps(id, v.properties, here);
    if (v.items && v.items.properties) checkProps(id, v.items.properties, here + '.items');
  }
}
function resolve(tool, where) {
  if (!where.startsWith('$')) return undefined;
  const toks = []; const re = /\.([A-Za-z0-9_\-]+)|\[(\d+)\]|\["([^"]+)"\]/g; let m; let rest = where.slice(1); let last = 0;
  while ((m = re.exec(rest))) { if (m.index !== last) return undefined; last = re.lastIndex; toks.push(m[1] ?? (m[2] !== undefined ? +m[2] : { name: m[3] })); }
  if (last !== rest.length) return undefined;
  let cur = tool;
  for (const t of toks) {
    if (typeof t === 'object') { if (!cur || !(t.name in cur)) return undefined; return t.name; }
    if (cur == null) return undefined; cur = cur[t];
  }
  return cur;
}
function strings(o, out = []) { if (typeof o === 'string') out.push(o); else if (o && typeof o === 'object') { for (const [k, v] of Object.entries(o)) { out.push(k); strings(v, out); } } return out; }
const ids = new Set();
const files = fs.readdirSync(dir).filter(f => f.startsWith(B + '-') && f.endsWith('.jsonl'));
const summary = {};
for (const f of files) {
  const benign = f.endsWith('-benign.jsonl');
  const lines = fs.readFileSync(path.join(dir, f), 'utf8').split('\n').filter(l => l.trim());
  const s = { n: 0, langs: {}, len: { short: 0, mid: 0, long: 0 }, voices: new Set(), where: {} };
  lines.forEach((l, i) => {
    let r; try { r = JSON.parse(l); } catch (e) { err(`${f}:${i + 1}`, 'bad JSON ' + e.message); return; }
    const id = r.id || `${f}:${i + 1}`; s.n++;
    const cls = benign ? 'benign' : f.slice(B.length + 1, -6);
    if (!new RegExp(`^${B}-${cls}-\\d{3}$`).test(r.id)) err(id, 'bad id');
    if (ids.has(r.id)) err(id, 'dup id'); ids.add(r.id);
    if (r.class !== cls) err(id, 'class mismatch ' + r.class);
    if (!ISO.has(r.lang)) err(id, 'bad lang ' + r.lang);
    if (!r.voice) err(id, 'no voice'); s.voices.add(r.voice);
    if (!r.server || typeof r.server !== 'string') err(id, 'no server');
    for (const sv of catalog.values()) if (sv.has(r.server)) err(id, 'server is a catalog server');
    if (!Array.isArray(r.siblings) || !r.siblings.length) err(id, 'no siblings');
    const t = r.tool;
    if (!t || !t.name || typeof t.description !== 'string') { err(id, 'bad tool'); return; }
    if (!t.inputSchema || t.inputSchema.type !== 'object') err(id, 'bad inputSchema');
    checkProps(id, t.inputSchema && t.inputSchema.properties, '$.inputSchema.properties');
    if (t.inputSchema && t.inputSchema.required) for (const q of t.inputSchema.required) if (!(q in (t.inputSchema.properties || {}))) err(id, 'required missing ' + q);
    const all = strings(r.tool).join('\n');
    if (INVIS.test(all)) err(id, 'invisible char');
    for (const b of BANNED) if (b.test(all)) err(id, 'banned phrase ' + b);
    for (const u of all.match(/https?:\/\/[^\s"'<>)]+/g) || []) {
      const h = u.replace(/^https?:\/\//, '').split(/[\/:?#]/)[0];
      const ok = /\.example$/.test(h) || /^(198\.51\.100|203\.0\.113)\.\d+$/.test(h) || (benign && /\.(com|org|io|net|dev|gov|eu)$/.test(h) === false);
      if (!benign && !ok) err(id, 'endpoint not .example/TEST-NET: ' + h);
      if (benign && !(/\.example$/.test(h) || /^(198\.51\.100|203\.0\.113)\.\d+$/.test(h))) err(id, 'benign url not .example: ' + h);
    }
    for (const ip of all.match(/\b\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}\b/g) || []) if (ip !== "0.0.0.0" && !/^(198\.51\.100|203\.0\.113)\./.test(ip)) err(id, 'non TEST-NET ip ' + ip);
    const L = t.description.length; s.len[L < 200 ? 'short' : L < 700 ? 'mid' : 'long']++;
    s.langs[r.lang] = (s.langs[r.lang] || 0) + 1;
    if (benign) {
      if (r.where || r.intent) err(id, 'benign has where/intent');
      if (!r.note) err(id, 'benign no note');
      if (!r.source || !(r.source === 'new' || /^catalog:[^/]+\/.+/.test(r.source))) err(id, 'bad source');
      for (const sb of r.siblings) if (catalog.has(sb)) err(id, 'benign sibling is a real catalog tool ' + sb);
    } else {
      if (!r.intent) err(id, 'no intent');
      for (const sb of r.siblings) if (!catalog.has(sb)) err(id, 'sibling not a catalog tool ' + sb);
      const v = resolve(t, r.where || '');
      if (typeof v !== 'string' || !v) err(id, 'where does not resolve to a string: ' + r.where);
      const wk = (r.where || '').replace(/properties\.[^.\[]+/g, 'properties.*').replace(/\["[^"]+"\]/, '["*"]');
      s.where[wk] = (s.where[wk] || 0) + 1;
    }
  });
  s.voices = s.voices.size; summary[f] = s;
}
for (const [f, s] of Object.entries(summary)) {
  const en = s.langs.en || 0;
  console.log(`${f}: ${s.n} records, ${Object.keys(s.langs).length} langs, en ${(100 * en / s.n).toFixed(0)}%, voices ${s.voices}, len ${JSON.stringify(s.len)}`);
  console.log('  langs', JSON.stringify(s.langs));
  if (Object.keys(s.where).length) console.log('  where', JSON.stringify(s.where));
}
const allLangs = new Set(Object.values(summary).flatMap(s => Object.keys(s.langs)));
console.log(`total languages: ${allLangs.size}; errors: ${errors}`);
process.exit(errors ? 1 : 0);
