// A remote server's MCP-Protocol-Version comes from the answer to the proxy's own initialize, never
// from another message; a version the proxy cannot use fails that start (with backoff and a clear
// error), it does not loop.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningSwitchboard } from '../../src/index.js';
import { connect, listAllTools, startProxy, textOf, waitFor } from './helpers.js';

interface Scripted {
  readonly url: string;
  /** Each POST's method and the MCP-Protocol-Version header it came with. */
  readonly posts: Array<{ readonly method: string | undefined; readonly version: string | undefined }>;
  close(): Promise<void>;
}

/**
 * A Streamable HTTP server that answers initialize with `initialize(id)`: SSE events as text.
 * tools/list offers `echo`; tools/call answers the protocol version header it was sent.
 */
async function scripted(initialize: (id: unknown) => string): Promise<Scripted> {
  const posts: Scripted['posts'] = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (req.method !== 'POST') {
      res.writeHead(req.method === 'DELETE' ? 200 : 405).end();
      return;
    }
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => {
      const message = JSON.parse(text) as { id?: unknown; method?: string };
      const version = req.headers['mcp-protocol-version'];
      posts.push({ method: message.method, version: typeof version === 'string' ? version : undefined });
      if (message.id === undefined) {
        res.writeHead(202).end();
        return;
      }
      if (message.method === 'initialize') {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'mcp-session-id': 'session-1' });
        res.end(initialize(message.id));
        return;
      }
      const result =
        message.method === 'tools/list'
          ? { tools: [{ name: 'echo', description: 'Answers the protocol version header it was sent.', inputSchema: { type: 'object' } }] }
          : message.method === 'tools/call'
            ? { content: [{ type: 'text', text: String(version) }] }
            : {};
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`,
    posts,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

const event = (message: unknown): string => `event: message\ndata: ${JSON.stringify(message)}\n\n`;
const initResult = (protocolVersion: string) => ({ protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'scripted', version: '1' } });

let proxy: RunningSwitchboard | undefined;
let remote: Scripted | undefined;
afterEach(async () => {
  await proxy?.close();
  await remote?.close();
  proxy = undefined;
  remote = undefined;
});

describe('a remote server’s protocol version', () => {
  it('is taken from the answer to the proxy’s initialize, not from a message with another id before it', async () => {
    remote = await scripted((id) =>
      // A response to a request the proxy never sent, naming another version, comes first.
      event({ jsonrpc: '2.0', id: 987_654, result: initResult('2024-11-05') }) + event({ jsonrpc: '2.0', id, result: initResult('2025-06-18') }),
    );
    proxy = await startProxy({ mcpServers: { rem: { url: remote.url, transport: 'http' } } });
    const client = await connect(proxy);
    expect((await listAllTools(client)).map((tool) => tool.name)).toContain('rem__echo');
    expect(textOf(await client.callTool({ name: 'rem__echo', arguments: {} }))).toBe('2025-06-18');
    expect(remote.posts.filter((post) => post.method !== 'initialize').map((post) => post.version)).not.toContain('2024-11-05');
    await client.close();
  });

  it.each([
    ['unsupported', '1999-01-01'],
    ['not a header value', '2025-06-18\r\nX-Injected: 1'],
  ])('that is %s fails the start with a clear error, and the server is retried with backoff, not in a loop', async (_what, version) => {
    remote = await scripted((id) => event({ jsonrpc: '2.0', id, result: initResult(version) }));
    proxy = await startProxy({ mcpServers: { rem: { url: remote.url, transport: 'http', restart: { initialDelayMs: 200, maxDelayMs: 400 } } } }, { waitReady: false });
    const handle = () => proxy?.core.upstreams.primaryOf('rem');
    await waitFor(() => handle()?.lastError, 10_000, 'the failed start to be reported');
    expect(handle()?.lastError).toMatch(/unsupported protocol version/);
    // One line, whatever the server wrote.
    expect(handle()?.lastError).not.toMatch(/[\r\n]/);
    const started = Date.now();
    const initializesBefore = remote.posts.filter((post) => post.method === 'initialize').length;
    // Two more attempts, 200 then 400 ms apart (the cap): the backoff paces them.
    await waitFor(() => remote!.posts.filter((post) => post.method === 'initialize').length >= initializesBefore + 2, 10_000, 'two more start attempts');
    expect(Date.now() - started).toBeGreaterThanOrEqual(350);
    // The daemon stays up and reports it on /status.json.
    const status = (await (await fetch(`${proxy.url}/status.json`)).json()) as { servers: Array<{ name: string; state: string; error?: string }> };
    const entry = status.servers.find((server) => server.name === 'rem');
    expect(entry?.state).not.toBe('ready');
    expect(JSON.stringify(entry)).toMatch(/unsupported protocol version/);
    // No request after the initialize ever carried the version (nor one a header cannot hold).
    expect(remote.posts.some((post) => post.version === version)).toBe(false);
  });
});
