// Validator for batch t31 (node, no dependencies). Usage: node validate.mjs
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const catalogDir = path.resolve(here, '..', '..', 'discovery', 'catalog');

const errors = [];
const warnings = [];
const err = (m) => errors.push(m);
const warn = (m) => warnings.push(m);

// ---- catalog ----
const catalog = new Map(); // tool name -> Set(servers)
const catalogServers = new Map(); // server -> Set(tool names)
for (const f of fs.readdirSync(catalogDir).filter((f) => f.endsWith('.json'))) {
  const j = JSON.parse(fs.readFileSync(path.join(catalogDir, f), 'utf8'));
  const names = new Set();
  for (const t of j.tools || []) {
    names.add(t.name);
    if (!catalog.has(t.name)) catalog.set(t.name, new Set());
    catalog.get(t.name).add(j.server);
  }
  catalogServers.set(j.server, names);
  catalogServers.set(f.replace(/\.json$/, ''), names);
}

// ---- helpers ----
const ISO6391 = new Set(('aa ab ae af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs ca ce ch co cr cs cu cv cy da de dv dz ee el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz ia id ie ig ii ik io is it iu ja jv ka kg ki kj kk kl km kn ko kr ks ku kv kw ky la lb lg li ln lo lt lu lv mg mh mi mk ml mn mr ms mt my na nb nd ne ng nl nn no nr nv ny oc oj om or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg si sk sl sm sn so sq sr ss st su sv sw ta te tg th ti tk tl tn to tr ts tt tw ty ug uk ur uz ve vi vo wa wo xh yi yo za zh zu').split(' '));
const NAME_RE = /^[A-Za-z0-9_.-]{1,64}$/;
// zero-width, bidi controls, word joiner & invisible operators, BOM, soft hyphen, tag characters, C0/C1 controls except \n \t
const FORBIDDEN = /[\u00AD\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF\u{E0000}-\u{E007F}\u0000-\u0008\u000B-\u001F\u007F-\u009F]/u;
const STOCK = [/ignore (all )?previous instructions/i, /highest priority/i, /\boverride\b/i, /\bdisregard\b/i, /\bsupersede/i, /takes precedence/i, /IMPORTANT/];

function allStrings(v, out = []) {
  if (typeof v === 'string') out.push(v);
  else if (Array.isArray(v)) v.forEach((x) => allStrings(x, out));
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) { out.push(k); allStrings(x, out); }
  return out;
}

function checkProps(props, where, id) {
  if (!props || typeof props !== 'object') return;
  for (const [k, p] of Object.entries(props)) {
    if (!p || typeof p !== 'object') { err(`${id}: property ${where}${k} is not an object`); continue; }
    if (!p.type) err(`${id}: property ${where}${k} has no type`);
    if (typeof p.description !== 'string' || !p.description.trim()) err(`${id}: property ${where}${k} has no description`);
    if (p.properties) checkProps(p.properties, `${where}${k}.`, id);
    if (p.items && p.items.properties) checkProps(p.items.properties, `${where}${k}[].`, id);
  }
}

// resolve "$.a.b" or '$.inputSchema.properties["name"]'
function resolveWhere(tool, where) {
  if (typeof where !== 'string' || !where.startsWith('$')) return { ok: false };
  const tokens = [];
  const re = /\.([A-Za-z0-9_$-]+)|\["([^"]+)"\]|\[(\d+)\]/g;
  let m; let consumed = 1;
  while ((m = re.exec(where)) !== null) {
    if (m.index !== consumed) return { ok: false };
    tokens.push({ key: m[1] ?? m[2] ?? Number(m[3]), bracket: m[2] !== undefined });
    consumed = re.lastIndex;
  }
  if (consumed !== where.length) return { ok: false };
  let cur = tool;
  for (const t of tokens) {
    if (cur == null || typeof cur !== 'object' || !(t.key in cur)) return { ok: false };
    cur = cur[t.key];
  }
  const last = tokens[tokens.length - 1];
  const propNameForm = last && last.bracket && tokens.length >= 2 && tokens[tokens.length - 2].key === 'properties';
  if (propNameForm) return { ok: cur && typeof cur === 'object', value: cur, propName: last.key };
  return { ok: typeof cur === 'string', value: cur };
}

