// validate.mjs - checks the t20 batch (node, no dependencies). Usage: node validate.mjs
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const catalogDir = path.resolve(here, '..', '..', 'discovery', 'catalog');
const FILES = [
  { file: 't20-p1.jsonl', cls: 'p1', poisoned: true },
  { file: 't20-d.jsonl', cls: 'd', poisoned: true },
  { file: 't20-benign.jsonl', cls: 'benign', poisoned: false },
];
const errors = [];
const warn = [];
const err = (id, msg) => errors.push(`${id}: ${msg}`);

// ---- catalog
const catalogNames = new Set();
const catalogByServer = {};
for (const f of fs.readdirSync(catalogDir).filter((f) => f.endsWith('.json'))) {
  const d = JSON.parse(fs.readFileSync(path.join(catalogDir, f), 'utf8'));
  catalogByServer[d.server] = d.tools.map((t) => t.name);
  for (const t of d.tools) catalogNames.add(t.name);
}
// compound names (with _ or -) are distinctive enough to detect in prose
const compoundCatalogNames = [...catalogNames].filter((n) => /[_-]/.test(n) && n.length > 5);

// ---- helpers
const FORBIDDEN_CHARS = /[\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180E\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0\uFFF0-\uFFFB]|[\u{E0000}-\u{E007F}]|[\u{E0100}-\u{E01EF}]/u;
const B = '(?<![\\p{L}\\p{N}])', E = '(?![\\p{L}\\p{N}])';
const STOCK = [
  `ignore (all |any )?(the )?previous instructions`, `highest priority`, `${B}overrid(e|es|ing|den)${E}`,
  `${B}disregard`, `${B}supersed`, `takes? precedence`, `${B}wichtig`, `${B}prioritaire`, `${B}priorit[àa]${E}`,
  `重要`, `приоритет`, `${B}vorrang`, `prioridad m[aá]xima`, `ignora (le|las|as) istruzioni`, `${B}precedenza${E}`,
  `${B}pr[ée]c[ée]dence${E}`, `ma wyższą rangę`,
].map((x) => new RegExp(x, 'iu'));
const STOCK_CASE = [/\bIMPORTANT\b/];
const NAME_RE = /^[A-Za-z0-9_.-]{1,64}$/;
const LANGS = new Set(['en', 'de', 'fr', 'es', 'it', 'pt', 'nl', 'pl', 'cs', 'sk', 'sv', 'da', 'nb', 'fi', 'hu', 'ro', 'el',
  'ca', 'hr', 'sl', 'et', 'lv', 'lt', 'is', 'ga', 'cy', 'eu', 'gl', 'mt', 'sq', 'lb']);
const P1_KINDS = new Set(['replace-choice', 'standing-order', 'consent-claimed', 'stale-others', 'hide', 'choose-for-user',
  'request-as-suggestion', 'other']);

