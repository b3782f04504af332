// The 2026-07-28 stateless era on the same endpoint as sessions: the SDK v2 client in modern mode and
// the v1 client in session mode side by side on one shared child, input_required bridging of a
// session-era child's sampling (server-everything), subscriptions/listen, and the era's HTTP rules.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import type { RunningSwitchboard } from '../../src/index.js';
import { connect, fixture, rawPost, responseOf, startProxy, textOf, waitFor } from './helpers.js';

const VERSION = '2026-07-28';
const META = {
  'io.modelcontextprotocol/protocolVersion': VERSION,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '0' },
};

let proxy: RunningSwitchboard;

beforeAll(async () => {
  proxy = await startProxy({
    mcpServers: {
      everything: { command: 'mcp-server-everything', args: ['stdio'] },
      fx: fixture('fx'),
    },
  });
}, 60_000);

afterAll(async () => {
  await proxy?.close();
});

interface ModernOptions {
  readonly sampling?: (prompt: string) => string;
  readonly path?: string;
}

async function modernClient(options: ModernOptions = {}): Promise<{ client: ModernClient; close: () => Promise<void> }> {
  const client = new ModernClient(
    { name: 'modern-e2e', version: '1.0.0' },
    { capabilities: options.sampling === undefined ? {} : { sampling: {} }, versionNegotiation: { mode: { pin: VERSION } } },
  );
  const sampling = options.sampling;
  if (sampling !== undefined) {
    client.setRequestHandler('sampling/createMessage', async (request) => {
      const first = request.params.messages[0]?.content;
      const prompt = first !== undefined && !Array.isArray(first) && first.type === 'text' ? first.text : '';
      return { model: 'test-model', role: 'assistant', content: { type: 'text', text: sampling(prompt) } };
    });
  }
  const transport = new ModernTransport(new URL(`${proxy.url}${options.path ?? '/mcp'}`));
  await client.connect(transport);
  return { client, close: () => client.close() };
}

/** A raw stateless POST with the era's headers (overridable) and `_meta` merged into params. */
function statelessPost(method: string, params: Record<string, unknown> = {}, headers: Record<string, string> = {}, id: number | string = 1) {
  const name = typeof params.name === 'string' ? params.name : params.uri;
  const named: Record<string, string> = typeof name === 'string' ? { 'mcp-name': name } : {};
  return rawPost(
    proxy,
    { jsonrpc: '2.0', id, method, params: { ...params, _meta: { ...META, ...(params._meta as object | undefined) } } },
    { headers: { 'mcp-protocol-version': VERSION, 'mcp-method': method, ...named, ...headers } },
  );
}

