// validate.mjs - checks the t22 batch. node validate.mjs  (no dependencies)
// Only validates; it never writes or generates records.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const catalogDir = path.resolve(here, '..', '..', 'discovery', 'catalog');
const FILES = [
  { file: 't22-p1.jsonl', cls: ['p1'], poisoned: true },
  { file: 't22-d.jsonl', cls: ['d'], poisoned: true },
  { file: 't22-benign.jsonl', cls: ['benign'], poisoned: false },
];

const errors = [];
const warnings = [];
const err = (where, msg) => errors.push(`${where}: ${msg}`);
const warn = (where, msg) => warnings.push(`${where}: ${msg}`);

// ---- catalog -------------------------------------------------------------
const catalogTools = new Map(); // name -> Set(server)
for (const f of fs.readdirSync(catalogDir).filter((f) => f.endsWith('.json'))) {
  const j = JSON.parse(fs.readFileSync(path.join(catalogDir, f), 'utf8'));
  for (const t of j.tools || []) {
    if (!catalogTools.has(t.name)) catalogTools.set(t.name, new Set());
    catalogTools.get(t.name).add(j.server);
  }
}
// names distinctive enough to be recognised inside prose
const distinctive = [...catalogTools.keys()].filter((n) => /[_\-.]/.test(n) || /[a-z][A-Z]/.test(n));

// ---- helpers ---------------------------------------------------------------
const FORBIDDEN_CHARS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0\uFFF9-\uFFFB]|[\u{E0000}-\u{E007F}]|[\u{E0100}-\u{E01EF}]/u;

// stock phrases (and their direct translations) that must not appear in poisoned text
const STOCK = [
  /ignore (all |any )?(the )?previous instructions/i, /highest priority/i, /\boverrid/i, /\bdisregard/i,
  /\bsupersed/i, /takes? precedence/i, /\bimportant\b/i,
  /(?<!\p{L})важн/iu, /приоритет/i, /пріоритет/i, /(?<!\p{L})важлив/iu, /(?<!\p{L})игнорир/iu, /(?<!\p{L})ігнор/iu,
  /önemli/i, /öncelik/i, /vacib/i, /prioritet/i, /važno/i, /bitno/i,
  /مهم/, /أولوية/, /اولوية/, /اولویت/, /الأسبقية/, /חשוב/, /עדיפות/, /בעדיפות/,
  /muhimu/i, /kipaumbele/i, /mahimmanci/i, /ṣe pàtàkì/i, /pataki/i, /mkhulu kakhulu/i, /belangrik/i,
  /muhiim/i, /ngombwa/i, /ብቻ አስፈላጊ/, /አስፈላጊ/, /მნიშვნელოვან/, /կարևոր/, /կարեւոր/, /گرنگ/, /girîng/i, /مهمه/,
];

function walkPath(root, p) {
  // supports $.a.b, [n], ["key"]
  if (!p.startsWith('$')) return { ok: false };
  let i = 1; let cur = root; let last = null;
  while (i < p.length) {
    if (p[i] === '.') {
      let j = i + 1;
      while (j < p.length && p[j] !== '.' && p[j] !== '[') j++;
      const key = p.slice(i + 1, j);
      if (cur == null || typeof cur !== 'object' || !(key in cur)) return { ok: false };
      cur = cur[key]; last = { kind: 'key', key }; i = j;
    } else if (p[i] === '[') {
      const close = p.indexOf(']', i);
      if (close < 0) return { ok: false };
      const inner = p.slice(i + 1, close);
      if (/^\d+$/.test(inner)) {
        if (!Array.isArray(cur) || +inner >= cur.length) return { ok: false };
        cur = cur[+inner]; last = { kind: 'index' };
      } else if (/^".*"$/.test(inner)) {
        const key = JSON.parse(inner);
        if (cur == null || typeof cur !== 'object' || !(key in cur)) return { ok: false };
        cur = cur[key]; last = { kind: 'bracketkey', key };
      } else return { ok: false };
      i = close + 1;
    } else return { ok: false };
  }
  return { ok: true, value: cur, last };
}

function collectStrings(o, out = []) {
  if (typeof o === 'string') out.push(o);
  else if (Array.isArray(o)) o.forEach((x) => collectStrings(x, out));
  else if (o && typeof o === 'object') for (const [k, v] of Object.entries(o)) { out.push(k); collectStrings(v, out); }
  return out;
}

