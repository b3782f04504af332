// `isolation: "session"` gives each client session its own child; shared servers keep one child for all.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { RunningSwitchboard } from '../../src/index.js';
import { connectWithTransport, expectNothingWithin, fixture, pidOf, processAlive, startProxy, waitFor } from './helpers.js';

describe('isolation', () => {
  let proxy: RunningSwitchboard;
  let a: { client: Client; transport: StreamableHTTPClientTransport };
  let b: { client: Client; transport: StreamableHTTPClientTransport };
  const pids = { isoA: 0, isoB: 0, sharedA: 0, sharedB: 0 };

  beforeAll(async () => {
    proxy = await startProxy({
      mcpServers: {
        iso: fixture('iso', { isolation: 'session' }),
        shared: fixture('shared'),
      },
    });
    [a, b] = await Promise.all([connectWithTransport(proxy, { name: 'A' }), connectWithTransport(proxy, { name: 'B' })]);
  });
  afterAll(async () => {
    await Promise.allSettled([a?.client.close(), b?.client.close()]);
    await proxy?.close();
  });

  const whoami = async (client: Client, server: string) => pidOf(await client.callTool({ name: `${server}__whoami`, arguments: {} }));

  it('isolated server: a different child per session; shared server: one child for both', async () => {
    [pids.isoA, pids.isoB, pids.sharedA, pids.sharedB] = await Promise.all([
      whoami(a.client, 'iso'),
      whoami(b.client, 'iso'),
      whoami(a.client, 'shared'),
      whoami(b.client, 'shared'),
    ]);
    expect(pids.isoA).not.toBe(pids.isoB);
    expect(pids.sharedA).toBe(pids.sharedB);
    // Neither session's isolated child is the shared one.
    expect([pids.isoA, pids.isoB]).not.toContain(pids.sharedA);
    // A session keeps its own isolated child across calls.
    expect(await whoami(a.client, 'iso')).toBe(pids.isoA);
    expect(await whoami(b.client, 'iso')).toBe(pids.isoB);
    expect(processAlive(pids.isoA)).toBe(true);
    expect(processAlive(pids.isoB)).toBe(true);
    expect(proxy.core.upstreams.isolatedInstances('iso')).toBe(2);
  });

  it("closing a session stops its isolated child, and only that one", async () => {
    expect(pids.isoA).toBeGreaterThan(0);
    await a.transport.terminateSession();
    await a.client.close();
    await waitFor(() => !processAlive(pids.isoA), 8000, `isolated child ${pids.isoA} of the closed session to exit`);
    // B's isolated child and the shared child live on and keep answering.
    expect(processAlive(pids.isoB)).toBe(true);
    expect(processAlive(pids.sharedA)).toBe(true);
    expect(await whoami(b.client, 'iso')).toBe(pids.isoB);
    expect(await whoami(b.client, 'shared')).toBe(pids.sharedA);
    expect(proxy.core.upstreams.isolatedInstances('iso')).toBe(1);
  });
});

describe('isolation and a legacy SSE session that ends mid-POST', () => {
  let proxy: RunningSwitchboard | undefined;
  afterAll(async () => {
    await proxy?.close();
  });

  it('a request whose body completes after its session closed starts no isolated child', async () => {
    proxy = await startProxy({ mcpServers: { iso: fixture('iso', { isolation: 'session' }) } });
    const { url } = proxy;
    // Open the SSE stream and read the endpoint it names.
    const stream = new AbortController();
    const res = await fetch(`${url}/sse`, { headers: { accept: 'text/event-stream' }, signal: stream.signal });
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    let text = '';
    while (!text.includes('sessionId=')) text += new TextDecoder().decode((await reader.read()).value);
    const endpoint = /data: (\S+)/.exec(text)?.[1] as string;
    // A POST whose body is still arriving when the stream closes.
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'iso__whoami', arguments: {} } });
    const target = new URL(endpoint, url);
    const post = http.request({ host: target.hostname, port: target.port, path: `${target.pathname}${target.search}`, method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } });
    post.on('error', () => undefined);
    await new Promise<void>((resolve, reject) => post.write(body.slice(0, 10), (error) => (error ? reject(error) : resolve())));
    // The proxy runs in this process: the POST's head is in its socket before the request below is
    // even sent, so once that one is answered the proxy has read the head and found the session.
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    stream.abort();
    await waitFor(() => proxy?.core.sessions.size === 0, 5000, 'the SSE session to close');
    const answered = new Promise<number>((resolve) => post.on('response', (r) => resolve(r.statusCode ?? 0)));
    post.end(body.slice(10));
    // Accepted: the session was found before it closed, so this is the case under test, not a 404.
    expect(await answered).toBe(202);
    // The message is handed on right after the 202 is written; a child it wrongly started would be
    // counted at once, but allow for a start that goes through a tick or two.
    await expectNothingWithin(500, 'an isolated child for a closed session', () => proxy?.core.upstreams.isolatedInstances('iso'));
  });
});
