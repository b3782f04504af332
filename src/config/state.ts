// `state`: where pins and approvals live when several instances behind one balancer must share them.
// `state.redis` names a Redis; without it `limits.redis`'s server is used, and without either each
// instance keeps its own pin file (sanitize.pins).
import { z } from 'zod';
import { substitute } from './interpolate.js';
import type { Findings } from './errors.js';

export interface RedisStateConfig {
  /** `redis://[user:password@]host:port[/db]` or `rediss://`, `${VAR}` already substituted; never logged as is (redisUrlForLog). */
  readonly url: string;
  /** Prefix of the keys and channel written (`<prefix>pins`), so one Redis can serve several teams. */
  readonly prefix: string;
  /** The config key it came from, for messages: pins follow the rate limits' Redis unless told otherwise. */
  readonly from: 'state.redis' | 'limits.redis';
}

export interface StateConfig {
  /** Undefined: pins stay in the file `sanitize.pins`. */
  readonly redis: RedisStateConfig | undefined;
}

const URL_ERROR = 'expected a redis:// or rediss:// URL';
const strictError = {
  error: (issue: { code?: string; keys?: readonly string[] }) => (issue.code === 'unrecognized_keys' ? `unknown key ${(issue.keys ?? []).map((k) => JSON.stringify(k)).join(', ')}` : 'expected an object'),
};

export const stateObject = z.object(
  {
    redis: z
      .strictObject(
        {
          url: z.string({ error: URL_ERROR }).regex(/^(?:rediss?:\/\/|\$\{)/, { error: URL_ERROR }),
          prefix: z.string({ error: 'expected a string' }).max(64, { error: 'expected at most 64 characters' }).default('switchboard:'),
        },
        strictError,
      )
      .optional(),
  },
  { error: 'expected an object' },
);

export type RawState = z.output<typeof stateObject>;

/**
 * `state.redis` with `${VAR}` substituted (a password is often one; errors never echo the value),
 * else the rate limits' Redis (`limits.redis`, already substituted), else none.
 */
export function resolveState(
  raw: RawState | undefined,
  limitsRedis: { readonly url: string; readonly prefix: string } | undefined,
  env: NodeJS.ProcessEnv,
  findings: Findings,
): StateConfig {
  const own = raw?.redis;
  if (own !== undefined) {
    const url = substitute(own.url, ['state', 'redis', 'url'], env, (p, problem) => findings.error(p, problem)).value;
    if (!/^rediss?:\/\/[^/]/.test(url)) findings.error(['state', 'redis', 'url'], URL_ERROR);
    return { redis: { url, prefix: own.prefix, from: 'state.redis' } };
  }
  if (limitsRedis !== undefined) return { redis: { url: limitsRedis.url, prefix: limitsRedis.prefix, from: 'limits.redis' } };
  return { redis: undefined };
}

/** The URL without its user and password (and anything after the database), fit for logs and messages. */
export function redisUrlForLog(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname === '/' ? '' : parsed.pathname}`;
  } catch {
    // Unparsable: say only the scheme rather than risk echoing a password.
    return url.startsWith('rediss:') ? 'rediss://(unparsable URL)' : 'redis://(unparsable URL)';
  }
}

/** The shared pin store as messages name it: where, which hash, and which key configured it. */
export function describePinStore(redis: RedisStateConfig): string {
  return `${redisUrlForLog(redis.url)} hash ${redis.prefix}pins (${redis.from})`;
}
