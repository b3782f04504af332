// Small HTTP helpers shared by the transports: bounded body reading and one-line error replies.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StringDecoder } from 'node:string_decoder';
import { ErrorCode, idJson, type JsonRpcId, type JsonRpcMessage } from '../jsonrpc/messages.js';
import { parseMessageText } from '../wire/parse.js';
import { BufferPool } from '../wire/buffer-pool.js';

export const JSON_HEADERS = { 'content-type': 'application/json' } as const;
export const SSE_HEADERS = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache, no-transform',
  connection: 'keep-alive',
  // Reverse proxies (nginx) buffer responses unless told not to; SSE must flow as written.
  'x-accel-buffering': 'no',
} as const;

export class BodyTooLarge extends Error {}

/**
 * Reads a request body as text up to `limit` bytes; rejects with BodyTooLarge past it (and stops
 * reading). No chunk is kept across ticks: one kept may survive a young-generation GC and then
 * hold its 64 KiB of native memory until a full one.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) {
      req.resume();
      reject(new BodyTooLarge());
      return;
    }
    const body: BodyText = Number.isFinite(declared) && declared >= POOLED_BODY_BYTES ? new PooledBodyText(declared) : new DecodedBodyText();
    let total = 0;
    // The request lives as long as the call. A listener left on it keeps its closure, and through
    // `resolve` the settled promise and the whole body, alive that long too: long enough to be
    // promoted to the old generation (measured at 50 x 64 KiB: ~1.2 MB promoted per scavenge).
    const detach = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
    };
    const onData = (chunk: Buffer) => {
      total += chunk.length;
      if (total > limit) {
        detach();
        body.drop();
        req.resume();
        reject(new BodyTooLarge());
        return;
      }
      body.add(chunk);
    };
    const onEnd = () => {
      detach();
      resolve(body.finish());
    };
    const onError = (error: Error) => {
      detach();
      body.drop();
      reject(error);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
  });
}

/** Where a body's chunks go until it is complete. */
interface BodyText {
  add(chunk: Buffer): void;
  /** The whole text; the collector is spent. */
  finish(): string;
  /** The read failed: let go of what was collected. */
  drop(): void;
}

/** Decodes each chunk as it arrives: for small bodies, and bodies of unknown length. */
class DecodedBodyText implements BodyText {
  private readonly decoder = new StringDecoder('utf8');
  private text = '';

  add(chunk: Buffer): void {
    this.text += this.decoder.write(chunk);
  }

  finish(): string {
    const text = this.text + this.decoder.end();
    this.text = '';
    return text;
  }

  drop(): void {
    this.text = '';
  }
}

/** Bodies at least this large, with a Content-Length, are gathered in a pooled buffer, bytes. */
const POOLED_BODY_BYTES = 16 * 1024;
const bodyBuffers = new BufferPool();
const EMPTY: Buffer = Buffer.alloc(0);

/**
 * Gathers a body of known length in a pooled buffer and decodes it once: the text is then one flat
 * string, where decoding chunk by chunk makes pieces and a joined copy, and no buffer is left for
 * the GC. The buffer grows with what arrives, so a client that only declares a large body holds
 * nothing; the HTTP parser never delivers more than the declared length.
 */
class PooledBodyText implements BodyText {
  private buffer = EMPTY;
  private received = 0;

  constructor(private readonly length: number) {}

  add(chunk: Buffer): void {
    if (this.received + chunk.length > this.buffer.length) {
      const larger = bodyBuffers.take(Math.min(this.length, Math.max(this.received + chunk.length, 2 * this.buffer.length)));
      this.buffer.copy(larger, 0, 0, this.received);
      this.drop();
      this.buffer = larger;
    }
    this.received += chunk.copy(this.buffer, this.received);
  }

  finish(): string {
    const text = this.buffer.toString('utf8', 0, this.received);
    this.drop();
    return text;
  }

  drop(): void {
    if (this.buffer !== EMPTY) bodyBuffers.give(this.buffer);
    this.buffer = EMPTY;
  }
}

/** No body could be read: the error reply (413, 400) has been sent, or the connection dropped. */
export const NO_BODY: unique symbol = Symbol('no body');

/**
 * Reads and parses a JSON request body within `limit` bytes. On failure it answers the request
 * itself (413 too large, 400 -32700 not JSON) and returns NO_BODY.
 */
export async function readJsonBody(req: IncomingMessage, res: ServerResponse, limit: number): Promise<unknown> {
  let text: string;
  try {
    text = await readBody(req, limit);
  } catch (error) {
    if (error instanceof BodyTooLarge) {
      res.setHeader('connection', 'close');
      sendError(res, 413, ErrorCode.InvalidRequest, `Request body exceeds ${limit} bytes`);
    } else {
      res.destroy();
    }
    return NO_BODY;
  }
  try {
    return parseMessageText(text);
  } catch {
    sendError(res, 400, ErrorCode.ParseError, 'Parse error: the body is not valid JSON');
    return NO_BODY;
  }
}

/** An HTTP error whose body is a JSON-RPC error (transports.mdx allows one without an id). */
export function sendError(res: ServerResponse, status: number, code: number, message: string, id: JsonRpcId | null = null): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  res.writeHead(status, JSON_HEADERS);
  res.end(`{"jsonrpc":"2.0","id":${id === null ? 'null' : idJson(id)},"error":${JSON.stringify({ code, message })}}`);
}

/** A plain-text reply, for paths that are not JSON-RPC endpoints (404 for unknown paths, health). */
export function sendText(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', ...headers });
  res.end(text);
}

export function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * 404 for a session id this daemon does not hold. When the id names another instance the answer
 * says so: behind a load balancer, that is a routing mistake an operator needs to see.
 */
export function sendSessionNotFound(res: ServerResponse, foreignInstance: string | undefined, ownInstance: string): void {
  const message =
    foreignInstance === undefined
      ? 'Session not found'
      : `Session not found: it was opened on instance ${foreignInstance}, and this is ${ownInstance} (a load balancer must send a session's requests to the instance that opened it); initialize a new session`;
  sendError(res, 404, ErrorCode.InvalidRequest, message);
}

/**
 * A reply sent alone as one JSON body: a rate limit's refusal goes out as HTTP 429 with
 * Retry-After (what balancers, proxies and HTTP clients understand), anything else as `status`.
 */
export function replyHead(message: JsonRpcMessage, status: number, headers: Record<string, string | number>): [number, Record<string, string | number>] {
  const error = (message as { error?: { code?: unknown; data?: { retryAfterSeconds?: unknown } } }).error;
  if (error?.code !== ErrorCode.RateLimited) return [status, headers];
  const seconds = error.data?.retryAfterSeconds;
  return [429, { ...headers, 'retry-after': typeof seconds === 'number' ? String(seconds) : '1' }];
}
