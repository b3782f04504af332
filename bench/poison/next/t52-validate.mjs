// t52 validator: node t52-validate.mjs  (no dependencies). Checks the rules of BRIEF.md and prints counts.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
const dir = path.dirname(fileURLToPath(import.meta.url));
const BATCH = 't52';
const catDir = path.join(dir, '..', '..', 'discovery', 'catalog');
const catalogNames = new Set();
for (const f of fs.readdirSync(catDir).filter(f => f.endsWith('.json'))) {
  const j = JSON.parse(fs.readFileSync(path.join(catDir, f), 'utf8'));
  for (const t of j.tools || []) catalogNames.add(t.name);
}
const errors = [];
const err = (id, m) => errors.push(`${id}: ${m}`);
const BANNED = [/ignore previous instructions/i, /highest priority/i, /override/i, /disregard/i, /supersed/i, /takes precedence/i, /important/i];
const INVIS = /[\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\u3164\uFEFF\uFFA0]|[\u{E0000}-\u{E007F}]/u;
const ids = new Set();
const stats = { files: {}, lang: {}, len: { short: 0, mid: 0, long: 0 }, voice: {}, where: {} };

function resolve(tool, where) {
  // supports $.a.b, ["name"], [n]
  if (!where.startsWith('$')) return { ok: false };
  const toks = [];
  const re = /\.([A-Za-z_][A-Za-z0-9_\-]*)|\["([^"]+)"\]|\[(\d+)\]/g;
  let m, pos = 1;
  while ((m = re.exec(where)) !== null) {
    if (m.index !== pos) return { ok: false };
    pos = re.lastIndex;
    if (m[1] !== undefined) toks.push({ k: m[1] });
    else if (m[2] !== undefined) toks.push({ k: m[2], name: true });
    else toks.push({ i: +m[3] });
  }
  if (pos !== where.length) return { ok: false };
  let cur = tool;
  for (let n = 0; n < toks.length; n++) {
    const t = toks[n];
    if (t.name && n === toks.length - 1) {
      if (cur && typeof cur === 'object' && t.k in cur) return { ok: true, value: t.k };
      return { ok: false };
    }
    cur = t.i !== undefined ? (Array.isArray(cur) ? cur[t.i] : undefined) : (cur ? cur[t.k] : undefined);
    if (cur === undefined) return { ok: false };
  }
  return { ok: typeof cur === 'string', value: cur };
}

function checkProps(id, props, at) {
  if (!props || typeof props !== 'object') return;
  for (const [k, p] of Object.entries(props)) {
    if (!p || typeof p !== 'object') { err(id, `${at}.${k} not an object`); continue; }
    if (!p.type) err(id, `${at}.${k} missing type`);
    if (typeof p.description !== 'string' || !p.description.trim()) err(id, `${at}.${k} missing description`);
    if (p.properties) checkProps(id, p.properties, `${at}.${k}.properties`);
    if (p.items && p.items.properties) checkProps(id, p.items.properties, `${at}.${k}.items.properties`);
  }
}

