// Which buckets a request takes from, and the answer when one is empty. Per identity (a token's
// name, an OAuth subject, or `anonymous` with auth off), with the identity's profile choosing its
// bucket size, and per tool glob (per identity, or one bucket for everyone). The config may change
// on a reload: buckets of the same name keep their level, a new Redis URL gets a new connection.
import { isDeepStrictEqual } from 'node:util';
import type { RateLimitsConfig, ToolBucketConfig } from '../config/rate-limits.js';
import type { Logger } from '../log.js';
import { compileGlob, type NameMatcher } from '../session/glob.js';
import { LocalBuckets, type BucketRef, type BucketStore, type Verdict } from './buckets.js';
import { RedisBuckets } from './redis-buckets.js';

interface ToolRule {
  readonly glob: string;
  readonly matches: NameMatcher;
  readonly bucket: ToolBucketConfig;
}

/** Requests refused, by limit label; read by /metrics. */
export type RefusalCounts = ReadonlyMap<string, number>;

export class RateLimiter {
  private config: RateLimitsConfig = { profiles: {}, tools: {} };
  private toolRules: readonly ToolRule[] = [];
  private store: BucketStore | undefined;
  private readonly refusals = new Map<string, number>();
  /** Anything to check at all: false keeps the request path to one branch when no limit is set. */
  active = false;

  constructor(
    config: RateLimitsConfig,
    private readonly log: Logger,
  ) {
    this.update(config);
  }

  /** Applies a (re)loaded config: new buckets take effect for the next request. */
  update(config: RateLimitsConfig): void {
    const previous = this.config;
    this.config = config;
    this.toolRules = Object.entries(config.tools).map(([glob, bucket]) => ({ glob, matches: compileGlob(glob), bucket }));
    this.active = config.identity !== undefined || Object.keys(config.profiles).length > 0 || this.toolRules.length > 0;
    const storeChanged = this.store === undefined || !isDeepStrictEqual(previous.redis, config.redis);
    if (!storeChanged) return;
    void this.store?.close();
    this.store = config.redis !== undefined ? new RedisBuckets(config.redis, this.log) : new LocalBuckets();
    if (config.redis !== undefined) this.log.info({ prefix: config.redis.prefix, onError: config.redis.onError }, 'rate limits shared through Redis');
  }

  /**
   * Takes a token for one request of `identity` (to `tool` for tools/call) from each bucket that
   * applies; undefined when the request may go on, else why not. A promise only with Redis.
   */
  take(identity: string, profile: string | undefined, tool: string | undefined): Verdict | Promise<Verdict> {
    const buckets: BucketRef[] = [];
    const own = (profile !== undefined ? this.config.profiles[profile] : undefined) ?? this.config.identity;
    if (own !== undefined) buckets.push({ key: `id:${identity}`, rate: own.rate, burst: own.burst, label: profile !== undefined && this.config.profiles[profile] !== undefined ? `profile ${profile}` : 'identity' });
    if (tool !== undefined) {
      for (const rule of this.toolRules) {
        if (!rule.matches(tool)) continue;
        const key = rule.bucket.per === 'all' ? `tool:${rule.glob}` : `tool:${rule.glob}:${identity}`;
        buckets.push({ key, rate: rule.bucket.rate, burst: rule.bucket.burst, label: `tool ${rule.glob}` });
      }
    }
    if (buckets.length === 0 || this.store === undefined) return undefined;
    const verdict = this.store.take(buckets);
    if (verdict === undefined) return undefined;
    if (verdict instanceof Promise) return verdict.then((v) => this.counted(v));
    return this.counted(verdict);
  }

  /** Buckets shared through Redis, and whether Redis answers now; undefined when they are this process's own. */
  get shared(): { readonly reachable: boolean } | undefined {
    return this.config.redis === undefined || this.store === undefined ? undefined : { reachable: this.store.reachable };
  }

  /** Refused requests per limit since start. */
  get refused(): RefusalCounts {
    return this.refusals;
  }

  close(): Promise<void> {
    return this.store?.close() ?? Promise.resolve();
  }

  private counted(verdict: Verdict): Verdict {
    if (verdict !== undefined) this.refusals.set(verdict.limit, (this.refusals.get(verdict.limit) ?? 0) + 1);
    return verdict;
  }
}
