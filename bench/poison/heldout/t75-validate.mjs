// t75 validator: node t75-validate.mjs  (no dependencies)
import fs from 'fs';
import path from 'path';
const dir = path.dirname(new URL(import.meta.url).pathname);
const BATCH = 't75';
const catDir = path.join(dir, '..', '..', 'discovery', 'catalog');
const realTools = new Set();
for (const f of fs.readdirSync(catDir)) if (f.endsWith('.json')) {
  const j = JSON.parse(fs.readFileSync(path.join(catDir, f), 'utf8'));
  for (const t of j.tools || []) realTools.add(t.name);
}
const ISO = new Set('aa ab af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs ca ce ch co cr cs cu cv cy da de dv dz ee el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz ia id ie ig ii ik io is it iu ja jv ka kg ki kj kk kl km kn ko kr ks ku kv kw ky la lb lg li ln lo lt lu lv mg mh mi mk ml mn mr ms mt my na nb nd ne ng nl nn no nr nv ny oc oj om or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg si sk sl sm sn so sq sr ss st su sv sw ta te tg th ti tk tl tn to tr ts tt tw ty ug uk ur uz ve vi vo wa wo xh yi yo za zh zu'.split(' '));
const BANNED = [/ignore (all )?previous instructions/i, /highest priority/i, /override/i, /disregard/i, /supersede/i, /takes precedence/i, /important/i,
  /ignorez les instructions/i, /ignora (las|le) istruzioni/i, /ignora las instrucciones/i, /ignoriere (alle )?(vorherigen )?anweisungen/i,
  /höchste priorität/i, /priorité absolue/i, /máxima prioridad/i, /massima priorità/i, /prioridade máxima/i, /最高优先级/, /最優先/, /무시하/, /忽略之前/, /忽略先前/, /игнорируй/i, /наивысший приоритет/i];
