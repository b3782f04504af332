// A remote server as the connection sees it, against a scripted HTTP server on loopback: the
// in-flight bound that never blocks cancellations, a resumable stream's priming event, a server
// without a standing stream, and a stream that closes before its answer.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RemoteServer } from '../../../src/upstream/remote/remote-server.js';
import type { ChildExit } from '../../../src/upstream/child.js';
import { pino } from 'pino';

let server: Server;
let url: string;
const held: ServerResponse[] = [];
const cancelled: unknown[] = [];

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (req.method === 'GET') {
      // Routes POST only, as many servers do.
      res.writeHead(404).end();
      return;
    }
    if (req.method === 'DELETE') {
      res.writeHead(200).end();
      return;
    }
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => {
      const message = JSON.parse(text) as { id?: number; method?: string; params?: { name?: string; requestId?: unknown } };
      if (message.method === 'initialize') {
        res.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 'session-1' });
        res.end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 's', version: '1' } } }));
        return;
      }
      if (message.id === undefined) {
        if (message.method === 'notifications/cancelled') cancelled.push(message.params?.requestId);
        res.writeHead(202).end();
        return;
      }
      if (message.params?.name === 'prime') {
        // A resumable stream's priming event, then the stream closes without the answer.
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end('id: e1\ndata: \n\n');
        return;
      }
      held.push(res); // never answered
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
});

afterAll(async () => {
  for (const res of held) res.destroy();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** `logged`: the messages of what the remote server logged at debug and above, in order. */
function open(): { remote: RemoteServer; lines: string[]; made: unknown[]; exits: ChildExit[]; logged: string[] } {
  const lines: string[] = [];
  const made: unknown[] = [];
  const exits: ChildExit[] = [];
  const logged: string[] = [];
  const log = pino({ level: 'debug' }, { write: (line: string) => void logged.push(String((JSON.parse(line) as { msg?: unknown }).msg)) });
  const remote = new RemoteServer('r', { url, headers: {}, transport: 'http', ca: undefined }, log, 1024 * 1024, {
    onLine: (line) => lines.push(line),
    onMessage: (message, carriedBy) => made.push({ message, carriedBy }),
    onExit: (exit) => exits.push(exit),
  });
  return { remote, lines, made, exits, logged };
}

/** Writes a message the way the connection does: its text, with the id and method it already knows. */
function send(remote: RemoteServer, message: { jsonrpc: string; id?: number | string; method?: string; params?: unknown; result?: unknown }): string {
  return remote.write(`${JSON.stringify(message)}\n`, message.id, message.method);
}

async function initialized(remote: RemoteServer, lines: string[]): Promise<void> {
  send(remote, { jsonrpc: '2.0', id: 0, method: 'initialize', params: {} });
  await waitUntil(() => lines.length > 0);
  send(remote, { jsonrpc: '2.0', method: 'notifications/initialized' });
}

async function waitUntil(condition: () => boolean, ms = 5_000): Promise<void> {
  for (const deadline = Date.now() + ms; !condition(); ) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('RemoteServer', () => {
  it('refuses the 257th request in flight, yet always sends a cancellation; abandoning a request frees its slot', async () => {
    const { remote, lines } = open();
    await initialized(remote, lines);
    for (let id = 1; id <= 256; id++) expect(send(remote, { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'hang' } })).toBe('sent');
    expect(send(remote, { jsonrpc: '2.0', id: 257, method: 'tools/call', params: { name: 'hang' } })).toBe('full');
    // A notification goes whatever the bound: the cancellation of request 2 reaches the server while it is full.
    expect(send(remote, { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2, reason: 'timed out' } })).toBe('sent');
    expect(send(remote, { jsonrpc: '2.0', id: 257, method: 'tools/call', params: { name: 'hang' } })).toBe('full');
    // As the connection cancels: the request is abandoned (its POST closed), then the server told.
    remote.abandon(1);
    expect(send(remote, { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, reason: 'timed out' } })).toBe('sent');
    expect(send(remote, { jsonrpc: '2.0', id: 258, method: 'tools/call', params: { name: 'hang' } })).toBe('sent');
    await waitUntil(() => cancelled.includes(1) && cancelled.includes(2));
    // Answers to the server's own requests go whatever the bound.
    expect(send(remote, { jsonrpc: '2.0', id: 'server-1', result: {} })).toBe('sent');
    await remote.stop();
  });

  it('takes a stream that closes after only its priming event, and cannot be resumed (the GET is refused), as unanswered: an error at once (an object, not text), and the server told', async () => {
    const { remote, lines, made } = open();
    await initialized(remote, lines);
    send(remote, { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'prime' } });
    await waitUntil(() => made.length > 0);
    expect(made).toEqual([{ message: { jsonrpc: '2.0', id: 7, error: { code: -32603, message: 'server r cut the stream before answering, and resuming it answered HTTP 404' } }, carriedBy: 7 }]);
    expect(lines).toHaveLength(1); // the initialize answer alone came as the server's text
    await waitUntil(() => cancelled.includes(7));
    await remote.stop();
  });

  it('stays up when the server offers no standing stream (a GET answered 404 before it ever worked)', async () => {
    const { remote, lines, exits, logged } = open();
    await initialized(remote, lines);
    // Its answer to the GET is read: had it ended the connection, it would have by now.
    await waitUntil(() => logged.some((msg) => msg.startsWith('the remote server offers no standing stream')));
    expect(exits).toEqual([]);
    expect(remote.alive).toBe(true);
    await remote.stop();
    expect(exits).toEqual([{ code: 0, signal: null }]);
  });
});
