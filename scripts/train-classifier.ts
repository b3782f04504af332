// Trains the poison classifier: a small learned second opinion for the tool-definition sanitizer.
//
//   node --import tsx scripts/train-classifier.ts [--dry-run]
//
// What it is. Logistic regression (L2, mini-batch SGD, written here: no dependencies) over hashed
// word unigrams and bigrams and a few structural counts of one model-visible string of a tool (its
// description, title, a property name, a property description, default, enum member, example...).
// The features are src/sanitize/classifier-features.ts, the same module the scorer
// (src/sanitize/classifier.ts) uses, so training and scoring cannot read a text differently. The
// rules decide; the score may only raise a rule's flag to a block, so it is tuned for no false
// positives on real tools rather than for recall.
//
// Trains on:
// - poison (1): bench/poison/tune/*.jsonl lines whose class is not "benign", and POISON of
//   test/fixtures/poison-corpus/poison.mjs. One string per tool: the one at the line's `where`
//   path; a case without `where` (the seed lines, the fixtures) is one bag of all its strings
//   (see Windows below), so its enum member or property name can be the poison. The other
//   strings of a located case are benign examples.
// - benign (0): every model-visible string of the real tools of bench/discovery/catalog/*.json
//   (1,087 tools of 58 servers), the "benign" lines of bench/poison/tune/*.jsonl and BENIGN of
//   test/fixtures/poison-corpus/benign.mjs. Benign strings are deduplicated.
// bench/poison/heldout/ is never read: it measures the sanitizer and must stay unseen.
//
// Split (deterministic, by FNV-1a hash): catalog servers 2/3 train, 1/3 validation (a whole
// server on one side); tune and fixture cases by id, 80 % train, 20 % validation; a benign tune
// case copied from a catalog tool follows its server. The threshold is chosen on validation so
// that no real validation tool scores above it (a tool scores the maximum over its strings): the
// highest such score plus a margin. It reports poison recall (per tool, maximum over its strings)
// at that threshold and at the thresholds that would let 1 and 3 real validation tools through.
//
// Windows: a string is cut into sentences and scored per window (one sentence, or two consecutive
// ones); it scores its highest window. Every window of a benign string is a negative; a poisoned
// string is a bag whose highest-scoring window is the positive (multiple-instance learning), so a
// case without `where` can be one bag of all its strings' windows.
//
// Writes src/sanitize/classifier-weights.json (non-zero weights rounded to 4 decimals, the
// threshold, the feature version and the training date). Retrain after changing the features
// (bump FEATURE_VERSION) or the corpora: run the command above, check the summary, commit the
// JSON (about 140 KiB; 20 s on one core). `--dry-run` prints without writing; L2, EPOCHS, LR0
// and POS override the hyper-parameters below for experiments, DEBUG=1 also prints the highest
// real validation strings. Nothing is downloaded, at training or at run time: the scorer reads
// only the JSON it is built with.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  BUCKETS,
  DENSE_FEATURES,
  extractFeatures,
  FEATURE_VERSION,
  N_DENSE,
  newFeatures,
  tokenHash,
  windowCount,
  windowEnd,
  windowStart,
  windowFeatures,
} from '../src/sanitize/classifier-features.js';
import { slotsOf, type SlotClass } from '../src/sanitize/walk.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(ROOT, 'src/sanitize/classifier-weights.json');
const DRY_RUN = process.argv.includes('--dry-run');

// Hyper-parameters (chosen on the validation split; see the summary).
const envNum = (k: string, d: number): number => (process.env[k] !== undefined ? Number(process.env[k]) : d);
const L2 = envNum('L2', 3e-5);
const EPOCHS = envNum('EPOCHS', 40);
const BATCH = 16;
const LR0 = envNum('LR0', 0.5);
/** Share of the benign examples' total weight that the poison examples get. */
const POSITIVE_SHARE = envNum('POS', 0.5);
/** Epochs in which a poisoned text's windows share its weight, before the highest one takes it all. */
const WARMUP = 3;
/** Margin above the highest benign validation score, in logit units. */
const MARGIN = 0.25;

