// Team sharing: bearer tokens bound to profiles, URL filters that only narrow, sessions bound to
// the identity that opened them, and no token value in any log.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import WebSocket from 'ws';
import type { RunningSwitchboard } from '../../src/index.js';
import { CLI, ACCEPT_BOTH, PROTOCOL_VERSION, ROOT, connect, fixture, listAllTools, logThrough, rawPost, responseOf, startProxy, textOf, waitFor } from './helpers.js';

const run = promisify(execFile);
const ALICE = `alice-${randomBytes(18).toString('base64url')}`;
const BOB = `bob-${randomBytes(18).toString('base64url')}`;
const CAROL = `carol-${randomBytes(18).toString('base64url')}`;
const DAVE = `dave-${randomBytes(18).toString('base64url')}`;

const CONFIG = {
  mcpServers: { fx: fixture('fx'), two: fixture('two') },
  profiles: {
    // alice: every fx tool but the slow one, and only the greet prompt.
    reader: { tools: { allow: ['fx__*'], deny: ['fx__slow'] }, prompts: { allow: ['fx__greet'] } },
    // bob: the second server and one tool of the first.
    writer: { tools: { allow: ['two__*', 'fx__echo'] }, servers: { deny: [] } },
    // carol: the budget keeps the first three allowed tools in config order.
    tight: { tools: { allow: ['fx__*'] }, maxTools: 3 },
  },
  auth: {
    tokens: [
      { name: 'alice', tokenEnv: 'SB_TEST_TOKEN_ALICE', profile: 'reader' },
      { name: 'bob', tokenEnv: 'SB_TEST_TOKEN_BOB', profile: 'writer' },
      { name: 'carol', tokenEnv: 'SB_TEST_TOKEN_CAROL', profile: 'tight' },
      // No profile: sees everything, and may read the operations endpoints.
      { name: 'dave', tokenEnv: 'SB_TEST_TOKEN_DAVE' },
    ],
  },
};
const ENV = { ...process.env, SB_TEST_TOKEN_ALICE: ALICE, SB_TEST_TOKEN_BOB: BOB, SB_TEST_TOKEN_CAROL: CAROL, SB_TEST_TOKEN_DAVE: DAVE };

const names = (tools: Array<{ name: string }>): string[] => tools.map((t) => t.name).sort();

