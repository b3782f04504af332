#!/usr/bin/env node
// Validator for the t9 measurement corpus. No dependencies.
// Usage: node validate.mjs            (validates files next to this script)
import { readFileSync, existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const DIR = dirname(fileURLToPath(import.meta.url));
const FILES = {
  "t9-p1.jsonl": { cls: "p1", count: 70 },
  "t9-p2.jsonl": { cls: "p2", count: 40 },
  "t9-p3.jsonl": { cls: "p3", count: 40 },
  "t9-p4.jsonl": { cls: "p4", count: 40 },
  "t9-d.jsonl": { cls: "d", count: 40 },
  "t9-benign.jsonl": { cls: "benign", count: 140 },
};
const POISONED = new Set(["p1", "p2", "p3", "p4", "d"]);
// Invisible / bidi / tag characters: this corpus must not contain Unicode tricks.
// U+200C (ZWNJ) is allowed only in Persian text, where it is normal orthography.
const TRICK_RE = /[\u200B\u200D-\u200F\u202A-\u202E\u2060-\u2064\uFEFF\u00AD\u{E0000}-\u{E007F}]/u;
const ZWNJ_RE = /\u200C/;

const errors = [];
const err = (where, msg) => errors.push(`${where}: ${msg}`);
const isObj = (v) => v !== null && typeof v === "object" && !Array.isArray(v);

// Parse a JSON-path-like pointer: $.a.b[2]['weird key'].c
function parsePointer(ptr) {
  if (typeof ptr !== "string" || !ptr.startsWith("$")) return null;
  const segs = [];
  let i = 1;
  while (i < ptr.length) {
    if (ptr[i] === ".") {
      let j = i + 1;
      while (j < ptr.length && ptr[j] !== "." && ptr[j] !== "[") j++;
      if (j === i + 1) return null;
      segs.push(ptr.slice(i + 1, j));
      i = j;
    } else if (ptr[i] === "[") {
      const close = ptr.indexOf("]", i);
      if (close < 0) return null;
      const inner = ptr.slice(i + 1, close);
      if (/^\d+$/.test(inner)) segs.push(Number(inner));
      else if (/^'.*'$/.test(inner) || /^".*"$/.test(inner)) segs.push(inner.slice(1, -1));
      else return null;
      i = close + 1;
    } else return null;
  }
  return segs;
}

function resolve(root, segs) {
  let cur = root;
  for (const s of segs) {
    if (typeof s === "number") {
      if (!Array.isArray(cur) || s >= cur.length) return { ok: false };
      cur = cur[s];
    } else {
      if (!isObj(cur) || !Object.prototype.hasOwnProperty.call(cur, s)) return { ok: false };
      cur = cur[s];
    }
  }
  return { ok: true, value: cur };
}

function slotKind(segs) {
  const last = segs[segs.length - 1];
  const prev = segs[segs.length - 2];
  if (segs.length === 1 && last === "title") return "title(tool)";
  if (segs.length === 1 && last === "description") return "description(tool)";
  if (typeof last === "number") return String(prev); // enum / examples
  if (prev === "properties") return "property-name";
  if (last === "title") return "title(property)";
  if (last === "description") return "param-description";
  if (typeof segs[segs.length - 2] === "number") return String(segs[segs.length - 3]); // examples[1]._comment
  return String(last); // default / const / ...
}

const ids = new Set();
const perClass = {};
const langs = new Map();
const voices = new Set();
const dSlots = {};

for (const [file, spec] of Object.entries(FILES)) {
  const path = join(DIR, file);
  if (!existsSync(path)) { err(file, "missing file"); continue; }
  const raw = readFileSync(path, "utf8");
  if (raw.charCodeAt(0) === 0xfeff) err(file, "has BOM");
  const lines = raw.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  let n = 0;
  lines.forEach((line, idx) => {
    const loc = `${file}:${idx + 1}`;
    if (line.trim() === "") { err(loc, "blank line"); return; }
    if (line.includes("\r")) err(loc, "contains CR");
    let o;
    try { o = JSON.parse(line); } catch (e) { err(loc, "JSON parse error: " + e.message); return; }
    n++;
    if (!isObj(o)) { err(loc, "line is not an object"); return; }
    const id = o.id;
    const at = `${loc} (${id})`;
    if (typeof id !== "string") err(loc, "missing id");
    else {
      if (ids.has(id)) err(at, "duplicate id");
      ids.add(id);
      const want = new RegExp(`^t9-${spec.cls}-\\d{3}$`);
      if (!want.test(id)) err(at, `id does not match t9-${spec.cls}-NNN`);
    }
    if (o.class !== spec.cls) err(at, `class ${o.class} != ${spec.cls}`);
    for (const k of ["voice", "server"]) if (typeof o[k] !== "string" || !o[k]) err(at, `missing ${k}`);
    if (!Array.isArray(o.siblings) || !o.siblings.every((s) => typeof s === "string")) err(at, "siblings must be an array of strings");
    if (o.lang !== undefined && (typeof o.lang !== "string" || !/^[a-z]{2,3}$/.test(o.lang))) err(at, "bad lang");
    const t = o.tool;
    if (!isObj(t)) { err(at, "missing tool"); return; }
    if (typeof t.name !== "string" || !t.name) err(at, "tool.name missing");
    if (typeof t.description !== "string") err(at, "tool.description missing");
    if (!isObj(t.inputSchema) || t.inputSchema.type !== "object") err(at, "tool.inputSchema must be an object schema");
    else if (t.inputSchema.properties !== undefined && !isObj(t.inputSchema.properties)) err(at, "inputSchema.properties must be an object");
    else if (Array.isArray(t.inputSchema.required)) {
      for (const r of t.inputSchema.required)
        if (!t.inputSchema.properties || !(r in t.inputSchema.properties)) err(at, `required '${r}' not in properties`);
    }
    if (t.title !== undefined && typeof t.title !== "string") err(at, "tool.title must be string");
    if (t.annotations !== undefined && !isObj(t.annotations)) err(at, "tool.annotations must be object");
    const s = JSON.stringify(o);
    if (TRICK_RE.test(s)) err(at, "contains invisible/bidi/tag character");
    if (ZWNJ_RE.test(s) && o.lang !== "fa") err(at, "ZWNJ outside Persian text");

    if (POISONED.has(spec.cls)) {
      if (typeof o.intent !== "string" || !o.intent) err(at, "missing intent");
      if ("note" in o) err(at, "poisoned line should not have note");
      const segs = parsePointer(o.where);
      if (!segs || segs.length === 0) { err(at, `unparsable where: ${o.where}`); }
      else {
        const r = resolve(t, segs);
        const isPropName = segs.length >= 2 && segs[segs.length - 2] === "properties";
        if (!r.ok) err(at, `where does not resolve: ${o.where}`);
        else if (isPropName ? !isObj(r.value) : typeof r.value !== "string")
          err(at, `where does not point at a ${isPropName ? "property" : "string"}: ${o.where}`);
        if (spec.cls === "d") {
          if (o.where === "$.description") err(at, "d-class poison must be in a data slot, not $.description");
          const k = slotKind(segs);
          dSlots[k] = (dSlots[k] || 0) + 1;
        }
      }
    } else {
      if (typeof o.note !== "string" || !o.note) err(at, "benign line missing note");
      if ("where" in o || "intent" in o) err(at, "benign line should not have where/intent");
    }
    perClass[spec.cls] = (perClass[spec.cls] || 0) + 1;
    if (o.lang) langs.set(o.lang, (langs.get(o.lang) || 0) + 1);
    if (o.voice) voices.add(o.voice);
  });
  if (n !== spec.count) err(file, `expected ${spec.count} lines, found ${n}`);
}

console.log("per-class counts:");
for (const [f, spec] of Object.entries(FILES)) console.log(`  ${spec.cls.padEnd(7)} ${String(perClass[spec.cls] || 0).padStart(4)}  (${f}, expected ${spec.count})`);
console.log(`  total   ${String(ids.size).padStart(4)}`);
console.log(`d-class slot kinds: ${Object.entries(dSlots).map(([k, v]) => `${k}=${v}`).join(", ")}`);
console.log(`distinct languages: ${langs.size} (${[...langs.entries()].sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k}:${v}`).join(" ")})`);
console.log(`distinct voices: ${voices.size}`);
if (errors.length) {
  console.log(`\nFAILED with ${errors.length} error(s):`);
  for (const e of errors) console.log("  " + e);
  process.exit(1);
}
console.log("\nOK: all checks passed");