type Tool = { name: string; description?: string; [key: string]: unknown };
type Path = readonly (string | number)[];
interface Unit {
  text: string;
  path: Path;
  cls: SlotClass;
}
interface Case {
  id: string;
  server: string;
  tool: Tool;
  where?: string;
  /** Real catalog server, for a benign case copied from the catalog. */
  catalogServer?: string;
}
interface RealTool {
  server: string;
  tool: Tool;
}

// ---- data ----

function readJsonl(file: string): Record<string, unknown>[] {
  return fs.readFileSync(file, 'utf8').split('\n').filter((l) => l.trim()).map((l, i) => {
    try {
      return JSON.parse(l) as Record<string, unknown>;
    } catch (err) {
      throw new Error(`${path.relative(ROOT, file)}:${i + 1}: ${(err as Error).message}`);
    }
  });
}

async function loadTune(): Promise<{ poison: Case[]; benign: Case[] }> {
  const poison: Case[] = [];
  const benign: Case[] = [];
  const dir = path.join(ROOT, 'bench/poison/tune');
  for (const f of fs.readdirSync(dir).filter((x) => x.endsWith('.jsonl')).sort()) {
    for (const raw of readJsonl(path.join(dir, f))) {
      const c: Case = { id: String(raw['id']), server: String(raw['server']), tool: raw['tool'] as Tool };
      if (typeof raw['where'] === 'string') c.where = raw['where'];
      const source = typeof raw['source'] === 'string' ? /^catalog:([^/]+)\//.exec(raw['source']) : null;
      if (source) c.catalogServer = source[1];
      (raw['class'] === 'benign' ? benign : poison).push(c);
    }
  }
  const fixtures = path.join(ROOT, 'test/fixtures/poison-corpus');
  const p = (await import(pathToFileURL(path.join(fixtures, 'poison.mjs')).href)) as { POISON: { id: string; tool: Tool }[] };
  const b = (await import(pathToFileURL(path.join(fixtures, 'benign.mjs')).href)) as { BENIGN: { id: string; tool: Tool }[] };
  for (const c of p.POISON) poison.push({ id: `fixture-${c.id}`, server: 'fixture', tool: c.tool });
  for (const c of b.BENIGN) benign.push({ id: `fixture-${c.id}`, server: 'fixture', tool: c.tool });
  return { poison, benign };
}

function loadCatalog(): RealTool[] {
  const dir = path.join(ROOT, 'bench/discovery/catalog');
  return fs.readdirSync(dir).filter((f) => f.endsWith('.json')).sort().flatMap((f) => {
    const raw = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as { server: string; tools: Tool[] };
    return raw.tools.map((tool) => ({ server: raw.server, tool }));
  });
}

/** Model-visible strings of a tool, as the sanitizer walks them (its name excepted: an identity, not prose). */
function unitsOf(tool: Tool): Unit[] {
  return slotsOf('tool', tool)
    .filter((s) => s.cls !== 'name' && s.value.trim() !== '')
    .map((s) => ({ text: s.value, path: s.path, cls: s.cls }));
}

/** `$.inputSchema.properties.mode.enum[3]`, `$.inputSchema.properties["a b"]` to path segments. */
function parseWhere(where: string): Path {
  const out: (string | number)[] = [];
  const re = /\.([^.[\]]+)|\[(\d+)\]|\["((?:[^"\\]|\\.)*)"\]/g;
  const rest = where.replace(/^\$/, '');
  let m: RegExpExecArray | null;
  let consumed = 0;
  while ((m = re.exec(rest)) !== null) {
    if (m.index !== consumed) throw new Error(`unparsable where: ${where}`);
    consumed = m.index + m[0].length;
    if (m[1] !== undefined) out.push(m[1]);
    else if (m[2] !== undefined) out.push(Number(m[2]));
    else out.push(JSON.parse(`"${m[3]}"`) as string);
  }
  if (consumed !== rest.length) throw new Error(`unparsable where: ${where}`);
  return out;
}

function valueAt(root: unknown, p: Path): unknown {
  let node = root;
  for (const seg of p) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string | number, unknown>)[seg];
  }
  return node;
}

