import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { ServerProcess, type ChildExit } from '../../../src/upstream/child.js';
import { silentLogger } from '../../../src/log.js';
import type { ServerConfig } from '../../../src/config/types.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');

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
    protocol: 'auto',
    timeoutMs: 1000,
    disabled: false,
    restart: { initialDelayMs: 100, maxDelayMs: 1000 },
    roots: [],
    acceptUpdates: false,
  maxConcurrent: undefined,
  maxQueued: 1000,
  };
}

/** What chunk-counter.mjs reported, as the newline counts of its reads, once `total` lines arrived. */
function readsOf(seen: string[], total: number): Promise<number[]> {
  return (async () => {
    for (let waited = 0; waited < 5000; waited += 10) {
      const reads = seen.map((line) => (JSON.parse(line) as { lines: number }).lines);
      if (reads.reduce((sum, n) => sum + n, 0) >= total) return reads;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`only ${seen.length} reads reported`);
  })();
}

describe('ServerProcess', () => {
  it('sends the lines written in one event-loop turn together, and those of the next turn after them', async () => {
    const seen: string[] = [];
    const child = new ServerProcess(server('chunk-counter.mjs'), silentLogger(), 1 << 20, {
      onLine: (line) => seen.push(line),
      onExit: () => {},
    });
    try {
      const line = `${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { data: 'x'.repeat(100) } })}\n`;
      // The child reads (its first report), so what follows is not just what queued while it started.
      child.write(line);
      expect(await readsOf(seen, 1)).toEqual([1]);
      // Twenty requests of as many clients, read in one turn: one write, so the child reads them at once.
      for (let i = 0; i < 20; i++) expect(child.write(line)).toBe('sent');
      expect(await readsOf(seen, 21)).toEqual([1, 20]);
      // Nothing is held past the turn: a line written later goes out on its own.
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(child.writeEncoded(Buffer.byteLength(line), (target) => target.write(line))).toBe('sent');
      expect(await readsOf(seen, 22)).toEqual([1, 20, 1]);
    } finally {
      await child.stop();
    }
  });

  it('sends what it holds before closing stdin on stop', async () => {
    const seen: string[] = [];
    let exit: ChildExit | undefined;
    const child = new ServerProcess(server('chunk-counter.mjs'), silentLogger(), 1 << 20, {
      onLine: (line) => seen.push(line),
      onExit: (e) => (exit = e),
    });
    const line = '{"jsonrpc":"2.0","method":"notifications/initialized"}\n';
    child.write(line);
    expect(await readsOf(seen, 1)).toEqual([1]);
    child.write(line);
    child.write(line);
    await child.stop();
    expect(exit).toEqual({ code: 0, signal: null });
    expect(await readsOf(seen, 3)).toEqual([1, 2]);
  });

  it('stops a well-behaved server by closing its stdin, without signals', async () => {
    let exit: ChildExit | undefined;
    const child = new ServerProcess(server('echo-server.mjs'), silentLogger(), 1 << 20, {
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
    const child = new ServerProcess(server('stubborn.mjs'), log, 1 << 20, {
      onLine: () => {},
      onExit: (e) => (exit = e),
    }, { afterStdinCloseMs: 300, afterTermMs: 300 });
    // Its signal handlers are set once it says so.
    for (const deadline = Date.now() + 10_000; !stderr.includes('stubborn ready'); ) {
      if (Date.now() > deadline) throw new Error('stubborn.mjs never said it was ready');
      await new Promise((r) => setTimeout(r, 10));
    }
    const started = Date.now();
    await child.stop();
    expect(exit?.signal).toBe('SIGKILL');
    expect(Date.now() - started).toBeGreaterThanOrEqual(550);
    expect(stderr).toEqual(expect.arrayContaining(['stubborn ready', 'stdin closed, staying', 'got SIGTERM, ignoring']));
    expect(child.alive).toBe(false);
  });

  it('reports a command that does not exist as a spawn error, not a crash of ours', async () => {
    const exit = await new Promise<ChildExit>((resolve) => {
      new ServerProcess({ ...server('x'), command: '/nonexistent/bin/mcp' }, silentLogger(), 1 << 20, {
        onLine: () => {},
        onExit: resolve,
      });
    });
    expect(exit.spawnError).toBe('command not found');
  });
});

describe('ServerProcess with helpers of its own', () => {
  function alive(pid: number): boolean {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  }

  async function startForker(env: Record<string, string> = {}) {
    let helperPid = 0;
    let exit: ChildExit | undefined;
    const config = server('forker.mjs');
    const child = new ServerProcess({ ...config, env: { ...config.env, ...env } }, silentLogger(), 1 << 20, {
      onLine: (line) => (helperPid = (JSON.parse(line) as { params: { pid: number } }).params.pid),
      onExit: (e) => (exit = e),
    }, { afterStdinCloseMs: 200, afterTermMs: 200 });
    const deadline = Date.now() + 5000;
    while (helperPid === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(helperPid).toBeGreaterThan(0);
    return { child, helperPid, exit: () => exit };
  }

  async function until(condition: () => boolean, ms: number): Promise<boolean> {
    const deadline = Date.now() + ms;
    while (!condition()) {
      if (Date.now() > deadline) return false;
      await new Promise((r) => setTimeout(r, 20));
    }
    return true;
  }

  it('notices the exit of a server whose helper still holds its stderr, and stops the helper', async () => {
    const { child, helperPid, exit } = await startForker();
    process.kill(child.pid as number, 'SIGKILL');
    expect(await until(() => exit() !== undefined, 2000)).toBe(true);
    expect(exit()?.signal).toBe('SIGKILL');
    expect(await until(() => !alive(helperPid), 3000)).toBe(true);
  });

  it('stops the helper too when the server is stopped', async () => {
    const { child, helperPid } = await startForker();
    await child.stop();
    expect(await until(() => !alive(helperPid), 3000)).toBe(true);
  });

  it('SIGKILLs a helper that ignores SIGTERM after the grace, also when the server itself exited on stdin close', async () => {
    const { child, helperPid, exit } = await startForker({ FORKER_STUBBORN_HELPER: '1', FORKER_EXIT_ON_EOF: '1' });
    const started = Date.now();
    await child.stop();
    // The stop returns once the helper is gone: after SIGTERM was ignored for afterTermMs (200 ms).
    expect(exit()?.code).toBe(0);
    expect(Date.now() - started).toBeLessThan(10_000);
    // SIGKILLed by then; the kernel may take a moment to reap it.
    expect(await until(() => !alive(helperPid), 10_000)).toBe(true);
  });

  it('SIGKILLs a stubborn helper after the grace when the server crashes on its own', async () => {
    const { child, helperPid, exit } = await startForker({ FORKER_STUBBORN_HELPER: '1' });
    process.kill(child.pid as number, 'SIGKILL');
    expect(await until(() => exit() !== undefined, 2000)).toBe(true);
    expect(await until(() => !alive(helperPid), 3000)).toBe(true);
  });
});
