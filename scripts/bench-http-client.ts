// Which HTTP client a remote upstream should use: Node's http module (what the proxy uses) against
// undici's Pool, each POSTing the same tools/call to a bare floor server (scripts/http-floor.mjs)
// from this process, C requests in flight, the body read whole. Both take turns in ABBA windows;
// CPU per call is this process's (the client's) alone, the server's is the same for both.
//
//   node --import tsx scripts/bench-http-client.ts      BENCH_SESSIONS (1,10,50), BENCH_PAYLOADS (100,65536), BENCH_ROUNDS (4), BENCH_WINDOW (1 s)
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Pool } from 'undici';
import { callMessage, echoText, now } from './bench-lib.js';
import { ROOT, startListening } from './proxy-process.js';
import { median } from './bench-windows.js';

const SESSIONS = (process.env.BENCH_SESSIONS ?? '1,10,50').split(',').map(Number);
const PAYLOADS = (process.env.BENCH_PAYLOADS ?? '100,65536').split(',').map(Number);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const WINDOW = Number(process.env.BENCH_WINDOW ?? 1);

type Post = (body: string) => Promise<Buffer>;

function nodeHttp(base: URL, C: number): Post {
  const agent = new http.Agent({ keepAlive: true, maxSockets: C });
  return (body) =>
    new Promise((resolve, reject) => {
      const req = http.request(base, { method: 'POST', agent, headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'content-length': Buffer.byteLength(body) } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve(Buffer.concat(chunks)));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(body);
    });
}

function undiciPool(base: URL, C: number): Post {
  const pool = new Pool(base.origin, { connections: C, pipelining: 1 });
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  return async (body) => {
    const res = await pool.request({ path: base.pathname, method: 'POST', headers, body });
    const chunks: Buffer[] = [];
    for await (const chunk of res.body) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  };
}

async function window(post: Post, C: number, payload: number, seconds: number): Promise<{ rate: number; cpuUs: number }> {
  const texts = Array.from({ length: C }, (_, i) => echoText(`c${i}`, payload));
  let stop = false;
  let ok = 0;
  const cpu0 = process.cpuUsage();
  const t0 = now();
  setTimeout(() => (stop = true), seconds * 1000);
  await Promise.all(texts.map(async (text, loop) => {
    for (let id = 1; !stop; id++) {
      const answer = await post(callMessage(id, 'echo', text));
      if (answer.length < text.length) throw new Error(`short answer on loop ${loop}`);
      ok++;
    }
  }));
  const ms = now() - t0;
  const cpu = process.cpuUsage(cpu0);
  return { rate: (ok / ms) * 1000, cpuUs: (cpu.user + cpu.system) / ok };
}

const floor = await startListening(path.join(ROOT, 'scripts/http-floor.mjs'), ['0']);
const port = floor.port;
const base = new URL(`http://127.0.0.1:${port}/mcp`);
const lines = [
  `${ROUNDS} ABBA rounds of ${WINDOW} s windows, ${os.cpus().length} CPUs, node ${process.version}. Client CPU µs per call (this process only).`,
  '',
  '| payload B | in flight | node:http calls/s | undici calls/s | undici/node:http calls/s (rounds) | node:http CPU µs | undici CPU µs | undici/node:http CPU (rounds) |',
  '|---:|---:|---:|---:|---:|---:|---:|---:|',
];
for (const payload of PAYLOADS) {
  for (const C of SESSIONS) {
    const clients = { node: nodeHttp(base, C), undici: undiciPool(base, C) };
    await window(clients.node, C, payload, 0.5);
    await window(clients.undici, C, payload, 0.5);
    const got = { node: [] as { rate: number; cpuUs: number }[], undici: [] as { rate: number; cpuUs: number }[] };
    const rateRatio: number[] = [];
    const cpuRatio: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      const order = r % 2 === 0 ? (['node', 'undici', 'undici', 'node'] as const) : (['undici', 'node', 'node', 'undici'] as const);
      const round = { node: [] as { rate: number; cpuUs: number }[], undici: [] as { rate: number; cpuUs: number }[] };
      for (const which of order) round[which].push(await window(clients[which], C, payload, WINDOW));
      const avg = (xs: { rate: number; cpuUs: number }[], k: 'rate' | 'cpuUs'): number => xs.reduce((s, x) => s + x[k], 0) / xs.length;
      rateRatio.push(avg(round.undici, 'rate') / avg(round.node, 'rate'));
      cpuRatio.push(avg(round.undici, 'cpuUs') / avg(round.node, 'cpuUs'));
      got.node.push(...round.node);
      got.undici.push(...round.undici);
    }
    const m = (xs: { rate: number; cpuUs: number }[], k: 'rate' | 'cpuUs'): number => median(xs.map((x) => x[k]));
    const f = (x: number, d = 0): string => x.toFixed(d);
    const spread = (xs: number[]): string => `${f(median(xs), 2)} (${f(Math.min(...xs), 2)}–${f(Math.max(...xs), 2)})`;
    const line = `| ${payload} | ${C} | ${f(m(got.node, 'rate'))} | ${f(m(got.undici, 'rate'))} | ${spread(rateRatio)} | ${f(m(got.node, 'cpuUs'))} | ${f(m(got.undici, 'cpuUs'))} | ${spread(cpuRatio)} |`;
    process.stderr.write(`${line}\n`);
    lines.push(line);
  }
}
floor.stop();
process.stdout.write(`${lines.join('\n')}\n`);
process.exit(0);
