// What both remote transports share: one keep-alive connection pool per server (undici: measured
// against node:http in scripts/bench-http-client.ts, it spends 0.5-0.8x the client CPU per call
// for small calls and 0.9x for 64 KiB ones), the headers every request carries (configured ones,
// the access token, the session: built once per change, not per request), and bounded reading of
// bodies.
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import { rootCertificates } from 'node:tls';
import { createRequire } from 'node:module';
import type { Pool } from 'undici';
import type { RemoteConfig } from '../../config/types.js';
import type { ByteBudget } from './sse-reader.js';

/** Which transport the server speaks: undefined while `auto` has not found out yet. */
export type Mode = 'http' | 'sse' | undefined;

export interface RemoteResponse {
  readonly statusCode: number;
  readonly headers: IncomingHttpHeaders;
  /** Read it, or `resume()` it to drop it: an unread body holds its connection. */
  readonly body: Readable;
}

export interface ExchangeHandlers {
  response(response: RemoteResponse): void;
  /** The request failed before an answer came (unreachable, reset, timed out); not called after `abort()`. */
  error(error: Error): void;
  /** Once, when the exchange is over: its body ended or was closed, it failed, or it was aborted. */
  done?(): void;
}

/**
 * One request and its answer; `abort()` closes it at any point, the body's stream included. It is
 * its own abort signal (undici takes an emitter): an AbortController per request costs more.
 */
export class Exchange extends EventEmitter {
  aborted = false;

  abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    this.emit('abort');
  }
}

const ignore = (): void => undefined;

/**
 * undici, loaded with the first remote server: a proxy of stdio children only never pays for it
 * (about 7 MB of RSS at start).
 */
let undici: typeof import('undici') | undefined;
const loadUndici = (): typeof import('undici') => (undici ??= createRequire(import.meta.url)('undici') as typeof import('undici'));

/** Header sets by what a request carries; each is rebuilt only when one of its parts changes. */
type HeaderKind = 'post' | 'stream' | 'plain';

export class HttpClient {
  readonly url: URL;
  private currentMode: Mode;
  private currentAuthorization: string | undefined;
  private currentSessionId: string | undefined;
  private currentVersion: string | undefined;
  private readonly pool: Pool;
  private readonly built = new Map<HeaderKind, Record<string, string>>();

  constructor(
    private readonly config: RemoteConfig,
    connections: number,
  ) {
    this.url = new URL(config.url);
    this.currentMode = config.transport === 'http' ? 'http' : undefined;
    // No idle or header timeouts of the pool's own: a tool call may run as long as the server's
    // timeout allows and a standing stream may be quiet for hours; the connection times requests.
    // `ca` replaces Node's list: its roots (and NODE_EXTRA_CA_CERTS) stay, the configured ones are added.
    const connect = this.url.protocol === 'https:' && config.ca !== undefined ? { ca: [...rootCertificates, ...extraCertificates(), config.ca] } : undefined;
    this.pool = new (loadUndici().Pool)(this.url.origin, { connections, headersTimeout: 0, bodyTimeout: 0, ...(connect === undefined ? {} : { connect }) });
  }

  /** Which transport the server speaks. */
  get mode(): Mode {
    return this.currentMode;
  }
  set mode(mode: Mode) {
    this.currentMode = mode;
    this.built.clear();
  }
  /** `Bearer <token>` when the proxy signs in to this server itself (config `oauth`). */
  get authorization(): string | undefined {
    return this.currentAuthorization;
  }
  set authorization(value: string | undefined) {
    this.currentAuthorization = value;
    this.built.clear();
  }
  /** Streamable HTTP: the session the server named in its answer to initialize. */
  get sessionId(): string | undefined {
    return this.currentSessionId;
  }
  set sessionId(value: string | undefined) {
    this.currentSessionId = value;
    this.built.clear();
  }
  /** Streamable HTTP: the version our initialize agreed on, sent with every later request. */
  get protocolVersion(): string | undefined {
    return this.currentVersion;
  }
  set protocolVersion(value: string | undefined) {
    this.currentVersion = value;
    this.built.clear();
  }

