// t50 validator: node t50-validate.mjs  (no dependencies). Checks every rule of the brief it can check mechanically.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
const dir = path.dirname(fileURLToPath(import.meta.url));
const BATCH = 't50';
const catalogDir = path.join(dir, '..', '..', 'discovery', 'catalog');
const catalogTools = new Map(); // name -> set of servers
for (const f of fs.readdirSync(catalogDir).filter(f => f.endsWith('.json'))) {
  const j = JSON.parse(fs.readFileSync(path.join(catalogDir, f), 'utf8'));
  for (const t of j.tools || []) { if (!catalogTools.has(t.name)) catalogTools.set(t.name, new Set()); catalogTools.get(t.name).add(j.server); }
}
const catalogServers = new Set([...catalogTools.values()].flatMap(s => [...s]));
const banned = [/ignore (all )?previous instructions/i, /highest priority/i, /override/i, /disregard/i, /supersede/i, /takes? precedence/i, /important/i,
  // direct translations we avoid
  /важн/i, /ważn/i, /důležit/i, /dôležit/i, /важлив/i, /\bvažn/i, /svarb/i, /svarīg/i, /pomembn/i, /најважниј/i, /най-важн/i, /pierwszeństw/i, /приоритет/i, /priorytet/i, /prioritet/i, /prednost pred/i, /перевагу перед/i, /игнорир/i, /ignoruj/i, /ignoriraj/i, /ignoriši/i];
const invisible = /[\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF\u00AD]|[\u{E0000}-\u{E007F}]/u;
const ALLOWED_LANGS = new Set(['en','ru','uk','pl','cs','sk','bg','sr','hr','sl','lt','lv']);
const errors = []; const err = (id, m) => errors.push(`${id}: ${m}`);
const ids = new Set();
const stats = { files: {}, lang: {}, len: { short: 0, medium: 0, long: 0 }, voice: {}, where: {} };

