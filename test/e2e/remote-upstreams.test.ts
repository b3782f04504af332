// Remote servers beside stdio children: server-everything served by its own Streamable HTTP and
// SSE modes, and a fixture of the SDK's McpServer over Streamable HTTP behind a bearer token, all
// on loopback, as upstreams of one proxy: listing, calls, progress, sampling routed to the session
// whose request asked, list_changed, and a restarted upstream.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CreateMessageRequestSchema, ToolListChangedNotificationSchema, type Progress } from '@modelcontextprotocol/sdk/types.js';
import type { RunningSwitchboard } from '../../src/index.js';
import { ROOT, connect, fixture, freePort, listAllTools, serveListening, startProxy, textOf, waitFor, type Served } from './helpers.js';

const EVERYTHING = path.join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const REMOTE_FIXTURE = path.join(ROOT, 'test/fixtures/remote-fixture.mjs');
const TOKEN = 'remote-fixture-token-5f2a9c';

const children = new Set<ChildProcess>();

/** A server process this file stops at the end. */
const serve = (args: string[], env: Record<string, string>, listening: RegExp): Promise<Served> =>
  serveListening(args, env, listening, (child) => children.add(child));

function stopped(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

describe('remote upstreams beside stdio children', () => {
  let proxy: RunningSwitchboard;
  let remote: Served;
  const clients: Client[] = [];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-remote-'));
  const logFile = path.join(dir, 'proxy.log');

  beforeAll(async () => {
    const httpPort = await freePort();
    const ssePort = await freePort();
    const [everythingHttp, everythingSse, fixtureServer] = await Promise.all([
      serve([EVERYTHING, 'streamableHttp'], { PORT: String(httpPort) }, /listening on port (\d+)/),
      serve([EVERYTHING, 'sse'], { PORT: String(ssePort) }, /running on port (\d+)/),
      serve([REMOTE_FIXTURE], { PORT: '0', REQUIRE_AUTH: TOKEN }, /listening (\d+)/),
    ]);
    remote = fixtureServer;
    proxy = await startProxy(
      {
        mcpServers: {
          fx: fixture('fx'),
          web: { url: `http://127.0.0.1:${everythingHttp.port}/mcp` },
          old: { url: `http://127.0.0.1:${everythingSse.port}/sse` },
          rem: { url: `http://127.0.0.1:${remote.port}/mcp`, headers: { Authorization: 'Bearer ${SB_TEST_REMOTE_TOKEN}' }, restart: { initialDelayMs: 100, maxDelayMs: 500 } },
        },
      },
      { env: { ...process.env, SB_TEST_REMOTE_TOKEN: TOKEN }, logFile },
    );
  });

  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    await proxy?.close();
    await Promise.all([...children].map(stopped));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const open = async (name: string, capabilities: Record<string, unknown> = {}): Promise<Client> => {
    const client = await connect(proxy, { name, capabilities });
    clients.push(client);
    return client;
  };

  it('lists and calls tools of a Streamable HTTP server, a legacy SSE server and a stdio child through one endpoint', async () => {
    const client = await open('lister');
    const names = (await listAllTools(client)).map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['fx__echo', 'web__echo', 'old__echo', 'rem__echo', 'web__trigger-long-running-operation']));
    expect(textOf(await client.callTool({ name: 'web__echo', arguments: { message: 'over http' } }))).toBe('Echo: over http');
    expect(textOf(await client.callTool({ name: 'old__echo', arguments: { message: 'over sse' } }))).toBe('Echo: over sse');
    expect(textOf(await client.callTool({ name: 'rem__echo', arguments: { text: 'with a token' } }))).toBe('with a token');
    expect(textOf(await client.callTool({ name: 'fx__echo', arguments: { text: 'over stdio' } }))).toBe('over stdio');
    // `auto` found the legacy transport for the SSE server by itself.
    expect(fs.readFileSync(logFile, 'utf8')).toContain('trying the HTTP+SSE transport');
  });

  it('sends the configured headers to the remote server, and never writes their values into its log', async () => {
    const client = await open('headers');
    const seen = JSON.parse(textOf(await client.callTool({ name: 'rem__headers', arguments: {} }))) as Record<string, string>;
    expect(seen.authorization).toBe(`Bearer (${`Bearer ${TOKEN}`.length} chars)`);
    expect(seen['mcp-protocol-version']).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(fs.readFileSync(logFile, 'utf8')).not.toContain(TOKEN);
  });

  it('brings progress of a remote long-running operation to the session that asked', async () => {
    const client = await open('progress');
    const progress: Progress[] = [];
    const result = await client.callTool({ name: 'web__trigger-long-running-operation', arguments: { duration: 1, steps: 3 } }, undefined, {
      onprogress: (p) => progress.push(p),
      timeout: 20_000,
    });
    expect(textOf(result)).toContain('Long running operation completed');
    expect(progress.map((p) => [p.progress, p.total])).toEqual([
      [1, 3],
      [2, 3],
      [3, 3],
    ]);
  });

  it('asks exactly the session whose call the sampling request belongs to, while another session has a call in flight on the same server', async () => {
    const asker = await open('asker', { sampling: {} });
    const bystander = await open('bystander', { sampling: {} });
    const asked: string[] = [];
    asker.setRequestHandler(CreateMessageRequestSchema, async () => {
      asked.push('asker');
      return { model: 'remote-model', role: 'assistant', content: { type: 'text', text: 'sampled for the asker' } };
    });
    bystander.setRequestHandler(CreateMessageRequestSchema, async () => {
      asked.push('bystander');
      return { model: 'wrong', role: 'assistant', content: { type: 'text', text: 'wrong session' } };
    });
    // The bystander's call keeps it "involved" with the server: only the stream says whose request it is.
    const busy = bystander.callTool({ name: 'web__trigger-long-running-operation', arguments: { duration: 2, steps: 2 } }, undefined, { timeout: 20_000 });
    await waitFor(() => proxy.core.inflightRequests() > 0, 5_000, "the bystander's call in flight");
    const result = await asker.callTool({ name: 'web__trigger-sampling-request', arguments: { prompt: 'whose?', maxTokens: 10 } });
    expect(textOf(result)).toContain('sampled for the asker');
    expect(asked).toEqual(['asker']);
    await busy;
  });

  it('passes on list_changed from a remote server, and lists its new tool', async () => {
    const client = await open('watcher');
    let changed = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void (changed += 1));
    expect(textOf(await client.callTool({ name: 'rem__add_tool', arguments: { name: 'late_arrival' } }))).toBe('added late_arrival');
    await waitFor(() => changed > 0, 10_000, 'list_changed');
    expect((await listAllTools(client)).map((tool) => tool.name)).toContain('rem__late_arrival');
  });

  it('survives the remote server restarting: no call hangs, and a new session with the new process serves the next', async () => {
    const client = await open('restart');
    const before = textOf(await client.callTool({ name: 'rem__whoami', arguments: {} }));
    await stopped(remote.child);
    // While it is down a call fails quickly instead of hanging.
    const started = Date.now();
    await client.callTool({ name: 'rem__echo', arguments: { text: 'anyone?' } }, undefined, { timeout: 15_000 }).then(
      (result) => expect(result.isError).toBe(true),
      (error: unknown) => expect(String(error)).toMatch(/rem|not available|could not|closed|starting/),
    );
    expect(Date.now() - started).toBeLessThan(14_000);
    remote = await serve([REMOTE_FIXTURE], { PORT: String(remote.port), REQUIRE_AUTH: TOKEN }, /listening (\d+)/);
    const after = await waitFor(async () => {
      const result = await client.callTool({ name: 'rem__whoami', arguments: {} }).catch(() => undefined);
      return result !== undefined && result.isError !== true ? textOf(result) : undefined;
    }, 20_000, 'the restarted remote server to serve');
    expect(after).toBe(String(remote.child.pid));
    expect(after).not.toBe(before);
  });
});

