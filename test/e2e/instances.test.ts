// Several instances behind one balancer: every session id starts with its instance's name, so a
// request that reaches another instance is answered 404 at once, saying which instance it belongs to.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSwitchboard } from '../../src/index.js';
import { ACCEPT_BOTH, PROTOCOL_VERSION, fixture, rawSession, startProxy } from './helpers.js';

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
});
