// The built daemon as a child process for the benchmark scripts: start on a free port, wait for
// /readyz, open sessions, stop with SIGTERM (SIGKILL after 5 s) and count what outlived it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import http from 'node:http';
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { INITIALIZED, descendants, freePort, initializeMessage, isAlive, now, post, sleep } from './bench-lib.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The daemon to run; SWITCHBOARD_CLI points at another build (say, to measure a before). */
export const CLI = process.env.SWITCHBOARD_CLI ?? path.join(ROOT, 'dist/cli/main.js');
export const ECHO_FIXTURE = path.join(ROOT, 'test/fixtures/echo-server.mjs');

/** Exits with a one-line hint when the daemon was not built. */
export function requireBuild(script: string): void {
  if (fs.existsSync(CLI)) return;
  process.stderr.write(`${script}: ${path.relative(ROOT, CLI)} not found; run \`npm run build\` first\n`);
  process.exit(2);
}

// Every process we start, so that nothing outlives the script, even on Ctrl-C or a crash.
const started = new Set<number>();
export const TEMP = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-bench-'));
process.on('exit', () => {
  for (const pid of started) {
    for (const p of [...descendants(pid), pid]) if (isAlive(p)) try { process.kill(p, 'SIGKILL'); } catch { /* gone */ }
  }
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    fs.rmSync(TEMP, { recursive: true, force: true });
    process.exit(130);
  });
}

/** Marks a process started elsewhere (a stdio baseline child) for the exit-time cleanup. */
export function track(pid: number): () => void {
  started.add(pid);
  return () => started.delete(pid);
}

/** A server script that prints `listening <port>` on stderr once it listens (the floor, the remote fixture). */
export interface ListeningServer {
  readonly pid: number;
  readonly port: number;
  stop(): void;
}

export async function startListening(script: string, args: readonly string[] = [], env: Record<string, string> = {}): Promise<ListeningServer> {
  const child = spawn(process.execPath, [script, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  const untrack = track(child.pid as number);
  const port = await new Promise<number>((resolve, reject) => {
    let seen = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const match = /listening (\d+)/.exec(seen);
      if (match !== null) resolve(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`${path.basename(script)} exited with ${code}: ${seen}`)));
  });
  return { pid: child.pid as number, port, stop: () => { child.kill('SIGKILL'); untrack(); } };
}

export const getStatus = (url: string): Promise<number> =>
  new Promise((resolve) => {
    http.get(url, (res) => { res.resume(); resolve(res.statusCode ?? 0); }).on('error', () => resolve(0));
  });

const hasExited = (child: ChildProcess): boolean => child.exitCode !== null || child.signalCode !== null;

export interface Proxy { child: ChildProcess; pid: number; base: string; logFile: string }

/** Starts `switchboard start` with the echo fixture as server `echo` plus `extra` config on top. */
export async function startProxy(name: string, extra: Record<string, unknown> = {}, readyTimeoutMs = 20_000): Promise<Proxy> {
  const port = await freePort();
  const config = path.join(TEMP, `config-${name}.json`);
  const logFile = path.join(TEMP, `proxy-${name}.log`);
  fs.writeFileSync(config, JSON.stringify({
    listen: { host: '127.0.0.1', port },
    mcpServers: { echo: { command: process.execPath, args: [ECHO_FIXTURE] } },
    ...extra,
  }));
  const out = fs.openSync(logFile, 'w');
  // Pins and the sanitization log stay in the run's temp dir, never the user's state dir.
  // BENCH_PROXY_NODE_ARGS: flags for the proxy's node alone (`--cpu-prof`, which NODE_OPTIONS refuses),
  // separated by white space, without quoting.
  const nodeArgs = (process.env.BENCH_PROXY_NODE_ARGS ?? '').split(/\s+/).filter((a) => a !== '');
  const child = spawn(process.execPath, [...nodeArgs, CLI, 'start', '-c', config], { stdio: ['ignore', out, out], env: { ...process.env, XDG_STATE_HOME: TEMP } });
  fs.closeSync(out);
  const pid = child.pid as number;
  started.add(pid);
  const base = `http://127.0.0.1:${port}`;
  for (const deadline = now() + readyTimeoutMs; now() < deadline; await sleep(100)) {
    if (hasExited(child)) break;
    if ((await getStatus(`${base}/readyz`)) === 200) return { child, pid, base, logFile };
  }
  throw new Error(`proxy not ready (exit code ${child.exitCode}); log tail:\n${fs.readFileSync(logFile, 'utf8').slice(-2000)}`);
}

/** SIGTERM, SIGKILL after 5 s; then kills (and counts) any descendant that outlived it. */
export async function stopProxy(proxy: Proxy, log: (line: string) => void): Promise<{ stopMs: number; leftover: number }> {
  const tree = descendants(proxy.pid);
  const t0 = now();
  if (hasExited(proxy.child)) {
    log(`proxy had already exited (${proxy.child.exitCode ?? proxy.child.signalCode}); see ${proxy.logFile}`);
  } else {
    const exited = new Promise((resolve) => proxy.child.once('exit', resolve));
    proxy.child.kill('SIGTERM');
    const timer = setTimeout(() => { log('proxy ignored SIGTERM for 5 s: SIGKILL'); proxy.child.kill('SIGKILL'); }, 5_000);
    await exited;
    clearTimeout(timer);
  }
  const stopMs = Math.round(now() - t0);
  const leftover = tree.filter(isAlive);
  for (const p of leftover) try { process.kill(p, 'SIGKILL'); } catch { /* just exited */ }
  started.delete(proxy.pid);
  return { stopMs, leftover: leftover.length };
}

/** initialize + notifications/initialized; returns the headers every later request of the session carries. */
export async function openSession(url: string, extra: Record<string, string> = {}): Promise<Record<string, string>> {
  const init = await post(url, extra, initializeMessage(0), 0);
  const sid = init.headers['mcp-session-id'];
  if (init.status !== 200 || typeof sid !== 'string' || !init.msg?.result) {
    throw new Error(`initialize: HTTP ${init.status} ${JSON.stringify(init.msg)}`);
  }
  const headers = { ...extra, 'mcp-session-id': sid, 'mcp-protocol-version': init.msg.result.protocolVersion ?? '2025-06-18' };
  const done = await post(url, headers, INITIALIZED, null);
  if (done.status !== 202) throw new Error(`notifications/initialized: HTTP ${done.status}`);
  return headers;
}
