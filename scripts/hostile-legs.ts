// Legs run by `npm run chaos` (a hostile child) and `npm run fuzz` (slow clients) against the built
// daemon as a process: each floods it the way an attacker would and asserts that its memory and
// file descriptors stay bounded, that well-behaved calls keep being answered, and that it stops
// promptly with nothing left behind.
//
//   hostile child: stderr flood (short lines at pipe speed), list_changed flood with a counter in a
//   tool's description (20 per ms), server-to-client request flood towards a client that never answers.
//   slow clients: strangers trickling bodies, headers that never end, idle sockets past maxConnections.
//
// SWITCHBOARD_CLI=<path of dist/cli/main.js> runs a leg against another build (to measure a "before").
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { INITIALIZED, now, post, rssMb, sleep } from './bench-lib.js';
import { ROOT, openSession, startProxy, stopProxy, type Proxy } from './proxy-process.js';

const FIXTURE = path.join(ROOT, 'test/fixtures/fixture-server.mjs');

export interface LegOptions {
  readonly short: boolean;
  readonly log: (line: string) => void;
}

export interface LegResult {
  readonly name: string;
  readonly failures: string[];
  /** Measurements for the report: peak RSS, fds, durations, counts. */
  readonly numbers: Record<string, number>;
}

/** Open file descriptors of a process (sockets, pipes, files). */
export function fdCount(pid: number): number {
  try {
    return fs.readdirSync(`/proc/${pid}/fd`).length;
  } catch {
    return -1;
  }
}

/** Samples RSS and fds of `pid` every 100 ms until stopped; keeps the peaks. */
function sampler(pid: number): { stop: () => { rssPeakMb: number; fdPeak: number } } {
  let rssPeakMb = 0;
  let fdPeak = 0;
  const timer = setInterval(() => {
    rssPeakMb = Math.max(rssPeakMb, rssMb(pid) ?? 0);
    fdPeak = Math.max(fdPeak, fdCount(pid));
  }, 100);
  return { stop: () => (clearInterval(timer), { rssPeakMb, fdPeak }) };
}

const call = (id: number, name: string, args: Record<string, unknown>): string =>
  JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });

/** Calls echo every 50 ms while `busy` runs; returns the slowest answer, ms, and the failures. */
async function echoWhile(url: string, headers: Record<string, string>, busy: Promise<unknown>): Promise<{ maxMs: number; calls: number; failed: number }> {
  let done = false;
  void busy.finally(() => (done = true));
  let maxMs = 0;
  let calls = 0;
  let failed = 0;
  for (let id = 1_000_000; !done; id++) {
    const t0 = now();
    const reply = await post(url, headers, call(id, 'echo__echo', { text: 'still here' }), id, 15_000).catch(() => undefined);
    maxMs = Math.max(maxMs, now() - t0);
    calls += 1;
    if (reply?.msg?.result === undefined) failed += 1;
    await sleep(50);
  }
  return { maxMs: Math.round(maxMs), calls, failed };
}

function bound(failures: string[], what: string, value: number, limit: number): void {
  if (value > limit) failures.push(`${what} ${Math.round(value)} > ${limit}`);
}

