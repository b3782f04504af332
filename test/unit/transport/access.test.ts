import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../src/config/load.js';
import { AccessControl } from '../../../src/transport/access.js';
import { AGGREGATE_SCOPE, serverScope } from '../../../src/catalog/view.js';
import { silentLogger } from '../../../src/log.js';
import { showsServer, type ViewPolicy } from '../../../src/catalog/view-policy.js';
import type { Identity } from '../../../src/auth/inbound/authenticator.js';

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

/** The catalog's answer to "does this view show the server", over tool lists a test sets. */
function listings(tools: Record<string, string[] | undefined> = {}) {
  return { tools, shows: (policy: ViewPolicy, server: string) => showsServer(policy, server, tools[server]) };
}

describe('AccessControl.grant', () => {
  it('works a grant out once per identity, endpoint and query, and again after a reload', () => {
    const access = new AccessControl(config(['fs']), log, listings());
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

  it('keeps a bounded number of grants, and none for long queries, each still right', () => {
    const access = new AccessControl(config(['fs']), log, listings());
    const first = access.grant(AGGREGATE_SCOPE, everyone, '/mcp?tools=fs__tool0');
    // Past the bound the cache starts over: every grant is right, and the first is worked out anew.
    const grants = Array.from({ length: 5_000 }, (_, i) => access.grant(AGGREGATE_SCOPE, everyone, `/mcp?tools=fs__tool${i}`));
    grants.forEach((grant, i) => {
      expect(grant.ok && grant.grant.query).toBe(`tools=fs__tool${i}`);
      expect(grant.ok && grant.grant.scope.policy.allowsTool(`fs__tool${i}`, 'fs')).toBe(true);
      expect(grant.ok && grant.grant.scope.policy.allowsTool(`fs__tool${i + 1}`, 'fs')).toBe(false);
    });
    const again = access.grant(AGGREGATE_SCOPE, everyone, '/mcp?tools=fs__tool0');
    expect(again).not.toBe(first);
    expect(again.ok && again.grant.query).toBe('tools=fs__tool0');
    expect(again.ok && again.grant.scope.key).toBe(first.ok && first.grant.scope.key);
    // A long query is worked out each time: right, never kept.
    const names = Array.from({ length: 40 }, (_, i) => `fs__${'x'.repeat(20)}${i}`);
    const long = `/mcp?tools=${names.join(',')}`;
    expect(long.length).toBeGreaterThan(600);
    const once = access.grant(AGGREGATE_SCOPE, everyone, long);
    expect(once.ok && once.grant.scope.policy.allowsTool(names[39] as string, 'fs')).toBe(true);
    expect(once.ok && once.grant.scope.policy.allowsTool('fs__other', 'fs')).toBe(false);
    expect(access.grant(AGGREGATE_SCOPE, everyone, long)).not.toBe(once);
  });

  it("answers 404 on the endpoint of a server whose every tool the profile hides, judged on the latest listing", () => {
    const listed = listings({ fs: ['fs__read_file', 'fs__write_file'], web: ['web__fetch'], docs: [] });
    const raw = { mcpServers: { fs: { command: 'node' }, web: { command: 'node' }, docs: { command: 'node' } }, profiles: { reader: { tools: { allow: ['fs__read_*'] } } } };
    const access = new AccessControl(resolveConfig(raw, { file: '<inline>', dir: process.cwd() }, env), log, listed);
    expect(access.grant(serverScope('web'), reader, '/s/web/mcp')).toMatchObject({ ok: false, status: 404, message: 'Not found' });
    expect(access.grant(serverScope('fs'), reader, '/s/fs/mcp').ok).toBe(true);
    // A server of prompts and resources only is the profile's unless it names it out.
    expect(access.grant(serverScope('docs'), reader, '/s/docs/mcp').ok).toBe(true);
    // The aggregate endpoint is always there; so is web's for an identity that sees its tools.
    expect(access.grant(AGGREGATE_SCOPE, reader, '/mcp').ok).toBe(true);
    expect(access.grant(serverScope('web'), everyone, '/s/web/mcp').ok).toBe(true);
    // A ?tools= narrowing hides servers the same way, on a reload's re-resolution too.
    expect(access.scopeFor(serverScope('fs'), undefined, 'tools=web__*')).toMatchObject({ ok: false, status: 404 });
  });

  it('does not keep a 404 with the grant: a listing that gives the view one of its tools opens the endpoint at once', () => {
    const listed = listings({ web: ['web__fetch'] });
    const raw = { mcpServers: { web: { command: 'node' } }, profiles: { reader: { tools: { allow: ['web__read_*'] } } } };
    const access = new AccessControl(resolveConfig(raw, { file: '<inline>', dir: process.cwd() }, env), log, listed);
    expect(access.grant(serverScope('web'), reader, '/s/web/mcp')).toMatchObject({ ok: false, status: 404 });
    listed.tools.web = ['web__fetch', 'web__read_page'];
    expect(access.grant(serverScope('web'), reader, '/s/web/mcp').ok).toBe(true);
    listed.tools.web = ['web__fetch'];
    expect(access.grant(serverScope('web'), reader, '/s/web/mcp').ok).toBe(false);
  });
});
