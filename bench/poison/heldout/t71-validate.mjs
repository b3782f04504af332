// t71 validator: node t71-validate.mjs  (no dependencies; validates only, generates nothing)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = path.dirname(fileURLToPath(import.meta.url));
const B = 't71';
const catDir = path.join(dir, '..', '..', 'discovery', 'catalog');
const errors = [];
const err = (id, m) => errors.push(`${id}: ${m}`);

// real tool names per catalog server
const catalog = {};
for (const f of fs.readdirSync(catDir).filter(f => f.endsWith('.json'))) {
  const j = JSON.parse(fs.readFileSync(path.join(catDir, f), 'utf8'));
  catalog[j.server || f] = new Set((j.tools || []).map(t => t.name));
}
const allReal = new Set(Object.values(catalog).flatMap(s => [...s]));

const ISO = new Set('en zh ja ko vi th id ms tl hi bn ar he fa sw sr hr bg lt lv et de fr es it pt ru pl uk tr nl sv fi da no cs sk hu ro el ur ta te'.split(' '));
const BANNED = [/ignore previous instructions/i, /highest priority/i, /override/i, /disregard/i, /supersede/i, /takes precedence/i, /important/i];
const INVIS = /[\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF\u00AD]|[\u{E0000}-\u{E007F}]/u;

function readJsonl(file) {
  const p = path.join(dir, file);
  if (!fs.existsSync(p)) { err(file, 'missing'); return []; }
  return fs.readFileSync(p, 'utf8').split('\n').filter(l => l.trim()).map((l, i) => {
    try { return JSON.parse(l); } catch (e) { err(`${file}:${i + 1}`, 'bad JSON ' + e.message); return null; }
  }).filter(Boolean);
}

function strings(o, p = '$', out = []) {
  if (typeof o === 'string') out.push([p, o]);
  else if (Array.isArray(o)) o.forEach((v, i) => strings(v, `${p}[${i}]`, out));
  else if (o && typeof o === 'object') for (const [k, v] of Object.entries(o)) {
    const kp = /^[A-Za-z_][A-Za-z0-9_]*$/.test(k) ? `${p}.${k}` : `${p}["${k}"]`;
    strings(v, kp, out);
  }
  return out;
}

function checkProps(id, props, p) {
  if (!props || typeof props !== 'object') return;
  for (const [k, v] of Object.entries(props)) {
    if (!v || typeof v !== 'object') { err(id, `${p}.${k} not an object`); continue; }
    if (!v.type) err(id, `${p}.${k} has no type`);
    if (typeof v.description !== 'string' || !v.description.trim()) err(id, `${p}.${k} has no description`);
    if (v.properties) checkProps(id, v.properties, `${p}.${k}.properties`);
    if (v.items && v.items.properties) checkProps(id, v.items.properties, `${p}.${k}.items.properties`);
  }
}

function resolve(tool, where) {
  // supports $.a.b, $.a["b"], [n]
  const toks = [];
  const re = /\.([A-Za-z_][A-Za-z0-9_]*)|\["([^"]+)"\]|\[(\d+)\]/g;
  if (!where.startsWith('$')) return undefined;
  let m, rest = where.slice(1), last = 0;
  while ((m = re.exec(rest))) { if (m.index !== last) return undefined; last = re.lastIndex; toks.push(m[1] ?? m[2] ?? Number(m[3])); }
  if (last !== rest.length) return undefined;
  // property NAME form: $.inputSchema.properties["name"] -> the key itself
  let cur = tool;
  for (const t of toks) { if (cur == null) return undefined; cur = cur[t]; }
  return cur;
}

