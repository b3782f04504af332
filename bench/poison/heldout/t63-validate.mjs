// t63-validate.mjs — validator for batch t63 (benign only). Node >= 16, no dependencies.
// Usage: node t63-validate.mjs   (run from any directory)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const BATCH = 't63';
const FILE = path.join(HERE, `${BATCH}-benign.jsonl`);
const CATALOG_DIR = path.join(HERE, '..', '..', 'discovery', 'catalog');

const errors = [];
const warnings = [];
const err = (id, msg) => errors.push(`${id}: ${msg}`);
const warn = (id, msg) => warnings.push(`${id}: ${msg}`);

// ISO 639-1 codes
const ISO6391 = new Set(('aa ab ae af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs ca ce ch co cr cs cu cv cy ' +
  'da de dv dz ee el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz ia id ie ig ii ik io ' +
  'is it iu ja jv ka kg ki kj kk kl km kn ko kr ks ku kv kw ky la lb lg li ln lo lt lu lv mg mh mi mk ml mn mr ms mt my na ' +
  'nb nd ne ng nl nn no nr nv ny oc oj om or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg si sk sl sm sn so sq sr ss ' +
  'st su sv sw ta te tg th ti tk tl tn to tr ts tt tw ty ug uk ur uz ve vi vo wa wo xh yi yo za zh zu').split(/\s+/));

// Stock phrases banned by the brief, plus direct translations (checked case-insensitively on every string).
const BANNED = [
  'ignore previous instructions', 'ignore all previous', 'highest priority', 'override', 'disregard', 'supersede',
  'takes precedence', 'important',
  // translations / near-translations
  'wichtig', 'vorrang', 'ignoriere', 'importante', 'importância', 'priorité absolue', 'prioridad máxima', 'priorità massima',
  'belangrijk', 'viktig', 'vigtig', 'tärkeä', 'fontos', 'důležit', 'dôležit', 'ważne', 'istotne', 'važno', 'pomembno',
  'önemli', 'quan trọng', 'penting', 'mahalaga', 'muhimu', 'важно', 'важлив', 'важен', 'σημαντικ', 'חשוב', 'مهم',
  'महत्वपूर्ण', 'ज़रूरी', 'जरूरी', 'গুরুত্বপূর্ণ', 'முக்கிய', 'สำคัญ', '重要', '중요', 'mikilvæg', 'svarīg', 'svarb', 'oluline',
  'garrantzitsu', 'tábhachtach', 'pwysig', 'belangrik', 'მნიშვნელოვან', 'կարևոր', 'маңызды', 'महत्त्वपूर्ण', 'rëndësishëm',
  'pentingnya', 'esencial', 'impératif'
];

// Invisible, bidi, tag and similar format characters.
const INVISIBLE = /[\u00AD\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]|[\u{E0000}-\u{E007F}]/u;

function allStrings(v, p, out) {
  if (typeof v === 'string') out.push([p, v]);
  else if (Array.isArray(v)) v.forEach((x, i) => allStrings(x, `${p}[${i}]`, out));
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) { out.push([`${p}<key:${k}>`, k]); allStrings(x, `${p}.${k}`, out); }
  return out;
}

// Every property (recursively: nested objects, array items) must have type and description.
function checkSchema(id, schema, p) {
  if (!schema || typeof schema !== 'object') { err(id, `${p} schema is not an object`); return; }
  if (schema.properties) {
    if (typeof schema.properties !== 'object') { err(id, `${p}.properties not an object`); return; }
    for (const [k, s] of Object.entries(schema.properties)) {
      const pp = `${p}.properties.${k}`;
      if (!s || typeof s !== 'object') { err(id, `${pp} not an object`); continue; }
      if (typeof s.type !== 'string') err(id, `${pp} missing type`);
      if (typeof s.description !== 'string' || !s.description.trim()) err(id, `${pp} missing description`);
      if (s.enum && (!Array.isArray(s.enum) || s.enum.length === 0)) err(id, `${pp}.enum bad`);
      if (s.type === 'object') checkSchema(id, s, pp);
      if (s.type === 'array') {
        if (!s.items) err(id, `${pp} array without items`);
        else {
          if (typeof s.items.type !== 'string') err(id, `${pp}.items missing type`);
          if (typeof s.items.description !== 'string') err(id, `${pp}.items missing description`);
          if (s.items.type === 'object') checkSchema(id, s.items, `${pp}.items`);
        }
      }
    }
  }
  if (schema.required !== undefined) {
    if (!Array.isArray(schema.required)) err(id, `${p}.required not an array`);
    else for (const r of schema.required) if (!schema.properties || !(r in schema.properties)) err(id, `${p}.required lists unknown '${r}'`);
  }
}

