// A view that hides every tool of a server hides the server: its prompts, resources and templates
// on /mcp, and its own endpoint /s/<server>/… (404, as for a server that does not exist). A server
// with no tools at all stays in every view whose server rule admits it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import WebSocket from 'ws';
import type { RunningSwitchboard } from '../../src/index.js';
import { PROTOCOL_VERSION, connect, fixture, rawPost, startProxy } from './helpers.js';

const READER = `reader-${randomBytes(18).toString('base64url')}`;
const ADMIN = `admin-${randomBytes(18).toString('base64url')}`;

const CONFIG = {
  // The README's reader: tools of one server only, nothing said about servers.
  mcpServers: { alpha: fixture('alpha'), beta: fixture('beta'), docs: fixture('docs', {}, { FIXTURE_NO_TOOLS: '1' }) },
  profiles: { reader: { tools: { allow: ['alpha__echo', 'alpha__whoami'], deny: ['*__write_*'] } } },
  auth: {
    tokens: [
      { name: 'reader', tokenEnv: 'SB_TEST_TOKEN_READER', profile: 'reader' },
      { name: 'admin', tokenEnv: 'SB_TEST_TOKEN_ADMIN' },
    ],
  },
};
const ENV = { ...process.env, SB_TEST_TOKEN_READER: READER, SB_TEST_TOKEN_ADMIN: ADMIN };

const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '0' },
};
const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };

describe('servers a view hides', () => {
  let proxy: RunningSwitchboard;
  const clients: Client[] = [];
  const open = async (token: string, path = '/mcp'): Promise<Client> => {
    const client = await connect(proxy, { token, path });
    clients.push(client);
    return client;
  };
  const status = async (token: string, path: string): Promise<number> =>
    (await rawPost(proxy, initialize, { path, headers: { authorization: `Bearer ${token}` } })).status;

  beforeAll(async () => {
    proxy = await startProxy(CONFIG, { env: ENV });
  });
  afterAll(async () => {
    await Promise.allSettled(clients.map((c) => c.close()));
    await proxy?.close();
  });

  it("shows no prompt, resource or template of a server whose every tool the profile hides", async () => {
    const reader = await open(READER);
    expect((await reader.listTools()).tools.map((t) => t.name).sort()).toEqual(['alpha__echo', 'alpha__whoami']);
    expect((await reader.listPrompts()).prompts.map((p) => p.name)).toEqual(['alpha__greet', 'alpha__plain', 'docs__greet', 'docs__plain']);
    expect((await reader.listResources()).resources.map((r) => r.uri)).toEqual(['fixture://alpha/static', 'fixture://docs/static']);
    expect((await reader.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate)).toEqual(['fixture://alpha/item/{id}', 'fixture://docs/item/{id}']);
    await expect(reader.getPrompt({ name: 'beta__plain' })).rejects.toThrow();
    await expect(reader.readResource({ uri: 'fixture://beta/static' })).rejects.toThrow();
    // The server without tools is the reader's: its prompts work.
    expect((await reader.getPrompt({ name: 'docs__plain' })).messages.length).toBeGreaterThan(0);
    // A token that sees every tool sees every server.
    const admin = await open(ADMIN);
    expect((await admin.listPrompts()).prompts.map((p) => p.name)).toContain('beta__plain');
  });

  it("answers 404 on the endpoint of a hidden server, on every transport, as for an unknown one", async () => {
    expect(await status(READER, '/s/beta/mcp')).toBe(404);
    expect(await status(READER, '/s/no-such-server/mcp')).toBe(404);
    const sse = await fetch(`${proxy.url}/s/beta/sse`, { headers: { authorization: `Bearer ${READER}`, accept: 'text/event-stream' } });
    expect(sse.status).toBe(404);
    await sse.body?.cancel();
    const upgrade = (path: string) =>
      new Promise<number>((resolve) => {
        const ws = new WebSocket(`${proxy.url.replace(/^http/, 'ws')}${path}`, 'mcp', { headers: { authorization: `Bearer ${READER}` } });
        ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
        ws.on('open', () => {
          ws.close();
          resolve(101);
        });
        ws.on('error', () => undefined);
      });
    expect(await upgrade('/s/beta/ws')).toBe(404);
    expect(await upgrade('/s/alpha/ws')).toBe(101);
    // Stateless (2026-07-28) requests ask for a grant each time: the same answer.
    const stateless = (token: string, path: string) =>
      rawPost(proxy, { jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: MODERN_META } }, { path, headers: { authorization: `Bearer ${token}`, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' } });
    expect((await stateless(READER, '/s/beta/mcp')).status).toBe(404);
    expect((await stateless(READER, '/s/alpha/mcp')).status).toBe(200);
    await expect(open(READER, '/s/beta/mcp')).rejects.toThrow(/404|Not found/);
    // Its own servers' endpoints, and the tool-less server's, answer.
    expect(await status(READER, '/s/alpha/mcp')).toBe(200);
    const docs = await open(READER, '/s/docs/mcp');
    expect((await docs.listPrompts()).prompts.map((p) => p.name)).toEqual(['greet', 'plain']);
    expect(await status(ADMIN, '/s/beta/mcp')).toBe(200);
  });

  it('hides servers for a ?tools= narrowing the same way', async () => {
    const narrowed = await open(ADMIN, '/mcp?tools=beta__*');
    expect((await narrowed.listPrompts()).prompts.map((p) => p.name)).toEqual(['beta__greet', 'beta__plain', 'docs__greet', 'docs__plain']);
    expect(await status(ADMIN, '/s/alpha/mcp?tools=beta__*')).toBe(404);
  });
});
