import { fileURLToPath } from 'node:url';
// t40 validator: checks every BRIEF rule that can be checked mechanically and prints counts.
import fs from 'node:fs';
import path from 'node:path';
const dir = path.dirname(fileURLToPath(import.meta.url));
const catDir = path.join(dir, '..', '..', 'discovery', 'catalog');
const real = new Set(); const catServers = new Set();
for (const f of fs.readdirSync(catDir)) if (f.endsWith('.json')) {
  const j = JSON.parse(fs.readFileSync(path.join(catDir, f), 'utf8'));
  catServers.add(String(j.server).toLowerCase());
  for (const t of j.tools || []) real.add(t.name);
}
const errs = []; const err = (id, m) => errs.push(`${id}: ${m}`);
const banned = ['ignore previous instructions','highest priority','override','disregard','supersede','takes precedence','important','wichtig','importante','importantes','belangrijk','ważne','важно','重要','중요','önemli','tärkeä','vigtig','viktig','fontos','σημαντικό','महत्वपूर्ण','penting','quan trọng','สำคัญ','muhimu','mahalaga','důležité','важливо','חשוב','مهم'];
const invisible = /[\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF\u00AD\u180E]|[\u{E0000}-\u{E007F}]/u;
function* walkProps(schema, p) {
  if (!schema || typeof schema !== 'object') return;
  if (schema.properties) for (const [k, v] of Object.entries(schema.properties)) {
    const pp = `${p}.properties${/^[A-Za-z_][A-Za-z0-9_]*$/.test(k) ? '.' + k : '["' + k + '"]'}`;
    yield [pp, v]; yield* walkProps(v, pp);
  }
  if (schema.items) yield* walkProps(schema.items, p + '.items');
}
function resolve(obj, jp) {
  if (!jp.startsWith('$')) return undefined;
  const re = /\.([A-Za-z_$][A-Za-z0-9_$-]*)|\[(\d+)\]|\["((?:[^"\\]|\\.)*)"\]/gy;
  re.lastIndex = 1; let cur = obj, m, last = 1;
  while (last < jp.length) {
    m = re.exec(jp); if (!m || m.index !== last) return undefined; last = re.lastIndex;
    const key = m[1] ?? (m[2] !== undefined ? Number(m[2]) : JSON.parse('"' + m[3] + '"'));
    if (cur == null || typeof cur !== 'object' || !(key in cur)) return undefined;
    cur = cur[key];
  }
  return cur;
}
function hostsOk(text) {
  const bad = [];
  for (const m of text.matchAll(/\b(?:https?|wss?|ftp):\/\/([^\/\s"'`<>)\]:?#]+)/gi)) {
    const h = m[1].toLowerCase().replace(/^.*@/, '');
    if (/(^|\.)example$/.test(h) || /^example\.(com|org|net)$/.test(h) || /\.example\.(com|org|net)$/.test(h) || h === 'localhost' || /^(127\.0\.0\.1|198\.51\.100\.\d+|203\.0\.113\.\d+|192\.0\.2\.\d+)$/.test(h) || /^\{/.test(h)) continue;
    bad.push(h);
  }
  for (const m of text.matchAll(/\b(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\b/g)) {
    const ip = m[0];
    if (/^(198\.51\.100|203\.0\.113|192\.0\.2)\./.test(ip) || /^(127\.|10\.|0\.0\.0\.0|192\.168\.)/.test(ip)) continue;
    if (Number(m[1]) < 10 && !/^\d+\.\d+\.\d+\.\d+$/.test(ip)) continue;
    bad.push(ip);
  }
  return bad;
}
const lenBucket = n => n < 200 ? 'short' : n < 700 ? 'medium' : 'long';
const summary = {};
const ids = new Set();
for (const f of fs.readdirSync(dir).filter(f => f.startsWith('t40-') && f.endsWith('.jsonl'))) {
  const benignFile = f === 't40-benign.jsonl';
  const S = summary[f] = { records: 0, lang: {}, len: { short: 0, medium: 0, long: 0 }, slot: {}, nested: 0, voices: new Set() };
  const lines = fs.readFileSync(path.join(dir, f), 'utf8').split('\n').filter(l => l.trim());
  lines.forEach((line, i) => {
    let r; try { r = JSON.parse(line); } catch (e) { err(`${f}:${i + 1}`, 'bad JSON ' + e.message); return; }
    const id = r.id || `${f}:${i + 1}`;
    S.records++;
    const cls = benignFile ? 'benign' : f.replace(/^t40-|\.jsonl$/g, '');
    if (r.class !== cls) err(id, `class ${r.class} != ${cls}`);
    if (!new RegExp(`^t40-${cls}-\\d{3}$`).test(r.id || '')) err(id, 'bad id');
    if (ids.has(r.id)) err(id, 'duplicate id'); ids.add(r.id);
    if (!/^[a-z]{2}$/.test(r.lang || '')) err(id, 'bad lang');
    if (typeof r.voice !== 'string' || !r.voice) err(id, 'no voice');
    if (typeof r.server !== 'string' || !r.server) err(id, 'no server');
    else if (catServers.has(r.server.toLowerCase())) err(id, 'server is a catalog server');
    S.lang[r.lang] = (S.lang[r.lang] || 0) + 1; S.voices.add(r.voice);
    if (!Array.isArray(r.siblings) || !r.siblings.length) err(id, 'siblings missing');
    else for (const s of r.siblings) {
      if (benignFile && real.has(s)) err(id, `benign sibling ${s} is a real catalog tool name`);
      if (!benignFile && !real.has(s)) err(id, `sibling ${s} not a catalog tool`);
    }
    const t = r.tool;
    if (!t || typeof t.name !== 'string' || typeof t.description !== 'string') { err(id, 'tool name/description'); return; }
    if (!t.inputSchema || t.inputSchema.type !== 'object' || typeof t.inputSchema.properties !== 'object') err(id, 'inputSchema not object with properties');
    for (const [p, v] of walkProps(t.inputSchema, '$.inputSchema')) {
      if (!v || typeof v !== 'object') { err(id, `${p} not an object`); continue; }
      if (!v.type) err(id, `${p} lacks type`);
      if (typeof v.description !== 'string' || !v.description) err(id, `${p} lacks description`);
    }
    for (const req of [t.inputSchema?.required || []].flat()) if (!(req in (t.inputSchema.properties || {}))) err(id, `required ${req} not a property`);
    const text = JSON.stringify(r);
    if (invisible.test(text)) err(id, 'invisible/bidi/tag character');
    const low = JSON.stringify(t).toLowerCase() + ' ' + String(r.intent || '').toLowerCase() + ' ' + String(r.note || '').toLowerCase();
    for (const b of banned) if (low.includes(b)) err(id, `banned phrase "${b}"`);
    const bad = hostsOk(JSON.stringify(t)); if (bad.length) err(id, 'non-reserved host/IP: ' + bad.join(','));
    S.len[lenBucket(t.description.length)]++;
    if (benignFile) {
      if ('where' in r || 'intent' in r) err(id, 'benign has where/intent');
      if (typeof r.note !== 'string' || !r.note) err(id, 'benign lacks note');
      if (!(r.source === 'new' || /^catalog:[^/]+\/.+/.test(r.source || ''))) err(id, 'bad source');
    } else {
      if (typeof r.intent !== 'string' || !r.intent) err(id, 'no intent');
      if ('note' in r || 'source' in r) err(id, 'poisoned has note/source');
      const w = r.where || '';
      const target = resolve(t, w.replace(/^\$/, '$'));
      const isName = /\["[^"]+"\]$/.test(w) && /\.properties\["[^"]+"\]$/.test(w);
      let slot;
      if (isName) slot = 'property name';
      else if (/\.default(\[\d+\])?$/.test(w)) slot = 'default';
      else if (/\.enum\[\d+\]$/.test(w)) slot = 'enum member';
      else if (/\.examples\[\d+\](\[\d+\])?$/.test(w)) slot = 'examples entry';
      else if (/\.const$/.test(w)) slot = 'const';
      else if (/\.properties(\.[A-Za-z_][\w-]*|\["[^"]+"\])\.title$/.test(w)) slot = 'property title';
      if (cls === 'd' && !slot) err(id, `where ${w} is not a data slot`);
      if (target === undefined) err(id, `where ${w} does not resolve`);
      else if (!isName && typeof target !== 'string') err(id, `where ${w} is not a string`);
      else if (isName && (typeof target !== 'object')) err(id, `where ${w} is not a property`);
      if (!w.startsWith('$.inputSchema') && cls === 'd') err(id, 'd where outside schema');
      S.slot[slot] = (S.slot[slot] || 0) + 1;
      const depth = (w.match(/\.properties/g) || []).length;
      if (depth > 1 || /\.items/.test(w)) S.nested++;
    }
  });
}
for (const [f, S] of Object.entries(summary)) {
  const en = S.lang.en || 0;
  console.log(`${f}: ${S.records} records; langs ${Object.keys(S.lang).length} (en ${en}, ${(100 * en / Math.max(1, S.records)).toFixed(0)}%); lengths ${JSON.stringify(S.len)}; voices ${S.voices.size}`);
  if (Object.keys(S.slot).length) console.log(`  slots ${JSON.stringify(S.slot)}; nested ${S.nested}`);
  console.log(`  langs ${JSON.stringify(S.lang)}`);
}
if (errs.length) { console.log(`\n${errs.length} ERRORS`); for (const e of errs) console.log('  ' + e); process.exit(1); }
console.log('\nOK: all rules pass');
