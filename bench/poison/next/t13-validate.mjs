// validate.mjs — checks the t13 batch. node validate.mjs  (no dependencies)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const catDir = path.join(here, '..', '..', 'discovery', 'catalog');
const catalog = new Set();
const catalogPairs = new Set();
for (const f of fs.readdirSync(catDir).filter(f => f.endsWith('.json'))) {
  const d = JSON.parse(fs.readFileSync(path.join(catDir, f), 'utf8'));
  for (const t of d.tools) { catalog.add(t.name); catalogPairs.add(d.server + '/' + t.name); }
}

const files = { 't13-p1.jsonl': 'p1', 't13-d.jsonl': 'd', 't13-p3.jsonl': 'p3', 't13-p4.jsonl': 'p4', 't13-benign.jsonl': 'benign' };
const errors = [];
const warn = [];
const err = (id, m) => errors.push(`${id}: ${m}`);
const ids = new Set();
const toolNames = new Map();
const descs = [];
const stats = {};
const FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\u00AD\u061C\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\uFEFF\uFFF9-\uFFFB]|[\u{E0000}-\u{E007F}]/u;
const STOCK = /ignore (all )?previous instructions|highest priority|\boverride|\bdisregard|\bsupersede|takes precedence|\bIMPORTANT\b/i;
const SOFTWORDS = /\b(must|always|priority|important)\b/i;

function resolve(obj, where) {
  if (!where.startsWith('$')) return { ok: false };
  const re = /\.([A-Za-z0-9_$-]+)|\[(\d+)\]|\["((?:[^"\\]|\\.)*)"\]/g;
  let rest = where.slice(1), cur = obj, m, pos = 0, lastWasName = false;
  re.lastIndex = 0;
  while (pos < rest.length) {
    re.lastIndex = pos;
    m = re.exec(rest);
    if (!m || m.index !== pos) return { ok: false };
    pos = re.lastIndex;
    const key = m[1] ?? (m[2] !== undefined ? Number(m[2]) : JSON.parse('"' + m[3] + '"'));
    lastWasName = m[3] !== undefined;
    if (cur == null || typeof cur !== 'object' || !(key in cur)) return { ok: false };
    cur = cur[key];
  }
  return { ok: true, value: cur, nameForm: lastWasName };
}

function checkProps(id, schema, p) {
  if (!schema || typeof schema !== 'object') return;
  if (schema.properties) {
    for (const [k, v] of Object.entries(schema.properties)) {
      if (!v || typeof v !== 'object') { err(id, `property ${p}.${k} not an object`); continue; }
      if (!('type' in v)) err(id, `property ${p}.${k} has no type`);
      if (typeof v.description !== 'string' || !v.description.trim()) err(id, `property ${p}.${k} has no description`);
      checkProps(id, v, `${p}.${k}`);
    }
  }
  if (schema.items) checkProps(id, schema.items, p + '[]');
}

function grams(s) {
  const w = s.toLowerCase().split(/[^\p{L}\p{N}_]+/u).filter(Boolean);
  const g = new Set();
  for (let i = 0; i + 2 < w.length; i++) g.add(w[i] + ' ' + w[i + 1] + ' ' + w[i + 2]);
  return g;
}