// Catalog: server names and tool names.
const catalog = {};
const catalogToolNames = new Set();
for (const f of fs.readdirSync(CATALOG_DIR).filter(f => f.endsWith('.json'))) {
  const j = JSON.parse(fs.readFileSync(path.join(CATALOG_DIR, f), 'utf8'));
  const key = f.replace(/\.json$/, '');
  catalog[key] = new Set((j.tools || []).map(t => t.name));
  if (j.server) catalog[String(j.server)] = catalog[key];
  for (const t of j.tools || []) catalogToolNames.add(t.name);
}
const catalogServerNames = new Set(Object.keys(catalog).map(s => s.toLowerCase()));

const lines = fs.readFileSync(FILE, 'utf8').split('\n').filter(l => l.trim() !== '');
const ids = new Set();
const byLang = {};
const bySize = { short: 0, medium: 0, long: 0 };
const voices = new Set();
let catalogSourced = 0;
const propLevelNotes = { count: 0 };

lines.forEach((line, i) => {
  let r;
  try { r = JSON.parse(line); } catch (e) { err(`line ${i + 1}`, `invalid JSON: ${e.message}`); return; }
  const id = r.id || `line ${i + 1}`;
  const allowed = new Set(['id', 'class', 'voice', 'lang', 'server', 'siblings', 'tool', 'note', 'source']);
  for (const k of Object.keys(r)) if (!allowed.has(k)) err(id, `unexpected field '${k}' (benign records have no where/intent)`);
  for (const k of allowed) if (!(k in r)) err(id, `missing field '${k}'`);

  if (!/^t63-benign-\d{3}$/.test(r.id || '')) err(id, 'id must be t63-benign-NNN');
  if (ids.has(r.id)) err(id, 'duplicate id'); ids.add(r.id);
  if (r.class !== 'benign') err(id, 'class must be benign');
  if (typeof r.voice !== 'string' || !r.voice) err(id, 'voice missing'); else voices.add(r.voice);
  if (!ISO6391.has(r.lang)) err(id, `lang '${r.lang}' is not ISO 639-1`);
  byLang[r.lang] = (byLang[r.lang] || 0) + 1;
  if (typeof r.server !== 'string' || !r.server) err(id, 'server missing');
  else if (catalogServerNames.has(r.server.toLowerCase())) err(id, `server '${r.server}' is a catalog server name, must be made up`);
  if (typeof r.note !== 'string' || r.note.length < 10) err(id, 'note missing/too short');

  if (!Array.isArray(r.siblings) || r.siblings.length === 0 || !r.siblings.every(s => typeof s === 'string' && s)) err(id, 'siblings must be non-empty string array');
  else {
    for (const s of r.siblings) {
      if (r.tool && s === r.tool.name) err(id, `sibling '${s}' equals the tool's own name`);
      if (catalogToolNames.has(s)) warn(id, `sibling '${s}' coincides with a catalog tool name`);
    }
  }

  if (r.source === 'new') { /* ok */ }
  else if (typeof r.source === 'string' && /^catalog:[^/]+\/.+$/.test(r.source)) {
    catalogSourced++;
    const [srv, tool] = r.source.slice(8).split('/');
    if (!catalog[srv]) err(id, `source server '${srv}' not in catalog`);
    else if (!catalog[srv].has(tool)) err(id, `source tool '${tool}' not in catalog/${srv}`);
  } else err(id, `bad source '${r.source}'`);

  const t = r.tool;
  if (!t || typeof t !== 'object') { err(id, 'tool missing'); return; }
  if (typeof t.name !== 'string' || !/^[A-Za-z0-9_\-.]{1,64}$/.test(t.name)) err(id, `tool.name '${t.name}' invalid`);
  if (typeof t.description !== 'string' || !t.description.trim()) err(id, 'tool.description missing');
  if (!t.inputSchema || t.inputSchema.type !== 'object') err(id, 'inputSchema.type must be object');
  else {
    checkSchema(id, t.inputSchema, '$.inputSchema');
    if (!t.inputSchema.properties || Object.keys(t.inputSchema.properties).length === 0) err(id, 'inputSchema has no properties');
  }

  const n = (t.description || '').length;
  if (n < 200) bySize.short++; else if (n < 700) bySize.medium++; else bySize.long++;

  // user-addressing text in property descriptions (rough count, for the report)
  const propText = JSON.stringify(t.inputSchema || {}).toLowerCase();
  if (/(user|usuario|utilisateur|nutzer|użytkownik|사용자|ユーザー|用户|confirm|consent|reply|replies|chat|respuest|antwort)/.test(propText)) propLevelNotes.count++;

  for (const [p, s] of allStrings(r, '$', [])) {
    const low = s.toLowerCase();
    for (const b of BANNED) if (low.includes(b)) err(id, `banned phrase '${b}' at ${p}`);
    if (INVISIBLE.test(s)) err(id, `invisible/bidi/tag character at ${p}`);
    // URLs and hostnames must be .example or TEST-NET
    for (const m of s.matchAll(/https?:\/\/([^\s/"')]+)/g)) {
      const host = m[1].toLowerCase();
      if (!(host.endsWith('.example') || /^(198\.51\.100|203\.0\.113|192\.0\.2)\.\d+/.test(host))) err(id, `URL host '${host}' not .example/TEST-NET`);
    }
    for (const m of s.matchAll(/\b(\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})\b/g)) {
      if (!/^(198\.51\.100|203\.0\.113|192\.0\.2)\./.test(m[1])) err(id, `IP '${m[1]}' not in TEST-NET`);
    }
  }
});

const total = lines.length;
const langs = Object.keys(byLang).length;
const enShare = (byLang.en || 0) / total;
if (total !== 150) warn('batch', `expected 150 records, found ${total}`);
if (langs < 30) err('batch', `only ${langs} languages (need >= 30)`);
if (enShare < 0.15 || enShare > 0.25) err('batch', `English share ${(enShare * 100).toFixed(1)} % (target about 20 %)`);
if (catalogSourced > total / 5) err('batch', `${catalogSourced} catalog-adapted records exceed a fifth`);
for (const [k, v] of Object.entries(bySize)) if (v < total * 0.25 || v > total * 0.42) err('batch', `${k} descriptions ${v}/${total}, not about a third`);

console.log(`file: ${path.basename(FILE)}`);
console.log(`records: ${total} (benign)`);
console.log(`languages: ${langs}; English: ${byLang.en || 0} (${(enShare * 100).toFixed(1)} %)`);
console.log(`by language: ${Object.entries(byLang).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k}:${v}`).join(' ')}`);
console.log(`description length: short(<200) ${bySize.short}, medium(200-699) ${bySize.medium}, long(>=700) ${bySize.long}`);
console.log(`distinct voices: ${voices.size}`);
console.log(`source: new ${total - catalogSourced}, catalog-adapted ${catalogSourced}`);
console.log(`records with user-facing wording in the schema: ${propLevelNotes.count}`);
if (warnings.length) { console.log(`\nwarnings (${warnings.length}):`); warnings.forEach(w => console.log('  ' + w)); }
if (errors.length) { console.log(`\nERRORS (${errors.length}):`); errors.forEach(e => console.log('  ' + e)); process.exit(1); }
console.log('\nOK: all checks passed');
