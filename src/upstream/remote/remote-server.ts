// A remote MCP server made to look like a stdio child: the connection writes JSON-RPC lines and
// reads lines back, and this class carries them over Streamable HTTP (basic/transports.mdx) or the
// legacy HTTP+SSE transport (2024-11-05). A lost connection or a forgotten session is an "exit":
// the server handle restarts it with backoff, which initializes a new session.
import fs from 'node:fs';
import http, { type ClientRequest, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import https from 'node:https';
import { rootCertificates } from 'node:tls';
import type { Logger } from '../../log.js';
import type { RemoteConfig } from '../../config/types.js';
import { ErrorCode, isObject, type JsonObject, type JsonRpcId } from '../../jsonrpc/messages.js';
import type { ChildExit, ChildTransport, TransportEvents, WriteOutcome } from '../transport.js';
import { StderrTail } from '../stderr-tail.js';
import { SseReader, type ByteBudget } from './sse-reader.js';
import { LoginRequired, StoredOAuthClient, accessToken, refreshDelay } from './oauth-client.js';
import { initializeVersion } from './protocol-version.js';

/** Requests and notifications on their way to one remote server at once; more are refused ('full'). */
const MAX_IN_FLIGHT = 256;
/** Largest messages being read from one server at once, in units of the message bound. */
const MAX_BUFFERED_MESSAGES = 4;
/** How long a POST that answers nothing (a notification, a response) may take, ms. */
const ACCEPT_TIMEOUT_MS = 30_000;
/** How long to wait before reopening the standing GET stream after it ended, ms (doubling while it fails). */
const STANDING_RETRY_MS = 1_000;
const STANDING_RETRY_MAX_MS = 30_000;
/** How long the legacy transport may take to name its message endpoint, ms. */
const ENDPOINT_TIMEOUT_MS = 10_000;
/** setTimeout's longest delay, ms. */
const MAX_TIMER_MS = 2_147_483_647;
/** How long a request's stream may stay open after its answer before the proxy closes it, ms. */
const ANSWERED_STREAM_GRACE_MS = 5_000;
/** How long a stop waits for the session's DELETE, ms. */
const DELETE_TIMEOUT_MS = 2_000;
/** Bytes of an error body read for its message. */
const MAX_ERROR_BODY_BYTES = 64 * 1024;

type Mode = 'http' | 'sse';

/** One message on its way: its text and what the connection said of it (see ChildTransport.write). */
interface Outgoing {
  readonly line: string;
  readonly id: JsonRpcId | undefined;
  readonly method: string | undefined;
}

export class RemoteServer implements ChildTransport {
  readonly pid = undefined;
  private mode: Mode | undefined;
  private sessionId: string | undefined;
  private protocolVersion: string | undefined;
  private exited: ChildExit | undefined;
  private stopping = false;
  /** POSTs under way, by the JSON-RPC id of the request they carry (notifications by a serial). */
  private readonly inflight = new Map<JsonRpcId, ClientRequest>();
  private serial = 0;
  /** Of `inflight`, the POSTs of notifications and answers. */
  private notesInFlight = 0;
  /** The GET stream the server sends its own messages on (Streamable HTTP), or the legacy transport's stream. */
  private standing: ClientRequest | undefined;
  private standingTimer: NodeJS.Timeout | undefined;
  /** The standing stream was open once in this session (so a 404 for it later means the session is gone). */
  private standingWorked = false;
  private standingFailures = 0;
  /** Legacy transport: where messages are POSTed, once the stream named it. */
  private endpoint: URL | undefined;
  /** Lines written before they can go: the legacy stream has not named its endpoint, or the sign-in is under way. */
  private queued: Outgoing[] = [];
  /** `Bearer <token>` when the proxy signs in to this server itself (config `oauth`). */
  private authorization: string | undefined;
  /** The access token is being read or refreshed: nothing is sent before it. */
  private signingIn: boolean;
  private refreshTimer: NodeJS.Timeout | undefined;
  /** The initialize message, written again on the legacy stream when Streamable HTTP is refused (auto). */
  private initializeMessage: Outgoing | undefined;
  /** The id of our initialize request: only its answer names the protocol version. */
  private initializeId: JsonRpcId | undefined;
  private readonly url: URL;
  private readonly agent: http.Agent;
  private readonly tail = new StderrTail();
  /** Bytes of answers being read from this server at once, all streams and bodies together. */
  private readonly buffered: ByteBudget;

  constructor(
    private readonly name: string,
    private readonly config: RemoteConfig,
    private readonly log: Logger,
    private readonly maxMessageBytes: number,
    private readonly events: TransportEvents,
  ) {
    this.url = new URL(config.url);
    // Each message is bounded by maxMessageBytes; many at once by this (a child's pipe holds one line).
    this.buffered = { used: 0, max: MAX_BUFFERED_MESSAGES * maxMessageBytes };
    const options = { keepAlive: true, maxSockets: MAX_IN_FLIGHT + 2 };
    // `ca` replaces Node's list: its roots (and NODE_EXTRA_CA_CERTS) stay, the configured ones are added.
    this.agent = this.url.protocol === 'https:' ? new https.Agent({ ...options, ...(config.ca === undefined ? {} : { ca: [...rootCertificates, ...extraCertificates(), config.ca] }) }) : new http.Agent(options);
    this.mode = config.transport === 'http' ? 'http' : undefined;
    this.signingIn = config.oauth !== undefined;
    if (config.oauth === undefined) this.begin();
    else {
      this.signIn(() => this.begin());
    }
  }

  /**
   * Reads (or refreshes) the access token, then runs `then`; and again shortly before it expires,
   * so requests never leave with a lapsed token (and a refresh is not a reconnect).
   */
  private signIn(then: () => void): void {
    const oauth = this.config.oauth;
    if (oauth === undefined || this.exited !== undefined || this.stopping) return;
    accessToken(this.config.url, this.name, oauth).then(
      ({ token, expiresAt }) => {
        if (this.exited !== undefined) return;
        this.authorization = `Bearer ${token}`;
        this.signingIn = false;
        const delay = refreshDelay(expiresAt);
        clearTimeout(this.refreshTimer);
        if (delay !== undefined) {
          this.refreshTimer = setTimeout(() => this.signIn(() => undefined), Math.min(delay, MAX_TIMER_MS));
          this.refreshTimer.unref();
        }
        then();
      },
      (error: unknown) => this.lost(error instanceof LoginRequired ? error.message : `could not refresh the access token (${error instanceof Error ? error.message : String(error)})`),
    );
  }

  /** Connects (the legacy transport opens its stream first) and sends what was written meanwhile. */
  private begin(): void {
    if (this.exited !== undefined || this.stopping) return;
    if (this.config.transport === 'sse') {
      this.openLegacy();
      return;
    }
    for (const outgoing of this.queued.splice(0)) this.post(outgoing);
  }

  get alive(): boolean {
    return this.exited === undefined;
  }

  get writable(): boolean {
    return this.exited === undefined && !this.stopping;
  }

  /** The last connection problems, oldest first (what stderr is for a child). */
  get stderrTail(): string[] {
    return this.tail.lines();
  }

  write(line: string, id: JsonRpcId | undefined, method: string | undefined): WriteOutcome {
    if (!this.writable) return 'closed';
    // Cancellations (their request's slot was freed by `abandon` first) and answers to the server's
    // own requests always go, or a full server could never be told to stop, nor get the answers it waits for.
    if (id !== undefined && method !== undefined && this.requestsInFlight() >= MAX_IN_FLIGHT) return 'full';
    const outgoing: Outgoing = { line, id, method };
    if (method === 'initialize') {
      this.initializeMessage = outgoing;
      this.initializeId = id;
    }
    if (this.signingIn || (this.mode === 'sse' && this.endpoint === undefined)) {
      this.queued.push(outgoing);
      return 'sent';
    }
    this.post(outgoing);
    if (method === 'notifications/initialized' && this.mode === 'http') this.openStanding();
    return 'sent';
  }

  /** The request stops being waited for: its POST is closed (transports.mdx allows either), which frees its slot. */
  abandon(id: JsonRpcId): void {
    const request = this.inflight.get(id);
    this.inflight.delete(id);
    request?.destroy();
  }

  /** Requests (not notifications or answers) whose POST is still open. */
  private requestsInFlight(): number {
    return this.inflight.size - this.notesInFlight;
  }

  writeEncoded(bytes: number, encode: (target: Buffer) => void, id: JsonRpcId | undefined, method: string | undefined): WriteOutcome {
    const buffer = Buffer.allocUnsafe(bytes);
    encode(buffer);
    return this.write(buffer.toString('utf8'), id, method);
  }

  async stop(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    this.release();
    // Streamable HTTP: a client that is done says so (transports.mdx, session management). Whatever
    // becomes of that, the stop ends in an exit: the handle restarts or forgets the server on it.
    if (this.mode === 'http' && this.sessionId !== undefined && this.exited === undefined) await this.deleteSession().catch(() => undefined);
    this.exit({ code: 0, signal: null });
  }

  private exit(exit: ChildExit): void {
    if (this.exited !== undefined) return;
    this.exited = exit;
    this.release();
    this.agent.destroy();
    this.events.onExit(exit);
  }

  /** Timers stopped, streams and requests closed (the agent stays: a stop still sends its DELETE). */
  private release(): void {
    clearTimeout(this.standingTimer);
    clearTimeout(this.refreshTimer);
    this.standing?.destroy();
    for (const request of this.inflight.values()) request.destroy();
    this.inflight.clear();
  }

  /** The server cannot be used any more (unreachable, session forgotten): the handle starts a new one. */
  private lost(reason: string): void {
    if (this.exited !== undefined || this.stopping) return;
    this.problem(reason);
    this.log.warn({ server: this.name, reason }, 'remote server connection lost');
    this.exit(this.protocolVersion === undefined ? { code: null, signal: null, spawnError: reason } : { code: null, signal: null, disconnected: reason });
  }

  private problem(text: string): void {
    this.tail.push(text);
  }

  private headers(extra: OutgoingHttpHeaders): OutgoingHttpHeaders {
    const headers: OutgoingHttpHeaders = {};
    for (const [name, value] of Object.entries(this.config.headers)) headers[name] = value.reveal();
    if (this.authorization !== undefined) headers['authorization'] = this.authorization;
    if (this.sessionId !== undefined && this.mode === 'http') headers['mcp-session-id'] = this.sessionId;
    if (this.protocolVersion !== undefined && this.mode === 'http') headers['mcp-protocol-version'] = this.protocolVersion;
    return Object.assign(headers, extra);
  }

  private request(method: string, url: URL, headers: OutgoingHttpHeaders): ClientRequest {
    const module = url.protocol === 'https:' ? https : http;
    return module.request(url, { method, headers, agent: this.agent });
  }

  private post(outgoing: Outgoing): void {
    const { line } = outgoing;
    const body = line.endsWith('\n') ? line.slice(0, -1) : line;
    const isRequest = outgoing.id !== undefined && outgoing.method !== undefined;
    const key = isRequest ? (outgoing.id as JsonRpcId) : `note-${(this.serial += 1)}`;
    const target = this.mode === 'sse' ? (this.endpoint as URL) : this.url;
    const headers = this.headers({ 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'content-length': Buffer.byteLength(body) });
    const request = this.request('POST', target, headers);
    this.inflight.set(key, request);
    if (!isRequest) {
      this.notesInFlight += 1;
      request.once('close', () => {
        this.notesInFlight -= 1;
        if (this.inflight.get(key) === request) this.inflight.delete(key);
      });
    }
    if (!isRequest) request.setTimeout(ACCEPT_TIMEOUT_MS, () => request.destroy(new Error(`no answer within ${ACCEPT_TIMEOUT_MS} ms`)));
    request.on('response', (response) => this.onPostResponse(request, response, key, outgoing, isRequest));
    request.on('error', (error) => {
      if (this.inflight.get(key) !== request) return; // aborted on purpose (cancelled, stopped)
      this.inflight.delete(key);
      const reason = describeError(error);
      if (outgoing.method === 'initialize') this.lost(`unreachable: ${reason}`);
      else if (isRequest) this.answerError(outgoing.id as JsonRpcId, `server ${this.name} could not be reached (${reason})`);
      else this.problem(`POST failed: ${reason}`);
    });
    request.end(body);
  }

  private onPostResponse(request: ClientRequest, response: IncomingMessage, key: JsonRpcId, outgoing: Outgoing, isRequest: boolean): void {
    const status = response.statusCode ?? 0;
    response.on('close', () => {
      if (this.inflight.get(key) === request) this.inflight.delete(key);
    });
    if (outgoing.method === 'initialize' && this.mode !== 'sse') {
      const session = response.headers['mcp-session-id'];
      if (typeof session === 'string' && session !== '') this.sessionId = session;
      // No mode chosen yet (auto): a 4xx says the server is of the legacy transport (transports.mdx,
      // backwards compatibility); the initialize goes again on its stream.
      if (this.mode === undefined) {
        if (status === 401 && this.refused(response)) return;
        // 401, 403 and 429 are about us, not about the transport: no fallback for those.
        if (status >= 400 && status < 500 && status !== 401 && status !== 403 && status !== 429) {
          response.resume();
          this.inflight.delete(key);
          this.log.info({ server: this.name, status }, 'remote server refused Streamable HTTP; trying the HTTP+SSE transport');
          this.openLegacy();
          if (this.initializeMessage !== undefined) this.queued.push(this.initializeMessage);
          return;
        }
        this.mode = 'http';
      }
    }
    if (status === 401 && this.refused(response)) return;
    if (status === 404 && this.sessionId !== undefined && this.mode === 'http') {
      response.resume();
      this.lost('the server no longer knows the session (404)');
      return;
    }
    if (status === 202 || (status >= 200 && status < 300 && !isRequest)) {
      response.resume();
      return;
    }
    if (status < 200 || status >= 300) {
      readBounded(response, MAX_ERROR_BODY_BYTES, this.buffered, (body) => {
        const text = body?.toString('utf8') ?? '';
        if (outgoing.method === 'initialize') {
          this.lost(`initialize answered HTTP ${status}${text === '' ? '' : `: ${excerpt(text)}`}`);
          return;
        }
        this.problem(`HTTP ${status} for ${outgoing.method ?? 'a response'}`);
        // A JSON-RPC error in the body answers the request as the server meant; anything else becomes one.
        if (isRequest && !this.deliverIfAnswer(text, body, outgoing.id as JsonRpcId)) {
          this.answerError(outgoing.id as JsonRpcId, `server ${this.name} answered HTTP ${status}`);
        }
      });
      return;
    }
    const type = String(response.headers['content-type'] ?? '');
    if (type.includes('text/event-stream')) {
      const answered = this.readStream(
        response,
        isRequest ? (outgoing.id as JsonRpcId) : undefined,
        () => {
          // The stream ended without the answer: the request fails rather than waits for its timeout,
          // and the server is told to stop working on it (resuming the stream is not attempted).
          if (!isRequest || answered.value || this.inflight.get(key) !== request) return;
          this.inflight.delete(key);
          this.answerError(outgoing.id as JsonRpcId, `server ${this.name} closed the stream before answering`);
          this.cancelUpstream(outgoing.id as JsonRpcId, 'the stream closed before the answer');
        },
        () => {
          // The answer came: its slot is free again. The server should close the stream now (its
          // socket then serves the next request); one that keeps it open loses it after a while.
          if (this.inflight.get(key) === request) this.inflight.delete(key);
          const linger = setTimeout(() => response.destroy(), ANSWERED_STREAM_GRACE_MS);
          linger.unref();
          response.once('close', () => clearTimeout(linger));
        },
      );
      return;
    }
    readBounded(response, this.maxMessageBytes, this.buffered, (body) => {
      if (body === undefined) {
        this.problem(`an answer larger than ${this.maxMessageBytes} bytes was dropped`);
        if (isRequest) this.answerError(outgoing.id as JsonRpcId, `server ${this.name} sent an answer larger than ${this.maxMessageBytes} bytes`);
        return;
      }
      this.deliver(body, isRequest ? (outgoing.id as JsonRpcId) : undefined);
    });
  }

  /**
   * A 401 to a proxy that signs in itself: the token is refreshed on the way back (the stored one is
   * marked refused) and the connection starts again. False without `oauth`: the 401 is an error like others.
   */
  private refused(response: IncomingMessage): boolean {
    const oauth = this.config.oauth;
    if (oauth === undefined) return false;
    response.resume();
    new StoredOAuthClient(this.config.url, this.name, oauth).markRefused();
    this.lost('the server refused the access token (401); it is refreshed on reconnect');
    return true;
  }

  /** Delivers a body that is a JSON-RPC error answer to `id`, as parsed here; false when it is not one. */
  private deliverIfAnswer(text: string, body: Buffer | undefined, id: JsonRpcId): boolean {
    if (body === undefined) return false;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return false;
    }
    if (!isObject(parsed) || parsed.id !== id || typeof parsed.error !== 'object') return false;
    this.deliverMessage(parsed, id);
    return true;
  }

  /**
   * SSE messages of one response stream, each delivered as the stream's request's (or unrelated).
   * The flag it returns turns true once a message without a method came: the request's answer (a
   * result that merely mentions "method" leaves it false, which costs a dropped duplicate at worst).
   */
  private readStream(response: IncomingMessage, carriedBy: JsonRpcId | undefined, ended: () => void, onAnswer?: () => void): { value: boolean } {
    const answered = { value: false };
    const reader = new SseReader(
      this.maxMessageBytes,
      (event) => {
        // An event without data primes a resumable stream (an id to resume from): not a message.
        if (event.event !== 'message' || event.data.length === 0) return;
        const answer = !answered.value && !event.data.includes(METHOD_MEMBER);
        if (answer) answered.value = true;
        this.deliver(event.data, carriedBy);
        if (answer) onAnswer?.();
      },
      (bytes) => this.problem(`an event of ${bytes} bytes (over the bound of one message, or of all this server's at once) was dropped`),
      this.buffered,
    );
    let over = false;
    const end = (): void => {
      if (over) return;
      over = true;
      reader.release();
      ended();
    };
    response.on('data', (chunk: Buffer) => reader.push(chunk));
    response.on('end', end);
    response.on('error', end);
    return answered;
  }

  private deliver(bytes: Buffer, carriedBy: JsonRpcId | undefined): void {
    if (this.exited !== undefined) return;
    const text = bytes.toString('utf8');
    if (this.protocolVersion === undefined && this.initializeId !== undefined) this.protocolVersion = initializeVersion(text, this.initializeId);
    this.events.onLine(text, bytes, 0, bytes.length, typeof carriedBy === 'number' ? carriedBy : undefined);
  }

  /** A message made here (never text): handed over as the object it is. */
  private deliverMessage(message: JsonObject, carriedBy: JsonRpcId | undefined): void {
    if (this.exited !== undefined) return;
    this.events.onMessage(message, typeof carriedBy === 'number' ? carriedBy : undefined);
  }

  private answerError(id: JsonRpcId, message: string): void {
    this.deliverMessage({ jsonrpc: '2.0', id, error: { code: ErrorCode.InternalError, message } }, id);
  }

  /** Tells the server a request of ours is given up (its answer could no longer reach anyone). */
  private cancelUpstream(id: JsonRpcId, reason: string): void {
    if (!this.writable) return;
    const line = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason } });
    this.post({ line, id: undefined, method: 'notifications/cancelled' });
  }

  /** Streamable HTTP: the stream the server sends unprompted messages on (list_changed, its requests). */
  private openStanding(): void {
    if (this.exited !== undefined || this.stopping) return;
    const request = this.request('GET', this.url, this.headers({ accept: 'text/event-stream' }));
    this.standing = request;
    let answered = false;
    request.on('response', (response) => {
      answered = true;
      const status = response.statusCode ?? 0;
      if (status === 401 && this.refused(response)) return;
      if ((status === 404 || status === 400) && this.standingWorked && this.sessionId !== undefined) {
        // It served this session's stream before: now it does not know the session (restarted).
        response.resume();
        this.lost(`the server no longer knows the session (HTTP ${status} for its stream)`);
        return;
      }
      if (status === 405 || (status >= 400 && status < 500 && !this.standingWorked)) {
        // No such stream here (405, or a server that routes only POST): its messages come on request streams.
        response.resume();
        return;
      }
      if (status < 200 || status >= 300) {
        response.resume();
        this.retryStanding(`stream answered HTTP ${status}`);
        return;
      }
      this.standingWorked = true;
      this.standingFailures = 0;
      this.readStream(response, undefined, () => this.retryStanding('stream ended'));
    });
    request.on('error', (error) => {
      if (this.standing !== request) return;
      // Once the stream was open, a reset (an idle timeout on the way) is its end: it is reopened.
      if (answered) this.retryStanding(`stream failed: ${describeError(error)}`);
      else this.lost(`stream failed: ${describeError(error)}`);
    });
    request.end();
  }

  private retryStanding(reason: string): void {
    if (this.exited !== undefined || this.stopping) return;
    this.log.debug({ server: this.name, reason }, 'reopening the remote server stream');
    clearTimeout(this.standingTimer);
    // Doubling while it keeps failing, so a server answering errors is not asked every second.
    const delay = Math.min(STANDING_RETRY_MAX_MS, STANDING_RETRY_MS * 2 ** this.standingFailures);
    this.standingFailures += 1;
    this.standingTimer = setTimeout(() => this.openStanding(), delay);
    this.standingTimer.unref();
  }

  /** The legacy transport: a GET stream whose first event names where to POST. */
  private openLegacy(): void {
    this.mode = 'sse';
    const request = this.request('GET', this.url, this.headers({ accept: 'text/event-stream' }));
    this.standing = request;
    const deadline = setTimeout(() => {
      if (this.endpoint === undefined) this.lost(`no endpoint event within ${ENDPOINT_TIMEOUT_MS} ms`);
    }, ENDPOINT_TIMEOUT_MS);
    deadline.unref();
    request.on('response', (response) => {
      const status = response.statusCode ?? 0;
      if (status === 401 && this.refused(response)) return;
      if (status < 200 || status >= 300 || !String(response.headers['content-type'] ?? '').includes('text/event-stream')) {
        response.resume();
        this.lost(`the SSE stream answered HTTP ${status}`);
        return;
      }
      const reader = new SseReader(
        this.maxMessageBytes,
        (event) => {
          if (event.event === 'endpoint') this.onEndpoint(event.data.toString('utf8'));
          else if (event.event === 'message' && event.data.length > 0) this.deliver(event.data, undefined);
        },
        (bytes) => this.problem(`an event of ${bytes} bytes (more than ${this.maxMessageBytes}) was dropped`),
        this.buffered,
      );
      response.on('data', (chunk: Buffer) => reader.push(chunk));
      response.on('end', () => this.lost('the SSE stream ended'));
      response.on('error', (error) => this.lost(`the SSE stream failed: ${describeError(error)}`));
    });
    request.on('error', (error) => {
      if (this.standing === request) this.lost(`unreachable: ${describeError(error)}`);
    });
    request.on('close', () => clearTimeout(deadline));
    request.end();
  }

  private onEndpoint(data: string): void {
    let endpoint: URL;
    try {
      endpoint = new URL(data.trim(), this.url);
    } catch {
      this.lost('the SSE stream named an endpoint that is not a URL');
      return;
    }
    // Our headers (credentials) go to the server configured, never to a host its stream names.
    if (endpoint.origin !== this.url.origin) {
      this.lost(`the SSE stream named an endpoint on another origin (${endpoint.origin})`);
      return;
    }
    this.endpoint = endpoint;
    for (const outgoing of this.queued.splice(0)) this.post(outgoing);
  }

  private async deleteSession(): Promise<void> {
    await new Promise<void>((resolve) => {
      const request = this.request('DELETE', this.url, this.headers({}));
      const timer = setTimeout(() => request.destroy(), DELETE_TIMEOUT_MS);
      request.on('response', (response) => {
        response.resume();
        response.on('end', resolve);
      });
      request.on('error', () => resolve());
      request.on('close', () => {
        clearTimeout(timer);
        resolve();
      });
      request.end();
    });
  }
}

const METHOD_MEMBER = Buffer.from('"method"');

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
function readBounded(response: IncomingMessage, max: number, budget: ByteBudget, done: (body: Buffer | undefined) => void): void {
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

function describeError(error: Error): string {
  const code = (error as Error & { code?: unknown }).code;
  return typeof code === 'string' ? `${code}: ${error.message}` : error.message;
}

function excerpt(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
