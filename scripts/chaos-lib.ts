// Helpers for scripts/chaos.ts: a Streamable HTTP client that keeps every message of a reply (so
// stray responses and foreign progress are seen, not skipped), a GET-stream reader, a seeded PRNG
// and /proc probes for the leftover-process check. Node built-ins only.
import http from 'node:http';
import fs from 'node:fs';
import { sseData } from './sse-client.js';

export type RpcId = number | string;

export interface RpcMessage {
  jsonrpc?: string;
  id?: RpcId | null;
  method?: string;
  params?: { progressToken?: unknown; [key: string]: unknown };
  result?: { content?: { type?: string; text?: string }[]; isError?: boolean; protocolVersion?: string; tools?: { name?: string }[] };
  error?: { code: number; message: string; data?: unknown };
}

/** A response (not a request or notification): it has no method. */
export const isResponse = (msg: RpcMessage): boolean => msg.method === undefined;

// One agent for the whole run; sockets are reused by the closed loops, GET streams hold their own.
export const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });

export interface RpcReply {
  status: number;
  headers: http.IncomingHttpHeaders;
  sse: boolean;
  /** The response whose id is strictly `wantId`; for a JSON body, the body whatever its id. */
  msg?: RpcMessage;
  /** Every other message read on this POST's stream before `msg` (progress, stray responses...). */
  others: RpcMessage[];
}

/** Why a POST got no reply at all: client-side deadline, connection failure, unreadable body. */
export class NoReply extends Error {
  constructor(readonly kind: string) {
    super(kind);
  }
}

/**
 * POSTs one JSON-RPC message and resolves when the response with id `wantId` arrives (JSON body or
 * SSE event), or at the end of the body. `timeoutMs` is a hard deadline for the whole exchange (an
 * SSE stream with keepalives does not extend it); past it the request is destroyed and the promise
 * rejects with NoReply('timeout').
 */
export function postRpc(url: string, headers: Record<string, string>, body: string, wantId: RpcId | null, timeoutMs: number): Promise<RpcReply> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const finish = (outcome: RpcReply | NoReply): void => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      if (outcome instanceof NoReply) reject(outcome);
      else resolve(outcome);
    };
    const req = http.request(url, {
      method: 'POST', agent,
      headers: {
        ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)),
        accept: 'application/json, text/event-stream',
      },
    }, (res) => {
      const sse = (res.headers['content-type'] ?? '').includes('text/event-stream');
      const reply: RpcReply = { status: res.statusCode ?? 0, headers: res.headers, sse, others: [] };
      let buf = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        if (settled) return;
        buf += chunk;
        if (!sse) return;
        const { events, rest } = sseData(buf);
        buf = rest;
        for (const data of events) {
          let msg: RpcMessage;
          try {
            msg = JSON.parse(data) as RpcMessage;
          } catch {
            finish(new NoReply('bad SSE event JSON'));
            req.destroy();
            return;
          }
          if (wantId !== null && isResponse(msg) && msg.id === wantId) {
            reply.msg = msg;
            finish(reply);
            // The proxy ends the stream after the response; read the rest away so the socket is reused.
            return;
          }
          reply.others.push(msg);
        }
      });
      res.on('end', () => {
        if (settled) return;
        if (!sse && buf !== '') {
          try {
            reply.msg = JSON.parse(buf) as RpcMessage;
          } catch {
            finish(new NoReply('bad JSON body'));
            return;
          }
        }
        finish(reply);
      });
      res.on('error', (error: NodeJS.ErrnoException) => finish(new NoReply(timedOut ? 'timeout' : `response ${error.code ?? error.message}`)));
      // 'close' without 'end': the connection died mid-body.
      res.on('close', () => finish(new NoReply(timedOut ? 'timeout' : 'response cut off')));
    });
    let timedOut = false;
    const deadline = setTimeout(() => {
      timedOut = true;
      finish(new NoReply('timeout'));
      req.destroy();
    }, timeoutMs);
    req.on('error', (error: NodeJS.ErrnoException) => finish(new NoReply(timedOut ? 'timeout' : `request ${error.code ?? error.message}`)));
    req.end(body);
  });
}

export interface GetStream {
  /** Messages read so far, by kind. */
  readonly counts: { notifications: number; responses: number };
  /** True once the stream ended or failed (the proxy closes it when the session ends). */
  readonly ended: () => boolean;
  close(): void;
}

