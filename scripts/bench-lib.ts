// Helpers for scripts/bench.ts: /proc accounting, a Streamable HTTP client, a pipelined stdio
// client, and the closed-loop runner shared by both. Node built-ins only.
import http from 'node:http';
import net from 'node:net';
import fs from 'node:fs';
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { sseData } from './sse-client.js';

export const now = (): number => performance.now();
export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export interface RpcMessage {
  id?: number | string | null;
  method?: string;
  result?: { content?: { type?: string; text?: string }[]; isError?: boolean; protocolVersion?: string };
  error?: { code: number; message: string };
}

// ---------- payloads and reply checks ----------

const FILLER = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
let filler = '';

/** Text of `bytes` ASCII bytes that starts with `tag`, so a reply delivered to the wrong caller is caught. */
export function echoText(tag: string, bytes: number): string {
  if (filler.length < bytes) filler = FILLER.repeat(Math.ceil(bytes / FILLER.length));
  const head = `${tag}:`;
  return head.length >= bytes ? head : head + filler.slice(0, bytes - head.length);
}

// Messages are written from templates, only the id and text encoded per call, in both eras alike:
// the driver shares the machine with the proxy, so its own cost is kept low and the same.
export const callMessage = (id: number, tool: string, text: string): string =>
  `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":${JSON.stringify(tool)},"arguments":{"text":${JSON.stringify(text)}}}}`;

/** The same call in the stateless era (2026-07-28): no session, the envelope in `_meta`. */
export const STATELESS_ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '0' },
};
const STATELESS_ENVELOPE_JSON = JSON.stringify(STATELESS_ENVELOPE);
export const statelessCallMessage = (id: number, tool: string, text: string): string =>
  `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":${JSON.stringify(tool)},"arguments":{"text":${JSON.stringify(text)}},"_meta":${STATELESS_ENVELOPE_JSON}}}`;
/** The headers a stateless tools/call carries (streamable-http.mdx, 2026-07-28). */
export const statelessCallHeaders = (tool: string): Record<string, string> => ({ 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': tool });

export const initializeMessage = (id: number): string =>
  JSON.stringify({
    jsonrpc: '2.0', id, method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'switchboard-bench', version: '1.0.0' } },
  });

export const INITIALIZED = '{"jsonrpc":"2.0","method":"notifications/initialized"}';

/** Returns an error kind, or null when `msg` is the echo of `text` under `id`. */
export function checkEcho(msg: RpcMessage | undefined, id: number, text: string): string | null {
  if (msg === undefined) return 'no_reply';
  if (msg.id !== id) return 'wrong_id';
  if (msg.error) return `rpc_${msg.error.code}`;
  if (!msg.result || msg.result.isError) return 'tool_error';
  return msg.result.content?.[0]?.text === text ? null : 'wrong_text';
}

// ---------- /proc accounting ----------

export const CLK_TCK = ((): number => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
  } catch {
    return 100;
  }
})();

/** ppid and utime+stime (ticks) of a process, or undefined once it is gone. */
function readStat(pid: number): { ppid: number; ticks: number } | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // f[0] is field 3 (state)
    return { ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]) };
  } catch {
    return undefined;
  }
}

/** Direct children: /proc/<pid>/task/x/children when the kernel has it, else a scan of /proc (like `ps --ppid`). */
function childrenOf(pid: number): number[] {
  try {
    const out: number[] = [];
    for (const task of fs.readdirSync(`/proc/${pid}/task`)) {
      const list = fs.readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
      if (list) out.push(...list.split(' ').map(Number));
    }
    return out;
  } catch {
    return fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d)).map(Number).filter((p) => readStat(p)?.ppid === pid);
  }
}

/** All descendants of pid (not pid itself). */
export function descendants(pid: number): number[] {
  const out: number[] = [];
  for (let queue = [pid]; queue.length > 0; ) {
    const kids = childrenOf(queue.shift() as number);
    out.push(...kids);
    queue.push(...kids);
  }
  return out;
}

/** CPU ticks of pid and, when `tree`, of all its descendants, per pid. */
export function cpuSnapshot(pid: number, tree: boolean): Map<number, number> {
  const snap = new Map<number, number>();
  for (const p of tree ? [pid, ...descendants(pid)] : [pid]) {
    const st = readStat(p);
    if (st) snap.set(p, st.ticks);
  }
  return snap;
}

/** CPU µs spent between two snapshots; processes that appeared in between count from zero. */
export function cpuUsBetween(a: Map<number, number>, b: Map<number, number>): number {
  let ticks = 0;
  for (const [p, t] of b) ticks += t - (a.get(p) ?? 0);
  return (ticks * 1e6) / CLK_TCK;
}

