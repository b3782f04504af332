import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../src/config/load.js';
import { AccessControl } from '../../../src/transport/access.js';
import { AGGREGATE_SCOPE, serverScope } from '../../../src/catalog/catalog.js';
import { silentLogger } from '../../../src/log.js';
import type { Identity } from '../../../src/transport/auth.js';

const env = { PATH: path.dirname(process.execPath) };

function config(readerServers: string[]) {
  return resolveConfig(
    {
      mcpServers: { fs: { command: 'node' }, web: { command: 'node' } },
      profiles: { reader: { servers: { allow: readerServers } } },
    },
    { file: '<inline>', dir: process.cwd() },
    env,
  );
}

const reader: Identity = Object.freeze({ name: 'alice', profile: 'reader', anonymous: false, admin: false });
const everyone: Identity = Object.freeze({ name: 'anonymous', profile: undefined, anonymous: true, admin: true });
const log = silentLogger();

describe('AccessControl.grant', () => {
  it('works a grant out once per identity, endpoint and query, and again after a reload', () => {
    const access = new AccessControl(config(['fs']), log);
    const first = access.grant(AGGREGATE_SCOPE, reader, '/mcp');
    expect(first.ok && first.grant.scope.policy.allowsTool('fs__read', 'fs')).toBe(true);
    expect(first.ok && first.grant.scope.policy.allowsTool('web__fetch', 'web')).toBe(false);
    // The same request again is the same grant, frozen: sessions and stateless requests share it.
    expect(access.grant(AGGREGATE_SCOPE, reader, '/mcp')).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    // Another identity, endpoint or query is another grant.
    const open = access.grant(AGGREGATE_SCOPE, everyone, '/mcp');
    expect(open.ok && open.grant.principal).toBe('anonymous');
    expect(open.ok && open.grant.scope.policy.allowsTool('web__fetch', 'web')).toBe(true);
    const narrowed = access.grant(AGGREGATE_SCOPE, everyone, '/mcp?tools=web__*');
    expect(narrowed.ok && narrowed.grant.query).toBe('tools=web__*');
    expect(narrowed.ok && narrowed.grant.scope.policy.allowsTool('fs__read', 'fs')).toBe(false);
    // A server the profile hides is unknown on its own endpoint, and stays so when asked again.
    const web = serverScope('web');
    const hidden = access.grant(web, reader, '/s/web/mcp');
    expect(hidden).toMatchObject({ ok: false, status: 404 });
    expect(access.grant(web, reader, '/s/web/mcp')).toBe(hidden);
    // A reload that changes the profile changes the grant for the same identity.
    access.reconfigure(config(['web']));
    const after = access.grant(AGGREGATE_SCOPE, reader, '/mcp');
    expect(after).not.toBe(first);
    expect(after.ok && after.grant.scope.policy.allowsTool('web__fetch', 'web')).toBe(true);
    expect(after.ok && after.grant.scope.policy.allowsTool('fs__read', 'fs')).toBe(false);
  });

  it('gives every query its own grant past the number it keeps', () => {
    const access = new AccessControl(config(['fs']), log);
    const grants = Array.from({ length: 100 }, (_, i) => access.grant(AGGREGATE_SCOPE, everyone, `/mcp?tools=fs__tool${i}`));
    grants.forEach((grant, i) => {
      expect(grant.ok && grant.grant.query).toBe(`tools=fs__tool${i}`);
      expect(grant.ok && grant.grant.scope.policy.allowsTool(`fs__tool${i}`, 'fs')).toBe(true);
      expect(grant.ok && grant.grant.scope.policy.allowsTool(`fs__tool${i + 1}`, 'fs')).toBe(false);
    });
  });
});
