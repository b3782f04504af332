// Everything one fuzz run shares: its options, log and counters, the proxy process, the attack
// window, and what attackers leave behind for one another. Created once by scripts/fuzz.ts and
// passed down; no module keeps run state of its own.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HttpClient } from './lib/http.js';
import { Stats } from './lib/stats.js';
import { now } from './lib/time.js';
import { DEADLINE_MS, type FuzzOptions } from './options.js';
import { ProxyProcess } from './proxy.js';

export class RunContext {
  readonly log = (line: string): void => void process.stderr.write(`[fuzz] ${line}\n`);
  readonly stats = new Stats((line) => this.log(line));
  private readonly t0 = now();
  /** The run's config, proxy log and the proxy's state dir; removed at the end unless kept. */
  readonly temp = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-fuzz-'));
  readonly proxy = new ProxyProcess(this.temp, this.stats, () => this.elapsed());

  /** When the attack window closes (performance.now() ms); Infinity until it opens. */
  attackUntil = Infinity;
  attacksStarted = 0;
  /** Streamable HTTP sessions attackers opened and did not delete (id -> path): deleted at the end, then counted. */
  readonly liveHttpSessions = new Map<string, string>();
  /** Legacy SSE session ids seen, for use on the wrong transport. */
  readonly sseSessionIds: string[] = [];
  /** Only one slow-reader attack at a time, and at most one every 40 s. */
  readonly stuckReader = { running: false, lastStart: -Infinity };

  private attackClient: HttpClient | undefined;

  constructor(readonly options: FuzzOptions) {}

  /** Seconds since the run began. */
  elapsed(): number {
    return (now() - this.t0) / 1000;
  }

  /** The attack window closed, the proxy died, or --iterations attacks have started. */
  stopping(): boolean {
    return now() >= this.attackUntil || this.proxy.exited !== undefined || this.attacksStarted >= this.options.iterations;
  }

  remainingMs(): number {
    return this.attackUntil - now();
  }

  /** The attackers' HTTP client (keep-alive pool and fresh connections), once the proxy listens. */
  get client(): HttpClient {
    if (this.attackClient === undefined) throw new Error('the attack client is used before the proxy started');
    return this.attackClient;
  }

  /** Call once the proxy is up: makes `client` point at its port. */
  connectClient(): void {
    this.attackClient = new HttpClient('127.0.0.1', this.proxy.port, DEADLINE_MS);
  }
}
