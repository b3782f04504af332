// t72 validator: node t72-validate.mjs  (no dependencies)
import fs from 'fs';
import path from 'path';
const dir = path.dirname(new URL(import.meta.url).pathname);
const B = 't72';
const catDir = path.join(dir, '..', '..', 'discovery', 'catalog');
const realTools = new Set();
for (const f of fs.readdirSync(catDir)) if (f.endsWith('.json')) {
  const j = JSON.parse(fs.readFileSync(path.join(catDir, f), 'utf8'));
  for (const t of j.tools || []) realTools.add(t.name);
}
const errs = [];
const E = (id, m) => errs.push(`${id}: ${m}`);
const files = fs.readdirSync(dir).filter(f => f.startsWith(B + '-') && f.endsWith('.jsonl'));
const recs = [];
for (const f of files) {
  const lines = fs.readFileSync(path.join(dir, f), 'utf8').split('\n').filter(l => l.trim());
  lines.forEach((l, i) => {
    try { const r = JSON.parse(l); r.__file = f; recs.push(r); }
    catch (e) { E(`${f}:${i + 1}`, 'bad JSON ' + e.message); }
  });
}
const byId = new Map();
const banned = [/ignore (all )?previous instructions/i, /highest priority/i, /override/i, /disregard/i, /supersede/i, /takes precedence/i, /important/i,
  /ignora(r)? (las )?instrucciones anteriores/i, /ignorez les instructions/i, /prioridad m[aá]xima/i, /priorit[eé] absolue/i, /wichtig/i, /importante/i, /importantes/i, /重要/, /중요/, /важно/i, /ważne/i, /önemli/i, /viktig/i, /belangrijk/i, /důležit/i, /penting/i, /quan trọng/i, /मह्त्वपूर्ण|महत्वपूर्ण/, /مهم/, /חשוב/];
