// Bytes on a socket, by hand: a raw TCP exchange with a deadline, the statuses in its reply, and
// WebSocket frames and handshakes built byte by byte.
import net from 'node:net';
import crypto from 'node:crypto';
import { MAX_KEPT_BODY } from './http.js';
import { now, sleep } from './time.js';

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
