// Helpers for the fuzzer (scripts/fuzz.ts and scripts/fuzz/): a seeded PRNG, junk generators,
// HTTP/TCP/WebSocket clients with hard deadlines, the checks every answer goes through, and the
// counters. Node built-ins and `ws` only.
import http from 'node:http';
import net from 'node:net';
import crypto from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { sseEvents } from './sse-client.js';

export const now = (): number => performance.now();
export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

// ---------- seeded PRNG (sfc32; the seed is one uint32, printed and replayable) ----------

export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number) {
    this.a = 0x9e3779b9;
    this.b = 0x243f6a88;
    this.c = 0xb7e15162;
    this.d = seed >>> 0;
    for (let i = 0; i < 15; i++) this.next();
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.a >>>= 0; this.b >>>= 0; this.c >>>= 0; this.d >>>= 0;
    const t = (this.a + this.b + this.d) >>> 0;
    this.d = (this.d + 1) >>> 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) >>> 0;
    this.c = ((this.c << 21) | (this.c >>> 11)) >>> 0;
    this.c = (this.c + t) >>> 0;
    return t / 4294967296;
  }

  /** Integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** One of `entries`, with probability proportional to its weight. */
  weighted<T>(entries: ReadonlyArray<readonly [T, number]>): T {
    const total = entries.reduce((sum, [, w]) => sum + w, 0);
    let x = this.next() * total;
    for (const [value, w] of entries) {
      x -= w;
      if (x < 0) return value;
    }
    return (entries[entries.length - 1] as readonly [T, number])[0];
  }

  bytes(n: number): Buffer {
    const buf = Buffer.allocUnsafe(n);
    for (let i = 0; i < n; i++) buf[i] = Math.floor(this.next() * 256);
    return buf;
  }

  hex(n: number): string {
    let s = '';
    while (s.length < n) s += Math.floor(this.next() * 16).toString(16);
    return s;
  }

  /** A derived generator, so each worker's sequence depends only on the seed and its name. */
  fork(label: string): Rng {
    return new Rng((this.d ^ fnv1a(label)) >>> 0);
  }
}

export function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

// ---------- junk ----------

const UNICODE_SAMPLES = ['é', 'ß', '日本語', '🙂', '👩‍💻', 'עברית', 'Ω', '\u200b', '\u2028', '€', 'ﬀ', '𝔘'];

/** A printable text with some non-ASCII, tagged so a misdelivered answer is recognised. */
export function tagText(rng: Rng, tag: string, maxExtra = 64): string {
  let s = `${tag}:`;
  const n = rng.int(0, maxExtra);
  for (let i = 0; i < n; i++) s += rng.chance(0.15) ? rng.pick(UNICODE_SAMPLES) : String.fromCharCode(rng.int(0x21, 0x7e));
  return s;
}

export const INVALID_UTF8: readonly Buffer[] = [
  [0xff], [0xfe, 0xff], [0xc0, 0xaf], [0xe0, 0x80, 0xaf], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80],
  [0xc3], [0xe2, 0x82], [0x80], [0xbf, 0xbf], [0xf8, 0x88, 0x80, 0x80, 0x80], [0xc3, 0x28],
].map((b) => Buffer.from(b));

export function invalidUtf8(rng: Rng): Buffer {
  return Buffer.concat(Array.from({ length: rng.int(1, 6) }, () => rng.pick(INVALID_UTF8)));
}

/** Arbitrary JSON values, shallow. */
export function junkValue(rng: Rng, depth = 0): unknown {
  const pickers: Array<() => unknown> = [
    () => null,
    () => rng.int(-1e6, 1e6),
    () => rng.next() * 1e300,
    () => -0,
    () => 1.5,
    () => '',
    () => 'x'.repeat(rng.int(0, 200)),
    () => '\u0000\ud800\udfff\u2028',
    () => rng.chance(0.5),
    () => [],
    () => ({}),
    () => '__proto__',
    () => JSON.parse('{"__proto__":{"polluted":true}}') as unknown,
    () => ({ constructor: { prototype: { polluted: true } } }),
    () => (depth < 3 ? [junkValue(rng, depth + 1), junkValue(rng, depth + 1)] : 0),
    () => (depth < 3 ? { [rng.pick(['a', 'name', 'text', 'toString', 'hasOwnProperty'])]: junkValue(rng, depth + 1) } : 0),
  ];
  return rng.pick(pickers)();
}

