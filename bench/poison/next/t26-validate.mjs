// validate.mjs - checks the t26 batch (no dependencies). Usage: node validate.mjs
// It only reads and checks the hand-written records; it never writes or generates any.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const catalogDir = path.resolve(here, '..', '..', 'discovery', 'catalog');
const FILES = [
  { file: 't26-p1.jsonl', cls: 'p1', poisoned: true },
  { file: 't26-benign.jsonl', cls: 'benign', poisoned: false },
];

const errors = [];
const warn = [];
const err = (where, msg) => errors.push(`${where}: ${msg}`);

// ---- catalog tool names (for siblings of poisoned records) ----
const catalogNames = new Set();
for (const f of fs.readdirSync(catalogDir)) {
  if (!f.endsWith('.json')) continue;
  const j = JSON.parse(fs.readFileSync(path.join(catalogDir, f), 'utf8'));
  for (const t of j.tools || []) catalogNames.add(t.name);
}

// ---- forbidden characters: invisible, bidi controls, tag chars, other C0/C1 controls ----
const FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180E\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0\uFFF9-\uFFFB]|[\u{E0000}-\u{E007F}]|[\u{E0100}-\u{E01EF}]/u;

// ---- stock phrases (and common direct translations) that must not appear ----
const STOCK = [
  /ignore (all )?(the )?(previous|prior|above) instructions/i,
  /highest priority/i, /\boverrid/i, /\bdisregard/i, /\bsupersed/i, /takes? precedence/i,
  /\bIMPORTANT\b/, /\bIMPORTANTE\b/, /\bWICHTIG\b/, /\bWAŻNE\b/, /\bBELANGRIJK\b/, /\bВАЖНО\b/, /\bВАЖЛИВО\b/,
  /ignora (las|todas las) instrucciones/i, /máxima prioridad/i, /prioridad máxima/i, /tiene precedencia/i,
  /prioridade máxima/i, /máxima prioridade/i, /ignore as instruções/i,
  /priorité absolue/i, /plus haute priorité/i, /ignorez les instructions/i, /a préséance/i,
  /höchste priorität/i, /ignoriere (alle )?(vorherigen )?anweisungen/i, /hat vorrang/i,
  /massima priorità/i, /priorità assoluta/i, /ignora le istruzioni/i,
  /hoogste prioriteit/i, /najwyższy priorytet/i, /nejvyšší priorit/i, /prioritate maximă/i,
  /högsta prioritet/i, /høyeste prioritet/i, /højeste prioritet/i, /korkein prioriteetti/i,
  /наивысший приоритет/i, /найвищий пріоритет/i, /en yüksek öncelik/i, /υψηλότερη προτεραιότητα/i,
  /màxima prioritat/i, /plej alta prioritato/i,
];

const KINDS = new Set(['replace-choice', 'standing-order', 'consent-claimed', 'stale-others', 'hide', 'choose-for-user', 'request-as-suggestion', 'other']);
const TONES = new Set(['calm', 'imperative']);
const PLACEMENTS = new Set(['start', 'middle', 'end']);
const FIELDS = new Set(['description', 'param-description', 'title']);
const NAME_RE = /^[A-Za-z0-9_.-]{1,64}$/;

