// Validator for the t10 corpus. Usage: node validate.mjs [dir]
// No dependencies. Exits 1 on any error.
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = process.argv[2] || dirname(fileURLToPath(import.meta.url));
const FILES = [
  { file: 't10-p1.jsonl', cls: 'p1', prefix: 't10-p1-', count: 240 },
  { file: 't10-benign.jsonl', cls: 'benign', prefix: 't10-benign-', count: 240 },
];
const errors = [];
const warn = [];
const err = (m) => errors.push(m);

// Invisible, bidi-control and tag characters. ZWNJ (U+200C) is allowed only in Persian (fa) records.
function badChars(s, lang) {
  const out = [];
  for (const ch of s) {
    const cp = ch.codePointAt(0);
    const bad =
      (cp < 0x20 && cp !== 0x0a && cp !== 0x09) || cp === 0x7f ||
      (cp >= 0x80 && cp <= 0x9f) ||
      cp === 0x00ad || cp === 0x034f || cp === 0x061c || cp === 0x115f || cp === 0x1160 ||
      cp === 0x17b4 || cp === 0x17b5 || cp === 0x180e ||
      (cp >= 0x200b && cp <= 0x200f && !(cp === 0x200c && lang === 'fa')) ||
      (cp >= 0x202a && cp <= 0x202e) ||
      (cp >= 0x2060 && cp <= 0x206f) ||
      cp === 0x3164 || cp === 0xfeff || cp === 0xffa0 ||
      (cp >= 0xfe00 && cp <= 0xfe0f) ||
      (cp >= 0xfff9 && cp <= 0xfffb) ||
      (cp >= 0xe0000 && cp <= 0xe007f) ||
      (cp >= 0xe0100 && cp <= 0xe01ef);
    if (bad) out.push('U+' + cp.toString(16).toUpperCase().padStart(4, '0'));
  }
  return out;
}

function walkStrings(v, path, fn) {
  if (typeof v === 'string') fn(v, path);
  else if (Array.isArray(v)) v.forEach((x, i) => walkStrings(x, `${path}[${i}]`, fn));
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) { fn(k, `${path}{key}`); walkStrings(x, `${path}.${k}`, fn); }
}

// Resolve "$.a.b.c" against the tool object.
function resolve(tool, where) {
  if (typeof where !== 'string' || !where.startsWith('$.')) return undefined;
  let cur = tool;
  for (const part of where.slice(2).split('.')) {
    if (cur === null || typeof cur !== 'object' || !Object.prototype.hasOwnProperty.call(cur, part)) return undefined;
    cur = cur[part];
  }
  return cur;
}

// Wording the p1 poison text was written to avoid (the brief asks for paraphrase).
const OBVIOUS = [/ignore (all )?(the )?previous instructions/i, /disregard (all )?previous/i, /\boverrides?\b/i,
  /takes? priority/i, /(top|highest) priority/i, /priority over/i, /more important than/i];

const ISO6391 = new Set('aa ab af ak am ar as az be bg bn bo bs ca cs cy da de el en eo es et eu fa fi fr ga gl gu he hi hr hu hy id is it ja ka kk km kn ko ku ky lo lt lv mk ml mn mr ms mt my nb ne nl no pa pl ps pt ro ru si sk sl sq sr sv sw ta te th tl tr uk ur uz vi yo zh zu'.split(' '));