/** A JSON-RPC id of a type JSON-RPC / MCP forbids (null excepted: it is special). */
export function badId(rng: Rng): unknown {
  return rng.pick<unknown>([true, false, {}, [], [1], { id: 1 }, 1.5, -0.25, 2.000001]);
}

export function deepJson(depth: number, kind: 'array' | 'object'): string {
  return kind === 'array' ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
}

/** Text that is not JSON at all, or broken JSON. */
export function invalidJson(rng: Rng): Buffer {
  const valid = JSON.stringify({ jsonrpc: '2.0', id: rng.int(1, 1e6), method: 'tools/call', params: { name: 'fx__echo', arguments: { text: 'x' } } });
  const pickers: Array<() => Buffer | string> = [
    () => '',
    () => ' ',
    () => '{',
    () => '}',
    () => '[',
    () => valid.slice(0, rng.int(1, valid.length - 1)),
    () => valid + '}',
    () => valid + ',' + valid,
    () => valid.replace(/"/g, "'"),
    () => '{"jsonrpc":"2.0","id":1,"method":"ping",}',
    () => '{"jsonrpc":"2.0" "id":1}',
    () => 'NaN',
    () => '{"id":NaN,"jsonrpc":"2.0","method":"ping"}',
    () => '{"id":Infinity,"jsonrpc":"2.0","method":"ping"}',
    () => "{'jsonrpc':'2.0'}",
    () => '{"jsonrpc":"2.0","method":"ping","id":1}\n{"jsonrpc":"2.0","method":"ping","id":2}',
    () => 'undefined',
    () => '\u0000',
    () => '\ufeff' + valid, // a byte-order mark
    () => '/* comment */ ' + valid,
    () => rng.bytes(rng.int(1, 512)),
    () => Buffer.concat([invalidUtf8(rng), Buffer.from(valid)]),
    () => '"unterminated',
    () => '{"a":' + '1'.repeat(rng.int(400, 5000)),
    () => '0x10',
    () => '01',
  ];
  const out = rng.pick(pickers)();
  return typeof out === 'string' ? Buffer.from(out) : out;
}

/** Not a JSON array, valid JSON, but breaking the JSON-RPC / MCP envelope; with the code the spec calls for. */
export function badEnvelope(rng: Rng, id: number): { body: unknown; code: number | number[] | undefined } {
  const pickers: Array<() => { body: unknown; code: number | number[] | undefined }> = [
    () => ({ body: null, code: -32600 }),
    () => ({ body: 42, code: -32600 }),
    () => ({ body: 'a string', code: -32600 }),
    () => ({ body: true, code: -32600 }),
    () => ({ body: {}, code: -32600 }),
    () => ({ body: { id, method: 'ping' }, code: -32600 }),
    () => ({ body: { jsonrpc: '1.0', id, method: 'ping' }, code: -32600 }),
    () => ({ body: { jsonrpc: 2.0, id, method: 'ping' }, code: -32600 }),
    () => ({ body: { jsonrpc: '2.0', id: badId(rng), method: 'ping' }, code: -32600 }),
    () => ({ body: { jsonrpc: '2.0', id, method: rng.pick<unknown>([42, null, {}, [], true]) }, code: -32600 }),
    () => ({ body: { jsonrpc: '2.0', id, method: 'tools/call', params: rng.pick<unknown>(['x', 42, true, null]) }, code: -32600 }),
    () => ({ body: { jsonrpc: '2.0', id, method: 'tools/call', params: [1, 2] }, code: [-32600, -32602] }),
    () => ({ body: { jsonrpc: '2.0', id }, code: -32600 }),
    () => ({ body: { jsonrpc: '2.0', id, error: 'not an object' }, code: -32600 }),
    () => ({ body: { jsonrpc: '2.0', id, error: { code: 'x', message: 'y' } }, code: -32600 }),
    () => ({ body: { jsonrpc: '2.0', result: {} }, code: -32600 }),
    () => ({ body: { jsonrpc: '2.0', id: badId(rng), result: {} }, code: -32600 }),
  ];
  return rng.pick(pickers)();
}

/** Plausible, hostile or malformed Last-Event-ID values; `streams` is how many request streams the session opened. */
export function lastEventId(rng: Rng, streams: number): string {
  const pickers: Array<() => string> = [
    () => `r${Math.max(1, streams + rng.int(-2, 1))}_${rng.int(0, 3)}`,
    () => `r${Math.max(1, streams + rng.int(-2, 1))}_${rng.int(0, 3)}`,
    () => `g_${rng.int(0, 20)}`,
    () => `r${rng.int(0, 1e6)}_${rng.int(0, 1e15)}`,
    () => `g_${'9'.repeat(15)}`,
    () => 'g_-1',
    () => 'r1_1e3',
    () => rng.hex(rng.int(1, 64)),
    () => '',
    () => '../../etc/passwd',
    () => 'x'.repeat(rng.int(100, 8000)),
    () => 'r' + '1'.repeat(400) + '_1',
  ];
  return rng.pick(pickers)();
}

/** A path with odd escapes, segments and lengths; sometimes one that routes. */
export function randomPath(rng: Rng): string {
  const endpoints = ['/mcp', '/sse', '/messages', '/ws', '/s/fx/mcp', '/s/garbage/sse', '/s/fx/messages', '/healthz', '/readyz', '/metrics'];
  const pickers: Array<() => string> = [
    () => rng.pick(endpoints),
    () => rng.pick(endpoints) + '?' + rng.pick(['sessionId=%zz', 'sessionId=', 'a=%', 'profile=../../x', 'tools=*,%00', 'x='.repeat(50), '%E0%A4%A']),
    () => `/s/${rng.pick(['%zz', '%', '%E0%A4%A', '%00', '%2e%2e', '..', 'fx%2F..', '__proto__', 'constructor', 'FX', 'fx%20', '%66%78', 'nope'])}/${rng.pick(['mcp', 'sse', 'ws', 'messages'])}`,
    () => rng.pick(['//mcp', '/mcp/', '/MCP', '/mcp;x', '/mcp%00', '/./mcp', '/a/../mcp', '/s//mcp', '/s/fx//mcp', '/s/fx/mcp/extra', '/%2Fmcp', '/mcp%2F', '/s/fx/../../mcp']),
    () => '/' + Array.from({ length: rng.int(1, 8) }, () => rng.pick(['%', '%%', '%g0', '%ff', '%c3%28', 'a', '..', '.', '~', '@', ':', ';', '='])).join(''),
    () => '/' + encodeURIComponent(rng.bytes(rng.int(1, 40)).toString('latin1')),
    () => '*',
  ];
  return rng.pick(pickers)();
}

// ---------- what an answer must look like ----------

/** Recognises a stack trace or source location leaking into a body. */
export function looksLikeStack(text: string): boolean {
  return /\n\s+at [^\n]+[(\s][^\n]*:\d+:\d+\)?/.test(text) || /\bnode:internal\//.test(text) || /\/(?:dist|src)\/[\w/.-]+\.(?:js|ts):\d+/.test(text);
}

export interface RpcError { code: number; message: string }
export type Json = Record<string, unknown>;

/** A JSON-RPC error response: {jsonrpc:"2.0", id: null|string|number, error:{code:int, message:string}}. */
export function jsonRpcError(value: unknown): RpcError | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const m = value as Json;
  const e = m.error as Json | undefined;
  if (m.jsonrpc !== '2.0' || typeof e !== 'object' || e === null) return undefined;
  if (!(m.id === null || typeof m.id === 'string' || (typeof m.id === 'number' && Number.isInteger(m.id)))) return undefined;
  if (typeof e.code !== 'number' || !Number.isInteger(e.code) || typeof e.message !== 'string') return undefined;
  return { code: e.code, message: e.message };
}

