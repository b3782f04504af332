// The poison classifier: a learned second opinion on one model-visible string of a tool. The rules
// decide; a score above POISON_THRESHOLD may only raise a rule's flag to a block. Logistic
// regression over classifier-features.ts, weights trained by scripts/train-classifier.ts and built
// in as JSON: nothing is read or downloaded at run time. A text scores its highest window (one or
// two sentences), so a poisoned sentence inside long documentation is not diluted by it.
import file from './classifier-weights.json' with { type: 'json' };
import {
  BUCKETS,
  extractFeatures,
  FEATURE_VERSION,
  N_DENSE,
  newFeatures,
  windowCount,
  windowEnd,
  windowFeatures,
  windowStart,
} from './classifier-features.js';

interface WeightsFile {
  featureVersion: number;
  buckets: number;
  trainedAt: string;
  threshold: number;
  bias: number;
  dense: number[];
  /** Non-zero buckets as gaps from the previous one, and their weights. */
  gaps: number[];
  weights: number[];
}

interface Loaded {
  w: Float64Array;
  wd: Float64Array;
  bias: number;
  threshold: number;
  trainedAt: string;
}

/** Exported for the tests: turns the stored file into the scorer's arrays, refusing a mismatched one. */
export function loadWeights(f: WeightsFile): Loaded {
  if (f.featureVersion !== FEATURE_VERSION || f.buckets !== BUCKETS || f.dense.length !== N_DENSE || f.gaps.length !== f.weights.length) {
    throw new Error(
      `classifier weights are for feature version ${f.featureVersion} (${f.buckets} buckets), this build reads ${FEATURE_VERSION} (${BUCKETS}): run scripts/train-classifier.ts`,
    );
  }
  const w = new Float64Array(BUCKETS);
  let b = 0;
  for (let i = 0; i < f.gaps.length; i++) {
    b += f.gaps[i]!;
    if (b >= BUCKETS) throw new Error(`classifier weights: bucket ${b} out of range`);
    w[b] = f.weights[i]!;
  }
  return { w, wd: Float64Array.from(f.dense), bias: f.bias, threshold: f.threshold, trainedAt: f.trainedAt };
}

const MODEL = loadWeights(file satisfies WeightsFile);
// Local copies of the imports the hot loop uses (under a transpiler they can be getters).
const ND = N_DENSE;
const extract = extractFeatures;
const count = windowCount;
const startOf = windowStart;
const endOf = windowEnd;
const denseOf = windowFeatures;

/** Above this, a string is poison with no real catalog tool of the validation split scoring as high. */
export const POISON_THRESHOLD: number = MODEL.threshold;
export const CLASSIFIER_TRAINED_AT: string = MODEL.trainedAt;

// Reused between calls: scoring allocates nothing but the normalized copies of the text.
const F = newFeatures();
const DENSE = new Float64Array(N_DENSE);
let sums = new Float64Array(64);

/** Probability (0..1) that `text`, one string a tool shows the model, carries an instruction to it. */
export function poisonScore(text: string): number {
  return 1 / (1 + Math.exp(-poisonLogit(text)));
}

function poisonLogit(text: string): number {
  extract(text, F);
  const { w, wd, bias } = MODEL;
  if (sums.length < F.nSent) sums = new Float64Array(F.nSent * 2);
  // Each sentence's hashed sum once; a window adds up its sentences'.
  for (let s = 0; s < F.nSent; s++) {
    let sum = 0;
    for (let i = F.sentStart[s]!, end = F.sentStart[s + 1]!; i < end; i++) {
      const b = F.hashed[i]!;
      sum += b >= 0 ? w[b]! : -w[~b]!;
    }
    sums[s] = sum;
  }
  let best = -Infinity;
  for (let k = 0, n = count(F); k < n; k++) {
    const scale = denseOf(F, k, DENSE);
    let sum = 0;
    for (let s = startOf(F, k), end = endOf(F, k); s < end; s++) sum += sums[s]!;
    let z = bias + sum * scale;
    for (let j = 0; j < ND; j++) z += wd[j]! * DENSE[j]!;
    if (z > best) best = z;
  }
  return best;
}
