// The same routing guarantees over legacy SSE and WebSocket as over Streamable HTTP, with the SDK's own clients.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { WebSocketClientTransport } from '@modelcontextprotocol/sdk/client/websocket.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CreateMessageRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { RunningSwitchboard } from '../../src/index.js';
import { fixture, pidOf, startProxy, textOf, waitFor } from './helpers.js';

// Node 20 has no global WebSocket; the SDK's WebSocket client transport expects one.
(globalThis as { WebSocket?: unknown }).WebSocket ??= WebSocket;

type Kind = 'sse' | 'ws';

function transportFor(proxy: RunningSwitchboard, kind: Kind, base = ''): Transport {
  if (kind === 'sse') return new SSEClientTransport(new URL(`${proxy.url}${base}/sse`));
  return new WebSocketClientTransport(new URL(`${proxy.url.replace('http', 'ws')}${base}/ws`));
}

async function open(proxy: RunningSwitchboard, kind: Kind, name = 'client', base = ''): Promise<Client> {
  const client = new Client({ name, version: '1.0.0' }, { capabilities: { sampling: {} } });
  client.setRequestHandler(CreateMessageRequestSchema, async () => ({
    role: 'assistant',
    model: name,
    content: { type: 'text', text: `answer from ${name}` },
  }));
  await client.connect(transportFor(proxy, kind, base));
  return client;
}

describe.each<Kind>(['sse', 'ws'])('%s front door', (kind) => {
  let proxy: RunningSwitchboard;
  beforeAll(async () => {
    proxy = await startProxy({ mcpServers: { fx: fixture('fx'), other: fixture('other') } });
  });
  afterAll(async () => proxy?.close());

  it('lists and calls namespaced tools', async () => {
    const client = await open(proxy, kind);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['fx__echo', 'other__echo']));
    expect(textOf(await client.callTool({ name: 'other__echo', arguments: { text: `via ${kind}` } }))).toBe(`via ${kind}`);
    await client.close();
  });

  it('delivers progress to the caller and sampling to its own handler', async () => {
    const client = await open(proxy, kind, 'carol');
    try {
      const progress: number[] = [];
      // Steps 400 ms apart: the first progress leaves the child long before the answer.
      const slow = await client.callTool({ name: 'fx__slow', arguments: { ms: 1200, steps: 3 } }, undefined, {
        onprogress: (p) => void progress.push(p.progress),
      });
      expect(textOf(slow)).toBe('done');
      // The SDK client dispatches notifications a microtask late and drops progress that lands in the
      // same tick as its response (PROTOCOL.md §12); a client stalled by a busy machine can receive
      // the later steps together with the answer, so only the first is certain.
      expect(progress.length).toBeGreaterThanOrEqual(1);
      expect(progress).toEqual([1, 2, 3].slice(0, progress.length));
      const sampled = await client.callTool({ name: 'fx__sample', arguments: { prompt: 'hello' } });
      expect(textOf(sampled)).toBe('sampled: answer from carol');
    } finally {
      await client.close();
    }
  });

  it('serves 20 sessions x 10 concurrent calls through one child, each answer to its asker', async () => {
    const clients = await Promise.all(Array.from({ length: 20 }, (_, i) => open(proxy, kind, `c${i}`)));
    const pids = new Set<number>();
    await Promise.all(
      clients.map(async (client, i) => {
        pids.add(pidOf(await client.callTool({ name: 'fx__whoami', arguments: {} })));
        const answers = await Promise.all(
          Array.from({ length: 10 }, (_, j) => client.callTool({ name: 'fx__echo', arguments: { text: `${kind} ${i}.${j}` } })),
        );
        answers.forEach((answer, j) => expect(textOf(answer)).toBe(`${kind} ${i}.${j}`));
      }),
    );
    expect(pids.size).toBe(1);
    await Promise.all(clients.map((c) => c.close()));
  });

  it('serves one server alone, unprefixed, on /s/<server>/' + kind, async () => {
    const client = await open(proxy, kind, 'solo', '/s/other');
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toContain('echo');
    expect(names).not.toContain('other__echo');
    expect(textOf(await client.callTool({ name: 'whoami', arguments: {} }))).toMatch(/^other pid/);
    await client.close();
  });

  it('ends the session when the connection closes', async () => {
    // Sessions of the tests before end as their connections close; wait for them to go.
    await waitFor(() => proxy.core.sessions.size === 0, 15_000, 'earlier sessions ended');
    const before = proxy.core.sessions.size;
    const client = await open(proxy, kind);
    expect(proxy.core.sessions.size).toBe(before + 1);
    await client.close();
    await waitFor(() => proxy.core.sessions.size === before, 15_000, 'the session ended');
  });
});

describe('front door refusals', () => {
  let proxy: RunningSwitchboard;
  beforeAll(async () => {
    proxy = await startProxy({ mcpServers: { fx: fixture('fx') } });
  });
  afterAll(async () => proxy?.close());

  it('answers POST /sse with 404 so clients fall back from Streamable HTTP to SSE', async () => {
    const res = await fetch(`${proxy.url}/sse`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}',
    });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).not.toContain('json');
  });

  it('answers an unknown or missing sessionId on /messages with 404 and 400', async () => {
    const post = (query: string) =>
      fetch(`${proxy.url}/messages${query}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","method":"x"}' });
    expect((await post('?sessionId=nope')).status).toBe(404);
    expect((await post('')).status).toBe(400);
  });

  it('refuses a WebSocket upgrade from a foreign Origin with 403', async () => {
    const status = await new Promise<number>((resolve) => {
      const ws = new WebSocket(`${proxy.url.replace('http', 'ws')}/ws`, 'mcp', { origin: 'https://evil.example' });
      ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.on('open', () => resolve(101));
      ws.on('error', () => undefined);
    });
    expect(status).toBe(403);
  });

  it('echoes the mcp subprotocol, answers a garbage frame with -32700 and closes on a binary frame', async () => {
    const ws = new WebSocket(`${proxy.url.replace('http', 'ws')}/ws`, 'mcp');
    await new Promise((resolve, reject) => {
      ws.on('open', resolve);
      ws.on('error', reject);
    });
    expect(ws.protocol).toBe('mcp');
    const reply = new Promise<string>((resolve) => ws.once('message', (data) => resolve(data.toString())));
    ws.send('{not json');
    expect(JSON.parse(await reply)).toMatchObject({ id: null, error: { code: -32700 } });
    const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
    ws.send(Buffer.from([1, 2, 3]), { binary: true });
    expect(await closed).toBe(1003);
  });
});