describe('profiles, tokens and URL filters', () => {
  let proxy: RunningSwitchboard;
  const clients: Client[] = [];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-access-'));
  const logFile = path.join(dir, 'proxy.log');
  const open = async (token: string, query = ''): Promise<Client> => {
    const client = await connect(proxy, { token, path: `/mcp${query}` });
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    proxy = await startProxy(CONFIG, { env: ENV, logFile });
  });
  afterAll(async () => {
    await Promise.allSettled(clients.map((c) => c.close()));
    await proxy?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('shows each token its own profile, and the full list to nobody', async () => {
    const [alice, bob] = await Promise.all([open(ALICE), open(BOB)]);
    const aliceTools = names(await listAllTools(alice));
    const bobTools = names(await listAllTools(bob));
    expect(aliceTools.length).toBeGreaterThan(5);
    expect(aliceTools.every((n) => n.startsWith('fx__'))).toBe(true);
    expect(aliceTools).toContain('fx__echo');
    expect(aliceTools).not.toContain('fx__slow');
    expect(bobTools).toContain('fx__echo');
    expect(bobTools.filter((n) => n.startsWith('fx__'))).toEqual(['fx__echo']);
    expect(bobTools.filter((n) => n.startsWith('two__')).length).toBeGreaterThan(5);
    const alicePrompts = (await alice.listPrompts()).prompts.map((p) => p.name);
    expect(alicePrompts).toEqual(['fx__greet']);
  });

  it("cannot call another profile's tools: they are as unknown as tools that do not exist", async () => {
    const [alice, bob] = await Promise.all([open(ALICE), open(BOB)]);
    expect(textOf(await alice.callTool({ name: 'fx__echo', arguments: { text: 'hi alice' } }))).toBe('hi alice');
    const refusedMessage = async (client: Client, name: string): Promise<string> => {
      const error = await client.callTool({ name, arguments: { text: 'x' } }).then(
        () => undefined,
        (e: unknown) => e as { code?: number; message: string },
      );
      expect(error?.code).toBe(-32602);
      return (error?.message ?? '').replace(name, '<name>');
    };
    const outsideView = await refusedMessage(alice, 'two__echo');
    const nowhere = await refusedMessage(alice, 'two__no_such_tool');
    expect(outsideView).toBe(nowhere);
    await refusedMessage(alice, 'fx__slow');
    await refusedMessage(bob, 'fx__whoami');
    await expect(alice.getPrompt({ name: 'fx__plain' })).rejects.toThrow(/Unknown prompt/);
  });

  it('lets a query narrow a token’s view but never widen it', async () => {
    const echoOnly = await open(ALICE, '?tools=fx__echo,fx__whoami');
    expect(names(await listAllTools(echoOnly))).toEqual(['fx__echo', 'fx__whoami']);
    // two__* is outside alice's profile: asking for it yields nothing, not bob's tools.
    const widen = await open(ALICE, '?tools=two__*');
    expect(await listAllTools(widen)).toEqual([]);
    await expect(widen.callTool({ name: 'two__echo', arguments: { text: 'x' } })).rejects.toThrow(/Unknown tool/);
    // ?profile= intersects: reader ∩ writer = fx__echo.
    const both = await open(ALICE, '?profile=writer');
    expect(names(await listAllTools(both))).toEqual(['fx__echo']);
    // A deny in the token's profile survives a query that names the tool.
    const slow = await open(ALICE, '?tools=fx__slow');
    expect(await listAllTools(slow)).toEqual([]);
  });

  it('answers 400 for an unknown ?profile= and a malformed ?tools=', async () => {
    const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'q', version: '0' } } };
    const auth = { authorization: `Bearer ${ALICE}` };
    const unknown = await rawPost(proxy, init, { path: '/mcp?profile=nope', headers: auth });
    expect(unknown.status).toBe(400);
    expect(responseOf(unknown).error.message).toMatch(/unknown profile/);
    const empty = await rawPost(proxy, init, { path: '/mcp?tools=fx__echo,,', headers: auth });
    expect(empty.status).toBe(400);
  });

  it('keeps the tools of a budgeted profile in config order up to maxTools', async () => {
    const carol = await open(CAROL);
    // The fixture lists echo, whoami, slow, crash, ... in that order.
    expect((await listAllTools(carol)).map((t) => t.name)).toEqual(['fx__echo', 'fx__whoami', 'fx__slow']);
    await expect(carol.callTool({ name: 'fx__crash', arguments: {} })).rejects.toThrow(/Unknown tool/);
    await waitFor(() => fs.readFileSync(logFile, 'utf8').includes('tool budget reached'), 5_000, 'budget log line');
  });

  it('answers 401 without a valid token, and 404 to a token presenting another identity’s session', async () => {
    const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'raw', version: '0' } } };
    const missing = await rawPost(proxy, init);
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toMatch(/^Bearer realm=/);
    const wrong = await rawPost(proxy, init, { headers: { authorization: `Bearer ${ALICE}x` } });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toMatch(/invalid_token/);

    const opened = await rawPost(proxy, init, { headers: { authorization: `Bearer ${ALICE}` } });
    expect(opened.status).toBe(200);
    const sessionId = opened.headers.get('mcp-session-id') as string;
    const call = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'fx__echo', arguments: { text: 'mine' } } };
    const asBob = await rawPost(proxy, call, { sessionId, headers: { authorization: `Bearer ${BOB}` } });
    expect(asBob.status).toBe(404);
    const asAlice = await rawPost(proxy, call, { sessionId, headers: { authorization: `Bearer ${ALICE}` } });
    expect(responseOf(asAlice).result.content[0].text).toBe('mine');
    // Same rule on the other doors: a legacy SSE POST and a WebSocket upgrade need the token too.
    const sse = await fetch(`${proxy.url}/sse`, { headers: { accept: 'text/event-stream' } });
    expect(sse.status).toBe(401);
    await sse.body?.cancel();
    const ws = await fetch(`${proxy.url}/ws`, { headers: { accept: ACCEPT_BOTH, authorization: `Bearer ${BOB}` } });
    expect(ws.status).toBe(426);
  });

  it('tells only the sessions whose view changed when a server’s list changes', async () => {
    const alice = await open(ALICE);
    const bob = await open(BOB);
    let aliceNotified = 0;
    let bobNotified = 0;
    alice.setNotificationHandler(ToolListChangedNotificationSchema, () => void (aliceNotified += 1));
    bob.setNotificationHandler(ToolListChangedNotificationSchema, () => void (bobNotified += 1));
    // fx__late is in alice's fx__* but outside bob's two__* + fx__echo.
    expect(textOf(await alice.callTool({ name: 'fx__add_tool', arguments: { name: 'late' } }))).toBe('added late');
    await waitFor(() => aliceNotified > 0, 5_000, 'list_changed for alice');
    expect(names(await listAllTools(alice))).toContain('fx__late');
    // bob's view did not change. A barrier instead of a pause: a change inside bob's view, made after
    // it, reaches bob on the same stream, after any stray notification for the first.
    expect(textOf(await bob.callTool({ name: 'two__add_tool', arguments: { name: 'late_for_bob' } }))).toBe('added late_for_bob');
    await waitFor(() => bobNotified > 0, 5_000, 'list_changed for bob');
    expect(bobNotified).toBe(1);
    expect(names(await listAllTools(bob))).toContain('two__late_for_bob');
    expect(names(await listAllTools(bob))).not.toContain('fx__late');
  });

  it('authenticates WebSocket upgrades and gives the session its token’s view', async () => {
    const refused = await new Promise<number>((resolve) => {
      const ws = new WebSocket(`${proxy.url.replace('http', 'ws')}/ws`, 'mcp');
      ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.on('open', () => resolve(101));
      ws.on('error', () => undefined);
    });
    expect(refused).toBe(401);
    const ws = new WebSocket(`${proxy.url.replace('http', 'ws')}/ws?tools=two__echo`, 'mcp', { headers: { authorization: `Bearer ${BOB}` } });
    const replies = new Map<number, Record<string, any>>();
    ws.on('message', (data) => {
      const message = JSON.parse(String(data)) as Record<string, any>;
      if (typeof message.id === 'number') replies.set(message.id, message);
    });
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'ws', version: '0' } } }));
    ws.send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    ws.send(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }));
    const listed = await waitFor(() => replies.get(2), 5_000, 'tools/list over WebSocket');
    ws.close();
    expect(listed.result.tools.map((t: { name: string }) => t.name)).toEqual(['two__echo']);
  });

  it('shows operations data only to a token without a profile, and no server names to strangers', async () => {
    const get = (path: string, token?: string) => fetch(`${proxy.url}${path}`, { headers: token === undefined ? {} : { authorization: `Bearer ${token}` } });
    expect((await get('/status.json')).status).toBe(401);
    expect((await get('/status.json', ALICE)).status).toBe(403);
    expect((await get('/metrics', ALICE)).status).toBe(403);
    expect((await get('/status.json', DAVE)).status).toBe(200);
    // /readyz: the verdict for anyone, the per-server detail only for an unrestricted token.
    const anonymous = (await (await get('/readyz')).json()) as Record<string, unknown>;
    expect(anonymous).toEqual({ ready: true });
    expect(await (await get('/readyz', ALICE)).json()).toEqual({ ready: true });
    const detailed = (await (await get('/readyz', DAVE)).json()) as { servers?: Record<string, unknown> };
    expect(Object.keys(detailed.servers ?? {}).sort()).toEqual(['fx', 'two']);
    // Existing and made-up per-server paths look the same without a token, whatever the door or method.
    expect((await get('/s/fx/mcp')).status).toBe(401);
    expect((await get('/s/no-such-server/mcp')).status).toBe(401);
    expect((await get('/s/fx/ws')).status).toBe(401);
    expect((await get('/s/no-such-server/ws')).status).toBe(401);
    const preflight = async (path: string) => {
      const reply = await fetch(`${proxy.url}${path}`, { method: 'OPTIONS', headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST' } });
      return [reply.status, reply.headers.get('access-control-allow-methods'), await reply.text()];
    };
    expect(await preflight('/s/fx/mcp')).toEqual(await preflight('/s/no-such-server/mcp'));
    expect((await preflight('/s/fx/mcp'))[0]).toBe(204);
    expect((await get('/s/no-such-server/mcp', DAVE)).status).toBe(404);
  });

  it('never writes a token value to its log', async () => {
    // Every test above ran against this proxy with a debug-level log.
    const { text, client } = await logThrough(proxy, logFile, DAVE);
    clients.push(client);
    expect(text).toContain('session opened');
    for (const token of [ALICE, BOB, CAROL, DAVE]) expect(text.includes(token)).toBe(false);
  });
});

