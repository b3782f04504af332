// t59 validator: node t59-validate.mjs  (no dependencies). Exits 1 on any error.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = path.dirname(fileURLToPath(import.meta.url));
const BATCH = 't59';
const file = path.join(dir, `${BATCH}-benign.jsonl`);
const catalogDir = path.join(dir, '..', '..', 'discovery', 'catalog');

const errors = [];
const warns = [];
const err = (id, m) => errors.push(`${id}: ${m}`);

// catalog: real servers and tools
const catalog = new Map();
for (const f of fs.readdirSync(catalogDir).filter(f => f.endsWith('.json'))) {
  const j = JSON.parse(fs.readFileSync(path.join(catalogDir, f), 'utf8'));
  catalog.set(j.server, new Set(j.tools.map(t => t.name)));
}
const catalogToolNames = new Set([...catalog.values()].flatMap(s => [...s]));

const ISO6391 = new Set(('aa ab ae af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs ca ce ch co cr cs cu cv cy da de dv dz ee el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz ia id ie ig ii ik io is it iu ja jv ka kg ki kj kk kl km kn ko kr ks ku kv kw ky la lb lg li ln lo lt lu lv mg mh mi mk ml mn mr ms mt my na nb nd ne ng nl nn no nr nv ny oc oj om or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg si sk sl sm sn so sq sr ss st su sv sw ta te tg th ti tk tl tn to tr ts tt tw ty ug uk ur uz ve vi vo wa wo xh yi yo za zh zu').split(' '));

const BANNED = [
  /ignore (all )?previous instructions/i, /highest priority/i, /override/i, /disregard/i,
  /supersede/i, /takes precedence/i, /important/i,
  // a few direct translations
  /wichtig/i, /importante/i, /重要/, /優先度が最も高い/, /最高优先级/, /忽略之前/, /ignorez/i, /ignoriere/i,
  /важн/i, /중요/, /上書き/, /覆盖/, /überschreib/i, /remplac(e|er) les instructions/i,
];
// invisible, bidi, tag characters
const INVISIBLE = /[\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF\u00AD\u180E]|[\u{E0000}-\u{E007F}]/u;

const REQUIRED_FIELDS = ['id', 'class', 'voice', 'lang', 'server', 'siblings', 'tool', 'note', 'source'];
const ALLOWED_FIELDS = new Set(REQUIRED_FIELDS);

function allStrings(v, acc = []) {
  if (typeof v === 'string') acc.push(v);
  else if (Array.isArray(v)) v.forEach(x => allStrings(x, acc));
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) { acc.push(k); allStrings(x, acc); }
  return acc;
}

function checkSchemaProps(id, props, where) {
  if (!props || typeof props !== 'object' || Array.isArray(props)) { err(id, `${where}.properties is not an object`); return; }
  for (const [name, p] of Object.entries(props)) {
    const at = `${where}.properties.${name}`;
    if (!p || typeof p !== 'object') { err(id, `${at} not an object`); continue; }
    if (p.type === undefined) err(id, `${at} has no type`);
    if (typeof p.description !== 'string' || !p.description.trim()) err(id, `${at} has no description`);
    if (p.properties) checkSchemaProps(id, p.properties, at);
    if (p.items && p.items.properties) checkSchemaProps(id, p.items.properties, `${at}.items`);
    if (p.items && p.items.type === undefined) err(id, `${at}.items has no type`);
    if (p.enum && !Array.isArray(p.enum)) err(id, `${at}.enum not an array`);
    if (Array.isArray(p.required)) for (const r of p.required) if (!p.properties || !(r in p.properties)) err(id, `${at} required '${r}' not in properties`);
  }
}

const lines = fs.readFileSync(file, 'utf8').split('\n').filter(l => l.trim() !== '');
const ids = new Set();
const langs = {};
const voices = {};
const len = { short: 0, medium: 0, long: 0 };
let catalogSources = 0;
const servers = new Set();

