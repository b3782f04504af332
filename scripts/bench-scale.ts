// Benchmark: a catalog of 100 servers and 5,000 tools through the built daemon. Measures what
// must stay fast at that size: start until ready, a full tools/list (every page), a search-mode
// session's find_tools, and the list_changed fan-out to many sessions after one server changes.
//
//   npm run build && node --import tsx scripts/bench-scale.ts [-- --json]
//   env: BENCH_SERVERS (100), BENCH_TOOLS_PER_SERVER (50), BENCH_SESSIONS (200),
//        BENCH_SAME_NAMES=1 (every server lists the same tool names: the worst case for the
//        sanitizer's cross-server rules, as with many copies of one server)
import fs from 'node:fs';
import path from 'node:path';
import { INITIALIZED, now, percentile, post, sleep } from './bench-lib.js';
import { openGetStream } from './chaos-lib.js';
import { ECHO_FIXTURE, ROOT, openSession, requireBuild, startProxy, stopProxy } from './proxy-process.js';

requireBuild('bench-scale');
const SERVERS = Number(process.env.BENCH_SERVERS ?? 100);
const PER_SERVER = Number(process.env.BENCH_TOOLS_PER_SERVER ?? 50);
const SESSIONS = Number(process.env.BENCH_SESSIONS ?? 200);
const SAME_NAMES = process.env.BENCH_SAME_NAMES === '1';
const JSON_OUT = process.argv.includes('--json');
const log = (line: string): void => void process.stderr.write(`[bench-scale] ${line}\n`);
const FIXTURE = path.join(ROOT, 'test/fixtures/fixture-server.mjs');

const call = (id: number, name: string, args: Record<string, unknown>): string =>
  JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });

async function main(): Promise<number> {
  // One fixture server to announce a change; the rest echo servers with `PER_SERVER` realistic tools each.
  const mcpServers: Record<string, unknown> = { fx: { command: process.execPath, args: [FIXTURE], env: { FIXTURE_NAME: 'fx' } } };
  for (let i = 1; i < SERVERS; i++) mcpServers[`s${i}`] = { command: process.execPath, args: [ECHO_FIXTURE], env: { ECHO_EXTRA_TOOLS: String(PER_SERVER - 1), ...(SAME_NAMES ? {} : { ECHO_TOOL_TAG: `s${i}` }) } };
  const t0 = now();
  const proxy = await startProxy('scale', { mcpServers, profiles: { search: { discovery: 'search' } }, limits: { maxSessionsPerIdentity: 100_000 } }, 300_000);
  const readyMs = now() - t0;
  const url = `${proxy.base}/mcp`;
  const failures: string[] = [];
  const results: Record<string, number> = { servers: SERVERS, readyMs: Math.round(readyMs) };
  try {
    // A full listing: every page.
    const headers = await openSession(url);
    const listings: number[] = [];
    let tools = 0;
    for (let round = 0; round < 10; round++) {
      const started = now();
      tools = 0;
      let cursor: string | undefined;
      for (let page = 0, id = 100 + round * 1000; page < 1000; page++, id++) {
        const reply = await post(url, headers, JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/list', params: cursor === undefined ? {} : { cursor } }), id);
        const result = reply.msg?.result as { tools?: unknown[]; nextCursor?: string } | undefined;
        tools += result?.tools?.length ?? 0;
        cursor = result?.nextCursor;
        if (cursor === undefined) break;
      }
      listings.push(now() - started);
    }
    listings.sort((a, b) => a - b);
    results.tools = tools;
    results.fullListingMsP50 = Math.round(percentile(Float64Array.from(listings), 0.5) ?? NaN);
    log(`${tools} tools; a full tools/list (every page) p50 ${results.fullListingMsP50} ms`);

    // Search mode: find_tools over the whole catalog.
    const search = await openSession(`${url}?profile=search`);
    const queries = fs
      .readFileSync(path.join(ROOT, 'bench/discovery/queries.jsonl'), 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => (JSON.parse(line) as { query: string }).query);
    const latencies: number[] = [];
    for (const [i, query] of queries.entries()) {
      const started = now();
      const reply = await post(`${url}?profile=search`, search, call(10_000 + i, 'switchboard__find_tools', { query }), 10_000 + i);
      latencies.push(now() - started);
      if (reply.msg?.result === undefined) failures.push(`find_tools "${query}" got no result`);
    }
    latencies.sort((a, b) => a - b);
    const f64 = Float64Array.from(latencies);
    results.findToolsMsP50 = Number((percentile(f64, 0.5) ?? NaN).toFixed(2));
    results.findToolsMsP99 = Number((percentile(f64, 0.99) ?? NaN).toFixed(2));
    log(`find_tools over ${tools} tools: p50 ${results.findToolsMsP50} ms, p99 ${results.findToolsMsP99} ms (HTTP round trip included)`);

    // list_changed fan-out: SESSIONS sessions listening on their GET stream; one server adds a tool.
    let notified = 0;
    let lastAt = 0;
    const streams = [];
    for (let i = 0; i < SESSIONS; i++) {
      const session = await openSession(url);
      streams.push(
        await openGetStream(url, session, (message) => {
          if (message.method === 'notifications/tools/list_changed') {
            notified += 1;
            lastAt = now();
          }
        }),
      );
    }
    const changedAt = now();
    await post(url, headers, call(2, 'fx__add_tool', { name: 'brand_new_tool' }), 2);
    for (const deadline = now() + 20_000; notified < SESSIONS && now() < deadline; ) await sleep(5);
    results.fanOutSessions = SESSIONS;
    results.fanOutNotified = notified;
    results.fanOutMs = Math.round(lastAt - changedAt);
    if (notified < SESSIONS) failures.push(`only ${notified} of ${SESSIONS} sessions were told the list changed`);
    log(`list_changed fan-out: ${notified}/${SESSIONS} sessions told within ${results.fanOutMs} ms of the change`);
    for (const stream of streams) stream.close();
    await post(url, headers, INITIALIZED, null);
  } catch (error) {
    failures.push(error instanceof Error ? error.message : String(error));
  } finally {
    const stopped = await stopProxy(proxy, log);
    results.stopMs = stopped.stopMs;
    if (stopped.leftover > 0) failures.push(`${stopped.leftover} processes outlived the proxy`);
  }
  process.stdout.write(JSON_OUT ? `${JSON.stringify({ ...results, failures }, null, 2)}\n` : `${Object.entries(results).map(([k, v]) => `${k}: ${v}`).join('\n')}\n${failures.length === 0 ? 'PASS' : `FAIL: ${failures.join('; ')}`}\n`);
  return failures.length === 0 ? 0 : 1;
}

main().then((code) => process.exit(code), (error: unknown) => {
  process.stderr.write(`bench-scale: ${String(error)}\n`);
  process.exit(1);
});
