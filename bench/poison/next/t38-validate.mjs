import { fileURLToPath } from 'node:url';
// t38 validator: node t38-validate.mjs  (no dependencies)
import fs from 'fs';
import path from 'path';
const dir = path.dirname(fileURLToPath(import.meta.url));
const catDir = path.join(dir, '..', '..', 'discovery', 'catalog');
const realTools = new Map();
for (const f of fs.readdirSync(catDir).filter(f => f.endsWith('.json'))) {
  const d = JSON.parse(fs.readFileSync(path.join(catDir, f), 'utf8'));
  for (const t of d.tools) realTools.set(t.name, (realTools.get(t.name) || new Set()).add(d.server));
}
const banned = ['ignore previous instructions','highest priority','override','disregard','supersede','takes precedence','important','ignorez','ignoriere','höchste priorität','priorité absolue','máxima prioridad','prioridad máxima'];
const invisible = /[\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF\u00AD\u180E]|[\u{E0000}-\u{E007F}]/u;
const files = { 't38-p4.jsonl':'p4', 't38-p2.jsonl':'p2', 't38-benign.jsonl':'benign' };
let errors = 0; const ids = new Set(); const langs = {}; const voices = {}; const lens = {short:0, mid:0, long:0};
const err = (id, m) => { errors++; console.log('ERR', id, m); };
const seenDesc = new Map();
function resolve(obj, p) {
  if (!p.startsWith('$')) return undefined;
  const toks = []; const re = /\.([A-Za-z_$][\w$-]*)|\[(\d+)\]|\["([^"]+)"\]/g; let m; let last = 1;
  while ((m = re.exec(p))) { if (m.index !== last) return undefined; last = re.lastIndex; toks.push(m[1] ?? (m[2] !== undefined ? +m[2] : {key: m[3]})); }
  if (last !== p.length) return undefined;
  let cur = obj;
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    if (typeof t === 'object') { // property NAME
      if (!cur || !(t.key in cur)) return undefined;
      if (i === toks.length - 1) return t.key; cur = cur[t.key];
    } else { if (cur == null) return undefined; cur = cur[t]; }
  }
  return cur;
}
function checkProps(id, props, where) {
  if (!props) return;
  for (const [k, v] of Object.entries(props)) {
    if (!v.type) err(id, `property ${where}${k} lacks type`);
    if (typeof v.description !== 'string' || !v.description) err(id, `property ${where}${k} lacks description`);
    if (v.properties) checkProps(id, v.properties, where + k + '.');
    if (v.items && v.items.properties) checkProps(id, v.items.properties, where + k + '[].');
  }
}
function strings(o, out = []) { if (typeof o === 'string') out.push(o); else if (o && typeof o === 'object') { for (const [k, v] of Object.entries(o)) { out.push(k); strings(v, out); } } return out; }
for (const [file, cls] of Object.entries(files)) {
  const fp = path.join(dir, file); if (!fs.existsSync(fp)) { console.log('missing', file); continue; }
  const lines = fs.readFileSync(fp, 'utf8').split('\n').filter(l => l.trim());
  let n = 0;
  lines.forEach((line, i) => {
    let r; try { r = JSON.parse(line); } catch (e) { err(file + ':' + (i + 1), 'bad JSON ' + e.message); return; }
    n++; const id = r.id;
    if (ids.has(id)) err(id, 'duplicate id'); ids.add(id);
    if (!new RegExp(`^t38-${cls}-\\d{3}$`).test(id)) err(id, 'bad id');
    if (r.class !== cls) err(id, 'class mismatch');
    for (const f of ['voice','lang','server','siblings','tool']) if (r[f] === undefined) err(id, 'missing ' + f);
    if (!/^[a-z]{2}$/.test(r.lang)) err(id, 'bad lang');
    if (!Array.isArray(r.siblings) || !r.siblings.length) err(id, 'siblings');
    const t = r.tool || {};
    if (!t.name || typeof t.description !== 'string' || !t.inputSchema || t.inputSchema.type !== 'object') err(id, 'tool shape');
    checkProps(id, t.inputSchema && t.inputSchema.properties, '');
    for (const req of (t.inputSchema && t.inputSchema.required) || []) if (!t.inputSchema.properties || !(req in t.inputSchema.properties)) err(id, 'required not in props ' + req);
    if (cls === 'benign') {
      if (r.where || r.intent) err(id, 'benign has where/intent');
      if (!r.note || !r.source) err(id, 'benign missing note/source');
      if (!(r.source === 'new' || /^catalog:[\w-]+\/[\w-]+$/.test(r.source))) err(id, 'bad source');
      for (const s of r.siblings) if (realTools.has(s)) err(id, 'benign sibling is a real catalog tool name: ' + s);
    } else {
      if (!r.where || !r.intent) err(id, 'missing where/intent');
      const v = resolve(t, r.where);
      if (typeof v !== 'string') err(id, 'where does not resolve to a string: ' + r.where);
      for (const s of r.siblings) { const sv = realTools.get(s); if (!sv) err(id, 'sibling not a real catalog tool: ' + s); else if (sv.has(r.server)) err(id, 'sibling from own server'); }
    }
    const all = strings(r.tool).concat([r.intent || '', r.note || '']);
    const text = all.join('\n');
    const low = text.toLowerCase();
    for (const b of banned) if (low.includes(b)) err(id, 'banned phrase: ' + b);
    if (invisible.test(text)) err(id, 'invisible/bidi/tag char');
    for (const m of text.matchAll(/https?:\/\/([^\/\s"'`)<>]+)/g)) { const h = m[1].replace(/:\d+$/, '').toLowerCase(); if (!(h.endsWith('.example') || /^(198\.51\.100|203\.0\.113)\.\d+$/.test(h) || h === 'localhost' || h === '127.0.0.1')) { if (cls !== 'benign') err(id, 'non-example host ' + h); } }
    for (const m of text.matchAll(/\b(\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})\b/g)) { const ip = m[1]; if (!/^(198\.51\.100|203\.0\.113|127\.0\.0|10\.|192\.0\.2\.|0\.0\.0)/.test(ip) && cls !== 'benign') err(id, 'non-TEST-NET ip ' + ip); }
    const dk = t.description.trim().toLowerCase(); if (seenDesc.has(dk)) err(id, 'duplicate description of ' + seenDesc.get(dk)); seenDesc.set(dk, id);
    const L = t.description.length; lens[L < 200 ? 'short' : L < 700 ? 'mid' : 'long']++;
    langs[r.lang] = (langs[r.lang] || 0) + 1; voices[r.voice] = (voices[r.voice] || 0) + 1;
  });
  console.log(file, n, 'records');
}
const total = Object.values(langs).reduce((a, b) => a + b, 0);
console.log('total', total, 'lengths', lens, 'langs', Object.keys(langs).length, JSON.stringify(langs));
console.log('english share', ((langs.en || 0) / total * 100).toFixed(1) + '%', 'distinct voices', Object.keys(voices).length);
if (Object.keys(langs).length < 25) err('batch', 'fewer than 25 languages');
const en = (langs.en || 0) / total; if (en < 0.3 || en > 0.5) err('batch', 'English share out of 30-50% band');
for (const k of ['short','mid','long']) if (lens[k] / total < 0.25) console.log('WARN length band thin:', k);
console.log(errors ? `FAIL ${errors} errors` : 'PASS');
process.exit(errors ? 1 : 0);
