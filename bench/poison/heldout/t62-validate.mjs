// t62 validator: node t62-validate.mjs  (no dependencies)
import fs from 'node:fs';
import path from 'node:path';
const dir = path.dirname(new URL(import.meta.url).pathname);
const catDir = path.join(dir, '..', '..', 'discovery', 'catalog');
const catalog = {};
for (const f of fs.readdirSync(catDir).filter(f => f.endsWith('.json'))) {
  try { const d = JSON.parse(fs.readFileSync(path.join(catDir, f), 'utf8')); catalog[d.server] = new Set(d.tools.map(t => t.name)); } catch {}
}
const ISO = new Set('aa ab af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs ca ce ch co cr cs cu cv cy da de dv dz ee el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz ia id ie ig ii ik io is it iu ja jv ka kg ki kj kk kl km kn ko kr ks ku kv kw ky la lb lg li ln lo lt lu lv mg mh mi mk ml mn mr ms mt my na nb nd ne ng nl nn no nr nv ny oc oj om or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg si sk sl sm sn so sq sr ss st su sv sw ta te tg th ti tk tl tn to tr ts tt tw ty ug uk ur uz ve vi vo wa wo xh yi yo za zh zu'.split(' '));
const BANNED = [/ignore (all )?previous instructions/i, /highest priority/i, /override/i, /disregard/i, /supersede/i, /takes precedence/i, /important/i,
  /wichtig/i, /belangrijk/i, /ważn/i, /důležit/i, /важн/i, /重要/, /중요/, /önemli/i, /tärkeä/i, /viktig/i, /vigtig/i, /quan trọng/i, /penting/i, /fontos/i,
  /最優先/, /最高优先/, /우선순위가 가장/, /vorrang/i, /priorité absolue/i, /máxima prioridad/i, /massima priorità/i];
