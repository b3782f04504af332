// Token buckets kept in this process: the limit of one instance, or of every instance when there is
// only one. Several instances share theirs through Redis (redis-buckets.ts), with the same arithmetic.
import { LRUCache } from 'lru-cache';

/** One bucket a request takes a token from: its key, and how fast it refills and how much it holds. */
export interface BucketRef {
  readonly key: string;
  /** Tokens per second. */
  readonly rate: number;
  readonly burst: number;
  /** What the limit is called in errors, logs and metrics (`identity`, `tool fs__write_*`). */
  readonly label: string;
}

/** Why a request was refused, and when a retry would be let through. */
export interface Refusal {
  readonly limit: string;
  readonly retryAfterMs: number;
  /** The shared store could not be asked and the config says to refuse then (`onError: closed`). */
  readonly unavailable?: boolean;
}

export type Verdict = Refusal | undefined;

/** Where buckets live. `take` takes a token from every bucket when each has one, else from none. */
export interface BucketStore {
  take(buckets: readonly BucketRef[]): Verdict | Promise<Verdict>;
  /** The store can be asked now (always, for buckets in this process). */
  readonly reachable: boolean;
  close(): Promise<void>;
}

interface Level {
  tokens: number;
  at: number;
}

/** Buckets per process; the least recently used are forgotten beyond `maxKeys` (a forgotten bucket is full). */
export class LocalBuckets implements BucketStore {
  private readonly levels: LRUCache<string, Level>;

  readonly reachable = true;

  constructor(
    maxKeys = 100_000,
    private readonly now: () => number = Date.now,
  ) {
    this.levels = new LRUCache({ max: maxKeys });
  }

  take(buckets: readonly BucketRef[]): Verdict {
    const now = this.now();
    let refusal: Refusal | undefined;
    for (const b of buckets) {
      const level = this.levelOf(b, now);
      if (level.tokens >= 1) continue;
      // Less a hair, so float residue (0.998 + 0.002) never rounds a 1 ms wait up to 2.
      const wait = Math.max(1, Math.ceil(((1 - level.tokens) * 1000) / b.rate - 1e-6));
      if (refusal === undefined || wait > refusal.retryAfterMs) refusal = { limit: b.label, retryAfterMs: wait };
    }
    if (refusal !== undefined) return refusal;
    for (const b of buckets) this.levels.get(b.key)!.tokens -= 1;
    return undefined;
  }

  close(): Promise<void> {
    this.levels.clear();
    return Promise.resolve();
  }

  /** The bucket refilled up to now (a new one starts full). */
  private levelOf(b: BucketRef, now: number): Level {
    let level = this.levels.get(b.key);
    if (level === undefined) {
      level = { tokens: b.burst, at: now };
      this.levels.set(b.key, level);
      return level;
    }
    level.tokens = Math.min(b.burst, level.tokens + (Math.max(0, now - level.at) * b.rate) / 1000);
    level.at = now;
    return level;
  }
}
