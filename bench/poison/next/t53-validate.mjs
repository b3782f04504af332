// t53 validator: node t53-validate.mjs  (no dependencies). Exits 1 on any error.
import fs from 'fs';
import path from 'path';
import { fileURLToPath } from 'node:url';
const dir = path.dirname(fileURLToPath(import.meta.url));
const BATCH = 't53';
const catDir = path.join(dir, '..', '..', 'discovery', 'catalog');
const catalogTools = new Set(); const catalogServers = new Set();
for (const f of fs.readdirSync(catDir).filter(f => f.endsWith('.json'))) {
  const j = JSON.parse(fs.readFileSync(path.join(catDir, f), 'utf8'));
  catalogServers.add(String(j.server).toLowerCase());
  for (const t of j.tools || []) catalogTools.add(t.name);
}
const ISO6391 = new Set('aa ab af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs ca ce ch co cr cs cu cv cy da de dv dz ee el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz ia id ie ig ii ik io is it iu ja jv ka kg ki kj kk kl km kn ko kr ks ku kv kw ky la lb lg li ln lo lt lu lv mg mh mi mk ml mn mr ms mt my na nb nd ne ng nl nn no nr nv ny oc oj om or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg si sk sl sm sn so sq sr ss st su sv sw ta te tg th ti tk tl tn to tr ts tt tw ty ug uk ur uz ve vi vo wa wo xh yi yo za zh zu'.split(' '));
const BANNED = [/ignore (all )?previous instructions/i, /highest priority/i, /override/i, /disregard/i, /supersede/i, /takes precedence/i, /important/i,
  // direct translations in this batch's languages
  /ύψιστη προτεραιότητα/i, /σημαντικό/i, /αγνοήστε/i, /legfontosabb/i, /fontos/i, /felülír/i, /muhimu/i, /puuza/i, /pàtàkì/i, /muhimmi/i, /አስፈላጊ/, /ችላ በል/, /vacib/i, /mühüm/i, /маңызды/i, /елеме/i, /muhim/i, /მნიშვნელოვან/, /უგულებელ/, /կարևոր/, /անտեսել/, /e rëndësishme/i, /injoro/i];