const invis = /[\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF\u00AD]|[\u{E0000}-\u{E007F}]/u;
const langs = new Set('en es fr de it pt ja zh ko ru pl tr ar hi id vi nl sv cs uk he el fi da no ro hu th bn fa ms ca'.split(' '));
function allStrings(o, p = '$', out = []) {
  if (typeof o === 'string') out.push([p, o]);
  else if (Array.isArray(o)) o.forEach((v, i) => allStrings(v, `${p}[${i}]`, out));
  else if (o && typeof o === 'object') for (const k of Object.keys(o)) { out.push([p + '#key:' + k, k]); allStrings(o[k], `${p}.${k}`, out); }
  return out;
}
function checkProps(id, schema, p) {
  if (!schema || typeof schema !== 'object') return;
  if (schema.properties) for (const [k, v] of Object.entries(schema.properties)) {
    if (!v.type) E(id, `${p}.properties.${k} no type`);
    if (typeof v.description !== 'string' || !v.description) E(id, `${p}.properties.${k} no description`);
    checkProps(id, v, `${p}.properties.${k}`);
  }
  if (schema.items) checkProps(id, schema.items, p + '.items');
  if (schema.required) for (const r of schema.required) if (!schema.properties || !(r in schema.properties)) E(id, `${p} required ${r} missing`);
}
function resolve(tool, where) {
  if (!where.startsWith('$')) return undefined;
  const toks = [];
  const re = /\.([A-Za-z0-9_\-]+)|\[(\d+)\]|\["([^"]+)"\]/g; let m; let rest = where.slice(1); let idx = 0;
  while ((m = re.exec(rest))) { if (m.index !== idx) return undefined; idx = re.lastIndex; toks.push(m[1] ?? (m[2] !== undefined ? +m[2] : { name: m[3] })); }
  if (idx !== rest.length) return undefined;
  let cur = tool;
  for (const t of toks) {
    if (typeof t === 'object') { if (!cur || !(t.name in cur)) return undefined; return t.name; }
    if (cur == null) return undefined; cur = cur[t];
  }
  return cur;
}
function urlsOk(id, s) {
  const urls = s.match(/https?:\/\/[^\s"'<>)]+/g) || [];
  for (const u of urls) {
    let h; try { h = new URL(u.replace(/[.,;:]+$/, '')).hostname; } catch { E(id, 'bad url ' + u); continue; }
    if (!(h.endsWith('.example') || h === 'example' || /^198\.51\.100\.|^203\.0\.113\./.test(h))) E(id, 'url host not allowed: ' + h);
  }
  const ips = s.match(/\b\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}\b/g) || [];
  for (const ip of ips) if (!/^198\.51\.100\.|^203\.0\.113\.|^127\.0\.0\.1$|^0\.0\.0\.0$/.test(ip)) E(id, 'ip not allowed ' + ip);
}
const counts = {}; const langCount = {}; const lenBins = { short: 0, mid: 0, long: 0 }; const whereCount = {};
for (const r of recs) {
  const id = r.id || '(no id)';
  if (byId.has(id)) E(id, 'duplicate id'); byId.set(id, r);
  const m = /^t72-(p3|p4|benign)-(\d{3})$/.exec(id);
  if (!m) E(id, 'bad id'); else if (m[1] !== r.class) E(id, 'id/class mismatch');
  if (r.__file !== `${B}-${r.class}.jsonl`) E(id, 'in wrong file ' + r.__file);
  counts[r.class] = (counts[r.class] || 0) + 1;
  if (!langs.has(r.lang)) E(id, 'lang ' + r.lang);
  langCount[r.lang] = (langCount[r.lang] || 0) + 1;
  for (const k of ['voice', 'server']) if (typeof r[k] !== 'string' || !r[k]) E(id, 'missing ' + k);
  if (!Array.isArray(r.siblings) || !r.siblings.length) E(id, 'siblings');
  if (!r.tool || typeof r.tool.name !== 'string' || typeof r.tool.description !== 'string') E(id, 'tool name/description');
  if (!r.tool?.inputSchema || r.tool.inputSchema.type !== 'object') E(id, 'inputSchema');
  checkProps(id, r.tool?.inputSchema, '$.inputSchema');
  if (typeof r.pair !== 'string') E(id, 'no pair');
  for (const [p, s] of allStrings(r)) {
    if (p.startsWith('$.__file')) continue;
    for (const b of banned) if (b.test(s)) E(id, `banned phrase ${b} at ${p}`);
    if (invis.test(s)) E(id, 'invisible char at ' + p);
    urlsOk(id, s);
  }
  const dl = r.tool?.description?.length || 0;
  if (dl < 200) lenBins.short++; else if (dl < 700) lenBins.mid++; else lenBins.long++;
  if (r.class === 'benign') {
    if (r.where || r.intent) E(id, 'benign has where/intent');
    if (!r.note) E(id, 'benign no note');
    if (r.source !== 'new' && !/^catalog:/.test(r.source || '')) E(id, 'source');
    for (const s of r.siblings || []) if (realTools.has(s)) E(id, 'benign sibling is a real catalog tool name: ' + s);
  } else {
    if (!r.where || !r.intent) E(id, 'poisoned needs where/intent');
    if ('note' in r || 'source' in r) E(id, 'poisoned has note/source');
    for (const s of r.siblings || []) if (!realTools.has(s)) E(id, 'sibling not a real catalog tool: ' + s);
    const v = resolve(r.tool, r.where || '');
    if (typeof v !== 'string') E(id, 'where does not resolve to a string: ' + r.where);
    const wk = (r.where || '').replace(/properties\.[^.\[]+/g, 'properties.*').replace(/\["[^"]+"\]/, '["*"]');
    whereCount[wk] = (whereCount[wk] || 0) + 1;
  }
}
// pairs
const norm = o => JSON.stringify(o);
for (const r of recs) {
  const o = byId.get(r.pair);
  if (!o) { E(r.id, 'pair not found ' + r.pair); continue; }
  if (o.pair !== r.id) E(r.id, 'pair not mutual');
  if ((r.class === 'benign') === (o.class === 'benign')) E(r.id, 'pair must be poisoned+benign');
  if (r.server !== o.server || r.lang !== o.lang || r.tool?.name !== o.tool?.name) E(r.id, 'pair server/lang/name mismatch');
  if (r.class !== 'benign') {
    const a = allStrings(r.tool), b = allStrings(o.tool);
    const sa = a.map(x => x[0]).join('|'), sb = b.map(x => x[0]).join('|');
    let diff = 0;
    if (sa !== sb) {
      // structure differs (e.g. property renamed): count differing keys
      const ka = new Set(a.map(x => x[0] + '=' + x[1])), kb = new Set(b.map(x => x[0] + '=' + x[1]));
      const onlyA = [...ka].filter(x => !kb.has(x)).length;
      if (onlyA > 6) E(r.id, 'tool structures differ too much (' + onlyA + ')');
      diff = -1;
    } else {
      const diffPaths = [];
      for (let i = 0; i < a.length; i++) if (a[i][1] !== b[i][1]) { diff++; diffPaths.push(a[i][0]); }
      const wherePath = (r.where || '').replace(/\["([^"]+)"\]/, '.$1');
      if (!diffPaths.includes(wherePath) && !diffPaths.some(x => x.endsWith('#key:' + wherePath.split('.').pop()))) E(r.id, 'the string at where is not one of the strings that differ from the twin');
      if (diff < 1 || diff > 3) E(r.id, `tool objects differ in ${diff} strings (need 1-3)`);
      // non-string values must match
      const strip = t => JSON.stringify(t, (k, v) => typeof v === 'string' ? '' : v);
      if (strip(r.tool) !== strip(o.tool)) E(r.id, 'non-string values differ');
    }
    // benign order: same index in files
  }
}
const pz = recs.filter(r => r.class !== 'benign'), bn = recs.filter(r => r.class === 'benign');
const order = [...pz.filter(r => r.class === 'p3'), ...pz.filter(r => r.class === 'p4')].map(r => r.pair);
if (JSON.stringify(order) !== JSON.stringify(bn.map(r => r.id))) E('order', 'benign twins not in same order as poisoned (p3 then p4)');
console.log('records', recs.length, counts);
console.log('langs', Object.keys(langCount).length, langCount);
console.log('en share', ((langCount.en || 0) / recs.length).toFixed(2));
console.log('desc lengths', lenBins);
console.log('where', whereCount);
if (errs.length) { console.log(errs.length + ' ERRORS'); errs.forEach(e => console.log(' - ' + e)); process.exit(1); }
console.log('OK');
