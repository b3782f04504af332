// Strangers cannot hold connections: a request that trickles in is cut after its timeouts, a
// refused one closes its connection at once, connections are capped in total and per address,
// and none of it cuts a slow answer.
import net from 'node:net';
import { EventEmitter } from 'node:events';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RunningSwitchboard } from '../../src/index.js';
import { limitConnections } from '../../src/transport/connection-limits.js';
import { silentLogger } from '../../src/log.js';
import { connect, fixture, startProxy, textOf, waitFor } from './helpers.js';

const TOKEN = 'slow-client-token-0123456789';

/** Opens a raw connection, writes `head`, then one byte every `everyMs`; resolves with what came back and when the socket closed. */
function trickle(port: number, head: string, everyMs: number): Promise<{ reply: string; closedAfterMs: number }> {
  return new Promise((resolve) => {
    const started = Date.now();
    let reply = '';
    const socket = net.connect(port, '127.0.0.1', () => socket.write(head));
    const timer = setInterval(() => socket.write('x'), everyMs);
    socket.on('data', (chunk) => (reply += String(chunk)));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ reply, closedAfterMs: Date.now() - started });
    });
    // Never wait forever: a test that hangs is a failure too.
    setTimeout(() => socket.destroy(), 20_000).unref();
  });
}

describe('slow and hostile clients', () => {
  let proxy: RunningSwitchboard;
  beforeAll(async () => {
    proxy = await startProxy(
      {
        mcpServers: { fx: fixture('fx') },
        limits: { requestTimeoutMs: 1000, headersTimeoutMs: 1000, maxConnections: 40 },
        auth: { tokens: [{ name: 'ops', tokenEnv: 'SB_SLOW_TOKEN' }] },
      },
      { env: { ...process.env, SB_SLOW_TOKEN: TOKEN } },
    );
  });
  afterAll(async () => {
    await proxy?.close();
  });

  it('a stranger trickling a body gets 401 and the connection closed at once', async () => {
    const { reply, closedAfterMs } = await trickle(proxy.port, 'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{', 200);
    expect(reply.split('\r\n')[0]).toBe('HTTP/1.1 401 Unauthorized');
    expect(closedAfterMs).toBeLessThan(3000);
  });

  it('a client with a token trickling a body is cut after the request timeout (408)', async () => {
    const head = `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 100000\r\n\r\n{`;
    const { reply, closedAfterMs } = await trickle(proxy.port, head, 200);
    expect(reply.split('\r\n')[0]).toBe('HTTP/1.1 408 Request Timeout');
    expect(closedAfterMs).toBeGreaterThanOrEqual(900);
    expect(closedAfterMs).toBeLessThan(5000);
  });

  it('headers that never end are cut after the headers timeout', async () => {
    const { closedAfterMs } = await trickle(proxy.port, 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ', 200);
    expect(closedAfterMs).toBeLessThan(5000);
  });

  it('a tool call answering after the request timeout is not cut', async () => {
    const client = await connect(proxy, { token: TOKEN });
    expect(textOf(await client.callTool({ name: 'fx__slow', arguments: { ms: 2500, steps: 1 } }))).toBe('done');
    await client.close();
  });

  it('connections over maxConnections are closed on arrival; the proxy still answers afterwards', async () => {
    const sockets: net.Socket[] = [];
    const closed: boolean[] = [];
    for (let i = 0; i < 60; i++) {
      const socket = net.connect(proxy.port, '127.0.0.1');
      socket.on('error', () => undefined);
      const index = i;
      closed[index] = false;
      socket.on('close', () => (closed[index] = true));
      sockets.push(socket);
    }
    // The proxy closes those over the cap as they arrive; on a busy machine that takes a while.
    await waitFor(() => closed.filter(Boolean).length >= 20, 15_000, 'the connections over the cap closed');
    for (const socket of sockets) socket.destroy();
    // Once it has seen the others go, it takes a new connection again.
    await waitFor(async () => (await fetch(`${proxy.url}/healthz`).catch(() => undefined))?.status === 200, 15_000, 'healthz answered');
  });
});

describe('connections per address', () => {
  it('destroys a non-loopback address’s connections over its cap and counts them down on close', () => {
    // Only the 'connection' event matters here; a real server would run its own listener on these fakes.
    const server = new EventEmitter() as unknown as Server;
    limitConnections(server, { requestTimeoutMs: 1000, headersTimeoutMs: 1000, maxConnections: 100, maxConnectionsPerAddress: 2 }, silentLogger());
    const fakeSocket = (remoteAddress: string) => {
      const handlers: Array<() => void> = [];
      return { remoteAddress, destroy: vi.fn(), once: (_event: string, handler: () => void) => handlers.push(handler), close: () => handlers.forEach((h) => h()) };
    };
    const remote = [fakeSocket('203.0.113.5'), fakeSocket('203.0.113.5'), fakeSocket('203.0.113.5')];
    const local = [fakeSocket('127.0.0.1'), fakeSocket('127.0.0.1'), fakeSocket('127.0.0.1')];
    for (const socket of [...remote, ...local]) server.emit('connection', socket);
    expect(remote.map((s) => s.destroy.mock.calls.length)).toEqual([0, 0, 1]);
    expect(local.map((s) => s.destroy.mock.calls.length)).toEqual([0, 0, 0]);
    // The refused one and one other close: a new one from that address fits again.
    remote[2]!.close();
    remote[0]!.close();
    const again = fakeSocket('203.0.113.5');
    server.emit('connection', again);
    expect(again.destroy).not.toHaveBeenCalled();
  });
});