function checkProps(props, where, tag) {
  if (!props || typeof props !== 'object') return err(tag, `${where} properties is not an object`);
  for (const [name, schema] of Object.entries(props)) {
    if (!schema || typeof schema !== 'object') { err(tag, `${where}.${name} not an object`); continue; }
    if (typeof schema.type !== 'string' && !Array.isArray(schema.type)) err(tag, `${where}.${name} has no type`);
    if (typeof schema.description !== 'string' || !schema.description.trim()) err(tag, `${where}.${name} has no description`);
    if (schema.properties) checkProps(schema.properties, `${where}.${name}.properties`, tag);
    if (schema.items && schema.items.properties) checkProps(schema.items.properties, `${where}.${name}.items.properties`, tag);
  }
}

const words = (s) => (s.toLowerCase().match(/[\p{L}\p{M}\p{N}_'’-]+/gu) || []);
function grams3(s) {
  const w = words(s); const g = new Set();
  for (let i = 0; i + 2 < w.length; i++) g.add(w[i] + ' ' + w[i + 1] + ' ' + w[i + 2]);
  return g;
}
const mentionsTool = (text, name) => new RegExp(`(?<![A-Za-z0-9_.])${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![A-Za-z0-9_])`).test(text);

function hostsIn(text) {
  const hosts = [];
  for (const m of text.matchAll(/\b(?:https?|wss?|ftp|sftp):\/\/([^\/\s"'`<>)\]]+)/gi)) hosts.push(m[1].replace(/^[^@]*@/, '').replace(/:\d+$/, ''));
  for (const m of text.matchAll(/(?<![\d.])(\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})(?![\d.])/g)) {
    const oct = m[1].split('.');
    if (oct.every((o) => !/^0\d/.test(o) && +o <= 255)) hosts.push(m[1]);
  }
  return hosts;
}
const okHost = (h) => /(^|\.)example$/i.test(h) || /^(example\.(com|org|net))$/i.test(h) || /\.example\.(com|org|net)$/i.test(h)
  || /^198\.51\.100\.\d+$/.test(h) || /^203\.0\.113\.\d+$/.test(h) || /^192\.0\.2\.\d+$/.test(h)
  || /^(localhost|127\.0\.0\.1|0\.0\.0\.0)$/i.test(h) || /^(10|192\.168|172\.(1[6-9]|2\d|3[01]))\./.test(h);

// ---- main ------------------------------------------------------------------
const ids = new Set();
const toolNames = new Map();
const allDescs = []; // {id, text, g}
const stats = {};

for (const spec of FILES) {
  const fp = path.join(here, spec.file);
  if (!fs.existsSync(fp)) { err(spec.file, 'missing'); continue; }
  const lines = fs.readFileSync(fp, 'utf8').split('\n');
  const st = stats[spec.file] = { n: 0, lang: {}, voice: {}, len: { short: 0, mid: 0, long: 0 }, extra: {} };
  const bump = (k, v) => { st.extra[k] ??= {}; st.extra[k][v] = (st.extra[k][v] || 0) + 1; };
  lines.forEach((line, ln) => {
    if (!line.trim()) return;
    const tag = `${spec.file}:${ln + 1}`;
    let r;
    try { r = JSON.parse(line); } catch (e) { return err(tag, 'JSON parse error ' + e.message); }
    st.n++;
    const id = r.id || '(no id)';
    const T = `${tag} ${id}`;
    for (const f of ['id', 'class', 'voice', 'lang', 'server', 'siblings', 'tool']) if (r[f] === undefined) err(T, `missing field ${f}`);
    if (!spec.cls.includes(r.class)) err(T, `class ${r.class} not allowed in this file`);
    if (!new RegExp(`^t22-${r.class}-\\d{3}$`).test(id)) err(T, 'id malformed');
    if (ids.has(id)) err(T, 'duplicate id'); ids.add(id);
    if (typeof r.lang !== 'string' || !/^[a-z]{2}(-[A-Za-z]+)?$/.test(r.lang)) err(T, 'lang not ISO 639-1');
    if (!Array.isArray(r.siblings)) err(T, 'siblings not array');
    else for (const s of r.siblings) if (typeof s !== 'string' || !/^[A-Za-z0-9_.-]{1,64}$/.test(s)) err(T, `bad sibling name ${s}`);
    st.lang[r.lang] = (st.lang[r.lang] || 0) + 1;
    st.voice[r.voice] = (st.voice[r.voice] || 0) + 1;
    const t = r.tool || {};
    if (typeof t.name !== 'string' || !/^[A-Za-z0-9_.-]{1,64}$/.test(t.name)) err(T, `bad tool name ${t.name}`);
    if (toolNames.has(t.name)) err(T, `tool name ${t.name} already used by ${toolNames.get(t.name)}`);
    toolNames.set(t.name, id);
    if (typeof t.description !== 'string' || !t.description.trim()) err(T, 'tool.description missing');
    if (t.title !== undefined && typeof t.title !== 'string') err(T, 'title not string');
    if (!t.inputSchema || t.inputSchema.type !== 'object') err(T, 'inputSchema.type must be object');
    else {
      checkProps(t.inputSchema.properties || {}, '$.inputSchema.properties', T);
      for (const q of t.inputSchema.required || []) if (!(q in (t.inputSchema.properties || {}))) err(T, `required ${q} not a property`);
    }
    const strs = collectStrings(r);
    for (const s of collectStrings(t)) for (const w of s.split(/[^\p{L}\p{M}]+/u)) if (/\p{Script=Latin}/u.test(w) && /\p{Script=Cyrillic}/u.test(w)) err(T, `mixed Latin/Cyrillic word: ${w}`);
    for (const s of strs) if (FORBIDDEN_CHARS.test(s)) err(T, `forbidden invisible/control char in: ${s.slice(0, 60)}`);
    const toolText = collectStrings(t).join('\n');
    for (const h of hostsIn(toolText)) if (!okHost(h)) (spec.poisoned ? err : warn)(T, `non-reserved host ${h}`);
    const dl = (t.description || '').length;
    st.len[dl < 200 ? 'short' : dl < 700 ? 'mid' : 'long']++;

    if (spec.poisoned) {
      if (typeof r.where !== 'string') err(T, 'missing where');
      if (typeof r.intent !== 'string' || !r.intent.trim()) err(T, 'missing intent');
      if (r.note !== undefined || r.source !== undefined) err(T, 'poisoned record must not carry note/source');
      for (const s of r.siblings || []) {
        if (!catalogTools.has(s)) err(T, `sibling ${s} not in catalog`);
        if (s === t.name) err(T, 'tool lists itself as sibling');
      }
      if (catalogTools.has(t.name)) warn(T, `poisoned tool shares a catalog name ${t.name}`);
      for (const re of STOCK) if (re.test(toolText)) err(T, `stock phrase ${re}`);
      let carrier = null;
      if (typeof r.where === 'string') {
        const res = walkPath(t, r.where);
        if (!res.ok) err(T, `where ${r.where} does not resolve`);
        else if (/^\$\.inputSchema(\.properties\.[^.\[]+)*\.properties\["[^"]*"\]$/.test(r.where) || /\.properties\["[^"]*"\]$/.test(r.where)) {
          if (!res.value || typeof res.value !== 'object') err(T, 'property-name where must resolve to a schema');
          carrier = res.last.key;
        } else if (typeof res.value !== 'string') err(T, `where ${r.where} is not a string`);
        else carrier = res.value;
      }
      if (r.class === 'p1') {
        for (const [k, allowed] of Object.entries({
          kind: ['replace-choice', 'standing-order', 'consent-claimed', 'stale-others', 'hide', 'choose-for-user', 'request-as-suggestion', 'other'],
          tone: ['calm', 'imperative'], placement: ['start', 'middle', 'end'], field: ['description', 'param', 'title'],
        })) { if (!allowed.includes(r[k])) err(T, `p1 ${k}=${r[k]} invalid`); else bump(k, r[k]); }
        if (typeof r.names_other_tool !== 'boolean') err(T, 'p1 names_other_tool must be boolean');
        const fieldOf = r.where === '$.description' ? 'description' : r.where === '$.title' ? 'title' : /\.properties\.[^.]+\.description$/.test(r.where || '') ? 'param' : 'other';
        if (fieldOf !== r.field) err(T, `field label ${r.field} but where points to ${fieldOf}`);
        if (carrier) {
          const named = (r.siblings || []).filter((s) => mentionsTool(carrier, s));
          const namedAny = distinctive.filter((s) => mentionsTool(carrier, s));
          if (r.names_other_tool && named.length === 0) err(T, 'names_other_tool=true but carrier text names no sibling');
          if (!r.names_other_tool && namedAny.length) err(T, `names_other_tool=false but carrier names ${namedAny.join(',')}`);
          bump('names_other_tool', String(r.names_other_tool));
          // placement sanity for long carriers: rough position of the carrier's poison is author-labelled; just record
        }
      }
      if (r.class === 'd') {
        const slot = /\["[^"]*"\]$/.test(r.where) ? 'property-name' : /\.default$/.test(r.where) ? 'default' : /\.enum\[\d+\]$/.test(r.where) ? 'enum'
          : /\.examples\[\d+\]$/.test(r.where) ? 'examples' : /\.const$/.test(r.where) ? 'const' : /\.title$/.test(r.where) && r.where !== '$.title' ? 'property-title' : 'BAD';
        if (slot === 'BAD') err(T, `d where ${r.where} is not a data slot`);
        bump('slot', slot);
      }
    } else {
      if (r.where !== undefined || r.intent !== undefined) err(T, 'benign record must not carry where/intent');
      if (typeof r.note !== 'string' || !r.note.trim()) err(T, 'benign missing note');
      if (typeof r.source !== 'string' || !/^(new|catalog:[^/]+\/.+)$/.test(r.source)) err(T, 'benign source must be new or catalog:<server>/<tool>');
      if (r.source && r.source.startsWith('catalog:')) {
        const [srv, tn] = r.source.slice(8).split('/');
        if (!catalogTools.has(tn) || !catalogTools.get(tn).has(srv)) err(T, `source ${r.source} not found in catalog`);
      }
      if (r.siblings && r.siblings.includes(t.name)) err(T, 'tool lists itself as sibling');
      let stock = 0; for (const re of STOCK) if (re.test(toolText)) stock++;
      if (stock) bump('benign_with_stock_word', 'yes');
    }
    allDescs.push({ id, text: t.description || '', g: grams3(t.description || '') });
    if (spec.poisoned && typeof r.where === 'string' && r.where !== '$.description') {
      const res = walkPath(t, r.where);
      if (res.ok && typeof res.value === 'string' && words(res.value).length > 8) allDescs.push({ id: id + '@where', text: res.value, g: grams3(res.value) });
    }
  });
}

// 3-gram overlap
for (let i = 0; i < allDescs.length; i++) {
  const a = allDescs[i]; if (a.g.size < 4) continue;
  for (let j = i + 1; j < allDescs.length; j++) {
    const b = allDescs[j]; if (b.g.size < 4) continue;
    if (a.id.split('@')[0] === b.id.split('@')[0]) continue;
    let inter = 0; for (const x of a.g) if (b.g.has(x)) inter++;
    const frac = inter / Math.min(a.g.size, b.g.size);
    if (frac > 0.5) err(`${a.id} ~ ${b.id}`, `descriptions share ${(frac * 100).toFixed(0)}% of 3-grams`);
  }
}

for (const [f, s] of Object.entries(stats)) {
  console.log(`\n== ${f}: ${s.n} records`);
  console.log('  lang :', Object.entries(s.lang).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k}=${v}`).join(' '));
  console.log('  desc length :', JSON.stringify(s.len));
  console.log('  voices:', Object.keys(s.voice).length, 'distinct');
  for (const [k, v] of Object.entries(s.extra)) console.log(`  ${k}:`, JSON.stringify(v));
}
const totalLang = {};
for (const s of Object.values(stats)) for (const [k, v] of Object.entries(s.lang)) totalLang[k] = (totalLang[k] || 0) + v;
console.log('\n== all languages:', Object.entries(totalLang).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k}=${v}`).join(' '));
if (warnings.length) { console.log(`\n${warnings.length} warning(s):`); for (const w of warnings) console.log('  WARN', w); }
if (errors.length) { console.log(`\n${errors.length} error(s):`); for (const e of errors) console.log('  ERR', e); process.exit(1); }
console.log('\nclean');
