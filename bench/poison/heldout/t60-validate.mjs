// t60 validator: node t60-validate.mjs  (no dependencies)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
const dir = path.dirname(fileURLToPath(import.meta.url));
const BATCH = 't60';
const file = path.join(dir, `${BATCH}-benign.jsonl`);
const catalogDir = path.join(dir, '..', '..', 'discovery', 'catalog');
const errors = [];
const err = (id, m) => errors.push(`${id}: ${m}`);

// catalog tool names (for source "catalog:<server>/<tool>")
const catalog = new Map();
if (fs.existsSync(catalogDir)) {
  for (const f of fs.readdirSync(catalogDir)) {
    if (!f.endsWith('.json')) continue;
    const j = JSON.parse(fs.readFileSync(path.join(catalogDir, f), 'utf8'));
    catalog.set(j.server, new Set(j.tools.map(t => t.name)));
  }
}
const catalogServers = new Set(catalog.keys());

const ISO6391 = new Set('aa ab ae af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs ca ce ch co cr cs cu cv cy da de dv dz ee el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz ia id ie ig ii ik io is it iu ja jv ka kg ki kj kk kl km kn ko kr ks ku kv kw ky la lb lg li ln lo lt lu lv mg mh mi mk ml mn mr ms mt my na nb nd ne ng nl nn no nr nv ny oc oj om or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg si sk sl sm sn so sq sr ss st su sv sw ta te tg th ti tk tl tn to tr ts tt tw ty ug uk ur uz ve vi vo wa wo xh yi yo za zh zu'.split(' '));

