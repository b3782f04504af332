// Benchmark: the stdio floor (echo fixture driven directly over its pipe) against the same calls
// through mcp-switchboard over Streamable HTTP, at C = 1, 10, 50 concurrent callers: C sessions
// (the session era) and, on the same proxy in alternating half windows, C callers of the stateless
// era (2026-07-28: one POST per call, no session, the envelope in every request).
//
//   npm run build && npm run bench [-- --json]
//   env: BENCH_SECONDS (5), BENCH_WARMUP (2), BENCH_SESSIONS (1,10,50), BENCH_PAYLOAD (100 bytes),
//        BENCH_ROUNDS (5: ABBA rounds of the two eras on the proxy), BENCH_ERA_WINDOW (1 s: each of their windows)
//
// Each cell starts its target fresh, runs a warmup, then a measured window. Every reply is checked
// (same id, identical text); the exit status is 1 if any was wrong or a process was left behind.
//
// The two eras share the proxy, the child and this driver on a machine that is rarely quiet, and
// one window of either can be 10 % off the next window of the same kind. So the eras alternate
// in BENCH_ROUNDS rounds of ABBA (session, stateless, stateless, session) of short windows, so
// that a burst of the machine's other load falls on both eras alike. The ratio is that of all
// windows together; beside it are each round's own ratio, their median, and the noise floor: how
// far the two session windows of a round, the same load, drift apart.
import fs from 'node:fs';
import os from 'node:os';
import {
  StdioClient, callMessage, checkEcho, cpuSnapshot, cpuUsBetween, echoText, httpDelete,
  initializeMessage, INITIALIZED, percentile, post, rssMb, runLoops, now, type LoopResult,
  modernCallHeaders, modernCallMessage,
} from './bench-lib.js';
import { ECHO_FIXTURE, TEMP, openSession, requireBuild, startProxy, stopProxy, track } from './proxy-process.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2);
const SESSIONS = (process.env.BENCH_SESSIONS ?? '1,10,50').split(',').map(Number);
const PAYLOAD = Number(process.env.BENCH_PAYLOAD ?? 100);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 5));
const ERA_WINDOW = Number(process.env.BENCH_ERA_WINDOW ?? 1);
/** Pause before each measured window of a round, s: the previous window's connections settle. */
const SETTLE = 0.25;
const JSON_OUT = process.argv.includes('--json');
requireBuild('bench');
const log = (line: string): void => void process.stderr.write(`[bench] ${line}\n`);

interface Cell {
  calls_per_s: number;
  p50_ms: number | null;
  p99_ms: number | null;
  max_ms: number | null;
  ok: number;
  errors: number;
  error_kinds: Record<string, number>;
  cpu_us_per_call: number | null;
  driver_cpu_pct?: number; // this script's own CPU in the window, % of one core (it shares the machine)
  rss_mb?: number | null;
  log_warnings?: number;
  stop_ms?: number; // SIGTERM to exit
  leftover_processes?: number;
}

