// t73 validator: node t73-validate.mjs  (no dependencies)
import fs from 'fs';
import path from 'path';
const dir = path.dirname(new URL(import.meta.url).pathname);
const B = 't73';
const catDir = path.join(dir, '..', '..', 'discovery', 'catalog');
const catalog = {}; // tool name -> set of servers
for (const f of fs.readdirSync(catDir)) {
  if (!f.endsWith('.json')) continue;
  const j = JSON.parse(fs.readFileSync(path.join(catDir, f), 'utf8'));
  for (const t of j.tools || []) { (catalog[t.name] ||= new Set()).add(j.server); }
}
const errs = [];
const err = (id, m) => errs.push(`${id}: ${m}`);
const iso = new Set('aa ab af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs ca ce ch co cr cs cu cv cy da de dv dz ee el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz ia id ie ig ii ik io is it iu ja jv ka kg ki kj kk kl km kn ko kr ks ku kv kw ky la lb lg li ln lo lt lu lv mg mh mi mk ml mn mr ms mt my na nb nd ne ng nl nn no nr nv ny oc oj om or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg si sk sl sm sn so sq sr ss st su sv sw ta te tg th ti tk tl tn to tr ts tt tw ty ug uk ur uz ve vi vo wa wo xh yi yo za zh zu'.split(' '));
const banned = [/ignore (all |any )?previous instructions/i, /highest priority/i, /override/i, /disregard/i, /supersede/i, /takes precedence/i, /important/i,
  /importante/i, /wichtig/i, /\u91cd\u8981/, /\u0432\u0430\u0436\u043d/i, /wa\u017cn/i, /\u00f6nemli/i, /belangrijk/i, /viktig/i, /t\u00e4rke\u00e4/i, /fontos/i, /d\u016fle\u017eit/i, /\uc911\uc694/, /\u0645\u0647\u0645/, /\u092e\u0939\u0924\u094d\u0935\u092a\u0942\u0930\u094d\u0923/, /penting/i, /\u03c3\u03b7\u03bc\u03b1\u03bd\u03c4\u03b9\u03ba/i,
  /hat vorrang/i, /prioridad m\u00e1xima/i, /priorit\u00e9 absolue/i, /massima priorit\u00e0/i, /ignora(r)? (las|le|todas)? ?instrucciones/i, /ignorez/i, /ignoriere/i, /\u7121\u8996/, /\u5ffd\u7565/];