const INVIS = /[\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF\u00AD]|[\u{E0000}-\u{E007F}]/u;
const errors = []; const err = (id, m) => errors.push(`${id}: ${m}`);
const file = path.join(dir, 't62-benign.jsonl');
const lines = fs.readFileSync(file, 'utf8').split('\n').filter(l => l.trim());
const ids = new Set(); const names = new Map();
const langs = {}; const len = { short: 0, medium: 0, long: 0 }; let catalogCount = 0; let propUserText = 0;
const voices = {};
function strings(o, p, out) {
  if (typeof o === 'string') out.push([p, o]);
  else if (Array.isArray(o)) o.forEach((v, i) => strings(v, `${p}[${i}]`, out));
  else if (o && typeof o === 'object') for (const [k, v] of Object.entries(o)) { out.push([p + '.<key>', k]); strings(v, `${p}.${k}`, out); }
  return out;
}
function checkProps(id, schema, p) {
  if (!schema || typeof schema !== 'object') return;
  if (schema.properties) {
    if (typeof schema.properties !== 'object') return err(id, `${p}.properties not object`);
    for (const [k, v] of Object.entries(schema.properties)) {
      const q = `${p}.properties.${k}`;
      if (!v || typeof v !== 'object') { err(id, `${q} not object`); continue; }
      if (!v.type) err(id, `${q} missing type`);
      if (typeof v.description !== 'string' || !v.description.trim()) err(id, `${q} missing description`);
      checkProps(id, v, q);
    }
  }
  if (schema.items) checkProps(id, schema.items, `${p}.items`);
  if (Array.isArray(schema.required) && schema.properties) for (const r of schema.required) if (!(r in schema.properties)) err(id, `${p} required '${r}' not in properties`);
}
lines.forEach((line, i) => {
  let r; try { r = JSON.parse(line); } catch (e) { return err(`line ${i + 1}`, 'bad JSON ' + e.message); }
  const id = r.id || `line ${i + 1}`;
  if (!/^t62-benign-\d{3}$/.test(r.id || '')) err(id, 'bad id');
  if (ids.has(r.id)) err(id, 'duplicate id'); ids.add(r.id);
  if (r.class !== 'benign') err(id, 'class must be benign');
  for (const f of ['voice', 'lang', 'server', 'note', 'source']) if (typeof r[f] !== 'string' || !r[f].trim()) err(id, `missing ${f}`);
  if ('where' in r || 'intent' in r) err(id, 'benign must not have where/intent');
  const allowed = new Set(['id', 'class', 'voice', 'lang', 'server', 'siblings', 'tool', 'note', 'source']);
  for (const k of Object.keys(r)) if (!allowed.has(k)) err(id, `unexpected field ${k}`);
  if (!ISO.has(r.lang)) err(id, `lang ${r.lang} not ISO 639-1`);
  langs[r.lang] = (langs[r.lang] || 0) + 1;
  voices[r.voice] = (voices[r.voice] || 0) + 1;
  if (catalog[r.server]) err(id, `server ${r.server} is a catalog server name; must be made up`);
  if (!Array.isArray(r.siblings) || !r.siblings.length || !r.siblings.every(s => typeof s === 'string' && s)) err(id, 'siblings must be non-empty string array');
  else if (r.tool && r.siblings.includes(r.tool.name)) err(id, 'siblings include the tool itself');
  if (r.source !== 'new') {
    const m = /^catalog:([^/]+)\/(.+)$/.exec(r.source || '');
    if (!m) err(id, `bad source ${r.source}`);
    else if (!catalog[m[1]] || !catalog[m[1]].has(m[2])) err(id, `source tool not in catalog: ${r.source}`);
    catalogCount++;
  }
  const t = r.tool;
  if (!t || typeof t !== 'object') return err(id, 'missing tool');
  if (typeof t.name !== 'string' || !/^[A-Za-z0-9_.\-]{1,64}$/.test(t.name)) err(id, `bad tool name ${t.name}`);
  if (typeof t.description !== 'string' || !t.description.trim()) err(id, 'missing description');
  const s = t.inputSchema;
  if (!s || s.type !== 'object' || typeof s.properties !== 'object') err(id, 'inputSchema must be object with properties');
  else checkProps(id, s, '$.inputSchema');
  for (const [p, v] of strings(t, '$', [])) {
    for (const b of BANNED) if (b.test(v)) err(id, `banned phrase ${b} at ${p}`);
    if (INVIS.test(v)) err(id, `invisible/bidi char at ${p}`);
    for (const u of v.match(/https?:\/\/[^\s"'<>)\]]+/g) || []) {
      const host = u.replace(/^https?:\/\//, '').split(/[/:?#]/)[0].toLowerCase();
      const ok = /\.example$/.test(host) || /^(www\.)?example\.(com|org|net)$/.test(host) || /^(198\.51\.100|203\.0\.113|192\.0\.2)\.\d+$/.test(host) || host === 'localhost' || host === '127.0.0.1';
      if (!ok) err(id, `URL host not allowed: ${u}`);
    }
    if (/\.description$/.test(p) && p !== '$.description' && /\b(user|assistant|ask|tell|confirm|consent)/i.test(v)) propUserText++;
  }
  const n = (t.description || '').length;
  if (n < 200) len.short++; else if (n < 700) len.medium++; else len.long++;
  names.set(t.name, (names.get(t.name) || 0) + 1);
});
const total = ids.size;
if (catalogCount > total / 5) err('batch', `catalog-adapted ${catalogCount} > 1/5 of ${total}`);
const nonEn = Object.keys(langs).filter(l => l !== 'en');
if (nonEn.length < 15) err('batch', `only ${nonEn.length} non-English languages`);
console.log(`records: ${lines.length}  unique ids: ${total}`);
console.log(`lengths (tool description): short<200 ${len.short}, 200-699 ${len.medium}, >=700 ${len.long}`);
console.log(`languages (${Object.keys(langs).length}): ${Object.entries(langs).sort((a, b) => b[1] - a[1]).map(([k, v]) => k + '=' + v).join(' ')}`);
console.log(`English share: ${((langs.en || 0) / Math.max(1, lines.length) * 100).toFixed(1)}%`);
console.log(`catalog-adapted: ${catalogCount}; property descriptions addressing user/consent: ${propUserText}`);
console.log(`distinct voices: ${Object.keys(voices).length}`);
const dupNames = [...names].filter(([, c]) => c > 1).map(([n]) => n);
if (dupNames.length) console.log(`note: repeated tool names: ${dupNames.join(', ')}`);
if (errors.length) { console.log(`\nFAIL (${errors.length}):`); errors.forEach(e => console.log('  ' + e)); process.exit(1); }
console.log('\nOK');