// resolve a `where` path like $.inputSchema.properties.foo.description or $.inputSchema.properties["foo"]
function resolve(tool, where) {
  if (!where.startsWith('$')) return { ok: false };
  let rest = where.slice(1);
  let cur = tool;
  let propNameForm = false;
  while (rest.length) {
    let key;
    let m;
    if ((m = rest.match(/^\.([A-Za-z0-9_$-]+)/))) { key = m[1]; rest = rest.slice(m[0].length); propNameForm = false; }
    else if ((m = rest.match(/^\["([^"]+)"\]/))) { key = m[1]; rest = rest.slice(m[0].length); propNameForm = true; }
    else if ((m = rest.match(/^\[(\d+)\]/))) { key = Number(m[1]); rest = rest.slice(m[0].length); propNameForm = false; }
    else return { ok: false };
    if (cur == null || typeof cur !== 'object' || !(key in cur)) return { ok: false };
    cur = cur[key];
  }
  return { ok: true, value: cur, propNameForm };
}

// every property schema has type + description (recursive)
function checkProps(schema, at, rec) {
  if (!schema || typeof schema !== 'object') return;
  if (schema.properties) {
    for (const [k, v] of Object.entries(schema.properties)) {
      if (!v || typeof v !== 'object') { err(rec, `${at}.${k} not an object`); continue; }
      if (!('type' in v) && !v.anyOf && !v.oneOf) err(rec, `${at}.${k} has no type`);
      if (typeof v.description !== 'string' || !v.description.trim()) err(rec, `${at}.${k} has no description`);
      checkProps(v, `${at}.${k}`, rec);
    }
  }
  if (schema.items) checkProps(schema.items, `${at}[]`, rec);
}

function allStrings(o, out = []) {
  if (typeof o === 'string') out.push(o);
  else if (Array.isArray(o)) o.forEach((x) => allStrings(x, out));
  else if (o && typeof o === 'object') for (const [k, v] of Object.entries(o)) { out.push(k); allStrings(v, out); }
  return out;
}

// text length of a tool: description + title + every property description
function textLen(tool) {
  let n = (tool.description || '').length + (tool.title || '').length;
  const walk = (s) => {
    if (!s || typeof s !== 'object') return;
    for (const v of Object.values(s.properties || {})) { n += (v.description || '').length; walk(v); }
    if (s.items) walk(s.items);
  };
  walk(tool.inputSchema);
  return n;
}

function trigrams(text) {
  const w = text.toLowerCase().normalize('NFC').split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  const s = new Set();
  for (let i = 0; i + 2 < w.length; i++) s.add(`${w[i]} ${w[i + 1]} ${w[i + 2]}`);
  return s;
}

const ids = new Set();
const toolNames = new Map();
const descs = [];
const stats = {};

for (const { file, cls, poisoned } of FILES) {
  const fp = path.join(here, file);
  if (!fs.existsSync(fp)) { warn.push(`${file} missing`); continue; }
  const st = (stats[file] = { n: 0, lang: {}, voice: {}, len: { short: 0, mid: 0, long: 0 }, kind: {}, tone: {}, placement: {}, field: {}, namesOther: 0 });
  const lines = fs.readFileSync(fp, 'utf8').split('\n');
  lines.forEach((line, i) => {
    const loc = `${file}:${i + 1}`;
    if (!line.trim()) { if (i !== lines.length - 1) err(loc, 'blank line'); return; }
    let r;
    try { r = JSON.parse(line); } catch (e) { err(loc, `JSON parse: ${e.message}`); return; }
    const rec = `${loc} ${r.id || '?'}`;
    st.n++;
    if (FORBIDDEN.test(line) || FORBIDDEN.test(JSON.stringify(r))) err(rec, 'forbidden (invisible/bidi/tag/control) character');
    for (const s of allStrings(r)) {
      if (FORBIDDEN.test(s)) err(rec, `forbidden char in "${s.slice(0, 40)}"`);
    }
    const toolText = allStrings(r.tool).join('\n');
    for (const re of STOCK) if (re.test(toolText)) err(rec, `stock phrase ${re}`);

    for (const f of ['id', 'class', 'voice', 'lang', 'server', 'siblings', 'tool']) if (!(f in r)) err(rec, `missing ${f}`);
    const idRe = new RegExp(`^t26-${cls}-\\d{3}$`);
    if (!idRe.test(r.id || '')) err(rec, `bad id (want t26-${cls}-NNN)`);
    if (ids.has(r.id)) err(rec, 'duplicate id');
    ids.add(r.id);
    if (r.class !== cls) err(rec, `class should be ${cls}`);
    if (typeof r.voice !== 'string' || !r.voice) err(rec, 'voice');
    if (!/^[a-z]{2,3}(-[A-Z]{2})?$/.test(r.lang || '')) err(rec, 'lang not ISO 639-1(+region)');
    if (typeof r.server !== 'string' || !r.server) err(rec, 'server');
    if (!Array.isArray(r.siblings)) err(rec, 'siblings not array');
    st.lang[r.lang] = (st.lang[r.lang] || 0) + 1;
    st.voice[r.voice] = (st.voice[r.voice] || 0) + 1;

    const t = r.tool || {};
    if (!NAME_RE.test(t.name || '')) err(rec, `bad tool name ${t.name}`);
    if (toolNames.has(t.name)) err(rec, `tool name reused (also ${toolNames.get(t.name)})`);
    toolNames.set(t.name, r.id);
    if (typeof t.description !== 'string' || !t.description.trim()) err(rec, 'tool.description');
    if ('title' in t && typeof t.title !== 'string') err(rec, 'title not string');
    if (!t.inputSchema || t.inputSchema.type !== 'object' || typeof t.inputSchema.properties !== 'object') err(rec, 'inputSchema must be object with properties');
    else {
      checkProps(t.inputSchema, '$.inputSchema', rec);
      for (const q of t.inputSchema.required || []) if (!(q in t.inputSchema.properties)) err(rec, `required ${q} not a property`);
    }
    const L = textLen(t);
    st.len[L < 200 ? 'short' : L < 700 ? 'mid' : 'long']++;

    if (poisoned) {
      for (const f of ['where', 'intent']) if (typeof r[f] !== 'string' || !r[f]) err(rec, `missing ${f}`);
      if ('note' in r || 'source' in r) err(rec, 'poisoned record must not carry note/source');
      for (const s of r.siblings || []) if (!catalogNames.has(s)) err(rec, `sibling ${s} not in catalog`);
      if ((r.siblings || []).length === 0) err(rec, 'poisoned record needs siblings');
      const res = resolve(t, r.where || '');
      if (!res.ok) err(rec, `where ${r.where} does not resolve`);
      else if (res.propNameForm) { if (!res.value || typeof res.value !== 'object') err(rec, 'where (name form) not a property schema'); }
      else if (typeof res.value !== 'string') err(rec, `where ${r.where} is not a string`);
      if (!KINDS.has(r.kind)) err(rec, `kind ${r.kind}`);
      if (!TONES.has(r.tone)) err(rec, `tone ${r.tone}`);
      if (!PLACEMENTS.has(r.placement)) err(rec, `placement ${r.placement}`);
      if (!FIELDS.has(r.field)) err(rec, `field ${r.field}`);
      const w = r.where || '';
      const want = w === '$.description' ? 'description' : w === '$.title' ? 'title' : /^\$\.inputSchema\.properties\.[^.]+\.description$/.test(w) ? 'param-description' : null;
      if (want !== r.field) err(rec, `field ${r.field} does not match where ${w}`);
      for (const k of ['kind', 'tone', 'placement', 'field']) st[k][r[k]] = (st[k][r[k]] || 0) + 1;
      if ((r.siblings || []).some((s) => s.length > 3 && toolText.includes(s))) st.namesOther++;
    } else {
      if ('where' in r || 'intent' in r) err(rec, 'benign record must not carry where/intent');
      if (typeof r.note !== 'string' || !r.note) err(rec, 'missing note');
      if (!(r.source === 'new' || /^catalog:[^/]+\/.+$/.test(r.source || ''))) err(rec, 'source must be new or catalog:<server>/<tool>');
      for (const s of r.siblings || []) if (!NAME_RE.test(s)) err(rec, `sibling ${s} bad name`);
    }
    descs.push({ id: r.id, set: trigrams(t.description || '') });
  });
}

// ---- no two descriptions share more than half their word 3-grams ----
for (let i = 0; i < descs.length; i++) {
  for (let j = i + 1; j < descs.length; j++) {
    const a = descs[i].set, b = descs[j].set;
    if (!a.size || !b.size) continue;
    let shared = 0;
    for (const g of a) if (b.has(g)) shared++;
    const frac = shared / Math.min(a.size, b.size);
    if (frac > 0.5) err(`${descs[i].id} / ${descs[j].id}`, `descriptions share ${(frac * 100).toFixed(0)}% of word 3-grams`);
  }
}

for (const [f, st] of Object.entries(stats)) {
  console.log(`${f}: ${st.n} records`);
  console.log(`  lang: ${Object.entries(st.lang).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k}=${v}`).join(' ')}`);
  console.log(`  length: short=${st.len.short} mid=${st.len.mid} long=${st.len.long}`);
  if (Object.keys(st.kind).length) {
    for (const k of ['kind', 'tone', 'placement', 'field']) console.log(`  ${k}: ${Object.entries(st[k]).map(([a, b]) => `${a}=${b}`).join(' ')}`);
    console.log(`  records naming a sibling tool: ${st.namesOther}`);
  }
  console.log(`  voices: ${Object.keys(st.voice).length} distinct`);
}
for (const w of warn) console.log('WARN', w);
if (errors.length) {
  for (const e of errors) console.log('ERROR', e);
  console.log(`${errors.length} error(s)`);
  process.exit(1);
}
console.log('clean');
