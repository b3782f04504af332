// Ids come back exactly: a child's spaced top-level id never lets a nested one be rewritten, and a
// client's integer id beyond 2^53 returns with the digits it was sent with.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { RunningSwitchboard } from '../../src/index.js';
import { fixture, rawPost, rawSession, startProxy, waitFor } from './helpers.js';

describe('exact ids', () => {
  let proxy: RunningSwitchboard;
  beforeAll(async () => {
    proxy = await startProxy({ mcpServers: { fx: fixture('fx') } });
  });
  afterAll(async () => {
    await proxy?.close();
  });

  it('a child writing "id": N with a compact "id":N in its result: the client gets its own id, the nested one untouched', async () => {
    const sessionId = await rawSession(proxy);
    // The child's own request id appears twice: spaced at the top, compact inside structuredContent.
    const json = '{"content":[{"type":"text","text":"row"}],"structuredContent":{"id":$REQUEST_ID,"name":"row"}}';
    for (const [spacedId, id] of [[true, 1001], [true, 'req-7'], [false, 1002]] as const) {
      const reply = await rawPost(proxy, { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'fx__raw_result', arguments: { json, spacedId } } }, { sessionId });
      expect(reply.status).toBe(200);
      const message = JSON.parse(reply.text) as { id: unknown; result: { structuredContent: { id: unknown } } };
      expect(message.id).toBe(id);
      // The nested value is the child's, as the child wrote it: a number, not the client's id.
      expect(typeof message.result.structuredContent.id).toBe('number');
      expect(message.result.structuredContent.id).not.toBe(id);
    }
  });

  it('an integer id beyond 2^53 comes back with the digits the client sent, over HTTP and WebSocket', async () => {
    const sessionId = await rawSession(proxy);
    for (const digits of ['12345678901234567890', '-98765432109876543210', '9007199254740993']) {
      const body = `{"jsonrpc":"2.0","id":${digits},"method":"tools/call","params":{"name":"fx__echo","arguments":{"text":"hi"}}}`;
      const reply = await rawPost(proxy, body, { sessionId });
      expect(reply.status).toBe(200);
      expect(reply.text).toMatch(new RegExp(`^\\{"jsonrpc":"2\\.0","id":${digits},"result":`));
      // An error answer too (unknown tool), and a local one (ping).
      const unknown = await rawPost(proxy, body.replace('fx__echo', 'fx__nope'), { sessionId });
      expect(unknown.text).toContain(`"id":${digits},`);
      const ping = await rawPost(proxy, `{"jsonrpc":"2.0","id":${digits},"method":"ping"}`, { sessionId });
      expect(ping.text).toBe(`{"jsonrpc":"2.0","id":${digits},"result":{}}`);
    }

    const frames: string[] = [];
    const ws = new WebSocket(`${proxy.url.replace('http', 'ws')}/ws`, 'mcp');
    ws.on('message', (data) => frames.push(String(data)));
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'ws', version: '0' } } }));
    ws.send('{"jsonrpc":"2.0","method":"notifications/initialized"}');
    ws.send('{"jsonrpc":"2.0","id":12345678901234567890,"method":"tools/call","params":{"name":"fx__echo","arguments":{"text":"over ws"}}}');
    const frame = await waitFor(() => frames.find((f) => f.includes('over ws')), 5_000, 'the echo over WebSocket');
    ws.close();
    expect(frame.startsWith('{"jsonrpc":"2.0","id":12345678901234567890,')).toBe(true);
  });

  it('a string id that begins with NUL cannot pose as a number: it is refused as invalid', async () => {
    const sessionId = await rawSession(proxy);
    const reply = await rawPost(proxy, '{"jsonrpc":"2.0","id":"\\u000012345678901234567890","method":"ping"}', { sessionId });
    expect(reply.text).not.toContain('"id":12345678901234567890');
    expect(JSON.parse(reply.text)).toMatchObject({ id: null, error: { code: -32600 } });
  });
});