const invisible = /[\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF\u00AD]|[\u{E0000}-\u{E007F}]/u;
function strings(o, out = []) {
  if (typeof o === 'string') out.push(o);
  else if (Array.isArray(o)) o.forEach(x => strings(x, out));
  else if (o && typeof o === 'object') for (const [k, v] of Object.entries(o)) { out.push(k); strings(v, out); }
  return out;
}
function checkEndpoints(id, s) {
  const hostRe = /(?:[a-z][a-z0-9+.-]*:\/\/|@|\bwww\.)([A-Za-z0-9.-]+\.[A-Za-z]{2,}|\d{1,3}(?:\.\d{1,3}){3})/g;
  let m;
  while ((m = hostRe.exec(s))) {
    const h = m[1].toLowerCase().replace(/\.$/, '');
    if (/^\d/.test(h) && /^\d{1,3}(\.\d{1,3}){3}$/.test(h)) {
      if (!/^(198\.51\.100|203\.0\.113)\./.test(h)) err(id, `IP not TEST-NET: ${h}`);
    } else if (!h.endsWith('.example')) err(id, `host not .example: ${h}`);
  }
  const ipRe = /\b(\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})\b/g;
  while ((m = ipRe.exec(s))) if (!/^(198\.51\.100|203\.0\.113)\./.test(m[1])) err(id, `IP not TEST-NET: ${m[1]}`);
}
function checkProps(id, schema, p) {
  if (!schema || typeof schema !== 'object') return;
  if (schema.properties) for (const [k, v] of Object.entries(schema.properties)) {
    const pp = `${p}.properties[${JSON.stringify(k)}]`;
    if (!v.type) err(id, `no type at ${pp}`);
    if (typeof v.description !== 'string' || !v.description) err(id, `no description at ${pp}`);
    checkProps(id, v, pp);
  }
  if (schema.items) checkProps(id, schema.items, p + '.items');
}
function resolve(tool, where) {
  // supports $.a.b, ["x"], [n]
  if (!where.startsWith('$')) return { ok: false };
  const toks = []; const re = /\.([A-Za-z_][A-Za-z0-9_$-]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]/g; let m; let rest = where.slice(1); let pos = 0;
  while ((m = re.exec(rest))) { if (m.index !== pos) return { ok: false }; pos = re.lastIndex; toks.push(m[1] ?? (m[2] !== undefined ? Number(m[2]) : { name: JSON.parse(m[3]) })); }
  if (pos !== rest.length) return { ok: false };
  let cur = tool;
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    if (typeof t === 'object') { if (!cur || !(t.name in cur)) return { ok: false }; if (i === toks.length - 1) return { ok: true, value: t.name, isName: true }; cur = cur[t.name]; }
    else { if (cur == null || !(t in Object(cur))) return { ok: false }; cur = cur[t]; }
  }
  return { ok: typeof cur === 'string', value: cur };
}
function diff(a, b, p = '$', out = []) {
  if (typeof a !== typeof b || Array.isArray(a) !== Array.isArray(b)) { out.push(p); return out; }
  if (Array.isArray(a)) { const n = Math.max(a.length, b.length); for (let i = 0; i < n; i++) diff(a[i], b[i], `${p}[${i}]`, out); return out; }
  if (a && typeof a === 'object') {
    const ka = Object.keys(a), kb = Object.keys(b);
    if (ka.length !== kb.length) { out.push(p + '{keys}'); return out; }
    for (let i = 0; i < ka.length; i++) { if (ka[i] !== kb[i]) out.push(`${p}<key ${i}>`); diff(a[ka[i]], b[kb[i]], `${p}.${ka[i]}`, out); }
    return out;
  }
  if (a !== b) out.push(p);
  return out;
}
const files = fs.readdirSync(dir).filter(f => f.startsWith(`${B}-`) && f.endsWith('.jsonl'));
const all = {}; const byFile = {}; const langs = {}; const lens = { short: 0, medium: 0, long: 0 }; const wheres = {};
for (const f of files) {
  const lines = fs.readFileSync(path.join(dir, f), 'utf8').split('\n').filter(l => l.trim());
  byFile[f] = lines.length;
  const cls = f.replace(`${B}-`, '').replace('.jsonl', '');
  lines.forEach((l, i) => {
    let r; try { r = JSON.parse(l); } catch (e) { err(`${f}:${i + 1}`, 'bad JSON ' + e.message); return; }
    const id = r.id || `${f}:${i + 1}`;
    if (all[id]) err(id, 'duplicate id'); all[id] = r;
    if (r.class !== cls) err(id, `class ${r.class} in file ${f}`);
    if (!new RegExp(`^${B}-${cls}-\\d{3}$`).test(r.id)) err(id, 'bad id format');
    if (!iso.has(r.lang)) err(id, 'bad lang'); langs[r.lang] = (langs[r.lang] || 0) + 1;
    for (const k of ['voice', 'server']) if (typeof r[k] !== 'string' || !r[k]) err(id, `missing ${k}`);
    if (!Array.isArray(r.siblings) || !r.siblings.length) err(id, 'siblings missing');
    if (!r.pair) err(id, 'no pair');
    const t = r.tool;
    if (!t || typeof t.name !== 'string' || typeof t.description !== 'string' || !t.inputSchema || t.inputSchema.type !== 'object') { err(id, 'bad tool'); return; }
    const dl = t.description.length; if (dl < 200) lens.short++; else if (dl < 700) lens.medium++; else lens.long++;
    checkProps(id, t.inputSchema, '$.inputSchema');
    for (const rq of t.inputSchema.required || []) if (!(rq in (t.inputSchema.properties || {}))) err(id, `required ${rq} not a property`);
    const text = strings(r).join('\n');
    for (const b of banned) if (b.test(text)) err(id, `banned phrase ${b}`);
    if (invisible.test(text)) err(id, 'invisible/bidi/tag char');
    checkEndpoints(id, text);
    if (cls === 'benign') {
      if (r.where || r.intent) err(id, 'benign has where/intent');
      if (!r.note) err(id, 'no note'); if (!r.source) err(id, 'no source');
      for (const s of r.siblings) if (catalog[s] && s !== t.name) err(id, `benign sibling is a real catalog tool: ${s}`);
    } else {
      if (!r.where || !r.intent) err(id, 'no where/intent');
      for (const s of r.siblings) if (!catalog[s]) err(id, `sibling not in catalog: ${s}`);
      const res = resolve(t, r.where);
      if (!res.ok) err(id, `where does not resolve to a string: ${r.where}`);
      const w = r.where.replace(/\[\d+\]$/, '').replace(/\.(default|const|title|examples)$/, '.$1');
      const kind = /\["[^"]*"\]$/.test(r.where) ? 'name' : (r.where.match(/(default|const|title|enum|examples|description)(\[\d+\])?$/) || ['', 'other'])[1];
      wheres[kind] = (wheres[kind] || 0) + 1;
    }
  });
}
for (const [id, r] of Object.entries(all)) {
  const o = all[r.pair];
  if (!o) { err(id, `pair ${r.pair} missing`); continue; }
  if (o.pair !== id) err(id, 'pair not mutual');
  if (o.class === r.class) err(id, 'pair same class');
  if (r.class === 'benign') continue;
  if (o.server !== r.server || o.tool.name !== r.tool.name || o.lang !== r.lang) err(id, 'twin differs in server/name/lang');
  const d = diff(r.tool, o.tool);
  if (d.length < 1 || d.length > 3) err(id, `tool objects differ in ${d.length} strings: ${d.join(', ')}`);
  if (!d.some(x => x.startsWith('$' ) && (r.where.includes('["') ? x.includes('<key') || x.includes('required') : x === r.where || r.where.startsWith(x)))) err(id, `diff ${d.join(', ')} does not cover where ${r.where}`);
}
console.log('files:', byFile);
console.log('langs:', Object.keys(langs).length, JSON.stringify(langs));
console.log('description lengths:', lens);
console.log('where kinds (poisoned):', wheres);
if (errs.length) { console.log(errs.length + ' ERRORS'); errs.forEach(e => console.log(' - ' + e)); process.exit(1); }
console.log('OK');