/** Opens a session's standalone GET stream; `onMessage` sees every JSON-RPC message on it. */
export function openGetStream(url: string, headers: Record<string, string>, onMessage: (msg: RpcMessage) => void): Promise<GetStream> {
  return new Promise((resolve, reject) => {
    let ended = false;
    const counts = { notifications: 0, responses: 0 };
    const req = http.request(url, { method: 'GET', agent, headers: { ...headers, accept: 'text/event-stream' } }, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        reject(new Error(`GET stream: HTTP ${res.statusCode}`));
        return;
      }
      let buf = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buf += chunk;
        const { events, rest } = sseData(buf);
        buf = rest;
        for (const data of events) {
          try {
            const msg = JSON.parse(data) as RpcMessage;
            if (isResponse(msg)) counts.responses++;
            else counts.notifications++;
            onMessage(msg);
          } catch {
            /* not JSON: ignored, the POST checks are what count */
          }
        }
      });
      res.on('close', () => (ended = true));
      res.on('error', () => (ended = true));
      resolve({ counts, ended: () => ended, close: () => req.destroy() });
    });
    // Only until the headers come: the stream itself may stay quiet for the whole run.
    const noHeaders = setTimeout(() => req.destroy(new Error('GET stream: no headers within 10 s')), 10_000);
    req.on('response', () => clearTimeout(noHeaders));
    req.on('error', (error) => {
      clearTimeout(noHeaders);
      ended = true;
      reject(error);
    });
    req.end();
  });
}

/** GETs a URL and parses its JSON body (any status), or undefined. */
export function getJson<T>(url: string, timeoutMs = 2_000): Promise<{ status: number; body: T | undefined }> {
  return new Promise((resolve) => {
    const req = http.get(url, { agent }, (res) => {
      let buf = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (buf += chunk));
      res.on('end', () => {
        let body: T | undefined;
        try {
          body = JSON.parse(buf) as T;
        } catch {
          body = undefined;
        }
        resolve({ status: res.statusCode ?? 0, body });
      });
      res.on('error', () => resolve({ status: 0, body: undefined }));
    });
    req.setTimeout(timeoutMs, () => req.destroy(new Error('timeout')));
    req.on('error', () => resolve({ status: 0, body: undefined }));
  });
}

// ---------- seeded randomness (mulberry32), so a run's choices can be replayed with --seed ----------

export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// ---------- /proc probes ----------

/** State letter (R, S, Z...) and ppid of a process, or undefined once it is gone. */
export function procStat(pid: number): { state: string; ppid: number } | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state: f[0] ?? '?', ppid: Number(f[1]) };
  } catch {
    return undefined;
  }
}

/** argv of a process joined by spaces ('' for zombies and kernel threads), or undefined once it is gone. */
export function procCmdline(pid: number): string | undefined {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
  } catch {
    return undefined;
  }
}

function procEnvironHas(pid: number, entry: string): boolean {
  try {
    return fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(entry);
  } catch {
    return false;
  }
}

/** Processes (not `exclude`) whose argv contains `marker` or whose environment holds `envEntry`. */
export function scanProc(marker: string, envEntry: string, exclude: ReadonlySet<number>): { pid: number; state: string; cmdline: string }[] {
  const found: { pid: number; state: string; cmdline: string }[] = [];
  for (const dir of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(dir)) continue;
    const pid = Number(dir);
    if (exclude.has(pid)) continue;
    const cmdline = procCmdline(pid);
    if (cmdline === undefined) continue;
    if (cmdline.includes(marker) || procEnvironHas(pid, envEntry)) found.push({ pid, state: procStat(pid)?.state ?? '?', cmdline });
  }
  return found;
}

/** `process.kill(pid, 0)`: true while the pid exists (zombies included). */
export function pidExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** VmRSS and VmHWM (peak RSS) of a process, MB. */
export function memoryMb(pid: number): { rss: number | null; hwm: number | null } {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key: string): number | null => {
      const m = new RegExp(`${key}:\\s+(\\d+)`).exec(status);
      return m ? Number(m[1]) / 1024 : null;
    };
    return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
  } catch {
    return { rss: null, hwm: null };
  }
}

// ---------- stats ----------

export class Samples {
  private readonly values: number[] = [];
  add(x: number): void {
    this.values.push(x);
  }
  get count(): number {
    return this.values.length;
  }
  /** Nearest-rank percentile, ms; null when empty. */
  q(p: number): number | null {
    if (this.values.length === 0) return null;
    const sorted = Float64Array.from(this.values).sort();
    return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))] ?? null;
  }
}
