// t67 validator: node t67-validate.mjs  (no dependencies)
import fs from 'node:fs';
import path from 'node:path';
import url from 'node:url';
const dir = path.dirname(url.fileURLToPath(import.meta.url));
const BATCH = 't67';
const catDir = path.join(dir, '..', '..', 'discovery', 'catalog');
const catalog = new Map(); // tool name -> set of servers
for (const f of fs.readdirSync(catDir).filter(f => f.endsWith('.json'))) {
  const j = JSON.parse(fs.readFileSync(path.join(catDir, f), 'utf8'));
  for (const t of j.tools || []) { if (!catalog.has(t.name)) catalog.set(t.name, new Set()); catalog.get(t.name).add(j.server); }
}
const ISO6391 = new Set('aa ab af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs ca ce ch co cr cs cu cv cy da de dv dz ee el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz ia id ie ig ii ik io is it iu ja jv ka kg ki kj kk kl km kn ko kr ks ku kv kw ky la lb lg li ln lo lt lu lv mg mh mi mk ml mn mr ms mt my na nb nd ne ng nl nn no nr nv ny oc oj om or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg si sk sl sm sn so sq sr ss st su sv sw ta te tg th ti tk tl tn to tr ts tt tw ty ug uk ur uz ve vi vo wa wo xh yi yo za zh zu'.split(' '));
const BANNED = [/ignore (all )?previous instructions/i, /highest priority/i, /override/i, /disregard/i, /supersede/i, /takes precedence/i, /important/i];
const INVISIBLE = /[\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0]|[\u{E0000}-\u{E007F}]/u;
const errors = [];
const err = (id, m) => errors.push(`${id}: ${m}`);
const ids = new Set();