function allStrings(o, out = []) { if (typeof o === 'string') out.push(o); else if (Array.isArray(o)) o.forEach(x => allStrings(x, out)); else if (o && typeof o === 'object') for (const [k, v] of Object.entries(o)) { out.push(k); allStrings(v, out); } return out; }
function checkProps(id, props, p) {
  if (!props || typeof props !== 'object') return;
  for (const [k, v] of Object.entries(props)) {
    if (!v.type) err(id, `property ${p}${k} lacks type`);
    if (typeof v.description !== 'string' || !v.description) err(id, `property ${p}${k} lacks description`);
    if (v.properties) checkProps(id, v.properties, `${p}${k}.`);
    if (v.items) { if (!v.items.type) err(id, `items of ${p}${k} lack type`); if (v.items.properties) checkProps(id, v.items.properties, `${p}${k}[].`); }
  }
}
function resolve(tool, jp) {
  // supports $.a.b, ["name"], [n]
  if (!jp.startsWith('$')) return undefined;
  const m = jp.match(/^(.*)\.properties\["([^"]+)"\]$/);
  if (m) { const parent = resolve(tool, m[1] + '.properties'); return parent && Object.prototype.hasOwnProperty.call(parent, m[2]) ? m[2] : undefined; }
  let cur = tool; const re = /\.([A-Za-z0-9_\-$]+)|\[(\d+)\]/g; let mm; const rest = jp.slice(1);
  let consumed = 0;
  while ((mm = re.exec(rest))) { if (mm.index !== consumed) return undefined; consumed = re.lastIndex; cur = cur?.[mm[1] ?? Number(mm[2])]; }
  return consumed === rest.length ? cur : undefined;
}
function urlsOk(id, s) {
  for (const u of s.match(/https?:\/\/[^\s"')]+/g) || []) { const host = u.replace(/^https?:\/\//, '').split(/[/:]/)[0]; if (!/\.example$/.test(host) && !/^(198\.51\.100|203\.0\.113)\.\d+$/.test(host)) err(id, `URL outside .example/TEST-NET: ${u}`); }
  for (const d of s.match(/\b[a-z0-9-]+(\.[a-z0-9-]+)*\.(com|net|org|io|ru|ua|pl|cz|sk|bg|rs|hr|si|lt|lv|eu|app|dev)\b(?=\/|\s|$)/gi) || []) err(id, `bare real-looking domain: ${d}`);
  for (const ip of s.match(/\b\d{1,3}(\.\d{1,3}){3}\b/g) || []) if (!/^(198\.51\.100|203\.0\.113)\./.test(ip)) err(id, `IP outside TEST-NET: ${ip}`);
}
for (const [file, cls] of [[`${BATCH}-p1.jsonl`, 'p1'], [`${BATCH}-benign.jsonl`, 'benign']]) {
  const lines = fs.readFileSync(path.join(dir, file), 'utf8').split('\n').filter(l => l.trim());
  stats.files[file] = lines.length;
  lines.forEach((line, i) => {
    let r; try { r = JSON.parse(line); } catch (e) { err(`${file}:${i + 1}`, 'bad JSON ' + e.message); return; }
    const id = r.id || `${file}:${i + 1}`;
    if (!new RegExp(`^${BATCH}-${cls}-\\d{3}$`).test(r.id)) err(id, 'bad id');
    if (ids.has(r.id)) err(id, 'duplicate id'); ids.add(r.id);
    if (r.class !== cls) err(id, 'class mismatch');
    for (const k of ['voice', 'lang', 'server']) if (typeof r[k] !== 'string' || !r[k]) err(id, `missing ${k}`);
    if (!ALLOWED_LANGS.has(r.lang)) err(id, `unexpected lang ${r.lang}`);
    if (catalogServers.has(r.server)) err(id, 'server name is a catalog server');
    if (!Array.isArray(r.siblings) || !r.siblings.length) err(id, 'siblings missing');
    const t = r.tool; if (!t || typeof t.name !== 'string' || typeof t.description !== 'string') { err(id, 'tool missing name/description'); return; }
    if (!t.inputSchema || t.inputSchema.type !== 'object') err(id, 'inputSchema not object');
    checkProps(id, t.inputSchema?.properties, '');
    for (const req of t.inputSchema?.required || []) if (!t.inputSchema.properties?.[req]) err(id, `required ${req} not in properties`);
    const strs = allStrings(r);
    for (const s of strs) { for (const b of banned) if (b.test(s)) err(id, `banned phrase ${b} in "${s.slice(0, 60)}"`); if (invisible.test(s)) err(id, 'invisible/bidi char'); urlsOk(id, s); }
    if (cls === 'p1') {
      if (!r.where || !r.intent) err(id, 'missing where/intent');
      const v = resolve(t, r.where); if (typeof v !== 'string') err(id, `where does not resolve to a string: ${r.where}`);
      for (const s of r.siblings) { if (!catalogTools.has(s)) err(id, `sibling not a catalog tool: ${s}`); }
      if ('note' in r || 'source' in r) err(id, 'poisoned record has note/source');
      stats.where[r.where.replace(/properties\.[^.]+/g, 'properties.<p>')] = (stats.where[r.where.replace(/properties\.[^.]+/g, 'properties.<p>')] || 0) + 1;
    } else {
      if ('where' in r || 'intent' in r) err(id, 'benign has where/intent');
      if (!r.note) err(id, 'missing note');
      if (!(r.source === 'new' || /^catalog:[^/]+\/.+/.test(r.source || ''))) err(id, 'bad source');
      if (/^catalog:/.test(r.source)) { const [srv, tn] = r.source.slice(8).split('/'); if (!catalogTools.get(tn)?.has(srv)) err(id, `source tool not in catalog: ${r.source}`); }
      for (const s of r.siblings) if (catalogTools.has(s)) err(id, `benign sibling is a catalog tool name: ${s}`);
    }
    // length = description + title + all schema strings (property descriptions, titles, defaults, enums, examples)
    const total = [t.title || '', t.description, ...allStrings(t.inputSchema)].join(' ').length;
    const d = t.description.length;
    const bucket = d >= 700 ? 'long' : d < 200 ? 'short' : 'medium'; void total;
    stats.len[bucket]++; stats.lang[r.lang] = (stats.lang[r.lang] || 0) + 1; stats.voice[r.voice] = (stats.voice[r.voice] || 0) + 1;
    (stats[cls + 'len'] ||= { short: 0, medium: 0, long: 0 })[bucket]++;
    (stats[cls + 'lang'] ||= {})[r.lang] = ((stats[cls + 'lang'] ||= {})[r.lang] || 0) + 1;
  });
}
console.log(JSON.stringify(stats, null, 1));
if (errors.length) { console.log(`\n${errors.length} ERRORS`); errors.forEach(e => console.log(' - ' + e)); process.exit(1); }
console.log('\nOK: all checks passed');
