// Everything one chaos run shares: its options, log, random numbers and counters, the ids it has
// sent, and the proxy process. Created once by scripts/chaos.ts and passed down; no module keeps
// run state of its own.
import { prng } from '../chaos-lib.js';
import { CallIds } from './ids.js';
import type { ChaosOptions } from './options.js';
import { ChaosProxy } from './proxy.js';
import { Tally } from './tally.js';

export class RunContext {
  readonly log = (line: string): void => void process.stderr.write(`[chaos] ${line}\n`);
  readonly random: () => number;
  readonly ids: CallIds;
  readonly stats = new Tally(this.log);
  readonly proxy: ChaosProxy;
  /** The run's time is up: every session loop ends after its current call. */
  stopping = false;

  constructor(readonly options: ChaosOptions) {
    this.random = prng(options.seed);
    this.ids = new CallIds(options.sessions);
    this.proxy = new ChaosProxy(options.logLevel, this.log);
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.random() * items.length)] as T;
  }

  /** The proxy died, or the run's time is up. */
  get over(): boolean {
    return this.stopping || this.proxy.crashed !== undefined;
  }
}
