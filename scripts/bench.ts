// Benchmark: the proxy against the floors it is measured by, in one run.
//
//   npm run build && npm run bench [-- --json] [-- --tracing]
//   --tracing: both proxies trace every request (OTLP http/protobuf, ratio 1) to a local sink in
//   this process that answers 200 and counts what it got (its CPU is the driver's, not the proxy's).
//   env: BENCH_PAYLOADS (100,65536 bytes), BENCH_SESSIONS (1,10,50), BENCH_ROUNDS (4), BENCH_WINDOW (1 s),
//        BENCH_WARMUP (2 s), BENCH_SECONDS (5 s: the stdio floor's window)
//
// For each payload and C concurrent callers (one call in flight each):
// - stdio: the echo fixture driven directly over its pipe (C pipelined callers): no HTTP at all.
// - floor: a bare node:http server answering the same calls itself (scripts/http-floor.mjs): the
//   ceiling for any Node HTTP front on this machine.
// - session: C Streamable HTTP sessions through the proxy to the echo fixture as its stdio child.
// - stateless: C callers of the stateless era (2026-07-28: one POST per call, no session) on the same proxy.
// - remote: C sessions through a second proxy whose upstream is another floor server over
//   Streamable HTTP (its CPU counted with the proxy's, as a child's is).
// All four run at once; each round measures them in one order and then in the reverse one (ABBA),
// so that a burst of the machine's other load falls on all alike. Ratios are medians of the
// rounds' own ratios, with their spread; "floor drift" is how far a round's two floor windows, the
// same load, drift apart: the noise a ratio cannot be read finer than. Every reply is checked
// (same id, identical text); the exit status is 1 if any was wrong or a process was left behind.
import fs from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import {
  StdioClient, callMessage, checkEcho, cpuSnapshot, cpuUsBetween, echoText, httpDelete,
  initializeMessage, INITIALIZED, post, runLoops, statelessCallHeaders, statelessCallMessage,
} from './bench-lib.js';
import { ECHO_FIXTURE, ROOT, TEMP, openSession, requireBuild, startListening, startProxy, stopProxy, track, type Proxy } from './proxy-process.js';
import { cpuPerCall, driverCpu, logWarnings, measure, median, merged, rate, summarize, type Cell, type Measured } from './bench-windows.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2);
const SESSIONS = (process.env.BENCH_SESSIONS ?? '1,10,50').split(',').map(Number);
const PAYLOADS = (process.env.BENCH_PAYLOADS ?? process.env.BENCH_PAYLOAD ?? '100,65536').split(',').map(Number);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 4));
const WINDOW = Number(process.env.BENCH_WINDOW ?? process.env.BENCH_ERA_WINDOW ?? 1);
/** Pause before each measured window, s: the previous window's connections settle. */
const SETTLE = 0.25;
const JSON_OUT = process.argv.includes('--json');
const TRACING = process.argv.includes('--tracing');
const FLOOR_SERVER = path.join(ROOT, 'scripts/http-floor.mjs');
requireBuild('bench');
const log = (line: string): void => void process.stderr.write(`[bench] ${line}\n`);

/** With --tracing: what every proxy's config adds, and the sink's tally of exports. */
const sink = { exports: 0, bytes: 0 };
const TELEMETRY: Record<string, unknown> = TRACING ? await startTraceSink() : {};