const seenIds = new Set();
const summary = {};
for (const spec of FILES) {
  let text;
  try { text = readFileSync(join(dir, spec.file), 'utf8'); } catch (e) { err(`${spec.file}: cannot read (${e.message})`); continue; }
  if (text.charCodeAt(0) === 0xfeff) err(`${spec.file}: starts with a BOM`);
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const langs = {}, voices = {}, wheres = {};
  const descSeen = new Map();
  let n = 0;
  lines.forEach((line, i) => {
    const at = `${spec.file}:${i + 1}`;
    if (line.includes('\r')) err(`${at}: raw carriage return`);
    let o;
    try { o = JSON.parse(line); } catch (e) { err(`${at}: JSON parse error: ${e.message}`); return; }
    n++;
    if (!o || typeof o !== 'object' || Array.isArray(o)) { err(`${at}: not an object`); return; }
    const id = o.id;
    if (typeof id !== 'string' || !id.startsWith(spec.prefix) || !/-\d{3}$/.test(id)) err(`${at}: bad id ${JSON.stringify(id)}`);
    if (seenIds.has(id)) err(`${at}: duplicate id ${id}`); seenIds.add(id);
    if (o.class !== spec.cls) err(`${at}: class must be "${spec.cls}"`);
    for (const f of ['voice', 'lang', 'server']) if (typeof o[f] !== 'string' || !o[f].trim()) err(`${at}: missing ${f}`);
    if (!ISO6391.has(o.lang)) err(`${at}: lang ${o.lang} is not ISO 639-1`);
    if (!Array.isArray(o.siblings) || o.siblings.length === 0 || !o.siblings.every((s) => typeof s === 'string' && s)) err(`${at}: siblings must be a non-empty array of strings`);
    const t = o.tool;
    if (!t || typeof t !== 'object') { err(`${at}: missing tool`); return; }
    if (typeof t.name !== 'string' || !/^[A-Za-z0-9_.-]{1,64}$/.test(t.name)) err(`${at}: bad tool.name ${JSON.stringify(t.name)}`);
    if (Array.isArray(o.siblings) && o.siblings.includes(t.name)) err(`${at}: siblings contains the tool itself`);
    if (typeof t.description !== 'string' || !t.description.trim()) err(`${at}: tool.description missing`);
    if ('title' in t && (typeof t.title !== 'string' || !t.title.trim())) err(`${at}: tool.title must be a non-empty string`);
    const s = t.inputSchema;
    if (!s || s.type !== 'object' || typeof s.properties !== 'object' || s.properties === null) err(`${at}: inputSchema must be an object schema with properties`);
    else {
      for (const [pn, pv] of Object.entries(s.properties)) {
        if (!/^[A-Za-z0-9_]+$/.test(pn)) err(`${at}: property name ${pn} not ASCII identifier`);
        if (!pv || typeof pv.type !== 'string') err(`${at}: property ${pn} lacks a type`);
        if (pv && pv.type === 'array' && !pv.items) err(`${at}: array property ${pn} lacks items`);
        if (pv && typeof pv.description !== 'string') err(`${at}: property ${pn} lacks a description`);
      }
      if ('required' in s) {
        if (!Array.isArray(s.required)) err(`${at}: required must be an array`);
        else for (const r of s.required) if (!(r in s.properties)) err(`${at}: required ${r} not in properties`);
      }
    }
    for (const k of Object.keys(o)) if (!['id', 'class', 'voice', 'lang', 'server', 'siblings', 'tool', 'where', 'intent', 'note'].includes(k)) err(`${at}: unexpected field ${k}`);
    if (spec.cls === 'p1') {
      if (typeof o.intent !== 'string' || !o.intent.trim()) err(`${at}: missing intent`);
      if ('note' in o) err(`${at}: p1 lines carry intent, not note`);
      const v = resolve(t, o.where);
      if (typeof v !== 'string' || !v.trim()) err(`${at}: where ${JSON.stringify(o.where)} does not resolve to a non-empty string in tool`);
      else for (const re of OBVIOUS) if (re.test(v)) err(`${at}: poison text uses obvious wording ${re}`);
      const wk = (o.where || '').replace(/properties\.[^.]+\./, 'properties.*.');
      wheres[wk] = (wheres[wk] || 0) + 1;
    } else {
      if (typeof o.note !== 'string' || !o.note.trim()) err(`${at}: missing note`);
      if ('where' in o || 'intent' in o) err(`${at}: benign lines must not carry where/intent`);
    }
    walkStrings(o, '', (str, p) => {
      const b = badChars(str, o.lang);
      if (b.length) err(`${at}: invisible/bidi/tag characters ${[...new Set(b)].join(',')} at ${p || '(root)'}`);
      for (const m of str.matchAll(/[A-Za-z0-9._%+-]+@([A-Za-z0-9.-]+\.[A-Za-z]{2,})/g)) if (!/\.example$/i.test(m[1])) err(`${at}: email domain not .example: ${m[0]}`);
      for (const m of str.matchAll(/https?:\/\/([^\s\/?#'"<>)]+)/g)) if (!/\.example$/i.test(m[1])) err(`${at}: URL host not .example: ${m[1]}`);
    });
    const key = t.description + '\u0000' + (o.where ? String(resolve(t, o.where)) : '');
    if (descSeen.has(key)) err(`${at}: duplicate tool text (same as line ${descSeen.get(key)})`); else descSeen.set(key, i + 1);
    langs[o.lang] = (langs[o.lang] || 0) + 1;
    voices[o.voice] = (voices[o.voice] || 0) + 1;
  });
  if (n !== spec.count) err(`${spec.file}: expected ${spec.count} lines, found ${n}`);
  const en = langs.en || 0;
  const others = Object.keys(langs).filter((l) => l !== 'en');
  if (n && (en / n < 0.55 || en / n > 0.65)) err(`${spec.file}: English share ${(100 * en / n).toFixed(1)}% outside 55-65%`);
  if (others.length < 20) err(`${spec.file}: only ${others.length} non-English languages (need >= 20)`);
  summary[spec.file] = { lines: n, english: en, nonEnglish: n - en, languages: Object.keys(langs).length, voices: Object.keys(voices).length, ...(spec.cls === 'p1' ? { where: wheres } : {}) };
  summary[spec.file].langs = Object.fromEntries(Object.entries(langs).sort((a, b) => b[1] - a[1]));
}

console.log(JSON.stringify(summary, null, 1));
for (const w of warn) console.log('WARN ' + w);
if (errors.length) {
  for (const e of errors.slice(0, 200)) console.error('ERROR ' + e);
  console.error(`FAIL: ${errors.length} error(s)`);
  process.exit(1);
}
console.log('OK: all checks passed');
