// Rate limits of one instance: a token over its rate gets HTTP 429 with Retry-After on Streamable
// HTTP and the stateless era, a JSON-RPC error naming the limit on WebSocket; another token is
// served meanwhile; tool globs limit their tools only; a reload changes the limits in place.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { once } from 'node:events';
import WebSocket from 'ws';
import type { RunningSwitchboard } from '../../src/index.js';
import { resolveConfig } from '../../src/config/load.js';
import { ErrorCode } from '../../src/jsonrpc/messages.js';
import { PROTOCOL_VERSION, ROOT, connect, fixture, rawPost, responseOf, startProxy, textOf } from './helpers.js';

const ALICE = 'alice-token-rate-0123456789ab';
const BOB = 'bob-token-rate-0123456789abcd';
const ENV = { ...process.env, SB_RATE_ALICE: ALICE, SB_RATE_BOB: BOB };
/** A rate this slow never refills within a test: a bucket holds exactly its burst. */
const NEVER = 0.0001;

function rawConfig(limits: Record<string, unknown>): Record<string, unknown> {
  return {
    mcpServers: { fx: fixture('fx') },
    limits,
    auth: { tokens: [{ name: 'alice', tokenEnv: 'SB_RATE_ALICE' }, { name: 'bob', tokenEnv: 'SB_RATE_BOB', profile: 'ci' }] },
    profiles: { ci: { tools: { allow: ['fx__*'] } } },
  };
}

let proxy: RunningSwitchboard;

beforeAll(async () => {
  proxy = await startProxy(rawConfig({ identity: { rate: NEVER, burst: 4 }, profiles: { ci: { rate: NEVER, burst: 50 } }, tools: { 'fx__sl*': { rate: NEVER, burst: 1 } } }), { env: ENV });
});
afterAll(async () => {
  await proxy?.close();
});

const call = (token: string, sessionId: string, id: number, name = 'fx__echo') =>
  rawPost(proxy, { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: { text: `call ${id}` } } }, { sessionId, headers: { authorization: `Bearer ${token}` } });

async function openSession(token: string): Promise<string> {
  const init = await rawPost(proxy, { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'rate', version: '1' } } }, { headers: { authorization: `Bearer ${token}` } });
  const id = init.headers.get('mcp-session-id');
  if (id === null) throw new Error(`initialize answered ${init.status}: ${init.text}`);
  await rawPost(proxy, { jsonrpc: '2.0', method: 'notifications/initialized' }, { sessionId: id, headers: { authorization: `Bearer ${token}` } });
  return id;
}

describe('rate limits of one instance', () => {
  it("answers a token over its rate 429 with Retry-After and the limit, while another token's calls are served", async () => {
    // initialize took alice's first token; three calls take the rest.
    const alice = await openSession(ALICE);
    for (let i = 1; i <= 3; i++) expect(responseOf(await call(ALICE, alice, i)).result).toBeDefined();
    const refused = await call(ALICE, alice, 4);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(60);
    const error = responseOf(refused).error as { code: number; message: string; data: { limit: string; retryAfterSeconds: number } };
    expect(error.code).toBe(ErrorCode.RateLimited);
    expect(error.message).toMatch(/^rate limit reached \(identity\); retry in \d+ s$/);
    expect(error.data.limit).toBe('identity');
    expect(String(error.data.retryAfterSeconds)).toBe(refused.headers.get('retry-after'));
    // Bob's profile gives him a bucket of his own: the SDK client is served as if nothing happened.
    const bob = await connect(proxy, { token: BOB });
    try {
      for (let i = 0; i < 5; i++) expect(textOf(await bob.callTool({ name: 'fx__echo', arguments: { text: `bob ${i}` } }))).toBe(`bob ${i}`);
      // A tool glob limits its tools only: one slow call, then the glob's bucket is empty.
      await bob.callTool({ name: 'fx__slow', arguments: { ms: 1, steps: 1 } });
      const slow = bob.callTool({ name: 'fx__slow', arguments: { ms: 1, steps: 1 } });
      await expect(slow).rejects.toMatchObject({ code: 429, message: expect.stringContaining('rate limit reached (tool fx__sl*)') });
      expect(textOf(await bob.callTool({ name: 'fx__echo', arguments: { text: 'still' } }))).toBe('still');
    } finally {
      await bob.close();
    }
    const metrics = await (await fetch(`${proxy.url}/metrics`, { headers: { authorization: `Bearer ${ALICE}` } })).text();
    expect(metrics).toMatch(/switchboard_rate_limited_total\{limit="identity"\} 1\b/);
    expect(metrics).toMatch(/switchboard_rate_limited_total\{limit="tool fx__sl\*"\} 1\b/);
  });

  it('answers with the JSON-RPC error on WebSocket, and with 429 to a stateless request', async () => {
    // Alice's bucket is empty since the first test: nothing refills it, not even for an initialize.
    const socket = new WebSocket(`${proxy.url.replace('http', 'ws')}/ws`, 'mcp', { headers: { authorization: `Bearer ${ALICE}` } });
    try {
      await once(socket, 'open');
      socket.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'ws-rate', version: '1' } } }));
      const [data] = (await once(socket, 'message')) as [Buffer];
      const answer = JSON.parse(data.toString()) as { id: number; error: { code: number; message: string; data: { limit: string } } };
      expect(answer.id).toBe(1);
      expect(answer.error.code).toBe(ErrorCode.RateLimited);
      expect(answer.error.message).toContain('rate limit reached (identity)');
      expect(answer.error.data.limit).toBe('identity');
    } finally {
      socket.close();
    }

    const stateless = await rawPost(
      proxy,
      {
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: {
          name: 'fx__echo',
          arguments: { text: 'x' },
          _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '0' } },
        },
      },
      { headers: { authorization: `Bearer ${ALICE}`, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'fx__echo' } },
    );
    expect(stateless.status).toBe(429);
    expect(stateless.headers.get('retry-after')).not.toBeNull();
    expect((responseOf(stateless).error as { code: number }).code).toBe(ErrorCode.RateLimited);
  });

  it('takes a reloaded limit at once, without a restart', async () => {
    const diff = proxy.reload(resolveConfig({ listen: { host: '127.0.0.1', port: 0 }, ...rawConfig({ identity: { rate: 1000, burst: 1000 } }), sanitize: { log: proxy.core.config.sanitize.log, pins: proxy.core.config.sanitize.pins } }, { file: '<inline>', dir: ROOT }, ENV));
    expect(diff.needsRestart).toEqual([]);
    // Alice's bucket keeps its level but refills at the new rate.
    const alice = await openSession(ALICE);
    expect(responseOf(await call(ALICE, alice, 1)).result).toBeDefined();
  });
});
