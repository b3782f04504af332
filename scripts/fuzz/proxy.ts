// The proxy under attack, as its own process (dist/cli/main.js) with two children: `fx` (the
// fixture server) and `garbage` (answers correctly, but writes junk to stdout around its answers).
// Starting it, reading its log, asking /readyz, and stopping it cleanly.
import fs from 'node:fs';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { HttpClient } from './lib/http.js';
import type { Stats } from './lib/stats.js';
import { now, sleep } from './lib/time.js';
import { descendants, freePort, isAlive } from '../bench-lib.js';
import {
  CLI, FIXTURE, GARBAGE, GARBAGE_HUGE_BYTES, GARBAGE_TIMEOUT_MS, MAX_BODY_BYTES, MAX_LINE_BYTES, type FuzzOptions,
} from './options.js';

export interface Ready { ready: boolean; sessions: number; servers: Record<string, { state: string; restarts: number; tools: number }> }

export interface LogScan {
  levels: Record<string, number>;
  top: Array<[string, number]>;
  errors: string[];
  /** Lines where the proxy logged an exception it caught (a bug even when answered). */
  exceptions: string[];
}

export interface StopResult { exitCode: number | null; stopMs: number; leftover: number }

export class ProxyProcess {
  readonly logFile: string;
  private child: ChildProcess | undefined;
  pid = 0;
  port = 0;
  /** How the proxy ended when nobody asked it to; undefined while it lives (or after a clean stop). */
  exited: string | undefined;
  /** Seconds into the run when the proxy died; failures in the second before it are its collateral. */
  exitAt: number | undefined;
  /** Set before our own SIGTERM, so that exit is not reported as a crash. */
  private stopRequested = false;

  constructor(
    private readonly temp: string,
    private readonly stats: Stats,
    private readonly elapsed: () => number,
  ) {
    this.logFile = path.join(temp, 'proxy.log');
  }

  async start(options: FuzzOptions): Promise<void> {
    this.port = await freePort();
    const port = this.port;
    const config = path.join(this.temp, 'config.json');
    const junkExcluded = options.exclude.filter((e) => e.startsWith('garbage.junk.')).map((e) => e.slice('garbage.junk.'.length));
    fs.writeFileSync(config, JSON.stringify({
      listen: { host: '127.0.0.1', port },
      limits: { maxBodyBytes: MAX_BODY_BYTES, maxLineBytes: MAX_LINE_BYTES },
      logLevel: 'warn',
      mcpServers: {
        fx: { command: process.execPath, args: [FIXTURE], env: { FIXTURE_NAME: 'fx' } },
        garbage: {
          command: process.execPath,
          args: [GARBAGE],
          env: {
            GARBAGE_SEED: String(options.seed),
            GARBAGE_HUGE_BYTES: String(GARBAGE_HUGE_BYTES),
            GARBAGE_EXCLUDE: junkExcluded.join(','),
            GARBAGE_INTERVAL_MS: options.excluded('garbage.junk') && junkExcluded.length === 0 ? '0' : '30',
          },
          timeoutMs: GARBAGE_TIMEOUT_MS,
          restart: { initialDelayMs: 200, maxDelayMs: 2000 },
        },
      },
    }, null, 2));
    const out = fs.openSync(this.logFile, 'w');
    // Pins and the sanitization log stay in the run's temp dir, never the user's state dir.
    const child = spawn(process.execPath, [CLI, 'start', '-c', config], { stdio: ['ignore', out, out], env: { ...process.env, XDG_STATE_HOME: this.temp } });
    fs.closeSync(out);
    this.child = child;
    this.pid = child.pid as number;
    child.on('exit', (code, signal) => {
      if (this.stopRequested) return;
      this.exited = `exit code ${code}, signal ${signal}`;
      this.exitAt = this.elapsed();
      this.stats.violation('proxy_exited', 'proxy', `the proxy process exited (${this.exited}) at ${this.elapsed().toFixed(1)} s; it printed:\n${this.logTail()}`);
    });
    const probe = new HttpClient('127.0.0.1', port, 2000);
    for (const deadline = now() + 20_000; now() < deadline; await sleep(100)) {
      if (this.exited !== undefined) break;
      if ((await probe.request({ method: 'GET', path: '/readyz', fresh: true })).status === 200) return;
    }
    throw new Error(`proxy not ready (${this.exited ?? 'still running'}); log tail:\n${this.logTail(2000)}`);
  }