describe('a remote server over TLS', () => {
  const tls = { cert: 'test/fixtures/tls/localhost.cert.pem', key: 'test/fixtures/tls/localhost.key.pem' };

  it('is refused with a certificate it cannot verify, and trusted once `ca` adds its issuer', async () => {
    const upstream = await startProxy({ listen: { host: '127.0.0.1', port: 0, tls }, mcpServers: { fx: fixture('fx') } });
    const url = upstream.url.replace('127.0.0.1', 'localhost');
    const front = await startProxy(
      {
        mcpServers: {
          untrusted: { url: `${url}/mcp`, restart: { initialDelayMs: 5_000, maxDelayMs: 5_000 } },
          trusted: { url: `${url}/mcp`, ca: tls.cert },
        },
      },
      { waitReady: false },
    );
    try {
      const servers = async (): Promise<Array<{ name: string; state: string; lastError: string | null }>> =>
        ((await (await fetch(`${front.url}/status.json`)).json()) as { servers: Array<{ name: string; state: string; lastError: string | null }> }).servers;
      const untrusted = await waitFor(async () => (await servers()).find((s) => s.name === 'untrusted' && s.lastError !== null), 10_000, 'the untrusted server to fail');
      expect(untrusted.lastError).toMatch(/certificate/i);
      await waitFor(async () => (await servers()).find((s) => s.name === 'trusted')?.state === 'ready', 10_000, 'the trusted server');
      const client = await connect(front);
      try {
        expect(textOf(await client.callTool({ name: 'trusted__fx__echo', arguments: { text: 'over tls' } }))).toBe('over tls');
      } finally {
        await client.close();
      }
    } finally {
      await front.close();
      await upstream.close();
    }
  });
});