/** A flooding child: stderr, list_changed and server requests. Bounds: RSS growth, fds, log lines, stop time. */
export async function hostileChildLeg(options: LegOptions): Promise<LegResult> {
  const { log } = options;
  const failures: string[] = [];
  const numbers: Record<string, number> = {};
  const proxy: Proxy = await startProxy('hostile', {
    mcpServers: {
      echo: { command: process.execPath, args: [path.join(ROOT, 'test/fixtures/echo-server.mjs')] },
      h: { command: process.execPath, args: [FIXTURE], env: { FIXTURE_NAME: 'h' } },
    },
  });
  const url = `${proxy.base}/mcp`;
  try {
    const headers = await openSession(url);
    for (let i = 0; i < 20; i++) await post(url, headers, call(i + 1, 'echo__echo', { text: 'warm' }), i + 1);
    await sleep(500);
    const baseRss = rssMb(proxy.pid) ?? 0;
    const baseFds = fdCount(proxy.pid);
    numbers.baselineRssMb = Math.round(baseRss);
    numbers.baselineFds = baseFds;

    // 1. stderr: short lines as fast as the pipe takes them.
    const mb = options.short ? 300 : 2000;
    let sample = sampler(proxy.pid);
    let t0 = now();
    const flood = post(url, headers, call(1, 'h__stderr_flood', { mb, lineBytes: 60 }), 1, 600_000);
    const stderrEcho = await echoWhile(url, headers, flood);
    const flooded = await flood;
    let peaks = sample.stop();
    numbers.stderrMb = mb;
    numbers.stderrSeconds = Math.round((now() - t0) / 100) / 10;
    numbers.stderrRssPeakMb = Math.round(peaks.rssPeakMb);
    numbers.stderrEchoMaxMs = stderrEcho.maxMs;
    if (flooded.msg?.result === undefined) failures.push('stderr flood: the flooding call got no result');
    if (stderrEcho.failed > 0) failures.push(`stderr flood: ${stderrEcho.failed} of ${stderrEcho.calls} echo calls failed`);
    bound(failures, 'stderr flood: RSS growth, MB', peaks.rssPeakMb - baseRss, 150);
    const stderrLines = fs.readFileSync(proxy.logFile, 'utf8').split('\n').filter((line) => line.includes('"server stderr"')).length;
    numbers.stderrLinesLogged = stderrLines;
    bound(failures, 'stderr flood: lines logged', stderrLines, 50 * (numbers.stderrSeconds + 2) + 100);
    log(`stderr flood: ${mb} MB in ${numbers.stderrSeconds} s, RSS peak ${numbers.stderrRssPeakMb} MB (baseline ${numbers.baselineRssMb}), ${stderrLines} lines logged, echo max ${stderrEcho.maxMs} ms`);

    // 2. list_changed: 20 per ms, a counter and an injection in a tool's description each time.
    const churnMs = options.short ? 5_000 : 30_000;
    sample = sampler(proxy.pid);
    t0 = now();
    await post(url, headers, call(2, 'h__churn', { ms: churnMs, perTick: 20 }), 2);
    const churnEcho = await echoWhile(url, headers, sleep(churnMs + 500));
    peaks = sample.stop();
    const lists = await post(url, headers, call(3, 'h__list_count', {}), 3);
    const listCount = Number((lists.msg?.result as { content?: Array<{ text?: string }> } | undefined)?.content?.[0]?.text ?? NaN);
    numbers.relistSeconds = Math.round((now() - t0) / 100) / 10;
    numbers.relistRssPeakMb = Math.round(peaks.rssPeakMb);
    numbers.relistListings = listCount;
    numbers.relistEchoMaxMs = churnEcho.maxMs;
    if (churnEcho.failed > 0) failures.push(`relist flood: ${churnEcho.failed} of ${churnEcho.calls} echo calls failed`);
    bound(failures, 'relist flood: RSS growth, MB', peaks.rssPeakMb - baseRss, 150);
    bound(failures, 'relist flood: listings', listCount, churnMs / 200 + 20);
    log(`relist flood: ${churnMs / 1000} s, ${listCount} listings, RSS peak ${numbers.relistRssPeakMb} MB, echo max ${churnEcho.maxMs} ms`);

    // 3. server requests towards a client that declared sampling and never answers.
    sample = sampler(proxy.pid);
    const init = await post(
      url,
      {},
      JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: { sampling: {} }, clientInfo: { name: 'silent', version: '1' } } }),
      0,
    );
    const silent = { 'mcp-session-id': String(init.headers['mcp-session-id']), 'mcp-protocol-version': '2025-06-18' };
    await post(url, silent, INITIALIZED, null);
    const rounds = options.short ? 3 : 10;
    for (let round = 0; round < rounds; round++) {
      await post(url, silent, call(10 + round, 'h__flood_sample', { count: 5_000, waitMs: 1_000 }), 10 + round, 60_000);
    }
    peaks = sample.stop();
    numbers.requestFloodRssPeakMb = Math.round(peaks.rssPeakMb);
    bound(failures, 'request flood: RSS growth, MB', peaks.rssPeakMb - baseRss, 150);
    const refusedLines = fs.readFileSync(proxy.logFile, 'utf8').split('\n').filter((line) => line.includes('server request refused')).length;
    numbers.requestFloodRefusalLines = refusedLines;
    bound(failures, 'request flood: refusal log lines', refusedLines, 20);
    log(`request flood: ${rounds} x 5,000 requests, RSS peak ${numbers.requestFloodRssPeakMb} MB, ${refusedLines} refusal lines logged`);

    numbers.fdPeak = Math.max(peaks.fdPeak, fdCount(proxy.pid));
    bound(failures, 'file descriptors above baseline', numbers.fdPeak - baseFds, 50);
  } catch (error) {
    failures.push(`hostile child: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    const stopped = await stopProxy(proxy, log);
    numbers.stopMs = stopped.stopMs;
    if (stopped.leftover > 0) failures.push(`${stopped.leftover} processes outlived the proxy`);
    bound(failures, 'stop time, ms', stopped.stopMs, 15_000);
    log(`stopped in ${stopped.stopMs} ms, ${stopped.leftover} left over`);
  }
  return { name: 'hostile child', failures, numbers };
}

/** Writes `head`, then a byte every `everyMs`, until the peer closes; resolves with the close time, ms. */
function trickle(port: number, head: string, everyMs: number, giveUpMs: number): Promise<number> {
  return new Promise((resolve) => {
    const t0 = now();
    const socket = net.connect(port, '127.0.0.1', () => socket.write(head));
    const timer = setInterval(() => socket.write('x'), everyMs);
    const giveUp = setTimeout(() => socket.destroy(), giveUpMs);
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearInterval(timer);
      clearTimeout(giveUp);
      resolve(now() - t0);
    });
  });
}

/** Strangers that trickle, never finish headers, or just hold sockets. Bounds: fds, and that a real client is served. */
export async function slowClientLeg(options: LegOptions): Promise<LegResult> {
  const { log } = options;
  const failures: string[] = [];
  const numbers: Record<string, number> = {};
  const token = 'slow-leg-token-0123456789abcdef';
  const greedy = 'greedy-leg-token-0123456789abcd';
  process.env.SB_SLOW_LEG_TOKEN = token;
  process.env.SB_GREEDY_LEG_TOKEN = greedy;
  const maxSessions = options.short ? 600 : 2_000;
  const proxy = await startProxy('slow', {
    limits: { requestTimeoutMs: 2_000, headersTimeoutMs: 2_000, maxConnections: 400, maxSessions, maxSessionsPerIdentity: maxSessions / 2 },
    auth: { tokens: [{ name: 'ops', tokenEnv: 'SB_SLOW_LEG_TOKEN' }, { name: 'greedy', tokenEnv: 'SB_GREEDY_LEG_TOKEN' }] },
  });
  const port = Number(new URL(proxy.base).port);
  const url = `${proxy.base}/mcp`;
  try {
    const baseFds = fdCount(proxy.pid);
    numbers.baselineFds = baseFds;
    const sample = sampler(proxy.pid);
    const strangers = options.short ? 300 : 1_500;
    const giveUpMs = 20_000;
    const body = 'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000000\r\n\r\n{';
    const withToken = `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 1000000\r\n\r\n{`;
    const headersOnly = 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ';
    const closes: Array<Promise<number>> = [];
    for (let i = 0; i < strangers; i++) {
      const head = i % 3 === 0 ? body : i % 3 === 1 ? withToken : headersOnly;
      closes.push(trickle(port, head, 500, giveUpMs));
      if (i % 50 === 49) await sleep(20);
    }
    // A real client, meanwhile: it may meet the connection cap for a moment, never for longer than the timeouts.
    let served = false;
    const deadline = now() + 10_000;
    while (!served && now() < deadline) {
      const headers = await openSession(url, { authorization: `Bearer ${token}` }).catch(() => undefined);
      if (headers !== undefined) {
        const reply = await post(url, headers, call(1, 'echo__echo', { text: 'served' }), 1).catch(() => undefined);
        served = reply?.msg?.result !== undefined;
      }
      if (!served) await sleep(200);
    }
    const closedAfter = await Promise.all(closes);
    const peaks = sample.stop();
    const sorted = [...closedAfter].sort((a, b) => a - b);
    numbers.strangers = strangers;
    numbers.slowestCloseMs = Math.round(sorted[sorted.length - 1] ?? 0);
    numbers.fdPeak = peaks.fdPeak;
    numbers.fdsAfter = fdCount(proxy.pid);
    if (!served) failures.push('slow clients: a client with a token was not served within 10 s');
    bound(failures, 'slow clients: slowest stranger cut after, ms', numbers.slowestCloseMs, 8_000);
    bound(failures, 'slow clients: file descriptors above baseline', peaks.fdPeak - baseFds, 400 + 50);
    bound(failures, 'slow clients: file descriptors left above baseline', numbers.fdsAfter - baseFds, 20);
    log(`slow clients: ${strangers} strangers, all cut within ${numbers.slowestCloseMs} ms, fd peak ${peaks.fdPeak} (baseline ${baseFds}), ${numbers.fdsAfter} after, real client served: ${served}`);

    // One token opening as many sessions as the proxy holds: everyone else must still get in.
    let opened = 0;
    for (let i = 0; i < maxSessions + 10; i++) if ((await openSession(url, { authorization: `Bearer ${greedy}` }).catch(() => undefined)) !== undefined) opened += 1;
    const other = await openSession(url, { authorization: `Bearer ${token}` }).catch((error: unknown) => String(error));
    numbers.greedyOpened = opened;
    if (typeof other === 'string') failures.push(`session limits: another token was refused after one token opened ${opened} sessions: ${other}`);
    log(`session limits: one token opened ${opened} sessions (maxSessions ${maxSessions}); another token then ${typeof other === 'string' ? 'was refused' : 'got one'}`);
  } catch (error) {
    failures.push(`slow clients: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    const stopped = await stopProxy(proxy, log);
    if (stopped.leftover > 0) failures.push(`${stopped.leftover} processes outlived the proxy`);
  }
  return { name: 'slow clients', failures, numbers };
}
