// t74 validator: node t74-validate.mjs  (no dependencies)
import fs from 'fs';
import path from 'path';
const dir = path.dirname(new URL(import.meta.url).pathname);
const BATCH = 't74';
const files = { p1: `${BATCH}-p1.jsonl`, p2: `${BATCH}-p2.jsonl`, benign: `${BATCH}-benign.jsonl` };
const catDir = path.join(dir, '..', '..', 'discovery', 'catalog');
const catTools = new Set(); const catByServer = {}; const catServers = new Set();
for (const f of fs.readdirSync(catDir).filter(f => f.endsWith('.json'))) {
  const j = JSON.parse(fs.readFileSync(path.join(catDir, f), 'utf8'));
  const s = f.replace(/\.json$/, '');
  catServers.add(s); if (j.server) catServers.add(String(j.server));
  catByServer[s] = new Set();
  for (const t of j.tools || []) { catTools.add(t.name); catByServer[s].add(t.name); }
  if (j.server) catByServer[j.server] = catByServer[s];
}
const ISO = new Set('aa ab af ak am ar as az be bg bn bs ca cs cy da de el en eo es et eu fa fi fr ga gl gu he hi hr hu hy id is it ja ka kk km kn ko ku ky lb lt lv mk ml mn mr ms mt my nb ne nl nn no pa pl ps pt ro ru si sk sl so sq sr sv sw ta te th tl tr uk ur uz vi xh yo zh zu'.split(' '));
const banned = [/ignore (all )?previous instructions/i, /highest priority/i, /overrid/i, /disregard/i, /supersed/i, /takes precedence/i, /important/i,
  /wichtig/i, /importante/i, /belangrijk/i, /ważn/i, /viktig/i, /vigtig/i, /tärke/i, /důležit/i, /dôležit/i, /fontos/i, /önemli/i, /важн/i, /важлив/i, /σημαντικ/i, /重要/, /중요/, /quan trọng/i, /penting/i, /مهم/, /חשוב/, /महत्वपूर्ण/, /สำคัญ/, /importan/i, /viktig/i, /tärkeä/i,
  /höchste Priorität/i, /priorité absolue/i, /prioridad máxima/i, /massima priorità/i, /prioridade máxima/i, /vorrang/i, /prévaut/i, /prevalece/i, /prevale/i, /ignor(e|ez|ar|iere|uj)\b/i];
