// t56 validator: node t56-validate.mjs  (no dependencies)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = path.dirname(fileURLToPath(import.meta.url));
const BATCH = 't56';
const catalogDir = path.join(dir, '..', '..', 'discovery', 'catalog');
const errors = [];
const warnings = [];
const err = (id, m) => errors.push(`${id}: ${m}`);

// catalog tool names per server
const catalog = new Map(); // tool name -> set of servers
for (const f of fs.readdirSync(catalogDir).filter(f => f.endsWith('.json'))) {
  const j = JSON.parse(fs.readFileSync(path.join(catalogDir, f), 'utf8'));
  for (const t of j.tools || []) {
    if (!catalog.has(t.name)) catalog.set(t.name, new Set());
    catalog.get(t.name).add(j.server);
  }
}

const ISO6391 = new Set(('aa ab ae af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs ca ce ch co cr cs cu cv cy da de dv dz ee el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz ia id ie ig ii ik io is it iu ja jv ka kg ki kj kk kl km kn ko kr ks ku kv kw ky la lb lg li ln lo lt lu lv mg mh mi mk ml mn mr ms mt my na nb nd ne ng nl nn no nr nv ny oc oj om or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg si sk sl sm sn so sq sr ss st su sv sw ta te tg th ti tk tl tn to tr ts tt tw ty ug uk ur uz ve vi vo wa wo xh yi yo za zh zu').split(' '));

// stock phrases and direct translations (checked case-insensitively in every string of the tool)
const BANNED = [
  'ignore previous instructions', 'ignore all previous', 'highest priority', 'override', 'disregard',
  'supersede', 'takes precedence', 'important',
  // translations
  'importante', 'wichtig', 'belangrijk', 'viktig', 'vigtig', 'ważn', 'важн', 'önemli', 'quan trọng',
  'penting', 'muhimu', 'mahalaga', 'σημαντικ', 'חשוב', 'مهم', 'गुरुत्वपूर्ण', 'महत्वपूर्ण', 'গুরুত্বপূর্ণ',
  '重要', '중요', '最優先', '最高优先', '最优先', '優先順位', '우선순위', 'prioridad máxima', 'priorité absolue',
  'höchste priorität', 'massima priorità', 'prioridade máxima', 'ignora le istruzioni', 'ignora las instrucciones',
  'ignorez les instructions', 'ignoriere', 'ignorer les instructions', '忽略之前', '忽略以上', '覆盖', '覆蓋', '覆寫',
  '무시', '無視', 'تجاهل', 'نادیده بگیر', 'anular', 'passer outre', 'außer kraft', 'hat vorrang', 'tiene prioridad',
  'prevalece', 'prévaut', 'prevale', 'vorrang',
];
const INVISIBLE = /[\u00AD\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]|[\u{E0000}-\u{E007F}]/u;

function strings(o, out = []) {
  if (typeof o === 'string') out.push(o);
  else if (Array.isArray(o)) o.forEach(x => strings(x, out));
  else if (o && typeof o === 'object') for (const [k, v] of Object.entries(o)) { out.push(k); strings(v, out); }
  return out;
}

function checkProps(id, props, where) {
  if (!props || typeof props !== 'object') return;
  for (const [name, p] of Object.entries(props)) {
    const here = `${where}.${name}`;
    if (!p || typeof p !== 'object') { err(id, `${here} not an object`); continue; }
    if (!p.type) err(id, `${here} missing type`);
    if (typeof p.description !== 'string' || !p.description.trim()) err(id, `${here} missing description`);
    if (p.properties) checkProps(id, p.properties, `${here}.properties`);
    if (p.items && p.items.properties) checkProps(id, p.items.properties, `${here}.items.properties`);
  }
}

// resolve a restricted JSONPath against the tool object
function resolve(tool, where) {
  if (!where.startsWith('$')) return { ok: false };
  const re = /\.([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]|\["([^"]+)"\]/gy;
  let rest = where.slice(1); let cur = tool; let lastKey = null; let parent = null; let m;
  re.lastIndex = 0; let pos = 0;
  while (pos < rest.length) {
    re.lastIndex = pos; m = re.exec(rest);
    if (!m) return { ok: false };
    const key = m[1] ?? (m[2] !== undefined ? Number(m[2]) : m[3]);
    const isNameRef = m[3] !== undefined;
    parent = cur; lastKey = key;
    if (cur == null || !(key in Object(cur))) return { ok: false };
    cur = cur[key]; pos = re.lastIndex;
    if (isNameRef && pos === rest.length) return { ok: true, value: key, nameRef: true };
  }
  return { ok: true, value: cur };
}

