// The proxy as an OAuth 2.1 resource server, against a real OpenID provider (oidc-provider) on
// loopback: the SDK client's own OAuth flow from a 401 to calling tools, every kind of bad token
// refused, groups mapped to profiles, key rotation followed, static tokens beside access tokens.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { SignJWT, decodeJwt, decodeProtectedHeader, generateKeyPair } from 'jose';
import http from 'node:http';
import WebSocket from 'ws';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { resolveConfig, type RunningSwitchboard } from '../../src/index.js';
import { HeadlessOAuthClientProvider, startIdp, type TestIdp } from '../fixtures/oidc-idp.js';
import { ACCEPT_BOTH, PROTOCOL_VERSION, ROOT, connect, fixture, listAllTools, logThrough, outlast, startProxy, textOf, waitFor } from './helpers.js';

const STATIC = `ci-${randomBytes(18).toString('base64url')}`;

describe('auth.oauth: access tokens from an OpenID provider', () => {
  let idp: TestIdp;
  let proxy: RunningSwitchboard;
  const clients: Client[] = [];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-oauth-'));
  const logFile = path.join(dir, 'proxy.log');
  const tokensSeen: string[] = [];

  /** A real token from the provider, for `account`, meant for `resource` (default: the aggregate endpoint). */
  const tokenFor = async (sub: string, groups: string[] = [], resource = `${proxy.url}/mcp`): Promise<string> => {
    const token = await idp.token({ account: { sub, groups }, resource });
    tokensSeen.push(token);
    return token;
  };
  const post = (token: string | undefined, pathname = '/mcp', body: unknown = initialize()): Promise<Response> =>
    fetch(`${proxy.url}${pathname}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: ACCEPT_BOTH, ...(token === undefined ? {} : { authorization: `Bearer ${token}` }) },
      body: JSON.stringify(body),
    });
  const initialize = (): unknown => ({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
  const claims = (overrides: Record<string, unknown> = {}): Record<string, unknown> => {
    const now = Math.floor(Date.now() / 1000);
    return { iss: idp.issuer, sub: 'mallory', aud: `${proxy.url}/mcp`, scope: 'mcp', iat: now, exp: now + 300, ...overrides };
  };

  beforeAll(async () => {
    idp = await startIdp();
    proxy = await startProxy(
      {
        mcpServers: { fx: fixture('fx'), two: fixture('two') },
        profiles: { narrow: { tools: { allow: ['two__*'] } } },
        auth: {
          tokens: [{ name: 'ci', tokenEnv: 'SB_TEST_OAUTH_STATIC' }],
          oauth: { issuer: idp.issuer, requiredScopes: ['mcp'], profileClaim: 'groups', profiles: { guests: 'narrow' }, adminValues: ['ops'], jwksCooldownMs: 1000, clockSkewSeconds: 0 },
        },
      },
      { env: { ...process.env, SB_TEST_OAUTH_STATIC: STATIC }, logFile },
    );
  });

  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    await proxy?.close();
    // The last test stops the provider itself.
    await idp?.close().catch(() => undefined);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('answers a request without a token with 401 naming its Protected Resource Metadata, which names the provider', async () => {
    const reply = await post(undefined);
    expect(reply.status).toBe(401);
    const challenge = reply.headers.get('www-authenticate') ?? '';
    expect(challenge).toContain(`resource_metadata="${proxy.url}/.well-known/oauth-protected-resource/mcp"`);
    expect(challenge).toContain('scope="mcp"');

    const metadata = await fetch(`${proxy.url}/.well-known/oauth-protected-resource/mcp`);
    expect(metadata.status).toBe(200);
    expect(metadata.headers.get('access-control-allow-origin')).toBe('*');
    expect(await metadata.json()).toEqual({
      resource: `${proxy.url}/mcp`,
      authorization_servers: [idp.issuer],
      scopes_supported: ['mcp'],
      bearer_methods_supported: ['header'],
      resource_name: 'mcp-switchboard',
    });
    // The per-server door has its own resource; the root document describes the proxy as a whole.
    const perServer = await post(undefined, '/s/two/mcp');
    expect(perServer.headers.get('www-authenticate')).toContain(`/.well-known/oauth-protected-resource/s/two/mcp"`);
    expect(((await (await fetch(`${proxy.url}/.well-known/oauth-protected-resource/s/two/mcp`)).json()) as { resource: string }).resource).toBe(`${proxy.url}/s/two/mcp`);
    expect(((await (await fetch(`${proxy.url}/.well-known/oauth-protected-resource`)).json()) as { resource: string }).resource).toBe(proxy.url);
    expect((await fetch(`${proxy.url}/.well-known/oauth-protected-resource/nothing`)).status).toBe(404);
  });

  it('lets the SDK client sign in through its own OAuth flow (discovery from the 401, registration, PKCE) and call tools', async () => {
    idp.signInAs({ sub: 'alice', groups: ['staff'] });
    const provider = new HeadlessOAuthClientProvider(idp, 'http://127.0.0.1:1/callback');
    const url = new URL(`${proxy.url}/mcp`);
    const first = new Client({ name: 'oauth-e2e', version: '1' });
    await expect(first.connect(new StreamableHTTPClientTransport(url, { authProvider: provider }))).rejects.toBeInstanceOf(UnauthorizedError);
    expect(provider.lastCode).toBeDefined();
    await new StreamableHTTPClientTransport(url, { authProvider: provider }).finishAuth(provider.lastCode ?? '');
    const token = provider.tokens()?.access_token ?? '';
    tokensSeen.push(token);
    expect(decodeJwt(token)).toMatchObject({ sub: 'alice', aud: `${proxy.url}/mcp`, iss: idp.issuer });

    const client = new Client({ name: 'oauth-e2e', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(url, { authProvider: provider }));
    clients.push(client);
    const names = (await listAllTools(client)).map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['fx__echo', 'two__echo']));
    expect(textOf(await client.callTool({ name: 'fx__echo', arguments: { text: 'signed in' } }))).toBe('signed in');
  });

  it.each([
    ['expired', async () => idp.sign(claims({ exp: Math.floor(Date.now() / 1000) - 3600, iat: Math.floor(Date.now() / 1000) - 7200 })), 'expired'],
    ['from another issuer', async () => idp.sign(claims({ iss: 'https://idp.example.com' })), 'not issued by'],
    ['for another audience', async () => idp.sign(claims({ aud: 'https://other.example.com/mcp' })), 'another resource'],
    ['for another resource, issued by the provider itself', async () => tokenFor('alice', [], 'http://127.0.0.1:9/mcp'), 'another resource'],
    ['signed by a key the provider does not hold', async () => forged(claims()), 'signature'],
    ['with alg none', async () => unsigned(claims()), 'algorithm'],
    ['that is not a JWT', async () => randomBytes(24).toString('base64url'), 'not a JWT'],
    ['that is a refresh token (Keycloak: typ Refresh in its claims)', async () => idp.sign(claims({ typ: 'Refresh', azp: 'c' }), { typ: 'JWT' }), '"Refresh" token'],
    ['whose header types it as another kind', async () => idp.sign(claims({ client_id: 'c' }), { typ: 'logout+jwt' }), 'header types it'],
    ['that is an ID token meant for this endpoint', async () => idp.sign({ ...claims({ nonce: 'n', at_hash: 'h', auth_time: Math.floor(Date.now() / 1000) }), scope: undefined }, { typ: 'JWT' }), 'ID token'],
  ])('refuses a token %s with 401 invalid_token', async (_what, make, why) => {
    const reply = await post(await make());
    expect(reply.status).toBe(401);
    const challenge = reply.headers.get('www-authenticate') ?? '';
    expect(challenge).toContain('error="invalid_token"');
    expect(challenge).toContain('resource_metadata=');
    expect(((await reply.json()) as { error: { message: string } }).error.message).toContain(why);
  });

  it('accepts an access token typed JWT, as Keycloak, Entra ID and Auth0 issue them', async () => {
    expect((await post(await idp.sign(claims({ typ: 'Bearer', azp: 'mcp-client' }), { typ: 'JWT' }))).status).toBe(200);
  });

  it('answers a valid token without the required scope with 403 insufficient_scope (step-up)', async () => {
    const reply = await post(await idp.sign(claims({ scope: 'profile' })));
    expect(reply.status).toBe(403);
    const challenge = reply.headers.get('www-authenticate') ?? '';
    expect(challenge).toContain('error="insufficient_scope"');
    expect(challenge).toContain('scope="mcp"');
  });

  it('shows a member of a group mapped to a narrow profile only that view', async () => {
    const guest = await connect(proxy, { token: await tokenFor('gus', ['guests']) });
    clients.push(guest);
    const names = (await listAllTools(guest)).map((tool) => tool.name);
    expect(names.length).toBeGreaterThan(0);
    expect(names.every((name) => name.startsWith('two__'))).toBe(true);
    await expect(guest.callTool({ name: 'fx__echo', arguments: { text: 'x' } })).rejects.toThrow(/Unknown tool/);
    const staff = await connect(proxy, { token: await tokenFor('sam', ['staff']) });
    clients.push(staff);
    expect((await listAllTools(staff)).map((tool) => tool.name)).toContain('fx__echo');
  });

  it('binds a session to its subject: another subject presenting its id gets 404', async () => {
    const opened = await post(await tokenFor('olivia'));
    expect(opened.status).toBe(200);
    const session = opened.headers.get('mcp-session-id') ?? '';
    const other = await fetch(`${proxy.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: ACCEPT_BOTH, authorization: `Bearer ${await tokenFor('peter')}`, 'mcp-session-id': session, 'mcp-protocol-version': PROTOCOL_VERSION },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    });
    expect(other.status).toBe(404);
  });

  it('follows the provider rotating its signing key', async () => {
    const before = await tokenFor('rita');
    expect((await post(before)).status).toBe(200);
    const fetches = idp.jwksFetches;
    await idp.rotateKeys({ dropOld: true });
    // Keys are refetched for an unknown key id at most once per jwksCooldownMs (1 s here), counted
    // from the last fetch, which came before this line.
    await outlast(1100, 'jwksCooldownMs');
    const after = await tokenFor('rita');
    expect(decodeProtectedHeader(after).kid).not.toBe(decodeProtectedHeader(before).kid);
    expect((await post(after)).status).toBe(200);
    expect(idp.jwksFetches).toBeGreaterThan(fetches);
  });

  it('keeps static tokens working beside access tokens, and shows access-token identities in /status.json', async () => {
    expect((await post(STATIC)).status).toBe(200);
    await post(await tokenFor('vera'));
    const status = await fetch(`${proxy.url}/status.json`, { headers: { authorization: `Bearer ${STATIC}` } });
    expect(status.status).toBe(200);
    const report = (await status.json()) as { sessions: { byIdentity: Record<string, number> } };
    expect(report.sessions.byIdentity).toMatchObject({ ci: expect.any(Number), 'oauth:vera': expect.any(Number) });
    // Signing in does not make an operator: only a claim value listed in adminValues does.
    const member = await tokenFor('vera', ['staff']);
    expect((await fetch(`${proxy.url}/status.json`, { headers: { authorization: `Bearer ${member}` } })).status).toBe(403);
    const operator = await tokenFor('otto', ['ops']);
    expect((await fetch(`${proxy.url}/status.json`, { headers: { authorization: `Bearer ${operator}` } })).status).toBe(200);
  });

  it('takes a session from its owner once the token maps to another profile (404: the client starts a new one)', async () => {
    const opened = await post(await tokenFor('hugo', ['guests']));
    const session = opened.headers.get('mcp-session-id') ?? '';
    const list = async (token: string): Promise<number> =>
      (
        await fetch(`${proxy.url}/mcp`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: ACCEPT_BOTH, authorization: `Bearer ${token}`, 'mcp-session-id': session, 'mcp-protocol-version': PROTOCOL_VERSION },
          body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list' }),
        })
      ).status;
    expect(await list(await tokenFor('hugo', ['guests']))).toBe(200);
    expect(await list(await tokenFor('hugo', ['staff']))).toBe(404);
  });

  it('serves the legacy SSE door with one token for its stream and its messages', async () => {
    const token = await tokenFor('sally', [], `${proxy.url}/sse`);
    const headers = { authorization: `Bearer ${token}` };
    const client = new Client({ name: 'oauth-sse', version: '1' });
    await client.connect(new SSEClientTransport(new URL(`${proxy.url}/sse`), { requestInit: { headers }, eventSourceInit: { fetch: (url, init) => fetch(url, { ...init, headers: { ...Object.fromEntries(new Headers(init?.headers).entries()), ...headers } }) } }));
    clients.push(client);
    expect(textOf(await client.callTool({ name: 'fx__echo', arguments: { text: 'over sse' } }))).toBe('over sse');
  });

  it('does not take a Host naming another port as its own URL (a token for another local service stays foreign)', async () => {
    const port = Number(new URL(proxy.url).port);
    const foreign = await tokenFor('ivan', [], `http://127.0.0.1:${port + 1}/mcp`);
    const status = await new Promise<number>((resolve, reject) => {
      const request = http.request({ host: '127.0.0.1', port, path: '/mcp', method: 'POST', headers: { host: `127.0.0.1:${port + 1}`, authorization: `Bearer ${foreign}`, 'content-type': 'application/json', accept: ACCEPT_BOTH } }, (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      });
      request.on('error', reject);
      request.end(JSON.stringify(initialize()));
    });
    expect(status).toBe(401);
  });

  it('closes a WebSocket session when the token that opened it expires', async () => {
    const token = await idp.sign(claims({ sub: 'wendy', aud: `${proxy.url}/ws`, exp: Math.floor(Date.now() / 1000) + 2 }));
    const ws = new WebSocket(`${proxy.url.replace('http', 'ws')}/ws`, 'mcp', { headers: { authorization: `Bearer ${token}` } });
    const closed = await new Promise<{ code: number; reason: string }>((resolve, reject) => {
      ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() }));
      ws.once('error', reject);
    });
    expect(closed).toEqual({ code: 1008, reason: 'access token expired' });
  });

  /** 'ended' when the response's body ends within 10 s (a token's expiry of 3 s, and slack), else 'still open'. */
  const endOf = async (reply: Response): Promise<'ended' | 'still open'> => {
    const reader = reply.body!.getReader();
    const drained = (async (): Promise<'ended'> => {
      while (!(await reader.read()).done);
      return 'ended';
    })();
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<'still open'>((resolve) => (timer = setTimeout(() => resolve('still open'), 10_000)));
    const result = await Promise.race([drained, deadline]);
    clearTimeout(timer);
    if (result !== 'ended') await reader.cancel();
    return result;
  };

  it('ends the standing GET stream of a Streamable HTTP session when the token that opened it expires', async () => {
    const token = await idp.sign(claims({ sub: 'gail', exp: Math.floor(Date.now() / 1000) + 3 }));
    const opened = await post(token);
    expect(opened.status).toBe(200);
    await opened.body?.cancel();
    const stream = await fetch(`${proxy.url}/mcp`, {
      headers: { accept: 'text/event-stream', authorization: `Bearer ${token}`, 'mcp-session-id': opened.headers.get('mcp-session-id') ?? '', 'mcp-protocol-version': PROTOCOL_VERSION },
    });
    expect(stream.status).toBe(200);
    expect(await endOf(stream)).toBe('ended');
  });

  it('ends a legacy SSE session when the token that opened it expires', async () => {
    const token = await idp.sign(claims({ sub: 'sid', aud: `${proxy.url}/sse`, exp: Math.floor(Date.now() / 1000) + 3 }));
    const stream = await fetch(`${proxy.url}/sse`, { headers: { accept: 'text/event-stream', authorization: `Bearer ${token}` } });
    expect(stream.status).toBe(200);
    expect(await endOf(stream)).toBe('ended');
  });

  it('accepts an access token on the WebSocket door, and answers a missing one with the same challenge', async () => {
    const token = await tokenFor('walt', [], `${proxy.url}/ws`);
    const ws = new WebSocket(`${proxy.url.replace('http', 'ws')}/ws`, 'mcp', { headers: { authorization: `Bearer ${token}` } });
    const answer = await new Promise<Record<string, unknown>>((resolve, reject) => {
      ws.once('open', () => ws.send(JSON.stringify(initialize())));
      ws.once('message', (data) => resolve(JSON.parse(String(data)) as Record<string, unknown>));
      ws.once('error', reject);
    });
    ws.close();
    expect(answer).toMatchObject({ id: 1, result: { protocolVersion: PROTOCOL_VERSION } });
    const refused = new WebSocket(`${proxy.url.replace('http', 'ws')}/ws`, 'mcp');
    const response = await new Promise<{ status: number | undefined; challenge: string | string[] | undefined }>((resolve) => {
      refused.once('unexpected-response', (_req, res) => resolve({ status: res.statusCode, challenge: res.headers['www-authenticate'] }));
      refused.once('error', () => resolve({ status: undefined, challenge: undefined }));
    });
    expect(response.status).toBe(401);
    expect(String(response.challenge)).toContain(`/.well-known/oauth-protected-resource/ws"`);
  });

  it('never writes a token into its log, and names the identity there', async () => {
    const { text: log, client } = await logThrough(proxy, logFile, STATIC);
    clients.push(client);
    expect(log).toContain('oauth:alice');
    for (const token of [...tokensSeen, STATIC]) {
      expect(log).not.toContain(token);
      expect(log).not.toContain(token.split('.')[2] ?? token);
    }
  });

  it('keeps access-token sessions and their profile across a reload, and closes them when the mapping changed', async () => {
    const guest = await connect(proxy, { token: await tokenFor('gina', ['guests']) });
    clients.push(guest);
    let changed = 0;
    guest.setNotificationHandler(ToolListChangedNotificationSchema, () => void (changed += 1));
    expect((await listAllTools(guest)).map((tool) => tool.name).every((name) => name.startsWith('two__'))).toBe(true);
    // The profile `narrow` now shows fx too: the guest's session keeps its profile and sees it.
    proxy.reload(reloaded({ narrow: { tools: { allow: ['fx__*', 'two__*'] } } }, { guests: 'narrow' }));
    await waitFor(() => changed > 0, 5_000, 'list_changed for the guest');
    expect((await listAllTools(guest)).map((tool) => tool.name)).toContain('fx__echo');
    // Guests now map elsewhere: the session closes, and the client signs in again for a new view.
    proxy.reload(reloaded({ narrow: { tools: { allow: ['two__*'] } } }, { guests: null }));
    await expect(guest.listTools()).rejects.toThrow();
    proxy.reload(reloaded({ narrow: { tools: { allow: ['two__*'] } } }, { guests: 'narrow' }));
  });

  it('answers 503 with Retry-After, not 401, while the provider cannot be reached to check a new key', async () => {
    const token = await idp.sign(claims({ sub: 'late' }), { kid: 'a-key-nobody-published' });
    await idp.close();
    // Within the cooldown the proxy would not ask the provider at all (and answer 401).
    await outlast(1100, 'jwksCooldownMs');
    const reply = await post(token);
    expect(reply.status).toBe(503);
    expect(reply.headers.get('retry-after')).toBe('10');
    expect(reply.headers.get('www-authenticate')).toBeNull();
  });

  /** The test's config with other profiles and claim mapping. */
  function reloaded(profiles: Record<string, unknown>, mapping: Record<string, string | null>): ReturnType<typeof resolveConfig> {
    return resolveConfig(
      {
        listen: { host: '127.0.0.1', port: 0 },
        mcpServers: { fx: fixture('fx'), two: fixture('two') },
        profiles,
        auth: {
          tokens: [{ name: 'ci', tokenEnv: 'SB_TEST_OAUTH_STATIC' }],
          oauth: { issuer: idp.issuer, requiredScopes: ['mcp'], profileClaim: 'groups', profiles: mapping, adminValues: ['ops'], jwksCooldownMs: 1000, clockSkewSeconds: 0 },
        },
      },
      { file: '<inline>', dir: ROOT },
      { ...process.env, SB_TEST_OAUTH_STATIC: STATIC },
    );
  }

  /** The claims signed with a key of our own under the provider's current key id. */
  async function forged(payload: Record<string, unknown>): Promise<string> {
    const real = await idp.sign(claims());
    const { privateKey } = await generateKeyPair('RS256');
    return new SignJWT(payload).setProtectedHeader({ alg: 'RS256', kid: decodeProtectedHeader(real).kid ?? '' }).sign(privateKey);
  }

  function unsigned(payload: Record<string, unknown>): string {
    const part = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');
    return `${part({ alg: 'none', typ: 'JWT' })}.${part(payload)}.`;
  }
});