function summarize(r: LoopResult, cpuUs: number | null): Cell {
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
function driverCpu(): (phase: 'start' | 'end' | 'result') => number {
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

// ---------- stdio floor: one echo child, C pipelined callers with distinct ids ----------

async function stdioCell(C: number): Promise<Cell> {
  const client = new StdioClient(process.execPath, [ECHO_FIXTURE]);
  const pid = client.child.pid as number;
  const untrack = track(pid);
  try {
    const init = await client.request(0, initializeMessage(0));
    if (!init.result) throw new Error(`stdio initialize failed: ${JSON.stringify(init)}`);
    client.notify(INITIALIZED);
    let nextId = 1;
    let before = new Map<number, number>();
    let cpuUs: number | null = null;
    const driver = driverCpu();
    const r = await runLoops(C, WARMUP, SECONDS, async (loop) => {
      const id = nextId++;
      const text = echoText(`c${loop}-${id}`, PAYLOAD);
      return checkEcho(await client.request(id, callMessage(id, 'echo', text)), id, text);
    }, (phase) => {
      driver(phase);
      if (phase === 'start') before = cpuSnapshot(pid, false);
      else cpuUs = cpuUsBetween(before, cpuSnapshot(pid, false));
    });
    return { ...summarize(r, cpuUs), driver_cpu_pct: driver('result') };
  } finally {
    await client.close();
    untrack();
  }
}

// ---------- through the proxy: C sessions, one call in flight each ----------


/** Counts the proxy's log lines at warn level or above (pino: 40 warn, 50 error, 60 fatal). */
function logWarnings(file: string): number {
  return fs.readFileSync(file, 'utf8').split('\n').filter((line) => {
    try {
      return ((JSON.parse(line) as { level?: number }).level ?? 0) >= 40;
    } catch {
      return false;
    }
  }).length;
}

/** One measured window: the loop result, the proxy's (and its child's) CPU, and the driver's. */
interface Measured {
  readonly r: LoopResult;
  readonly cpuUs: number | null;
  readonly driverPct: number;
  readonly rss: number | null;
}

async function measure(C: number, pid: number, warmupS: number, seconds: number, call: (loop: number, id: number) => Promise<string | null>): Promise<Measured> {
  let before = new Map<number, number>();
  let cpuUs: number | null = null;
  let rss: number | null = null;
  const driver = driverCpu();
  const r = await runLoops(C, warmupS, seconds, call, (phase) => {
    driver(phase);
    if (phase === 'start') before = cpuSnapshot(pid, true);
    else {
      cpuUs = cpuUsBetween(before, cpuSnapshot(pid, true));
      rss = rssMb(pid);
    }
  });
  return { r, cpuUs, driverPct: driver('result'), rss };
}

/** Windows of one kind taken together, as one longer window; `warmup`'s wrong replies count as errors too. */
function merged(parts: readonly Measured[], warmup?: Measured): Cell {
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

/** The eras side by side: their cells, and the stateless/session ratio of each round. */
interface EraCells {
  readonly session: Cell;
  readonly modern: Cell;
  /** Stateless/session calls/s of each ABBA round. */
  readonly roundRatios: readonly number[];
  /** The second session window's calls/s over the first's, each round: equal loads, so this is the machine's noise. */
  readonly sessionDrift: readonly number[];
}

const rate = (part: Measured): number => part.r.ok / part.r.windowMs;

function median(xs: readonly number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/**
 * C sessions (one call in flight each) and C stateless callers (2026-07-28: each call its own POST,
 * nothing opened or closed around it) on one proxy: both warmed up, then ROUNDS rounds of ABBA.
 */
async function proxyCell(C: number): Promise<EraCells> {
  const proxy = await startProxy(`c${C}`);
  let cell: Cell;
  let modern: Cell;
  const roundRatios: number[] = [];
  const sessionDrift: number[] = [];
  let stop = { stopMs: 0, leftover: 0 };
  try {
    const url = `${proxy.base}/mcp`;
    const sessions = await Promise.all(Array.from({ length: C }, () => openSession(url)));
    // Every session uses ids 1, 2, 3...: the proxy must keep equal ids from different sessions apart.
    const sessionCall = async (loop: number, id: number): Promise<string | null> => {
      const text = echoText(`s${loop}-${id}`, PAYLOAD);
      const reply = await post(url, sessions[loop] as Record<string, string>, callMessage(id, 'echo__echo', text), id);
      return reply.status === 200 ? checkEcho(reply.msg, id, text) : `http_${reply.status}`;
    };
    const modernHeaders = modernCallHeaders('echo__echo');
    const modernCall = async (loop: number, id: number): Promise<string | null> => {
      const text = echoText(`m${loop}-${id}`, PAYLOAD);
      const reply = await post(url, modernHeaders, modernCallMessage(id, 'echo__echo', text), id);
      return reply.status === 200 ? checkEcho(reply.msg, id, text) : `http_${reply.status}`;
    };
    // Both eras' code paths warm (compiled, caches filled) before anything is measured; the warmups' errors count too.
    const warm = [await measure(C, proxy.pid, WARMUP / 2, 0, sessionCall), await measure(C, proxy.pid, WARMUP / 2, 0, modernCall)];
    const parts: { session: Measured[]; modern: Measured[] } = { session: [], modern: [] };
    for (let round = 0; round < ROUNDS; round++) {
      // ABBA: drift in the machine's load within a round favours neither era.
      const first = await measure(C, proxy.pid, SETTLE, ERA_WINDOW, sessionCall);
      const stateless = [await measure(C, proxy.pid, SETTLE, ERA_WINDOW, modernCall), await measure(C, proxy.pid, SETTLE, ERA_WINDOW, modernCall)];
      const last = await measure(C, proxy.pid, SETTLE, ERA_WINDOW, sessionCall);
      parts.session.push(first, last);
      parts.modern.push(...stateless);
      roundRatios.push((rate(stateless[0] as Measured) + rate(stateless[1] as Measured)) / (rate(first) + rate(last)));
      sessionDrift.push(rate(last) / rate(first));
    }
    const deleted = await Promise.all(sessions.map((headers) => httpDelete(url, headers)));
    const badDeletes = deleted.filter((status) => status < 200 || status >= 300).length;
    if (badDeletes > 0) log(`C=${C}: ${badDeletes} DELETEs failed (${[...new Set(deleted)].join(', ')})`);
    cell = merged(parts.session, warm[0] as Measured);
    modern = merged(parts.modern, warm[1] as Measured);
  } finally {
    stop = await stopProxy(proxy, log);
    if (stop.leftover > 0) log(`C=${C}: ${stop.leftover} process(es) outlived the proxy; killed them`);
  }
  cell.stop_ms = stop.stopMs;
  cell.leftover_processes = stop.leftover;
  cell.log_warnings = logWarnings(proxy.logFile);
  return { session: cell, modern, roundRatios, sessionDrift };
}

// ---------- report ----------

interface Row {
  sessions: number;
  stdio: Cell;
  proxy: Cell;
  modern: Cell;
  /** Stateless/session calls/s per ABBA round, and the session windows' drift per round (see EraCells). */
  round_ratios: readonly number[];
  session_drift: readonly number[];
}

function table(rows: Row[]): string {
  const n = (x: number | null | undefined, d = 0): string =>
    x === null || x === undefined ? '-' : x.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
  const lines = [
    `Payload ${PAYLOAD} B, warmup ${WARMUP} s, window ${SECONDS} s (proxy: ${ROUNDS} ABBA rounds of ${ERA_WINDOW} s windows), ${os.cpus().length} CPUs, node ${process.version}. Latency in ms.`,
    '',
    '| sessions | stdio calls/s | stdio p50 | stdio p99 | stdio CPU µs/call | proxy calls/s | proxy p50 | proxy p99 | proxy/stdio calls/s | added p50 ms | proxy CPU µs/call | proxy RSS MB | stateless calls/s | stateless p50 | stateless/session calls/s | rounds: median (min–max) | session drift (min–max) | stateless CPU µs/call | errors (stdio/proxy/stateless) |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  const spread = (xs: readonly number[]): string => `${n(Math.min(...xs), 2)}–${n(Math.max(...xs), 2)}`;
  for (const { sessions, stdio: s, proxy: p, modern: m, round_ratios: rounds, session_drift: drift } of rows) {
    const ratio = s.calls_per_s > 0 ? p.calls_per_s / s.calls_per_s : null;
    const eras = p.calls_per_s > 0 ? m.calls_per_s / p.calls_per_s : null;
    const added = s.p50_ms !== null && p.p50_ms !== null ? p.p50_ms - s.p50_ms : null;
    lines.push(`| ${sessions} | ${n(s.calls_per_s)} | ${n(s.p50_ms, 2)} | ${n(s.p99_ms, 2)} | ${n(s.cpu_us_per_call)} | ${n(p.calls_per_s)} | ` +
      `${n(p.p50_ms, 2)} | ${n(p.p99_ms, 2)} | ${n(ratio, 3)} | ${n(added, 2)} | ${n(p.cpu_us_per_call)} | ${n(p.rss_mb)} | ` +
      `${n(m.calls_per_s)} | ${n(m.p50_ms, 2)} | ${n(eras, 3)} | ${n(median(rounds), 3)} (${spread(rounds)}) | ${spread(drift)} | ${n(m.cpu_us_per_call)} | ${s.errors} / ${p.errors} / ${m.errors} |`);
  }
  return lines.join('\n');
}

async function main(): Promise<number> {
  const rows: Row[] = [];
  let failed = false;
  for (const C of SESSIONS) {
    const stdio = await stdioCell(C);
    log(`stdio C=${C}: ${stdio.calls_per_s} calls/s, p50 ${stdio.p50_ms} ms, p99 ${stdio.p99_ms} ms, errors ${stdio.errors}, ` +
      `${stdio.cpu_us_per_call} µs CPU/call, driver ${stdio.driver_cpu_pct} % CPU`);
    const { session: proxy, modern, roundRatios, sessionDrift } = await proxyCell(C);
    log(`proxy C=${C}: ${proxy.calls_per_s} calls/s, p50 ${proxy.p50_ms} ms, p99 ${proxy.p99_ms} ms, max ${proxy.max_ms} ms, ` +
      `errors ${proxy.errors}, ${proxy.cpu_us_per_call} µs CPU/call, RSS ${proxy.rss_mb} MB, ` +
      `${proxy.log_warnings} warn+ log lines, stopped in ${proxy.stop_ms} ms, driver ${proxy.driver_cpu_pct} % CPU`);
    log(`stateless C=${C}: ${modern.calls_per_s} calls/s, p50 ${modern.p50_ms} ms, p99 ${modern.p99_ms} ms, errors ${modern.errors}, ` +
      `${modern.cpu_us_per_call} µs CPU/call, driver ${modern.driver_cpu_pct} % CPU; stateless/session per round ` +
      `${roundRatios.map((x) => x.toFixed(3)).join(' ')}, session drift ${sessionDrift.map((x) => x.toFixed(3)).join(' ')}`);
    for (const [name, cell] of [['stdio', stdio], ['proxy', proxy], ['stateless', modern]] as const) {
      if (cell.errors > 0) log(`${name} C=${C} errors: ${JSON.stringify(cell.error_kinds)}`);
    }
    failed ||= stdio.errors > 0 || proxy.errors > 0 || modern.errors > 0 || (proxy.leftover_processes ?? 0) > 0;
    rows.push({ sessions: C, stdio, proxy, modern, round_ratios: roundRatios, session_drift: sessionDrift });
  }
  if (failed) log(`proxy configs and logs kept in ${TEMP}`);
  else fs.rmSync(TEMP, { recursive: true, force: true });
  const meta = { payload_bytes: PAYLOAD, warmup_s: WARMUP, window_s: SECONDS, rounds: ROUNDS, era_window_s: ERA_WINDOW, node: process.version, cpus: os.cpus().length };
  process.stdout.write(JSON_OUT ? JSON.stringify({ ...meta, rows }, null, 2) + '\n' : table(rows) + '\n');
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`bench: ${(error as Error).stack ?? String(error)}\n(proxy configs and logs kept in ${TEMP})\n`);
    process.exit(1);
  },
);