  /** What the proxy printed that is not a pino line (a crash's stack trace), else the end of its log. */
  logTail(bytes = 3000): string {
    let text: string;
    try {
      text = fs.readFileSync(this.logFile, 'utf8');
    } catch {
      return '(no log)';
    }
    const raw = text.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('{') && !line.startsWith('switchboard listening'));
    return raw.length > 0 ? raw.slice(0, 30).join('\n') : text.slice(-bytes);
  }

  /** SIGKILLs the proxy and every process under it; for the fuzzer's own exit, whatever the reason. */
  killTree(): void {
    if (this.pid === 0) return;
    for (const p of [...descendants(this.pid), this.pid]) if (isAlive(p)) try { process.kill(p, 'SIGKILL'); } catch { /* gone */ }
  }

  async readyz(): Promise<Ready | undefined> {
    const r = await new HttpClient('127.0.0.1', this.port, 5000).request({ method: 'GET', path: '/readyz' });
    try {
      return JSON.parse(r.body) as Ready;
    } catch {
      return undefined;
    }
  }

  /**
   * Stops the proxy with SIGTERM (SIGKILL after 10 s) and kills whatever of its process tree
   * outlived it; undefined when there is nothing to stop (it already died, or never started).
   */
  async stop(): Promise<StopResult | undefined> {
    const child = this.child;
    if (this.exited !== undefined || child === undefined) return undefined;
    const tree = descendants(this.pid);
    this.stopRequested = true;
    const t = now();
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    const exitCode = await exited;
    clearTimeout(timer);
    const stopMs = Math.round(now() - t);
    await sleep(200);
    const alive = tree.filter(isAlive);
    for (const p of alive) try { process.kill(p, 'SIGKILL'); } catch { /* gone */ }
    return { exitCode, stopMs, leftover: alive.length };
  }

  /** Counts of the proxy log by level and message, its errors, and exceptions it caught. */
  scanLog(): LogScan {
    const levels: Record<string, number> = {};
    const messages = new Map<string, number>();
    const errors: string[] = [];
    const exceptions: string[] = [];
    let text = '';
    try {
      text = fs.readFileSync(this.logFile, 'utf8');
    } catch {
      return { levels, top: [], errors, exceptions };
    }
    const names: Record<number, string> = { 10: 'trace', 20: 'debug', 30: 'info', 40: 'warn', 50: 'error', 60: 'fatal' };
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue;
      let entry: { level?: number; msg?: string; err?: unknown };
      try {
        entry = JSON.parse(line) as typeof entry;
      } catch {
        levels['non-JSON'] = (levels['non-JSON'] ?? 0) + 1;
        if (errors.length < 40) errors.push(line.slice(0, 300));
        continue;
      }
      const level = names[entry.level ?? 0] ?? String(entry.level);
      levels[level] = (levels[level] ?? 0) + 1;
      const key = `${level}: ${entry.msg ?? ''}`;
      messages.set(key, (messages.get(key) ?? 0) + 1);
      if ((entry.level ?? 0) >= 50 && errors.length < 40) errors.push(line.slice(0, 400));
      if ((entry.level ?? 0) >= 50 && /handler failed|uncaught|unhandled/i.test(entry.msg ?? '')) exceptions.push(line.slice(0, 400));
    }
    return { levels, top: [...messages.entries()].sort((a, b) => b[1] - a[1]).slice(0, 12), errors, exceptions };
  }
}
