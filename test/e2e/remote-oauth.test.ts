// The proxy signing in to a remote server that wants OAuth: the upstream here is another
// switchboard guarded by auth.oauth with a real OpenID provider (oidc-provider) on loopback. Until
// `switchboard login` ran, the server is down with a reason that says so; the login (the SDK's
// discovery, registration and PKCE, the browser played by the test) stores the tokens with mode
// 0600, and the proxy connects with them by itself.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { resolveConfig, type RunningSwitchboard } from '../../src/index.js';
import { login } from '../../src/cli/login.js';
import { startIdp, type TestIdp } from '../fixtures/oidc-idp.js';
import { ROOT, connect, fixture, listAllTools, startProxy, textOf, waitFor } from './helpers.js';

describe('signing in to a remote server that wants OAuth', () => {
  let idp: TestIdp;
  let upstream: RunningSwitchboard;
  let front: RunningSwitchboard;
  const clients: Client[] = [];
  const state = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-remote-oauth-'));
  const env = { ...process.env, XDG_STATE_HOME: state };
  const frontConfig = (url: string): Record<string, unknown> => ({
    mcpServers: { up: { url, oauth: {}, restart: { initialDelayMs: 100, maxDelayMs: 300 } } },
  });

  beforeAll(async () => {
    idp = await startIdp();
    upstream = await startProxy({ mcpServers: { fx: fixture('fx') }, auth: { oauth: { issuer: idp.issuer, requiredScopes: ['mcp'] } } });
    front = await startProxy(frontConfig(`${upstream.url}/mcp`), { env, waitReady: false });
  });

  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    await front?.close();
    await upstream?.close();
    await idp?.close();
    fs.rmSync(state, { recursive: true, force: true });
  });

  const lastError = async (): Promise<string> => {
    const status = (await (await fetch(`${front.url}/status.json`)).json()) as { servers: Array<{ name: string; lastError: string | null }> };
    return status.servers.find((server) => server.name === 'up')?.lastError ?? '';
  };

  it('says how to sign in while it has no tokens', async () => {
    await waitFor(async () => (await lastError()).includes('switchboard login up'), 10_000, 'the reason to sign in');
  });

  it('signs in once in a browser, keeps the tokens to itself (0600), and then serves the remote tools', async () => {
    const server = resolveConfig({ listen: { host: '127.0.0.1', port: 0 }, ...frontConfig(`${upstream.url}/mcp`) }, { file: '<inline>', dir: ROOT }, env).servers[0];
    if (server === undefined) throw new Error('no server');
    idp.signInAs({ sub: 'proxy-operator' });
    const store = await login(server, {
      port: 0,
      timeoutMs: 30_000,
      open: async (url) => {
        // The browser: sign in at the provider, then come back to the proxy's redirect.
        const redirect = url.searchParams.get('redirect_uri') ?? '';
        const { code, state: returned } = await idp.authorize(url);
        const back = await fetch(`${redirect}?code=${encodeURIComponent(code)}&state=${encodeURIComponent(returned ?? '')}`);
        expect(back.status).toBe(200);
      },
    });
    expect(store.startsWith(state)).toBe(true);
    expect(fs.statSync(store).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(store)).mode & 0o077).toBe(0);

    const client = await connect(front);
    clients.push(client);
    const names = await waitFor(async () => {
      const listed = (await listAllTools(client)).map((tool) => tool.name);
      return listed.includes('up__fx__echo') ? listed : undefined;
    }, 15_000, 'the remote tools after signing in');
    expect(names).toContain('up__fx__echo');
    expect(textOf(await client.callTool({ name: 'up__fx__echo', arguments: { text: 'signed in' } }))).toBe('signed in');
  });

  it('refuses a login for a server that is not set up for it, and a redirect that is not its answer', async () => {
    const plain = resolveConfig({ listen: { host: '127.0.0.1', port: 0 }, mcpServers: { p: { url: `${upstream.url}/mcp` } } }, { file: '<inline>', dir: ROOT }, env).servers[0];
    if (plain === undefined) throw new Error('no server');
    await expect(login(plain, { port: 0, timeoutMs: 1_000, open: async () => undefined })).rejects.toThrow(/no "oauth"/);
    const server = resolveConfig({ listen: { host: '127.0.0.1', port: 0 }, ...frontConfig(`${upstream.url}/mcp`) }, { file: '<inline>', dir: ROOT }, env).servers[0];
    if (server === undefined) throw new Error('no server');
    const forged = login(server, {
      port: 0,
      timeoutMs: 2_000,
      open: async (url) => {
        const redirect = url.searchParams.get('redirect_uri') ?? '';
        // A code with another state is refused, and the login waits on until it times out.
        expect((await fetch(`${redirect}?code=stolen&state=other`)).status).toBe(400);
      },
    });
    await expect(forged).rejects.toThrow(/no answer from the browser/);
    // The failed login left the tokens of the good one in place.
    const stored = JSON.parse(fs.readFileSync(server.remote?.oauth?.store ?? '', 'utf8')) as { tokens?: { access_token?: string } };
    expect(stored.tokens?.access_token).toEqual(expect.any(String));
  });
});