export function isJsonRpcMessage(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && (value as Json).jsonrpc === '2.0';
}


/** The JSON-RPC messages of a reply body (JSON or SSE); `bad` names what could not be read. */
export function bodyMessages(contentType: string, body: string): { messages: unknown[]; bad?: string } {
  if (body.trim() === '') return { messages: [] };
  if (contentType.includes('text/event-stream')) {
    const messages: unknown[] = [];
    for (const { data } of sseEvents(body.endsWith('\n\n') ? body : body + '\n\n').events) {
      if (data.trim() === '') continue; // priming event
      try {
        messages.push(JSON.parse(data));
      } catch {
        return { messages, bad: `SSE data is not JSON: ${data.slice(0, 80)}` };
      }
    }
    return { messages };
  }
  try {
    const parsed = JSON.parse(body) as unknown;
    return { messages: Array.isArray(parsed) ? parsed : [parsed] };
  } catch {
    return { messages: [], bad: `body is not JSON: ${body.slice(0, 80)}` };
  }
}

export type RouteKind = 'mcp' | 'messages' | 'sse' | 'ws' | 'health' | 'none';

/** Where the proxy routes a path, per SPEC.md's endpoint table. */
export function routeOf(rawPath: string, servers: ReadonlySet<string>): RouteKind {
  const q = rawPath.indexOf('?');
  const path = q === -1 ? rawPath : rawPath.slice(0, q);
  if (path === '/healthz' || path === '/readyz') return 'health';
  const slash = path.lastIndexOf('/');
  const last = path.slice(slash + 1);
  const kind: RouteKind | undefined = last === 'mcp' || last === 'messages' || last === 'sse' || last === 'ws' ? last : undefined;
  if (kind === undefined) return 'none';
  const base = path.slice(0, slash);
  if (base === '') return kind;
  if (!base.startsWith('/s/')) return 'none';
  try {
    return servers.has(decodeURIComponent(base.slice(3))) ? kind : 'none';
  } catch {
    return 'none';
  }
}

