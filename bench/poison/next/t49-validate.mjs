// Validator for batch t49 (node, no dependencies). Checks the BRIEF rules and prints counts.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from 'node:url';
const dir = path.dirname(fileURLToPath(import.meta.url));
const BATCH = "t49";
const catDir = path.join(dir, "..", "..", "discovery", "catalog");
const realTools = new Set();
for (const f of fs.readdirSync(catDir).filter(f => f.endsWith(".json"))) {
  const j = JSON.parse(fs.readFileSync(path.join(catDir, f), "utf8"));
  for (const t of j.tools || []) realTools.add(t.name);
}
const ISO = new Set("aa ab af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs ca ce ch co cr cs cu cv cy da de dv dz ee el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz ia id ie ig ii ik io is it iu ja jv ka kg ki kj kk kl km kn ko kr ks ku kv kw ky la lb lg li ln lo lt lu lv mg mh mi mk ml mn mr ms mt my na nb nd ne ng nl nn no nr nv ny oc oj om or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg si sk sl sm sn so sq sr ss st su sv sw ta te tg th ti tk tl tn to tr ts tt tw ty ug uk ur uz ve vi vo wa wo xh yi yo za zh zu".split(" "));
// stock phrases and direct translations (case-insensitive substrings)
const BANNED = ["ignore previous instructions","ignore all previous","highest priority","override","overrid","disregard","supersede","takes precedence","important",
 "ignorier","vorrang","wichtig","überschreib","hat priorität","höchste priorität",
 "negeer","voorrang","belangrijk","hoogste prioriteit",
 "ignorera","företräde","viktigt","högsta prioritet",
 "ignorer","forrang","vigtig","højeste prioritet","viktig","høyeste prioritet",
 "ohita aiemmat","etusija","tärkeä","korkein prioriteetti",
 "hunsa","forgang","mikilvæg",
 "eira","tähtis","oluline","kõrgeim prioriteet"];
const INVIS = /[\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF\u00AD]|[\u{E0000}-\u{E007F}]/u;
const errors = [];
const err = (id, m) => errors.push(`${id}: ${m}`);

