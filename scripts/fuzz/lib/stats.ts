// The fuzzer's counters and findings: outcomes by attack kind, invariant violations (the first of
// each printed as it happens), and notes that are not violations.
import { now } from './time.js';

export interface Violation {
  type: string;
  kind: string;
  detail: string;
  at: number; // seconds since the start
}

export class Stats {
  readonly byKind = new Map<string, Map<string, number>>();
  readonly violations: Violation[] = [];
  readonly violationTypes = new Map<string, number>();
  readonly notes = new Map<string, { count: number; example: string }>();
  private readonly t0 = now();
  private readonly printed = new Set<string>();

  constructor(private readonly log: (line: string) => void) {}

  record(kind: string, outcome: string): void {
    let m = this.byKind.get(kind);
    if (m === undefined) this.byKind.set(kind, (m = new Map()));
    m.set(outcome, (m.get(outcome) ?? 0) + 1);
  }

  violation(type: string, kind: string, detail: string): void {
    const v = { type, kind, detail: detail.slice(0, 1500), at: Math.round((now() - this.t0) / 100) / 10 };
    this.violations.push(v);
    this.violationTypes.set(type, (this.violationTypes.get(type) ?? 0) + 1);
    // Print the first few of each type as they happen (the summary repeats them).
    const key = `${type}|${kind}`;
    if (!this.printed.has(key)) {
      this.printed.add(key);
      this.log(`VIOLATION ${type} [${kind}] at ${v.at}s: ${v.detail.slice(0, 600)}`);
    }
  }

  /** Something worth reporting that is not an invariant violation. */
  note(what: string, example: string): void {
    const n = this.notes.get(what);
    if (n === undefined) this.notes.set(what, { count: 1, example: example.slice(0, 400) });
    else n.count += 1;
  }

  total(kind?: string): number {
    let sum = 0;
    for (const [k, m] of this.byKind) if (kind === undefined || k === kind) for (const n of m.values()) sum += n;
    return sum;
  }
}