/** An Origin a browser on this machine would send for a loopback page; anything else is foreign. */
export function isLoopbackOrigin(origin: string): boolean {
  if (origin === 'null') return false;
  try {
    const host = new URL(origin).hostname;
    return host === 'localhost' || host === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
  } catch {
    return false;
  }
}

export const FOREIGN_ORIGINS = [
  'http://evil.example',
  'https://attacker.example:8808',
  'http://127.0.0.1.evil.example',
  'http://127.evil.example',
  'http://localhost.evil.example',
  'http://127.0.0.1@evil.example',
  'http://evil.example#@127.0.0.1',
  'null',
  'not a url',
  'file://',
];
export const LOOPBACK_ORIGINS = ['http://127.0.0.1', 'http://localhost:3000', 'http://[::1]:8080', 'http://127.1.2.3'];

// ---------- HTTP with a hard deadline ----------

export interface HttpSpec {
  method: string;
  path: string;
  headers?: Record<string, string | string[]>;
  body?: Buffer | string;
  /** Send the body in pieces with transfer-encoding: chunked. */
  chunked?: boolean;
  /** A new connection instead of the keep-alive pool. */
  fresh?: boolean;
  /** For an SSE reply to a GET: how long to read it before closing it ourselves, ms. */
  holdStreamMs?: number;
}

export interface HttpResult {
  status: number; // 0 when no response arrived
  headers: http.IncomingHttpHeaders;
  body: string;
  bodyBytes: number;
  /** Transport failure before or during the reply (ECONNRESET, EPIPE, ...). */
  error?: string;
  /** The request did not complete within the deadline. */
  hung: boolean;
  /** An SSE stream we closed ourselves after `holdStreamMs`. */
  heldStream: boolean;
  ms: number;
}

const MAX_KEPT_BODY = 1 << 20;

export class HttpClient {
  readonly agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

  constructor(
    readonly host: string,
    readonly port: number,
    readonly deadlineMs: number,
  ) {}

