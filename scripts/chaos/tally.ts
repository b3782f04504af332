// The run's counters: what was sent, how each call ended (grouped by kind), kills and reloads.
import { Samples } from '../chaos-lib.js';
import type { Server } from './options.js';

export interface Kind {
  count: number;
  maxMs: number;
}

export class Tally {
  sent = 0;
  results = 0;
  errors = 0;
  never = 0;
  misrouted = 0;
  inFlight = 0;
  readonly errorKinds = new Map<string, Kind>();
  readonly neverKinds = new Map<string, Kind>();
  readonly misroutedKinds = new Map<string, Kind>();
  readonly misroutedExamples: string[] = [];
  readonly byTool = { echo: 0, slow: 0, whoami: 0 };
  readonly resultMs = new Samples();
  /** SIGKILL of a child to the error for a call it was handling, ms ("at once"). */
  readonly killToErrorMs = new Samples();
  kills = 0;
  reloads = 0;
  listChanged = 0;
  readonly killsByServer: Record<Server, number> = { a: 0, b: 0, c: 0 };
  killsSkipped = 0;
  /** GET-stream traffic: notifications are fine, responses are misrouted (on top of the per-call count). */
  getNotifications = 0;
  getResponses = 0;
  /** When each server's child was last killed (performance.now() ms). */
  readonly lastKillAt: Partial<Record<Server, number>> = {};

  constructor(private readonly log: (line: string) => void) {}

  static count(map: Map<string, Kind>, kind: string, ms: number): void {
    const entry = map.get(kind) ?? { count: 0, maxMs: 0 };
    entry.count++;
    entry.maxMs = Math.max(entry.maxMs, ms);
    map.set(kind, entry);
  }

  /** A call answered with something not its own. */
  misroute(kind: string, detail: string, ms: number): void {
    this.misrouted++;
    Tally.count(this.misroutedKinds, kind, ms);
    if (this.misroutedExamples.length < 20) this.misroutedExamples.push(detail);
    this.log(`MISROUTED: ${detail}`);
  }

  /** A response on a session's GET stream: not tied to one of our calls (that call still gets counted on its own), but misrouted all the same. */
  responseOnGetStream(detail: string): void {
    this.getResponses++;
    Tally.count(this.misroutedKinds, 'response on the GET stream', 0);
    if (this.misroutedExamples.length < 20) this.misroutedExamples.push(detail);
    this.log(`MISROUTED: ${detail}`);
  }
}

/** An error message with server names, pids and numbers made generic, to group errors by kind. */
export const errorKind = (code: number, message: string): string =>
  `${code} ${message.replace(/\bserver [a-z]\b/g, 'server <s>').replace(/\d+/g, 'N')}`;

/** `x` to `d` decimals (null stays null). */
export const round = (x: number | null, d = 0): number | null => (x === null ? null : Number(x.toFixed(d)));