const samePath = (a: Path, b: Path): boolean => a.length === b.length && a.every((x, i) => x === b[i]);

/** Index of the unit holding the poison, or -1 when the case does not say (or says something not walked). */
function locate(c: Case, units: Unit[]): number {
  if (c.where === undefined) return -1;
  const p = parseWhere(c.where);
  const value = valueAt(c.tool, p);
  const wantKey = typeof value !== 'string';
  const i = units.findIndex((u) => samePath(u.path, p) && (u.cls === 'key') === wantKey);
  if (i < 0) process.stderr.write(`train-classifier: ${c.id}: no walked string at ${c.where}\n`);
  return i;
}

const inValidation = (key: string, mod: number): boolean => tokenHash(key) % mod === 0;

// ---- vectors and the model ----

/** One window of a text: its hashed occurrences (signed), their weight, and its dense features. */
export interface Vec {
  idx: Int32Array;
  scale: number;
  dense: Float64Array;
}
const names = new Map<number, Map<string, number>>();
const fx = newFeatures();
/** A text's windows as the trainer sees them (exported for the test that scoring agrees). */
export function windowsOf(text: string, nameBuckets = false): Vec[] {
  extractFeatures(text, fx, nameBuckets ? (b, label) => {
    const m = names.get(b) ?? new Map<string, number>();
    m.set(label, (m.get(label) ?? 0) + 1);
    names.set(b, m);
  } : undefined);
  const out: Vec[] = [];
  for (let k = 0; k < windowCount(fx); k++) {
    const dense = new Float64Array(N_DENSE);
    const scale = windowFeatures(fx, k, dense);
    out.push({ idx: fx.hashed.slice(fx.sentStart[windowStart(fx, k)], fx.sentStart[windowEnd(fx, k)]), scale, dense });
  }
  return out;
}

/** The trainer's logit of one window (exported for the test that scoring agrees). */
export function windowLogit(w: Float64Array, wd: Float64Array, bias: number, v: Vec): number {
  let s = 0;
  for (let i = 0; i < v.idx.length; i++) {
    const b = v.idx[i]!;
    s += b >= 0 ? w[b]! : -w[~b]!;
  }
  let z = bias + s * v.scale;
  for (let j = 0; j < N_DENSE; j++) z += wd[j]! * v.dense[j]!;
  return z;
}

class Model {
  readonly w = new Float64Array(BUCKETS);
  readonly wd = new Float64Array(N_DENSE);
  b = 0;

  logit(v: Vec): number {
    return windowLogit(this.w, this.wd, this.b, v);
  }
  /** A text scores its highest window. */
  best(windows: Vec[]): { z: number; at: number } {
    let z = -Infinity;
    let at = 0;
    windows.forEach((v, i) => {
      const x = this.logit(v);
      if (x > z) [z, at] = [x, i];
    });
    return { z, at };
  }
  prob(text: string): number {
    return sigmoid(this.best(windowsOf(text)).z);
  }
}
const sigmoid = (z: number): number => 1 / (1 + Math.exp(-z));
const logit = (p: number): number => Math.log(p / (1 - p));

/** Deterministic shuffling (mulberry32). */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Example {
  v: Vec;
  y: 0 | 1;
  weight: number;
}

/**
 * Weighted log loss + L2 (not on the bias), mini-batch SGD with a decaying step. Every window of a
 * benign text is a negative; a poisoned text is a bag of windows of which at least one is poison
 * (multiple-instance learning): each epoch its highest-scoring window is the positive (in the first
 * epochs, every window shares the weight).
 */