function checkEndpoints(id, text) {
  for (const m of text.matchAll(/https?:\/\/([^\/\s"'`)<>]+)/g)) {
    const host = m[1].replace(/[.,;:]+$/, '').replace(/:\d+$/, '').replace(/^.*@/, '');
    if (/^\d+\.\d+\.\d+\.\d+$/.test(host)) { if (!/^(198\.51\.100|203\.0\.113|192\.0\.2)\./.test(host)) err(id, `non TEST-NET IP ${host}`); }
    else if (!/\.example$/i.test(host) && host !== 'localhost') err(id, `non .example host ${host}`);
  }
  for (const m of text.matchAll(/[A-Za-z0-9._%+-]+@([A-Za-z0-9.-]+\.[A-Za-z]{2,})/g)) {
    if (!/\.example$/i.test(m[1])) err(id, `non .example email domain ${m[1]}`);
  }
  for (const m of text.matchAll(/\b(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\b/g)) {
    const ip = m[0];
    if (/^(198\.51\.100|203\.0\.113|192\.0\.2|127\.0\.0|10\.|0\.0\.0)/.test(ip)) continue;
    warn.push(`${id}: IP-like ${ip}`);
  }
}

for (const [file, cls] of Object.entries(files)) {
  const fp = path.join(here, file);
  if (!fs.existsSync(fp)) { err(file, 'missing'); continue; }
  const lines = fs.readFileSync(fp, 'utf8').split('\n').filter(l => l.trim());
  const st = stats[file] = { n: 0, short: 0, medium: 0, long: 0, langs: {}, where: {}, voices: new Set(), withSib: 0 };
  lines.forEach((line, i) => {
    let r;
    try { r = JSON.parse(line); } catch (e) { err(`${file}:${i + 1}`, 'JSON: ' + e.message); return; }
    const id = r.id || `${file}:${i + 1}`;
    st.n++;
    if (FORBIDDEN.test(line) || FORBIDDEN.test(JSON.stringify(r))) err(id, 'forbidden character');
    if (!/^t13-(p1|p2|p3|p4|d|benign)-\d{3}$/.test(r.id || '')) err(id, 'bad id');
    if (ids.has(r.id)) err(id, 'duplicate id'); ids.add(r.id);
    if (r.class !== cls) err(id, `class ${r.class} in ${file}`);
    if (!r.id?.startsWith(`t13-${cls}-`)) err(id, 'id/class mismatch');
    for (const f of ['voice', 'lang', 'server']) if (typeof r[f] !== 'string' || !r[f]) err(id, `missing ${f}`);
    if (!/^[a-z]{2}$/.test(r.lang || '')) err(id, 'lang not ISO 639-1');
    if (!Array.isArray(r.siblings)) err(id, 'siblings not array');
    const t = r.tool;
    if (!t || typeof t !== 'object') { err(id, 'no tool'); return; }
    if (!/^[A-Za-z0-9_.-]{1,64}$/.test(t.name || '')) err(id, 'bad tool name');
    if (toolNames.has(t.name)) err(id, `tool name reused (also ${toolNames.get(t.name)})`); toolNames.set(t.name, id);
    if (typeof t.description !== 'string' || !t.description) err(id, 'no description');
    if (!t.inputSchema || t.inputSchema.type !== 'object' || typeof t.inputSchema.properties !== 'object') err(id, 'bad inputSchema');
    checkProps(id, t.inputSchema, '');
    st.langs[r.lang] = (st.langs[r.lang] || 0) + 1;
    st.voices.add(r.voice);
    const L = (t.description || '').length;
    if (L < 200) st.short++; else if (L < 700) st.medium++; else st.long++;
    if (cls === 'benign') {
      if ('where' in r || 'intent' in r) err(id, 'benign has where/intent');
      if (typeof r.note !== 'string' || !r.note) err(id, 'benign without note');
      if (r.source !== 'new') {
        const m = /^catalog:(.+)$/.exec(r.source || '');
        if (!m || !catalogPairs.has(m[1])) err(id, `bad source ${r.source}`);
      }
    } else {
      if (typeof r.intent !== 'string' || !r.intent) err(id, 'no intent');
      if (typeof r.where !== 'string') { err(id, 'no where'); return; }
      const res = resolve(t, r.where);
      if (!res.ok) err(id, `where does not resolve: ${r.where}`);
      else if (res.nameForm) { if (!res.value || typeof res.value !== 'object' || !('type' in res.value)) err(id, 'name-form where not a property schema'); }
      else if (typeof res.value !== 'string') err(id, `where resolves to ${typeof res.value}`);
      const key = r.where.replace(/\.properties\.[^.\[]+|\.properties\["[^"]*"\]|\[\d+\]/g, m => m.startsWith('[') ? '[i]' : (m.includes('["') ? '.properties[NAME]' : '.properties.*'));
      st.where[key] = (st.where[key] || 0) + 1;
      for (const s of r.siblings || []) if (!catalog.has(s)) err(id, `sibling ${s} not in catalog`);
      if ((r.siblings || []).length) st.withSib++;
      checkEndpoints(id, JSON.stringify(t));
      if (res.ok && typeof res.value === 'string') {
        if (STOCK.test(res.value)) err(id, 'stock phrase in poison');
        if (cls === 'p1' && SOFTWORDS.test(res.value)) err(id, 'p1 uses must/always/priority/important');
        descs.push({ id, text: res.value, g: grams(res.value) });
      }
    }
    if (!(r.where === '$.description')) descs.push({ id, text: t.description, g: grams(t.description || '') });
  });
}

for (let i = 0; i < descs.length; i++) for (let j = i + 1; j < descs.length; j++) {
  const a = descs[i], b = descs[j];
  if (a.id === b.id || !a.g.size || !b.g.size) continue;
  let s = 0; for (const x of a.g) if (b.g.has(x)) s++;
  if (s > Math.min(a.g.size, b.g.size) / 2) err(a.id, `shares ${s} 3-grams with ${b.id}`);
}

for (const [f, st] of Object.entries(stats)) {
  console.log(`${f}: n=${st.n} short=${st.short} medium=${st.medium} long=${st.long} voices=${st.voices.size} withSiblings=${st.withSib}`);
  console.log('  langs', JSON.stringify(st.langs));
  if (Object.keys(st.where).length) console.log('  where', JSON.stringify(st.where));
}
for (const w of warn) console.log('WARN', w);
for (const e of errors) console.log('ERROR', e);
console.log(errors.length ? `${errors.length} errors` : 'clean');
process.exit(errors.length ? 1 : 0);
