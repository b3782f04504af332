// Several instances behind one balancer: every session id starts with its instance's name, so a
// request that reaches another instance is answered 404 at once, saying which instance it belongs to.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { RunningSwitchboard } from '../../src/index.js';
import { ACCEPT_BOTH, PROTOCOL_VERSION, ROOT, fixture, rawSession, startProxy, textOf } from './helpers.js';

const MCP_REMOTE = path.join(ROOT, 'node_modules/mcp-remote/dist/proxy.js');

describe('instance names in session ids', () => {
  let east: RunningSwitchboard;
  let west: RunningSwitchboard;

  beforeAll(async () => {
    [east, west] = await Promise.all([
      startProxy({ instance: 'east', mcpServers: { fx: fixture('fx') } }),
      startProxy({ instance: 'west', mcpServers: { fx: fixture('fx') } }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([east?.close(), west?.close()]);
  });

  it('starts every session id with the instance name, and reports the name in /status.json', async () => {
    const session = await rawSession(east);
    expect(session).toMatch(/^east\.[A-Za-z0-9_-]{22}$/);
    const status = (await (await fetch(`${east.url}/status.json`)).json()) as { instance: string };
    expect(status.instance).toBe('east');
  });

  it('answers a session of another instance 404, naming both, on Streamable HTTP and on the legacy SSE door', async () => {
    const session = await rawSession(east);
    const astray = await fetch(`${west.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: ACCEPT_BOTH, 'mcp-session-id': session, 'mcp-protocol-version': PROTOCOL_VERSION },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(astray.status).toBe(404);
    const message = ((await astray.json()) as { error: { message: string } }).error.message;
    expect(message).toContain('opened on instance east, and this is west');
    const legacy = await fetch(`${west.url}/messages?sessionId=${encodeURIComponent(session)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(legacy.status).toBe(404);
    expect(((await legacy.json()) as { error: { message: string } }).error.message).toContain('instance east');
    // A made-up id of this very instance is just unknown.
    const unknown = await fetch(`${west.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: ACCEPT_BOTH, 'mcp-session-id': 'west.nothing', 'mcp-protocol-version': PROTOCOL_VERSION },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(((await unknown.json()) as { error: { message: string } }).error.message).toBe('Session not found');
  });

  it('refuses a stateless retry whose requestState another instance minted, naming it, instead of running the request again', async () => {
    const retry = (state: string): Promise<Response> =>
      fetch(`${west.url}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: ACCEPT_BOTH, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'fx__echo' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 9,
          method: 'tools/call',
          params: {
            name: 'fx__echo',
            arguments: { text: 'must not run' },
            requestState: state,
            inputResponses: {},
            _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} },
          },
        }),
      });
    const astray = (await (await retry('switchboard.east.AbCdEfGh.c3RhdGU')).json()) as { id: number; error?: { code: number; message: string }; result?: unknown };
    expect(astray.result).toBeUndefined();
    expect(astray.error?.code).toBe(-32602);
    expect(astray.error?.message).toContain('belongs to instance east, and this is west');
  });

  it("leaves a fail-over to the application with the SDK's client: a request after it gets 404, the client keeps its dead session, and a new connection works", async () => {
    // The balancer: every request of the client goes to `behind`, as a load balancer would send it.
    let behind = east.url;
    const balanced: typeof fetch = (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      return fetch(`${behind}${url.pathname}${url.search}`, init);
    };
    const open = async (): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> => {
      const transport = new StreamableHTTPClientTransport(new URL('http://balancer.invalid/mcp'), { fetch: balanced });
      const client = new Client({ name: 'failover', version: '1.0.0' });
      await client.connect(transport);
      return { client, transport };
    };
    const first = await open();
    const opened = first.transport.sessionId;
    expect(opened).toMatch(/^east\./);
    expect(textOf(await first.client.callTool({ name: 'fx__echo', arguments: { text: 'east' } }))).toBe('east');

    behind = west.url; // east went away; the balancer sends the session's requests to west
    for (let attempt = 0; attempt < 2; attempt++) {
      // Every request fails the same way: @modelcontextprotocol/sdk 1.x does not start a new session by itself.
      const failed = await first.client.callTool({ name: 'fx__echo', arguments: { text: 'west?' } }).then(() => undefined, (error: unknown) => error);
      expect(failed).toBeInstanceOf(StreamableHTTPError);
      expect((failed as StreamableHTTPError).code).toBe(404);
      expect(String(failed)).toContain('opened on instance east, and this is west');
      expect(first.transport.sessionId).toBe(opened);
    }
    await first.client.close();

    // What the application does on 404 for its session: connect again (a new initialize, no session id).
    const second = await open();
    expect(second.transport.sessionId).toMatch(/^west\./);
    expect(textOf(await second.client.callTool({ name: 'fx__echo', arguments: { text: 'west' } }))).toBe('west');
    await second.client.close();
  });

  it('sees mcp-remote (the stdio bridge) start a new session by itself after a fail-over, and the call that met the 404 answered', async () => {
    // A balancer on loopback that forwards every request, streams included, to `behind`.
    const north = await startProxy({ instance: 'north', mcpServers: { fx: fixture('fx') } });
    let behind = new URL(north.url);
    const balancer = http.createServer((req, res) => {
      const forward = http.request({ host: behind.hostname, port: behind.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      forward.on('error', () => res.destroy());
      req.pipe(forward);
    });
    await new Promise<void>((resolve) => balancer.listen(0, '127.0.0.1', resolve));
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-failover-home-'));
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [MCP_REMOTE, `http://127.0.0.1:${(balancer.address() as AddressInfo).port}/mcp`, '--transport', 'http-only'],
      env: { ...process.env, HOME: home, MCP_REMOTE_CONFIG_DIR: path.join(home, '.mcp-auth') } as Record<string, string>,
      stderr: 'pipe',
    });
    let said = '';
    transport.stderr?.on('data', (chunk: Buffer) => (said += chunk.toString('utf8')));
    const client = new Client({ name: 'bridged', version: '1.0.0' });
    try {
      await client.connect(transport, { timeout: 15_000 });
      expect(textOf(await client.callTool({ name: 'fx__whoami', arguments: {} }, undefined, { timeout: 10_000 }))).toContain('fx');
      await north.close(); // the instance is gone; the balancer sends the session's requests to west
      behind = new URL(west.url);
      const result = await client.callTool({ name: 'fx__echo', arguments: { text: 'after fail-over' } }, undefined, { timeout: 10_000 });
      expect(textOf(result), said).toBe('after fail-over');
      expect(said).toContain('Remote session expired, re-initializing');
    } finally {
      await Promise.race([client.close().catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 5_000))]);
      await north.close();
      const closed = new Promise((resolve) => balancer.close(resolve));
      balancer.closeAllConnections();
      await closed;
      fs.rmSync(home, { recursive: true, force: true });
    }
  });
});