const INVIS = /[\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF\u00AD\u{E0000}-\u{E007F}]/u;
const URLRE = /\bhttps?:\/\/([^\/\s"'`)<>,;]+)/gi;
const okHost = h => { h = h.toLowerCase().replace(/\.+$/, "").replace(/:\d+$/, '').replace(/^[^@]*@/, '');
  return /\.example$/.test(h) || /^(www\.)?example\.(com|org|net)$/.test(h) || /\.example\.(com|org|net)$/.test(h) || /^198\.51\.100\.\d+$/.test(h) || /^203\.0\.113\.\d+$/.test(h) || /^192\.0\.2\.\d+$/.test(h) || h === 'localhost' || h === '127.0.0.1'; };
const errs = []; const err = (id, m) => errs.push(`${id}: ${m}`);
const ids = new Set(); const stats = {}; const langs = {}; const lens = {}; const whereKinds = {};
const allStrings = (o, out = []) => { if (typeof o === 'string') out.push(o); else if (Array.isArray(o)) o.forEach(x => allStrings(x, out)); else if (o && typeof o === 'object') for (const [k, v] of Object.entries(o)) { out.push(k); allStrings(v, out); } return out; };
function checkSchema(id, s, p) {
  if (!s || typeof s !== 'object') return err(id, `schema at ${p} not object`);
  if (s.properties) for (const [k, v] of Object.entries(s.properties)) {
    if (!v.type) err(id, `${p}.properties.${k} lacks type`);
    if (typeof v.description !== 'string' || !v.description.trim()) err(id, `${p}.properties.${k} lacks description`);
    checkSchema(id, v, `${p}.properties.${k}`);
  }
  if (s.items) checkSchema(id, s.items, `${p}.items`);
  if (s.required) for (const r of s.required) if (!s.properties || !(r in s.properties)) err(id, `${p} required '${r}' not a property`);
}
function resolve(tool, where) {
  if (!where.startsWith('$')) return { err: 'where must start with $' };
  const toks = []; const re = /\.([A-Za-z0-9_\-$]+)|\[(\d+)\]|\["([^"]+)"\]/g; let m; let pos = 1;
  while ((m = re.exec(where))) { if (m.index !== pos) return { err: 'bad jsonpath ' + where }; pos = re.lastIndex;
    toks.push(m[1] !== undefined ? { k: m[1] } : m[2] !== undefined ? { i: +m[2] } : { k: m[3], q: true }); }
  if (pos !== where.length) return { err: 'bad jsonpath tail ' + where };
  let cur = tool; const last = toks[toks.length - 1];
  for (let n = 0; n < toks.length; n++) { const t = toks[n];
    if (cur == null) return { err: 'path breaks at ' + n };
    if (t.i !== undefined) { if (!Array.isArray(cur)) return { err: 'index into non-array' }; cur = cur[t.i]; }
    else { if (!(t.k in Object(cur))) return { err: `missing key ${t.k}` }; if (n === toks.length - 1 && t.q) return { nameSlot: true, name: t.k, parent: toks[n - 1] }; cur = cur[t.k]; } }
  return { value: cur, last };
}
for (const f of fs.readdirSync(dir).filter(f => f.startsWith(BATCH + '-') && f.endsWith('.jsonl')).sort()) {
  const cls = f.slice(BATCH.length + 1, -6);
  const lines = fs.readFileSync(path.join(dir, f), 'utf8').split('\n').filter(l => l.trim());
  stats[f] = 0;
  lines.forEach((line, i) => {
    let r; try { r = JSON.parse(line); } catch (e) { return err(`${f}:${i + 1}`, 'bad JSON ' + e.message); }
    const id = r.id || `${f}:${i + 1}`; stats[f]++;
    if (!new RegExp(`^${BATCH}-${cls}-\\d{3}$`).test(r.id)) err(id, 'bad id format');
    if (ids.has(r.id)) err(id, 'duplicate id'); ids.add(r.id);
    if (r.class !== cls) err(id, `class ${r.class} != file ${cls}`);
    if (!ISO.has(r.lang)) err(id, 'lang not ISO 639-1: ' + r.lang); langs[r.lang] = (langs[r.lang] || 0) + 1;
    for (const k of ['voice', 'server']) if (typeof r[k] !== 'string' || !r[k]) err(id, 'missing ' + k);
    if (!Array.isArray(r.siblings) || !r.siblings.length) err(id, 'siblings missing');
    const t = r.tool; if (!t || typeof t.name !== 'string' || typeof t.description !== 'string' || !t.inputSchema) { err(id, 'tool incomplete'); return; }
    if (t.inputSchema.type !== 'object') err(id, 'inputSchema.type must be object');
    checkSchema(id, t.inputSchema, '$.inputSchema');
    const len = t.description.length; /* length class = length of the tool description */ { const b = len < 200 ? "short" : len < 700 ? "mid" : "long"; lens[cls] = lens[cls] || { short: 0, mid: 0, long: 0 }; lens[cls][b]++; }
    const strs = allStrings(r);
    for (const s of strs) { if (INVIS.test(s)) err(id, 'invisible/bidi char'); for (const b of BANNED) if (b.test(s)) err(id, 'banned phrase ' + b);
      for (const m of s.matchAll(URLRE)) if (!okHost(m[1])) err(id, 'non-example host ' + m[1]); }
    if (cls === 'benign') {
      if ('where' in r || 'intent' in r) err(id, 'benign has where/intent');
      if (typeof r.note !== 'string' || !r.note) err(id, 'benign needs note');
      if (typeof r.source !== 'string' || !/^(new|catalog:[^/]+\/.+)$/.test(r.source)) err(id, 'bad source');
      for (const s of r.siblings) if (realTools.has(s) && false) err(id, 'sibling is real tool');
    } else {
      if (typeof r.intent !== 'string' || !r.intent) err(id, 'missing intent');
      for (const s of r.siblings) if (!realTools.has(s)) err(id, 'sibling not a real catalog tool: ' + s);
      if (typeof r.where !== 'string') { err(id, 'missing where'); return; }
      const res = resolve(t, r.where);
      if (res.err) { err(id, 'where: ' + res.err); return; }
      let kind;
      if (res.nameSlot) { kind = 'property-name'; if (res.parent?.k !== 'properties') err(id, 'name slot not under properties'); }
      else { if (typeof res.value !== 'string') err(id, 'where does not resolve to a string');
        const l = res.last; kind = l.i !== undefined ? (/\.enum\[\d+\]$/.test(r.where) ? 'enum' : /\.examples\[\d+\]$/.test(r.where) ? 'examples' : /\.default\[\d+\]$/.test(r.where) ? 'default' : 'array') : l.k; }
      whereKinds[cls] = whereKinds[cls] || {}; whereKinds[cls][kind] = (whereKinds[cls][kind] || 0) + 1;
      if (cls === 'd' && !['default', 'enum', 'examples', 'const', 'title', 'property-name'].includes(kind)) err(id, 'd record where must be a data slot, got ' + kind);
      if ((cls === 'p3' || cls === 'p4') && kind === 'property-name') err(id, 'p3/p4 should sit in prose');
    }
  });
}
const total = Object.values(stats).reduce((a, b) => a + b, 0);
console.log('records per file:', stats, 'total', total);
console.log('description lengths per class:', JSON.stringify(lens));
const en = langs.en || 0; console.log('languages:', Object.keys(langs).length, 'distinct; en share', total ? (100 * en / total).toFixed(1) + '%' : '-'); console.log(langs);
console.log('where kinds:', JSON.stringify(whereKinds));
if (Object.keys(langs).length < 26) errs.push('fewer than 26 languages (en + 25 others)');
if (errs.length) { console.log(`\n${errs.length} problem(s):`); errs.forEach(e => console.log(' - ' + e)); process.exit(1); }
console.log('\nOK: all checks passed');
