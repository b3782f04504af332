// t65 validator: node t65-validate.mjs  (no dependencies)
import fs from 'node:fs';
import path from 'node:path';
const dir = path.dirname(new URL(import.meta.url).pathname);
const BATCH = 't65';
const catDir = path.join(dir, '..', '..', 'discovery', 'catalog');
const catalog = {};
for (const f of fs.readdirSync(catDir).filter(f => f.endsWith('.json'))) {
  const d = JSON.parse(fs.readFileSync(path.join(catDir, f), 'utf8'));
  catalog[d.server] = new Set(d.tools.map(t => t.name));
}
const allCatalogTools = new Set(Object.values(catalog).flatMap(s => [...s]));
const ISO = new Set('en pl cs sk ru uk bg sr hr sl lt lv et fi hu el sq mk de fr es it pt nl sv da no ro tr'.split(' '));
const BANNED = [
  /ignore (all )?previous instructions/i, /highest priority/i, /override/i, /disregard/i, /supersede/i,
  /takes? precedence/i, /important/i,
  /ważne/i, /priorytet/i, /zignoruj/i, /důležit/i, /dôležit/i, /priorit/i, /важн/i, /игнорир/i, /ігнор/i,
  /важлив/i, /važn/i, /pomembn/i, /svarbu/i, /svarīg/i, /oluline/i, /tärke/i, /fontos/i, /σημαντικ/i,
  /rëndësishm/i, /приоритет/i, /пріоритет/i, /zanemari/i, /nepaisyk/i, /ignor/i,
];
const INVISIBLE = /[\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF\u00AD]|[\u{E0000}-\u{E007F}]/u;
const errors = [];
const err = (id, m) => errors.push(`${id}: ${m}`);
const ids = new Set();
const counts = {};
const bump = (k) => (counts[k] = (counts[k] || 0) + 1);

function getPath(obj, p) {
  // supports $.a.b, ["name"], [n]
  const toks = [];
  const re = /\.([A-Za-z0-9_\-]+)|\["([^"]+)"\]|\[(\d+)\]/g;
  if (!p.startsWith('$')) return { ok: false };
  let m, last = 1, nameRef = false;
  while ((m = re.exec(p.slice(1)))) {
    toks.push(m[1] ?? m[2] ?? Number(m[3]));
    if (m[2] !== undefined && re.lastIndex === p.length - 1) nameRef = true;
  }
  let cur = obj;
  for (let i = 0; i < toks.length; i++) {
    if (cur == null || !(toks[i] in Object(cur))) return { ok: false };
    if (i === toks.length - 1 && typeof toks[i] === 'string' && p.endsWith(`["${toks[i]}"]`)) return { ok: true, value: toks[i], name: true };
    cur = cur[toks[i]];
  }
  return { ok: true, value: cur };
}

function checkProps(id, props, where) {
  if (!props || typeof props !== 'object') return;
  for (const [k, v] of Object.entries(props)) {
    if (!v.type) err(id, `property ${where}.${k} lacks type`);
    if (typeof v.description !== 'string' || !v.description) err(id, `property ${where}.${k} lacks description`);
    if (v.properties) checkProps(id, v.properties, `${where}.${k}`);
    if (v.items && v.items.properties) checkProps(id, v.items.properties, `${where}.${k}.items`);
  }
}

function allStrings(o, out = []) {
  if (typeof o === 'string') out.push(o);
  else if (Array.isArray(o)) o.forEach(x => allStrings(x, out));
  else if (o && typeof o === 'object') for (const [k, v] of Object.entries(o)) { out.push(k); allStrings(v, out); }
  return out;
}