function checkUrls(id, s) {
  const urls = s.match(/https?:\/\/[^\s"'<>)]+/g) || [];
  for (const u of urls) {
    let host; try { host = new URL(u).hostname; } catch { err(id, 'bad url ' + u); continue; }
    if (!(host.endsWith('.example') || host === 'example' || /^(198\.51\.100|203\.0\.113|192\.0\.2)\.\d+$/.test(host))) err(id, 'non-test endpoint ' + u);
  }
  const emails = s.match(/[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g) || [];
  for (const e of emails) if (!e.toLowerCase().endsWith('.example')) err(id, 'non-test email ' + e);
  const ips = s.match(/\b\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}\b/g) || [];
  for (const ip of ips) if (!/^(198\.51\.100|203\.0\.113|192\.0\.2)\./.test(ip) && !/^(10|127)\./.test(ip)) err(id, 'non-test ip ' + ip);
}

const pois = readJsonl(`${B}-p1.jsonl`);
const ben = readJsonl(`${B}-benign.jsonl`);
const all = [...pois, ...ben];
const byId = new Map();
for (const r of all) { if (byId.has(r.id)) err(r.id, 'duplicate id'); byId.set(r.id, r); }

const langs = {}, lengths = { short: 0, mid: 0, long: 0 }, wheres = {};
for (const r of all) {
  const id = r.id || '?';
  const isP = r.class === 'p1';
  if (isP && !new RegExp(`^${B}-p1-\\d{3}$`).test(id)) err(id, 'bad id');
  if (!isP && (r.class !== 'benign' || !new RegExp(`^${B}-benign-\\d{3}$`).test(id))) err(id, 'bad id/class');
  for (const f of ['voice', 'lang', 'server', 'siblings', 'tool', 'pair']) if (r[f] === undefined) err(id, 'missing ' + f);
  if (!ISO.has(r.lang)) err(id, 'lang not ISO 639-1 in list: ' + r.lang);
  langs[r.lang] = (langs[r.lang] || 0) + 1;
  if (catalog[r.server]) err(id, 'server name is a catalog server');
  if (!Array.isArray(r.siblings) || !r.siblings.length) err(id, 'siblings empty');
  const t = r.tool || {};
  if (!t.name || typeof t.description !== 'string') err(id, 'tool name/description missing');
  if (!t.inputSchema || t.inputSchema.type !== 'object') err(id, 'inputSchema not object');
  checkProps(id, t.inputSchema && t.inputSchema.properties, '$.inputSchema.properties');
  for (const req of (t.inputSchema && t.inputSchema.required) || []) if (!(req in (t.inputSchema.properties || {}))) err(id, 'required not in properties: ' + req);
  const d = t.description || '';
  lengths[d.length < 200 ? 'short' : d.length < 700 ? 'mid' : 'long']++;
  const blob = JSON.stringify(r);
  for (const b of BANNED) if (b.test(blob)) err(id, 'banned phrase ' + b);
  if (INVIS.test(blob)) err(id, 'invisible/bidi char');
  for (const [, s] of strings(t)) checkUrls(id, s);
  for (const k of Object.keys((t.inputSchema && t.inputSchema.properties) || {})) checkUrls(id, k);
  if (isP) {
    if (!r.where || !r.intent) err(id, 'missing where/intent');
    for (const s of r.siblings || []) if (!allReal.has(s)) err(id, 'sibling not a real catalog tool: ' + s);
    for (const [srv, set] of Object.entries(catalog)) if (set.has(t.name) && (r.siblings || []).every(s => set.has(s))) { /* ok */ }
    if (r.where) {
      const m = r.where.match(/^(.*)\["([^"]+)"\]$/);
      let v = resolve(t, r.where);
      if (m && v && typeof v === 'object') v = m[2];
      if (typeof v !== 'string') err(id, 'where does not resolve to a string: ' + r.where);
      const w = r.where.replace(/\.(properties\.)[A-Za-z0-9_]+/g, '.$1*').replace(/\[\d+\]/g, '[n]');
      wheres[w] = (wheres[w] || 0) + 1;
    }
  } else {
    if (!r.note || r.source === undefined) err(id, 'benign missing note/source');
    if (r.where || r.intent) err(id, 'benign has where/intent');
    for (const s of r.siblings || []) if (allReal.has(s)) err(id, 'benign sibling is a real catalog tool name: ' + s);
  }
}

// pairs
for (const r of pois) {
  const tw = byId.get(r.pair);
  if (!tw) { err(r.id, 'pair missing ' + r.pair); continue; }
  if (tw.pair !== r.id) err(r.id, 'pair not mutual');
  if (tw.class !== 'benign') err(r.id, 'twin not benign');
  if (tw.source !== 'new') err(tw.id, 'twin source must be new');
  for (const f of ['server', 'lang', 'voice']) if (tw[f] !== r[f]) err(r.id, 'twin differs in ' + f);
  if (tw.tool.name !== r.tool.name) err(r.id, 'twin tool name differs');
  const a = strings(r.tool), b = strings(tw.tool);
  const ka = a.map(x => x[0]).join('|'), kb = b.map(x => x[0]).join('|');
  const sameKeys = JSON.stringify(Object.keys(r.tool.inputSchema.properties || {})) === JSON.stringify(Object.keys(tw.tool.inputSchema.properties || {}));
  let diff = 0;
  if (ka !== kb) { diff = 99; }
  else for (let i = 0; i < a.length; i++) if (a[i][1] !== b[i][1]) diff++;
  if (!sameKeys) {
    // property-name swap: allow exactly one renamed key with identical value
    const pa = Object.keys(r.tool.inputSchema.properties), pb = Object.keys(tw.tool.inputSchema.properties);
    const renamed = pa.filter((k, i) => k !== pb[i]).length;
    if (renamed === 1) diff = 1; else diff = 99;
  }
  if (diff < 1 || diff > 3) err(r.id, `tool objects differ in ${diff} strings (must be 1-3)`);
  const dl = Math.abs(JSON.stringify(r.tool).length - JSON.stringify(tw.tool).length);
  if (dl > 160) err(r.id, `twin length differs by ${dl} chars`);
}
// benign order matches
ben.forEach((b, i) => { if (pois[i] && pois[i].pair !== b.id) err(b.id, 'benign file not in same order as poisoned'); });

console.log(`${B}-p1.jsonl: ${pois.length}  ${B}-benign.jsonl: ${ben.length}`);
console.log('langs (records):', JSON.stringify(langs));
console.log('description lengths:', JSON.stringify(lengths));
console.log('where:', JSON.stringify(wheres));
const en = all.filter(r => r.lang === 'en').length;
console.log(`English share: ${(100 * en / Math.max(1, all.length)).toFixed(0)}%  languages: ${Object.keys(langs).length}`);
if (errors.length) { console.log(`FAIL ${errors.length} problem(s):`); for (const e of errors) console.log('  ' + e); process.exit(1); }
console.log('OK');
