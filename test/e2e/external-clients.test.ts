// Real third-party clients against a running proxy: the MCP Inspector CLI (v1) over /mcp and /sse,
// and mcp-remote as a stdio bridge (http-only to /mcp, sse-only to /sse) driven by the SDK's stdio client.
// Both are exact-pinned devDependencies, run from node_modules; nothing is installed globally.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { RunningSwitchboard } from '../../src/index.js';
import { ROOT, fixture, startProxy, textOf } from './helpers.js';
import { startIdp } from '../fixtures/oidc-idp.js';

const INSPECTOR_BUILD = path.join(ROOT, 'node_modules/@modelcontextprotocol/inspector-cli/build');
const MCP_REMOTE = path.join(ROOT, 'node_modules/mcp-remote/dist/proxy.js');
const CLIENT_TIMEOUT_MS = 15_000;
const REQUEST_TIMEOUT_MS = 10_000;

/** Process groups of spawned clients still running, killed in afterAll whatever happened. */
const live = new Set<number>();

function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // already gone
  }
  live.delete(pid);
}

interface Run {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a command in its own process group; SIGKILLs the whole group after `timeoutMs`. */
function runBounded(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number }): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    if (child.pid === undefined) {
      reject(new Error(`could not spawn ${command}`));
      return;
    }
    const pid = child.pid;
    live.add(pid);
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => {
      stderr += `\n[test] killed after ${options.timeoutMs} ms`;
      killGroup(pid);
    }, options.timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      killGroup(pid);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      killGroup(pid); // the inspector's bin runs build/index.js as a grandchild; leave nothing behind
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/** A scratch HOME so no client writes a token cache or config into the real one. */
let scratchHome: string;