function checkHosts(id, s) {
  const urlRe = /\b((?:[a-z0-9-]+\.)+[a-z]{2,})(?=[\/\s:"'\)\],.;]|$)/gi;
  let m;
  while ((m = urlRe.exec(s)) !== null) {
    const h = m[1].toLowerCase();
    // skip things that are not hosts: file names, dotted identifiers in code
    if (/\.(pdf|csv|json|mjs|js|md|txt|tmx|py)$/.test(h)) continue;
    if (/^(gigbridge|streamnest|j)\./.test(h) && !/\.(com|net|org|io|app|co|dev|ai|me|tv|in|ir|tr|pk|il|bd)$/.test(h)) continue;
    if (/\.(com|net|org|io|app|co|dev|ai|me|tv|in|ir|tr|pk|il|bd|info|biz|xyz|site|online|link|ly)$/.test(h)) err(id, `non-.example host ${h}`);
  }
  const ipRe = /\b(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\b/g;
  while ((m = ipRe.exec(s)) !== null) {
    const p = `${m[1]}.${m[2]}.${m[3]}`;
    if (p !== '198.51.100' && p !== '203.0.113') err(id, `non TEST-NET IP ${m[0]}`);
  }
}

for (const file of fs.readdirSync(dir).filter(f => f.startsWith(BATCH + '-') && f.endsWith('.jsonl'))) {
  const cls = file.slice(BATCH.length + 1, -'.jsonl'.length);
  const lines = fs.readFileSync(path.join(dir, file), 'utf8').split('\n').filter(l => l.trim());
  stats.files[file] = lines.length;
  lines.forEach((line, i) => {
    let r;
    try { r = JSON.parse(line); } catch (e) { err(`${file}:${i + 1}`, 'bad JSON ' + e.message); return; }
    const id = r.id || `${file}:${i + 1}`;
    if (!new RegExp(`^${BATCH}-${cls}-\\d{3}$`).test(r.id || '')) err(id, 'bad id');
    if (ids.has(r.id)) err(id, 'duplicate id'); ids.add(r.id);
    if (r.class !== cls) err(id, 'class mismatch');
    if (!/^[a-z]{2}$/.test(r.lang || '')) err(id, 'bad lang');
    if (typeof r.voice !== 'string' || !r.voice) err(id, 'missing voice');
    if (typeof r.server !== 'string' || !r.server) err(id, 'missing server');
    if (!Array.isArray(r.siblings) || !r.siblings.length) err(id, 'missing siblings');
    const t = r.tool;
    if (!t || typeof t.name !== 'string' || typeof t.description !== 'string') { err(id, 'bad tool'); return; }
    if (!t.inputSchema || t.inputSchema.type !== 'object' || !t.inputSchema.properties) err(id, 'bad inputSchema');
    checkProps(id, t.inputSchema && t.inputSchema.properties, '$.inputSchema.properties');
    for (const rq of (t.inputSchema && t.inputSchema.required) || []) if (!(rq in t.inputSchema.properties)) err(id, `required ${rq} not a property`);
    const all = JSON.stringify(t) + JSON.stringify(r.intent || '') + JSON.stringify(r.note || '');
    const raw = line;
    if (INVIS.test(raw)) err(id, 'invisible/bidi/tag character');
    for (const b of BANNED) if (b.test(JSON.stringify(t))) err(id, `banned phrase ${b}`);
    checkHosts(id, JSON.stringify(t));
    if (cls === 'benign') {
      if ('where' in r || 'intent' in r) err(id, 'benign has where/intent');
      if (typeof r.note !== 'string' || !r.note) err(id, 'benign missing note');
      if (!(r.source === 'new' || /^catalog:[^/]+\/.+/.test(r.source || ''))) err(id, 'bad source');
      for (const s of r.siblings || []) if (catalogNames.has(s)) err(id, `benign sibling ${s} is a real catalog tool name`);
    } else {
      if (typeof r.intent !== 'string' || !r.intent) err(id, 'missing intent');
      const res = resolve(t, r.where || '');
      if (!res.ok) err(id, `where ${r.where} does not resolve to a string`);
      for (const s of r.siblings || []) if (!catalogNames.has(s)) err(id, `sibling ${s} not a catalog tool`);
      stats.where[r.where.replace(/properties\.[^.\[]+/g, 'properties.<p>')] = (stats.where[r.where.replace(/properties\.[^.\[]+/g, 'properties.<p>')] || 0) + 1;
    }
    const L = t.description.length;
    const b = L < 200 ? 'short' : L < 700 ? 'mid' : 'long';
    stats.len[b]++;
    const k = `${cls}:${b}`; stats.len[k] = (stats.len[k] || 0) + 1;
    stats.lang[r.lang] = (stats.lang[r.lang] || 0) + 1;
    const lk = `${cls}:${r.lang}`; stats.lang[lk] = (stats.lang[lk] || 0) + 1;
    stats.voice[r.voice] = (stats.voice[r.voice] || 0) + 1;
  });
}
console.log(JSON.stringify(stats, null, 1));
if (errors.length) { console.error(errors.join('\n')); console.error(`FAIL: ${errors.length} errors`); process.exit(1); }
console.log('OK');