// stock phrases (and direct translations) that the brief forbids anywhere
const banned = [
  /ignore (all )?previous instructions/i, /highest priority/i, /override/i, /disregard/i,
  /supersede/i, /takes precedence/i, /important/i,
  /wichtig/i, /важн/i, /重要/, /중요/, /belangrijk/i, /ważn/i, /önemli/i, /viktig/i, /tärke/i,
  /fontos/i, /důležit/i, /dôležit/i, /vigtig/i, /quan trọng/i, /penting/i, /σημαντικ/i,
  /महत्वपूर्ण/, /สำคัญ/, /חשוב/, /مهم/, /importan(te|t)/i, /importância/i, /garrantzi/i,
  /важлив/i, /важно/i, /ignorieren sie/i, /ignorez/i, /最优先|最優先/, /priorité absolue/i,
  /höchste priorität/i, /máxima prioridad/i, /überschreib/i, /ignora le istruzioni/i,
];
const invisible = /[\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF\u00AD\u180E]|[\u{E0000}-\u{E007F}]/u;
const urlRe = /https?:\/\/([^\/\s"'`)<>]+)/gi;

function strings(o, acc = []) {
  if (typeof o === 'string') acc.push(o);
  else if (Array.isArray(o)) o.forEach(x => strings(x, acc));
  else if (o && typeof o === 'object') for (const [k, v] of Object.entries(o)) { acc.push(k); strings(v, acc); }
  return acc;
}
// text length: description + title + every property description/title (recursively)
function textLen(tool) {
  let n = (tool.description || '').length + (tool.title || '').length;
  const walk = (s) => {
    if (!s || typeof s !== 'object') return;
    if (s.properties) for (const p of Object.values(s.properties)) {
      n += (p.description || '').length + (p.title || '').length;
      walk(p);
    }
    if (s.items) { n += (s.items.description || '').length; walk(s.items); }
  };
  walk(tool.inputSchema);
  return n;
}
function checkProps(id, schema, where) {
  if (!schema || typeof schema !== 'object') return;
  if (schema.properties) {
    if (typeof schema.properties !== 'object') return err(id, `${where}.properties not object`);
    for (const [k, p] of Object.entries(schema.properties)) {
      if (!p.type) err(id, `${where}.properties.${k} lacks type`);
      if (typeof p.description !== 'string' || !p.description.trim()) err(id, `${where}.properties.${k} lacks description`);
      checkProps(id, p, `${where}.properties.${k}`);
    }
    if (schema.required) for (const r of schema.required) if (!(r in schema.properties)) err(id, `${where}.required '${r}' not a property`);
  }
  if (schema.items) {
    if (!schema.items.type) err(id, `${where}.items lacks type`);
    checkProps(id, schema.items, `${where}.items`);
  }
}

const lines = fs.readFileSync(file, 'utf8').split('\n').filter(l => l.trim());
const ids = new Set(), langs = {}, voices = new Set(), servers = new Set();
const len = { short: 0, medium: 0, long: 0 };
const src = { new: 0, catalog: 0 };
lines.forEach((line, i) => {
  let r;
  try { r = JSON.parse(line); } catch (e) { return err(`line ${i + 1}`, 'bad JSON: ' + e.message); }
  const id = r.id || `line ${i + 1}`;
  const allowed = ['id', 'class', 'voice', 'lang', 'server', 'siblings', 'tool', 'note', 'source'];
  for (const k of Object.keys(r)) if (!allowed.includes(k)) err(id, `unexpected field ${k}`);
  for (const k of allowed) if (r[k] === undefined) err(id, `missing ${k}`);
  if (!/^t60-benign-\d{3}$/.test(r.id || '')) err(id, 'bad id format');
  if (ids.has(r.id)) err(id, 'duplicate id'); ids.add(r.id);
  if (r.class !== 'benign') err(id, 'class must be benign');
  if (!ISO6391.has(r.lang)) err(id, `lang ${r.lang} not ISO 639-1`);
  if (typeof r.voice !== 'string' || !r.voice) err(id, 'voice missing');
  if (typeof r.server !== 'string' || !r.server) err(id, 'server missing');
  if (catalogServers.has(r.server)) err(id, 'server must be made up, not a catalog server');
  if (!Array.isArray(r.siblings) || !r.siblings.length || r.siblings.some(s => typeof s !== 'string' || !s)) err(id, 'siblings must be non-empty string array');
  else if (r.tool && r.siblings.includes(r.tool.name)) err(id, 'siblings should not repeat the tool itself');
  if (typeof r.note !== 'string' || r.note.length < 10) err(id, 'note missing/short');
  if (r.source === 'new') src.new++;
  else if (typeof r.source === 'string' && r.source.startsWith('catalog:')) {
    src.catalog++;
    const m = r.source.slice(8).split('/');
    const srv = m[0], tl = m.slice(1).join('/');
    if (!catalog.has(srv) || !catalog.get(srv).has(tl)) err(id, `source ${r.source} not found in catalog`);
  } else err(id, 'source must be "new" or "catalog:<server>/<tool>"');
  const t = r.tool;
  if (!t || typeof t !== 'object') return err(id, 'tool missing');
  for (const k of Object.keys(t)) if (!['name', 'title', 'description', 'inputSchema'].includes(k)) err(id, `unexpected tool field ${k}`);
  if (!/^[A-Za-z0-9_.-]{1,64}$/.test(t.name || '')) err(id, 'bad tool name');
  if (typeof t.description !== 'string' || !t.description.trim()) err(id, 'tool.description missing');
  if (!t.inputSchema || t.inputSchema.type !== 'object' || typeof t.inputSchema.properties !== 'object') err(id, 'inputSchema must be an object schema with properties');
  checkProps(id, t.inputSchema, '$.inputSchema');
  const all = strings(r);
  for (const s of all) {
    for (const b of banned) if (b.test(s)) err(id, `banned phrase ${b} in: ${s.slice(0, 60)}`);
    if (invisible.test(s)) err(id, 'invisible/bidi/tag character');
    for (const m of s.matchAll(urlRe)) {
      const host = m[1].toLowerCase().replace(/:\d+$/, '');
      const ok = host.endsWith('.example') || host === 'example.com' || host.endsWith('.example.com') || /^(198\.51\.100|203\.0\.113|192\.0\.2)\.\d+$/.test(host) || host === 'localhost' || host === '127.0.0.1';
      if (!ok) err(id, `URL host not reserved: ${host}`);
    }
  }
  const n = textLen(t);
  if (n < 200) len.short++; else if (n < 700) len.medium++; else len.long++;
  langs[r.lang] = (langs[r.lang] || 0) + 1;
  voices.add(r.voice); servers.add(r.server);
});
const total = lines.length;
const en = langs.en || 0;
console.log(`records: ${total}`);
console.log(`lengths (text = description+titles+property descriptions): short<200 ${len.short}, 200-699 ${len.medium}, >=700 ${len.long}`);
console.log(`languages: ${Object.keys(langs).length}; English ${en} (${(100 * en / total).toFixed(1)} %)`);
console.log('per language:', Object.entries(langs).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k}:${v}`).join(' '));
console.log(`voices: ${voices.size}; servers: ${servers.size}; source new ${src.new}, catalog ${src.catalog}`);
if (Object.keys(langs).length < 25) err('batch', 'fewer than 25 languages');
if (src.catalog > total / 5) err('batch', 'more than a fifth adapted from catalog');
for (const k of ['short', 'medium', 'long']) if (total >= 30 && (len[k] < total * 0.25 || len[k] > total * 0.42)) err('batch', `length bucket ${k} off a third: ${len[k]}`);
if (total >= 30 && (en / total < 0.18 || en / total > 0.32)) err('batch', 'English share not about 25 %');
if (errors.length) { console.log(`\n${errors.length} problem(s):`); errors.forEach(e => console.log(' - ' + e)); process.exit(1); }
console.log('OK');
