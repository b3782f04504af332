// Token buckets in Redis, so every instance behind one balancer takes from the same buckets: one
// Lua script checks and takes all of a request's buckets atomically, on Redis's clock (instances'
// clocks may disagree). Redis unreachable or slow: the config's `onError` decides, logged once per outage.
import { createRequire } from 'node:module';
import type { RedisClientType } from 'redis';
import type { Logger } from '../log.js';
import type { RedisLimitsConfig } from '../config/rate-limits.js';
import type { BucketRef, BucketStore, Verdict } from './buckets.js';

/**
 * KEYS: the buckets; ARGV: rate and burst of each, in order. Returns {0, 0} when every bucket had a
 * token (and one was taken from each), else {index of the bucket that refills last (1-based), ms until it has one}.
 */
const TAKE_SCRIPT = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local levels = {}
local worst, wait = 0, 0
for i = 1, #KEYS do
  local rate, burst = tonumber(ARGV[2 * i - 1]), tonumber(ARGV[2 * i])
  local saved = redis.call('HMGET', KEYS[i], 't', 'at')
  local tokens, at = tonumber(saved[1]), tonumber(saved[2])
  if tokens == nil then tokens, at = burst, now end
  tokens = math.min(burst, tokens + math.max(0, now - at) * rate / 1000)
  levels[i] = tokens
  if tokens < 1 then
    local w = math.ceil((1 - tokens) * 1000 / rate)
    if w > wait then worst, wait = i, w end
  end
end
for i = 1, #KEYS do
  local rate, burst = tonumber(ARGV[2 * i - 1]), tonumber(ARGV[2 * i])
  local tokens = levels[i]
  if worst == 0 then tokens = tokens - 1 end
  redis.call('HSET', KEYS[i], 't', tostring(tokens), 'at', tostring(now))
  redis.call('PEXPIRE', KEYS[i], math.ceil(burst * 1000 / rate) + 1000)
end
return {worst, wait}
`;

let redisModule: typeof import('redis') | undefined;
/** Loaded on first use: a daemon without `limits.redis` never reads the client library. */
const loadRedis = (): typeof import('redis') => (redisModule ??= createRequire(import.meta.url)('redis') as typeof import('redis'));

/** A refusal when Redis cannot be asked and `onError` is `closed`: retry after a second. */
const UNAVAILABLE: Verdict = Object.freeze({ limit: 'the shared limit store', retryAfterMs: 1000, unavailable: true });

export class RedisBuckets implements BucketStore {
  private readonly client: RedisClientType;
  private sha: string | undefined;
  /** Set while Redis fails, so an outage is logged once, and its end once. */
  private failing = false;
  private closed = false;

  constructor(
    private readonly config: RedisLimitsConfig,
    private readonly log: Logger,
  ) {
    const { createClient } = loadRedis();
    this.client = createClient({
      url: config.url,
      // Waiting for a reconnect would hold requests: fail at once and let onError decide.
      disableOfflineQueue: true,
      socket: {
        connectTimeout: Math.max(1000, config.timeoutMs * 4),
        reconnectStrategy: (retries: number) => Math.min(100 * 2 ** Math.min(retries, 5), 3000),
      },
    }) as RedisClientType;
    // Without a listener an 'error' event would end the process; the reason is logged by outage.
    this.client.on('error', (error: unknown) => this.failed(error));
    this.client.on('ready', () => this.recovered());
    this.client.connect().catch((error: unknown) => this.failed(error));
  }

  get reachable(): boolean {
    return this.client.isReady && !this.failing;
  }

  take(buckets: readonly BucketRef[]): Promise<Verdict> {
    if (!this.client.isReady) {
      this.failed(new Error('not connected'));
      return Promise.resolve(this.onError());
    }
    const keys = buckets.map((b) => this.config.prefix + b.key);
    const args: string[] = [];
    for (const b of buckets) args.push(String(b.rate), String(b.burst));
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), this.config.timeoutMs);
    });
    return Promise.race([this.run(keys, args), timeout]).then(
      (reply) => {
        clearTimeout(timer);
        if (reply === 'timeout') {
          this.failed(new Error(`no answer within ${this.config.timeoutMs} ms`));
          return this.onError();
        }
        this.recovered();
        const [worst, wait] = reply;
        return worst === 0 ? undefined : { limit: buckets[worst - 1]!.label, retryAfterMs: wait };
      },
      (error: unknown) => {
        clearTimeout(timer);
        this.failed(error);
        return this.onError();
      },
    );
  }

  async close(): Promise<void> {
    this.closed = true;
    try {
      await this.client.close();
    } catch {
      // Never connected, or already gone: nothing to close.
      this.client.destroy();
    }
  }

  private async run(keys: string[], args: string[]): Promise<[number, number]> {
    if (this.sha !== undefined) {
      try {
        return (await this.client.evalSha(this.sha, { keys, arguments: args })) as [number, number];
      } catch (error) {
        // A restarted or flushed Redis forgot the script: load it again.
        if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      }
    }
    this.sha = await this.client.scriptLoad(TAKE_SCRIPT);
    return (await this.client.evalSha(this.sha, { keys, arguments: args })) as [number, number];
  }

  private onError(): Verdict {
    return this.config.onError === 'closed' ? UNAVAILABLE : undefined;
  }

  private failed(error: unknown): void {
    if (this.failing || this.closed) return;
    this.failing = true;
    const reason = error instanceof Error ? error.message : String(error);
    this.log.warn({ reason, onError: this.config.onError }, this.config.onError === 'open' ? 'rate-limit store unreachable: requests pass unlimited until it is back' : 'rate-limit store unreachable: requests are refused until it is back');
  }

  private recovered(): void {
    if (!this.failing) return;
    this.failing = false;
    this.log.info('rate-limit store reachable again');
  }
}
