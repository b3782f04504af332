// HTTP with a hard deadline: one request as the fuzzer sends it (keep-alive or fresh, chunked or
// not, an SSE stream held for a while), what came back, and a printable description of it.
import http from 'node:http';
import { now } from './time.js';

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

/** Bytes of a body (or raw reply) kept for the checks; the rest is counted only. */
export const MAX_KEPT_BODY = 1 << 20;

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
