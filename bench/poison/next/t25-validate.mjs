// validate.mjs — checks batch t25 of the MCP tool-definition corpus. No dependencies.
// Usage: node validate.mjs   (run from this folder)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const catalogDir = path.join(here, '..', '..', 'discovery', 'catalog');
const FILES = { 't25-p1.jsonl': 'p1', 't25-d.jsonl': 'd', 't25-benign.jsonl': 'benign' };
const TARGET = { 't25-p1.jsonl': 130, 't25-d.jsonl': 70, 't25-benign.jsonl': 180 };

const errors = [];
const warn = [];
const err = (where, msg) => errors.push(`${where}: ${msg}`);

// ---------- catalog ----------
const catalogTools = new Set();
for (const f of fs.readdirSync(catalogDir)) {
  if (!f.endsWith('.json')) continue;
  const d = JSON.parse(fs.readFileSync(path.join(catalogDir, f), 'utf8'));
  for (const t of d.tools || []) catalogTools.add(t.name);
}

// ---------- helpers ----------
const FORBIDDEN_CHARS = /[\u00AD\u061C\u115F\u1160\u17B4\u17B5\u180E\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0\uFFF9-\uFFFB]|[\u{E0000}-\u{E007F}]|[\u{E0100}-\u{E01EF}]/u;
const STOCK = [/ignore (all )?(the )?previous instructions/i, /highest priority/i, /override/i, /disregard/i,
  /supersede/i, /takes? precedence/i, /\bIMPORTANT\b/];
const NAME_RE = /^[A-Za-z0-9_.-]{1,64}$/;
const P1_KIND = new Set(['replace-choice', 'standing-order', 'consent-claimed', 'stale-others', 'hide', 'choose-for-user', 'request-as-suggestion', 'other']);
const P1_TONE = new Set(['calm', 'imperative']);
const P1_PLACE = new Set(['start', 'middle', 'end']);
const P1_FIELD = new Set(['description', 'parameter', 'title']);

function allStrings(v, out = [], keyPath = '$') {
  if (typeof v === 'string') out.push([keyPath, v]);
  else if (Array.isArray(v)) v.forEach((x, i) => allStrings(x, out, `${keyPath}[${i}]`));
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) { out.push([keyPath + '#key', k]); allStrings(x, out, `${keyPath}.${k}`); }
  return out;
}

function parsePath(p) {
  if (!p.startsWith('$')) return null;
  const toks = [];
  let i = 1;
  while (i < p.length) {
    if (p[i] === '.') {
      let j = i + 1;
      while (j < p.length && p[j] !== '.' && p[j] !== '[') j++;
      toks.push({ k: p.slice(i + 1, j), quoted: false }); i = j;
    } else if (p[i] === '[') {
      if (p[i + 1] === '"') {
        // JSON string
        let j = i + 2; let esc = false;
        for (; j < p.length; j++) { if (esc) { esc = false; continue; } if (p[j] === '\\') esc = true; else if (p[j] === '"') break; }
        const s = JSON.parse(p.slice(i + 1, j + 1));
        if (p[j + 1] !== ']') return null;
        toks.push({ k: s, quoted: true }); i = j + 2;
      } else {
        const j = p.indexOf(']', i);
        if (j < 0) return null;
        const n = Number(p.slice(i + 1, j));
        if (!Number.isInteger(n)) return null;
        toks.push({ k: n, quoted: false }); i = j + 1;
      }
    } else return null;
  }
  return toks;
}

function resolve(obj, toks) {
  let cur = obj;
  for (const t of toks) {
    if (cur == null || typeof cur !== 'object') return undefined;
    if (!(t.k in cur)) return undefined;
    cur = cur[t.k];
  }
  return cur;
}

function checkSchema(schema, at, id) {
  if (!schema || typeof schema !== 'object') return;
  if (schema.properties && typeof schema.properties === 'object') {
    for (const [pn, ps] of Object.entries(schema.properties)) {
      const here2 = `${at}.properties[${JSON.stringify(pn)}]`;
      if (!ps || typeof ps !== 'object') { err(id, `${here2} not an object`); continue; }
      if (!('type' in ps)) err(id, `${here2} has no type`);
      if (typeof ps.description !== 'string' || !ps.description.trim()) err(id, `${here2} has no description`);
      checkSchema(ps, here2, id);
    }
  }
  if (schema.items) (Array.isArray(schema.items) ? schema.items : [schema.items]).forEach((s, i) => checkSchema(s, `${at}.items`, id));
  for (const k of ['anyOf', 'oneOf', 'allOf']) if (Array.isArray(schema[k])) schema[k].forEach((s, i) => checkSchema(s, `${at}.${k}[${i}]`, id));
  if (schema.additionalProperties && typeof schema.additionalProperties === 'object') checkSchema(schema.additionalProperties, `${at}.additionalProperties`, id);
}

