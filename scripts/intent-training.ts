// What the sanitizer's learned second opinion is trained and calibrated on, and how
// (scripts/train-intent.ts is the command that writes, checks or cross-checks the model).
//
// Positives: the string each poisoned case of bench/poison/tune and bench/poison/next names in its
// `where` (the field that carries the attack). Negatives: every other string of those cases (the
// same writers' genuine prose, so the model cannot learn a writer's style instead of an intent),
// every string of their benign cases, and every string of the real tools of bench/discovery/catalog
// and of the even-numbered servers of the real collections below (weighted up). Logistic regression,
// AdaGrad, seeded: the same data gives the same file.
// Thresholds, one for data slots and one each for a tool's description, a parameter's description and a
// title, are set on legitimate text: above the highest score of any candidate field of the catalog's
// tools, of the even-numbered servers of bench/poison/real, real-fresh, real-more, real-extra,
// real-sixth and real-seventh (the odd-numbered ones and the held-out poison sets are only measured,
// by `npm run bench:poison`), and of the hand-written legitimate definitions and sentences of
// test/fixtures/poison-corpus.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { deflateRawSync } from 'node:zlib';
import { CatalogIndex } from '../src/sanitize/index.js';
import { candidateKind, claimOverUser, intentFeatures, intentFields, namesOtherServersTool, type IntentField } from '../src/sanitize/intent-features.js';
import type { CatalogIndexLike, NameOwner } from '../src/sanitize/types.js';
import { INDEX as TEST_INDEX } from '../test/unit/sanitize/helpers.js';
import { FOLD_MARGIN, TRAINED_MARGIN, scorerOf, thresholdsOn, type Calibrated, type LegitimateField, type Scorer } from './intent-calibration.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/**
 * 2^22 buckets and a light L2: chosen on left-out writers (--cross, 40 batches), never on the held-out
 * part. Words, word pairs and letter pieces of a hundred languages collide in fewer buckets: 2^18
 * withheld 41.3 % of left-out poisoned cases, 2^20 44.2 %, 2^22 46.2 %; with L2 1e-4 instead of 3e-4,
 * 45.8 % at 2^20 and 47.3 % at 2^22 (benign look-alikes 3.2-3.5 % throughout). Skip-grams (45.1 %)
 * and three- and five-letter pieces (43.9 %) were tried at 2^20 and not kept.
 */
export const BITS = 22;
export const EPOCHS = 20;
/** Earlier, 1e-3 held the weights of the sentence-level concept pairs down (3e-4 caught 29.6 % of left-out writers' cases, 1e-3 24.7 %); 1e-4 and 3e-5 now score alike (45.8 % and 45.7 % at 2^20). */
export const L2 = 1e-4;
const RATE = 0.5;
export const SEED = 7;
/**
 * Real tools teach the model what ordinary prose looks like, instructions to the model about a
 * tool's own use included (the weight makes up for having one string per field, not per case).
 */
export const REAL_WEIGHT = 3;

interface Tool {
  name: string;
  [key: string]: unknown;
}
export interface Case {
  id: string;
  class: string;
  server?: string;
  siblings?: string[];
  tool: Tool;
  where?: string;
}
interface RealServer {
  server: string;
  tools: Tool[];
}

export const digests: Record<string, string> = {};
function read(rel: string): string {
  const text = fs.readFileSync(path.join(ROOT, rel), 'utf8');
  digests[rel] = createHash('sha256').update(text).digest('hex').slice(0, 16);
  return text;
}
const jsonFiles = (dir: string, ext: string): string[] =>
  fs.readdirSync(path.join(ROOT, dir)).filter((f) => f.endsWith(ext) && f !== 'packages.json').sort().map((f) => `${dir}/${f}`);
const serversOf = (dir: string): RealServer[] => jsonFiles(dir, '.json').map((f) => JSON.parse(read(f)) as RealServer);

