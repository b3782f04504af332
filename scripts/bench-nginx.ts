// Several instances behind nginx against one instance direct: two proxies (instances a and b,
// each with the echo server) behind Debian's nginx running deploy/nginx/switchboard.conf, and C
// sessions calling echo__echo either straight to instance a or through nginx (spread over both),
// in alternating half windows (ABBA). CPU per call counts the proxies, their children and nginx.
//
//   npm run bench:nginx [-- --json]      BENCH_SECONDS, BENCH_WARMUP, BENCH_SESSIONS (default 10,50), BENCH_PAYLOAD
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { callMessage, checkEcho, cpuSnapshot, cpuUsBetween, echoText, freePort, percentile, post, runLoops, sleep, type LoopResult } from './bench-lib.js';
import { ROOT, TEMP, openSession, requireBuild, startProxy, stopProxy, track } from './proxy-process.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 6);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2);
const SESSIONS = (process.env.BENCH_SESSIONS ?? '10,50').split(',').map(Number);
const PAYLOAD = Number(process.env.BENCH_PAYLOAD ?? 100);
const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((candidate) => fs.existsSync(candidate));
requireBuild('bench:nginx');
const log = (line: string): void => void process.stderr.write(`[bench:nginx] ${line}\n`);

interface Window { readonly r: LoopResult; readonly cpuUs: number }
interface Cell { calls_per_s: number; p50_ms: number | null; p99_ms: number | null; cpu_us_per_call: number | null; errors: number }

function cell(parts: readonly Window[]): Cell {
  const ok = parts.reduce((sum, p) => sum + p.r.ok, 0);
  const ms = parts.reduce((sum, p) => sum + p.r.windowMs, 0);
  const latencies = Float64Array.from(parts.flatMap((p) => [...p.r.latencies])).sort();
  const round = (v: number | null): number | null => (v === null ? null : Math.round(v * 100) / 100);
  return {
    calls_per_s: Math.round(ok / (ms / 1000)),
    p50_ms: round(percentile(latencies, 0.5)),
    p99_ms: round(percentile(latencies, 0.99)),
    cpu_us_per_call: ok === 0 ? null : Math.round(parts.reduce((sum, p) => sum + p.cpuUs, 0) / ok),
    errors: parts.reduce((sum, p) => sum + p.r.errors, 0),
  };
}

async function startNginx(portA: number, portB: number): Promise<{ url: string; pid: number; stop: () => void }> {
  if (NGINX === undefined) throw new Error('nginx is not installed (apt-get install nginx)');
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(TEMP, 'nginx-'));
  const site = fs
    .readFileSync(path.join(ROOT, 'deploy/nginx/switchboard.conf'), 'utf8')
    .replaceAll('127.0.0.1:8801', `127.0.0.1:${portA}`)
    .replaceAll('127.0.0.1:8802', `127.0.0.1:${portB}`)
    .replace('listen 8808;', `listen 127.0.0.1:${port};`);
  fs.writeFileSync(path.join(dir, 'switchboard.conf'), site);
  const temp = (name: string): string => path.join(dir, name);
  fs.writeFileSync(temp('nginx.conf'), [
    process.getuid?.() === 0 ? 'user root;' : '',
    'worker_processes 1;',
    `pid ${temp('nginx.pid')};`,
    `error_log ${temp('error.log')} warn;`,
    'events { worker_connections 1024; }',
    `http { access_log off; client_body_temp_path ${temp('body')}; proxy_temp_path ${temp('proxy')}; fastcgi_temp_path ${temp('f')}; uwsgi_temp_path ${temp('u')}; scgi_temp_path ${temp('s')}; include ${temp('switchboard.conf')}; }`,
  ].join('\n'));
  const child = spawn(NGINX, ['-p', dir, '-c', temp('nginx.conf'), '-g', 'daemon off;'], { stdio: 'ignore' });
  const untrack = track(child.pid as number);
  await sleep(500);
  return { url: `http://127.0.0.1:${port}`, pid: child.pid as number, stop: () => { child.kill('SIGTERM'); untrack(); } };
}