describe('the stateless era (2026-07-28) beside sessions', () => {
  it('serves a modern v2 client and a session v1 client at once on one shared child, each its own answers', async () => {
    const modern = await modernClient();
    const legacy = await connect(proxy, { name: 'session-e2e' });
    try {
      expect(modern.client.getProtocolEra()).toBe('modern');
      const [modernTools, legacyTools] = await Promise.all([modern.client.listTools(), legacy.listTools()]);
      expect(modernTools.tools.map((t) => t.name)).toContain('fx__echo');
      expect(modernTools.tools.map((t) => t.name).sort()).toEqual(legacyTools.tools.map((t) => t.name).sort());
      const calls = [];
      for (let i = 0; i < 20; i++) {
        calls.push(modern.client.callTool({ name: 'fx__echo', arguments: { text: `modern-${i}` } }).then((r) => [`modern-${i}`, textOf(r)]));
        calls.push(legacy.callTool({ name: 'fx__echo', arguments: { text: `session-${i}` } }).then((r) => [`session-${i}`, textOf(r)]));
      }
      for (const [sent, got] of await Promise.all(calls)) expect(got).toBe(sent);
      // The same child served both: one process id.
      const [a, b] = await Promise.all([
        modern.client.callTool({ name: 'fx__whoami', arguments: {} }),
        legacy.callTool({ name: 'fx__whoami', arguments: {} }),
      ]);
      expect(textOf(a)).toBe(textOf(b));
      // Stateless requests leave no session behind.
      await waitFor(() => proxy.core.sessions.statelessCount === 0, 5_000, 'stateless sessions to end');
    } finally {
      await Promise.allSettled([modern.close(), legacy.close()]);
    }
  });

  it('serves a 64 KiB stateless call (the large-request path keeps the envelope in _meta)', async () => {
    const text = 'x'.repeat(64 * 1024);
    const res = await statelessPost('tools/call', { name: 'fx__echo', arguments: { text } });
    expect(res.status).toBe(200);
    const answer = responseOf(res) as { result?: { content?: Array<{ text?: string }> } };
    expect(answer.result?.content?.[0]?.text).toBe(text);
  });

  it("turns server-everything's sampling request into input_required, and the v2 client's retry completes the call", async () => {
    const prompts: string[] = [];
    const modern = await modernClient({
      sampling: (prompt) => {
        prompts.push(prompt);
        return 'a sampled reply';
      },
    });
    try {
      const result = await modern.client.callTool({ name: 'everything__trigger-sampling-request', arguments: { prompt: 'the question', maxTokens: 20 } });
      expect(textOf(result)).toContain('a sampled reply');
      expect(prompts).toHaveLength(1);
      expect(prompts[0]).toContain('the question');
      expect(proxy.core.stateless.parkedCount).toBe(0);
    } finally {
      await modern.close();
    }
  });

  it('answers input_required on the wire with a requestState that resumes the child, once', async () => {
    const meta = { ...META, 'io.modelcontextprotocol/clientCapabilities': { sampling: {} } };
    const first = await statelessPost('tools/call', { name: 'fx__sample', arguments: { prompt: 'wire' }, _meta: meta }, {}, 'r1');
    const round = responseOf(first);
    expect(round.id).toBe('r1');
    expect(round.result.resultType).toBe('input_required');
    const [key, asked] = Object.entries(round.result.inputRequests as Record<string, { method: string; params: unknown }>)[0]!;
    expect(asked.method).toBe('sampling/createMessage');
    const state = round.result.requestState as string;
    expect(typeof state).toBe('string');
    // An altered state is refused, and does not disturb the parked request.
    const tampered = await statelessPost('tools/call', { name: 'fx__sample', arguments: { prompt: 'wire' }, requestState: `${state}x`, inputResponses: {}, _meta: meta }, {}, 'r2');
    expect(responseOf(tampered).error.code).toBe(-32602);
    const answer = { role: 'assistant', model: 'm', content: { type: 'text', text: 'from the retry' } };
    const retry = await statelessPost('tools/call', { name: 'fx__sample', arguments: { prompt: 'wire' }, requestState: state, inputResponses: { [key]: answer }, _meta: meta }, {}, 'r3');
    const done = responseOf(retry);
    expect(done.id).toBe('r3');
    expect(done.result.resultType).toBe('complete');
    expect(textOf(done.result)).toBe('sampled: from the retry');
    // The state was used up.
    const again = await statelessPost('tools/call', { name: 'fx__sample', arguments: { prompt: 'wire' }, requestState: state, inputResponses: { [key]: answer }, _meta: meta }, {}, 'r4');
    expect(responseOf(again).error.code).toBe(-32602);
  });

  it('answers -32021 (HTTP 400) when a child needs a capability the request did not declare, counted as answered', async () => {
    const cancelled = proxy.core.stats.total('cancelled');
    const errors = proxy.core.stats.total('server_error');
    const reply = await statelessPost('tools/call', { name: 'fx__sample', arguments: { prompt: 'no sampling' } }, {}, 7);
    expect(reply.status).toBe(400);
    const error = responseOf(reply).error;
    expect(error.code).toBe(-32021);
    expect(error.data.requiredCapabilities).toEqual({ sampling: {} });
    expect(responseOf(reply).id).toBe(7);
    expect(proxy.core.stats.total('server_error') - errors).toBe(1);
    expect(proxy.core.stats.total('cancelled')).toBe(cancelled);
  });

  it('tells a listening modern client of list changes, tagged with its listen', async () => {
    const modern = await modernClient();
    const seen: unknown[] = [];
    modern.client.setNotificationHandler('notifications/tools/list_changed', (notification) => {
      seen.push(notification);
    });
    try {
      const subscription = await modern.client.listen({ toolsListChanged: true });
      expect(subscription.honoredFilter).toEqual({ toolsListChanged: true });
      await modern.client.callTool({ name: 'fx__add_tool', arguments: { name: 'added_for_listen' } });
      await waitFor(() => seen.length > 0, 10_000, 'tools/list_changed on the listen');
      const { tools } = await modern.client.listTools(undefined, { cacheMode: 'bypass' });
      expect(tools.map((t) => t.name)).toContain('fx__added_for_listen');
      await subscription.close();
    } finally {
      await modern.close();
    }
  });

  it('carries resource updates to a listen that asked for that resource, and only those', async () => {
    const controller = new AbortController();
    const reply = await fetch(`${proxy.url}/mcp`, {
      method: 'POST',
      signal: controller.signal,
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': VERSION, 'mcp-method': 'subscriptions/listen' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 'L1', method: 'subscriptions/listen', params: { notifications: { resourceSubscriptions: ['fixture://fx/static'] }, _meta: META } }),
    });
    expect(reply.headers.get('content-type')).toContain('text/event-stream');
    const reader = reply.body!.getReader();
    const frames: Array<Record<string, any>> = [];
    let buffered = '';
    const next = async (): Promise<Record<string, any>> => {
      for (;;) {
        const event = /data: (.*)\n\n/.exec(buffered);
        if (event !== null) {
          buffered = buffered.slice(event.index + event[0].length);
          const frame = JSON.parse(event[1]!) as Record<string, any>;
          frames.push(frame);
          return frame;
        }
        const { value, done } = await reader.read();
        if (done) throw new Error('listen stream ended');
        buffered += Buffer.from(value).toString('utf8');
      }
    };
    try {
      const ack = await next();
      expect(ack.method).toBe('notifications/subscriptions/acknowledged');
      expect(ack.params.notifications).toEqual({ resourceSubscriptions: ['fixture://fx/static'] });
      await waitFor(() => proxy.core.sessions.statelessCount >= 1, 5_000, 'the listen to be open');
      // An update of another resource is not for this listen; then the one it asked for.
      await statelessPost('tools/call', { name: 'fx__touch', arguments: { uri: 'fixture://fx/other' } }, {}, 31);
      await statelessPost('tools/call', { name: 'fx__touch', arguments: { uri: 'fixture://fx/static' } }, {}, 32);
      const update = await next();
      expect(update.method).toBe('notifications/resources/updated');
      expect(update.params.uri).toBe('fixture://fx/static');
      expect(update.params._meta['io.modelcontextprotocol/subscriptionId']).toBe('L1');
    } finally {
      controller.abort();
    }
    await waitFor(() => proxy.core.sessions.statelessCount === 0, 5_000, 'the closed listen to end');
  });

  it('discovers: versions, the view\'s capabilities, serverInfo in _meta, cache hints, resultType', async () => {
    const reply = await statelessPost('server/discover');
    expect(reply.status).toBe(200);
    const result = responseOf(reply).result;
    expect(result.supportedVersions).toEqual([VERSION]);
    expect(result.capabilities.tools).toBeDefined();
    expect(result.capabilities.tasks).toBeUndefined();
    expect(result._meta['io.modelcontextprotocol/serverInfo'].name).toBe('mcp-switchboard');
    expect(result).toMatchObject({ resultType: 'complete', ttlMs: 0, cacheScope: 'public' });
    const list = responseOf(await statelessPost('tools/list')).result;
    expect(list).toMatchObject({ resultType: 'complete', ttlMs: 0, cacheScope: 'public' });
    expect(Array.isArray(list.tools)).toBe(true);
    // A filtered view is private to whoever asked for it.
    const narrowed = await rawPost(
      proxy,
      { jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: META } },
      { path: '/mcp?tools=fx__*', headers: { 'mcp-protocol-version': VERSION, 'mcp-method': 'tools/list' } },
    );
    expect(responseOf(narrowed).result.cacheScope).toBe('private');
    expect((responseOf(narrowed).result.tools as Array<{ name: string }>).every((t) => t.name.startsWith('fx__'))).toBe(true);
  });

  it('refuses what the era forbids with its codes and statuses, echoing the id', async () => {
    const noHeader = await rawPost(proxy, { jsonrpc: '2.0', id: 11, method: 'tools/list', params: { _meta: META } }, { headers: { 'mcp-method': 'tools/list' } });
    // Without a version header the modern envelope still selects the era, which requires the header.
    expect([noHeader.status, responseOf(noHeader).error.code, responseOf(noHeader).id]).toEqual([400, -32020, 11]);
    const noMeta = await rawPost(proxy, { jsonrpc: '2.0', id: 12, method: 'server/discover', params: {} }, { headers: { 'mcp-protocol-version': VERSION, 'mcp-method': 'server/discover' } });
    expect([noMeta.status, responseOf(noMeta).error.code, responseOf(noMeta).id]).toEqual([400, -32602, 12]);
    const mismatch = await statelessPost('tools/list', { _meta: { 'io.modelcontextprotocol/protocolVersion': 'v999.0.0' } }, {}, 13);
    expect([mismatch.status, responseOf(mismatch).error.code]).toEqual([400, -32020]);
    const unsupported = await statelessPost('tools/list', { _meta: { 'io.modelcontextprotocol/protocolVersion': 'v999.0.0' } }, { 'mcp-protocol-version': 'v999.0.0' }, 14);
    expect([unsupported.status, responseOf(unsupported).error.code]).toEqual([400, -32022]);
    expect(responseOf(unsupported).error.data).toEqual({ supported: [VERSION], requested: 'v999.0.0' });
    const wrongMethod = await statelessPost('tools/list', {}, { 'mcp-method': 'prompts/list' }, 15);
    expect([wrongMethod.status, responseOf(wrongMethod).error.code]).toEqual([400, -32020]);
    const wrongName = await statelessPost('tools/call', { name: 'fx__echo', arguments: { text: 'x' } }, { 'mcp-name': 'fx__other' }, 16);
    expect([wrongName.status, responseOf(wrongName).error.code]).toEqual([400, -32020]);
    const encodedName = await statelessPost('tools/call', { name: 'fx__echo', arguments: { text: 'b64' } }, { 'mcp-name': `=?base64?${Buffer.from('fx__echo').toString('base64')}?=` }, 17);
    expect(textOf(responseOf(encodedName).result)).toBe('b64');
    for (const method of ['initialize', 'ping', 'logging/setLevel', 'resources/subscribe', 'unknown/method']) {
      const removed = await statelessPost(method, {}, {}, 18);
      expect([method, removed.status, responseOf(removed).error.code, responseOf(removed).id]).toEqual([method, 404, -32601, 18]);
    }
    const missing = await statelessPost('resources/read', { uri: 'test://nothing-here' }, {}, 19);
    expect(responseOf(missing).error.code).toBe(-32602);
    const get = await fetch(`${proxy.url}/mcp`, { headers: { accept: 'text/event-stream', 'mcp-protocol-version': VERSION } });
    expect(get.status).toBe(405);
    await get.body?.cancel();
  });

  it('gives a request its progress on an SSE reply, and ends it when the client closes the POST', async () => {
    const reply = await statelessPost('tools/call', { name: 'fx__slow', arguments: { ms: 150, steps: 3 }, _meta: { progressToken: 'p1' } }, {}, 21);
    expect(reply.headers.get('content-type')).toContain('text/event-stream');
    const progress = reply.messages.filter((m) => m.method === 'notifications/progress');
    expect(progress.length).toBe(3);
    expect(progress.every((m) => (m.params as { progressToken: unknown }).progressToken === 'p1')).toBe(true);
    expect(responseOf(reply).result.resultType).toBe('complete');
    // A call whose client goes away is cancelled upstream: nothing of it stays in flight.
    const controller = new AbortController();
    const pending = fetch(`${proxy.url}/mcp`, {
      method: 'POST',
      signal: controller.signal,
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': VERSION, 'mcp-method': 'tools/call', 'mcp-name': 'fx__slow' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 22, method: 'tools/call', params: { name: 'fx__slow', arguments: { ms: 5_000, steps: 1 }, _meta: META } }),
    }).catch(() => undefined);
    await waitFor(() => proxy.core.sessions.statelessCount === 1, 5_000, 'the call to be in flight');
    controller.abort();
    await pending;
    await waitFor(() => proxy.core.sessions.statelessCount === 0, 5_000, 'the cancelled call to end');
    expect(proxy.core.inflightRequests()).toBe(0);
  });
});

