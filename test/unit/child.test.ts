import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { ChildProcess, type ChildExit } from '../../src/upstream/child.js';
import { silentLogger } from '../../src/log.js';
import type { ServerConfig } from '../../src/config/types.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

function server(script: string): ServerConfig {
  return {
    name: 'unit',
    alias: 'unit',
    command: process.execPath,
    commandAsWritten: 'node',
    args: [path.join(ROOT, 'test/fixtures', script)],
    env: { PATH: process.env.PATH ?? '' },
    cwd: ROOT,
    isolation: 'shared',
    timeoutMs: 1000,
    disabled: false,
    restart: { initialDelayMs: 100, maxDelayMs: 1000 },
    roots: [],
  };
}

describe('ChildProcess', () => {
  it('stops a well-behaved server by closing its stdin, without signals', async () => {
    let exit: ChildExit | undefined;
    const child = new ChildProcess(server('echo-server.mjs'), silentLogger(), 1 << 20, {
      onLine: () => {},
      onExit: (e) => (exit = e),
    }, { afterStdinCloseMs: 2000, afterTermMs: 2000 });
    await child.stop();
    expect(exit).toEqual({ code: 0, signal: null });
  });

  it('escalates to SIGTERM and then SIGKILL for a child that ignores both stdin EOF and SIGTERM', async () => {
    let exit: ChildExit | undefined;
    const stderr: string[] = [];
    const log = silentLogger();
    log.info = ((obj: { stderr?: string }) => {
      if (obj?.stderr) stderr.push(obj.stderr);
    }) as typeof log.info;
    const child = new ChildProcess(server('stubborn.mjs'), log, 1 << 20, {
      onLine: () => {},
      onExit: (e) => (exit = e),
    }, { afterStdinCloseMs: 300, afterTermMs: 300 });
    await new Promise((r) => setTimeout(r, 300));
    const started = Date.now();
    await child.stop();
    expect(exit?.signal).toBe('SIGKILL');
    expect(Date.now() - started).toBeGreaterThanOrEqual(550);
    expect(stderr).toEqual(expect.arrayContaining(['stubborn ready', 'stdin closed, staying', 'got SIGTERM, ignoring']));
    expect(child.alive).toBe(false);
  });

  it('reports a command that does not exist as a spawn error, not a crash of ours', async () => {
    const exit = await new Promise<ChildExit>((resolve) => {
      new ChildProcess({ ...server('x'), command: '/nonexistent/bin/mcp' }, silentLogger(), 1 << 20, {
        onLine: () => {},
        onExit: resolve,
      });
    });
    expect(exit.spawnError).toBe('command not found');
  });
});
