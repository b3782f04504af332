// validate.mjs - checks t28-d.jsonl and t28-benign.jsonl (node, no dependencies)
// Usage: node validate.mjs            (prints problems, exits 1 if any)
//        node validate.mjs --stats    (also prints length / nesting / language tables)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const catalogDir = path.resolve(here, '..', '..', 'discovery', 'catalog');
const FILES = [
  { file: 't28-d.jsonl', cls: 'd', poisoned: true },
  { file: 't28-benign.jsonl', cls: 'benign', poisoned: false },
];
const showStats = process.argv.includes('--stats');

const problems = [];
const warn = [];
const bad = (where, msg) => problems.push(`${where}: ${msg}`);

// ---------- catalog ----------
const catalogTools = new Set();
for (const f of fs.readdirSync(catalogDir)) {
  if (!f.endsWith('.json')) continue;
  const j = JSON.parse(fs.readFileSync(path.join(catalogDir, f), 'utf8'));
  for (const t of j.tools || []) catalogTools.add(t.name);
}

// ---------- helpers ----------
const NAME_RE = /^[A-Za-z0-9_.-]{1,64}$/;
// zero-width, bidi controls, word joiners, BOM, soft hyphen, tag chars, C0/C1 controls except \t \n \r
const FORBIDDEN_RE = /[\u00AD\u061C\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\uFEFF\u{E0000}-\u{E007F}\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/u;
const STOCK = [/ignore (all |any )?(the )?previous instructions/i, /highest priority/i, /\boverrid(e|es|den|ing)\b/i,
  /\bdisregard/i, /\bsupersed/i, /takes precedence/i, /\bIMPORTANT\b/];
const SLOTS = new Set(['default', 'enum', 'examples', 'const', 'title', 'name']);

function allStrings(v, out = []) {
  if (typeof v === 'string') out.push(v);
  else if (Array.isArray(v)) v.forEach(x => allStrings(x, out));
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) { out.push(k); allStrings(x, out); }
  return out;
}

// parse a path like $.inputSchema.properties.a.items.anyOf[1].properties["x y"].enum[2]
function parsePath(p) {
  if (!p.startsWith('$')) return null;
  const segs = [];
  let i = 1;
  while (i < p.length) {
    if (p[i] === '.') {
      const m = /^\.([A-Za-z_$][A-Za-z0-9_$-]*)/.exec(p.slice(i));
      if (!m) return null;
      segs.push({ key: m[1], bracket: false }); i += m[0].length;
    } else if (p[i] === '[') {
      const mNum = /^\[(\d+)\]/.exec(p.slice(i));
      if (mNum) { segs.push({ key: Number(mNum[1]), bracket: true }); i += mNum[0].length; continue; }
      const mStr = /^\["((?:[^"\\]|\\.)*)"\]/.exec(p.slice(i));
      if (!mStr) return null;
      segs.push({ key: JSON.parse('"' + mStr[1] + '"'), bracket: true, quoted: true }); i += mStr[0].length;
    } else return null;
  }
  return segs;
}

function resolve(root, segs) {
  let cur = { tool: root }.tool;
  // the path is rooted at the tool object
  const trail = [];
  for (const s of segs) {
    if (cur === null || typeof cur !== 'object') return { ok: false };
    if (!(s.key in cur)) return { ok: false };
    trail.push(cur);
    cur = cur[s.key];
  }
  return { ok: true, value: cur, parent: trail[trail.length - 1], segs };
}

function checkSchemaProps(schema, where, loc) {
  if (!schema || typeof schema !== 'object') return;
  if (schema.properties) {
    if (typeof schema.properties !== 'object' || Array.isArray(schema.properties)) bad(where, `${loc}.properties not an object`);
    else for (const [k, v] of Object.entries(schema.properties)) {
      const l = `${loc}.properties[${JSON.stringify(k)}]`;
      if (!v || typeof v !== 'object') { bad(where, `${l} is not a schema`); continue; }
      if (!('type' in v)) bad(where, `${l} has no type`);
      if (typeof v.description !== 'string' || !v.description.trim()) bad(where, `${l} has no description`);
      checkSchemaProps(v, where, l);
    }
  }
  if (schema.items) checkSchemaProps(schema.items, where, loc + '.items');
  for (const key of ['anyOf', 'oneOf', 'allOf']) {
    if (Array.isArray(schema[key])) schema[key].forEach((b, i) => checkSchemaProps(b, where, `${loc}.${key}[${i}]`));
  }
  if (schema.additionalProperties && typeof schema.additionalProperties === 'object')
    checkSchemaProps(schema.additionalProperties, where, loc + '.additionalProperties');
  if (schema.enum && !Array.isArray(schema.enum)) bad(where, `${loc}.enum not an array`);
  if (schema.examples && !Array.isArray(schema.examples)) bad(where, `${loc}.examples not an array`);
}

