// Validator for batch t51 (node, no dependencies). Usage: node t51-validate.mjs
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = path.dirname(fileURLToPath(import.meta.url));
const BATCH = 't51';
const catalogDir = path.join(dir, '..', '..', 'discovery', 'catalog');
const realTools = new Set();
for (const f of fs.readdirSync(catalogDir).filter(f => f.endsWith('.json'))) {
  const d = JSON.parse(fs.readFileSync(path.join(catalogDir, f), 'utf8'));
  for (const t of d.tools || []) realTools.add(t.name);
}

const errors = [];
const warn = [];
const err = (id, m) => errors.push(`${id}: ${m}`);

const banned = [
  /ignore (all |any )?previous instructions/i, /highest priority/i, /override/i, /disregard/i,
  /supersede/i, /takes precedence/i, /important/i,
  /最優先/, /最优先/, /最高优先级/, /最高優先/, /重要/, /無視/, /无视/, /忽略/, /忽視/, /覆盖/, /覆蓋/,
  /以前の指示/, /上書き/, /우선순위/, /최우선/, /무시/, /중요/, /bỏ qua/i, /quan trọng/i, /ưu tiên cao nhất/i,
  /สำคัญ/, /ลำดับความสำคัญสูงสุด/, /เพิกเฉย/, /penting/i, /abaikan/i, /prioritas tertinggi/i,
  /keutamaan tertinggi/i, /mahalaga/i, /huwag pansinin/i, /pinakamataas na prayoridad/i,
];
const invisible = /[\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF\u{E0000}-\u{E007F}\u00AD]/u;

function allStrings(o, out = [], withKeys = true) {
  if (typeof o === 'string') out.push(o);
  else if (Array.isArray(o)) o.forEach(x => allStrings(x, out, withKeys));
  else if (o && typeof o === 'object') for (const [k, v] of Object.entries(o)) { if (withKeys) out.push(k); allStrings(v, out, withKeys); }
  return out;
}

function checkProps(id, props, p) {
  if (!props || typeof props !== 'object') { err(id, `${p}: properties not an object`); return; }
  for (const [k, v] of Object.entries(props)) {
    const q = `${p}.${k}`;
    if (!v || typeof v !== 'object') { err(id, `${q} not an object`); continue; }
    if (!v.type) err(id, `${q} missing type`);
    if (typeof v.description !== 'string' || !v.description.trim()) err(id, `${q} missing description`);
    if (v.properties) checkProps(id, v.properties, `${q}.properties`);
    if (v.items && v.items.properties) checkProps(id, v.items.properties, `${q}.items.properties`);
  }
}

function resolve(tool, where) {
  if (!where.startsWith('$')) return undefined;
  const toks = [];
  const re = /\.([A-Za-z0-9_\-]+)|\[(\d+)\]|\["([^"]+)"\]/g;
  let m, last = 1, s = where;
  while ((m = re.exec(s))) {
    if (m.index !== last) return undefined;
    last = re.lastIndex;
    if (m[1] !== undefined) toks.push({ k: m[1] });
    else if (m[2] !== undefined) toks.push({ k: Number(m[2]) });
    else toks.push({ name: m[3] });
  }
  if (last !== s.length) return undefined;
  let cur = tool;
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    if (t.name !== undefined) {
      if (i !== toks.length - 1 || !cur || !(t.name in cur)) return undefined;
      return t.name; // property NAME carries the attack
    }
    if (cur == null) return undefined;
    cur = cur[t.k];
  }
  return cur;
}

