// What both remote transports share: one keep-alive agent per server (with the configured CA),
// the headers every request carries (configured ones, the access token, the session), and bounded
// reading of bodies.
import fs from 'node:fs';
import http, { type ClientRequest, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import https from 'node:https';
import { rootCertificates } from 'node:tls';
import type { RemoteConfig } from '../../config/types.js';
import type { ByteBudget } from './sse-reader.js';

/** Which transport the server speaks: undefined while `auto` has not found out yet. */
export type Mode = 'http' | 'sse' | undefined;

export class HttpClient {
  readonly url: URL;
  mode: Mode;
  /** `Bearer <token>` when the proxy signs in to this server itself (config `oauth`). */
  authorization: string | undefined;
  /** Streamable HTTP: the session the server named in its answer to initialize. */
  sessionId: string | undefined;
  /** Streamable HTTP: the version our initialize agreed on, sent with every later request. */
  protocolVersion: string | undefined;
  private readonly agent: http.Agent;

  constructor(
    private readonly config: RemoteConfig,
    maxSockets: number,
  ) {
    this.url = new URL(config.url);
    this.mode = config.transport === 'http' ? 'http' : undefined;
    const options = { keepAlive: true, maxSockets };
    // `ca` replaces Node's list: its roots (and NODE_EXTRA_CA_CERTS) stay, the configured ones are added.
    this.agent = this.url.protocol === 'https:' ? new https.Agent({ ...options, ...(config.ca === undefined ? {} : { ca: [...rootCertificates, ...extraCertificates(), config.ca] }) }) : new http.Agent(options);
  }

  headers(extra: OutgoingHttpHeaders): OutgoingHttpHeaders {
    const headers: OutgoingHttpHeaders = {};
    for (const [name, value] of Object.entries(this.config.headers)) headers[name] = value.reveal();
    if (this.authorization !== undefined) headers['authorization'] = this.authorization;
    if (this.sessionId !== undefined && this.mode === 'http') headers['mcp-session-id'] = this.sessionId;
    if (this.protocolVersion !== undefined && this.mode === 'http') headers['mcp-protocol-version'] = this.protocolVersion;
    return Object.assign(headers, extra);
  }

  /** A request with our headers and `extra` (not yet ended). */
  request(method: string, url: URL, extra: OutgoingHttpHeaders): ClientRequest {
    const module = url.protocol === 'https:' ? https : http;
    return module.request(url, { method, headers: this.headers(extra), agent: this.agent });
  }

  destroy(): void {
    this.agent.destroy();
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
export function readBounded(response: IncomingMessage, max: number, budget: ByteBudget, done: (body: Buffer | undefined) => void): void {
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
