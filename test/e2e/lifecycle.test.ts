// Health probes, restart backoff for a server that cannot start, cancellation on timeout, and the CLI's user errors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { createSwitchboard, resolveConfig, type RunningSwitchboard } from '../../src/index.js';
import { createRootLogger } from '../../src/log.js';
import { CLI, ROOT, connect, fixture, startProxy, textOf, waitFor } from './helpers.js';

const run = promisify(execFile);

describe('health and readiness', () => {
  let proxy: RunningSwitchboard;
  beforeAll(async () => {
    proxy = await startProxy({ mcpServers: { good: fixture('good') } });
  });
  afterAll(async () => proxy?.close());

  it('answers /healthz and /readyz with each server state', async () => {
    const health = await fetch(`${proxy.url}/healthz`);
    expect(health.status).toBe(200);
    const ready = await fetch(`${proxy.url}/readyz`);
    expect(ready.status).toBe(200);
    const body = (await ready.json()) as { ready: boolean; servers: Record<string, { state: string; pid: number }> };
    expect(body.ready).toBe(true);
    expect(body.servers.good?.state).toBe('ready');
    expect(body.servers.good?.pid).toBeGreaterThan(0);
  });

  it('answers unknown paths with 404', async () => {
    expect((await fetch(`${proxy.url}/nope`)).status).toBe(404);
    expect((await fetch(`${proxy.url}/s/unknown/mcp`, { method: 'POST' })).status).toBe(404);
  });
});

describe('a server that cannot start', () => {
  let proxy: RunningSwitchboard;
  beforeAll(async () => {
    const config = resolveConfig(
      {
        listen: { host: '127.0.0.1', port: 0 },
        mcpServers: {
          good: fixture('good'),
          broken: fixture('broken', { timeoutMs: 800, restart: { initialDelayMs: 50, maxDelayMs: 400 } }, { FIXTURE_FAIL_START: '1' }),
        },
      },
      { file: '<inline>', dir: ROOT },
    );
    proxy = await createSwitchboard(config, { shutdown: { afterStdinCloseMs: 300, afterTermMs: 300 } });
  });
  afterAll(async () => proxy?.close());

  it('keeps restarting it with capped backoff while /readyz says 503 and why', async () => {
    const broken = proxy.core.upstreams.primaryOf('broken');
    await waitFor(() => (broken?.restarts ?? 0) >= 4, 10_000, 'four restarts');
    const ready = await fetch(`${proxy.url}/readyz`);
    expect(ready.status).toBe(503);
    const body = (await ready.json()) as { ready: boolean; servers: Record<string, { state: string; lastError?: string }> };
    expect(body.ready).toBe(false);
    expect(body.servers.good?.state).toBe('ready');
    expect(body.servers.broken?.state).not.toBe('ready');
    expect(body.servers.broken?.lastError).toMatch(/exited with code 1|closed|exited/);
  });

  it('answers a call to it with an error naming it, within its timeout, and serves the others', async () => {
    const client = await connect(proxy);
    const started = Date.now();
    await expect(client.callTool({ name: 'broken__echo', arguments: { text: 'x' } })).rejects.toThrow(/Unknown tool|broken/);
    expect(textOf(await client.callTool({ name: 'good__echo', arguments: { text: 'fine' } }))).toBe('fine');
    expect(Date.now() - started).toBeLessThan(5000);
    await client.close();
  });
});

describe('timeouts', () => {
  it('answers the caller and sends notifications/cancelled to the child', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-timeout-'));
    const logFile = path.join(dir, 'proxy.log');
    const config = resolveConfig(
      { listen: { host: '127.0.0.1', port: 0 }, mcpServers: { slowpoke: fixture('slowpoke', { timeoutMs: 400 }) } },
      { file: '<inline>', dir: ROOT },
    );
    const logger = createRootLogger({ level: 'debug', destination: logFile });
    const proxy = await createSwitchboard(config, { logger, shutdown: { afterStdinCloseMs: 300, afterTermMs: 300 } });
    try {
      await proxy.whenReady();
      const client = await connect(proxy);
      await expect(client.callTool({ name: 'slowpoke__hang', arguments: {} })).rejects.toThrow(/did not answer tools\/call within 400 ms/);
      // The fixture reports every message it receives on stderr, which the proxy logs.
      await waitFor(() => fs.readFileSync(logFile, 'utf8').includes('[fixture] notifications/cancelled'), 5000, 'cancel in the log');
      await client.close();
    } finally {
      await proxy.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the switchboard command', () => {
  const cli = CLI;

  async function fails(args: string[]): Promise<{ code: number; stderr: string }> {
    try {
      await run(process.execPath, [...cli, ...args], { cwd: ROOT, timeout: 20_000 });
    } catch (error) {
      const e = error as { code: number; stderr: string };
      return { code: e.code, stderr: e.stderr };
    }
    throw new Error('command succeeded');
  }

  it('exits 2 with one line naming file, JSON path and problem for a bad config', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-cli-'));
    const file = path.join(dir, 'bad.json');
    fs.writeFileSync(file, JSON.stringify({ mcpServers: { x: { command: 'node' } }, listen: { port: 'abc' } }));
    const { code, stderr } = await fails(['start', '-c', file]);
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toContain(file);
    expect(stderr).toContain('$.listen.port');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('exits 2 with one line for an unknown flag or command, and prints its version', async () => {
    const flag = await fails(['--bogus']);
    expect(flag.code).toBe(2);
    expect(flag.stderr.trim().split('\n')).toHaveLength(1);
    const command = await fails(['frobnicate']);
    expect(command.code).toBe(2);
    expect(command.stderr).toMatch(/unknown command "frobnicate"/);
    const { stdout } = await run(process.execPath, [...cli, '--version'], { cwd: ROOT });
    expect(stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });
});