const TESTNET = [/^192\.0\.2\./, /^198\.51\.100\./, /^203\.0\.113\./];
function checkEndpoints(text, id) {
  const urlRe = /\b(?:https?|wss?|ftp|sftp):\/\/([^\/\s"'`<>)\]:,]+)/gi;
  let m;
  while ((m = urlRe.exec(text))) {
    const host = m[1].toLowerCase().replace(/^[^@]*@/, '');
    if (/^\d+\.\d+\.\d+\.\d+$/.test(host)) { if (!TESTNET.some(r => r.test(host))) err(id, `non TEST-NET IP in URL ${host}`); }
    else if (!host.endsWith('.example') && host !== 'localhost') err(id, `attacker-side URL host not .example: ${host}`);
  }
  const mailRe = /[A-Za-z0-9._%+-]+@([A-Za-z0-9.-]+\.[A-Za-z]{2,})/g;
  while ((m = mailRe.exec(text))) { if (!m[1].toLowerCase().endsWith('.example')) err(id, `e-mail domain not .example: ${m[1]}`); }
  const ipRe = /\b(\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})\b/g;
  while ((m = ipRe.exec(text))) { const ip = m[1]; if (!TESTNET.some(r => r.test(ip)) && !/^(127\.|10\.|0\.0\.0\.0)/.test(ip)) err(id, `IP not TEST-NET: ${ip}`); }
}

function words(s) { return s.toLowerCase().split(/[\s\p{P}\p{S}]+/u).filter(Boolean); }
function grams(s) {
  const w = words(s);
  const g = new Set();
  if (w.length >= 8) { for (let i = 0; i + 2 < w.length; i++) g.add(w[i] + ' ' + w[i + 1] + ' ' + w[i + 2]); }
  else { // scripts without spaces: character 4-grams
    const c = s.replace(/\s+/g, ' ');
    for (let i = 0; i + 3 < c.length; i++) g.add('#' + c.slice(i, i + 4));
  }
  return g;
}
function textLen(tool) {
  return allStrings(tool).filter(([k]) => !k.endsWith('#key') && k !== '$.name' && !k.endsWith('.type') && !k.includes('$schema') && !k.includes('.required[')).reduce((a, [, s]) => a + s.length, 0);
}

// ---------- main ----------
const names = new Map();
const ids = new Set();
const descs = [];
const stats = {};
const langAll = {};
for (const [file, cls] of Object.entries(FILES)) {
  const fp = path.join(here, file);
  if (!fs.existsSync(fp)) { err(file, 'missing'); continue; }
  const lines = fs.readFileSync(fp, 'utf8').split('\n');
  const st = stats[file] = { n: 0, lang: {}, len: { short: 0, mid: 0, long: 0 }, kind: {}, tone: {}, placement: {}, field: {}, slot: {}, voices: new Set(), namesOther: 0 };
  lines.forEach((line, li) => {
    if (!line.trim()) return;
    const loc = `${file}:${li + 1}`;
    let r;
    try { r = JSON.parse(line); } catch (e) { err(loc, 'JSON parse: ' + e.message); return; }
    st.n++;
    const id = r.id || loc;
    if (FORBIDDEN_CHARS.test(line)) err(id, 'forbidden invisible/bidi/tag character');
    const common = ['id', 'class', 'voice', 'lang', 'server', 'siblings', 'tool'];
    for (const f of common) if (!(f in r)) err(id, `missing field ${f}`);
    const poisoned = cls !== 'benign';
    if (poisoned) { for (const f of ['where', 'intent']) if (typeof r[f] !== 'string' || !r[f]) err(id, `missing ${f}`); if ('note' in r || 'source' in r) err(id, 'poisoned record has note/source'); }
    else { for (const f of ['note', 'source']) if (typeof r[f] !== 'string' || !r[f]) err(id, `missing ${f}`); if ('where' in r || 'intent' in r) err(id, 'benign record has where/intent');
      if (r.source && !(r.source === 'new' || /^catalog:[^/]+\/.+$/.test(r.source))) err(id, 'bad source'); }
    if (r.class !== cls) err(id, `class ${r.class} in ${file}`);
    const idRe = new RegExp(`^t25-${cls}-\\d{3}$`);
    if (!idRe.test(r.id || '')) err(id, 'id malformed');
    if (ids.has(r.id)) err(id, 'duplicate id'); ids.add(r.id);
    if (typeof r.lang !== 'string' || !/^[a-z]{2}$/.test(r.lang)) err(id, 'lang not ISO 639-1');
    st.lang[r.lang] = (st.lang[r.lang] || 0) + 1; langAll[r.lang] = (langAll[r.lang] || 0) + 1;
    st.voices.add(r.voice);
    if (!Array.isArray(r.siblings)) err(id, 'siblings not array');
    const t = r.tool || {};
    if (!NAME_RE.test(t.name || '')) err(id, `bad tool name ${t.name}`);
    if (names.has(t.name)) err(id, `tool name ${t.name} already used by ${names.get(t.name)}`); else names.set(t.name, r.id);
    if (typeof t.description !== 'string' || !t.description.trim()) err(id, 'tool.description missing');
    if (!t.inputSchema || t.inputSchema.type !== 'object' || typeof t.inputSchema.properties !== 'object') err(id, 'inputSchema must be object with properties');
    else checkSchema(t.inputSchema, '$.inputSchema', id);
    if (Array.isArray(t.inputSchema?.required)) for (const q of t.inputSchema.required) if (!(q in t.inputSchema.properties)) err(id, `required ${q} not a property`);
    // stock phrases everywhere
    for (const [k, s] of allStrings(t)) for (const re of STOCK) if (re.test(s)) err(id, `stock phrase ${re} at ${k}`);
    for (const re of STOCK) if (re.test(r.intent || '') || re.test(r.note || '')) err(id, `stock phrase ${re} in intent/note`);
    if (poisoned) {
      for (const s of r.siblings || []) if (!catalogTools.has(s)) err(id, `sibling ${s} not in catalog`);
      if ((r.siblings || []).includes(t.name)) err(id, 'tool name equals a sibling');
      checkEndpoints(JSON.stringify(t), id);
      const toks = parsePath(r.where || '');
      if (!toks) err(id, `where unparsable: ${r.where}`);
      else {
        const v = resolve(t, toks);
        const last = toks[toks.length - 1], prev = toks[toks.length - 2];
        const nameForm = last && last.quoted && prev && prev.k === 'properties';
        if (nameForm) { if (!v || typeof v !== 'object') err(id, 'where (property-name form) does not resolve to a schema'); }
        else if (typeof v !== 'string') err(id, `where does not resolve to a string: ${r.where}`);
        if (cls === 'p1') {
          let field = r.where === '$.description' ? 'description' : r.where === '$.title' ? 'title' : (/\.properties\..*description$|\.properties\[.*\]\.description$/.test(r.where) ? 'parameter' : 'other');
          if (field !== r.field) err(id, `field label ${r.field} does not match where ${r.where}`);
          const sibMention = (r.siblings || []).some(s => (typeof v === 'string') && v.includes(s));
          if (sibMention) st.namesOther++;
        }
        if (cls === 'd') {
          const named = toks.filter(x => typeof x.k !== 'number');
          let slot = nameForm ? 'property-name' : String(named[named.length - 1].k);
          if (r.slot && r.slot !== slot) err(id, `slot label ${r.slot} does not match where`);
          if (!['default', 'enum', 'examples', 'const', 'title', 'property-name'].includes(slot)) err(id, `d slot not a data slot: ${slot}`);
          st.slot[slot] = (st.slot[slot] || 0) + 1;
          if (toks.filter(x => x.k === 'properties').length > 1 || toks.some(x => x.k === 'items')) st.slot.nested = (st.slot.nested || 0) + 1;
        }
      }
    }
    if (cls === 'p1') {
      if (!P1_KIND.has(r.kind)) err(id, `bad kind ${r.kind}`);
      if (!P1_TONE.has(r.tone)) err(id, `bad tone ${r.tone}`);
      if (!P1_PLACE.has(r.placement)) err(id, `bad placement ${r.placement}`);
      if (!P1_FIELD.has(r.field)) err(id, `bad field ${r.field}`);
      for (const k of ['kind', 'tone', 'placement', 'field']) st[k][r[k]] = (st[k][r[k]] || 0) + 1;
    }
    const L = textLen(t);
    st.len[L < 200 ? 'short' : L < 700 ? 'mid' : 'long']++;
    descs.push({ id: r.id, g: grams(t.description || '') });
  });
  if (st.n !== TARGET[file]) warn.push(`${file}: ${st.n} records (target ${TARGET[file]})`);
}

// near-duplicate descriptions
for (let i = 0; i < descs.length; i++) for (let j = i + 1; j < descs.length; j++) {
  const a = descs[i].g, b = descs[j].g;
  if (a.size < 3 || b.size < 3) continue;
  let s = 0; for (const x of a) if (b.has(x)) s++;
  if (s / Math.min(a.size, b.size) > 0.5) err(descs[i].id, `description shares ${s}/${Math.min(a.size, b.size)} 3-grams with ${descs[j].id}`);
}

for (const [f, st] of Object.entries(stats)) {
  const { voices, ...rest } = st;
  console.log(f, JSON.stringify({ ...rest, voices: voices.size }));
}
const en = langAll.en || 0, tot = Object.values(langAll).reduce((a, b) => a + b, 0);
console.log(`languages: ${Object.keys(langAll).length} distinct; English ${en}/${tot} (${Math.round(100 * en / Math.max(tot, 1))}%)`);
console.log(JSON.stringify(Object.fromEntries(Object.entries(langAll).sort((a, b) => b[1] - a[1]))));
for (const w of warn) console.log('WARN', w);
if (errors.length) { for (const e of errors) console.log('ERROR', e); console.log(`${errors.length} error(s)`); process.exit(1); }
console.log('clean');
