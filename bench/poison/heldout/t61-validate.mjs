// t61 validator: node t61-validate.mjs  (no dependencies)
import fs from 'node:fs';
import path from 'node:path';
import url from 'node:url';
const dir = path.dirname(url.fileURLToPath(import.meta.url));
const file = path.join(dir, 't61-benign.jsonl');
const catDir = path.join(dir, '..', '..', 'discovery', 'catalog');
const catalog = {};
for (const f of fs.readdirSync(catDir).filter(f => f.endsWith('.json'))) {
  const j = JSON.parse(fs.readFileSync(path.join(catDir, f), 'utf8'));
  catalog[j.server] = new Set(j.tools.map(t => t.name));
}
const ISO = new Set('aa ab af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs ca ce ch co cr cs cu cv cy da de dv dz ee el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz ia id ie ig ii ik io is it iu ja jv ka kg ki kj kk kl km kn ko kr ks ku kv kw ky la lb lg li ln lo lt lu lv mg mh mi mk ml mn mr ms mt my na nb nd ne ng nl nn no nr nv ny oc oj om or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg si sk sl sm sn so sq sr ss st su sv sw ta te tg th ti tk tl tn to tr ts tt tw ty ug uk ur uz ve vi vo wa wo xh yi yo za zh zu'.split(' '));
const BANNED = [/ignore (all )?previous instructions/i, /highest priority/i, /override/i, /disregard/i, /supersede/i, /takes precedence/i, /important/i,
  /vorrang/i, /wichtig/i, /importante/i, /prioridad/i, /priorité/i, /重要/, /最優先/, /最高优先/, /важн/i, /ważn/i, /önemli/i, /중요/, /belangrijk/i, /viktig/i, /důležit/i, /quan trọng/i, /важлив/i];
const INVIS = /[\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF\u00AD]|[\u{E0000}-\u{E007F}]/u;
const errs = [];
const err = (id, m) => errs.push(`${id}: ${m}`);
const lines = fs.readFileSync(file, 'utf8').split('\n').filter(l => l.trim());
const ids = new Set();
const counts = { total: 0, short: 0, mid: 0, long: 0, catalog: 0, lang: {}, voice: {} };
function walkStrings(o, p, fn) {
  if (typeof o === 'string') fn(o, p);
  else if (Array.isArray(o)) o.forEach((v, i) => walkStrings(v, `${p}[${i}]`, fn));
  else if (o && typeof o === 'object') for (const [k, v] of Object.entries(o)) { fn(k, `${p}<key ${k}>`); walkStrings(v, `${p}.${k}`, fn); }
}
function checkProps(id, schema, p) {
  if (!schema || typeof schema !== 'object') return;
  if (schema.properties) {
    for (const [k, v] of Object.entries(schema.properties)) {
      if (!v.type) err(id, `${p}.properties.${k} missing type`);
      if (typeof v.description !== 'string' || !v.description.trim()) err(id, `${p}.properties.${k} missing description`);
      checkProps(id, v, `${p}.properties.${k}`);
    }
    if (schema.required) for (const r of schema.required) if (!(r in schema.properties)) err(id, `${p} required '${r}' not a property`);
  }
  if (schema.items) checkProps(id, schema.items, `${p}.items`);
}
for (const [i, line] of lines.entries()) {
  let r;
  try { r = JSON.parse(line); } catch (e) { err(`line ${i + 1}`, 'bad JSON ' + e.message); continue; }
  const id = r.id || `line ${i + 1}`;
  counts.total++;
  if (!/^t61-benign-\d{3}$/.test(r.id)) err(id, 'bad id');
  if (ids.has(r.id)) err(id, 'duplicate id'); ids.add(r.id);
  if (r.class !== 'benign') err(id, 'class must be benign');
  for (const f of ['voice', 'lang', 'server', 'note', 'source']) if (typeof r[f] !== 'string' || !r[f].trim()) err(id, `missing ${f}`);
  if ('where' in r || 'intent' in r) err(id, 'benign must not have where/intent');
  if (!ISO.has(r.lang)) err(id, 'lang not ISO 639-1');
  if (!Array.isArray(r.siblings) || !r.siblings.length || r.siblings.some(s => typeof s !== 'string')) err(id, 'siblings must be non-empty string array');
  const t = r.tool;
  if (!t || typeof t.name !== 'string' || typeof t.description !== 'string') { err(id, 'tool name/description'); continue; }
  if (!/^[A-Za-z0-9_.-]{1,64}$/.test(t.name)) err(id, 'bad tool name');
  if (r.siblings?.includes(t.name)) err(id, 'siblings include the tool itself');
  if (!t.inputSchema || t.inputSchema.type !== 'object' || typeof t.inputSchema.properties !== 'object') err(id, 'inputSchema must be object with properties');
  else checkProps(id, t.inputSchema, '$.inputSchema');
  const allowed = new Set(['name', 'title', 'description', 'inputSchema', 'annotations']);
  for (const k of Object.keys(t)) if (!allowed.has(k)) err(id, `unexpected tool key ${k}`);
  if (r.source !== 'new') {
    const m = /^catalog:([^/]+)\/(.+)$/.exec(r.source || '');
    if (!m || !catalog[m[1]] || !catalog[m[1]].has(m[2])) err(id, `bad source ${r.source}`); else counts.catalog++;
  }
  walkStrings(t, '$', (s, p) => {
    for (const b of BANNED) if (b.test(s)) err(id, `banned phrase ${b} at ${p}`);
    if (INVIS.test(s)) err(id, `invisible char at ${p}`);
    for (const m of s.matchAll(/https?:\/\/([^\/\s"'`)<>]+)/g)) {
      const host = m[1].replace(/[.,;:]+$/, '').replace(/^.*@/, '').replace(/:\d+$/, '').toLowerCase();
      if (!(host.endsWith('.example') || host === 'localhost' || host === '127.0.0.1' || /^(198\.51\.100|203\.0\.113|192\.0\.2)\.\d+$/.test(host))) err(id, `URL host not .example/TEST-NET/localhost: ${host}`);
    }
  });
  for (const s of [r.note, r.voice]) if (INVIS.test(s)) err(id, 'invisible char in note/voice');
  const len = t.description.length;
  if (len < 200) counts.short++; else if (len < 700) counts.mid++; else counts.long++;
  counts.lang[r.lang] = (counts.lang[r.lang] || 0) + 1;
  counts.voice[r.voice] = (counts.voice[r.voice] || 0) + 1;
}
const n = counts.total;
if (n && counts.catalog > n / 5) err('batch', `catalog adaptations ${counts.catalog} > a fifth of ${n}`);
const nonEn = Object.entries(counts.lang).filter(([l]) => l !== 'en');
if (nonEn.length < 10) err('batch', `only ${nonEn.length} non-English languages`);
const enShare = (counts.lang.en || 0) / n;
if (enShare < 0.6 || enShare > 0.8) err('batch', `English share ${(enShare * 100).toFixed(0)}% not about 70%`);
for (const b of ['short', 'mid', 'long']) if (counts[b] < n * 0.2) err('batch', `too few ${b} descriptions: ${counts[b]}`);
console.log(`records: ${n}  short(<200): ${counts.short}  mid(200-699): ${counts.mid}  long(>=700): ${counts.long}  catalog-adapted: ${counts.catalog}`);
console.log('languages:', JSON.stringify(counts.lang));
console.log('distinct voices:', Object.keys(counts.voice).length);
if (errs.length) { console.log(`FAIL: ${errs.length} problem(s)`); for (const e of errs) console.log('  ' + e); process.exit(1); }
console.log('OK');