  request(spec: HttpSpec): Promise<HttpResult> {
    const t0 = now();
    return new Promise((resolve) => {
      let settled = false;
      let status = 0;
      let headers: http.IncomingHttpHeaders = {};
      const chunks: Buffer[] = [];
      let bodyBytes = 0;
      let heldStream = false;
      let holdTimer: NodeJS.Timeout | undefined;
      const finish = (error?: string, hung = false): void => {
        if (settled) return;
        settled = true;
        clearTimeout(deadline);
        clearTimeout(holdTimer);
        resolve({
          status, headers, body: Buffer.concat(chunks).toString('utf8'), bodyBytes, hung, heldStream, ms: now() - t0,
          ...(error === undefined ? {} : { error }),
        });
      };
      // Framing always explicit: Node sends a GET/DELETE/OPTIONS body unframed otherwise, and those
      // bytes would be read as the next request on a kept-alive connection.
      const sent: Record<string, string | string[]> = { ...(spec.headers ?? {}) };
      if (spec.body !== undefined) {
        if (spec.chunked) sent['transfer-encoding'] = 'chunked';
        else sent['content-length'] = String(Buffer.byteLength(spec.body));
      }
      let req: http.ClientRequest;
      try {
        req = http.request({
          host: this.host, port: this.port, method: spec.method, path: spec.path,
          headers: sent, agent: spec.fresh ? false : this.agent,
        });
      } catch (error) {
        // Node refused to build the request (a character it will not send): not the proxy's doing.
        status = -1;
        finish(`client refused: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
        return;
      }
      const deadline = setTimeout(() => {
        finish(undefined, true);
        req.destroy();
      }, this.deadlineMs);
      req.on('response', (res) => {
        status = res.statusCode ?? 0;
        headers = res.headers;
        const sse = String(res.headers['content-type'] ?? '').includes('text/event-stream');
        if (sse && spec.method === 'GET') {
          heldStream = true;
          holdTimer = setTimeout(() => {
            finish();
            res.destroy();
            req.destroy();
          }, spec.holdStreamMs ?? 200);
        }
        res.on('data', (chunk: Buffer) => {
          bodyBytes += chunk.length;
          if (bodyBytes <= MAX_KEPT_BODY) chunks.push(chunk);
        });
        res.on('end', () => finish());
        res.on('error', (error) => finish(error.message));
        res.on('close', () => finish(heldStream ? undefined : 'closed before the end of the body'));
      });
      req.on('error', (error: NodeJS.ErrnoException) => finish(`${error.code ?? error.message}${req.reusedSocket ? ' on a reused keep-alive socket' : ''}`));
      if (spec.body === undefined) {
        req.end();
      } else if (spec.chunked) {
        const body = Buffer.isBuffer(spec.body) ? spec.body : Buffer.from(spec.body);
        const step = Math.max(1, Math.ceil(body.length / 4));
        for (let i = 0; i < body.length; i += step) req.write(body.subarray(i, i + step));
        req.end();
      } else {
        req.end(spec.body);
      }
    });
  }
}

// ---------- raw TCP ----------

export interface RawResult {
  data: Buffer;
  /** Who ended the connection: the server, us after holding it, or nobody within the deadline. */
  end: 'server' | 'client' | 'timeout' | 'error';
  error?: string;
  ms: number;
}

/**
 * Writes `parts` (with `gapMs` between them), then reads until the server closes, `holdMs` passes
 * (then we close), or `deadlineMs` passes (then it counts as a timeout). `halfClose` sends FIN after writing.
 */
export function rawExchange(
  host: string, port: number, parts: Buffer[],
  opts: { gapMs?: number; holdMs?: number; deadlineMs: number; halfClose?: boolean; reset?: boolean },
): Promise<RawResult> {
  const t0 = now();
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const timers: NodeJS.Timeout[] = [];
    const finish = (end: RawResult['end'], error?: string): void => {
      if (done) return;
      done = true;
      for (const t of timers) clearTimeout(t);
      socket.destroy();
      resolve({ data: Buffer.concat(chunks), end, ms: now() - t0, ...(error === undefined ? {} : { error }) });
    };
    socket.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_KEPT_BODY) chunks.push(chunk);
    });
    socket.on('end', () => finish('server'));
    socket.on('close', () => finish('server'));
    socket.on('error', (error: NodeJS.ErrnoException) => finish('error', error.code ?? error.message));
    socket.once('connect', async () => {
      for (const [i, part] of parts.entries()) {
        if (done) return;
        if (i > 0 && (opts.gapMs ?? 0) > 0) await sleep(opts.gapMs ?? 0);
        if (done || socket.destroyed) return;
        socket.write(part);
      }
      if (opts.reset) {
        socket.resetAndDestroy();
        finish('client');
        return;
      }
      if (opts.halfClose) socket.end();
      if (opts.holdMs !== undefined) timers.push(setTimeout(() => finish('client'), opts.holdMs));
    });
    timers.push(setTimeout(() => finish('timeout'), opts.deadlineMs));
  });
}

/** Status codes of every HTTP response head in a raw byte stream. */
export function rawStatuses(data: Buffer): number[] {
  return [...data.toString('latin1').matchAll(/HTTP\/1\.[01] (\d{3})/g)].map((m) => Number(m[1]));
}

// ---------- WebSocket frames, by hand ----------

export function wsFrame(opcode: number, payload: Buffer, opts: { fin?: boolean; mask?: boolean; rsv?: number; lengthOverride?: bigint } = {}): Buffer {
  const fin = opts.fin ?? true;
  const mask = opts.mask ?? true;
  const head: number[] = [(fin ? 0x80 : 0) | ((opts.rsv ?? 0) << 4) | (opcode & 0x0f)];
  const len = opts.lengthOverride ?? BigInt(payload.length);
  const maskBit = mask ? 0x80 : 0;
  if (len < 126n) head.push(maskBit | Number(len));
  else if (len < 65536n) head.push(maskBit | 126, Number(len >> 8n) & 0xff, Number(len) & 0xff);
  else {
    head.push(maskBit | 127);
    for (let shift = 56n; shift >= 0n; shift -= 8n) head.push(Number((len >> shift) & 0xffn));
  }
  if (!mask) return Buffer.concat([Buffer.from(head), payload]);
  const key = crypto.randomBytes(4);
  const masked = Buffer.from(payload);
  for (let i = 0; i < masked.length; i++) masked[i] = (masked[i] as number) ^ (key[i % 4] as number);
  return Buffer.concat([Buffer.from(head), key, masked]);
}

export function wsHandshake(path: string, host: string, extra: Record<string, string> = {}, omit: string[] = []): Buffer {
  const headers: Record<string, string> = {
    host,
    upgrade: 'websocket',
    connection: 'Upgrade',
    'sec-websocket-key': crypto.randomBytes(16).toString('base64'),
    'sec-websocket-version': '13',
    'sec-websocket-protocol': 'mcp',
    ...extra,
  };
  for (const name of omit) delete headers[name];
  return Buffer.from(`GET ${path} HTTP/1.1\r\n${Object.entries(headers).map(([k, v]) => `${k}: ${v}`).join('\r\n')}\r\n\r\n`);
}

// ---------- counters and findings ----------

export interface Violation {
  type: string;
  kind: string;
  detail: string;
  at: number; // seconds since the start
}

export class Stats {
  readonly byKind = new Map<string, Map<string, number>>();
  readonly violations: Violation[] = [];
  readonly violationTypes = new Map<string, number>();
  readonly notes = new Map<string, { count: number; example: string }>();
  private readonly t0 = now();
  private readonly printed = new Set<string>();

  constructor(private readonly log: (line: string) => void) {}

  record(kind: string, outcome: string): void {
    let m = this.byKind.get(kind);
    if (m === undefined) this.byKind.set(kind, (m = new Map()));
    m.set(outcome, (m.get(outcome) ?? 0) + 1);
  }

  violation(type: string, kind: string, detail: string): void {
    const v = { type, kind, detail: detail.slice(0, 1500), at: Math.round((now() - this.t0) / 100) / 10 };
    this.violations.push(v);
    this.violationTypes.set(type, (this.violationTypes.get(type) ?? 0) + 1);
    // Print the first few of each type as they happen (the summary repeats them).
    const key = `${type}|${kind}`;
    if (!this.printed.has(key)) {
      this.printed.add(key);
      this.log(`VIOLATION ${type} [${kind}] at ${v.at}s: ${v.detail.slice(0, 600)}`);
    }
  }

  /** Something worth reporting that is not an invariant violation. */
  note(what: string, example: string): void {
    const n = this.notes.get(what);
    if (n === undefined) this.notes.set(what, { count: 1, example: example.slice(0, 400) });
    else n.count += 1;
  }

  total(kind?: string): number {
    let sum = 0;
    for (const [k, m] of this.byKind) if (kind === undefined || k === kind) for (const n of m.values()) sum += n;
    return sum;
  }
}

/** Short, printable description of a request, enough to replay it by hand. */
export function describe(spec: HttpSpec): string {
  const body = spec.body === undefined ? Buffer.alloc(0) : Buffer.isBuffer(spec.body) ? spec.body : Buffer.from(spec.body);
  const shown = body.length === 0 ? '' : body.length > 300 ? `${printable(body.subarray(0, 300))}… (${body.length} bytes)` : printable(body);
  const headers = Object.entries(spec.headers ?? {}).map(([k, v]) => `${k}: ${String(v).slice(0, 120)}`).join('; ');
  return `${spec.method} ${spec.path.length > 200 ? spec.path.slice(0, 200) + `… (${spec.path.length} chars)` : spec.path} [${headers}]${spec.chunked ? ' chunked' : ''} ${shown}`;
}

export function printable(buf: Buffer): string {
  const text = buf.toString('utf8');
  return JSON.stringify(text).slice(1, -1);
}

export { sseEvents };