async function startTraceSink(): Promise<Record<string, unknown>> {
  const server = createServer((req, res) => {
    req.on('data', (chunk: Buffer) => (sink.bytes += chunk.length));
    req.on('end', () => {
      sink.exports += 1;
      res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  server.unref();
  const port = (server.address() as AddressInfo).port;
  log(`tracing on: OTLP sink on 127.0.0.1:${port}`);
  return { telemetry: { otlp: { endpoint: `http://127.0.0.1:${port}`, protocol: 'http/protobuf' }, sampleRatio: 1 } };
}

const TARGETS = ['floor', 'session', 'stateless', 'remote'] as const;
type TargetName = (typeof TARGETS)[number];

// ---------- stdio floor: one echo child, C pipelined callers with distinct ids ----------

async function stdioCell(C: number, payload: number): Promise<Cell> {
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
      const text = echoText(`c${loop}-${id}`, payload);
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

// ---------- the HTTP targets ----------

interface FloorServer { readonly pid: number; readonly url: string; stop(): void }

async function startFloor(): Promise<FloorServer> {
  const server = await startListening(FLOOR_SERVER, ['0']);
  return { pid: server.pid, url: `http://127.0.0.1:${server.port}/mcp`, stop: server.stop };
}

interface Target {
  readonly name: TargetName;
  /** Processes whose CPU (with their descendants) the target's calls cost. */
  readonly pids: readonly number[];
  readonly call: (loop: number, id: number) => Promise<string | null>;
}

const sessionCaller = (name: string, url: string, tool: string, sessions: readonly Record<string, string>[], payload: number) =>
  async (loop: number, id: number): Promise<string | null> => {
    // Every session uses ids 1, 2, 3...: the proxy must keep equal ids from different sessions apart.
    const text = echoText(`${name}${loop}-${id}`, payload);
    const reply = await post(url, sessions[loop] as Record<string, string>, callMessage(id, tool, text), id);
    return reply.status === 200 ? checkEcho(reply.msg, id, text) : `http_${reply.status}`;
  };

interface Rig {
  readonly targets: readonly Target[];
  readonly proxies: readonly Proxy[];
  close(): Promise<{ stopMs: number; leftover: number; warnings: number }>;
}

/** The four targets, each with C sessions open (the stateless callers need none). */
async function rig(C: number, payload: number, tag: string): Promise<Rig> {
  const floor = await startFloor();
  const upstream = await startFloor();
  const proxy = await startProxy(`${tag}-stdio`, TELEMETRY);
  const remoteProxy = await startProxy(`${tag}-remote`, { mcpServers: { echo: { url: upstream.url, transport: 'http' } }, ...TELEMETRY });
  const open = (url: string): Promise<Record<string, string>[]> => Promise.all(Array.from({ length: C }, () => openSession(url)));
  const proxyUrl = `${proxy.base}/mcp`;
  const remoteUrl = `${remoteProxy.base}/mcp`;
  const [floorSessions, proxySessions, remoteSessions] = [await open(floor.url), await open(proxyUrl), await open(remoteUrl)];
  const statelessHeaders = statelessCallHeaders('echo__echo');
  const targets: Target[] = [
    { name: 'floor', pids: [floor.pid], call: sessionCaller('f', floor.url, 'echo', floorSessions, payload) },
    { name: 'session', pids: [proxy.pid], call: sessionCaller('s', proxyUrl, 'echo__echo', proxySessions, payload) },
    {
      name: 'stateless',
      pids: [proxy.pid],
      call: async (loop, id) => {
        const text = echoText(`m${loop}-${id}`, payload);
        const reply = await post(proxyUrl, statelessHeaders, statelessCallMessage(id, 'echo__echo', text), id);
        return reply.status === 200 ? checkEcho(reply.msg, id, text) : `http_${reply.status}`;
      },
    },
    { name: 'remote', pids: [remoteProxy.pid, upstream.pid], call: sessionCaller('r', remoteUrl, 'echo__echo', remoteSessions, payload) },
  ];
  return {
    targets,
    proxies: [proxy, remoteProxy],
    async close() {
      const deletes = await Promise.all([
        ...proxySessions.map((headers) => httpDelete(proxyUrl, headers)),
        ...remoteSessions.map((headers) => httpDelete(remoteUrl, headers)),
      ]);
      const bad = deletes.filter((status) => status < 200 || status >= 300).length;
      if (bad > 0) log(`${tag}: ${bad} DELETEs failed (${[...new Set(deletes)].join(', ')})`);
      let stopMs = 0;
      let leftover = 0;
      for (const p of [proxy, remoteProxy]) {
        const stop = await stopProxy(p, log);
        stopMs = Math.max(stopMs, stop.stopMs);
        leftover += stop.leftover;
      }
      floor.stop();
      upstream.stop();
      return { stopMs, leftover, warnings: logWarnings(proxy.logFile) + logWarnings(remoteProxy.logFile) };
    },
  };
}

/** A target's ratios to another's, one per round: calls/s and CPU per call. */
interface Ratios { readonly calls: number[]; readonly cpu: number[] }

interface HttpCells {
  readonly cells: Record<TargetName, Cell>;
  readonly vsFloor: Record<Exclude<TargetName, 'floor'>, Ratios>;
  readonly remoteVsSession: Ratios;
  readonly statelessVsSession: Ratios;
  readonly floorDrift: number[];
}

async function httpCells(C: number, payload: number): Promise<HttpCells> {
  const r = await rig(C, payload, `p${payload}-c${C}`);
  const windows = new Map<TargetName, Measured[]>(TARGETS.map((name) => [name, []]));
  const warm = new Map<TargetName, Measured>();
  const ratio = (): Ratios => ({ calls: [], cpu: [] });
  const vsFloor = { session: ratio(), stateless: ratio(), remote: ratio() };
  const remoteVsSession = ratio();
  const statelessVsSession = ratio();
  const floorDrift: number[] = [];
  let closed = { stopMs: 0, leftover: 0, warnings: 0 };
  try {
    // Every target's code paths warm (compiled, caches filled) before anything is measured; the warmups' errors count too.
    for (const target of r.targets) warm.set(target.name, await measure(C, target.pids, WARMUP, 0, target.call));
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? r.targets : [...r.targets].reverse();
      const got = new Map<TargetName, Measured[]>();
      for (const target of [...order, ...[...order].reverse()]) {
        const m = await measure(C, target.pids, SETTLE, WINDOW, target.call);
        windows.get(target.name)?.push(m);
        got.set(target.name, [...(got.get(target.name) ?? []), m]);
      }
      const both = (name: TargetName): { rate: number; cpu: number } => {
        const [a, b] = got.get(name) as Measured[];
        return { rate: (rate(a as Measured) + rate(b as Measured)) / 2, cpu: (cpuPerCall(a as Measured) + cpuPerCall(b as Measured)) / 2 };
      };
      const push = (into: Ratios, of: TargetName, to: TargetName): void => {
        into.calls.push(both(of).rate / both(to).rate);
        into.cpu.push(both(of).cpu / both(to).cpu);
      };
      for (const name of ['session', 'stateless', 'remote'] as const) push(vsFloor[name], name, 'floor');
      push(remoteVsSession, 'remote', 'session');
      push(statelessVsSession, 'stateless', 'session');
      const [f1, f2] = got.get('floor') as Measured[];
      floorDrift.push(rate(f2 as Measured) / rate(f1 as Measured));
    }
  } finally {
    closed = await r.close();
  }
  const cells = Object.fromEntries(TARGETS.map((name) => [name, merged(windows.get(name) as Measured[], warm.get(name))])) as Record<TargetName, Cell>;
  for (const name of ['session', 'remote'] as const) {
    cells[name].stop_ms = closed.stopMs;
    cells[name].leftover_processes = closed.leftover;
  }
  cells.session.log_warnings = closed.warnings;
  return { cells, vsFloor, remoteVsSession, statelessVsSession, floorDrift };
}

// ---------- report ----------

interface Row extends HttpCells {
  readonly payload: number;
  readonly sessions: number;
  readonly stdio: Cell;
}

const n = (x: number | null | undefined, d = 0): string =>
  x === null || x === undefined || Number.isNaN(x) ? '-' : x.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
const spread = (xs: readonly number[]): string => `${n(median(xs), 2)} (${n(Math.min(...xs), 2)}–${n(Math.max(...xs), 2)})`;

function table(rows: readonly Row[]): string {
  const lines = [
    `Warmup ${WARMUP} s; HTTP targets: ${ROUNDS} rounds of ABBA windows of ${WINDOW} s each; stdio: one ${SECONDS} s window. ${os.cpus().length} CPUs, node ${process.version}.`,
    'Ratios: median of the rounds (min–max). CPU µs/call: the target process and its descendants (the proxy with its child; the remote proxy with its upstream server).',
    '',
    '| payload B | sessions | stdio calls/s | floor calls/s | proxy calls/s | proxy/floor calls/s | floor CPU µs/call | proxy CPU µs/call | proxy/floor CPU | stateless/session calls/s | remote calls/s | remote/stdio-child calls/s | remote CPU µs/call | floor p50 ms | proxy p50 ms | remote p50 ms | proxy RSS MB | floor drift | errors (stdio/floor/proxy/stateless/remote) |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const row of rows) {
    const { floor, session, stateless, remote } = row.cells;
    lines.push(`| ${row.payload} | ${row.sessions} | ${n(row.stdio.calls_per_s)} | ${n(floor.calls_per_s)} | ${n(session.calls_per_s)} | ${spread(row.vsFloor.session.calls)} | ` +
      `${n(floor.cpu_us_per_call)} | ${n(session.cpu_us_per_call)} | ${spread(row.vsFloor.session.cpu)} | ${spread(row.statelessVsSession.calls)} | ` +
      `${n(remote.calls_per_s)} | ${spread(row.remoteVsSession.calls)} | ${n(remote.cpu_us_per_call)} | ${n(floor.p50_ms, 2)} | ${n(session.p50_ms, 2)} | ${n(remote.p50_ms, 2)} | ` +
      `${n(session.rss_mb)} | ${spread(row.floorDrift)} | ${row.stdio.errors}/${floor.errors}/${session.errors}/${stateless.errors}/${remote.errors} |`);
  }
  return lines.join('\n');
}

async function main(): Promise<number> {
  const rows: Row[] = [];
  let failed = false;
  for (const payload of PAYLOADS) {
    for (const C of SESSIONS) {
      const stdio = await stdioCell(C, payload);
      const http = await httpCells(C, payload);
      const { floor, session, stateless, remote } = http.cells;
      log(`${payload} B, C=${C}: stdio ${stdio.calls_per_s}/s; floor ${floor.calls_per_s}/s ${floor.cpu_us_per_call} µs; proxy ${session.calls_per_s}/s ` +
        `${session.cpu_us_per_call} µs (x${median(http.vsFloor.session.calls).toFixed(3)} of the floor, CPU x${median(http.vsFloor.session.cpu).toFixed(2)}); ` +
        `stateless ${stateless.calls_per_s}/s; remote ${remote.calls_per_s}/s (x${median(http.remoteVsSession.calls).toFixed(3)} of the stdio child); ` +
        `RSS ${session.rss_mb} MB; ${session.log_warnings} warn+ log lines; stopped in ${session.stop_ms} ms`);
      for (const [name, cell] of [['stdio', stdio], ...Object.entries(http.cells)] as const) {
        if (cell.errors > 0) log(`${name} ${payload} B C=${C} errors: ${JSON.stringify(cell.error_kinds)}`);
        failed ||= cell.errors > 0 || (cell.leftover_processes ?? 0) > 0;
      }
      rows.push({ payload, sessions: C, stdio, ...http });
    }
  }
  if (TRACING) log(`tracing: the sink received ${sink.exports} exports, ${sink.bytes} bytes`);
  if (failed) log(`proxy configs and logs kept in ${TEMP}`);
  else fs.rmSync(TEMP, { recursive: true, force: true });
  const meta = { payloads: PAYLOADS, warmup_s: WARMUP, window_s: WINDOW, rounds: ROUNDS, stdio_window_s: SECONDS, node: process.version, cpus: os.cpus().length, tracing: TRACING };
  process.stdout.write(JSON_OUT ? `${JSON.stringify({ ...meta, rows }, null, 2)}\n` : `${table(rows)}\n`);
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`bench: ${(error as Error).stack ?? String(error)}\n(proxy configs and logs kept in ${TEMP})\n`);
    process.exit(1);
  },
);