function train(negatives: Vec[], bags: Vec[][]): Model {
  const m = new Model();
  const rand = prng(20261126);
  const gw = new Map<number, number>();
  const gd = new Float64Array(N_DENSE);
  const bagWeight = (POSITIVE_SHARE * negatives.length) / Math.max(1, bags.length);
  for (let epoch = 0; epoch < EPOCHS; epoch++) {
    const examples: Example[] = negatives.map((v) => ({ v, y: 0, weight: 1 }));
    for (const bag of bags) {
      if (epoch < WARMUP) for (const v of bag) examples.push({ v, y: 1, weight: bagWeight / bag.length });
      else examples.push({ v: bag[m.best(bag).at]!, y: 1, weight: bagWeight });
    }
    const totalWeight = examples.reduce((a, e) => a + e.weight, 0);
    for (let i = examples.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [examples[i], examples[j]] = [examples[j]!, examples[i]!];
    }
    const lr = LR0 / (1 + epoch / 8);
    const batches = Math.ceil(examples.length / BATCH);
    for (let start = 0; start < examples.length; start += BATCH) {
      gw.clear();
      gd.fill(0);
      let gb = 0;
      let batchWeight = 0;
      for (let k = start; k < Math.min(examples.length, start + BATCH); k++) {
        const e = examples[k]!;
        const g = (sigmoid(m.logit(e.v)) - e.y) * e.weight;
        batchWeight += e.weight;
        gb += g;
        for (let i = 0; i < e.v.idx.length; i++) {
          const b = e.v.idx[i]!;
          const [bucket, sign] = b >= 0 ? [b, 1] : [~b, -1];
          gw.set(bucket, (gw.get(bucket) ?? 0) + sign * g * e.v.scale);
        }
        for (let j = 0; j < N_DENSE; j++) gd[j]! += g * e.v.dense[j]!;
      }
      // Mean over the batch's weight, so the step does not depend on the class weights.
      const norm = lr / Math.max(1e-9, batchWeight);
      m.b -= norm * gb;
      for (const [b, g] of gw) m.w[b]! -= norm * g;
      for (let j = 0; j < N_DENSE; j++) m.wd[j]! -= norm * gd[j]!;
      // L2: this batch's share of one epoch's decay.
      const decay = 1 - lr * L2 * (batchWeight / totalWeight) * batches;
      for (let b = 0; b < BUCKETS; b++) m.w[b]! *= decay;
      for (let j = 0; j < N_DENSE; j++) m.wd[j]! *= decay;
    }
  }
  return m;
}

// ---- main ----

interface Scored {
  id: string;
  score: number;
  unitScore?: number;
}