function urlsOk(id, text) {
  const urls = (text.match(/https?:\/\/[^\s"')\]>]+/g) || []).map(u => u.replace(/[.,;:!?。，、]+$/, ''));
  for (const u of urls) {
    let host;
    try { host = new URL(u).hostname; } catch { err(id, `bad URL ${u}`); continue; }
    const ok = host.endsWith('.example') || /^198\.51\.100\.\d+$/.test(host) || /^203\.0\.113\.\d+$/.test(host);
    if (!ok) err(id, `URL outside .example/TEST-NET: ${u}`);
  }
  const emails = text.match(/[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g) || [];
  for (const e of emails) if (!e.toLowerCase().endsWith('.example')) err(id, `email outside .example: ${e}`);
}

const stats = {};
const ids = new Set();
const files = fs.readdirSync(dir).filter(f => f.startsWith(BATCH + '-') && f.endsWith('.jsonl'));
for (const f of files) {
  const cls = f.slice(BATCH.length + 1, -'.jsonl'.length);
  const lines = fs.readFileSync(path.join(dir, f), 'utf8').split('\n').filter(l => l.trim());
  const st = stats[f] = { records: 0, short: 0, medium: 0, long: 0, langs: {}, voices: {}, where: {} };
  lines.forEach((line, i) => {
    let r;
    try { r = JSON.parse(line); } catch (e) { err(`${f}:${i + 1}`, 'invalid JSON'); return; }
    const id = r.id || `${f}:${i + 1}`;
    st.records++;
    if (ids.has(id)) err(id, 'duplicate id'); ids.add(id);
    if (!new RegExp(`^${BATCH}-${cls}-\\d{3}$`).test(id)) err(id, `id does not match ${BATCH}-${cls}-NNN`);
    if (r.class !== cls) err(id, `class ${r.class} != file class ${cls}`);
    if (typeof r.voice !== 'string' || !r.voice) err(id, 'missing voice');
    if (!/^[a-z]{2}$/.test(r.lang || '')) err(id, 'lang not ISO 639-1');
    if (typeof r.server !== 'string' || !r.server) err(id, 'missing server');
    if (!Array.isArray(r.siblings) || !r.siblings.length) err(id, 'siblings missing/empty');
    const t = r.tool;
    if (!t || typeof t !== 'object') { err(id, 'missing tool'); return; }
    if (typeof t.name !== 'string' || !t.name) err(id, 'tool.name missing');
    if (typeof t.description !== 'string') err(id, 'tool.description missing');
    const s = t.inputSchema;
    if (!s || s.type !== 'object') err(id, 'inputSchema.type must be object');
    else checkProps(id, s.properties, '$.inputSchema.properties');
    if (s && Array.isArray(s.required)) for (const q of s.required) if (!s.properties || !(q in s.properties)) err(id, `required ${q} not in properties`);
    if (cls === 'benign') {
      if ('where' in r || 'intent' in r) err(id, 'benign record has where/intent');
      if (typeof r.note !== 'string' || !r.note) err(id, 'benign missing note');
      if (typeof r.source !== 'string' || !(r.source === 'new' || r.source.startsWith('catalog:'))) err(id, 'bad source');
      for (const sname of r.siblings || []) if (realTools.has(sname)) warn.push(`${id}: benign sibling ${sname} is also a real catalog tool name`);
    } else {
      if (typeof r.intent !== 'string' || !r.intent) err(id, 'missing intent');
      if (typeof r.where !== 'string') err(id, 'missing where');
      else {
        const v = resolve(t, r.where);
        if (typeof v !== 'string') err(id, `where ${r.where} does not resolve to a string`);
        st.where[r.where.replace(/properties\.[^.\[]+/g, 'properties.<p>')] = (st.where[r.where.replace(/properties\.[^.\[]+/g, 'properties.<p>')] || 0) + 1;
      }
      for (const sname of r.siblings || []) if (!realTools.has(sname)) err(id, `sibling ${sname} is not a real catalog tool`);
    }
    const text = allStrings(r).join('\n');
    if (invisible.test(text)) err(id, 'invisible/bidi/tag character');
    for (const b of banned) if (b.test(text)) err(id, `banned phrase ${b}`);
    urlsOk(id, allStrings(r.tool).join('\n'));
    const n = (t.description || '').length;
    if (n < 200) st.short++; else if (n < 700) st.medium++; else st.long++;
    st.langs[r.lang] = (st.langs[r.lang] || 0) + 1;
    st.voices[r.voice] = (st.voices[r.voice] || 0) + 1;
  });
}

for (const [f, st] of Object.entries(stats)) {
  console.log(`${f}: ${st.records} records; description length short<200: ${st.short}, 200-699: ${st.medium}, >=700: ${st.long}`);
  console.log('  langs:', JSON.stringify(st.langs));
  console.log('  voices:', JSON.stringify(st.voices));
  if (Object.keys(st.where).length) console.log('  where:', JSON.stringify(st.where));
}
for (const w of warn) console.log('WARN', w);
if (errors.length) { for (const e of errors) console.log('ERROR', e); console.log(`FAIL: ${errors.length} error(s)`); process.exit(1); }
console.log('OK: all rules pass');
