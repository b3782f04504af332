// The learned second opinion (`learned-intent`): a linear model over the features of
// intent-features.ts, trained by scripts/train-intent.ts on the poison corpus against real tools'
// definitions and shipped as intent-model.json beside this file. Nothing downloads at run time.
// It judges only the fields the rules single out as candidates (naming the user, the model, the
// conversation, secrets or another server's tool, or prose in a data slot), and withholds only
// above a threshold at which no real tool it was calibrated on is withheld.
import fs from 'node:fs';
import { inflateRawSync } from 'node:zlib';
import { finding } from './findings.js';
import { candidateKind, claimOverUser, intentFeatures, type ClaimOverUser, intentFields, intentTokens, featureHash, namesOtherServersTool, type IntentField } from './intent-features.js';
import type { CatalogIndexLike, Finding } from './types.js';

/** intent-model.json as the training script writes it. */
export interface IntentModelFile {
  readonly format: 2;
  /** log2 of the number of feature buckets. */
  readonly bits: number;
  /** A weight is its int8 times this. */
  readonly scale: number;
  /** A data slot (default, enum member, example, title, property name) is withheld at or above this score. */
  readonly threshold: number;
  /** A description naming a party (the user, the model, secrets) or another server's tool needs this score. */
  readonly proseThreshold: number;
  /** The same for a parameter's description and for a title, when calibrated apart (else proseThreshold). */
  readonly parameterThreshold?: number;
  readonly titleThreshold?: number;
  /**
   * How far below its threshold (a negative number) a description, a parameter's description or a
   * title that claims something over the user (a rank; in a description, a move against their say)
   * is withheld; absent or 0 when calibration had too few legitimate fields that claim one to set it.
   */
  readonly claimGate?: number;
  /** Raw-deflated int8 weights, base64. */
  readonly weights: string;
  /** What it was trained and calibrated on (file digests, counts, seed), for the record. */
  readonly trained: Record<string, unknown>;
}

export interface IntentModel {
  readonly bits: number;
  readonly threshold: number;
  readonly proseThreshold: number;
  readonly parameterThreshold: number;
  readonly titleThreshold: number;
  /** IntentModelFile.claimGate, 0 when the file has none. */
  readonly claimGate: number;
  score(field: Pick<IntentField, 'kind' | 'text'>): number;
  /** The same score of features already read (`intentFeatures`): the training script calibrates on them. */
  scoreFeatures(features: ReadonlyMap<number, number>): number;
  /** Words of the field that pull hardest towards a verdict of poison, strongest first. */
  strongestWords(field: Pick<IntentField, 'text'>, count: number): string[];
}

export function modelFrom(file: IntentModelFile): IntentModel {
  if (file.format !== 2 || !Number.isInteger(file.bits) || file.bits < 8 || file.bits > 24) throw new Error('intent-model.json: unknown format');
  const raw = inflateRawSync(Buffer.from(file.weights, 'base64'));
  if (raw.length !== 1 << file.bits) throw new Error('intent-model.json: weights do not match its bits');
  const weights = new Int8Array(raw.buffer, raw.byteOffset, raw.length);
  const mask = (1 << file.bits) - 1;
  const { scale, bits, threshold, proseThreshold } = file;
  const scoreFeatures = (features: ReadonlyMap<number, number>): number => {
    let sum = 0;
    for (const [bucket, value] of features) sum += weights[bucket]! * value;
    return sum * scale;
  };
  return {
    bits,
    threshold,
    proseThreshold,
    parameterThreshold: file.parameterThreshold ?? proseThreshold,
    titleThreshold: file.titleThreshold ?? proseThreshold,
    claimGate: Math.min(0, file.claimGate ?? 0),
    score: (field) => scoreFeatures(intentFeatures(field, bits)),
    scoreFeatures,
    strongestWords(field, count) {
      const seen = new Map<string, number>();
      for (const w of intentTokens(field.text)) if (!seen.has(w)) seen.set(w, weights[featureHash(`w:${w}`) & mask]!);
      return [...seen].filter(([, v]) => v > 0).sort((a, b) => b[1] - a[1]).slice(0, count).map(([w]) => w);
    },
  };
}

const MODEL_FILE = new URL('./intent-model.json', import.meta.url);
let shipped: { model: IntentModel | null; problem?: string } | undefined;

/** A model file read: the model, or null and the one line that says why not. */
export function readModelFile(file: URL | string): { model: IntentModel | null; problem?: string } {
  try {
    return { model: modelFrom(JSON.parse(fs.readFileSync(file, 'utf8')) as IntentModelFile) };
  } catch (err) {
    return { model: null, problem: err instanceof Error ? err.message.split('\n')[0] : String(err) };
  }
}

/** The shipped model, read once; null (and the rules alone) when the file is missing or unreadable. */
export function shippedModel(): IntentModel | null {
  return (shipped ??= readModelFile(MODEL_FILE)).model;
}

/** Why the shipped model could not be read, for the daemon to say once at start; undefined when it was. */
export function shippedModelProblem(): string | undefined {
  return (shipped ??= readModelFile(MODEL_FILE)).problem;
}

export interface IntentContext {
  readonly server: string;
  /** Lower-case names of the server's own tools. */
  readonly own: ReadonlySet<string>;
  readonly index: CatalogIndexLike | undefined;
}

/** How a finding names the claim that held its field to the claim gate's bar. */
const CLAIM_REASON: Readonly<Record<ClaimOverUser, string>> = {
  rank: '; it claims a rank',
  move: "; it makes a move against the user's say",
  override: "; it sets the user's word aside",
};

/** The fields of a tool the model withholds, one finding each. */
export function intentFindings(tool: unknown, ctx: IntentContext, model: IntentModel | null = shippedModel()): Finding[] {
  if (model === null) return [];
  const out: Finding[] = [];
  for (const field of intentFields(tool)) {
    // A data slot is a candidate by where it sits; only prose needs the catalog asked about its names.
    const elsewhere = field.kind !== 'data' && field.kind !== 'pname' && namesOtherServersTool(field.raw, ctx.server, ctx.own, ctx.index);
    const kind = candidateKind(field, elsewhere);
    if (kind === undefined) continue;
    const threshold = kind === 'data' ? model.threshold : field.kind === 'pdesc' ? model.parameterThreshold : field.kind === 'title' ? model.titleThreshold : model.proseThreshold;
    const score = model.score(field);
    // A claim of priority over the user or the model's instructions is made of a rank, the user's
    // word set aside, or a move against the user's say: prose that makes one is held to a lower bar,
    // set where no legitimate field that makes one scored (claimGate).
    const claim = score < threshold && kind === 'prose' && score >= threshold + model.claimGate ? claimOverUser(field) : undefined;
    if (score < threshold && claim === undefined) continue;
    const bar = claim !== undefined ? threshold + model.claimGate : threshold;
    const words = model.strongestWords(field, 4);
    const c = { pointer: field.pointer, original: field.raw, forwarded: field.raw, toForwarded: (pos: number) => pos };
    const why = `${claim === undefined ? '' : CLAIM_REASON[claim]}${words.length > 0 ? `; strongest words: ${words.join(', ')}` : ''}`;
    out.push(finding(c, 'learned-intent', 'high', 'block', { start: 0, end: field.raw.length }, `reads as an instruction to the model (learned second opinion, score ${score.toFixed(2)} >= ${bar.toFixed(2)}${why})`));
  }
  return out;
}
