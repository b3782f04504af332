// Streamable HTTP resumability (Last-Event-ID) and batches, driven by hand over fetch.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSwitchboard } from '../../src/index.js';
import { ACCEPT_BOTH, fixture, parseBody, startProxy } from './helpers.js';

interface SseEvent {
  id?: string;
  data: string;
}

/** Reads SSE events from a response until `enough` says stop (then aborts) or the stream ends. */
async function readEvents(res: Response, enough: (events: SseEvent[]) => boolean, abort?: AbortController): Promise<SseEvent[]> {
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  const events: SseEvent[] = [];
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
    if (done) return events;
    buffer += decoder.decode(value, { stream: true });
    let split: number;
    while ((split = buffer.indexOf('\n\n')) !== -1) {
      const block = buffer.slice(0, split);
      buffer = buffer.slice(split + 2);
      const event: SseEvent = { data: '' };
      for (const line of block.split('\n')) {
        if (line.startsWith('id: ')) event.id = line.slice(4);
        if (line.startsWith('data: ')) event.data += line.slice(6);
      }
      if (event.id !== undefined || event.data !== '') events.push(event);
    }
    if (enough(events)) {
      abort?.abort();
      return events;
    }
  }
}

describe('resumable streams and batches', () => {
  let proxy: RunningSwitchboard;
  beforeAll(async () => {
    proxy = await startProxy({ mcpServers: { fx: fixture('fx') } });
  });
  afterAll(async () => proxy?.close());

  async function session(version: string): Promise<Record<string, string>> {
    const init = await fetch(`${proxy.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: ACCEPT_BOTH },
      body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'raw', version: '0' } } }),
    });
    await init.text();
    const headers = { 'mcp-session-id': init.headers.get('mcp-session-id') as string, 'mcp-protocol-version': version };
    const done = await fetch(`${proxy.url}/mcp`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json', accept: ACCEPT_BOTH },
      body: '{"jsonrpc":"2.0","method":"notifications/initialized"}',
    });
    expect(done.status).toBe(202);
    return headers;
  }

  it('resumes a dropped POST stream with Last-Event-ID and loses no message', async () => {
    const headers = await session('2025-11-25');
    const abort = new AbortController();
    const res = await fetch(`${proxy.url}/mcp`, {
      method: 'POST',
      signal: abort.signal,
      headers: { ...headers, 'content-type': 'application/json', accept: ACCEPT_BOTH },
      body: JSON.stringify({ jsonrpc: '2.0', id: 'call-1', method: 'tools/call', params: { name: 'fx__slow', arguments: { ms: 900, steps: 3 }, _meta: { progressToken: 'p' } } }),
    });
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    // The 2025-11-25 priming event comes first (id, empty data); then progress 1; then we drop the connection.
    const first = await readEvents(res, (events) => events.some((e) => e.data.includes('"progress":1')), abort);
    expect(first[0]?.data).toBe('');
    const lastId = first[first.length - 1]?.id as string;
    expect(lastId).toMatch(/^r\d+_\d+$/);

    const resumed = await fetch(`${proxy.url}/mcp`, { headers: { ...headers, accept: 'text/event-stream', 'last-event-id': lastId } });
    expect(resumed.status).toBe(200);
    const rest = (await readEvents(resumed, () => false)).filter((e) => e.data !== '').map((e) => JSON.parse(e.data));
    expect(rest.map((m) => m.params?.progress ?? 'response')).toEqual([2, 3, 'response']);
    expect(rest[2]).toMatchObject({ id: 'call-1', result: { content: [{ type: 'text', text: 'done' }] } });
  });

  it('replays GET-stream messages sent while the client was away', async () => {
    const headers = await session('2025-11-25');
    const abort = new AbortController();
    const get = await fetch(`${proxy.url}/mcp`, { signal: abort.signal, headers: { ...headers, accept: 'text/event-stream' } });
    const priming = await readEvents(get, (events) => events.length >= 1, abort);
    const primingId = priming[0]?.id as string;
    expect(primingId).toMatch(/^g_\d+$/);
    // While our GET stream is gone, another session changes the tool list.
    // The other session listens too: the proxy tells every session of the view in one pass, so once
    // the other has its list_changed, ours has been stored for the resume.
    const other = await session('2025-11-25');
    const otherAbort = new AbortController();
    const otherGet = await fetch(`${proxy.url}/mcp`, { signal: otherAbort.signal, headers: { ...other, accept: 'text/event-stream' } });
    expect(otherGet.status).toBe(200);
    const otherEvents = readEvents(otherGet, (e) => e.some((x) => x.data.includes('list_changed')), otherAbort);
    await fetch(`${proxy.url}/mcp`, {
      method: 'POST',
      headers: { ...other, 'content-type': 'application/json', accept: ACCEPT_BOTH },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'fx__add_tool', arguments: { name: 'while_away' } } }),
    }).then((r) => r.text());
    expect((await otherEvents).some((e) => e.data.includes('notifications/tools/list_changed'))).toBe(true);
    const again = new AbortController();
    const resumed = await fetch(`${proxy.url}/mcp`, { signal: again.signal, headers: { ...headers, accept: 'text/event-stream', 'last-event-id': primingId } });
    const events = await readEvents(resumed, (e) => e.some((x) => x.data.includes('list_changed')), again);
    expect(events.some((e) => e.data.includes('notifications/tools/list_changed'))).toBe(true);
  });

  it('refuses a Last-Event-ID it never issued', async () => {
    const headers = await session('2025-11-25');
    const res = await fetch(`${proxy.url}/mcp`, { headers: { ...headers, accept: 'text/event-stream', 'last-event-id': 'bogus' } });
    expect(res.status).toBe(400);
  });

  it('sends no priming event to clients older than 2025-11-25', async () => {
    const headers = await session('2025-06-18');
    const abort = new AbortController();
    const res = await fetch(`${proxy.url}/mcp`, {
      method: 'POST',
      signal: abort.signal,
      headers: { ...headers, 'content-type': 'application/json', accept: ACCEPT_BOTH },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'fx__slow', arguments: { ms: 60, steps: 2 }, _meta: { progressToken: 1 } } }),
    });
    const events = await readEvents(res, () => false);
    expect(events.every((e) => e.data !== '')).toBe(true);
    expect(events.map((e) => JSON.parse(e.data).params?.progress ?? 'response')).toEqual([1, 2, 'response']);
  });

  it('accepts a batch from a 2025-03-26 session and answers every request on one stream', async () => {
    const headers = await session('2025-03-26');
    const res = await fetch(`${proxy.url}/mcp`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json', accept: ACCEPT_BOTH },
      body: JSON.stringify([
        { jsonrpc: '2.0', id: 1, method: 'ping' },
        { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 99 } },
        { jsonrpc: '2.0', id: 'two', method: 'tools/call', params: { name: 'fx__echo', arguments: { text: 'batched' } } },
        { jsonrpc: '1.0', id: 3, method: 'ping' },
      ]),
    });
    expect(res.status).toBe(200);
    const messages = parseBody(res.headers.get('content-type'), await res.text());
    const byId = new Map(messages.map((m) => [m.id, m]));
    expect(byId.get(1)).toMatchObject({ result: {} });
    expect(byId.get('two')).toMatchObject({ result: { content: [{ text: 'batched' }] } });
    expect(byId.get(3)).toMatchObject({ error: { code: -32600 } });
    expect(messages).toHaveLength(3);
  });

  it('refuses a batch from a session on a version without batching', async () => {
    const headers = await session('2025-11-25');
    const res = await fetch(`${proxy.url}/mcp`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json', accept: ACCEPT_BOTH },
      body: JSON.stringify([{ jsonrpc: '2.0', id: 1, method: 'ping' }]),
    });
    expect(res.status).toBe(400);
  });
});
