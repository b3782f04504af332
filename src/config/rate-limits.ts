// Rate limits in proxy.config.json's `limits`: token buckets per identity, per profile and per tool
// glob, optionally kept in Redis so several instances behind one balancer enforce one limit.
import { z } from 'zod';

/** A token bucket: `rate` requests per second refill it (0.5: one every two seconds), up to `burst`. */
export interface BucketConfig {
  readonly rate: number;
  readonly burst: number;
}

/** A tool glob's bucket: one per identity (default), or one for everyone together (`per: "all"`). */
export interface ToolBucketConfig extends BucketConfig {
  readonly per: 'identity' | 'all';
}

export interface RedisLimitsConfig {
  /** `redis://[user:password@]host:port[/db]` or `rediss://`; may hold `${VAR}`. */
  readonly url: string;
  /** Prefix of every key this proxy writes, so instances of one team share it and nothing else does. */
  readonly prefix: string;
  /** Redis unreachable or too slow: let requests through (`open`) or refuse them (`closed`). */
  readonly onError: 'open' | 'closed';
  /** Longest wait for Redis per request before `onError` applies, ms. */
  readonly timeoutMs: number;
}

export interface RateLimitsConfig {
  /** Each identity's bucket for every request it sends (ping excepted). */
  readonly identity?: BucketConfig;
  /** Per profile: the bucket of each identity of that profile, instead of `identity`. */
  readonly profiles: Readonly<Record<string, BucketConfig>>;
  /** Tool globs (the names clients see, `fs__write_*`) and their buckets, for tools/call. */
  readonly tools: Readonly<Record<string, ToolBucketConfig>>;
  readonly redis?: RedisLimitsConfig;
}

const RATE_ERROR = 'expected requests per second: a number above 0 and at most 1000000';
const BURST_ERROR = 'expected an integer between 1 and 1000000';
const bucketShape = {
  rate: z.number({ error: RATE_ERROR }).gt(0, { error: RATE_ERROR }).max(1_000_000, { error: RATE_ERROR }),
  burst: z.number({ error: BURST_ERROR }).int({ error: BURST_ERROR }).min(1, { error: BURST_ERROR }).max(1_000_000, { error: BURST_ERROR }).optional(),
};
const objectError = { error: 'expected an object' };
/** A strict object's error: a misspelt key (`brust`) is named, not ignored: a limit silently off is worse than a refused file. */
const strictError = {
  error: (issue: { code?: string; keys?: readonly string[] }) => (issue.code === 'unrecognized_keys' ? `unknown key ${(issue.keys ?? []).map((k) => JSON.stringify(k)).join(', ')}` : 'expected an object'),
};

/** Without `burst`, a bucket holds one second's worth of requests (at least one). */
function withBurst<T extends { rate: number; burst?: number | undefined }>(b: T): T & { burst: number } {
  return { ...b, burst: b.burst ?? Math.max(1, Math.ceil(b.rate)) };
}

export const bucketObject = z.strictObject(bucketShape, strictError).transform(withBurst);
export const toolBucketObject = z
  .strictObject({ ...bucketShape, per: z.enum(['identity', 'all'], { error: 'expected "identity" or "all"' }).default('identity') }, strictError)
  .transform(withBurst);
export const redisLimitsObject = z.strictObject(
  {
    url: z.string({ error: 'expected a redis:// or rediss:// URL' }).regex(/^(?:rediss?:\/\/|\$\{)/, { error: 'expected a redis:// or rediss:// URL' }),
    prefix: z.string({ error: 'expected a string' }).max(64, { error: 'expected at most 64 characters' }).default('switchboard:'),
    onError: z.enum(['open', 'closed'], { error: 'expected "open" or "closed"' }).default('open'),
    timeoutMs: z.number({ error: 'expected an integer between 10 and 60000' }).int().min(10).max(60_000).default(250),
  },
  strictError,
);

/** The fields `limits` gains; the rest of `limits` (sizes, timeouts) is in schema.ts. */
export const rateLimitFields = {
  identity: bucketObject.optional(),
  profiles: z.record(z.string(), bucketObject, objectError).default({}),
  tools: z.record(z.string().min(1, { error: 'expected a tool name or glob' }), toolBucketObject, objectError).default({}),
  redis: redisLimitsObject.optional(),
};

/** The rate-limit part of a loaded `limits`: what a reload may change without a restart. */
export function rateLimitsOf(limits: { identity?: BucketConfig | undefined; profiles: RateLimitsConfig['profiles']; tools: RateLimitsConfig['tools']; redis?: RedisLimitsConfig | undefined }): RateLimitsConfig {
  return {
    ...(limits.identity !== undefined ? { identity: limits.identity } : {}),
    profiles: limits.profiles,
    tools: limits.tools,
    ...(limits.redis !== undefined ? { redis: limits.redis } : {}),
  };
}

/** Keys of `limits` that belong to rate limiting (reloaded live). */
export const RATE_LIMIT_KEYS: ReadonlySet<string> = new Set(Object.keys(rateLimitFields));
