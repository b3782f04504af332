// Token buckets: `rate` per second refills up to `burst`; a request takes one token from every
// bucket that applies (its identity's or its profile's, and each matching tool glob's) or from none.
import { describe, expect, it } from 'vitest';
import { LocalBuckets, type BucketRef } from '../../../src/limits/buckets.js';
import { RateLimiter } from '../../../src/limits/rate-limiter.js';
import type { RateLimitsConfig } from '../../../src/config/rate-limits.js';
import { silentLogger } from '../../../src/log.js';
import { resolveConfig } from '../../../src/config/load.js';

const bucket = (key: string, rate: number, burst: number): BucketRef => ({ key, rate, burst, label: key });

describe('local token buckets', () => {
  it('lets a full bucket spend its burst, then refuses until a token has refilled', () => {
    let now = 1_000_000;
    const buckets = new LocalBuckets(100, () => now);
    const b = bucket('a', 2, 3);
    expect([buckets.take([b]), buckets.take([b]), buckets.take([b])]).toEqual([undefined, undefined, undefined]);
    const refused = buckets.take([b]);
    expect(refused).toEqual({ limit: 'a', retryAfterMs: 500 });
    now += 499;
    expect(buckets.take([b])?.retryAfterMs).toBe(1);
    now += 1;
    expect(buckets.take([b])).toBeUndefined();
    // A long pause refills to the burst, never beyond.
    now += 60_000;
    for (let i = 0; i < 3; i++) expect(buckets.take([b])).toBeUndefined();
    expect(buckets.take([b])).toBeDefined();
  });

  it('takes from every bucket or from none: an empty tool bucket leaves the identity bucket untouched', () => {
    const now = 5_000;
    const buckets = new LocalBuckets(100, () => now);
    const identity = bucket('id', 1, 2);
    const tool = bucket('tool', 1, 1);
    expect(buckets.take([identity, tool])).toBeUndefined();
    expect(buckets.take([identity, tool])).toEqual({ limit: 'tool', retryAfterMs: 1000 });
    // The refused request took nothing from the identity: one token is left for another tool.
    expect(buckets.take([identity])).toBeUndefined();
    expect(buckets.take([identity])).toEqual({ limit: 'id', retryAfterMs: 1000 });
  });
});

function limiter(config: Partial<RateLimitsConfig>): RateLimiter {
  return new RateLimiter({ profiles: {}, tools: {}, ...config }, silentLogger());
}

describe('which buckets a request takes from', () => {
  it('gives each identity its own bucket', () => {
    const l = limiter({ identity: { rate: 0.001, burst: 1 } });
    expect(l.active).toBe(true);
    expect(l.take('alice', undefined, undefined)).toBeUndefined();
    expect(l.take('alice', undefined, undefined)).toMatchObject({ limit: 'identity' });
    expect(l.take('bob', undefined, undefined)).toBeUndefined();
    expect(l.refused.get('identity')).toBe(1);
  });

  it("sizes an identity's bucket by its profile when the profile has one", () => {
    const l = limiter({ identity: { rate: 0.001, burst: 1 }, profiles: { team: { rate: 0.001, burst: 3 } } });
    for (let i = 0; i < 3; i++) expect(l.take('carol', 'team', undefined)).toBeUndefined();
    expect(l.take('carol', 'team', undefined)).toMatchObject({ limit: 'profile team' });
    expect(l.take('dave', 'other', undefined)).toBeUndefined();
    expect(l.take('dave', 'other', undefined)).toMatchObject({ limit: 'identity' });
  });

  it('limits tools by glob, per identity or for everyone together', () => {
    const l = limiter({ tools: { 'fs__write_*': { rate: 0.001, burst: 1, per: 'identity' }, 'pay__*': { rate: 0.001, burst: 1, per: 'all' } } });
    expect(l.take('alice', undefined, 'fs__read_file')).toBeUndefined();
    expect(l.take('alice', undefined, 'fs__read_file')).toBeUndefined();
    expect(l.take('alice', undefined, 'fs__write_file')).toBeUndefined();
    expect(l.take('alice', undefined, 'fs__write_file')).toMatchObject({ limit: 'tool fs__write_*' });
    expect(l.take('bob', undefined, 'fs__write_file')).toBeUndefined();
    expect(l.take('alice', undefined, 'pay__charge')).toBeUndefined();
    expect(l.take('bob', undefined, 'pay__charge')).toMatchObject({ limit: 'tool pay__*' });
  });

  it('is inactive without limits, and a reload keeps the level of buckets it still has', () => {
    const l = limiter({});
    expect(l.active).toBe(false);
    expect(l.take('alice', undefined, 'x')).toBeUndefined();
    l.update({ identity: { rate: 0.001, burst: 1 }, profiles: {}, tools: {} });
    expect(l.take('alice', undefined, undefined)).toBeUndefined();
    l.update({ identity: { rate: 0.001, burst: 1 }, profiles: {}, tools: { 'x*': { rate: 1, burst: 5, per: 'identity' } } });
    expect(l.take('alice', undefined, undefined)).toMatchObject({ limit: 'identity' });
  });
});

const SERVERS = { fx: { command: process.execPath, args: ['-e', ''] } };

describe('rate limits in the config', () => {
  const load = (limits: unknown) => resolveConfig({ mcpServers: SERVERS, limits }, { file: 'proxy.config.json', dir: '/tmp' }, {});

  it('reads buckets with a default burst of one second of requests and per "identity"', () => {
    const config = load({ identity: { rate: 2.5 }, tools: { 'fs__*': { rate: 0.5 } }, profiles: { ci: { rate: 10, burst: 40 } } });
    expect(config.limits.identity).toEqual({ rate: 2.5, burst: 3 });
    expect(config.limits.tools['fs__*']).toEqual({ rate: 0.5, burst: 1, per: 'identity' });
    expect(config.limits.profiles.ci).toEqual({ rate: 10, burst: 40 });
    expect(config.limits.maxSessions).toBeGreaterThan(0);
  });

  it('refuses a bad bucket with one line naming the field', () => {
    expect(() => load({ identity: { rate: 0 } })).toThrow(/limits\.identity\.rate: expected requests per second/);
    expect(() => load({ tools: { 'a*': { rate: 1, per: 'everyone' } } })).toThrow('$.limits.tools["a*"].per: expected "identity" or "all"');
    expect(() => load({ identity: { rate: 1, brust: 3 } })).toThrow(/brust/);
  });

  it('substitutes ${VAR} in the Redis URL and never echoes it', () => {
    const config = resolveConfig({ mcpServers: SERVERS, limits: { redis: { url: 'redis://:${REDIS_PASS}@127.0.0.1:6390/0' } } }, { file: 'p.json', dir: '/tmp' }, { REDIS_PASS: 's3cret-pass' });
    expect(config.limits.redis).toEqual({ url: 'redis://:s3cret-pass@127.0.0.1:6390/0', prefix: 'switchboard:', onError: 'open', timeoutMs: 250 });
    let message = '';
    try {
      resolveConfig({ mcpServers: SERVERS, limits: { redis: { url: '${REDIS_URL}' } } }, { file: 'p.json', dir: '/tmp' }, { REDIS_URL: 'http://user:hunter2@x' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('limits.redis.url: expected a redis:// or rediss:// URL');
    expect(message).not.toContain('hunter2');
  });
});
