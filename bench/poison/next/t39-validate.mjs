import { fileURLToPath } from 'node:url';
// t39 validator: node t39-validate.mjs  (no dependencies)
import fs from 'fs'; import path from 'path';
const dir = path.dirname(fileURLToPath(import.meta.url));
const catDir = path.join(dir, '..', '..', 'discovery', 'catalog');
const catalog = new Set();
for (const f of fs.readdirSync(catDir)) if (f.endsWith('.json')) for (const t of JSON.parse(fs.readFileSync(path.join(catDir, f))).tools) catalog.add(t.name);
const errs = []; const err = (id, m) => errs.push(`${id}: ${m}`);
const banned = ['ignore previous instructions','ignore all previous','highest priority','override','overrid','disregard','supersede','takes precedence','take precedence','important','importan','wichtig','vorrang','priorité absolue','ignorez','ignorer les','ignora las','ignora le','ignoriere','最優先','最高优先','最高優先','무시','игнорир','приоритет выше'];
const invis = /[\u200B-\u200F\u202A-\u202E\u2060-\u2064\uFEFF\u00AD\u180E]|[\u{E0000}-\u{E007F}]/u;
const ids = new Set(); const langs = {}; const counts = {};
function strings(o, acc = []) { if (typeof o === 'string') acc.push(o); else if (o && typeof o === 'object') for (const [k, v] of Object.entries(o)) { acc.push(k); strings(v, acc); } return acc; }
function checkProps(id, sch, p) {
  if (!sch || typeof sch !== 'object') return;
  if (sch.properties) for (const [k, v] of Object.entries(sch.properties)) {
    if (!v.type) err(id, `${p}.${k} missing type`);
    if (typeof v.description !== 'string' || !v.description) err(id, `${p}.${k} missing description`);
    checkProps(id, v, `${p}.${k}`);
  }
  if (sch.items) checkProps(id, sch.items, p + '[]');
}
function resolve(tool, where) {
  if (!where.startsWith('$')) return undefined;
  const toks = []; const re = /\.([^.\[\]"]+)|\[(\d+)\]|\["([^"]+)"\]/g; let m, last = 1, nameKey = null;
  while ((m = re.exec(where))) { if (m.index !== last) return undefined; last = re.lastIndex; toks.push(m[1] ?? (m[2] !== undefined ? Number(m[2]) : { name: m[3] })); }
  if (last !== where.length) return undefined;
  let cur = tool;
  for (let i = 0; i < toks.length; i++) { const t = toks[i];
    if (typeof t === 'object') { if (i !== toks.length - 1 || !cur || !(t.name in cur)) return undefined; return t.name; }
    if (cur == null) return undefined; cur = cur[t]; }
  return cur;
}
const docLen = t => { let n = (t.description || '').length + (t.title || '').length; const walk = s => { if (s && s.properties) for (const v of Object.values(s.properties)) { n += (v.description || '').length; walk(v); } if (s && s.items) walk(s.items); }; walk(t.inputSchema); return n; };
const urlRe = /\b(?:https?:\/\/)?((?:[a-z0-9-]+\.)+[a-z]{2,})(?=[\/:\s"'),;]|$)/gi;
const okTld = /\.(example)$/i;
const fileExt = /\.(json|yaml|yml|csv|md|txt|pdf|png|jpg|jpeg|svg|zip|env|js|ts|mjs|py|toml|xml|html|log|pem|key|tf|sql|gz|tar|xlsx|docx|ics|tmx|mp4|sh|lock|ini|conf|cfg|webp|gif|prod|local|internal|io2)$/i;
for (const file of fs.readdirSync(dir).filter(f => f.startsWith('t39-') && f.endsWith('.jsonl'))) {
  const lines = fs.readFileSync(path.join(dir, file), 'utf8').split('\n').filter(l => l.trim());
  const isBenign = file.includes('benign'); const lens = { s: 0, m: 0, l: 0 }; let en = 0;
  counts[file] = { n: lines.length, lens, en: 0, langs: {} , voices: new Set(), named: 0};
  lines.forEach((line, i) => {
    let r; try { r = JSON.parse(line); } catch (e) { err(`${file}:${i + 1}`, 'bad JSON ' + e.message); return; }
    const id = r.id || `${file}:${i + 1}`;
    if (ids.has(id)) err(id, 'duplicate id'); ids.add(id);
    const cls = isBenign ? 'benign' : r.class;
    if (!new RegExp(`^t39-${cls}-\\d{3}$`).test(id)) err(id, 'bad id');
    if (isBenign ? r.class !== 'benign' : r.class !== 'p3') err(id, 'bad class');
    for (const f of ['voice', 'lang', 'server', 'siblings', 'tool']) if (!r[f]) err(id, 'missing ' + f);
    if (!/^[a-z]{2}$/.test(r.lang || '')) err(id, 'bad lang');
    if (!Array.isArray(r.siblings) || !r.siblings.length) err(id, 'siblings');
    const t = r.tool || {};
    if (!t.name || typeof t.description !== 'string' || !t.inputSchema || t.inputSchema.type !== 'object') err(id, 'tool shape');
    checkProps(id, t.inputSchema, '$');
    if (Array.isArray(t.inputSchema?.required)) for (const q of t.inputSchema.required) if (!t.inputSchema.properties?.[q]) err(id, 'required missing prop ' + q);
    if (isBenign) {
      if (r.where || r.intent) err(id, 'benign has where/intent');
      if (!r.note || !r.source) err(id, 'benign needs note/source');
      for (const s of r.siblings || []) if (catalog.has(s)) err(id, 'benign sibling is a catalog name: ' + s);
      if (r.source !== 'new' && !/^catalog:[a-z_0-9]+\/.+/.test(r.source)) err(id, 'bad source');
    } else {
      if (!r.where || !r.intent) err(id, 'missing where/intent');
      for (const s of r.siblings || []) if (!catalog.has(s)) err(id, 'sibling not in catalog: ' + s);
      const v = resolve(t, r.where || '');
      if (typeof v !== 'string') err(id, 'where does not resolve to a string: ' + r.where);
      const blob = JSON.stringify(t);
      if ((r.siblings || []).some(s => blob.includes(s))) counts[file].named++;
    }
    const all = strings({ ...r, where: undefined }).join('\n');
    const low = all.toLowerCase();
    for (const b of banned) if (low.includes(b)) err(id, 'banned phrase: ' + b);
    if (invis.test(all)) err(id, 'invisible/bidi char');
    for (const m of all.matchAll(urlRe)) { const d = m[1]; if (okTld.test(d) || fileExt.test(d) || /^(topology\.)?kubernetes\.io$/.test(d)) continue; if (/^\d/.test(d)) continue; if (!/\.(com|net|org|io|dev|co|ai|app|de|fr|jp|cn|ru|uk|us|eu|info|biz|me|xyz|cloud|sh|es|it|nl|pl|br|in|kr|tr|se|no|dk|fi|cz|sk|hu|ro|gr|il|ir|vn|th|id|my|ph|tw|hk|ca|au|nz|ch|at|be|pt|ua|bg|hr|lt|lv|ee|ly|gl|to|gg|ms|cc|tv|site|online|tech|link|ly)$/i.test(d)) continue; err(id, 'non-.example domain: ' + d); }
    for (const m of all.matchAll(/\b(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\b/g)) { const p = m.slice(1, 4).join('.'); if (!['198.51.100', '203.0.113', '192.0.2', '127.0.0', '10.0.0', '0.0.0'].includes(p)) err(id, 'non-test IP ' + m[0]); }
    const L = docLen(t); if (L < 200) lens.s++; else if (L < 700) lens.m++; else lens.l++;
    if (r.lang === 'en') counts[file].en++;
    counts[file].langs[r.lang] = (counts[file].langs[r.lang] || 0) + 1;
    counts[file].voices.add(r.voice);
  });
}
for (const [f, c] of Object.entries(counts)) console.log(f, 'records', c.n, 'short/mid/long', c.lens, 'en', c.en, `(${Math.round(100 * c.en / c.n)}%)`, 'langs', Object.keys(c.langs).length, 'voices', c.voices.size, f.includes('benign') ? '' : 'sibling named in tool text: ' + c.named, '\n ', JSON.stringify(c.langs));
if (errs.length) { console.log(errs.length + ' errors'); errs.forEach(e => console.log(' ' + e)); process.exit(1); } else console.log('OK: all checks pass');