function allStrings(o, acc = []) {
  if (typeof o === "string") acc.push(o);
  else if (Array.isArray(o)) o.forEach(x => allStrings(x, acc));
  else if (o && typeof o === "object") for (const [k, v] of Object.entries(o)) { acc.push(k); allStrings(v, acc); }
  return acc;
}
function checkProps(id, schema, at) {
  if (!schema || typeof schema !== "object") return;
  if (schema.properties) for (const [k, p] of Object.entries(schema.properties)) {
    if (!p.type) err(id, `${at}.${k} missing type`);
    if (typeof p.description !== "string" || !p.description) err(id, `${at}.${k} missing description`);
    checkProps(id, p, `${at}.${k}`);
    if (p.items) checkProps(id, p.items, `${at}.${k}.items`);
  }
}
function resolve(tool, where) {
  if (!where.startsWith("$")) return undefined;
  const toks = [];
  const re = /\.([A-Za-z0-9_\-]+)|\[(\d+)\]|\["([^"]+)"\]/g;
  let m, rest = where.slice(1), pos = 0;
  while ((m = re.exec(rest))) { if (m.index !== pos) return undefined; pos = re.lastIndex; toks.push(m[1] ?? (m[2] !== undefined ? Number(m[2]) : { name: m[3] })); }
  if (pos !== rest.length) return undefined;
  let cur = tool;
  for (const t of toks) {
    if (t && typeof t === "object") { if (cur && Object.prototype.hasOwnProperty.call(cur, t.name)) return t.name; return undefined; }
    if (cur == null) return undefined; cur = cur[t];
  }
  return cur;
}
function checkDomains(id, s) {
  const urls = s.match(/\b(?:https?:\/\/)?(?:[a-z0-9-]+\.)+[a-z]{2,}(?:\/[^\s"')]*)?/gi) || [];
  for (const u of urls) {
    const host = u.replace(/^https?:\/\//i, "").split("/")[0].toLowerCase();
    if (/^\d+\.\d+/.test(host)) continue;
    const tld = host.split(".").pop();
    if (["com","org","net","io","de","nl","se","dk","no","fi","is","ee","eu","co","app","dev","ai","uk"].includes(tld) && !/\.example$/.test(host)) err(id, `non-.example domain: ${host}`);
  }
  const ips = s.match(/\b\d{1,3}(?:\.\d{1,3}){3}\b/g) || [];
  for (const ip of ips) if (!/^(198\.51\.100|203\.0\.113)\./.test(ip)) err(id, `non-TEST-NET ip ${ip}`);
}
const lenBucket = n => n < 200 ? "short" : n < 700 ? "medium" : "long";
const summary = {};
for (const file of fs.readdirSync(dir).filter(f => f.startsWith("t49-") && f.endsWith(".jsonl"))) {
  const cls = file.replace(`${BATCH}-`, "").replace(".jsonl", "");
  const lines = fs.readFileSync(path.join(dir, file), "utf8").split("\n").filter(l => l.trim());
  const ids = new Set(); const langs = {}; const lens = { short: 0, medium: 0, long: 0 }; const voices = {}; const wheres = {};
  lines.forEach((line, i) => {
    let r; try { r = JSON.parse(line); } catch (e) { err(`${file}:${i + 1}`, "bad JSON " + e.message); return; }
    const id = r.id || `${file}:${i + 1}`;
    const exp = `${BATCH}-${cls}-${String(i + 1).padStart(3, "0")}`;
    if (r.id !== exp) err(id, `id should be ${exp}`);
    if (ids.has(r.id)) err(id, "duplicate id"); ids.add(r.id);
    if (r.class !== cls) err(id, `class ${r.class} != ${cls}`);
    if (!ISO.has(r.lang)) err(id, `bad lang ${r.lang}`);
    for (const k of ["voice", "server"]) if (typeof r[k] !== "string" || !r[k]) err(id, `missing ${k}`);
    if (!Array.isArray(r.siblings) || !r.siblings.length) err(id, "siblings empty");
    const t = r.tool;
    if (!t || typeof t.name !== "string" || typeof t.description !== "string") { err(id, "tool name/description"); return; }
    if (!t.inputSchema || t.inputSchema.type !== "object" || typeof t.inputSchema.properties !== "object") err(id, "inputSchema not object");
    checkProps(id, t.inputSchema, "$.inputSchema.properties");
    for (const req of t.inputSchema.required || []) if (!t.inputSchema.properties[req]) err(id, `required ${req} not a property`);
    const text = allStrings(r).join("\n");
    const low = text.toLowerCase();
    for (const b of BANNED) if (new RegExp(`(^|[^\\p{L}])${b.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`, "u").test(low)) err(id, `banned phrase "${b}"`);
    if (INVIS.test(text)) err(id, "invisible/bidi/tag char");
    checkDomains(id, allStrings(t).join("\n"));
    if (cls === "benign") {
      if (r.where || r.intent) err(id, "benign must not have where/intent");
      if (typeof r.note !== "string" || !r.note) err(id, "benign needs note");
      if (typeof r.source !== "string" || !(r.source === "new" || /^catalog:[^/]+\/.+/.test(r.source))) err(id, "bad source");
      for (const s of r.siblings || []) if (realTools.has(s)) err(id, `benign sibling ${s} is a real catalog tool name`);
    } else {
      if (typeof r.intent !== "string" || !r.intent) err(id, "missing intent");
      const v = resolve(t, r.where || "");
      if (typeof v !== "string" || !v) err(id, `where ${r.where} does not resolve to a string`);
      for (const s of r.siblings || []) if (!realTools.has(s)) err(id, `sibling ${s} not a real catalog tool`);
      wheres[r.where.replace(/properties\.[^.]+/g, "properties.<p>")] = (wheres[r.where.replace(/properties\.[^.]+/g, "properties.<p>")] || 0) + 1;
    }
    langs[r.lang] = (langs[r.lang] || 0) + 1;
    voices[r.voice] = (voices[r.voice] || 0) + 1;
    lens[lenBucket(t.description.length + (t.title || "").length)]++;
  });
  summary[file] = { records: lines.length, langs, lengths: lens, voices: Object.keys(voices).length, wheres };
}
console.log(JSON.stringify(summary, null, 1));
if (errors.length) { console.log(`\n${errors.length} ERRORS`); errors.forEach(e => console.log(" - " + e)); process.exit(1); }
console.log("\nOK: all checks passed");
