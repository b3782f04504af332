// Large calls and results travel as text the proxy scanned but never parsed: they must arrive exactly
// as written, with only the ids (and routed names) replaced, on every transport; and text that is not
// valid JSON must never reach the other side.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { WebSocketClientTransport } from '@modelcontextprotocol/sdk/client/websocket.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { RunningSwitchboard } from '../../src/index.js';
import { fixture, rawPost, rawSession, responseOf, startProxy, textOf } from './helpers.js';

(globalThis as { WebSocket?: unknown }).WebSocket ??= WebSocket;

/** 40 KiB that exercises the scanner: multi-byte text, escapes, brackets and a nested "id". */
const PAYLOAD = `ünïcødé ✓ 😀 "quoted" \\ back {["id":5,"result":{}]} \t tab `.repeat(700);

const TRANSPORTS: Record<string, (proxy: RunningSwitchboard) => Transport> = {
  'streamable-http': (proxy) => new StreamableHTTPClientTransport(new URL(`${proxy.url}/mcp`)),
  sse: (proxy) => new SSEClientTransport(new URL(`${proxy.url}/sse`)),
  ws: (proxy) => new WebSocketClientTransport(new URL(`${proxy.url.replace('http', 'ws')}/ws`)),
};

async function toolErrors(proxy: RunningSwitchboard): Promise<number> {
  const text = await (await fetch(`${proxy.url}/metrics`)).text();
  let total = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith('switchboard_requests_total{') && line.includes('outcome="tool_error"')) total += Number(line.split(' ').pop());
  }
  return total;
}