async function run(C: number): Promise<{ direct: Cell; nginx: Cell; spread: { a: number; b: number } }> {
  const [a, b] = await Promise.all([startProxy(`nginx-a-${C}`, { instance: 'a' }), startProxy(`nginx-b-${C}`, { instance: 'b' })]);
  const nginx = await startNginx(Number(new URL(a.base).port), Number(new URL(b.base).port));
  try {
    const direct = await Promise.all(Array.from({ length: C }, () => openSession(`${a.base}/mcp`)));
    const behind = await Promise.all(Array.from({ length: C }, () => openSession(`${nginx.url}/mcp`)));
    const spread = { a: behind.filter((h) => h['mcp-session-id']?.startsWith('a.')).length, b: behind.filter((h) => h['mcp-session-id']?.startsWith('b.')).length };
    const caller = (base: string, sessions: Record<string, string>[]) => async (loop: number, id: number): Promise<string | null> => {
      const text = echoText(`c${loop}-${id}`, PAYLOAD);
      const reply = await post(`${base}/mcp`, sessions[loop] as Record<string, string>, callMessage(id, 'echo__echo', text), id);
      return reply.status === 200 ? checkEcho(reply.msg, id, text) : `http_${reply.status}`;
    };
    const window = async (call: (loop: number, id: number) => Promise<string | null>): Promise<Window> => {
      let before: Map<number, number>[] = [];
      let cpuUs = 0;
      const snapshots = (): Map<number, number>[] => [cpuSnapshot(a.pid, true), cpuSnapshot(b.pid, true), cpuSnapshot(nginx.pid, true)];
      const r = await runLoops(C, WARMUP / 2, SECONDS / 2, call, (phase) => {
        if (phase === 'start') before = snapshots();
        else cpuUs = snapshots().reduce((sum, after, i) => sum + cpuUsBetween(before[i] as Map<number, number>, after), 0);
      });
      return { r, cpuUs };
    };
    const parts = { direct: [] as Window[], nginx: [] as Window[] };
    parts.direct.push(await window(caller(a.base, direct)));
    parts.nginx.push(await window(caller(nginx.url, behind)));
    parts.nginx.push(await window(caller(nginx.url, behind)));
    parts.direct.push(await window(caller(a.base, direct)));
    return { direct: cell(parts.direct), nginx: cell(parts.nginx), spread };
  } finally {
    nginx.stop();
    await Promise.all([stopProxy(a, log), stopProxy(b, log)]);
  }
}

const rows: Array<{ sessions: number; direct: Cell; nginx: Cell; spread: { a: number; b: number } }> = [];
for (const C of SESSIONS) {
  const row = await run(C);
  log(`C=${C}: one instance direct ${row.direct.calls_per_s} calls/s, two behind nginx ${row.nginx.calls_per_s} calls/s (sessions a ${row.spread.a} / b ${row.spread.b})`);
  rows.push({ sessions: C, ...row });
}
if (process.argv.includes('--json')) {
  process.stdout.write(`${JSON.stringify({ payload_bytes: PAYLOAD, window_s: SECONDS, cpus: os.cpus().length, node: process.version, rows }, null, 2)}\n`);
} else {
  process.stdout.write(`${[
    `Payload ${PAYLOAD} B, window ${SECONDS} s (ABBA halves), ${os.cpus().length} CPUs, node ${process.version}. CPU µs/call: both proxies, their children and nginx.`,
    '',
    '| sessions | direct calls/s | direct p50 ms | direct CPU µs/call | nginx calls/s | nginx p50 ms | nginx CPU µs/call | nginx/direct calls/s | sessions on a / b | errors (direct/nginx) |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|',
    ...rows.map(({ sessions, direct, nginx, spread }) =>
      `| ${sessions} | ${direct.calls_per_s.toLocaleString('en-US')} | ${direct.p50_ms} | ${direct.cpu_us_per_call} | ${nginx.calls_per_s.toLocaleString('en-US')} | ${nginx.p50_ms} | ${nginx.cpu_us_per_call} | ${(nginx.calls_per_s / direct.calls_per_s).toFixed(3)} | ${spread.a} / ${spread.b} | ${direct.errors} / ${nginx.errors} |`),
  ].join('\n')}\n`);
}
if (rows.some((row) => row.direct.errors > 0 || row.nginx.errors > 0)) process.exitCode = 1;
