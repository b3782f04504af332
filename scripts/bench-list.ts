// Benchmark: tools/list of a 1,000-tool catalog, directly from the server over stdio and through
// the proxy unfiltered, narrowed by a URL filter and narrowed by a profile.
//
//   npm run build && npm run bench:list [-- --json]
//   env: BENCH_SECONDS (5), BENCH_WARMUP (2), BENCH_SESSIONS (1,10), BENCH_TOOLS (1000)
//
// One "listing" is the whole list a client sees: the proxy pages it (limits.pageSize, 100), so a
// listing through it is every page, following nextCursor. Every listing is checked for the
// expected number of tools; the exit status is 1 on any wrong listing or a process left behind.
import os from 'node:os';
import fs from 'node:fs';
import { cpuSnapshot, cpuUsBetween, percentile, post, runLoops, StdioClient, initializeMessage, INITIALIZED, type LoopResult, type RpcMessage } from './bench-lib.js';
import { ECHO_FIXTURE, TEMP, openSession, requireBuild, startProxy, stopProxy, track } from './proxy-process.js';

requireBuild('bench-list');
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2);
const SESSIONS = (process.env.BENCH_SESSIONS ?? '1,10').split(',').map(Number);
const TOOLS = Number(process.env.BENCH_TOOLS ?? 1000);
const JSON_OUT = process.argv.includes('--json');
const log = (line: string): void => void process.stderr.write(`[bench-list] ${line}\n`);

// The echo fixture's extra tools cycle through 8 verbs: read_* is 1/8 of them, read+list 2/8.
const READS = Math.ceil(TOOLS / 8);
const READS_AND_LISTS = READS + Math.ceil((TOOLS - 1) / 8);
const ECHO_ENV = { ECHO_EXTRA_TOOLS: String(TOOLS) };

interface Scenario {
  readonly name: string;
  /** Endpoint path and query through the proxy; undefined for the stdio baseline. */
  readonly path: string | undefined;
  /** Tools a listing must hold. */
  readonly expect: number;
}

const SCENARIOS: readonly Scenario[] = [
  { name: 'stdio (server alone)', path: undefined, expect: TOOLS + 1 },
  { name: 'proxy, unfiltered', path: '/mcp', expect: TOOLS + 1 },
  { name: 'proxy, ?tools=echo__read_*', path: '/mcp?tools=echo__read_*', expect: READS },
  { name: 'proxy, profile (deny read_*, list_*)', path: '/mcp?profile=writers', expect: TOOLS + 1 - READS_AND_LISTS },
];

interface Cell {
  scenario: string;
  sessions: number;
  listings_per_s: number;
  p50_ms: number | null;
  p99_ms: number | null;
  cpu_us_per_listing: number | null;
  bytes_per_listing: number;
  errors: number;
}

function cell(scenario: string, sessions: number, r: LoopResult, cpuUs: number | null, bytes: number): Cell {
  const round = (x: number | null): number | null => (x === null ? null : Number(x.toFixed(3)));
  return {
    scenario,
    sessions,
    listings_per_s: Math.round(r.ok / (r.windowMs / 1000)),
    p50_ms: round(percentile(r.latencies, 0.5)),
    p99_ms: round(percentile(r.latencies, 0.99)),
    cpu_us_per_listing: cpuUs === null || r.ok === 0 ? null : Math.round(cpuUs / r.ok),
    bytes_per_listing: bytes,
    errors: r.errors,
  };
}

const listMessage = (id: number, cursor?: string): string =>
  JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/list', ...(cursor === undefined ? {} : { params: { cursor } }) });

async function stdioCell(C: number, scenario: Scenario): Promise<Cell> {
  const client = new StdioClient(process.execPath, [ECHO_FIXTURE]);
  const untrack = track(client.child.pid as number);
  try {
    await client.request(0, initializeMessage(0));
    client.notify(INITIALIZED);
    let nextId = 1;
    let bytes = 0;
    let before = new Map<number, number>();
    let cpuUs: number | null = null;
    const r = await runLoops(C, WARMUP, SECONDS, async () => {
      const id = nextId++;
      const reply = await client.request(id, listMessage(id));
      const tools = (reply.result as { tools?: unknown[] } | undefined)?.tools;
      bytes = JSON.stringify(reply).length;
      return tools?.length === scenario.expect ? null : `wrong_count_${tools?.length}`;
    }, (phase) => {
      if (phase === 'start') before = cpuSnapshot(client.child.pid as number, false);
      else cpuUs = cpuUsBetween(before, cpuSnapshot(client.child.pid as number, false));
    });
    return cell(scenario.name, C, r, cpuUs, bytes);
  } finally {
    await client.close();
    untrack();
  }
}

