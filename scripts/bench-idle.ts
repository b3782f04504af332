// Benchmark: what an idle session costs. Opens N Streamable HTTP sessions (initialize +
// notifications/initialized, then nothing), samples the daemon's RSS as they accumulate and fits a
// line through the samples: the slope is the memory per idle session.
//
//   npm run build && npm run bench:idle [-- --sessions 10000] [--json]
//
// The first 500 sessions warm the code paths and are not in the fit. At the end a sample of the
// sessions makes a call each (they must all still be there) and the proxy is stopped; the exit
// status is 1 if a session failed to open, a sampled call failed or a process outlived the proxy.
import { parseArgs } from 'node:util';
import { callMessage, checkEcho, echoText, post, rssMb, sleep, now } from './bench-lib.js';
import { TEMP, openSession, requireBuild, startProxy, stopProxy } from './proxy-process.js';
import fs from 'node:fs';

const { values } = parseArgs({
  options: { sessions: { type: 'string', default: '10000' }, json: { type: 'boolean', default: false } },
});
const TOTAL = Number(values.sessions);
if (!Number.isInteger(TOTAL) || TOTAL < 1000) {
  process.stderr.write('bench-idle: --sessions must be an integer of at least 1000\n');
  process.exit(2);
}
requireBuild('bench-idle');
const WARM = 500;
const STEP = 500;
/** Sessions opened at once: enough to be quick, few enough not to measure a burst of sockets. */
const PARALLEL = 50;
/** Sessions that make a call at the end, to show they are held and usable. */
const PROBES = 200;
const log = (line: string): void => void process.stderr.write(`[bench-idle] ${line}\n`);

/** Least-squares slope of y over x. */
function slope(points: ReadonlyArray<readonly [number, number]>): number {
  const n = points.length;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  let num = 0;
  let den = 0;
  for (const [x, y] of points) {
    num += (x - mx) * (y - my);
    den += (x - mx) ** 2;
  }
  return num / den;
}

/** RSS after a pause, so that allocation bursts of the last step settle (the proxy runs its own GC). */
async function settledRssKb(pid: number): Promise<number> {
  await sleep(300);
  return Math.round((rssMb(pid) ?? 0) * 1024);
}

async function main(): Promise<number> {
  // maxSessions above the count, idle expiry far beyond the run: nothing is evicted while we measure.
  const proxy = await startProxy('idle', { limits: { maxSessions: TOTAL + 100, sessionIdleMs: 3_600_000 } });
  const url = `${proxy.base}/mcp`;
  const sessions: Array<Record<string, string>> = [];
  const samples: Array<[number, number]> = [];
  let failures = 0;
  const t0 = now();
  try {
    const startKb = await settledRssKb(proxy.pid);
    while (sessions.length < TOTAL) {
      const batch = Math.min(PARALLEL, TOTAL - sessions.length);
      const opened = await Promise.allSettled(Array.from({ length: batch }, () => openSession(url)));
      for (const result of opened) {
        if (result.status === 'fulfilled') sessions.push(result.value);
        else if ((failures += 1) <= 3) log(`session failed to open: ${String(result.reason)}`);
      }
      if (failures > 100) throw new Error('too many sessions failed to open');
      if (sessions.length >= WARM && sessions.length % STEP === 0) samples.push([sessions.length, await settledRssKb(proxy.pid)]);
    }
    const openSeconds = (now() - t0) / 1000;
    const perSessionBytes = Math.round(slope(samples) * 1024);
    // Probes spread over the whole range, oldest included.
    let probeFailures = 0;
    for (let i = 0; i < PROBES; i += 1) {
      const headers = sessions[Math.floor((i * sessions.length) / PROBES)] as Record<string, string>;
      const text = echoText(`probe-${i}`, 100);
      const reply = await post(url, headers, callMessage(i + 1, 'echo__echo', text), i + 1);
      const problem = reply.status === 200 ? checkEcho(reply.msg, i + 1, text) : `HTTP ${reply.status}`;
      if (problem !== null && (probeFailures += 1) <= 3) log(`probe ${i} failed: ${problem}`);
    }
    const endKb = samples.at(-1)?.[1] ?? 0;
    const stop = await stopProxy(proxy, log);
    const report = {
      sessions: sessions.length,
      open_failures: failures,
      open_seconds: Number(openSeconds.toFixed(1)),
      rss_start_mb: Number((startKb / 1024).toFixed(1)),
      rss_end_mb: Number((endKb / 1024).toFixed(1)),
      bytes_per_session: perSessionBytes,
      samples: samples.map(([n, kb]) => ({ sessions: n, rss_mb: Number((kb / 1024).toFixed(1)) })),
      probes: PROBES,
      probe_failures: probeFailures,
      leftover_processes: stop.leftover,
    };
    if (values.json) process.stdout.write(JSON.stringify(report, null, 2) + '\n');
    else {
      const rows = report.samples.filter((_, i, all) => i % 2 === 0 || i === all.length - 1);
      process.stdout.write(
        `${rows.map((r) => `${String(r.sessions).padStart(6)} sessions  RSS ${r.rss_mb.toFixed(1)} MB`).join('\n')}\n` +
          `idle sessions: ${report.sessions} opened in ${report.open_seconds} s (${failures} failed); ` +
          `RSS ${report.rss_start_mb} MB at 0 -> ${report.rss_end_mb} MB; slope ${(perSessionBytes / 1024).toFixed(1)} KB/session; ` +
          `${PROBES - probeFailures}/${PROBES} probe calls ok; ${stop.leftover} processes left\n`,
      );
    }
    const failed = failures > 0 || probeFailures > 0 || stop.leftover > 0;
    if (failed) log(`proxy config and log kept in ${TEMP}`);
    else fs.rmSync(TEMP, { recursive: true, force: true });
    return failed ? 1 : 0;
  } catch (error) {
    await stopProxy(proxy, log);
    throw error;
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`bench-idle: ${(error as Error).message}\n(proxy config and log kept in ${TEMP})\n`);
    process.exit(1);
  },
);
