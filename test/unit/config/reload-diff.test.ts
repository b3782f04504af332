import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../src/config/load.js';
import { diffConfigs } from '../../../src/config/reload-diff.js';

const node = process.execPath;
const ENV = { PATH: process.env.PATH ?? '', TOKEN_A: 'a'.repeat(32), TOKEN_B: 'b'.repeat(32) };
const config = (raw: Record<string, unknown>) => resolveConfig(raw, { file: '<inline>', dir: process.cwd() }, ENV);
const servers = {
  keep: { command: node, args: ['keep.mjs'] },
  change: { command: node, args: ['v1.mjs'] },
  drop: { command: node, args: ['drop.mjs'] },
  off: { command: node, args: ['off.mjs'], disabled: true },
};

describe('config reload diff', () => {
  it('restarts a remote server whose header value or OAuth client secret changed, which the config text cannot show', () => {
    const remote = (headers: Record<string, string>, secretEnv?: string) => ({
      url: 'https://mcp.example.com/mcp',
      headers,
      ...(secretEnv === undefined ? {} : { oauth: { clientId: 'switchboard', clientSecretEnv: secretEnv } }),
    });
    const before = config({
      mcpServers: {
        same: remote({ 'X-Api-Key': '${TOKEN_A}' }, 'TOKEN_A'),
        rotated: remote({ 'X-Api-Key': '${TOKEN_A}' }),
        more: remote({ 'X-Api-Key': '${TOKEN_A}' }),
        secret: remote({}, 'TOKEN_A'),
        signedIn: remote({}),
      },
    });
    const after = config({
      mcpServers: {
        same: remote({ 'X-Api-Key': '${TOKEN_A}' }, 'TOKEN_A'),
        rotated: remote({ 'X-Api-Key': '${TOKEN_B}' }),
        more: remote({ 'X-Api-Key': '${TOKEN_A}', 'X-Team': 'a' }),
        secret: remote({}, 'TOKEN_B'),
        signedIn: remote({}, 'TOKEN_A'),
      },
    });
    const diff = diffConfigs(before, after);
    expect(diff.changed.map((s) => s.name).sort()).toEqual(['more', 'rotated', 'secret', 'signedIn']);
    expect(diff.unchanged).toEqual(['same']);
  });

  it('sorts servers into added, removed, changed and unchanged', () => {
    const before = config({ mcpServers: servers });
    const after = config({
      mcpServers: {
        keep: servers.keep,
        change: { command: node, args: ['v2.mjs'] },
        off: { command: node, args: ['off.mjs'] }, // enabled now: added
        fresh: { command: node, args: ['fresh.mjs'] },
      },
    });
    const diff = diffConfigs(before, after);
    expect(diff.added.map((s) => s.name).sort()).toEqual(['fresh', 'off']);
    expect(diff.removed.map((s) => s.name)).toEqual(['drop']);
    expect(diff.changed.map((s) => s.name)).toEqual(['change']);
    expect(diff.unchanged).toEqual(['keep']);
    expect(diff.accessChanged).toBe(false);
    expect(diff.needsRestart).toEqual([]);
  });

  it('counts any field of a server, env and timeout included, as a change', () => {
    const before = config({ mcpServers: { a: { command: node, env: { X: '1' } }, b: { command: node } } });
    const after = config({ mcpServers: { a: { command: node, env: { X: '2' } }, b: { command: node, timeoutMs: 5000 } } });
    expect(diffConfigs(before, after).changed.map((s) => s.name)).toEqual(['a', 'b']);
  });

  it('notices changed profiles, default profile and rotated tokens, and listen changes it cannot apply', () => {
    const base = {
      mcpServers: { keep: servers.keep },
      profiles: { r: { tools: { allow: ['keep__*'] } } },
      auth: { tokens: [{ name: 'a', tokenEnv: 'TOKEN_A', profile: 'r' }] },
    };
    const before = config(base);
    expect(diffConfigs(before, config(base)).accessChanged).toBe(false);
    expect(diffConfigs(before, config({ ...base, profiles: { r: { tools: { allow: ['x__*'] } } } })).accessChanged).toBe(true);
    expect(diffConfigs(before, config({ ...base, defaultProfile: 'r' })).accessChanged).toBe(true);
    expect(diffConfigs(before, config({ ...base, auth: { tokens: [{ name: 'a', tokenEnv: 'TOKEN_B', profile: 'r' }] } })).accessChanged).toBe(true);
    const moved = diffConfigs(before, config({ ...base, listen: { host: '127.0.0.1', port: 9999 } }));
    expect(moved.needsRestart).toEqual(['listen.host/port']);
    expect(diffConfigs(before, config({ ...base, namespace: { separator: '_' } })).namespaceChanged).toBe(true);
  });

  it('names sanitizer and log level changes as needing a restart rather than dropping them silently', () => {
    const before = config({ mcpServers: { keep: servers.keep } });
    expect(diffConfigs(before, config({ mcpServers: { keep: servers.keep }, sanitize: { blocking: false } })).needsRestart).toEqual(['sanitize']);
    expect(diffConfigs(before, config({ mcpServers: { keep: servers.keep }, logLevel: 'debug' })).needsRestart).toEqual(['logLevel']);
    expect(diffConfigs(before, config({ mcpServers: { keep: servers.keep }, instance: 'renamed' })).needsRestart).toEqual(['instance']);
  });
});
