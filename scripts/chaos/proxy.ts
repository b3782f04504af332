// The proxy under test as a process of its own: its config (rewritten for every reload), its
// start, /readyz and the children it names, the stop on SIGTERM and the check that nothing it
// started is left. A marker in the temp dir (so in the proxy's argv: -c <dir>/config.json), in
// every child's argv (--chaos-marker=..., ignored by the fixture) and in every child's environment
// tells our processes from any other.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import { descendants, freePort, now, sleep } from '../bench-lib.js';
import { getJson, pidExists, procCmdline, procStat, scanProc } from '../chaos-lib.js';
import { CLI, FIXTURE, SERVERS } from './options.js';

interface ReadyzServer {
  state: string;
  pid?: number;
  restarts: number;
  lastError?: string;
}
export interface Readyz {
  ready: boolean;
  sessions: number;
  servers: Record<string, ReadyzServer>;
}

export interface StopResult {
  stopMs: number;
  exit: string;
  clean: boolean;
  leftover: { pid: number; state: string; how: string }[];
  aliveAtExit: number;
  zombies: number;
}

export class ChaosProxy {
  readonly marker = `chaos-${process.pid}-${randomBytes(4).toString('hex')}`;
  private readonly markerEnv = `CHAOS_MARKER=${this.marker}`;
  /** The config and the proxy log; removed at the end of a run that passed. */
  readonly temp = fs.mkdtempSync(path.join(os.tmpdir(), `switchboard-${this.marker}-`));
  private readonly config = path.join(this.temp, 'config.json');
  private readonly logFile = path.join(this.temp, 'proxy.log');
  private process: ChildProcess | undefined;
  pid: number | undefined;
  /** Every child pid the proxy ever had, from /readyz, /proc and whoami. */
  readonly childPids = new Set<number>();
  /** Set when the proxy exits before we stop it. */
  crashed: string | undefined;
  private stopRequested = false;
  private port = 0;
  base = '';
  lastReadyz: Readyz | undefined;

  constructor(
    private readonly logLevel: string,
    private readonly log: (line: string) => void,
  ) {}

  hasMarker(pid: number): boolean {
    return (procCmdline(pid) ?? '').includes(this.marker);
  }

  /** Nothing we started outlives the script, even on Ctrl-C or a crash: called on exit. */
  killTree(): void {
    const pids = new Set<number>([...this.childPids]);
    if (this.pid !== undefined) {
      for (const p of [this.pid, ...descendants(this.pid)]) pids.add(p);
    }
    for (const p of pids) if (this.hasMarker(p) || p === this.pid) try { process.kill(p, 'SIGKILL'); } catch { /* gone */ }
  }

  /**
   * The proxy's config for reload generation `generation`: server c's environment carries the
   * generation (so every reload redefines c and the proxy restarts it), and a spare server d that
   * no session calls is present in odd generations only (added, then removed).
   */
  writeConfig(generation: number): void {
    const server = (name: string, extra: Record<string, string> = {}) => ({
      command: process.execPath,
      args: [FIXTURE, `--chaos-marker=${this.marker}`],
      env: { FIXTURE_NAME: name, CHAOS_MARKER: this.marker, ...extra },
      restart: { initialDelayMs: 100, maxDelayMs: 1000 },
    });
    const servers: Record<string, unknown> = Object.fromEntries(SERVERS.map((name) => [name, server(name, name === 'c' ? { CHAOS_GENERATION: String(generation) } : {})]));
    if (generation % 2 === 1) servers.d = server('d');
    // Written aside and renamed: the proxy also watches the file, and must never read half of it.
    fs.writeFileSync(`${this.config}.tmp`, JSON.stringify({ listen: { host: '127.0.0.1', port: this.port }, logLevel: this.logLevel, mcpServers: servers }, null, 2));
    fs.renameSync(`${this.config}.tmp`, this.config);
  }