describe('large messages forwarded as text', () => {
  let proxy: RunningSwitchboard;
  const clients: Client[] = [];

  beforeAll(async () => {
    proxy = await startProxy({ mcpServers: { fx: fixture('fx', { timeoutMs: 1500 }) } });
  });
  afterAll(async () => {
    await Promise.allSettled(clients.map((client) => client.close()));
    await proxy?.close();
  });

  it.each(Object.keys(TRANSPORTS))('a large call and its result arrive intact over %s', async (kind) => {
    const client = new Client({ name: `large-${kind}`, version: '1.0.0' });
    clients.push(client);
    await client.connect((TRANSPORTS[kind] as (proxy: RunningSwitchboard) => Transport)(proxy));
    const progress: number[] = [];
    const [echoed, slow] = await Promise.all([
      client.callTool({ name: 'fx__echo', arguments: { text: PAYLOAD } }),
      // Progress 500 ms before the answer: the SDK client handles a notification a microtask after a
      // response that arrives with it, so on a loaded machine a progress sent right before the
      // answer can reach a request the client has already closed.
      client.callTool({ name: 'fx__slow', arguments: { ms: 1000, steps: 2, padding: PAYLOAD } }, undefined, { onprogress: (p) => progress.push(p.progress) }),
    ]);
    expect(textOf(echoed)).toBe(PAYLOAD);
    expect(textOf(slow)).toBe('done');
    expect(progress.length).toBeGreaterThan(0);
  });

  it('a result goes out exactly as the child wrote it, only the id replaced; a tool error is counted as one', async () => {
    const sessionId = await rawSession(proxy);
    // Odd spacing, members out of order, escapes, and "id" inside the payload and the result.
    const json = ` { "isError" : true , "content" : [ { "text" : ${JSON.stringify(PAYLOAD)} , "type" : "text" } ] , "id" : 3 } `;
    const errorsBefore = await toolErrors(proxy);
    for (const id of [17, 'req-ü "1"']) {
      const reply = await rawPost(proxy, { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'fx__raw_result', arguments: { json } } }, { sessionId });
      expect(reply.status).toBe(200);
      expect(reply.headers.get('content-type')).toBe('application/json');
      expect(reply.text).toBe(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${json}}`);
      expect(Number(reply.headers.get('content-length'))).toBe(Buffer.byteLength(reply.text));
    }
    expect((await toolErrors(proxy)) - errorsBefore).toBe(2);
  });

  it('a large request reaches the child as the client wrote it, with its id, tool name and progress token replaced', async () => {
    const sessionId = await rawSession(proxy);
    // The fixture's echo returns its arguments' text; whoami-like checks are not needed: the answer
    // can only be right if the child parsed the spliced text into the same arguments.
    const body = `{ "params" : { "_meta" : { "progressToken" : "tok-1" , "note" : "x" } , "arguments" : { "text" : ${JSON.stringify(PAYLOAD)} , "id" : 99 } , "name" : "fx__echo" } , "id" : "a\\"b" , "method" : "tools/call" , "jsonrpc" : "2.0" }`;
    const reply = await rawPost(proxy, body, { sessionId });
    const response = responseOf(reply);
    expect(response.id).toBe('a"b');
    expect(response.result?.content?.[0]?.text).toBe(PAYLOAD);
  });

  it('a large result that is not valid JSON never reaches the client: the call fails cleanly and the child keeps serving', async () => {
    const sessionId = await rawSession(proxy);
    const invalid = [
      `{"content":[{"type":"text","text":"${'x'.repeat(4000)}\u0001"}]}`,
      `{"content":[{"type":"text","text":"${'x'.repeat(4000)}\\q"}]}`,
      `{"content":[{"type":"text","text":"${'x'.repeat(4000)}"}]} trailing`,
      `{"content":[{"type":"text","text":"${'x'.repeat(4000)}"},]}`,
    ];
    for (const [i, json] of invalid.entries()) {
      const reply = await rawPost(proxy, { jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'fx__raw_result', arguments: { json } } }, { sessionId });
      const response = responseOf(reply);
      expect(response.id).toBe(i);
      expect(response.result).toBeUndefined();
      expect(response.error?.message).toMatch(/did not answer tools\/call within 1500 ms/);
    }
    const after = await rawPost(proxy, { jsonrpc: '2.0', id: 'after', method: 'tools/call', params: { name: 'fx__echo', arguments: { text: PAYLOAD } } }, { sessionId });
    expect(responseOf(after).result?.content?.[0]?.text).toBe(PAYLOAD);
  });

  it('a large result with bytes that are not UTF-8 goes out as valid JSON, whole, and nothing else is disturbed', async () => {
    const sessionId = await rawSession(proxy);
    const text = (middle: string) => `{"content":[{"type":"text","text":"${middle}"}]}`;
    // Invalid bytes before the id (idLast): a U+FFFD decodes to another length than the bytes it replaces.
    const cases = [
      { bytes: Buffer.concat([Buffer.from('{"content":[{"type":"text","text":"'), Buffer.from([0xff, 0xff]), Buffer.from(`${'a'.repeat(2000)}"}]}`)]), expected: `\ufffd\ufffd${'a'.repeat(2000)}` },
      // Spanning two pipe reads (joined in the reader's buffer), with a truncated 4-byte sequence.
      { bytes: Buffer.concat([Buffer.from('{"content":[{"type":"text","text":"'), Buffer.from([0xf0, 0x9f, 0x98]), Buffer.from(`${'b'.repeat(70_000)}"}]}`)]), expected: `\ufffd${'b'.repeat(70_000)}` },
    ];
    for (const [i, { bytes, expected }] of cases.entries()) {
      // A stray response and a large valid one follow in the same write: neither may leak into the answer.
      const after = [`{"jsonrpc":"2.0","id":987654,"result":${text('z'.repeat(3000))}}`];
      const reply = await rawPost(
        proxy,
        { jsonrpc: '2.0', id: `bad-${i}`, method: 'tools/call', params: { name: 'fx__raw_result', arguments: { base64: bytes.toString('base64'), idLast: true, after } } },
        { sessionId },
      );
      expect(reply.status).toBe(200);
      const response = responseOf(reply);
      expect(response.id).toBe(`bad-${i}`);
      expect(response.result?.content?.[0]?.text).toBe(expected);
    }
    const after = await rawPost(proxy, { jsonrpc: '2.0', id: 'after', method: 'tools/call', params: { name: 'fx__echo', arguments: { text: PAYLOAD } } }, { sessionId });
    expect(responseOf(after).result?.content?.[0]?.text).toBe(PAYLOAD);
  });
});