export function rssMb(pid: number): number | null {
  try {
    const m = /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/** A TCP port free on loopback right now (the scripts start their proxy on it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as net.AddressInfo).port;
      server.close(() => resolve(port));
    });
  });
}

export const isAlive = (pid: number): boolean => readStat(pid) !== undefined;

// ---------- Streamable HTTP client ----------

export const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });

export interface HttpReply {
  status: number;
  headers: http.IncomingHttpHeaders;
  msg?: RpcMessage;
}

/**
 * POSTs one JSON-RPC message. Resolves as soon as the response with id `wantId` arrives (JSON body
 * or SSE event), or at the end of the body for notifications / replies without it.
 */
export function post(url: string, headers: Record<string, string>, body: string, wantId: number | null, timeoutMs = 30_000): Promise<HttpReply> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, {
      method: 'POST', agent,
      headers: {
        ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)),
        accept: 'application/json, text/event-stream',
      },
    }, (res) => {
      const base = { status: res.statusCode ?? 0, headers: res.headers };
      const sse = (res.headers['content-type'] ?? '').includes('text/event-stream');
      let buf = '';
      let done = false;
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        if (done) return;
        buf += chunk;
        if (!sse) return;
        const { events, rest } = sseData(buf);
        buf = rest;
        for (const data of events) {
          let msg: RpcMessage;
          try {
            msg = JSON.parse(data) as RpcMessage;
          } catch {
            done = true;
            reject(new Error('bad_sse_json'));
            return;
          }
          if (wantId !== null && msg.id === wantId && msg.method === undefined) {
            done = true;
            resolve({ ...base, msg });
          }
        }
      });
      res.on('end', () => {
        if (done) return;
        try {
          resolve({ ...base, msg: !sse && buf ? (JSON.parse(buf) as RpcMessage) : undefined });
        } catch {
          reject(new Error('bad_json_body'));
        }
      });
      res.on('error', reject);
    });
    req.setTimeout(timeoutMs, () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end(body);
  });
}

export function httpDelete(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve) => {
    const req = http.request(url, { method: 'DELETE', agent, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.setTimeout(5_000, () => req.destroy(new Error('timeout')));
    req.on('error', () => resolve(0));
    req.end();
  });
}

// ---------- stdio client: one child, NDJSON, pipelined ids ----------

export class StdioClient {
  readonly child: ChildProcess;
  private readonly waiting = new Map<number, (msg: RpcMessage) => void>();
  private partial = '';

  constructor(command: string, args: string[]) {
    this.child = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });
    this.child.stdout?.setEncoding('utf8');
    this.child.stdout?.on('data', (chunk: string) => {
      const lines = (this.partial + chunk).split('\n');
      this.partial = lines.pop() ?? '';
      for (const line of lines) {
        if (!line.trim()) continue;
        let msg: RpcMessage;
        try {
          msg = JSON.parse(line) as RpcMessage;
        } catch {
          continue; // its caller times out
        }
        const resolve = typeof msg.id === 'number' ? this.waiting.get(msg.id) : undefined;
        if (resolve && msg.method === undefined) {
          this.waiting.delete(msg.id as number);
          resolve(msg);
        }
      }
    });
    this.child.on('exit', () => {
      for (const resolve of this.waiting.values()) resolve({ error: { code: -1, message: 'child exited' } });
      this.waiting.clear();
    });
  }

  request(id: number, line: string, timeoutMs = 30_000): Promise<RpcMessage> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        reject(new Error('timeout'));
      }, timeoutMs);
      this.waiting.set(id, (msg) => {
        clearTimeout(timer);
        resolve(msg);
      });
      this.child.stdin?.write(line + '\n');
    });
  }

  notify(line: string): void {
    this.child.stdin?.write(line + '\n');
  }

  /** Closes stdin and waits (up to 2 s, then SIGKILL) for the child to exit. */
  async close(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.stdin?.end();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 2_000);
    await exited;
    clearTimeout(timer);
  }
}

// ---------- closed loops with a warmup and a measured window ----------

export interface LoopResult {
  ok: number; // correct replies that arrived inside the window
  windowMs: number;
  latencies: Float64Array; // sorted, ms, window only
  errors: number; // wrong or failed replies, warmup and window
  errorKinds: Record<string, number>;
}

/**
 * Runs `loops` closed loops of `call` (one call in flight per loop) for warmup + measure seconds.
 * `call(loop, seq)` (seq counts from 1 in each loop) returns an error kind or null.
 * `mark` runs at the window's start and end.
 */
export async function runLoops(
  loops: number, warmupS: number, measureS: number,
  call: (loop: number, seq: number) => Promise<string | null>,
  mark: (phase: 'start' | 'end') => void,
): Promise<LoopResult> {
  let windowStart = Infinity;
  let windowEnd = Infinity;
  let stopping = false;
  const latencies: number[] = [];
  const errorKinds: Record<string, number> = {};
  let errors = 0;
  const startTimer = setTimeout(() => { mark('start'); windowStart = now(); }, warmupS * 1000);
  const endTimer = setTimeout(() => { mark('end'); windowEnd = now(); stopping = true; }, (warmupS + measureS) * 1000);

  await Promise.all(Array.from({ length: loops }, async (_, loop) => {
    for (let seq = 1; !stopping; seq++) {
      const t0 = now();
      let kind: string | null;
      try {
        kind = await call(loop, seq);
      } catch (error) {
        kind = (error as Error).message.slice(0, 40);
      }
      const t1 = now();
      if (kind !== null) {
        errors++;
        errorKinds[kind] = (errorKinds[kind] ?? 0) + 1;
        await sleep(10); // do not spin against a broken target
      } else if (t1 >= windowStart && t1 <= windowEnd) {
        latencies.push(t1 - t0);
      }
    }
  }));
  clearTimeout(startTimer);
  clearTimeout(endTimer);
  return {
    ok: latencies.length,
    windowMs: windowEnd - windowStart,
    latencies: Float64Array.from(latencies).sort(),
    errors,
    errorKinds,
  };
}

/** Nearest-rank percentile of a sorted array. */
export function percentile(sorted: Float64Array, q: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? null;
}