function clientEnv(): NodeJS.ProcessEnv {
  return {
    ...process.env,
    // The inspector's bin spawns `node` from PATH: make that the node running these tests.
    PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ''}`,
    HOME: scratchHome,
    USERPROFILE: scratchHome,
    MCP_REMOTE_CONFIG_DIR: path.join(scratchHome, '.mcp-auth'),
  };
}

let proxy: RunningSwitchboard;

beforeAll(async () => {
  scratchHome = mkdtempSync(path.join(os.tmpdir(), 'switchboard-ext-home-'));
  proxy = await startProxy({ mcpServers: { fx: fixture('fx') } });
});

afterAll(async () => {
  for (const pid of [...live]) killGroup(pid);
  await proxy?.close();
  if (scratchHome) rmSync(scratchHome, { recursive: true, force: true });
});

// The bin is build/cli.js; with --cli it runs build/index.js, which picks the package.json to read
// its own name from with a cwd-relative existsSync('../package.json') but imports it relative to
// itself (PROTOCOL.md §10b). From its own build/ directory both resolve to inspector-cli/package.json.
async function inspector(args: string[]): Promise<unknown> {
  const run = await runBounded(process.execPath, [path.join(INSPECTOR_BUILD, 'cli.js'), '--cli', ...args], {
    cwd: INSPECTOR_BUILD,
    env: clientEnv(),
    timeoutMs: CLIENT_TIMEOUT_MS,
  });
  const report = `exit ${run.code ?? run.signal}\nstdout:\n${run.stdout}\nstderr:\n${run.stderr}`;
  expect(run.code, report).toBe(0);
  // The deprecation notice goes to stderr; stdout is the JSON result alone.
  try {
    return JSON.parse(run.stdout) as unknown;
  } catch {
    throw new Error(`inspector printed no JSON result\n${report}`);
  }
}

describe('MCP Inspector CLI (@modelcontextprotocol/inspector-cli, v1)', () => {
  it.each([
    ['http', '/mcp'],
    ['sse', '/sse'],
  ])('lists tools and calls fx__echo over --transport %s (%s)', async (transport, route) => {
    const url = `${proxy.url}${route}`;
    const listed = (await inspector([url, '--transport', transport, '--method', 'tools/list'])) as { tools: Array<{ name: string }> };
    const names = listed.tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['fx__echo', 'fx__whoami', 'fx__slow']));
    expect(names.every((name) => name.startsWith('fx__'))).toBe(true);

    const text = `hello from the inspector over ${transport}`;
    const called = await inspector([url, '--transport', transport, '--method', 'tools/call', '--tool-name', 'fx__echo', '--tool-arg', `text=${text}`]);
    expect(textOf(called)).toBe(text);
    expect((called as { isError?: boolean }).isError ?? false).toBe(false);
  });

  it('calls a tool unprefixed on the per-server door /s/fx/mcp', async () => {
    const url = `${proxy.url}/s/fx/mcp`;
    const listed = (await inspector([url, '--transport', 'http', '--method', 'tools/list'])) as { tools: Array<{ name: string }> };
    const names = listed.tools.map((t) => t.name);
    expect(names).toContain('echo');
    expect(names).not.toContain('fx__echo');
    const called = await inspector([url, '--transport', 'http', '--method', 'tools/call', '--tool-name', 'echo', '--tool-arg', 'text=solo']);
    expect(textOf(called)).toBe('solo');
  });
});

describe('MCP Inspector CLI with an access token from an OpenID provider', () => {
  it('lists tools and calls fx__echo through an OAuth-protected proxy with the token in --header', async () => {
    const idp = await startIdp();
    const guarded = await startProxy({ mcpServers: { fx: fixture('fx') }, auth: { oauth: { issuer: idp.issuer, requiredScopes: ['mcp'] } } });
    try {
      const url = `${guarded.url}/mcp`;
      const token = await idp.token({ account: { sub: 'inspector-user' }, resource: url });
      const header = `Authorization: Bearer ${token}`;
      const listed = (await inspector([url, '--transport', 'http', '--header', header, '--method', 'tools/list'])) as { tools: Array<{ name: string }> };
      expect(listed.tools.map((t) => t.name)).toContain('fx__echo');
      const called = await inspector([url, '--transport', 'http', '--header', header, '--method', 'tools/call', '--tool-name', 'fx__echo', '--tool-arg', 'text=with a token']);
      expect(textOf(called)).toBe('with a token');
      // Without it the same command is refused: the token is what let it in.
      const refused = await runBounded(process.execPath, [path.join(INSPECTOR_BUILD, 'cli.js'), '--cli', url, '--transport', 'http', '--method', 'tools/list'], {
        cwd: INSPECTOR_BUILD,
        env: clientEnv(),
        timeoutMs: CLIENT_TIMEOUT_MS,
      });
      expect(refused.code).not.toBe(0);
    } finally {
      await guarded.close();
      await idp.close();
    }
  });
});

describe('mcp-remote as a stdio bridge', () => {
  // 127.0.0.1 over plain http is allowed without --allow-http (mcp-remote exempts localhost/127.0.0.1).
  it.each([
    ['http-only', '/mcp'],
    ['sse-only', '/sse'],
  ])('bridges --transport %s to %s: lists tools and calls fx__echo', async (strategy, route) => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [MCP_REMOTE, `${proxy.url}${route}`, '--transport', strategy],
      env: clientEnv() as Record<string, string>,
      cwd: scratchHome,
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const client = new Client({ name: 'e2e-stdio', version: '1.0.0' }, { capabilities: {} });
    let pid: number | null = null;
    try {
      await client.connect(transport, { timeout: REQUEST_TIMEOUT_MS });
      pid = transport.pid;
      const names = (await client.listTools({}, { timeout: REQUEST_TIMEOUT_MS })).tools.map((t) => t.name);
      expect(names, stderr).toEqual(expect.arrayContaining(['fx__echo', 'fx__whoami', 'fx__slow']));

      const text = `through mcp-remote ${strategy}`;
      const result = await client.callTool({ name: 'fx__echo', arguments: { text } }, undefined, { timeout: REQUEST_TIMEOUT_MS });
      expect(textOf(result), stderr).toBe(text);

      // It really went through the bridge over the intended transport.
      const expected = strategy === 'http-only' ? 'StreamableHTTPClientTransport' : 'SSEClientTransport';
      expect(stderr).toContain(`Connected to remote server using ${expected}`);
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
