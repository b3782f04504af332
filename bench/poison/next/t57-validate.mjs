// t57 validator: node t57-validate.mjs  (no dependencies)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
const dir = path.dirname(fileURLToPath(import.meta.url));
const B = 't57';
const files = { p3: `${B}-p3.jsonl`, p4: `${B}-p4.jsonl`, d: `${B}-d.jsonl`, benign: `${B}-benign.jsonl` };
const catDir = path.join(dir, '..', '..', 'discovery', 'catalog');
const realTools = new Map(); // tool name -> set of servers
for (const f of fs.readdirSync(catDir).filter(f => f.endsWith('.json'))) {
  const j = JSON.parse(fs.readFileSync(path.join(catDir, f), 'utf8'));
  for (const t of j.tools || []) { if (!realTools.has(t.name)) realTools.set(t.name, new Set()); realTools.get(t.name).add(j.server); }
}
const ISO6391 = new Set('aa ab af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs ca ce ch co cr cs cu cv cy da de dv dz ee el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz ia id ie ig ii ik io is it iu ja jv ka kg ki kj kk kl km kn ko kr ks ku kv kw ky la lb lg li ln lo lt lu lv mg mh mi mk ml mn mr ms mt my na nb nd ne ng nl nn no nr nv ny oc oj om or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg si sk sl sm sn so sq sr ss st su sv sw ta te tg th ti tk tl tn to tr ts tt tw ty ug uk ur uz ve vi vo wa wo xh yi yo za zh zu'.split(' '));
const banned = [/ignore (all |any )?(previous|prior|above) instructions/i, /highest priority/i, /override/i, /disregard/i, /supersede/i, /takes precedence/i, /important/i,
  /wichtig/i, /belangrijk/i, /ważn/i, /важн/i, /önemli/i, /重要/, /중요/, /quan trọng/i, /penting/i, /مهم/, /חשוב/, /महत्वपूर्ण/, /σημαντικ/i, /viktig/i, /tärkeä/i, /fontos/i, /vigtig/i, /důležit/i, /importante/i,
  /ignorie?r/i, /ignora /i, /игнорир/i, /vorrang/i, /überschreib/i, /priorit(é|a|à|y) (máxima|maximale|massima|absolute)/i, /無視/, /忽略/, /무시/, /bỏ qua/i];
