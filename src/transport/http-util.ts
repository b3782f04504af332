// Small HTTP helpers shared by the transports: bounded body reading and one-line error replies.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StringDecoder } from 'node:string_decoder';
import { ErrorCode, type JsonRpcId } from '../jsonrpc/messages.js';
import { keepRawText, routedRequest } from '../jsonrpc/raw-request.js';
import { BufferPool } from '../jsonrpc/buffer-pool.js';

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
 * reading). Each chunk is decoded as it arrives: a chunk kept until the end lives across ticks, may
 * survive a young-generation GC and then holds its 64 KiB of native memory until a full one.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) {
      req.resume();
      reject(new BodyTooLarge());
      return;
    }
    if (Number.isFinite(declared) && declared >= POOLED_BODY_BYTES) {
      readPooled(req, declared, resolve, reject);
      return;
    }
    const decoder = new StringDecoder('utf8');
    let text = '';
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
        req.resume();
        reject(new BodyTooLarge());
        return;
      }
      text += decoder.write(chunk);
    };
    const onEnd = () => {
      detach();
      const body = text + decoder.end();
      text = '';
      resolve(body);
    };
    const onError = (error: Error) => {
      detach();
      text = '';
      reject(error);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
  });
}

/** Bodies at least this large, with a Content-Length, are gathered in a pooled buffer, bytes. */
const POOLED_BODY_BYTES = 16 * 1024;
const bodyBuffers = new BufferPool();
const EMPTY: Buffer = Buffer.alloc(0);

/**
 * Gathers a body of known length in a pooled buffer and decodes it once: the text is then one flat
 * string, where decoding chunk by chunk makes pieces and a joined copy, and no buffer is left for
 * the GC. The length was checked against the limit; the HTTP parser never delivers more than it.
 * The buffer grows with what arrives, so a client that only declares a large body holds nothing.
 */
function readPooled(req: IncomingMessage, length: number, resolve: (body: string) => void, reject: (error: Error) => void): void {
  let buffer: Buffer = EMPTY;
  let received = 0;
  const detach = () => {
    req.off('data', onData);
    req.off('end', onEnd);
    req.off('error', onError);
  };
  const onData = (chunk: Buffer) => {
    if (received + chunk.length > buffer.length) {
      const larger = bodyBuffers.take(Math.min(length, Math.max(received + chunk.length, 2 * buffer.length)));
      buffer.copy(larger, 0, 0, received);
      if (buffer !== EMPTY) bodyBuffers.give(buffer);
      buffer = larger;
    }
    received += chunk.copy(buffer, received);
  };
  const onEnd = () => {
    detach();
    const body = buffer.toString('utf8', 0, received);
    if (buffer !== EMPTY) bodyBuffers.give(buffer);
    resolve(body);
  };
  const onError = (error: Error) => {
    detach();
    if (buffer !== EMPTY) bodyBuffers.give(buffer);
    reject(error);
  };
  req.on('data', onData);
  req.on('end', onEnd);
  req.on('error', onError);
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
    const parsed: unknown = routedRequest(text) ?? JSON.parse(text);
    keepRawText(parsed, text);
    return parsed;
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
  res.end(JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } }));
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
