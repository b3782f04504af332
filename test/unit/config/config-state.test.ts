// `state.redis`: where pins are shared; limits.redis stands in for it; `${VAR}` in the URL; errors never echo it.
import { describe, expect, it } from 'vitest';
import { ConfigError, resolveConfig } from '../../../src/config/load.js';
import { describePinStore, redisUrlForLog } from '../../../src/config/state.js';

const base = { mcpServers: { fx: { command: process.execPath } } };
const origin = { file: '/etc/switchboard/proxy.config.json', dir: '/etc/switchboard' };
const load = (extra: Record<string, unknown>, env: NodeJS.ProcessEnv = {}) => resolveConfig({ ...base, ...extra }, origin, env);

describe('state.redis', () => {
  it('is absent without state.redis and limits.redis: pins stay in the file', () => {
    expect(load({}).state).toEqual({ redis: undefined });
  });

  it('takes limits.redis\'s url and prefix when absent', () => {
    expect(load({ limits: { redis: { url: 'redis://10.0.0.5:6379', prefix: 'team:' } } }).state.redis).toEqual({ url: 'redis://10.0.0.5:6379', prefix: 'team:', from: 'limits.redis' });
  });

  it('wins over limits.redis, with ${VAR} substituted and the default prefix', () => {
    const config = load({ limits: { redis: { url: 'redis://a:1' } }, state: { redis: { url: 'redis://:${PW}@b:2/1' } } }, { PW: 's3cret' });
    expect(config.state.redis).toEqual({ url: 'redis://:s3cret@b:2/1', prefix: 'switchboard:', from: 'state.redis' });
    expect(describePinStore(config.state.redis!)).toBe('redis://b:2/1 hash switchboard:pins (state.redis)');
  });

  it('refuses a URL that is not redis:// and an unknown key, never echoing the value', () => {
    let error: unknown;
    try {
      load({ state: { redis: { url: 'http://:pw-in-url@x', extra: 1 } } });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect(String((error as Error).message)).toContain('$.state.redis.url: expected a redis:// or rediss:// URL');
    expect(String((error as Error).message)).toContain('$.state.redis: unknown key "extra"');
    expect(String((error as Error).message)).not.toContain('pw-in-url');
  });

  it('logs the URL without user, password or anything unparsable', () => {
    expect(redisUrlForLog('rediss://user:pw@h.example:6380/2')).toBe('rediss://h.example:6380/2');
    expect(redisUrlForLog('redis://:pw@[::1]:6379')).toBe('redis://[::1]:6379');
    expect(redisUrlForLog('redis://:p w@%%')).not.toContain('p w');
  });
});
