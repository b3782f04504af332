// A child that hangs, crashes or prints garbage, and clients that send bad HTTP: errors, never hangs, never collateral damage.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RunningSwitchboard } from '../../src/index.js';
import {
  PROTOCOL_VERSION,
  connect,
  fixture,
  pidOf,
  rawPost,
  rawSession,
  responseOf,
  startProxy,
  textOf,
  waitFor,
  firstProgress,
} from './helpers.js';

const MAX_BODY = 65_536;

/** Calls a tool and settles with either its result or the JSON-RPC error it was rejected with. */
async function settle(promise: Promise<unknown>): Promise<{ result?: unknown; error?: McpError | Error }> {
  try {
    return { result: await promise };
  } catch (error) {
    return { error: error as Error };
  }
}

describe('faults of a child', () => {
  let proxy: RunningSwitchboard;
  let a: Client;
  let b: Client;

  beforeAll(async () => {
    proxy = await startProxy({
      mcpServers: { fixture: fixture('fixture', { timeoutMs: 1500 }) },
      limits: { maxBodyBytes: MAX_BODY },
    });
    [a, b] = await Promise.all([connect(proxy, { name: 'A' }), connect(proxy, { name: 'B' })]);
  });
  afterAll(async () => {
    await Promise.allSettled([a?.close(), b?.close()]);
    await proxy?.close();
  });

  it('hang: the caller gets a JSON-RPC timeout error while another session keeps working', async () => {
    const started = Date.now();
    // The SDK's own timeout (60 s) is far beyond the proxy's 1500 ms, so only the proxy can end this.
    const hang = settle(a.callTool({ name: 'fixture__hang', arguments: {} }, undefined, { timeout: 20_000 }));
    // B's calls go out while A's hang is held by the proxy, not before it arrives.
    await waitFor(() => proxy.core.inflightRequests() > 0, 10_000, "A's hang in flight");
    const echoes: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      echoes.push(textOf(await b.callTool({ name: 'fixture__echo', arguments: { text: `meanwhile ${i}` } })));
    }
    expect(echoes).toEqual([0, 1, 2, 3, 4].map((i) => `meanwhile ${i}`));
    const outcome = await hang;
    expect(outcome.result).toBeUndefined();
    expect(outcome.error).toBeInstanceOf(McpError);
    const error = outcome.error as McpError;
    expect(error.message).toMatch(/fixture/);
    expect(error.message).toMatch(/time|within/i);
    // Waited at least the configured timeout, and was answered well before the SDK's own 20 s limit.
    expect(Date.now() - started).toBeGreaterThanOrEqual(1400);
    expect(Date.now() - started).toBeLessThan(10_000);
    // The session still works after its timeout.
    expect(textOf(await a.callTool({ name: 'fixture__echo', arguments: { text: 'after hang' } }))).toBe('after hang');
  });

  it('crash: in-flight calls fail naming the server, other sessions recover, the child restarts with a new pid', async () => {
    const before = pidOf(await b.callTool({ name: 'fixture__whoami', arguments: {} }));
    // B has a call in flight on the same child when it dies.
    const progress = firstProgress();
    const bSlow = settle(b.callTool({ name: 'fixture__slow', arguments: { ms: 10_000, steps: 20 } }, undefined, { timeout: 20_000, onprogress: progress.onprogress }));
    await progress.reached;
    const crash = await settle(a.callTool({ name: 'fixture__crash', arguments: {} }, undefined, { timeout: 20_000 }));
    expect(crash.result).toBeUndefined();
    expect(crash.error).toBeInstanceOf(McpError);
    expect(crash.error?.message).toMatch(/fixture/);

    const slowOutcome = await bSlow;
    expect(slowOutcome.result).toBeUndefined();
    expect(slowOutcome.error).toBeInstanceOf(McpError);
    expect(slowOutcome.error?.message).toMatch(/fixture/);

    const after = await waitFor(
      async () => {
        const result = await b.callTool({ name: 'fixture__whoami', arguments: {} }, undefined, { timeout: 10_000 });
        const pid = pidOf(result);
        return pid !== before ? pid : undefined;
      },
      20_000,
      'whoami to answer from a restarted child',
    );
    expect(after).not.toBe(before);
    // Both sessions work again.
    expect(textOf(await a.callTool({ name: 'fixture__echo', arguments: { text: 'A back' } }))).toBe('A back');
    expect(textOf(await b.callTool({ name: 'fixture__echo', arguments: { text: 'B back' } }))).toBe('B back');
  });

  it('garbage on stdout: the answer still arrives and the child keeps working', async () => {
    const pidBefore = pidOf(await a.callTool({ name: 'fixture__whoami', arguments: {} }));
    const result = await a.callTool({ name: 'fixture__garbage', arguments: { text: 'x' } });
    expect(textOf(result)).toBe('survived x');
    const [echoA, echoB] = await Promise.all([
      a.callTool({ name: 'fixture__echo', arguments: { text: 'still A' } }),
      b.callTool({ name: 'fixture__echo', arguments: { text: 'still B' } }),
    ]);
    expect(textOf(echoA)).toBe('still A');
    expect(textOf(echoB)).toBe('still B');
    // Same child: the garbage did not cost a restart.
    expect(pidOf(await b.callTool({ name: 'fixture__whoami', arguments: {} }))).toBe(pidBefore);
  });
});