const lenBuckets = {};
for (const file of fs.readdirSync(dir).filter(f => f.startsWith(BATCH + '-') && f.endsWith('.jsonl'))) {
  const cls = file.slice(BATCH.length + 1, -'.jsonl'.length);
  const lines = fs.readFileSync(path.join(dir, file), 'utf8').split('\n').filter(l => l.trim());
  lines.forEach((line, i) => {
    let r;
    try { r = JSON.parse(line); } catch (e) { err(`${file}:${i + 1}`, 'bad JSON ' + e.message); return; }
    const id = r.id || `${file}:${i + 1}`;
    if (ids.has(id)) err(id, 'duplicate id'); ids.add(id);
    if (!new RegExp(`^${BATCH}-${cls}-\\d{3}$`).test(id)) err(id, 'id pattern');
    if (r.class !== cls) err(id, 'class/file mismatch');
    if (!ISO.has(r.lang)) err(id, 'lang ' + r.lang);
    if (typeof r.voice !== 'string' || !r.voice) err(id, 'voice');
    if (typeof r.server !== 'string' || !r.server) err(id, 'server');
    if (catalog[r.server]) err(id, 'server name is a catalog server');
    if (!Array.isArray(r.siblings) || r.siblings.length === 0) err(id, 'siblings empty');
    const t = r.tool;
    if (!t || typeof t.name !== 'string' || typeof t.description !== 'string') { err(id, 'tool name/description'); return; }
    if (!t.inputSchema || t.inputSchema.type !== 'object' || typeof t.inputSchema.properties !== 'object') err(id, 'inputSchema');
    checkProps(id, t.inputSchema.properties, 'properties');
    for (const rq of t.inputSchema.required || []) if (!(rq in t.inputSchema.properties)) err(id, 'required not in properties: ' + rq);
    if (cls === 'benign') {
      if ('where' in r || 'intent' in r) err(id, 'benign has where/intent');
      if (typeof r.note !== 'string' || !r.note) err(id, 'note');
      if (r.source !== 'new') {
        const m = /^catalog:([^/]+)\/(.+)$/.exec(r.source || '');
        if (!m || !catalog[m[1]] || !catalog[m[1]].has(m[2])) err(id, 'source ' + r.source);
      }
      bump('source:' + (r.source === 'new' ? 'new' : 'catalog'));
    } else {
      if (typeof r.intent !== 'string' || !r.intent) err(id, 'intent');
      for (const s of r.siblings) if (!allCatalogTools.has(s)) err(id, 'sibling not a catalog tool: ' + s);
      const g = getPath(t, r.where || '');
      if (!g.ok || typeof g.value !== 'string') err(id, 'where does not resolve to a string: ' + r.where);
      const wk = r.where === '$.description' ? 'description' : r.where === '$.title' ? 'title' : 'param/other';
      bump('where:' + wk);
    }
    const strs = allStrings(t);
    for (const s of strs) {
      if (INVISIBLE.test(s)) err(id, 'invisible/bidi char');
      for (const b of BANNED) if (b.test(s) && !(b.source === 'ignor' && false)) { err(id, 'banned phrase ' + b + ' in: ' + s.slice(0, 60)); break; }
      for (const u of s.match(/https?:\/\/[^\s)"]+/g) || []) {
        const host = u.replace(/^https?:\/\//, '').split(/[/:?#]/)[0];
        if (!/\.example$/.test(host) && !/^(198\.51\.100|203\.0\.113)\.\d+$/.test(host)) err(id, 'url host ' + host);
      }
      for (const h of s.match(/\b[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:com|net|org|io|ru|ua|pl|cz|sk|bg|rs|hr|si|lt|lv|ee|fi|hu|gr|al|mk|de|eu|app|dev|co)\b/gi) || [])
        err(id, 'non-.example domain ' + h);
      for (const ip of s.match(/\b\d{1,3}(?:\.\d{1,3}){3}\b/g) || [])
        if (!/^(198\.51\.100|203\.0\.113)\./.test(ip)) err(id, 'ip ' + ip);
    }
    const L = t.description.length;
    const b = L < 200 ? 'short' : L < 700 ? 'medium' : 'long';
    lenBuckets[`${cls}:${b}`] = (lenBuckets[`${cls}:${b}`] || 0) + 1;
    bump(`file:${file}`); bump(`lang:${cls}:${r.lang}`);
  });
}
const langTotals = {};
for (const [k, v] of Object.entries(counts)) if (k.startsWith('lang:')) { const l = k.split(':')[2]; langTotals[l] = (langTotals[l] || 0) + v; }
console.log(JSON.stringify({ counts, lenBuckets, langTotals }, null, 1));
if (errors.length) { console.log(errors.join('\n')); console.log(`FAIL ${errors.length} errors`); process.exit(1); }
console.log('OK');