async function main(): Promise<void> {
  const real = loadCatalog();
  const { poison, benign } = await loadTune();
  const realServers = [...new Set(real.map((r) => r.server))];
  const valServers = new Set(realServers.filter((s) => inValidation(s, 3)));
  const realTrain = real.filter((r) => !valServers.has(r.server));
  const realVal = real.filter((r) => valServers.has(r.server));
  // A case made from a catalog tool (benign copies, poisoned adaptations) follows its server's side.
  const realKeys = new Map(real.map((r) => [`${r.server}/${r.tool.name}`, r.server]));
  for (const c of [...poison, ...benign]) c.catalogServer ??= realKeys.get(`${c.server}/${c.tool.name}`);
  const isVal = (c: Case): boolean => (c.catalogServer !== undefined ? valServers.has(c.catalogServer) : inValidation(c.id, 5));
  const poisonTrain = poison.filter((c) => !isVal(c));
  const poisonVal = poison.filter(isVal);
  const benignTrain = benign.filter((c) => !isVal(c));
  const benignVal = benign.filter(isVal);

  // Benign strings: real training tools, benign training cases, and the other strings of located poison.
  const negTexts = new Set<string>();
  for (const r of realTrain) for (const u of unitsOf(r.tool)) negTexts.add(u.text);
  for (const c of benignTrain) for (const u of unitsOf(c.tool)) negTexts.add(u.text);
  const located: { c: Case; units: Unit[]; at: number }[] = poisonTrain.map((c) => {
    const units = unitsOf(c.tool);
    return { c, units, at: locate(c, units) };
  });
  for (const l of located) if (l.at >= 0) l.units.forEach((u, i) => i !== l.at && negTexts.add(u.text));
  for (const l of located) if (l.at >= 0) negTexts.delete(l.units[l.at]!.text);

  const negatives = [...negTexts].flatMap((t) => windowsOf(t, true));
  // A case that does not say where its poison is (the seed lines, the fixtures) is one bag of all its strings' windows.
  const bags = located.map((l) => (l.at >= 0 ? windowsOf(l.units[l.at]!.text, true) : l.units.flatMap((u) => windowsOf(u.text, true))));
  const unlocated = located.filter((l) => l.at < 0).length;
  const model = train(negatives, bags);

  // Validation: a tool scores the maximum over its strings.
  const toolScore = (t: Tool): number => Math.max(0, ...unitsOf(t).map((u) => model.prob(u.text)));
  const realScores: Scored[] = realVal.map((r) => ({ id: `${r.server}/${r.tool.name}`, score: toolScore(r.tool) }));
  realScores.sort((a, b) => b.score - a.score);
  const poisonScores: Scored[] = poisonVal.map((c) => {
    const units = unitsOf(c.tool);
    const at = locate(c, units);
    return { id: c.id, score: toolScore(c.tool), ...(at >= 0 ? { unitScore: model.prob(units[at]!.text) } : {}) };
  });
  const benignScores: Scored[] = benignVal.map((c) => ({ id: c.id, score: toolScore(c.tool) }));

  const top = realScores[0]?.score ?? 0;
  const threshold = sigmoid(logit(Math.min(top, 1 - 1e-9)) + MARGIN);
  const recallAt = (t: number): string => {
    const caught = poisonScores.filter((p) => p.score > t).length;
    return `${caught}/${poisonScores.length} (${((100 * caught) / Math.max(1, poisonScores.length)).toFixed(1)} %)`;
  };
  const unitRecallAt = (t: number): string => {
    const withUnit = poisonScores.filter((p) => p.unitScore !== undefined);
    const caught = withUnit.filter((p) => p.unitScore! > t).length;
    return `${caught}/${withUnit.length}`;
  };
  const fpAt = (t: number, list: Scored[]): number => list.filter((s) => s.score > t).length;

  const lines: string[] = [];
  lines.push(`features v${FEATURE_VERSION}, ${BUCKETS} buckets + ${N_DENSE} dense; L2 ${L2}, ${EPOCHS} epochs, batch ${BATCH}`);
  lines.push(`catalog: ${realTrain.length} train tools (${realServers.length - valServers.size} servers), ${realVal.length} validation tools (${valServers.size} servers: ${[...valServers].sort().join(', ')})`);
  lines.push(`tune/fixture poison: ${poisonTrain.length} train (${unlocated} without a location: one bag of all their strings), ${poisonVal.length} validation`);
  lines.push(`tune/fixture benign: ${benignTrain.length} train, ${benignVal.length} validation`);
  lines.push(`training: ${negTexts.size} benign strings (${negatives.length} windows), ${bags.length} poison bags (${bags.reduce((a, b) => a + b.length, 0)} windows)`);
  lines.push('');
  lines.push(`highest real validation tool: ${top.toFixed(4)} (${realScores[0]?.id ?? '-'}); threshold ${threshold.toFixed(4)}`);
  lines.push(`poison recall at threshold (0 real FP): ${recallAt(threshold)}; located string alone: ${unitRecallAt(threshold)}; benign tune cases above: ${fpAt(threshold, benignScores)}/${benignScores.length}`);
  for (const k of [1, 3]) {
    const t = realScores[k]?.score ?? 0;
    lines.push(`poison recall at ${k} real FP (threshold ${t.toFixed(4)}): ${recallAt(t)}; benign tune cases above: ${fpAt(t, benignScores)}/${benignScores.length}`);
  }
  if (process.env['DEBUG']) {
    const units = realVal.flatMap((r) => unitsOf(r.tool).map((u) => ({ id: `${r.server}/${r.tool.name}`, p: model.prob(u.text), t: u.text })));
    units.sort((a, b) => b.p - a.p);
    for (const u of units.slice(0, 12)) lines.push(`  REAL ${u.p.toFixed(4)} ${u.id}: ${JSON.stringify(u.t.slice(0, 160))}`);
    const ps = [...poisonScores].sort((a, b) => b.score - a.score);
    lines.push(`  poison scores: ${ps.map((p) => p.score.toFixed(3)).join(' ')}`);
  }
  const trainScores: Scored[] = realTrain.map((r) => ({ id: `${r.server}/${r.tool.name}`, score: toolScore(r.tool) }));
  trainScores.sort((a, b) => b.score - a.score);
  const overTrain = trainScores.filter((s) => s.score > threshold);
  lines.push(`real training tools above threshold: ${overTrain.length}/${trainScores.length}${overTrain.length ? ` (${overTrain.map((s) => `${s.id} ${s.score.toFixed(3)}`).join(', ')})` : ''}`);
  const wholeTop = Math.max(top, trainScores[0]?.score ?? 0);
  const wholeThreshold = sigmoid(logit(Math.min(wholeTop, 1 - 1e-9)) + MARGIN);
  lines.push(`(for comparison, a threshold above every real tool, train and validation, ${wholeThreshold.toFixed(4)}: poison recall ${recallAt(wholeThreshold)})`);
  lines.push(`top real validation tools: ${realScores.slice(0, 5).map((s) => `${s.id} ${s.score.toFixed(3)}`).join(', ')}`);
  const missed = poisonScores.filter((p) => p.score <= threshold).map((p) => p.id);
  lines.push(`validation poison missed at threshold: ${missed.join(', ')}`);
  lines.push(`benign tune validation cases above threshold: ${benignScores.filter((s) => s.score > threshold).map((s) => s.id).join(', ') || 'none'}`);

  // Top features: name each bucket by its most frequent n-gram.
  // A signed bucket's n-grams: those hashed to +b read its weight, those hashed to ~b its opposite.
  const label = (b: number, sign: number): string => {
    const m = names.get(sign > 0 ? b : ~b);
    if (!m) return `#${b}`;
    const sorted = [...m.entries()].sort((a, c) => c[1] - a[1]);
    return sorted.slice(0, 2).map(([n]) => JSON.stringify(n)).join('|');
  };
  const terms: { name: string; w: number }[] = [];
  for (let b = 0; b < BUCKETS; b++) {
    if (names.has(b)) terms.push({ name: label(b, 1), w: model.w[b]! });
    if (names.has(~b)) terms.push({ name: label(b, -1), w: -model.w[b]! });
  }
  terms.sort((a, b) => b.w - a.w);
  lines.push('', `top positive: ${terms.slice(0, 25).map((t) => `${t.name} ${t.w.toFixed(2)}`).join(', ')}`);
  lines.push(`top negative: ${terms.slice(-25).reverse().map((t) => `${t.name} ${t.w.toFixed(2)}`).join(', ')}`);
  lines.push(`dense: ${DENSE_FEATURES.map((n, j) => `${n} ${model.wd[j]!.toFixed(2)}`).join(', ')}; bias ${model.b.toFixed(2)}`);

  const round = (x: number): number => Math.round(x * 1e4) / 1e4;
  const idx: number[] = [];
  const w: number[] = [];
  for (let b = 0; b < BUCKETS; b++) {
    const r = round(model.w[b]!);
    if (r !== 0) {
      idx.push(b);
      w.push(r);
    }
  }
  const out = {
    featureVersion: FEATURE_VERSION,
    buckets: BUCKETS,
    trainedAt: new Date().toISOString().slice(0, 10),
    threshold: round(threshold),
    bias: round(model.b),
    dense: [...model.wd].map(round),
    // Buckets as gaps from the previous one: smaller than absolute indices.
    gaps: idx.map((b, i) => (i === 0 ? b : b - idx[i - 1]!)),
    weights: w,
  };
  const json = `${JSON.stringify(out)}\n`;
  lines.push('', `weights: ${idx.length} non-zero of ${BUCKETS}, ${(json.length / 1024).toFixed(1)} KiB${DRY_RUN ? ' (dry run, not written)' : ` -> ${path.relative(ROOT, OUT)}`}`);
  if (!DRY_RUN) fs.writeFileSync(OUT, json);
  process.stdout.write(`${lines.join('\n')}\n`);
}

// Trains only when run, not when the test imports windowsOf and windowLogit.
if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main().catch((err: unknown) => {
    process.stderr.write(`train-classifier: ${err instanceof Error ? err.stack ?? err.message : String(err)}\n`);
    process.exit(1);
  });
}
