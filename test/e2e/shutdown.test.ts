// Graceful stop of the daemon: SIGTERM lets in-flight calls finish, refuses new ones, stops every
// child and exits 0.
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { RunningSwitchboard } from '../../src/index.js';
import { CLI, ROOT, connect, firstProgress, fixture, freePort, textOf, waitFor, CLI_TIMEOUT_MS } from './helpers.js';

/** Pids of processes whose command line or environment holds `marker`. */
function processesWith(marker: string): number[] {
  const found: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      const environ = fs.readFileSync(`/proc/${entry}/environ`, 'utf8');
      if (cmdline.includes(marker) || environ.includes(marker)) found.push(Number(entry));
    } catch {
      // exited while we looked
    }
  }
  return found;
}

describe('stopping the daemon', () => {
  it('on SIGTERM lets in-flight calls finish, then stops every child and exits 0', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-stop-'));
    const marker = `sb-stop-${randomBytes(6).toString('hex')}`;
    const port = await freePort();
    const file = path.join(dir, 'proxy.config.json');
    const server = (name: string) => fixture(name, {}, { SB_STOP_MARKER: marker });
    fs.writeFileSync(file, JSON.stringify({ listen: { host: '127.0.0.1', port }, limits: { shutdownGraceMs: 5000 }, mcpServers: { a: server('a'), b: server('b') } }));
    const daemon = spawn(process.execPath, [...CLI, 'start', '-c', file], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    daemon.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    daemon.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => daemon.once('exit', (code) => resolve(code)));
    try {
      const url = `http://127.0.0.1:${port}`;
      await waitFor(async () => (await fetch(`${url}/readyz`).catch(() => undefined))?.status === 200, CLI_TIMEOUT_MS, 'daemon ready');
      expect(processesWith(marker).length).toBe(2);
      const client = await connect({ url } as RunningSwitchboard);
      // Both calls run in their children (first progress back) when SIGTERM comes.
      const progress = [firstProgress(), firstProgress()] as const;
      const slow = [
        client.callTool({ name: 'a__slow', arguments: { ms: 1500, steps: 5 } }, undefined, { onprogress: progress[0].onprogress }),
        client.callTool({ name: 'b__slow', arguments: { ms: 1200, steps: 4 } }, undefined, { onprogress: progress[1].onprogress }),
      ];
      await Promise.all(progress.map((p) => p.reached));
      daemon.kill('SIGTERM');
      await waitFor(() => output.includes('letting in-flight requests finish'), 15_000, 'drain logged');
      // A call that starts now is refused rather than started.
      await expect(client.callTool({ name: 'a__echo', arguments: { text: 'late' } })).rejects.toThrow();
      const results = await Promise.all(slow);
      expect(results.map(textOf)).toEqual(['done', 'done']);
      expect(await exited).toBe(0);
      expect(processesWith(marker)).toEqual([]);
    } finally {
      if (daemon.exitCode === null) daemon.kill('SIGKILL');
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