describe('protocol errors over raw HTTP', () => {
  let proxy: RunningSwitchboard;
  let sessionId: string;

  beforeAll(async () => {
    proxy = await startProxy({ mcpServers: { fixture: fixture('fixture') }, limits: { maxBodyBytes: MAX_BODY } });
    sessionId = await rawSession(proxy);
  });
  afterAll(async () => proxy?.close());

  const echo = (id: number | string, text = 'hi') => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'fixture__echo', arguments: { text } } });

  it('malformed JSON: HTTP 400 with JSON-RPC -32700 and a null id', async () => {
    const reply = await rawPost(proxy, '{"jsonrpc":"2.0","id":1,"method":', { sessionId });
    expect(reply.status).toBe(400);
    const response = responseOf(reply);
    expect(response.error?.code).toBe(-32700);
    expect(response.id).toBeNull();
    // The session is unharmed.
    expect(responseOf(await rawPost(proxy, echo(2, 'ok'), { sessionId })).result?.content?.[0]?.text).toBe('ok');
  });

  it('missing Mcp-Session-Id on a non-initialize request: 400', async () => {
    const reply = await rawPost(proxy, echo(3));
    expect(reply.status).toBe(400);
  });

  it('unknown session id: 404', async () => {
    const reply = await rawPost(proxy, echo(4), { sessionId: 'no-such-session-0000' });
    expect(reply.status).toBe(404);
  });

  it('DELETE ends a session; using it afterwards: 404', async () => {
    const doomed = await rawSession(proxy);
    expect(responseOf(await rawPost(proxy, echo(1, 'alive'), { sessionId: doomed })).result?.content?.[0]?.text).toBe('alive');
    const del = await fetch(`${proxy.url}/mcp`, {
      method: 'DELETE',
      headers: { 'mcp-session-id': doomed, 'mcp-protocol-version': PROTOCOL_VERSION },
    });
    await del.arrayBuffer();
    expect(del.status).toBeGreaterThanOrEqual(200);
    expect(del.status).toBeLessThan(300);
    const after = await rawPost(proxy, echo(2), { sessionId: doomed });
    expect(after.status).toBe(404);
    // Other sessions are unaffected.
    expect(responseOf(await rawPost(proxy, echo(5, 'other'), { sessionId })).result?.content?.[0]?.text).toBe('other');
  });

  it(`a body larger than limits.maxBodyBytes (${MAX_BODY}): 413`, async () => {
    const reply = await rawPost(proxy, echo(6, 'x'.repeat(MAX_BODY + 1024)), { sessionId });
    expect(reply.status).toBe(413);
    // A body just under the limit still works.
    const fits = await rawPost(proxy, echo(7, 'y'.repeat(MAX_BODY - 1024)), { sessionId });
    expect(fits.status).toBe(200);
    expect(responseOf(fits).result?.content?.[0]?.text).toBe('y'.repeat(MAX_BODY - 1024));
  });

  it('unknown method: JSON-RPC -32601 with the request id', async () => {
    const reply = await rawPost(proxy, { jsonrpc: '2.0', id: 8, method: 'no/such/method', params: {} }, { sessionId });
    const response = responseOf(reply);
    expect(response.id).toBe(8);
    expect(response.error?.code).toBe(-32601);
  });

  it('unknown tool: an error, not a result', async () => {
    const reply = await rawPost(proxy, { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'fixture__nope', arguments: {} } }, { sessionId });
    const response = responseOf(reply);
    expect(response.id).toBe(9);
    // Either a JSON-RPC error (-32602, as the spec's example) or a tool result flagged isError.
    if (response.error !== undefined) expect(response.error.code).toBe(-32602);
    else expect(response.result?.isError).toBe(true);
    // A real name of the same server that is not prefixed is just as unknown on /mcp.
    const bare = responseOf(await rawPost(proxy, { jsonrpc: '2.0', id: 10, method: 'tools/call', params: { name: 'echo', arguments: { text: 'x' } } }, { sessionId }));
    expect(bare.result?.content?.[0]?.text).not.toBe('x');
  });

  it('foreign Origin: 403', async () => {
    const reply = await rawPost(proxy, echo(11), { sessionId, headers: { origin: 'http://evil.example.com' } });
    expect(reply.status).toBe(403);
    const init = await rawPost(
      proxy,
      { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'evil', version: '1' } } },
      { headers: { origin: 'http://evil.example.com' } },
    );
    expect(init.status).toBe(403);
    expect(init.headers.get('mcp-session-id')).toBeNull();
    // A loopback Origin is fine.
    const local = await rawPost(proxy, echo(12, 'local'), { sessionId, headers: { origin: 'http://localhost:3000' } });
    expect(local.status).toBe(200);
  });

  it('GET without a session: 400', async () => {
    const res = await fetch(`${proxy.url}/mcp`, { method: 'GET', headers: { accept: 'text/event-stream' } });
    await res.arrayBuffer();
    expect(res.status).toBe(400);
  });

  it('a second GET stream on the same session: 409', async () => {
    const controller = new AbortController();
    const headers = { accept: 'text/event-stream', 'mcp-session-id': sessionId, 'mcp-protocol-version': PROTOCOL_VERSION };
    const first = await fetch(`${proxy.url}/mcp`, { method: 'GET', headers, signal: controller.signal });
    try {
      expect(first.status).toBe(200);
      expect(first.headers.get('content-type') ?? '').toContain('text/event-stream');
      const second = await fetch(`${proxy.url}/mcp`, { method: 'GET', headers });
      await second.arrayBuffer();
      expect(second.status).toBe(409);
    } finally {
      controller.abort();
      await first.body?.cancel().catch(() => undefined);
    }
  });

});
