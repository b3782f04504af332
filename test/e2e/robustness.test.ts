// Edge cases of the HTTP front door: hostile URLs, cancelled and orphaned requests, held requests.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSwitchboard } from '../../src/index.js';
import { fixture, rawPost, rawSession, responseOf, startProxy, textOf, connect, listAllTools, waitFor } from './helpers.js';

const call = (id: number, name: string, args: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
});

describe('HTTP front door edge cases', () => {
  let proxy: RunningSwitchboard;
  beforeAll(async () => {
    proxy = await startProxy({
      mcpServers: {
        fx: fixture('fx'),
        // Restarts slowly after a crash, so requests are held while it is down.
        phoenix: fixture('phoenix', { restart: { initialDelayMs: 1500, maxDelayMs: 1500 } }),
      },
    });
  });
  afterAll(async () => proxy?.close());

  /** Waits until the proxy holds request `id` of the session open, i.e. it has reached its server. */
  const inFlight = (sessionId: string, id: number): Promise<boolean> =>
    waitFor(() => proxy.core.sessions.get(sessionId)?.inflight.has(id), 5_000, `request ${id} in flight`);

  it('survives a malformed %-escape in the path, with or without a foreign Origin', async () => {
    expect((await fetch(`${proxy.url}/s/%zz/mcp`)).status).toBe(404);
    expect((await fetch(`${proxy.url}/s/%zz/mcp`, { headers: { origin: 'https://evil.example' } })).status).toBe(403);
    expect((await fetch(`${proxy.url}/healthz`)).status).toBe(200);
  });

  it('closes a cancelled request stream at once, without an answer, and frees its id', async () => {
    const sessionId = await rawSession(proxy);
    const pending = rawPost(proxy, call(5, 'fx__hang'), { sessionId });
    await inFlight(sessionId, 5);
    const cancel = await rawPost(proxy, { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 5 } }, { sessionId });
    expect(cancel.status).toBe(202);
    const reply = await pending;
    expect(reply.messages.filter((m) => 'result' in m || 'error' in m)).toEqual([]);
    // The id is free again: the same id now gets its own answer.
    const again = await rawPost(proxy, call(5, 'fx__echo', { text: 'reused' }), { sessionId });
    expect(responseOf(again).result.content[0].text).toBe('reused');
  });

  it('answers an open request with an error when its session is deleted', async () => {
    const sessionId = await rawSession(proxy);
    const pending = rawPost(proxy, call(1, 'fx__hang'), { sessionId });
    await inFlight(sessionId, 1);
    const del = await fetch(`${proxy.url}/mcp`, { method: 'DELETE', headers: { 'mcp-session-id': sessionId } });
    expect(del.status).toBe(200);
    const response = responseOf(await pending);
    expect(response.id).toBe(1);
    expect(response.error.message).toMatch(/session closed/);
  });

  it('never sends a request the client cancelled while its server was restarting', async () => {
    const client = await connect(proxy);
    await client.callTool({ name: 'phoenix__crash', arguments: {} }).catch(() => undefined);
    const sessionId = await rawSession(proxy);
    // Held: phoenix is down for 1.5 s.
    const held = rawPost(proxy, call(9, 'phoenix__add_tool', { name: 'should_not_exist' }), { sessionId });
    await waitFor(() => (proxy.core.upstreams.primaryOf('phoenix')?.heldCount ?? 0) > 0, 5_000, 'the call held while phoenix restarts');
    await rawPost(proxy, { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 9 } }, { sessionId });
    await held;
    // Once back, the server never ran the cancelled call.
    const tools = await client.listTools();
    expect(tools.tools.map((t) => t.name)).toContain('phoenix__echo');
    const echo = await client.callTool({ name: 'phoenix__echo', arguments: { text: 'back' } });
    expect(textOf(echo)).toBe('back');
    // A barrier instead of a pause: the child runs calls in order, so had the cancelled call run, its
    // tool would be in the same re-list that brings a tool added after it.
    await client.callTool({ name: 'phoenix__add_tool', arguments: { name: 'added_after' } });
    const after = await waitFor(async () => {
      const names = (await listAllTools(client)).map((t) => t.name);
      return names.includes('phoenix__added_after') ? names : undefined;
    }, 10_000, 'the re-list after a later add_tool');
    expect(after).not.toContain('phoenix__should_not_exist');
    await client.close();
  });

  it('refuses Origins that only look like loopback addresses', async () => {
    for (const origin of ['http://127.evil.example', 'http://127.0.0.1.evil.example']) {
      const reply = await rawPost(proxy, { jsonrpc: '2.0', id: 1, method: 'ping' }, { headers: { origin } });
      expect(reply.status).toBe(403);
    }
    const ok = await rawPost(proxy, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '0' } } }, { headers: { origin: 'http://127.0.0.2:3000' } });
    expect(ok.status).toBe(200);
  });

  it('forwards a deeply nested call as the client wrote it, and refuses one it would have to re-serialize', async () => {
    const sessionId = await rawSession(proxy);
    const junk = `${'['.repeat(20000)}${']'.repeat(20000)}`;
    // tools/call is spliced into the client's own text, so depth does not matter to the proxy.
    const deepCall = `{"jsonrpc":"2.0","id":"deep-1","method":"tools/call","params":{"name":"fx__echo","arguments":{"text":"x","junk":${junk}}}}`;
    const called = responseOf(await rawPost(proxy, deepCall, { sessionId }));
    expect(called.id).toBe('deep-1');
    expect(called.result.content[0].text).toBe('x');
    // completion/complete is serialized again, which a stack-deep value cannot be: refused under the client's id.
    const deepComplete = `{"jsonrpc":"2.0","id":"deep-2","method":"completion/complete","params":{"ref":{"type":"ref/prompt","name":"fx__greet"},"argument":{"name":"name","value":"a"},"junk":${junk}}}`;
    const refused = responseOf(await rawPost(proxy, deepComplete, { sessionId }));
    expect(refused.id).toBe('deep-2');
    expect(refused.error.code).toBe(-32602);
    const after = await rawPost(proxy, call(2, 'fx__echo', { text: 'still here' }), { sessionId });
    expect(responseOf(after).result.content[0].text).toBe('still here');
  });

  it('accepts media types in any letter case', async () => {
    const reply = await rawPost(proxy, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '0' } } }, {
      headers: { 'content-type': 'Application/JSON', accept: 'Application/JSON, Text/Event-Stream' },
    });
    expect(reply.status).toBe(200);
  });

  it('will not resume a request stream that never sent an event id', async () => {
    const sessionId = await rawSession(proxy);
    // Long enough that the stream is still open when the GET below asks to resume it.
    const pending = rawPost(proxy, call(3, 'fx__slow', { ms: 1000, steps: 1 }), { sessionId });
    await inFlight(sessionId, 3);
    const streams = await fetch(`${proxy.url}/mcp`, {
      headers: { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18', accept: 'text/event-stream', 'last-event-id': 'r2_0' },
    });
    expect(streams.status).toBe(404);
    expect(responseOf(await pending).result.content[0].text).toBe('done');
  });
});
