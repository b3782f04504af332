// Where `check` (and approve's first line) says the pins are kept: the pin file, or the Redis URL
// without user or password plus the hash its prefix names; never the credentials.
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../src/config/load.js';
import { pinStoreReport, pinsWhere, stateFilesLine } from '../../../src/cli/unit-state.js';

const origin = { file: '/etc/switchboard/proxy.config.json', dir: '/etc/switchboard' };
const sanitize = { pins: '/var/lib/switchboard/pins.json', log: '/var/lib/switchboard/findings.jsonl' };
const load = (extra: Record<string, unknown>, env: NodeJS.ProcessEnv = {}) =>
  resolveConfig({ mcpServers: { fx: { command: process.execPath } }, sanitize, ...extra }, origin, env);

describe('where the pins are kept', () => {
  it('names the pin file when no Redis is configured', () => {
    const config = load({});
    expect(pinsWhere(config)).toBe(sanitize.pins);
    expect(pinStoreReport(config)).toEqual({ kind: 'file', file: sanitize.pins });
    expect(stateFilesLine(config, undefined)).toBe(`pins: ${sanitize.pins}, log: ${sanitize.log}`);
  });

  it('names state.redis without its user and password, with the prefix and the hash it names', () => {
    const config = load({ state: { redis: { url: 'rediss://opsuser:${PW}@redis.internal:6380/2', prefix: 'team-a:' } } }, { PW: 'hunter2-s3cret' });
    const report = pinStoreReport(config);
    expect(report).toEqual({ kind: 'redis', url: 'rediss://redis.internal:6380/2', prefix: 'team-a:', key: 'team-a:pins', from: 'state.redis', file: sanitize.pins });
    expect(pinsWhere(config)).toBe('rediss://redis.internal:6380/2 hash team-a:pins (state.redis)');
    for (const text of [JSON.stringify(report), pinsWhere(config), stateFilesLine(config, undefined)]) {
      expect(text).not.toContain('hunter2');
      expect(text).not.toContain('opsuser');
    }
  });

  it('names limits.redis when it stands in for state.redis, a password written in the file never shown', () => {
    const config = load({ limits: { redis: { url: 'redis://:literal-pw@10.0.0.5:6379/0', prefix: 'rl:' } } });
    expect(pinStoreReport(config)).toMatchObject({ kind: 'redis', url: 'redis://10.0.0.5:6379/0', key: 'rl:pins', from: 'limits.redis' });
    expect(stateFilesLine(config, '/etc/systemd/system/mcp-switchboard.service')).toBe(
      `pins: redis://10.0.0.5:6379/0 hash rl:pins (limits.redis), log: ${sanitize.log} (the state of /etc/systemd/system/mcp-switchboard.service)`,
    );
    expect(JSON.stringify(pinStoreReport(config))).not.toContain('literal-pw');
  });
});