lines.forEach((line, i) => {
  let r;
  try { r = JSON.parse(line); } catch (e) { err(`line ${i + 1}`, `invalid JSON: ${e.message}`); return; }
  const id = r.id || `line ${i + 1}`;
  for (const f of REQUIRED_FIELDS) if (r[f] === undefined) err(id, `missing field ${f}`);
  for (const f of Object.keys(r)) if (!ALLOWED_FIELDS.has(f)) err(id, `unexpected field ${f} (benign records have no where/intent)`);
  if (!/^t59-benign-\d{3}$/.test(r.id || '')) err(id, 'id must be t59-benign-NNN');
  if (ids.has(r.id)) err(id, 'duplicate id'); ids.add(r.id);
  if (r.class !== 'benign') err(id, 'class must be benign');
  if (!ISO6391.has(r.lang)) err(id, `lang '${r.lang}' not ISO 639-1`);
  if (typeof r.voice !== 'string' || !r.voice.trim()) err(id, 'voice empty');
  if (typeof r.server !== 'string' || !r.server.trim()) err(id, 'server empty');
  if (catalog.has(r.server)) err(id, `server '${r.server}' is a real catalog server; must be made up`);
  servers.add(r.server);
  if (!Array.isArray(r.siblings) || r.siblings.length === 0 || !r.siblings.every(s => typeof s === 'string' && s)) err(id, 'siblings must be a non-empty array of strings');
  if (typeof r.note !== 'string' || r.note.length < 10) err(id, 'note too short');
  if (r.source === 'new') { /* ok */ }
  else if (typeof r.source === 'string' && r.source.startsWith('catalog:')) {
    catalogSources++;
    const [srv, ...rest] = r.source.slice(8).split('/');
    const tool = rest.join('/');
    if (!catalog.has(srv)) err(id, `source server '${srv}' not in catalog`);
    else if (!catalog.get(srv).has(tool)) err(id, `source tool '${tool}' not in catalog server ${srv}`);
  } else err(id, `bad source '${r.source}'`);

  const t = r.tool || {};
  if (typeof t.name !== 'string' || !/^[A-Za-z0-9_.-]{1,64}$/.test(t.name)) err(id, `bad tool name '${t.name}'`);
  if (typeof t.description !== 'string' || !t.description.trim()) err(id, 'tool.description empty');
  const s = t.inputSchema;
  if (!s || s.type !== 'object') err(id, 'inputSchema.type must be object');
  else {
    checkSchemaProps(id, s.properties, '$.inputSchema');
    if (s.required !== undefined) {
      if (!Array.isArray(s.required)) err(id, 'required not an array');
      else for (const q of s.required) if (!(q in (s.properties || {}))) err(id, `required '${q}' not in properties`);
    }
  }

  const texts = allStrings(r.tool).concat([r.note, r.voice, r.server]);
  for (const txt of texts) {
    if (INVISIBLE.test(txt)) err(id, 'invisible/bidi/tag character found');
    for (const b of BANNED) if (b.test(txt)) err(id, `banned phrase ${b} in: ${txt.slice(0, 80)}`);
    // endpoints: only .example domains or TEST-NET addresses
    for (const m of txt.matchAll(/https?:\/\/([^\/\s"'()]+)/g)) {
      const host = m[1].toLowerCase();
      if (!/\.example$/.test(host) && !/^(198\.51\.100|203\.0\.113|192\.0\.2)\.\d+$/.test(host)) err(id, `URL host not .example/TEST-NET: ${host}`);
    }
    for (const m of txt.matchAll(/\b(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\b/g)) {
      const ip = m[0];
      if (!/^(198\.51\.100|203\.0\.113|192\.0\.2)\./.test(ip) && ip !== '0.0.0.0') err(id, `IP not TEST-NET: ${ip}`);
    }
  }
  // siblings of a benign record are the record's own (made-up) tools; note overlaps with catalog names
  for (const sb of r.siblings || []) if (catalogToolNames.has(sb)) warns.push(`${id}: sibling '${sb}' coincides with a catalog tool name (generic name, own server)`);

  langs[r.lang] = (langs[r.lang] || 0) + 1;
  voices[r.voice] = (voices[r.voice] || 0) + 1;
  const L = (t.description || '').length;
  if (L < 200) len.short++; else if (L < 700) len.medium++; else len.long++;
});

const n = lines.length;
const en = langs.en || 0;
const otherLangs = Object.keys(langs).filter(l => l !== 'en');
if (n !== 150) err('batch', `expected 150 records, found ${n}`);
if (otherLangs.length < 15) err('batch', `only ${otherLangs.length} non-English languages (need >= 15)`);
const enShare = en / n;
if (enShare < 0.5 || enShare > 0.7) err('batch', `English share ${(enShare * 100).toFixed(1)}% outside 50-70%`);
if (catalogSources > n / 5) err('batch', `${catalogSources} catalog adaptations > a fifth`);
for (const k of ['short', 'medium', 'long']) if (len[k] < n * 0.2) err('batch', `length bucket ${k} = ${len[k]} is under 20% of records`);

console.log(`file: ${path.basename(file)}`);
console.log(`records: ${n} (all class benign)`);
console.log(`English: ${en} (${(enShare * 100).toFixed(1)}%), other languages (${otherLangs.length}): ` + otherLangs.sort().map(l => `${l}=${langs[l]}`).join(' '));
console.log(`description length: short(<200)=${len.short} medium(200-699)=${len.medium} long(>=700)=${len.long}`);
console.log(`sources: new=${n - catalogSources} catalog=${catalogSources}`);
console.log(`distinct voices: ${Object.keys(voices).length}, distinct servers: ${servers.size}`);
if (warns.length) { console.log(`warnings (${warns.length}):`); warns.forEach(w => console.log('  ' + w)); }
if (errors.length) { console.log(`ERRORS (${errors.length}):`); errors.forEach(e => console.log('  ' + e)); process.exit(1); }
console.log('OK');