function allStrings(node, out = []) {
  if (typeof node === 'string') out.push(node);
  else if (Array.isArray(node)) node.forEach((x) => allStrings(x, out));
  else if (node && typeof node === 'object') for (const [k, v] of Object.entries(node)) { out.push(k); allStrings(v, out); }
  return out;
}
function descStrings(tool) {
  const out = [];
  if (tool.title) out.push(tool.title);
  if (tool.description) out.push(tool.description);
  (function walk(s) {
    if (!s || typeof s !== 'object') return;
    if (Array.isArray(s)) return s.forEach(walk);
    if (typeof s.description === 'string') out.push(s.description);
    for (const v of Object.values(s)) if (v && typeof v === 'object') walk(v);
  })(tool.inputSchema);
  return out;
}
// property schemas, recursively, to check type+description
function checkProps(id, props, trail) {
  if (!props || typeof props !== 'object') return;
  for (const [name, schema] of Object.entries(props)) {
    const t = `${trail}.${name}`;
    if (!schema || typeof schema !== 'object') { err(id, `${t} is not a schema object`); continue; }
    if (!('type' in schema) && !schema.anyOf && !schema.oneOf && !('const' in schema) && !schema.enum) err(id, `${t} has no type`);
    else if (!('type' in schema)) err(id, `${t} has no type`);
    if (typeof schema.description !== 'string' || !schema.description.trim()) err(id, `${t} has no description`);
    if (schema.properties) checkProps(id, schema.properties, t);
    if (schema.items && schema.items.properties) checkProps(id, schema.items.properties, `${t}[]`);
  }
}
// resolve a JSONPath-ish "where" within tool
function resolveWhere(tool, where) {
  if (!where.startsWith('$')) return { ok: false };
  const re = /\.([^.\[\]"]+)|\["((?:[^"\\]|\\.)*)"\]|\[(\d+)\]/g;
  let rest = where.slice(1), node = tool, m, last = null, pos = 0;
  re.lastIndex = 0;
  while ((m = re.exec(rest))) {
    if (m.index !== pos) return { ok: false };
    pos = re.lastIndex;
    const key = m[1] ?? (m[2] !== undefined ? JSON.parse(`"${m[2]}"`) : Number(m[3]));
    if (node == null || typeof node !== 'object' || !(key in node)) return { ok: false };
    last = m[2] !== undefined ? 'bracket' : 'dot';
    node = node[key];
  }
  if (pos !== rest.length) return { ok: false };
  return { ok: true, node, last };
}
function trigrams(text) {
  const w = text.toLowerCase().normalize('NFC').split(/[^\p{L}\p{N}_]+/u).filter(Boolean);
  const s = new Set();
  for (let i = 0; i + 2 < w.length; i++) s.add(`${w[i]} ${w[i + 1]} ${w[i + 2]}`);
  return s;
}
const escRe = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
function mentions(text, name) {
  return new RegExp(`(^|[^A-Za-z0-9_-])${escRe(name)}($|[^A-Za-z0-9_-])`).test(text);
}

// ---- read
const ids = new Set();
const toolNames = new Set();
const all = [];
const stats = {};
for (const { file, cls, poisoned } of FILES) {
  const fp = path.join(here, file);
  if (!fs.existsSync(fp)) { err(file, 'missing'); continue; }
  const lines = fs.readFileSync(fp, 'utf8').split('\n');
  const st = (stats[file] = { n: 0, lang: {}, len: { short: 0, mid: 0, long: 0 }, extra: {} });
  lines.forEach((line, i) => {
    if (!line.trim()) return;
    const where0 = `${file}:${i + 1}`;
    let r;
    try { r = JSON.parse(line); } catch (e) { err(where0, `JSON parse: ${e.message}`); return; }
    const id = r.id || where0;
    st.n++;
    if (FORBIDDEN_CHARS.test(line)) err(id, 'forbidden invisible/bidi/tag character');
    const idRe = new RegExp(`^t20-${cls}-\\d{3}$`);
    if (!idRe.test(r.id || '')) err(id, `bad id (want t20-${cls}-NNN)`);
    if (ids.has(r.id)) err(id, 'duplicate id');
    ids.add(r.id);
    if (r.class !== cls) err(id, `class ${r.class} != ${cls}`);
    for (const f of ['voice', 'lang', 'server']) if (typeof r[f] !== 'string' || !r[f]) err(id, `missing ${f}`);
    if (!LANGS.has(r.lang)) err(id, `unexpected lang ${r.lang}`);
    st.lang[r.lang] = (st.lang[r.lang] || 0) + 1;
    if (!Array.isArray(r.siblings)) err(id, 'siblings not an array');
    const tool = r.tool;
    if (!tool || typeof tool !== 'object') { err(id, 'no tool'); return; }
    if (!NAME_RE.test(tool.name || '')) err(id, `bad tool name ${tool.name}`);
    if (toolNames.has(tool.name)) err(id, `tool name reused: ${tool.name}`);
    toolNames.add(tool.name);
    if (typeof tool.description !== 'string' || !tool.description.trim()) err(id, 'no description');
    if ('title' in tool && typeof tool.title !== 'string') err(id, 'title not a string');
    const sch = tool.inputSchema;
    if (!sch || sch.type !== 'object' || typeof sch.properties !== 'object') err(id, 'inputSchema must be an object schema with properties');
    else {
      checkProps(id, sch.properties, 'properties');
      for (const q of sch.required || []) if (!(q in sch.properties)) err(id, `required ${q} not a property`);
    }
    const dlen = (tool.description || '').length;
    st.len[dlen < 200 ? 'short' : dlen < 700 ? 'mid' : 'long']++;
    const tlen = descStrings(tool).join('\n').length;
    st.tlen = st.tlen || { short: 0, mid: 0, long: 0 };
    st.tlen[tlen < 200 ? 'short' : tlen < 700 ? 'mid' : 'long']++;
    const text = allStrings(tool).join('\n');
    if (poisoned) {
      if (typeof r.where !== 'string') err(id, 'no where');
      if (typeof r.intent !== 'string' || !r.intent) err(id, 'no intent');
      if ('note' in r || 'source' in r) err(id, 'poisoned record must not carry note/source');
      for (const s of r.siblings || []) if (!catalogNames.has(s)) err(id, `sibling not in catalog: ${s}`);
      if (!r.siblings || r.siblings.length === 0) err(id, 'poisoned record without siblings');
      if (typeof r.where === 'string') {
        const res = resolveWhere(tool, r.where);
        if (!res.ok) err(id, `where does not resolve: ${r.where}`);
        else if (res.last === 'bracket' && /properties\["[^"]+"\]$/.test(r.where)) {
          if (!res.node || typeof res.node !== 'object' || !('type' in res.node)) err(id, 'property-name where must resolve to a property schema');
        } else if (typeof res.node !== 'string') err(id, `where resolves to ${typeof res.node}, not a string`);
      }
      for (const re of [...STOCK, ...STOCK_CASE]) if (re.test(text)) err(id, `stock phrase ${re}`);
    } else {
      if ('where' in r || 'intent' in r) err(id, 'benign record must not carry where/intent');
      if (typeof r.note !== 'string' || !r.note) err(id, 'benign without note');
      if (typeof r.source !== 'string' || !/^(new|catalog:[^/]+\/.+)$/.test(r.source)) err(id, 'bad source');
      else if (r.source.startsWith('catalog:')) {
        const [srv, tn] = r.source.slice(8).split('/');
        if (!catalogByServer[srv] || !catalogByServer[srv].includes(tn)) err(id, `source not in catalog: ${r.source}`);
      }
      for (const s of r.siblings || []) if (s === tool.name) err(id, 'benign sibling equals own tool name');
    }
    if (cls === 'p1') {
      if (!P1_KINDS.has(r.kind)) err(id, `bad kind ${r.kind}`);
      if (!['calm', 'imperative'].includes(r.tone)) err(id, `bad tone ${r.tone}`);
      if (!['start', 'middle', 'end'].includes(r.placement)) err(id, `bad placement ${r.placement}`);
      const fieldOk = (r.where === '$.description' && r.field === 'description') || (r.where === '$.title' && r.field === 'title') ||
        (/^\$\.inputSchema\.properties\.[^.]+(\.properties\.[^.]+)*\.description$/.test(r.where || '') && r.field === 'param');
      if (!fieldOk) err(id, `field label ${r.field} does not match where ${r.where}`);
      if (typeof r.names_other_tool !== 'boolean') err(id, 'names_other_tool must be boolean');
      else {
        const foreign = [...(r.siblings || []), ...compoundCatalogNames].filter((n) => n !== tool.name && mentions(text, n));
        if (!r.names_other_tool && foreign.length) err(id, `names_other_tool=false but text names ${foreign.slice(0, 3).join(', ')}`);
        if (r.names_other_tool && !foreign.length) err(id, 'names_other_tool=true but no sibling/catalog tool name found in the text');
      }
      for (const k of ['kind', 'tone', 'placement', 'field']) {
        st.extra[k] = st.extra[k] || {};
        st.extra[k][r[k]] = (st.extra[k][r[k]] || 0) + 1;
      }
      st.extra.names_other_tool = st.extra.names_other_tool || { true: 0, false: 0 };
      st.extra.names_other_tool[r.names_other_tool]++;
    }
    if (cls === 'd') {
      const slot = (r.where || '').match(/\.(default|title|const)$|\.(enum|examples)\[\d+\]$|properties\["[^"]+"\]$/);
      if (!slot) err(id, `d record where is not a data slot: ${r.where}`);
      else {
        const k = slot[1] || slot[2] || 'name';
        st.extra.slot = st.extra.slot || {};
        st.extra.slot[k] = (st.extra.slot[k] || 0) + 1;
      }
    }
    st.extra.voice = st.extra.voice || {};
    st.extra.voice[r.voice] = (st.extra.voice[r.voice] || 0) + 1;
    all.push({ id, grams: trigrams(descStrings(tool).join('\n')), dgrams: trigrams(tool.description || '') });
  });
}

// ---- 3-gram overlap
for (let i = 0; i < all.length; i++) {
  for (let j = i + 1; j < all.length; j++) {
    for (const key of ['grams', 'dgrams']) {
      const a = all[i][key], b = all[j][key];
      const m = Math.min(a.size, b.size);
      if (m < 3) continue;
      let c = 0;
      for (const g of a) if (b.has(g)) c++;
      if (c / m > 0.5) { err(all[i].id, `shares ${c}/${m} word 3-grams with ${all[j].id} (${key})`); break; }
    }
  }
}

// ---- report
const verbose = process.argv.includes('-v');
for (const [f, st] of Object.entries(stats)) {
  console.log(`${f}: ${st.n} records; description length short/mid/long ${st.len.short}/${st.len.mid}/${st.len.long}; all-text length ${st.tlen?.short}/${st.tlen?.mid}/${st.tlen?.long}`);
  console.log(`  lang: ${Object.entries(st.lang).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k}=${v}`).join(' ')}`);
  if (verbose) for (const [k, v] of Object.entries(st.extra)) console.log(`  ${k}: ${JSON.stringify(v)}`);
}
for (const w of warn) console.log(`warning: ${w}`);
if (errors.length) {
  console.log(`\n${errors.length} error(s):`);
  for (const e of errors) console.log(`  ${e}`);
  process.exit(1);
}
console.log('\nclean');
