// Measured windows of `npm run bench`: one window of closed loops with the CPU of the processes it
// loads, several windows of one target merged into one cell, and the cell's summary.
import fs from 'node:fs';
import { cpuSnapshot, cpuUsBetween, now, percentile, rssMb, runLoops, type LoopResult } from './bench-lib.js';

export interface Cell {
  calls_per_s: number;
  p50_ms: number | null;
  p99_ms: number | null;
  max_ms: number | null;
  ok: number;
  errors: number;
  error_kinds: Record<string, number>;
  cpu_us_per_call: number | null;
  driver_cpu_pct?: number; // the driver's own CPU in the window, % of one core (it shares the machine)
  rss_mb?: number | null;
  log_warnings?: number;
  stop_ms?: number; // SIGTERM to exit
  leftover_processes?: number;
}

export function summarize(r: LoopResult, cpuUs: number | null): Cell {
  const round = (x: number | null, d = 2): number | null => (x === null ? null : Number(x.toFixed(d)));
  return {
    calls_per_s: Math.round(r.ok / (r.windowMs / 1000)),
    p50_ms: round(percentile(r.latencies, 0.5), 3),
    p99_ms: round(percentile(r.latencies, 0.99), 3),
    max_ms: round(percentile(r.latencies, 1), 1),
    ok: r.ok,
    errors: r.errors,
    error_kinds: r.errorKinds,
    cpu_us_per_call: cpuUs === null || r.ok === 0 ? null : Math.round(cpuUs / r.ok),
  };
}

/** Tracks this process's CPU between 'start' and 'end'; 'result' returns it as % of one core. */
export function driverCpu(): (phase: 'start' | 'end' | 'result') => number {
  let t0 = 0;
  let cpu0 = process.cpuUsage();
  let pct = 0;
  return (phase) => {
    if (phase === 'start') [t0, cpu0] = [now(), process.cpuUsage()];
    if (phase === 'end') {
      const used = process.cpuUsage(cpu0);
      pct = Math.round(((used.user + used.system) / 1000 / (now() - t0)) * 100);
    }
    return pct;
  };
}

/** One measured window: the loop result, the CPU of the loaded processes (with their children), the driver's, the first one's RSS. */
export interface Measured {
  readonly r: LoopResult;
  readonly cpuUs: number | null;
  readonly driverPct: number;
  readonly rss: number | null;
}

/** Closed loops of `call` for `seconds` after `warmupS`; CPU counted over every process of `pids` and its descendants. */
export async function measure(C: number, pids: readonly number[], warmupS: number, seconds: number, call: (loop: number, id: number) => Promise<string | null>): Promise<Measured> {
  let before: Map<number, number>[] = [];
  let cpuUs: number | null = null;
  let rss: number | null = null;
  const driver = driverCpu();
  const r = await runLoops(C, warmupS, seconds, call, (phase) => {
    driver(phase);
    if (phase === 'start') before = pids.map((pid) => cpuSnapshot(pid, true));
    else {
      cpuUs = pids.reduce((sum, pid, i) => sum + cpuUsBetween(before[i] as Map<number, number>, cpuSnapshot(pid, true)), 0);
      rss = pids[0] === undefined ? null : rssMb(pids[0]);
    }
  });
  return { r, cpuUs, driverPct: driver('result'), rss };
}

/** Windows of one kind taken together, as one longer window; `warmup`'s wrong replies count as errors too. */
export function merged(parts: readonly Measured[], warmup?: Measured): Cell {
  const latencies = Float64Array.from(parts.flatMap((part) => [...part.r.latencies])).sort();
  const errorKinds: Record<string, number> = {};
  const counted = warmup === undefined ? parts : [...parts, warmup];
  for (const part of counted) for (const [kind, count] of Object.entries(part.r.errorKinds)) errorKinds[kind] = (errorKinds[kind] ?? 0) + count;
  const r: LoopResult = {
    ok: parts.reduce((sum, part) => sum + part.r.ok, 0),
    windowMs: parts.reduce((sum, part) => sum + part.r.windowMs, 0),
    latencies,
    errors: counted.reduce((sum, part) => sum + part.r.errors, 0),
    errorKinds,
  };
  const cpuUs = parts.some((part) => part.cpuUs === null) ? null : parts.reduce((sum, part) => sum + (part.cpuUs as number), 0);
  const rss = parts.at(-1)?.rss ?? null;
  const driverPct = Math.round(parts.reduce((sum, part) => sum + part.driverPct, 0) / parts.length);
  return { ...summarize(r, cpuUs), driver_cpu_pct: driverPct, rss_mb: rss === null ? null : Math.round(rss) };
}

export const rate = (part: Measured): number => part.r.ok / part.r.windowMs;
export const cpuPerCall = (part: Measured): number => (part.cpuUs === null || part.r.ok === 0 ? NaN : part.cpuUs / part.r.ok);

export function median(xs: readonly number[]): number {
  const sorted = [...xs].filter((x) => !Number.isNaN(x)).sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** Counts a log's lines at warn level or above (pino: 40 warn, 50 error, 60 fatal). */
export function logWarnings(file: string): number {
  return fs.readFileSync(file, 'utf8').split('\n').filter((line) => {
    try {
      return ((JSON.parse(line) as { level?: number }).level ?? 0) >= 40;
    } catch {
      return false;
    }
  }).length;
}