function allStrings(o, out = []) {
  if (typeof o === 'string') out.push(o);
  else if (Array.isArray(o)) o.forEach(x => allStrings(x, out));
  else if (o && typeof o === 'object') for (const [k, v] of Object.entries(o)) { out.push(k); allStrings(v, out); }
  return out;
}
function checkProps(id, props, where) {
  if (!props || typeof props !== 'object') { err(id, `${where}: properties missing`); return; }
  for (const [k, p] of Object.entries(props)) {
    if (!p.type) err(id, `${where}.${k}: no type`);
    if (typeof p.description !== 'string' || !p.description.trim()) err(id, `${where}.${k}: no description`);
    if (p.properties) checkProps(id, p.properties, `${where}.${k}.properties`);
    if (p.items && p.items.properties) checkProps(id, p.items.properties, `${where}.${k}.items.properties`);
  }
}
function resolve(tool, jp) {
  // supports $.a.b, ["name"], [n]
  if (!jp.startsWith('$')) return undefined;
  const toks = []; const re = /\.([A-Za-z0-9_\-]+)|\["([^"]+)"\]|\[(\d+)\]/g; let m, last = 1;
  while ((m = re.exec(jp))) { if (m.index !== last) return undefined; toks.push(m[1] ?? m[2] ?? Number(m[3])); last = re.lastIndex; }
  if (last !== jp.length) return undefined;
  // property NAME form: $.inputSchema.properties["name"] -> the key itself
  const nameForm = /\["[^"]+"\]$/.test(jp);
  let cur = tool;
  for (const t of toks) { if (cur == null) return undefined; cur = cur[t]; }
  if (nameForm && cur !== undefined) return toks[toks.length - 1];
  return cur;
}
function checkDomains(id, s) {
  const urls = s.match(/\b(?:https?:\/\/)?(?:[a-z0-9-]+\.)+[a-z]{2,}\b/gi) || [];
  for (const u of urls) {
    const host = u.replace(/^https?:\/\//i, '').toLowerCase();
    if (/\.example$/.test(host)) continue;
    if (/^[a-z_]+\.[a-z_]+$/.test(host) && !/\.(com|net|org|io|co|dev|app|ai|me|info|biz|xyz|ke|ng|za|tr|az|kz|uz|ge|am|ir|il|sa|ae|in|mx|de|so|et)$/.test(host)) continue; // identifiers like x.y
    err(id, `suspicious domain/host: ${u}`);
  }
  const ips = s.match(/\b\d{1,3}(?:\.\d{1,3}){3}\b/g) || [];
  for (const ip of ips) if (!/^(198\.51\.100|203\.0\.113|192\.0\.2)\./.test(ip)) err(id, `non-TEST-NET ip ${ip}`);
}
const stats = {};
function bump(file, key, val) { stats[file] ??= {}; stats[file][key] ??= {}; stats[file][key][val] = (stats[file][key][val] || 0) + 1; }

for (const file of fs.readdirSync(dir).filter(f => f.startsWith(BATCH + '-') && f.endsWith('.jsonl'))) {
  const cls = file.slice(BATCH.length + 1, -6);
  const lines = fs.readFileSync(path.join(dir, file), 'utf8').split('\n').filter(l => l.trim());
  const descSeen = new Map();
  lines.forEach((line, i) => {
    let r; try { r = JSON.parse(line); } catch (e) { err(`${file}:${i + 1}`, 'bad JSON ' + e.message); return; }
    const id = r.id || `${file}:${i + 1}`;
    if (!new RegExp(`^${BATCH}-${cls}-\\d{3}$`).test(r.id)) err(id, 'bad id');
    if (ids.has(r.id)) err(id, 'duplicate id'); ids.add(r.id);
    if (r.class !== cls) err(id, `class ${r.class} != ${cls}`);
    if (!ISO6391.has(r.lang)) err(id, `bad lang ${r.lang}`);
    for (const f of ['voice', 'server']) if (typeof r[f] !== 'string' || !r[f]) err(id, `missing ${f}`);
    if (!Array.isArray(r.siblings) || !r.siblings.length) err(id, 'siblings missing');
    const t = r.tool;
    if (!t || typeof t.name !== 'string' || typeof t.description !== 'string') { err(id, 'tool name/description'); return; }
    if (!t.inputSchema || t.inputSchema.type !== 'object') err(id, 'inputSchema.type must be object');
    else checkProps(id, t.inputSchema.properties, 'properties');
    if (Array.isArray(t.inputSchema?.required)) for (const q of t.inputSchema.required) if (!(q in (t.inputSchema.properties || {}))) err(id, `required ${q} not a property`);
    const strs = allStrings(r);
    for (const s of strs) {
      for (const b of BANNED) if (b.test(s)) err(id, `banned phrase ${b}`);
      if (INVISIBLE.test(s)) err(id, 'invisible/bidi/tag char');
    }
    checkDomains(id, allStrings(t).join('\n'));
    if (descSeen.has(t.description)) err(id, 'duplicate description'); descSeen.set(t.description, id);
    if (cls === 'benign') {
      if ('where' in r || 'intent' in r) err(id, 'benign has where/intent');
      if (typeof r.note !== 'string' || !r.note) err(id, 'note missing');
      if (!(r.source === 'new' || /^catalog:[^/]+\/.+$/.test(r.source))) err(id, `bad source ${r.source}`);
      for (const s of r.siblings) if (typeof s !== 'string' || !s) err(id, 'bad sibling');
    } else {
      if (typeof r.intent !== 'string' || !r.intent) err(id, 'intent missing');
      const v = resolve(t, r.where || '');
      if (typeof v !== 'string') err(id, `where ${r.where} does not resolve to a string`);
      for (const s of r.siblings) {
        if (!catalog.has(s)) err(id, `sibling ${s} not a catalog tool`);
      }
      bump(file, 'where', (r.where || '').replace(/properties\.[^.\[]+/g, 'properties.<p>'));
    }
    const L = t.description.length + (t.title ? t.title.length : 0);
    bump(file, 'length', L < 200 ? 'short<200' : L < 700 ? 'mid200-699' : 'long>=700');
    bump(file, 'lang', r.lang);
    bump(file, 'voice', r.voice);
    bump(file, 'count', 'total');
  });
}
for (const [f, s] of Object.entries(stats)) {
  console.log(`== ${f}`);
  for (const [k, v] of Object.entries(s)) console.log(`  ${k}: ` + Object.entries(v).sort((a, b) => b[1] - a[1]).map(([a, b]) => `${a}=${b}`).join(', '));
}
if (errors.length) { console.log(`\n${errors.length} ERROR(S):`); errors.forEach(e => console.log('  ' + e)); process.exit(1); }
console.log('\nOK: all rules pass');