describe('listening off loopback', () => {
  it('refuses to start without tokens, in one line naming the problem', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-open-'));
    const file = path.join(dir, 'open.json');
    fs.writeFileSync(file, JSON.stringify({ listen: { host: '0.0.0.0', port: 0 }, mcpServers: { fx: fixture('fx') } }));
    const failure = await run(process.execPath, [...CLI, 'start', '-c', file], { cwd: ROOT, timeout: 20_000 }).then(
      () => undefined,
      (e: unknown) => e as { code: number; stderr: string },
    );
    fs.rmSync(dir, { recursive: true, force: true });
    expect(failure?.code).toBe(2);
    expect(failure?.stderr.trim().split('\n')).toHaveLength(1);
    expect(failure?.stderr).toMatch(/listen\.host.*not loopback.*auth\.tokens/);
  });
});

describe('TLS', () => {
  it('serves HTTPS with the configured certificate and key', async () => {
    const tls = { cert: 'test/fixtures/tls/localhost.cert.pem', key: 'test/fixtures/tls/localhost.key.pem' };
    const proxy = await startProxy({ listen: { host: '127.0.0.1', port: 0, tls }, mcpServers: { fx: fixture('fx') } });
    try {
      expect(proxy.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      const ca = fs.readFileSync(path.join(ROOT, tls.cert));
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'tls', version: '0' } } });
      const reply = await new Promise<{ status: number; session: string | undefined; text: string }>((resolve, reject) => {
        const req = https.request(`${proxy.url}/mcp`, { method: 'POST', ca, headers: { 'content-type': 'application/json', accept: ACCEPT_BOTH } }, (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, session: res.headers['mcp-session-id'] as string | undefined, text }));
        });
        req.on('error', reject);
        req.end(body);
      });
      expect(reply.status).toBe(200);
      expect(reply.session).toBeTruthy();
      expect(reply.text).toContain('"protocolVersion"');
      // Plain HTTP on the same port is not served.
      await expect(fetch(`${proxy.url.replace('https', 'http')}/healthz`)).rejects.toThrow();
    } finally {
      await proxy.close();
    }
  });
});
