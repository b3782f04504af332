// The thresholds of the learned second opinion, set on legitimate text only (scripts/train-intent.ts
// reads that text): one per kind of candidate above the highest legitimate score of its kind, and a
// lower bar for prose that claims something over the user (a rank, their word set aside, a move
// against their say) where enough legitimate prose claims one to bound it.
import { modelFrom } from '../src/sanitize/intent-model.js';

/**
 * How far above the highest legitimate score of its kind each threshold sits. The weights shift a
 * little with every retraining; a threshold a hair above the calibration's highest field once let a
 * server nobody calibrated on, whose hundred tools share one parameter description, be withheld whole.
 * A field the model was trained on scores lower than one it never saw: calibrated on such scores, at
 * 0.15 a hundred fields of the real halves nobody trained or calibrated on came within 0.5 of their
 * bar (one parameter description a server's tools share); at 0.5 none did (TRAINED_MARGIN). Scored
 * out of fold (each real server by a model trained without it), the real fields read as unseen ones
 * do, and the margin only has to cover a retraining's shift (FOLD_MARGIN).
 */
export const TRAINED_MARGIN = 0.5;
export const FOLD_MARGIN = 0.15;
/**
 * The fewest legitimate prose fields (descriptions, parameter descriptions, titles) that claim a
 * rank, or make a move against the user's say in a description (intent-features.ts `claimOverUser`),
 * the calibration needs before it sets a lower bar for such prose (claimGate): the highest of a
 * few is no bound for the next server's.
 */
const CLAIM_SUPPORT = 30;

export interface Calibrated {
  threshold: number;
  proseThreshold: number;
  parameterThreshold: number;
  titleThreshold: number;
  claimGate: number;
  /** How many legitimate prose fields claim something over the user (a rank, or a move in a description). */
  claimSupport: number;
  highest: { data: number; prose: number; pdesc: number; title: number; claim: number };
  highestAt: { data: string; prose: string; pdesc: string; title: string; claim: string };
}

export type Slot = 'data' | 'prose' | 'pdesc' | 'title';
/** A legitimate candidate field: its slot, where it is, its features, and whether it claims something over the user (intent-features.ts `claimOverUser`). */
export interface LegitimateField {
  readonly slot: Slot;
  readonly at: string;
  readonly features: Map<number, number>;
  readonly claim: boolean;
  /** The fold of real servers it belongs to (scored out of fold), or undefined: never trained on. */
  readonly fold?: number;
}

/** A score of a field's features. */
export type Scorer = (features: ReadonlyMap<number, number>) => number;

/** A model's weights as the runtime scores them, without thresholds, so thresholds and verdicts never drift apart. */
export const scorerOf = (bits: number, scale: number, packed: string): Scorer =>
  modelFrom({ format: 2, bits, scale, threshold: Infinity, proseThreshold: Infinity, weights: packed, trained: {} }).scoreFeatures;

/** The thresholds set on legitimate fields only, given each field's score (`fieldScores[i]` is `legitimate[i]`'s). */
export function thresholdsOn(legitimate: readonly LegitimateField[], fieldScores: readonly number[], margin: number): Calibrated {
  const highest = { data: -Infinity, prose: -Infinity, pdesc: -Infinity, title: -Infinity, claim: -Infinity };
  const highestAt = { data: '', prose: '', pdesc: '', title: '', claim: '' };
  const scores = legitimate.map(({ slot, at }, i) => {
    const s = fieldScores[i]!;
    if (s > highest[slot]) [highest[slot], highestAt[slot]] = [s, at];
    return s;
  });
  // Never below even odds: a field the model thinks more likely genuine than not is never withheld,
  // however low the legitimate fields it was calibrated on happened to score.
  const above = (score: number): number => Math.max(0, Math.ceil((score + margin) * 100) / 100);
  // A kind no legitimate field was a candidate of is held to the tool description's threshold.
  const prose = above(highest.prose);
  const orProse = (score: number): number => (Number.isFinite(score) ? above(score) : prose);
  // A title is a parameter's kind of prose at most: few legitimate titles name the user, so the
  // highest of them is a thin bar (one server's hundred titles once all scored just above it).
  const parameter = orProse(highest.pdesc);
  const title = Math.max(parameter, orProse(highest.title));
  // Prose that claims something over the user: how near its own threshold the legitimate prose that does came.
  const bar = { prose, pdesc: parameter, title, data: Infinity };
  let claimed = 0;
  legitimate.forEach(({ slot, at, claim }, i) => {
    if (!claim || slot === 'data') return;
    claimed++;
    if (scores[i]! - bar[slot] > highest.claim) [highest.claim, highestAt.claim] = [scores[i]! - bar[slot], at];
  });
  const claimGate = claimed >= CLAIM_SUPPORT ? Math.min(0, Math.ceil((highest.claim + margin) * 100) / 100) : 0;
  return { threshold: above(highest.data), proseThreshold: prose, parameterThreshold: parameter, titleThreshold: title, claimGate, claimSupport: claimed, highest, highestAt };
}