describe('parked stateless requests', () => {
  let quick: RunningSwitchboard;
  beforeAll(async () => {
    // Two children: a shared child asked by two stateless requests at once could not say whose sampling it wants.
    quick = await startProxy({ mcpServers: { fx: fixture('fx', { timeoutMs: 1000 }), fy: fixture('fy', { timeoutMs: 1000 }) } });
  });
  afterAll(async () => {
    await quick?.close();
  });

  const meta = { ...META, 'io.modelcontextprotocol/clientCapabilities': { sampling: {} } };
  const answer = { role: 'assistant', model: 'm', content: { type: 'text', text: 'late' } };
  const sample = (tool: string, id: string, retry?: { requestState: string; key: string }) =>
    rawPost(
      quick,
      { jsonrpc: '2.0', id, method: 'tools/call', params: { name: tool, arguments: { prompt: 'p' }, _meta: meta, ...(retry === undefined ? {} : { requestState: retry.requestState, inputResponses: { [retry.key]: answer } }) } },
      { headers: { 'mcp-protocol-version': VERSION, 'mcp-method': 'tools/call', 'mcp-name': tool } },
    );
  const parked = async (tool: string, id: string): Promise<{ requestState: string; key: string }> => {
    const result = responseOf(await sample(tool, id)).result;
    expect(result.resultType).toBe('input_required');
    return { requestState: result.requestState, key: Object.keys(result.inputRequests)[0]! };
  };

  it("give a retry after the server's timeout that timeout, and one after the grace a clear error", async () => {
    const [first, second] = await Promise.all([parked('fx__sample', 'a1'), parked('fy__sample', 'b1')]);
    // Past the server's 1 s timeout: the child's request timed out while parked (the proxy answered
    // it with the timeout error, so nothing is in flight any more).
    await waitFor(() => quick.core.inflightRequests() === 0, 10_000, "the server's timeout of both parked calls");
    const timedOut = responseOf(await sample('fx__sample', 'a2', first));
    expect(timedOut.id).toBe('a2');
    expect(timedOut.error.code).toBe(-32001);
    // Past the grace too: the state is gone, and says so.
    await waitFor(() => quick.core.stateless.parkedCount === 0, 5_000, 'the parked request to expire');
    const expired = responseOf(await sample('fy__sample', 'b2', second));
    expect(expired.error.code).toBe(-32602);
    expect(expired.error.message).toMatch(/expired/);
    expect(quick.core.sessions.statelessCount).toBe(0);
  });
});