const invisible = /[\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180E\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFEFF\uFFA0]|[\u{E0000}-\u{E007F}]/u;
let errors = []; const err = (id, m) => errors.push(`${id}: ${m}`);
const allIds = new Set(); const descSeen = new Map(); const openers = new Map();
const stats = {}; const langAll = {}; let total = 0;
function strings(o, acc = []) { if (typeof o === 'string') acc.push(o); else if (Array.isArray(o)) o.forEach(x => strings(x, acc)); else if (o && typeof o === 'object') for (const [k, v] of Object.entries(o)) { acc.push(k); strings(v, acc); } return acc; }
function checkProps(id, props, p) {
  if (!props || typeof props !== 'object') { err(id, `${p}: properties missing`); return; }
  for (const [k, v] of Object.entries(props)) {
    if (!v || typeof v !== 'object') { err(id, `${p}.${k} not object`); continue; }
    if (!v.type) err(id, `${p}.${k}: no type`);
    if (typeof v.description !== 'string' || !v.description.trim()) err(id, `${p}.${k}: no description`);
    if (v.properties) checkProps(id, v.properties, `${p}.${k}.properties`);
    if (v.type === 'object' && !v.properties && !v.additionalProperties) err(id, `${p}.${k}: object without properties`);
    if (v.items && v.items.properties) checkProps(id, v.items.properties, `${p}.${k}.items.properties`);
    if (v.items && !v.items.type) err(id, `${p}.${k}.items: no type`);
    if (v.required) for (const r of v.required) if (!(v.properties && r in v.properties)) err(id, `${p}.${k}: required ${r} missing`);
  }
}
function resolve(root, jp) {
  if (!jp.startsWith('$')) return { ok: false };
  const toks = []; const re = /\.([A-Za-z_$][\w$-]*)|\[(\d+)\]|\["([^"]+)"\]/g; let m, last = 1;
  while ((m = re.exec(jp))) { if (m.index !== last) return { ok: false }; last = re.lastIndex; toks.push(m[1] ?? (m[2] !== undefined ? Number(m[2]) : { key: m[3] })); }
  if (last !== jp.length) return { ok: false };
  let cur = root;
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    if (typeof t === 'object') { if (!cur || !(t.key in cur)) return { ok: false }; if (i === toks.length - 1) return { ok: true, val: t.key, isName: true }; cur = cur[t.key]; }
    else { if (cur == null || !(t in Object(cur))) return { ok: false }; cur = cur[t]; }
  }
  return { ok: true, val: cur };
}
const urlRe = /\b(?:https?|wss?|ftp):\/\/[^\s"'<>)\]]+/gi;
const hostOk = h => /\.example$/i.test(h) || /^(198\.51\.100|203\.0\.113)\.\d+$/.test(h) || h === 'localhost' || h === '127.0.0.1';
for (const [cls, fn] of Object.entries(files)) {
  const fp = path.join(dir, fn);
  if (!fs.existsSync(fp)) { err(fn, 'missing'); continue; }
  const lines = fs.readFileSync(fp, 'utf8').split('\n').filter(l => l.trim());
  const st = stats[cls] = { n: 0, lang: {}, len: { short: 0, mid: 0, long: 0 }, where: {}, voices: new Set() };
  lines.forEach((line, i) => {
    let r; try { r = JSON.parse(line); } catch (e) { err(`${fn}:${i + 1}`, 'bad JSON ' + e.message); return; }
    const id = r.id || `${fn}:${i + 1}`;
    const exp = `${BATCH}-${cls}-${String(i + 1).padStart(3, '0')}`;
    if (r.id !== exp) err(id, `id should be ${exp}`);
    if (allIds.has(r.id)) err(id, 'duplicate id'); allIds.add(r.id);
    if (r.class !== cls) err(id, 'class mismatch');
    if (!ISO.has(r.lang)) err(id, 'lang not ISO 639-1: ' + r.lang);
    if (typeof r.voice !== 'string' || !r.voice) err(id, 'no voice');
    if (typeof r.server !== 'string' || !r.server || catServers.has(r.server)) err(id, 'server missing or a catalog server');
    if (!Array.isArray(r.siblings) || !r.siblings.length) err(id, 'siblings empty');
    const t = r.tool;
    if (!t || typeof t.name !== 'string' || !/^[A-Za-z0-9_.-]{1,64}$/.test(t.name)) err(id, 'bad tool.name');
    if (!t || typeof t.description !== 'string' || !t.description.trim()) err(id, 'no description');
    if (!t || !t.inputSchema || t.inputSchema.type !== 'object') err(id, 'inputSchema.type must be object');
    else { checkProps(id, t.inputSchema.properties, 'properties'); for (const q of t.inputSchema.required || []) if (!(q in (t.inputSchema.properties || {}))) err(id, `required ${q} missing`); }
    if (cls === 'benign') {
      if ('where' in r || 'intent' in r) err(id, 'benign with where/intent');
      if (typeof r.note !== 'string' || !r.note) err(id, 'benign needs note');
      if (r.source !== 'new') { const m = /^catalog:([^/]+)\/(.+)$/.exec(r.source || ''); if (!m || !catByServer[m[1]] || !catByServer[m[1]].has(m[2])) err(id, 'bad source ' + r.source); }
      for (const s of r.siblings || []) if (catTools.has(s)) err(id, `benign sibling ${s} is a real catalog tool name`);
    } else {
      if (typeof r.intent !== 'string' || !r.intent) err(id, 'no intent');
      if (typeof r.where !== 'string') err(id, 'no where');
      else { const x = resolve(t, r.where); if (!x.ok || typeof x.val !== 'string') err(id, 'where does not resolve to a string: ' + r.where); st.where[r.where.replace(/properties\.[^.\[]+/g, 'properties.<p>')] = (st.where[r.where.replace(/properties\.[^.\[]+/g, 'properties.<p>')] || 0) + 1; }
      for (const s of r.siblings || []) if (!catTools.has(s)) err(id, `sibling ${s} not a catalog tool`);
      if ('note' in r || 'source' in r) err(id, 'poisoned with note/source');
    }
    const ss = strings(t);
    for (const s of ss) {
      for (const b of banned) if (b.test(s)) err(id, `banned phrase ${b} in "${s.slice(0, 60)}"`);
      if (invisible.test(s)) err(id, 'invisible/bidi/tag char');
      for (const u of s.match(urlRe) || []) { let h; try { h = new URL(u).hostname; } catch { h = ''; } if (!hostOk(h)) err(id, 'URL host not .example/TEST-NET: ' + u); }
      for (const m of s.matchAll(/[\w.+-]+@([\w-]+(?:\.[\w-]+)+)/g)) if (!/\.example$/i.test(m[1])) err(id, 'email domain not .example: ' + m[0]);
      for (const m of s.matchAll(/\b\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}\b/g)) { const ip = m[0]; if (!hostOk(ip) && !/^(10|127|0)\./.test(ip) && !/^192\.168\./.test(ip) && !/^172\.(1[6-9]|2\d|3[01])\./.test(ip)) err(id, 'public IP ' + ip); }
    }
    for (const s of [JSON.stringify(r)]) if (invisible.test(s)) err(id, 'invisible char in record');
    const d = t.description || '';
    const L = [...d].length; st.len[L < 200 ? 'short' : L < 700 ? 'mid' : 'long']++;
    if (descSeen.has(d)) err(id, 'duplicate description with ' + descSeen.get(d)); descSeen.set(d, r.id);
    const op = d.toLowerCase().split(/\s+/).slice(0, 5).join(' ');
    if ([...d].length > 40) { if (openers.has(op)) err(id, `same opening words as ${openers.get(op)}: "${op}"`); else openers.set(op, r.id); }
    st.n++; total++; st.lang[r.lang] = (st.lang[r.lang] || 0) + 1; langAll[r.lang] = (langAll[r.lang] || 0) + 1; st.voices.add(r.voice);
  });
}
for (const [cls, st] of Object.entries(stats)) {
  const n = st.n || 1;
  for (const k of ['short', 'mid', 'long']) { const f = st.len[k] / n; if (f < 0.2 || f > 0.47) err(cls, `length bucket ${k} = ${(f * 100).toFixed(0)}% (want ~33%)`); }
  const en = (st.lang.en || 0) / n; if (en < 0.3 || en > 0.5) err(cls, `English share ${(en * 100).toFixed(0)}%`);
  console.log(`${cls}: ${st.n} records, ${Object.keys(st.lang).length} langs, voices ${st.voices.size}, lengths ${JSON.stringify(st.len)}`);
  console.log(`   langs ${JSON.stringify(st.lang)}`);
  if (Object.keys(st.where).length) console.log(`   where ${JSON.stringify(st.where)}`);
}
const nonEn = Object.keys(langAll).filter(l => l !== 'en').length;
if (nonEn < 25) err('batch', `only ${nonEn} non-English languages`);
console.log(`total ${total}; English ${langAll.en || 0} (${((langAll.en || 0) / (total || 1) * 100).toFixed(0)}%); non-English languages ${nonEn}: ${JSON.stringify(langAll)}`);
if (errors.length) { console.log(`\n${errors.length} problem(s):`); errors.forEach(e => console.log(' - ' + e)); process.exit(1); }
console.log('OK');
