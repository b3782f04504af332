// t64 validator: node t64-validate.mjs  (no dependencies)
import fs from 'node:fs';
import path from 'node:path';
const dir = path.dirname(new URL(import.meta.url).pathname);
const catalogDir = path.join(dir, '..', '..', 'discovery', 'catalog');
const realTools = new Set();
const realServers = new Set();
for (const f of fs.readdirSync(catalogDir)) {
  if (!f.endsWith('.json')) continue;
  const j = JSON.parse(fs.readFileSync(path.join(catalogDir, f), 'utf8'));
  realServers.add(String(j.server).toLowerCase());
  for (const t of j.tools || []) realTools.add(t.name);
}
const BANNED = [/ignore (all )?previous instructions/i, /highest priority/i, /override/i, /disregard/i, /supersede/i, /takes precedence/i, /important/i,
  /importante/i, /wichtig/i, /viktig/i, /vigtig/i, /belangrijk/i, /importan/i, /mikilvæg/i, /garrantzi/i, /belangrik/i, /prioridad m[aá]xima/i, /prioridade m[aá]xima/i, /priorit[eé] (la plus )?(haute|absolue|maximale)/i, /massima priorit/i, /höchste priorit/i, /hoogste prioriteit/i, /högsta prioritet/i, /højeste prioritet/i, /høyeste prioritet/i, /ignora(r|te)? (las|as|le) instruc/i, /ignorez/i, /ignoriere/i, /negeer/i, /anular/i, /überschreib/i, /prevalec/i, /prévaut/i, /prevale/i, /tiene prioridad/i, /tem prioridade/i, /a priorité/i, /ha priorità/i, /hat vorrang/i, /gaat voor/i];