async function proxyCell(C: number, scenario: Scenario, url: string, pid: number): Promise<Cell> {
  const sessions = await Promise.all(Array.from({ length: C }, () => openSession(url)));
  let bytes = 0;
  let before = new Map<number, number>();
  let cpuUs: number | null = null;
  const r = await runLoops(C, WARMUP, SECONDS, async (loop, id) => {
    let count = 0;
    let size = 0;
    let cursor: string | undefined;
    for (let page = 0; page < 1000; page += 1) {
      const reply = await post(url, sessions[loop] as Record<string, string>, listMessage(id, cursor), id);
      if (reply.status !== 200) return `http_${reply.status}`;
      const result = (reply.msg as RpcMessage | undefined)?.result as { tools?: unknown[]; nextCursor?: string } | undefined;
      count += result?.tools?.length ?? 0;
      size += JSON.stringify(reply.msg).length;
      cursor = result?.nextCursor;
      if (cursor === undefined) break;
    }
    bytes = size;
    return count === scenario.expect ? null : `wrong_count_${count}`;
  }, (phase) => {
    if (phase === 'start') before = cpuSnapshot(pid, false);
    else cpuUs = cpuUsBetween(before, cpuSnapshot(pid, false));
  });
  return cell(scenario.name, C, r, cpuUs, bytes);
}

function table(cells: readonly Cell[]): string {
  const header = ['scenario', 'sessions', 'listings/s', 'p50 ms', 'p99 ms', 'CPU µs/listing', 'bytes/listing', 'errors'];
  const rows = cells.map((c) => [c.scenario, String(c.sessions), String(c.listings_per_s), String(c.p50_ms), String(c.p99_ms), String(c.cpu_us_per_listing), String(c.bytes_per_listing), String(c.errors)]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] as string).length)));
  const line = (r: string[]): string => `| ${r.map((v, i) => v.padEnd(widths[i] as number)).join(' | ')} |`;
  return [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n');
}

async function main(): Promise<number> {
  process.env.ECHO_EXTRA_TOOLS = ECHO_ENV.ECHO_EXTRA_TOOLS; // inherited by the stdio baseline's child
  const proxy = await startProxy('list', {
    mcpServers: { echo: { command: process.execPath, args: [ECHO_FIXTURE], env: ECHO_ENV } },
    profiles: { writers: { tools: { deny: ['*__read_*', '*__list_*'] } } },
  });
  const cells: Cell[] = [];
  let failed = false;
  try {
    for (const C of SESSIONS) {
      for (const scenario of SCENARIOS) {
        const result = scenario.path === undefined ? await stdioCell(C, scenario) : await proxyCell(C, scenario, `${proxy.base}${scenario.path}`, proxy.pid);
        log(`${scenario.name} C=${C}: ${result.listings_per_s} listings/s, p50 ${result.p50_ms} ms, ${result.cpu_us_per_listing} µs CPU/listing, ${result.errors} errors`);
        failed ||= result.errors > 0;
        cells.push(result);
      }
    }
  } finally {
    const stop = await stopProxy(proxy, log);
    failed ||= stop.leftover > 0;
  }
  if (!failed) fs.rmSync(TEMP, { recursive: true, force: true });
  const meta = { tools: TOOLS + 1, page_size: 100, warmup_s: WARMUP, window_s: SECONDS, node: process.version, cpus: os.cpus().length };
  process.stdout.write(JSON_OUT ? JSON.stringify({ ...meta, cells }, null, 2) + '\n' : `${table(cells)}\n`);
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`bench-list: ${(error as Error).message}\n(proxy config and log kept in ${TEMP})\n`);
    process.exit(1);
  },
);