  async start(): Promise<void> {
    this.port = await freePort();
    this.writeConfig(0);
    const out = fs.openSync(this.logFile, 'w');
    // Pins and the sanitization log stay in the run's temp dir, never the user's state dir.
    const proxy = spawn(process.execPath, [CLI, 'start', '-c', this.config], { stdio: ['ignore', out, out], env: { ...process.env, XDG_STATE_HOME: this.temp } });
    this.process = proxy;
    fs.closeSync(out);
    this.pid = proxy.pid as number;
    proxy.once('exit', (code, signal) => {
      if (!this.stopRequested) {
        this.crashed = `exited with ${signal ?? `code ${code}`} while under test`;
        this.log(`PROXY ${this.crashed}; log tail:\n${this.logTail()}`);
      }
    });
    this.base = `http://127.0.0.1:${this.port}`;
    for (const deadline = now() + 20_000; now() < deadline; await sleep(100)) {
      if (this.crashed !== undefined) break;
      const { status, body } = await getJson<Readyz>(`${this.base}/readyz`);
      if (status === 200 && body?.ready) return;
    }
    throw new Error(`proxy not ready in 20 s (${this.crashed ?? 'still running'}); log tail:\n${this.logTail()}`);
  }

  private logTail(): string {
    try {
      return fs.readFileSync(this.logFile, 'utf8').slice(-3000);
    } catch {
      return '(no log)';
    }
  }

  /** Reads /readyz and remembers every child pid it names. */
  async readyz(): Promise<Readyz | undefined> {
    const { body } = await getJson<Readyz>(`${this.base}/readyz`);
    if (body?.servers === undefined) return undefined;
    this.lastReadyz = body;
    for (const s of Object.values(body.servers)) if (typeof s.pid === 'number') this.childPids.add(s.pid);
    return body;
  }

  /** Also catches children that lived and died between two /readyz polls. */
  recordChildren(): void {
    if (this.pid === undefined || this.crashed !== undefined) return;
    for (const p of descendants(this.pid)) if (this.hasMarker(p)) this.childPids.add(p);
  }

  /** SIGHUP: reload the config now. */
  reload(): void {
    this.process?.kill('SIGHUP');
  }

  /** SIGTERM (SIGKILL after 15 s), then every process we ever saw of it that is still there. */
  async stop(): Promise<StopResult> {
    const proxy = this.process as ChildProcess;
    this.recordChildren();
    this.stopRequested = true;
    const t0 = now();
    let clean = this.crashed === undefined;
    if (proxy.exitCode === null && proxy.signalCode === null) {
      const exited = new Promise((resolve) => proxy.once('exit', resolve));
      proxy.kill('SIGTERM');
      const timer = setTimeout(() => {
        this.log('proxy ignored SIGTERM for 15 s: SIGKILL');
        clean = false;
        proxy.kill('SIGKILL');
      }, 15_000);
      await exited;
      clearTimeout(timer);
    }
    const stopMs = Math.round(now() - t0);
    const exit = proxy.signalCode !== null ? `signal ${proxy.signalCode}` : `code ${proxy.exitCode}`;
    if (proxy.exitCode !== 0) clean = false;
    const aliveAtExit = [...this.childPids].filter(pidExists).length;
    await sleep(1_000); // a child that is merely exiting gets a moment; one that stays is a leftover
    const leftover = new Map<number, { pid: number; state: string; how: string }>();
    let zombies = 0;
    for (const pid of this.childPids) {
      if (!pidExists(pid)) continue;
      // A zombie has exited and holds nothing but its pid: the proxy is gone, so it waits for init to reap it.
      if (procStat(pid)?.state === 'Z') zombies++;
      else if (this.hasMarker(pid)) leftover.set(pid, { pid, state: procStat(pid)?.state ?? '?', how: 'a child pid seen during the run' });
    }
    for (const p of scanProc(this.marker, this.markerEnv, new Set([process.pid]))) {
      if (!leftover.has(p.pid)) leftover.set(p.pid, { pid: p.pid, state: p.state, how: `found in /proc: ${p.cmdline.slice(0, 120)}` });
    }
    for (const { pid } of leftover.values()) try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ }
    return { stopMs, exit, clean, leftover: [...leftover.values()], aliveAtExit, zombies };
  }
}