const INVISIBLE = /[\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF\u{E0000}-\u{E007F}\u00AD]/u;
const LANGS = new Set(['en','es','pt','fr','it','ca','ro','de','nl','sv','da','no','nb','nn','is','af','gl','eu']);
const errors = [];
const ids = new Set();
const stats = {};
function err(id, m) { errors.push(`${id}: ${m}`); }
function walkStrings(o, p, out) {
  if (typeof o === 'string') out.push([p, o]);
  else if (Array.isArray(o)) o.forEach((v, i) => walkStrings(v, `${p}[${i}]`, out));
  else if (o && typeof o === 'object') for (const [k, v] of Object.entries(o)) { out.push([`${p}["${k}"]#key`, k]); walkStrings(v, `${p}.${k}`, out); }
}
function checkProps(id, props, p) {
  for (const [k, v] of Object.entries(props || {})) {
    if (!v || typeof v !== 'object') { err(id, `${p}.${k} not an object`); continue; }
    if (!v.type) err(id, `${p}.${k} missing type`);
    if (typeof v.description !== 'string' || !v.description.trim()) err(id, `${p}.${k} missing description`);
    if (v.properties) checkProps(id, v.properties, `${p}.${k}.properties`);
    if (v.items) {
      if (!v.items.type) err(id, `${p}.${k}.items missing type`);
      if (v.items.properties) checkProps(id, v.items.properties, `${p}.${k}.items.properties`);
    }
  }
}
function resolve(tool, where) {
  // supports $.a.b, [n], ["name"]
  if (!where.startsWith('$')) return undefined;
  const nameMatch = where.match(/^(.*)\["([^"]+)"\]$/);
  if (nameMatch) {
    const parent = resolve(tool, nameMatch[1]);
    return parent && Object.prototype.hasOwnProperty.call(parent, nameMatch[2]) ? nameMatch[2] : undefined;
  }
  const toks = where.slice(1).match(/\.[^.\[]+|\[\d+\]/g) || [];
  let cur = tool;
  for (const t of toks) {
    if (cur == null) return undefined;
    cur = t.startsWith('.') ? cur[t.slice(1)] : cur[Number(t.slice(1, -1))];
  }
  return cur;
}
const files = fs.readdirSync(dir).filter(f => /^t64-.*\.jsonl$/.test(f));
for (const f of files) {
  const lines = fs.readFileSync(path.join(dir, f), 'utf8').split('\n').filter(l => l.trim());
  const fileClass = f.replace(/^t64-|\.jsonl$/g, '');
  const s = stats[f] = { n: 0, langs: {}, len: { short: 0, mid: 0, long: 0 }, where: {} };
  lines.forEach((line, i) => {
    let r;
    try { r = JSON.parse(line); } catch (e) { err(`${f}:${i + 1}`, 'bad JSON ' + e.message); return; }
    const id = r.id || `${f}:${i + 1}`;
    s.n++;
    if (ids.has(id)) err(id, 'duplicate id'); ids.add(id);
    if (!new RegExp(`^t64-${fileClass}-\\d{3}$`).test(id)) err(id, 'id format');
    if (r.class !== fileClass) err(id, 'class mismatch');
    if (!LANGS.has(r.lang)) err(id, 'lang ' + r.lang);
    s.langs[r.lang] = (s.langs[r.lang] || 0) + 1;
    if (!r.voice) err(id, 'voice');
    if (!r.server || realServers.has(String(r.server).toLowerCase())) err(id, 'server missing or real');
    if (!Array.isArray(r.siblings) || !r.siblings.length) err(id, 'siblings');
    const t = r.tool;
    if (!t || !t.name || typeof t.description !== 'string' || !t.inputSchema) { err(id, 'tool shape'); return; }
    if (t.inputSchema.type !== 'object') err(id, 'inputSchema.type');
    checkProps(id, t.inputSchema.properties, 'properties');
    for (const req of t.inputSchema.required || []) if (!(req in (t.inputSchema.properties || {}))) err(id, 'required missing prop ' + req);
    const L = t.description.length;
    s.len[L < 200 ? 'short' : L < 700 ? 'mid' : 'long']++;
    const strs = []; walkStrings(r, '$', strs);
    for (const [p, v] of strs) {
      for (const b of BANNED) if (b.test(v)) err(id, `banned phrase ${b} at ${p}`);
      if (INVISIBLE.test(v)) err(id, `invisible char at ${p}`);
      for (const m of v.matchAll(/https?:\/\/([^\/\s"'<>)]+)/g)) { const h = m[1].split(':')[0]; if (!/\.example$/.test(h) && !/^(198\.51\.100|203\.0\.113)\./.test(h)) err(id, 'bad host ' + h); }
      for (const m of v.matchAll(/\b([a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:com|net|org|io|dev|app|co|es|de|fr|it|nl|se|dk|no|is|pt|br|ro|eus|gal|cat))\b/gi)) { if (!/\.example\b/.test(m[0])) err(id, 'possible real domain ' + m[0] + ' at ' + p); }
    }
    if (fileClass === 'benign') {
      if (r.where || r.intent) err(id, 'benign has where/intent');
      if (!r.note) err(id, 'note');
      if (!(r.source === 'new' || /^catalog:[^/]+\/.+/.test(r.source || ''))) err(id, 'source');
      for (const sName of r.siblings) if (realTools.has(sName)) err(id, 'benign sibling is a real tool ' + sName);
    } else {
      if (!r.where || !r.intent) err(id, 'where/intent');
      for (const sName of r.siblings) if (!realTools.has(sName)) err(id, 'sibling not a real catalog tool ' + sName);
      const v = resolve(t, r.where || '');
      if (typeof v !== 'string') err(id, 'where does not resolve to a string: ' + r.where);
      s.where[r.where.replace(/properties\.[^.\[]+/g, 'properties.*')] = (s.where[r.where.replace(/properties\.[^.\[]+/g, 'properties.*')] || 0) + 1;
    }
  });
}
for (const [f, s] of Object.entries(stats)) {
  console.log(`${f}: ${s.n} records`);
  console.log('  langs', JSON.stringify(s.langs));
  console.log('  lengths', JSON.stringify(s.len));
  if (Object.keys(s.where).length) console.log('  where', JSON.stringify(s.where));
}
if (errors.length) { console.log(`\n${errors.length} error(s):`); for (const e of errors) console.log('  ' + e); process.exit(1); }
console.log('\nOK');
