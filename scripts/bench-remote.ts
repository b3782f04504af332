// A remote upstream against the same server over stdio, through one proxy: C sessions call
// `stdio__echo` (the fixture spawned as a child) and `remote__echo` (the same fixture served over
// Streamable HTTP on loopback) in alternating half windows (ABBA), so the machine's drift favours
// neither. CPU per call counts the proxy, its children and the remote server's process.
//
//   npm run bench:remote [-- --json]      BENCH_SECONDS, BENCH_WARMUP, BENCH_SESSIONS (default 1,10,50), BENCH_PAYLOAD
import os from 'node:os';
import path from 'node:path';
import {
  callMessage, checkEcho, cpuSnapshot, cpuUsBetween, echoText, percentile, post, runLoops, type LoopResult,
} from './bench-lib.js';
import { ROOT, openSession, requireBuild, startListening, startProxy, stopProxy, type ListeningServer } from './proxy-process.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 6);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2);
const SESSIONS = (process.env.BENCH_SESSIONS ?? '1,10,50').split(',').map(Number);
const PAYLOAD = Number(process.env.BENCH_PAYLOAD ?? 100);
const FIXTURE = path.join(ROOT, 'test/fixtures/remote-fixture.mjs');
requireBuild('bench:remote');
const log = (line: string): void => void process.stderr.write(`[bench:remote] ${line}\n`);

interface Window { readonly r: LoopResult; readonly cpuUs: number; readonly proxyCpuUs: number }
interface Cell { calls_per_s: number; p50_ms: number | null; p99_ms: number | null; cpu_us_per_call: number | null; proxy_cpu_us_per_call: number | null; errors: number }

function cell(parts: readonly Window[]): Cell {
  const ok = parts.reduce((sum, p) => sum + p.r.ok, 0);
  const ms = parts.reduce((sum, p) => sum + p.r.windowMs, 0);
  const latencies = Float64Array.from(parts.flatMap((p) => [...p.r.latencies])).sort();
  const cpu = parts.reduce((sum, p) => sum + p.cpuUs, 0);
  const proxyCpu = parts.reduce((sum, p) => sum + p.proxyCpuUs, 0);
  const round = (v: number | null): number | null => (v === null ? null : Math.round(v * 100) / 100);
  return {
    calls_per_s: Math.round(ok / (ms / 1000)),
    p50_ms: round(percentile(latencies, 0.5)),
    p99_ms: round(percentile(latencies, 0.99)),
    cpu_us_per_call: ok === 0 ? null : Math.round(cpu / ok),
    proxy_cpu_us_per_call: ok === 0 ? null : Math.round(proxyCpu / ok),
    errors: parts.reduce((sum, p) => sum + p.r.errors, 0),
  };
}

function startRemote(): Promise<ListeningServer> {
  return startListening(FIXTURE, [], { PORT: '0' });
}

async function run(C: number): Promise<{ stdio: Cell; remote: Cell }> {
  const remote = await startRemote();
  const proxy = await startProxy(`remote-c${C}`, {
    mcpServers: {
      stdio: { command: process.execPath, args: [FIXTURE], env: { MODE: 'stdio' } },
      remote: { url: `http://127.0.0.1:${remote.port}/mcp` },
    },
  });
  try {
    const url = `${proxy.base}/mcp`;
    const sessions = await Promise.all(Array.from({ length: C }, () => openSession(url)));
    const caller = (tool: string) => async (loop: number, id: number): Promise<string | null> => {
      const text = echoText(`${tool}${loop}-${id}`, PAYLOAD);
      const reply = await post(url, sessions[loop] as Record<string, string>, callMessage(id, tool, text), id);
      return reply.status === 200 ? checkEcho(reply.msg, id, text) : `http_${reply.status}`;
    };
    const window = async (tool: string): Promise<Window> => {
      let before = new Map<number, number>();
      let remoteBefore = new Map<number, number>();
      let cpuUs = 0;
      let proxyCpuUs = 0;
      const r = await runLoops(C, WARMUP / 2, SECONDS / 2, caller(tool), (phase) => {
        if (phase === 'start') [before, remoteBefore] = [cpuSnapshot(proxy.pid, true), cpuSnapshot(remote.pid, false)];
        else {
          proxyCpuUs = cpuUsBetween(before, cpuSnapshot(proxy.pid, false));
          cpuUs = cpuUsBetween(before, cpuSnapshot(proxy.pid, true)) + cpuUsBetween(remoteBefore, cpuSnapshot(remote.pid, false));
        }
      });
      return { r, cpuUs, proxyCpuUs };
    };
    const parts = { stdio: [] as Window[], remote: [] as Window[] };
    parts.stdio.push(await window('stdio__echo'));
    parts.remote.push(await window('remote__echo'));
    parts.remote.push(await window('remote__echo'));
    parts.stdio.push(await window('stdio__echo'));
    return { stdio: cell(parts.stdio), remote: cell(parts.remote) };
  } finally {
    await stopProxy(proxy, log);
    remote.stop();
  }
}

const rows: Array<{ sessions: number; stdio: Cell; remote: Cell }> = [];
for (const C of SESSIONS) {
  const { stdio, remote } = await run(C);
  log(`C=${C}: stdio upstream ${stdio.calls_per_s} calls/s (${stdio.cpu_us_per_call} µs CPU/call), remote upstream ${remote.calls_per_s} calls/s (${remote.cpu_us_per_call} µs CPU/call)`);
  rows.push({ sessions: C, stdio, remote });
}
if (process.argv.includes('--json')) {
  process.stdout.write(`${JSON.stringify({ payload_bytes: PAYLOAD, window_s: SECONDS, cpus: os.cpus().length, node: process.version, rows }, null, 2)}\n`);
} else {
  const lines = [
    `Payload ${PAYLOAD} B, window ${SECONDS} s (ABBA halves), ${os.cpus().length} CPUs, node ${process.version}. The same server (the SDK's McpServer) as a stdio child and over Streamable HTTP.`,
    '',
    'CPU µs/call: the proxy, its children and the remote server together; "proxy" is the proxy process alone.',
    '',
    '| sessions | stdio calls/s | stdio p50 ms | stdio CPU µs/call | stdio proxy µs/call | remote calls/s | remote p50 ms | remote CPU µs/call | remote proxy µs/call | remote/stdio calls/s | errors (stdio/remote) |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map(({ sessions, stdio, remote }) =>
      `| ${sessions} | ${stdio.calls_per_s.toLocaleString('en-US')} | ${stdio.p50_ms} | ${stdio.cpu_us_per_call} | ${stdio.proxy_cpu_us_per_call} | ${remote.calls_per_s.toLocaleString('en-US')} | ${remote.p50_ms} | ${remote.cpu_us_per_call} | ${remote.proxy_cpu_us_per_call} | ${(remote.calls_per_s / stdio.calls_per_s).toFixed(3)} | ${stdio.errors} / ${remote.errors} |`),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}
if (rows.some((row) => row.stdio.errors > 0 || row.remote.errors > 0)) process.exitCode = 1;