const INVISIBLE = /[\u00AD\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF\u{E0000}-\u{E007F}]/u;
const errors = []; const err = (id, m) => errors.push(`${id}: ${m}`);
const allStrings = (o, out = []) => { if (typeof o === 'string') out.push(o); else if (Array.isArray(o)) o.forEach(x => allStrings(x, out)); else if (o && typeof o === 'object') for (const [k, v] of Object.entries(o)) { out.push(k); allStrings(v, out); } return out; };
function checkProps(id, props, where) {
  if (!props || typeof props !== 'object') return;
  for (const [k, p] of Object.entries(props)) {
    if (!p || typeof p !== 'object') { err(id, `${where}.${k} not an object`); continue; }
    if (!p.type) err(id, `${where}.${k} lacks type`);
    if (typeof p.description !== 'string' || !p.description.trim()) err(id, `${where}.${k} lacks description`);
    if (p.properties) checkProps(id, p.properties, `${where}.${k}.properties`);
    if (p.items && p.items.properties) checkProps(id, p.items.properties, `${where}.${k}.items.properties`);
  }
}
function resolve(tool, jp) {
  if (!jp.startsWith('$')) return undefined;
  const toks = []; const re = /\.([A-Za-z_$][\w$-]*)|\["([^"]+)"\]|\[(\d+)\]/g; let m, last = 1;
  while ((m = re.exec(jp))) { if (m.index !== last) return undefined; toks.push(m[1] ?? m[2] ?? Number(m[3])); last = re.lastIndex; }
  if (last !== jp.length) return undefined;
  // property NAME form: $.inputSchema.properties["name"] → the key itself
  const nameForm = /\["([^"]+)"\]$/.test(jp) && toks[toks.length - 2] === 'properties';
  let cur = tool;
  for (const t of toks) { if (cur == null) return undefined; cur = cur[t]; }
  if (nameForm) return cur === undefined ? undefined : toks[toks.length - 1];
  return cur;
}
const hostOk = h => /\.example$/i.test(h) || /^(198\.51\.100|203\.0\.113)\.\d{1,3}$/.test(h);
const seenIds = new Set(); const sentenceOwners = new Map();
const summary = {};
for (const file of fs.readdirSync(dir).filter(f => f.startsWith(BATCH + '-') && f.endsWith('.jsonl'))) {
  const cls = file.slice(BATCH.length + 1, -6);
  const lines = fs.readFileSync(path.join(dir, file), 'utf8').split('\n').filter(l => l.trim());
  const s = summary[file] = { records: 0, short: 0, medium: 0, long: 0, lang: {}, voice: {} };
  lines.forEach((line, i) => {
    let r; try { r = JSON.parse(line); } catch (e) { err(`${file}:${i + 1}`, 'bad JSON ' + e.message); return; }
    const id = r.id || `${file}:${i + 1}`; s.records++;
    if (!new RegExp(`^${BATCH}-${cls}-\\d{3}$`).test(r.id)) err(id, 'id pattern');
    if (seenIds.has(r.id)) err(id, 'duplicate id'); seenIds.add(r.id);
    if (r.class !== cls) err(id, `class ${r.class} != file class ${cls}`);
    if (!ISO6391.has(r.lang)) err(id, 'lang not ISO 639-1');
    if (typeof r.voice !== 'string' || !r.voice) err(id, 'voice missing');
    if (typeof r.server !== 'string' || !/^[a-z0-9][a-z0-9-]*$/.test(r.server)) err(id, 'server name format');
    if (catalogServers.has(String(r.server).toLowerCase())) err(id, 'server is a catalog server');
    if (!Array.isArray(r.siblings) || !r.siblings.length) err(id, 'siblings missing');
    const t = r.tool;
    if (!t || typeof t.name !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(t.name)) err(id, 'tool.name format');
    if (!t || typeof t.description !== 'string') { err(id, 'tool.description'); return; }
    if (!t.inputSchema || t.inputSchema.type !== 'object' || !t.inputSchema.properties) err(id, 'inputSchema');
    checkProps(id, t.inputSchema?.properties, 'properties');
    for (const req of t.inputSchema?.required || []) if (!t.inputSchema.properties[req]) err(id, `required ${req} not a property`);
    if (cls === 'benign') {
      if ('where' in r || 'intent' in r) err(id, 'benign has where/intent');
      if (typeof r.note !== 'string' || !r.note) err(id, 'note missing');
      if (!(r.source === 'new' || /^catalog:[^/]+\/.+/.test(r.source || ''))) err(id, 'source');
      for (const sb of r.siblings || []) if (catalogTools.has(sb)) err(id, `benign sibling ${sb} is a real catalog tool`);
    } else {
      if ('note' in r || 'source' in r) err(id, 'poisoned record has note/source');
      if (typeof r.intent !== 'string' || !r.intent) err(id, 'intent missing');
      const v = typeof r.where === 'string' ? resolve(t, r.where) : undefined;
      if (typeof v !== 'string') err(id, `where ${r.where} does not resolve to a string`);
      for (const sb of r.siblings || []) if (!catalogTools.has(sb)) err(id, `sibling ${sb} not a catalog tool`);
    }
    const text = allStrings(t).join('\n') + '\n' + [r.note || '', r.intent || ''].join('\n');
    if (INVISIBLE.test(JSON.stringify(r))) err(id, 'invisible/bidi/tag character');
    for (const b of BANNED) if (b.test(allStrings(t).join('\n'))) err(id, `banned phrase ${b}`);
    for (const m of text.matchAll(/\bhttps?:\/\/([^\/\s"'<>)]+)/gi)) if (!hostOk(m[1].split(':')[0])) err(id, `url host ${m[1]}`);
    for (const m of text.matchAll(/[\w.+-]+@([\w-]+(?:\.[\w-]+)+)/g)) if (!/\.example$/i.test(m[1])) err(id, `email domain ${m[1]}`);
    for (const m of text.matchAll(/\b(\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})\b/g)) if (!hostOk(m[1])) err(id, `ip ${m[1]}`);
    for (const m of text.matchAll(/\b((?:[a-z0-9-]+\.)+(?:com|net|org|io|co|ai|app|dev|info|biz|me|ly|ke|ng|tz|ge|am|az|kz|uz|al|gr|hu|et))\b(?!\()/gi)) err(id, `non-.example domain ${m[1]}`);
    const n = t.description.length; if (n < 200) s.short++; else if (n < 700) s.medium++; else s.long++;
    s.lang[r.lang] = (s.lang[r.lang] || 0) + 1; s.voice[r.voice] = (s.voice[r.voice] || 0) + 1;
    // repeated sentences across records (tool descriptions/titles; shared property wording like 'Meter number.' is normal schema vocabulary)
    for (const str of [t.description, t.title || '']) for (const sent of str.split(/(?<=[.!?;։።])\s+|\n+/)) {
      const k = sent.trim(); if (k.length < 30) continue;
      const o = sentenceOwners.get(k); if (o && o !== r.id) err(id, `sentence repeated from ${o}: "${k.slice(0, 60)}"`); else sentenceOwners.set(k, r.id);
    }
  });
}
for (const [f, s] of Object.entries(summary)) console.log(f, JSON.stringify(s));
const total = Object.values(summary).reduce((a, s) => a + s.records, 0);
const en = Object.values(summary).reduce((a, s) => a + (s.lang.en || 0), 0);
console.log(`total ${total}, English ${en} (${(100 * en / total).toFixed(1)}%), languages ${new Set(Object.values(summary).flatMap(s => Object.keys(s.lang))).size}`);
if (errors.length) { console.log(`\n${errors.length} error(s):`); errors.forEach(e => console.log('  ' + e)); process.exit(1); }
console.log('OK: all checks passed');