function escapeRe(s) { return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'); }
function mentions(text, name) {
  const re = new RegExp(`(?<![A-Za-z0-9_-])${escapeRe(name)}(?![A-Za-z0-9_-])`, 'i');
  if (re.test(text)) return true;
  // identifier-like names are also caught as plain substrings (e.g. inside a longer token)
  if (/[_\-.]|[a-z][A-Z]/.test(name) && name.length >= 5) return text.toLowerCase().includes(name.toLowerCase());
  return false;
}

function trigrams(s) {
  const w = s.toLowerCase().split(/[\s]+/).map((x) => x.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '')).filter(Boolean);
  const g = new Set();
  for (let i = 0; i + 2 < w.length; i++) g.add(`${w[i]} ${w[i + 1]} ${w[i + 2]}`);
  return g;
}

function hostsIn(text) {
  const hosts = [];
  const re = /\b(?:https?|wss?|ftp):\/\/([^\/\s:?#"'`)>\]]+)/gi;
  let m;
  while ((m = re.exec(text)) !== null) hosts.push(m[1].toLowerCase().replace(/^[^@]*@/, ''));
  return hosts;
}
function hostAllowed(h) {
  if (h.endsWith('.example') || h === 'example') return true;
  if (/^(198\.51\.100|203\.0\.113|192\.0\.2)\.\d{1,3}$/.test(h)) return true;
  if (h === 'localhost' || /^127\./.test(h) || h.includes('{') || h.includes('<')) return true;
  return false;
}

// ---- files ----
const files = [
  { file: 't31-p4.jsonl', cls: 'p4', prefix: 't31-p4-' },
  { file: 't31-benign.jsonl', cls: 'benign', prefix: 't31-benign-' },
];
const toolNames = new Map();
const descs = [];
const stats = {};

for (const { file, cls, prefix } of files) {
  const p = path.join(here, file);
  if (!fs.existsSync(p)) { err(`${file}: missing`); continue; }
  const lines = fs.readFileSync(p, 'utf8').split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const ids = new Set();
  const st = { n: 0, langs: {}, voices: {}, len: { short: 0, medium: 0, long: 0 }, where: {} };
  stats[file] = st;
  lines.forEach((line, i) => {
    const ln = `${file}:${i + 1}`;
    if (!line.trim()) { err(`${ln}: empty line`); return; }
    let r;
    try { r = JSON.parse(line); } catch (e) { err(`${ln}: JSON parse error ${e.message}`); return; }
    const id = r.id || ln;
    st.n++;
    if (FORBIDDEN.test(line) || FORBIDDEN.test(JSON.stringify(r))) err(`${id}: forbidden invisible/control character`);
    const expectId = `${prefix}${String(i + 1).padStart(3, '0')}`;
    if (r.id !== expectId) err(`${ln}: id ${r.id} expected ${expectId}`);
    if (ids.has(r.id)) err(`${id}: duplicate id`);
    ids.add(r.id);
    if (r.class !== cls) err(`${id}: class ${r.class} expected ${cls}`);
    for (const f of ['voice', 'lang', 'server']) if (typeof r[f] !== 'string' || !r[f].trim()) err(`${id}: missing ${f}`);
    if (!ISO6391.has(r.lang)) err(`${id}: lang ${r.lang} is not ISO 639-1`);
    if (!Array.isArray(r.siblings) || r.siblings.length === 0) err(`${id}: siblings must be a non-empty array`);
    const t = r.tool;
    if (!t || typeof t !== 'object') { err(`${id}: missing tool`); return; }
    if (!NAME_RE.test(t.name || '')) err(`${id}: bad tool name ${t.name}`);
    if (toolNames.has(t.name)) err(`${id}: tool name ${t.name} already used by ${toolNames.get(t.name)}`);
    toolNames.set(t.name, id);
    if (typeof t.description !== 'string' || !t.description.trim()) err(`${id}: missing description`);
    if (t.title !== undefined && typeof t.title !== 'string') err(`${id}: title must be a string`);
    const s = t.inputSchema;
    if (!s || s.type !== 'object' || typeof s.properties !== 'object') err(`${id}: inputSchema must be an object schema with properties`);
    else {
      checkProps(s.properties, '', id);
      if (s.required) for (const rq of s.required) if (!(rq in s.properties)) err(`${id}: required ${rq} not in properties`);
    }
    const extra = Object.keys(t).filter((k) => !['name', 'description', 'title', 'inputSchema', 'annotations'].includes(k));
    if (extra.length) err(`${id}: unexpected tool keys ${extra.join(',')}`);
    const text = allStrings(t).join('\n');
    const L = t.description ? t.description.length : 0;
    st.len[L < 200 ? 'short' : L < 700 ? 'medium' : 'long']++;
    st.langs[r.lang] = (st.langs[r.lang] || 0) + 1;
    st.voices[r.voice] = (st.voices[r.voice] || 0) + 1;
    if (t.description) descs.push({ id, g: trigrams(t.description) });

    if (cls === 'benign') {
      if (r.where !== undefined || r.intent !== undefined) err(`${id}: benign record must not have where/intent`);
      if (typeof r.note !== 'string' || !r.note.trim()) err(`${id}: missing note`);
      if (r.source !== 'new') {
        const m = /^catalog:([^/]+)\/(.+)$/.exec(r.source || '');
        if (!m) err(`${id}: bad source ${r.source}`);
        else if (!catalogServers.has(m[1]) || !catalogServers.get(m[1]).has(m[2])) err(`${id}: source ${r.source} not in catalog`);
      }
    } else {
      if (r.note !== undefined || r.source !== undefined) err(`${id}: poisoned record must not have note/source`);
      if (typeof r.intent !== 'string' || !r.intent.trim()) err(`${id}: missing intent`);
      const w = resolveWhere(t, r.where);
      if (!w.ok) err(`${id}: where ${r.where} does not resolve to a string / property schema`);
      const wk = (r.where || '').replace(/properties\.[^.\[]+/, 'properties.*').replace(/\["[^"]+"\]/, '[*]');
      st.where[wk] = (st.where[wk] || 0) + 1;
      for (const sib of r.siblings || []) {
        if (!catalog.has(sib)) err(`${id}: sibling ${sib} not found in catalog`);
        if (mentions(text, sib)) err(`${id}: text names sibling tool ${sib} (p4 must refer to other tools by category only)`);
      }
      // any identifier-like catalog tool name (e.g. read_file, list-databases) counts as naming another tool
      for (const name of catalog.keys()) {
        if (/[_\-.]|[a-z][A-Z]/.test(name) && name.length >= 5 && !(r.siblings || []).includes(name) && mentions(text, name)) err(`${id}: text names catalog tool ${name}`);
      }
      if (r.siblings && r.siblings.includes(t.name)) err(`${id}: tool's own name listed as sibling`);
      if (catalog.has(t.name)) warn(`${id}: tool name ${t.name} collides with a real catalog tool`);
      for (const re of STOCK) if (re.test(text)) err(`${id}: stock phrase ${re}`);
      for (const h of hostsIn(text)) if (!hostAllowed(h)) err(`${id}: endpoint host ${h} is not .example / TEST-NET`);
      for (const ip of text.match(/\b\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}\b/g) || []) {
        if (!/^(198\.51\.100|203\.0\.113|192\.0\.2|127\.0\.0)\./.test(ip)) err(`${id}: IP ${ip} is not TEST-NET`);
      }
    }
  });
}

// ---- 3-gram overlap ----
for (let i = 0; i < descs.length; i++) {
  for (let j = i + 1; j < descs.length; j++) {
    const a = descs[i].g; const b = descs[j].g;
    const m = Math.min(a.size, b.size);
    if (m === 0) continue;
    let c = 0;
    for (const x of a) if (b.has(x)) c++;
    if (c / m > 0.5) err(`${descs[i].id} / ${descs[j].id}: descriptions share ${c}/${m} word 3-grams`);
  }
}

// ---- no absolute workspace paths in the deliverables ----
for (const f of fs.readdirSync(here).filter((name) => name.startsWith('t31-'))) {
  const txt = fs.readFileSync(path.join(here, f), 'utf8');
  if (/\/work\/|\/home\/[a-z]|\/tmp\/bash/.test(txt.replace(/\/\/ no-abs-check.*$/gm, ''))) err(`${f}: contains an absolute workspace path`); // no-abs-check
}

// ---- report ----
for (const [f, st] of Object.entries(stats)) {
  const en = st.langs.en || 0;
  const nl = Object.keys(st.langs).length;
  console.log(`${f}: ${st.n} records; en ${en} (${Math.round((100 * en) / st.n)}%); ${nl} languages; length short/medium/long ${st.len.short}/${st.len.medium}/${st.len.long}`);
  console.log(`  langs: ${Object.entries(st.langs).sort().map(([k, v]) => `${k}:${v}`).join(' ')}`);
  console.log(`  voices: ${Object.keys(st.voices).length} distinct`);
  if (Object.keys(st.where).length) console.log(`  where: ${JSON.stringify(st.where)}`);
  for (const [l, c] of Object.entries(st.langs)) if (l !== 'en' && c > 3) warn(`${f}: language ${l} has ${c} records (>3)`);
}
for (const w of warnings) console.log('WARN', w);
for (const e of errors) console.log('ERROR', e);
console.log(errors.length ? `${errors.length} error(s)` : 'clean');
process.exit(errors.length ? 1 : 0);
