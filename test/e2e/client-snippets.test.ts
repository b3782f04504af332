// The README's client snippets (docs/clients/), filled in as each client fills them, reach a proxy
// that requires a bearer token: Claude Desktop's through mcp-remote over stdio as Claude Desktop
// starts it, the others as the HTTP headers their client sends. Only the port is the test's own.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { parse as parseToml } from 'smol-toml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSwitchboard } from '../../src/index.js';
import { ROOT, fixture, startProxy, textOf } from './helpers.js';

const DIR = path.join(ROOT, 'docs/clients');
const MCP_REMOTE = path.join(ROOT, 'node_modules/mcp-remote/dist/proxy.js');
const DEFAULT_URL = 'http://127.0.0.1:8808/mcp';
const REQUEST_TIMEOUT_MS = 10_000;
const TOKEN = randomBytes(24).toString('base64url');

interface HttpServer {
  readonly url: string;
  readonly headers: Record<string, string>;
}
interface StdioServer {
  readonly command: string;
  readonly args: string[];
  readonly env: Record<string, string>;
}

const json = (name: string) => JSON.parse(fs.readFileSync(path.join(DIR, name), 'utf8')) as Record<string, Record<string, unknown>>;

/** `${NAME}` (Claude Code), `${env:NAME}` (Cursor) and `${input:ID}` (VS Code, asked once) as the token. */
function fillIn(text: string): string {
  return text.replace(/\$\{(?:env:|input:)?[\w-]+\}/g, TOKEN);
}

let proxy: RunningSwitchboard;
let scratchHome: string;
/** The snippet's URL with the test proxy's port. */
const here = (url: string): string => url.replace(new URL(DEFAULT_URL).origin, proxy.url);

beforeAll(async () => {
  scratchHome = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-snippet-home-'));
  proxy = await startProxy(
    { mcpServers: { fx: fixture('fx') }, auth: { tokens: [{ name: 'me', tokenEnv: 'SNIPPET_TEST_TOKEN' }] } },
    { env: { ...process.env, SNIPPET_TEST_TOKEN: TOKEN } },
  );
  // The proxy really wants the token: without one it refuses.
  const refused = await fetch(`${proxy.url}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
  });
  expect(refused.status).toBe(401);
});

afterAll(async () => {
  await proxy?.close();
  if (scratchHome) fs.rmSync(scratchHome, { recursive: true, force: true });
});

async function callsThrough(client: Client): Promise<void> {
  const names = (await client.listTools({}, { timeout: REQUEST_TIMEOUT_MS })).tools.map((tool) => tool.name);
  expect(names).toContain('fx__echo');
  const result = await client.callTool({ name: 'fx__echo', arguments: { text: 'from a snippet' } }, undefined, { timeout: REQUEST_TIMEOUT_MS });
  expect(textOf(result)).toBe('from a snippet');
}

describe('client snippets against a proxy with auth on', () => {
  const http: Array<[string, () => HttpServer]> = [
    ['Claude Code (.mcp.json)', () => json('claude-code.mcp.json').mcpServers!.switchboard as unknown as HttpServer],
    ['Cursor (mcp.json)', () => json('cursor.mcp.json').mcpServers!.switchboard as unknown as HttpServer],
    ['VS Code (.vscode/mcp.json)', () => json('vscode.mcp.json').servers!.switchboard as unknown as HttpServer],
    [
      'Codex (config.toml)',
      () => {
        const codex = parseToml(fs.readFileSync(path.join(DIR, 'codex.config.toml'), 'utf8')) as { mcp_servers: Record<string, { url: string; bearer_token_env_var: string }> };
        const server = codex.mcp_servers.switchboard!;
        // Codex sends `Authorization: Bearer <value of that variable>`.
        return { url: server.url, headers: { Authorization: `Bearer \${${server.bearer_token_env_var}}` } };
      },
    ],
  ];

  it.each(http)('%s: its url and headers list and call tools', async (_client, read) => {
    const server = read();
    const headers = Object.fromEntries(Object.entries(server.headers).map(([name, value]) => [name, fillIn(value)]));
    expect(headers.Authorization).toBe(`Bearer ${TOKEN}`);
    const client = new Client({ name: 'snippet', version: '1.0.0' }, { capabilities: {} });
    await client.connect(new StreamableHTTPClientTransport(new URL(here(server.url)), { requestInit: { headers } }), { timeout: REQUEST_TIMEOUT_MS });
    try {
      await callsThrough(client);
    } finally {
      await client.close();
    }
  });

  it('Claude Desktop (claude_desktop_config.json): mcp-remote started with its args and env lists and calls tools', async () => {
    const server = json('claude_desktop_config.json').mcpServers!.switchboard as unknown as StdioServer;
    // `npx -y mcp-remote` is the pinned devDependency here, run by node directly (npx adds seconds).
    expect([server.command, ...server.args.slice(0, 2)]).toEqual(['npx', '-y', 'mcp-remote']);
    const env = Object.fromEntries(Object.entries(server.env).map(([name, value]) => [name, value.replace('YOUR_TOKEN', TOKEN)]));
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [MCP_REMOTE, ...server.args.slice(2).map(here)],
      // Claude Desktop gives a server its `env` over a default environment; a scratch HOME keeps
      // mcp-remote's own files out of the real one.
      env: { PATH: process.env.PATH ?? '', HOME: scratchHome, MCP_REMOTE_CONFIG_DIR: path.join(scratchHome, '.mcp-auth'), ...env },
      cwd: scratchHome,
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const client = new Client({ name: 'claude-desktop-like', version: '1.0.0' }, { capabilities: {} });
    let pid: number | null = null;
    try {
      await client.connect(transport, { timeout: REQUEST_TIMEOUT_MS });
      pid = transport.pid;
      await callsThrough(client);
    } catch (error) {
      throw new Error(`${String(error)}\nmcp-remote stderr:\n${stderr}`, { cause: error });
    } finally {
      pid ??= transport.pid;
      await Promise.race([client.close().catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 5_000))]);
      if (pid !== null) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // exited on stdin close, as it should
        }
      }
    }
  });
});