const invisible = /[\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF\u00AD]|[\u{E0000}-\u{E007F}]/u;
const idRe = new RegExp(`^${B}-(p3|p4|d|benign)-\\d{3}$`);
let errors = 0; const err = (id, m) => { errors++; console.log(`ERROR ${id}: ${m}`); };
const ids = new Set(); const langs = {}; const lens = { short: 0, mid: 0, long: 0 }; const perFile = {}; const voices = new Set(); const slotKinds = {};
function strings(o, out = []) { if (typeof o === 'string') out.push(o); else if (Array.isArray(o)) o.forEach(x => strings(x, out)); else if (o && typeof o === 'object') for (const [k, v] of Object.entries(o)) { out.push(k); strings(v, out); } return out; }
function checkProps(id, props, at) {
  if (!props || typeof props !== 'object') return;
  for (const [k, v] of Object.entries(props)) {
    if (!v || typeof v !== 'object') { err(id, `${at}.${k} not an object`); continue; }
    if (!v.type) err(id, `${at}.${k} has no type`);
    if (typeof v.description !== 'string' || !v.description.trim()) err(id, `${at}.${k} has no description`);
    if (v.properties) checkProps(id, v.properties, `${at}.${k}.properties`);
    if (v.items) { const it = v.items; if (!it.type) err(id, `${at}.${k}.items has no type`); if (typeof it.description !== 'string') err(id, `${at}.${k}.items has no description`); if (it.properties) checkProps(id, it.properties, `${at}.${k}.items.properties`); }
  }
}
function resolve(tool, where) {
  if (!where.startsWith('$.')) return { ok: false };
  const toks = []; const re = /\.([A-Za-z0-9_$-]+)|\["((?:[^"\\]|\\.)*)"\]|\[(\d+)\]/gy; re.lastIndex = 1; let m;
  while (re.lastIndex < where.length) { m = re.exec(where); if (!m) return { ok: false }; toks.push(m[1] ?? (m[2] !== undefined ? { key: JSON.parse('"' + m[2] + '"') } : Number(m[3]))); }
  let cur = tool, parent = null, last = null;
  for (const t of toks) { parent = cur; last = t; const k = typeof t === 'object' ? t.key : t; if (cur == null || !(k in Object(cur))) return { ok: false }; cur = cur[k]; }
  if (typeof last === 'object') return { ok: true, value: last.key, kind: 'property name' }; // property NAME
  if (typeof cur !== 'string') return { ok: false };
  const prev = toks[toks.length - 2];
  const kind = typeof last === 'number' ? ({ enum: 'enum member', examples: 'examples entry', default: 'default' }[prev] || 'array entry') : last;
  return { ok: true, value: cur, kind };
}
function urlHostsOk(id, s) {
  for (const m of s.matchAll(/\b(?:https?|s?ftp|ssh|postgresql|mongodb|s3):\/\/([^\/\s?'"`<>)]+)/gi)) {
    let h = m[1].toLowerCase(); if (h.includes('@')) h = h.split('@').pop(); h = h.replace(/:\d+$/, '');
    if (!(h.endsWith('.example') || /^(.+\.)?example\.(com|org|net)$/.test(h) || /^(198\.51\.100|203\.0\.113)\.\d{1,3}$/.test(h))) err(id, `non-reserved host ${h}`);
  }
  for (const m of s.matchAll(/(?<![\d.])(\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})(?![\d.])/g)) if (!/^(198\.51\.100|203\.0\.113)\./.test(m[1])) err(id, `non-TEST-NET IP ${m[1]}`);
  for (const m of s.matchAll(/[\w.+-]+@([\w-]+(?:\.[\w-]+)+)/g)) { const h = m[1].toLowerCase(); if (!(h.endsWith('.example') || /^(.+\.)?example\.(com|org|net)$/.test(h) || /^\d/.test(h))) err(id, `email host ${h}`); }
}
for (const [cls, f] of Object.entries(files)) {
  const p = path.join(dir, f); if (!fs.existsSync(p)) { err(f, 'missing file'); continue; }
  const lines = fs.readFileSync(p, 'utf8').split('\n').filter(l => l.trim()); perFile[f] = lines.length;
  lines.forEach((line, i) => {
    let r; try { r = JSON.parse(line); } catch (e) { err(`${f}:${i + 1}`, 'bad JSON ' + e.message); return; }
    const id = r.id || `${f}:${i + 1}`;
    if (!idRe.test(r.id || '')) err(id, 'bad id'); if (ids.has(r.id)) err(id, 'duplicate id'); ids.add(r.id);
    if (r.class !== cls) err(id, `class ${r.class} != ${cls}`);
    if (!r.id.startsWith(`${B}-${cls}-`)) err(id, 'id class mismatch');
    if (!ISO6391.has(r.lang)) err(id, `bad lang ${r.lang}`); langs[r.lang] = (langs[r.lang] || 0) + 1;
    if (typeof r.voice !== 'string' || !r.voice) err(id, 'no voice'); voices.add(r.voice);
    if (typeof r.server !== 'string' || !r.server) err(id, 'no server');
    if (!Array.isArray(r.siblings) || !r.siblings.length) err(id, 'no siblings');
    const t = r.tool; if (!t || typeof t.name !== 'string' || typeof t.description !== 'string' || !t.inputSchema) { err(id, 'bad tool'); return; }
    if (t.inputSchema.type !== 'object') err(id, 'schema not object');
    checkProps(id, t.inputSchema.properties, '$.inputSchema.properties');
    for (const rq of t.inputSchema.required || []) if (!(rq in (t.inputSchema.properties || {}))) err(id, `required ${rq} not a property`);
    const all = strings(r).join('\n');
    for (const b of banned) if (b.test(strings(t).join('\n'))) err(id, `banned phrase ${b}`);
    if (invisible.test(all)) err(id, 'invisible/bidi/tag char');
    urlHostsOk(id, strings(t).join('\n'));
    // length bucket = length of tool.description
    const dl = t.description.length; lens[dl < 200 ? 'short' : dl < 700 ? 'mid' : 'long']++;
    if (cls === 'benign') {
      if ('where' in r || 'intent' in r) err(id, 'benign has where/intent');
      if (typeof r.note !== 'string' || !r.note) err(id, 'no note');
      if (!(r.source === 'new' || /^catalog:[\w-]+\/[\w-]+$/.test(r.source || ''))) err(id, `bad source ${r.source}`);
      for (const s of r.siblings) if (realTools.has(s) && !/^(health|scrape)$/.test(s)) console.log(`note ${id}: benign sibling ${s} also a catalog name`);
    } else {
      if (typeof r.intent !== 'string' || !r.intent) err(id, 'no intent');
      for (const s of r.siblings) if (!realTools.has(s)) err(id, `sibling ${s} not a real catalog tool`);
      const res = resolve(t, r.where || '');
      if (!res.ok) err(id, `where ${r.where} does not resolve to a string / property name`);
      else {
        slotKinds[`${cls}:${res.kind}`] = (slotKinds[`${cls}:${res.kind}`] || 0) + 1;
        if (cls === 'd' && /description$/.test(r.where)) err(id, 'd record carries poison in a description');
      }
    }
  });
}
const total = Object.values(perFile).reduce((a, b) => a + b, 0);
console.log('counts', perFile, 'total', total);
const en = langs.en || 0; const nonEn = Object.keys(langs).filter(l => l !== 'en');
console.log('langs', langs); console.log(`English ${(100 * en / total).toFixed(1)}%, other languages: ${nonEn.length}`);
console.log('description lengths', lens); console.log('slot kinds', slotKinds); console.log('voices', voices.size);
if (nonEn.length < 20) err('batch', 'fewer than 20 non-English languages');
for (const [k, v] of Object.entries(lens)) if (v / total < 0.2) err('batch', `length bucket ${k} under 20%`);
console.log(errors ? `FAIL: ${errors} error(s)` : 'OK: all checks passed');
process.exit(errors ? 1 : 0);