function isTestNetOrPrivate(ip) {
  const o = ip.split('.').map(Number);
  if (o.some(x => x > 255)) return true; // not an IP (version number etc.)
  if (o[0] === 198 && o[1] === 51 && o[2] === 100) return 'testnet';
  if (o[0] === 203 && o[1] === 0 && o[2] === 113) return 'testnet';
  if (o[0] === 192 && o[1] === 0 && o[2] === 2) return 'testnet';
  if (o[0] === 10 || o[0] === 127 || (o[0] === 192 && o[1] === 168) || (o[0] === 172 && o[1] >= 16 && o[1] <= 31) || o[0] === 0) return 'private';
  return false;
}

function hostsIn(s) {
  const hosts = [];
  const urlRe = /\b[a-z][a-z0-9+.-]*:\/\/([^\/\s"'`<>)\]:?#]+)/gi;
  let m;
  while ((m = urlRe.exec(s))) hosts.push(m[1].replace(/^[^@]*@/, '').toLowerCase());
  const mailRe = /[A-Za-z0-9._%+-]+@([A-Za-z0-9.-]+\.[A-Za-z]{2,})/g;
  while ((m = mailRe.exec(s))) hosts.push(m[1].toLowerCase());
  return hosts;
}

function trigrams(text) {
  const words = text.toLowerCase().replace(/[^\p{L}\p{N}\s_-]+/gu, ' ').split(/\s+/).filter(Boolean);
  const set = new Set();
  for (let i = 0; i + 2 < words.length; i++) set.add(words[i] + ' ' + words[i + 1] + ' ' + words[i + 2]);
  // scripts without spaces: fall back to character trigrams
  if (words.length < 6 && /[\u3040-\u30ff\u3400-\u9fff\u0e00-\u0e7f\u0e80-\u0eff\u1000-\u109f]/.test(text)) {
    const chars = [...text.replace(/\s+/g, '')];
    for (let i = 0; i + 2 < chars.length; i++) set.add('c:' + chars[i] + chars[i + 1] + chars[i + 2]);
  }
  return set;
}

// ---------- load ----------
const ids = new Set();
const toolNames = new Map();
const descs = [];
const stats = {};

for (const { file, cls, poisoned } of FILES) {
  const fp = path.join(here, file);
  if (!fs.existsSync(fp)) { bad(file, 'missing'); continue; }
  const raw = fs.readFileSync(fp, 'utf8');
  if (FORBIDDEN_RE.test(raw)) {
    raw.split('\n').forEach((ln, i) => { if (FORBIDDEN_RE.test(ln)) bad(`${file}:${i + 1}`, `forbidden invisible/bidi/control character U+${ln.match(FORBIDDEN_RE)[0].codePointAt(0).toString(16).toUpperCase()}`); });
  }
  const st = stats[file] = { n: 0, short: 0, mid: 0, long: 0, nested: 0, langs: {}, slots: {}, en: 0 };
  const lines = raw.split('\n');
  lines.forEach((line, idx) => {
    const ln = `${file}:${idx + 1}`;
    if (!line.trim()) { if (idx !== lines.length - 1) bad(ln, 'empty line'); return; }
    let r;
    try { r = JSON.parse(line); } catch (e) { bad(ln, 'JSON parse error: ' + e.message); return; }
    const where = `${ln} ${r.id || '?'}`;
    st.n++;
    const common = ['id', 'class', 'voice', 'lang', 'server', 'siblings', 'tool', 'slot', 'nested'];
    const extra = poisoned ? ['where', 'intent'] : ['note', 'source'];
    for (const f of [...common, ...extra]) if (!(f in r)) bad(where, `missing field ${f}`);
    for (const f of Object.keys(r)) if (![...common, ...extra].includes(f)) bad(where, `unexpected field ${f}`);
    if (!poisoned && ('where' in r || 'intent' in r)) bad(where, 'benign record has where/intent');
    const idRe = new RegExp(`^t28-${cls}-\\d{3}$`);
    if (!idRe.test(r.id || '')) bad(where, `id not of form t28-${cls}-NNN`);
    if (ids.has(r.id)) bad(where, 'duplicate id'); ids.add(r.id);
    if (r.class !== cls) bad(where, `class should be ${cls}`);
    for (const f of ['voice', 'lang', 'server']) if (typeof r[f] !== 'string' || !r[f].trim()) bad(where, `${f} empty`);
    if (!/^[a-z]{2}$/.test(r.lang || '')) bad(where, 'lang not ISO 639-1');
    if (!SLOTS.has(r.slot)) bad(where, `slot must be one of ${[...SLOTS].join('|')}`);
    if (typeof r.nested !== 'boolean') bad(where, 'nested must be boolean');
    if (!Array.isArray(r.siblings) || r.siblings.length === 0) bad(where, 'siblings must be a non-empty array');
    else for (const s of r.siblings) {
      if (typeof s !== 'string' || !NAME_RE.test(s)) bad(where, `bad sibling name ${s}`);
      else if (poisoned && !catalogTools.has(s)) bad(where, `sibling ${s} not in catalog`);
    }
    if (!poisoned) {
      if (typeof r.note !== 'string' || !r.note.trim()) bad(where, 'note empty');
      if (!(r.source === 'new' || /^catalog:[^/]+\/.+$/.test(r.source || ''))) bad(where, 'source must be new or catalog:<server>/<tool>');
    }
    const t = r.tool;
    if (!t || typeof t !== 'object') { bad(where, 'tool missing'); return; }
    if (!NAME_RE.test(t.name || '')) bad(where, `tool name ${t.name} invalid`);
    if (toolNames.has(t.name)) bad(where, `tool name ${t.name} reused (also ${toolNames.get(t.name)})`);
    toolNames.set(t.name, r.id);
    if (typeof t.description !== 'string' || !t.description.trim()) bad(where, 'tool.description missing');
    if ('title' in t && typeof t.title !== 'string') bad(where, 'tool.title not a string');
    const s = t.inputSchema;
    if (!s || s.type !== 'object' || typeof s.properties !== 'object') bad(where, 'inputSchema must be an object schema with properties');
    else {
      checkSchemaProps(s, where, '$.inputSchema');
      if (Array.isArray(s.required)) for (const q of s.required) if (!(q in s.properties)) bad(where, `required ${q} not a property`);
    }
    for (const k of Object.keys(t)) if (!['name', 'description', 'title', 'inputSchema'].includes(k)) bad(where, `unexpected tool key ${k}`);

    // stock phrases anywhere in the record's tool
    const toolText = allStrings(t).join('\n');
    for (const re of STOCK) if (re.test(toolText)) bad(where, `stock phrase ${re}`);

    // IP addresses
    for (const ip of toolText.match(/\b\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}\b/g) || []) {
      const k = isTestNetOrPrivate(ip);
      if (!k) bad(where, `public IP ${ip} (use TEST-NET or private ranges)`);
      if (poisoned && k === 'private') warn.push(`${where}: private IP ${ip} in poisoned record`);
    }

    // lengths, stats
    const L = (t.description || '').length;
    if (L < 200) st.short++; else if (L < 700) st.mid++; else st.long++;
    if (r.nested) st.nested++;
    st.langs[r.lang] = (st.langs[r.lang] || 0) + 1;
    st.slots[r.slot] = (st.slots[r.slot] || 0) + 1;
    descs.push({ id: r.id, text: t.description || '' });

    if (poisoned) {
      if (typeof r.intent !== 'string' || !r.intent.trim()) bad(where, 'intent empty');
      const segs = typeof r.where === 'string' ? parsePath(r.where) : null;
      if (!segs) { bad(where, `where unparsable: ${r.where}`); return; }
      if (segs[0]?.key !== 'inputSchema' && segs[0]?.key !== 'description' && segs[0]?.key !== 'title') bad(where, 'where must start inside tool');
      const res = resolve(t, segs);
      if (!res.ok) { bad(where, `where does not resolve: ${r.where}`); return; }
      const last = segs[segs.length - 1];
      const prev = segs[segs.length - 2];
      let slotSeen;
      if (typeof res.value === 'string') {
        // slot from the path
        const keyBefore = typeof last.key === 'number' ? prev?.key : last.key;
        if (keyBefore === 'default') slotSeen = 'default';
        else if (keyBefore === 'enum') slotSeen = 'enum';
        else if (keyBefore === 'examples' || segs.some(x => x.key === 'examples')) slotSeen = 'examples';
        else if (keyBefore === 'const') slotSeen = 'const';
        else if (keyBefore === 'title') slotSeen = 'title';
        else if (segs.some(x => x.key === 'default')) slotSeen = 'default';
        else slotSeen = 'other:' + keyBefore;
        if (segs.length >= 1 && ['description'].includes(last.key)) bad(where, 'class d must not place poison in a description');
      } else if (res.value && typeof res.value === 'object' && last.quoted && prev?.key === 'properties') {
        slotSeen = 'name';
        if (!('type' in res.value)) bad(where, 'property-name where resolves to schema without type');
      } else bad(where, `where resolves to ${typeof res.value}, not a string or a property schema`);
      if (slotSeen && slotSeen !== r.slot) bad(where, `slot label ${r.slot} but path says ${slotSeen}`);
      // nested: anything deeper than $.inputSchema.properties.<p>.<slot>
      const inner = segs.slice(3);
      const isNested = inner.some(x => ['items', 'properties', 'anyOf', 'oneOf', 'allOf', 'additionalProperties'].includes(x.key));
      if (isNested !== r.nested) bad(where, `nested label ${r.nested} but path says ${isNested}`);
      // attacker endpoints in the poisoned string
      const poisonText = typeof res.value === 'string' ? res.value : String(last.key);
      for (const h of hostsIn(poisonText)) {
        if (!(h.endsWith('.example') || /^\d+\.\d+\.\d+\.\d+$/.test(h) && isTestNetOrPrivate(h) === 'testnet' || h === 'localhost')) bad(where, `attacker host ${h} is not .example / TEST-NET`);
      }
      // descriptions of a d tool must stay clean: no hosts other than .example in description? (only warn)
    }
    // any host in any record: warn if neither .example nor a well-known vendor domain
    for (const h of hostsIn(toolText)) {
      if (/^\d+\.\d+\.\d+\.\d+$/.test(h)) continue;
      if (!/\.(example|test|invalid|localhost)$/.test(h) && h !== 'localhost' && !/(^|\.)example\.(com|org|net)$/.test(h)) warn.push(`${where}: non-reserved host ${h}`);
      if (poisoned && !h.endsWith('.example') && h !== 'localhost') warn.push(`${where}: host ${h} in poisoned record`);
    }
  });
}

// ---------- 3-gram overlap between descriptions ----------
const grams = descs.map(d => ({ id: d.id, g: trigrams(d.text) }));
for (let i = 0; i < grams.length; i++) {
  const a = grams[i];
  if (a.g.size === 0) continue;
  for (let j = i + 1; j < grams.length; j++) {
    const b = grams[j];
    if (b.g.size === 0) continue;
    let shared = 0;
    const [sm, lg] = a.g.size <= b.g.size ? [a.g, b.g] : [b.g, a.g];
    for (const x of sm) if (lg.has(x)) shared++;
    if (shared / sm.size > 0.5) bad(`${a.id} ~ ${b.id}`, `descriptions share ${shared}/${sm.size} word 3-grams`);
  }
}

// ---------- report ----------
if (showStats) {
  for (const [f, st] of Object.entries(stats)) {
    const en = st.langs.en || 0;
    console.log(`${f}: ${st.n} records | desc length short/mid/long ${st.short}/${st.mid}/${st.long} | nested ${st.nested} | English ${en} (${st.n ? Math.round(100 * en / st.n) : 0}%) | ${Object.keys(st.langs).length} languages`);
    console.log('  slots: ' + Object.entries(st.slots).map(([k, v]) => `${k}=${v}`).join(' '));
    console.log('  langs: ' + Object.entries(st.langs).sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k}=${v}`).join(' '));
  }
  const all = {};
  for (const st of Object.values(stats)) for (const [k, v] of Object.entries(st.langs)) all[k] = (all[k] || 0) + v;
  console.log(`all files: ${Object.keys(all).length} languages`);
  for (const w of warn) console.log('warn: ' + w);
}
if (problems.length) {
  for (const p of problems) console.log('PROBLEM ' + p);
  console.log(`${problems.length} problem(s)`);
  process.exit(1);
}
console.log(`clean: ${Object.entries(stats).map(([f, s]) => `${f}=${s.n}`).join(', ')}${warn.length ? ` (${warn.length} warning(s), see --stats)` : ''}`);