/** `$.inputSchema.properties["a b"].default` -> `/inputSchema/properties/a b/default`. */
function pointerOf(where: string): string {
  const parts: string[] = [];
  for (const m of where.replace(/^\$/, '').matchAll(/\.([^.[]+)|\[(\d+)\]|\["((?:[^"\\]|\\.)*)"\]/g)) parts.push(m[1] ?? m[2] ?? (JSON.parse(`"${m[3]!}"`) as string));
  return parts.map((p) => `/${p.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

interface Sample {
  keys: Uint32Array;
  vals: Float64Array;
  y: 0 | 1;
  weight: number;
}
const sampleOf = (features: Map<number, number>, y: 0 | 1, weight: number): Sample => ({ keys: Uint32Array.from(features.keys()), vals: Float64Array.from(features.values()), y, weight });

/**
 * A field's features, read once per kind and text: the real tools' fields are both trained on and
 * calibrated on, and many benign twins share their parameters' prose.
 */
const featureMemo = new Map<string, Map<number, number>>();
function featuresOf(field: Pick<IntentField, 'kind' | 'text'>): Map<number, number> {
  const key = `${field.kind}\0${field.text}`;
  let features = featureMemo.get(key);
  if (features === undefined) featureMemo.set(key, (features = intentFeatures(field, BITS)));
  return features;
}

export const realCatalog = serversOf('bench/discovery/catalog');
const realCollected = serversOf('bench/poison/real');
const catalogNames = realCatalog.map((r) => ({ server: r.server, tools: r.tools.map((t) => t.name) }));
const catalogIndex = new CatalogIndex(catalogNames);

/**
 * The catalog's index with one case's servers after it: owners as one index of them all would list
 * them, without indexing the 1,087 catalog tools again for every case.
 */
class WithCase implements CatalogIndexLike {
  constructor(
    private readonly base: CatalogIndexLike,
    private readonly extra: CatalogIndexLike,
  ) {}
  toolOwners(lowerName: string): readonly NameOwner[] {
    return joined(this.base.toolOwners(lowerName), this.extra.toolOwners(lowerName));
  }
  serverOwners(lowerName: string): readonly string[] {
    return joined(this.base.serverOwners(lowerName), this.extra.serverOwners(lowerName));
  }
  skeletonOwners(skeleton: string): readonly NameOwner[] {
    return joined(this.base.skeletonOwners(skeleton), this.extra.skeletonOwners(skeleton));
  }
  nearOwners(lowerName: string): readonly NameOwner[] {
    return joined(this.base.nearOwners(lowerName), this.extra.nearOwners(lowerName));
  }
}
const joined = <T>(a: readonly T[], b: readonly T[]): readonly T[] => (b.length === 0 ? a : a.length === 0 ? b : [...a, ...b]);

/** A case judged as bench:poison judges it: a poisoned case's siblings are another server's tools. */
export function caseContext(c: Case): { server: string; own: Set<string>; index: CatalogIndexLike } {
  const benign = c.class === 'benign';
  const server = benign ? (c.server ?? 'srv') : `case-${c.server ?? 'srv'}`;
  const own = new Set([c.tool.name, ...(benign ? (c.siblings ?? []) : [])].map((n) => n.toLowerCase()));
  const servers = [{ server, tools: [...own] }];
  if (!benign && (c.siblings ?? []).length > 0) servers.push({ server: 'elsewhere', tools: (c.siblings ?? []).filter((n) => n !== c.tool.name) });
  return { server, own, index: new WithCase(catalogIndex, new CatalogIndex(servers)) };
}

function fieldsWithRefs(tool: Tool, server: string, own: ReadonlySet<string>, index: CatalogIndexLike): { field: IntentField; elsewhere: boolean }[] {
  return intentFields(tool).map((field) => ({ field, elsewhere: namesOtherServersTool(field.raw, server, own, index) }));
}

/** The batch a corpus file belongs to (its writer): `t10-benign.jsonl` -> `t10`, `written.jsonl` -> `written`. */
const batchOf = (file: string): string => path.basename(file, '.jsonl').split('-')[0]!;
const corpusFiles = [...jsonFiles('bench/poison/tune', '.jsonl'), ...jsonFiles('bench/poison/next', '.jsonl')];
export const corpus: { batch: string; c: Case }[] = corpusFiles.flatMap((f) =>
  read(f).split('\n').filter((l) => l.trim() !== '').map((l) => ({ batch: batchOf(f), c: JSON.parse(l) as Case })),
);

// The even-numbered servers of each later collection (bench:poison's tune halves); the odd ones are only measured.
const realFresh = serversOf('bench/poison/real-fresh');
const realMore = serversOf('bench/poison/real-more');
const realExtra = serversOf('bench/poison/real-extra');
const realSixth = serversOf('bench/poison/real-sixth');
const realSeventh = serversOf('bench/poison/real-seventh');
/** The collections bench:poison splits by server: even-numbered servers trained and calibrated on, odd-numbered only counted. */
const collections = [realCollected, realFresh, realMore, realExtra, realSixth, realSeventh];
export const calibration = collections.flatMap((set) => set.filter((_, i) => i % 2 === 0));
/**
 * The strings of the odd-numbered servers' tools, which bench:poison only counts. Forks and copies of
 * one server land on both sides of the split (a fork's 29 tools byte for byte), and a string the model
 * was trained or calibrated on scores lower than one it never saw: such a string is neither, so the
 * counted halves stay a measure of text the model has not read.
 */
const countedStrings = new Set(
  collections.flatMap((set) => set.filter((_, i) => i % 2 === 1)).flatMap((r) => r.tools.flatMap((t) => intentFields(t).map((f) => `${f.kind}\0${f.text}`))),
);
const counted = (field: Pick<IntentField, 'kind' | 'text'>): boolean => countedStrings.has(`${field.kind}\0${field.text}`);
const everyReal = new CatalogIndex([...realCatalog, ...collections.flat()].map((r) => ({ server: r.server, tools: r.tools.map((t) => t.name) })));
/**
 * Real tools' fields, the same for every training run: the catalog's and those of the halves the
 * thresholds are set on. Trained on, the calibration halves taught the model more of what ordinary
 * prose looks like than they cost it in an optimistic bar: the never-seen halves (bench:poison's
 * counted halves) came no nearer to their thresholds than before (highest 0.64 below, where it had
 * been 0.30 above), and held-out priority claims rose 275 -> 307 of 421.
 */
const trainedReal = [...realCatalog, ...calibration];
/**
 * The real servers trained on fall in folds, by server, for out-of-fold calibration: each fold's
 * fields are scored by a model trained without that fold's servers (and without any string they
 * hold, for forks), so the thresholds are set on scores of text the scoring model never read.
 */
export const FOLDS = 4;
const foldOf = new Map(trainedReal.map((r, i) => [r, i % FOLDS]));
const realParts = trainedReal.map((r) => {
  const own = new Set(r.tools.map((t) => t.name.toLowerCase()));
  const fields = r.tools.flatMap((t) => fieldsWithRefs(t, r.server, own, catalogIndex).filter(({ field }) => !counted(field)).map(({ field }) => field));
  return { fold: foldOf.get(r)!, keys: fields.map((f) => `${f.kind}\0${f.text}`), samples: fields.map((f) => sampleOf(featuresOf(f), 0, REAL_WEIGHT)) };
});
const foldStrings = Array.from({ length: FOLDS }, (_, k) => new Set(realParts.filter((p) => p.fold === k).flatMap((p) => p.keys)));

/** The target field of a poisoned case, or undefined (benign, or an attack in a structure the rules judge). */
function targetOf(c: Case, fields: { field: IntentField }[]): string | undefined | null {
  const target = c.class !== 'benign' && c.where !== undefined ? pointerOf(c.where) : undefined;
  if (target !== undefined && !fields.some((f) => f.field.pointer === target)) return null;
  return target;
}

/** A case's fields as samples, read once (--cross trains on each case many times); null when unresolved. */
const caseSamples = new Map<Case, { samples: Sample[]; keys: string[] } | null>();
function samplesOfCase(c: Case): { samples: Sample[]; keys: string[] } | null {
  let out = caseSamples.get(c);
  if (out !== undefined) return out;
  const ctx = caseContext(c);
  const fields = fieldsWithRefs(c.tool, ctx.server, ctx.own, ctx.index);
  const target = targetOf(c, fields);
  // null: the attack sits in a structure rather than a string, left to the rules
  out = target === null ? null : { samples: fields.map(({ field }) => sampleOf(featuresOf(field), field.pointer === target ? 1 : 0, 1)), keys: fields.map(({ field }) => `${field.kind}\0${field.text}`) };
  caseSamples.set(c, out);
  return out;
}

/**
 * The cases' samples and the real tools', all but those of one fold of real servers when one is left
 * out, and every string that fold holds wherever else it occurs (a writer's benign case copied from a
 * real tool, a fork), so the fold's fields are text the model never read.
 */
export function samplesOf(cases: readonly Case[], leftOutFold?: number): { samples: Sample[]; positives: number; unresolved: number } {
  const samples: Sample[] = [];
  let positives = 0;
  let unresolved = 0;
  const leftOut = leftOutFold === undefined ? undefined : foldStrings[leftOutFold]!;
  for (const c of cases) {
    const own = samplesOfCase(c);
    if (own === null) unresolved++;
    else {
      own.samples.forEach((sample, i) => {
        if (leftOut?.has(own.keys[i]!)) return;
        samples.push(sample);
        positives += sample.y;
      });
    }
  }
  for (const part of realParts) {
    if (part.fold === leftOutFold) continue;
    part.samples.forEach((sample, i) => leftOut?.has(part.keys[i]!) || samples.push(sample));
  }
  return { samples, positives, unresolved };
}

/** Logistic regression by AdaGrad, seeded; the weights quantized to int8 and packed. */
export function train(samples: readonly Sample[], positives: number): { scale: number; packed: string } {
  // Balanced classes: the few poisoned fields weigh as much as the many genuine ones.
  const classWeight = [samples.length / (2 * (samples.length - positives)), samples.length / (2 * positives)] as const;
  const weights = new Float64Array(1 << BITS);
  const squares = new Float64Array(1 << BITS).fill(1e-8);
  let seed = SEED;
  const random = (): number => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const dot = (f: Sample): number => {
    let s = 0;
    for (let i = 0; i < f.keys.length; i++) s += weights[f.keys[i]!]! * f.vals[i]!;
    return s;
  };
  const order = samples.map((_, i) => i);
  for (let epoch = 0; epoch < EPOCHS; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    for (const i of order) {
      const s = samples[i]!;
      const err = (1 / (1 + Math.exp(-dot(s))) - s.y) * classWeight[s.y] * s.weight;
      for (let f = 0; f < s.keys.length; f++) {
        const k = s.keys[f]!;
        const v = s.vals[f]!;
        const g = err * v + L2 * weights[k]!;
        squares[k]! += g * g;
        weights[k]! -= (RATE / Math.sqrt(squares[k]!)) * g;
      }
    }
  }
  let largest = 0;
  for (const w of weights) largest = Math.max(largest, Math.abs(w));
  const scale = largest / 127;
  const quantized = new Int8Array(weights.length);
  for (let i = 0; i < weights.length; i++) quantized[i] = Math.round(weights[i]! / scale);
  return { scale, packed: deflateRawSync(Buffer.from(quantized.buffer), { level: 9 }).toString('base64') };
}

const fixture = async <T>(file: string): Promise<T> => {
  read(`test/fixtures/poison-corpus/${file}`);
  return (await import(pathToFileURL(path.join(ROOT, 'test/fixtures/poison-corpus', file)).href)) as T;
};
const { BENIGN } = await fixture<{ BENIGN: { id: string; siblings?: string[]; tool: Tool }[] }>('benign.mjs');
const { LEGIT, NEAR_MISSES } = await fixture<{ LEGIT: Record<string, string>; NEAR_MISSES: string[] }>('near-misses.mjs');

// Calibration, per kind of candidate: above the highest score of any real tool's field (the
// catalog's tools and the even-numbered servers of the six collections of bench/poison, strings the
// counted halves also hold aside) and of the hand-written legitimate definitions and sentences of
// test/fixtures/poison-corpus (never trained on: tools that talk about the user, secrets and other
// tools for good reasons, which real catalogs hold too few of). Trained on, the real fields score
// lower than those sentences, which set the bars of prose today.
/** The legitimate candidate fields, read once: their features with the slot and where they are. */
const legitimate: LegitimateField[] = [];
/** The legitimate candidate fields the thresholds are set on. */
export function legitimateFields(): readonly LegitimateField[] {
  if (legitimate.length === 0) readLegitimate();
  return legitimate;
}
/**
 * Thresholds for these weights, set on the legitimate fields. Given a scorer per fold (a model
 * trained without that fold of real servers), each real field is scored out of fold; else by these weights.
 */
export function calibrate(scale: number, packed: string, foldScorers?: readonly Scorer[]): Calibrated {
  const fields = legitimateFields();
  const full = scorerOf(BITS, scale, packed);
  const scores = fields.map((l) => (l.fold !== undefined && foldScorers ? foldScorers[l.fold]! : full)(l.features));
  return thresholdsOn(fields, scores, foldScorers ? FOLD_MARGIN : TRAINED_MARGIN);
}

function readLegitimate(): void {
  const calibrateOn = (id: string, tool: Tool, server: string, own: ReadonlySet<string>, index: CatalogIndexLike, fold?: number): void => {
    for (const { field, elsewhere } of fieldsWithRefs(tool, server, own, index)) {
      const kind = candidateKind(field, elsewhere);
      if (kind === undefined || counted(field)) continue;
      // A parameter's description and a title are calibrated apart from the tool's description.
      const slot = kind === 'prose' && (field.kind === 'pdesc' || field.kind === 'title') ? field.kind : kind;
      legitimate.push({ slot, at: `${id} ${field.pointer}`, features: featuresOf(field), claim: claimOverUser(field) !== undefined, ...(fold === undefined ? {} : { fold }) });
    }
  };
  for (const [servers, index] of [[realCatalog, catalogIndex], [calibration, everyReal]] as const) {
    for (const r of servers) {
      const own = new Set(r.tools.map((t) => t.name.toLowerCase()));
      for (const t of r.tools) calibrateOn(`${r.server}/${t.name}`, t, r.server, own, index, foldOf.get(r));
    }
  }
  for (const c of BENIGN) {
    const ctx = caseContext({ id: c.id, class: 'benign', server: 'srv', siblings: c.siblings ?? [], tool: c.tool });
    calibrateOn(c.id, c.tool, ctx.server, ctx.own, ctx.index);
  }
  // The sentences as the sanitizer's tests judge them: the calculator's `add`, among a mail, a shell
  // and a GitHub server, as its description and as a parameter's.
  const own = new Set(['add', 'multiply']);
  for (const [i, text] of [...Object.values(LEGIT), ...NEAR_MISSES].entries()) {
    calibrateOn(`sentence ${i}`, { name: 'add', description: text }, 'calc', own, TEST_INDEX);
    calibrateOn(`sentence ${i}`, { name: 'add', inputSchema: { type: 'object', properties: { q: { type: 'string', description: text } } } }, 'calc', own, TEST_INDEX);
  }
}