  /**
   * A request with our headers: a POST of `body` (JSON), a GET of an event stream, or a plain
   * DELETE. `headersTimeout` (ms) bounds the wait for the answer's headers; `extraHeaders` are
   * added for this request alone (a resumption's Last-Event-ID).
   */
  request(method: 'POST' | 'GET' | 'DELETE', url: URL, body: string | undefined, handlers: ExchangeHandlers, headersTimeout = 0, extraHeaders?: Record<string, string>): Exchange {
    const exchange = new Exchange();
    const kind: HeaderKind = method === 'POST' ? 'post' : method === 'GET' ? 'stream' : 'plain';
    let over = false;
    const done = (): void => {
      if (over) return;
      over = true;
      handlers.done?.();
    };
    this.pool
      .request({ path: url.pathname + url.search, method, headers: extraHeaders === undefined ? this.headers(kind) : { ...this.headers(kind), ...extraHeaders }, body, signal: exchange, headersTimeout })
      .then(
        (data) => {
          const response: RemoteResponse = { statusCode: data.statusCode, headers: data.headers as IncomingHttpHeaders, body: data.body };
          response.body.once('close', done);
          // A body closed on purpose (abort, stop) errors: never an uncaught 'error' event.
          response.body.on('error', ignore);
          if (exchange.aborted) {
            response.body.destroy();
            return;
          }
          handlers.response(response);
        },
        (error: unknown) => {
          if (!exchange.aborted) handlers.error(error instanceof Error ? error : new Error(String(error)));
          done();
        },
      );
    return exchange;
  }

  /** Closes every connection; requests still open fail. */
  destroy(): void {
    void this.pool.destroy().catch(() => undefined);
  }

  private headers(kind: HeaderKind): Record<string, string> {
    let headers = this.built.get(kind);
    if (headers !== undefined) return headers;
    headers = {};
    for (const [name, value] of Object.entries(this.config.headers)) headers[name.toLowerCase()] = value.reveal();
    if (this.currentAuthorization !== undefined) headers['authorization'] = this.currentAuthorization;
    if (this.currentSessionId !== undefined && this.currentMode === 'http') headers['mcp-session-id'] = this.currentSessionId;
    if (this.currentVersion !== undefined && this.currentMode === 'http') headers['mcp-protocol-version'] = this.currentVersion;
    if (kind === 'post') {
      headers['content-type'] = 'application/json';
      headers['accept'] = 'application/json, text/event-stream';
    } else if (kind === 'stream') {
      headers['accept'] = 'text/event-stream';
    }
    this.built.set(kind, headers);
    return headers;
  }
}

/** The certificates NODE_EXTRA_CA_CERTS adds to Node's defaults, which an explicit `ca` list would drop. */
function extraCertificates(): string[] {
  const file = process.env['NODE_EXTRA_CA_CERTS'];
  if (file === undefined || file === '') return [];
  try {
    return [fs.readFileSync(file, 'utf8')];
  } catch {
    return [];
  }
}

/**
 * The body, or undefined when it is larger than `max` bytes or would take the server's `budget`
 * past its bound (then not read further).
 */
export function readBounded(response: Readable, max: number, budget: ByteBudget, done: (body: Buffer | undefined) => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  let finished = false;
  const finish = (body: Buffer | undefined): void => {
    if (finished) return;
    finished = true;
    budget.used -= size;
    done(body);
  };
  response.on('data', (chunk: Buffer) => {
    if (finished) return;
    size += chunk.length;
    budget.used += chunk.length;
    if (size > max || budget.used > budget.max) {
      response.destroy();
      finish(undefined);
      return;
    }
    chunks.push(chunk);
  });
  response.on('end', () => finish(Buffer.concat(chunks)));
  response.on('error', () => finish(undefined));
}

export function describeError(error: Error): string {
  const code = (error as Error & { code?: unknown }).code;
  return typeof code === 'string' ? `${code}: ${error.message}` : error.message;
}

export function excerpt(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