const URL_RE = /\bhttps?:\/\/([^\s/"'`)<>]+)/gi;
const DOMAIN_RE = /\b([a-z0-9][a-z0-9-]*(?:\.[a-z0-9-]+)*\.(?:com|net|org|io|ai|dev|app|co|info|biz|xyz|ru|cn|de|fr|es|it|br|in|ir|jp|kr|tw|uk|example))\b/gi;
const IP_RE = /\b(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\b/g;
function hostOk(h) {
  h = h.toLowerCase().replace(/:\d+$/, '');
  if (h.endsWith('.example') || h === 'example') return true;
  if (/^(198\.51\.100|203\.0\.113|192\.0\.2)\.\d+$/.test(h)) return true;
  return false;
}

const ids = new Set();
const stats = {};
function lenBucket(n) { return n < 200 ? 'short' : n < 700 ? 'medium' : 'long'; }

function checkFile(file, kind) {
  const fp = path.join(dir, file);
  const lines = fs.readFileSync(fp, 'utf8').split('\n').filter(l => l.trim());
  const s = { records: 0, langs: {}, short: 0, medium: 0, long: 0, where: {}, english: 0 };
  lines.forEach((line, i) => {
    let r;
    try { r = JSON.parse(line); } catch (e) { err(`${file}:${i + 1}`, `bad JSON ${e.message}`); return; }
    const id = r.id || `${file}:${i + 1}`;
    s.records++;
    if (ids.has(id)) err(id, 'duplicate id'); ids.add(id);
    const cls = kind === 'benign' ? 'benign' : kind;
    if (!new RegExp(`^${BATCH}-${cls}-\\d{3}$`).test(id)) err(id, 'id format');
    if (r.class !== cls) err(id, `class ${r.class} != ${cls}`);
    for (const f of ['voice', 'lang', 'server']) if (typeof r[f] !== 'string' || !r[f]) err(id, `missing ${f}`);
    if (!ISO6391.has(r.lang)) err(id, `lang ${r.lang} not ISO 639-1`);
    s.langs[r.lang] = (s.langs[r.lang] || 0) + 1;
    if (r.lang === 'en') s.english++;
    if (!/^[a-z0-9][a-z0-9-]*$/.test(r.server || '')) err(id, `server name ${r.server} should be lowercase ascii`);
    if (!Array.isArray(r.siblings) || !r.siblings.length) err(id, 'siblings missing');
    const t = r.tool;
    if (!t || typeof t.name !== 'string' || typeof t.description !== 'string') { err(id, 'tool name/description'); return; }
    if (!t.inputSchema || t.inputSchema.type !== 'object') err(id, 'inputSchema.type must be object');
    checkProps(id, t.inputSchema?.properties, '$.inputSchema.properties');
    for (const req of t.inputSchema?.required || []) if (!(req in (t.inputSchema.properties || {}))) err(id, `required ${req} not a property`);
    if (catalog.has(t.name) && kind !== 'benign') warnings.push(`${id}: tool name ${t.name} also exists in catalog`);
    const all = strings(t).join('\n');
    const low = all.toLowerCase();
    for (const b of BANNED) if (low.includes(b.toLowerCase())) err(id, `banned phrase "${b}"`);
    if (INVISIBLE.test(JSON.stringify(r).replace(/\\u[0-9a-fA-F]{4}/g, '')) || INVISIBLE.test(all)) err(id, 'invisible/bidi/tag character');
    for (const m of all.matchAll(URL_RE)) if (!hostOk(m[1])) err(id, `URL host not .example/TEST-NET: ${m[1]}`);
    for (const m of all.matchAll(DOMAIN_RE)) if (!hostOk(m[1])) err(id, `domain not .example: ${m[1]}`);
    for (const m of all.matchAll(IP_RE)) if (!hostOk(m[0])) err(id, `IP not TEST-NET: ${m[0]}`);
    const n = t.description.length; s[lenBucket(n)]++;
    if (kind === 'benign') {
      if ('where' in r || 'intent' in r) err(id, 'benign must not have where/intent');
      if (typeof r.note !== 'string' || !r.note) err(id, 'benign note missing');
      if (!(r.source === 'new' || /^catalog:[^/]+\/.+$/.test(r.source || ''))) err(id, `bad source ${r.source}`);
      for (const sib of r.siblings || []) if (catalog.has(sib)) warnings.push(`${id}: benign sibling ${sib} coincides with a catalog tool name`);
    } else {
      if (typeof r.intent !== 'string' || !r.intent) err(id, 'intent missing');
      if ('note' in r || 'source' in r) err(id, 'poisoned must not have note/source');
      const res = resolve(t, r.where || '');
      if (!res.ok) err(id, `where ${r.where} does not resolve`);
      else if (typeof res.value !== 'string') err(id, `where ${r.where} is not a string`);
      const w = (r.where || '').replace(/\[\d+\]/g, '[]').replace(/properties\.[^.\[]+/g, 'properties.*');
      s.where[w] = (s.where[w] || 0) + 1;
      for (const sib of r.siblings || []) {
        const servers = catalog.get(sib);
        if (!servers) err(id, `sibling ${sib} is not a catalog tool`);
        else if (servers.has(r.server)) err(id, `sibling ${sib} belongs to the record's own server`);
      }
    }
  });
  stats[file] = s;
}

checkFile(`${BATCH}-p1.jsonl`, 'p1');
checkFile(`${BATCH}-benign.jsonl`, 'benign');

for (const [f, s] of Object.entries(stats)) {
  console.log(`${f}: ${s.records} records, en ${s.english} (${Math.round(100 * s.english / s.records)}%), ` +
    `${Object.keys(s.langs).length} languages, lengths short/medium/long ${s.short}/${s.medium}/${s.long}`);
  console.log('  langs', JSON.stringify(s.langs));
  if (Object.keys(s.where).length) console.log('  where', JSON.stringify(s.where));
}
const allLangs = new Set(Object.values(stats).flatMap(s => Object.keys(s.langs)));
console.log(`languages overall: ${allLangs.size}`);
if (allLangs.size < 25) err('batch', `only ${allLangs.size} languages (< 25)`);
warnings.forEach(w => console.log('WARN', w));
if (errors.length) { errors.forEach(e => console.log('ERROR', e)); console.log(`FAIL: ${errors.length} errors`); process.exit(1); }
console.log('OK');
