// A remote MCP server behind the same interface as a stdio child (transport.ts): the connection
// writes messages with their id and method, and this class carries them over Streamable HTTP
// (streamable-http.ts) or the legacy HTTP+SSE transport (legacy-sse.ts), signing in first when
// configured to. A lost connection or a forgotten session is an "exit": the server handle restarts
// it with backoff, which initializes a new session.
import { outgoingTrace, tracing } from '../../telemetry/active.js';
import type { Logger } from '../../log.js';
import type { RemoteConfig } from '../../config/types.js';
import { ErrorCode, type JsonObject, type JsonRpcId } from '../../jsonrpc/messages.js';
import type { ChildExit, ChildTransport, TransportEvents, WriteOutcome } from '../transport.js';
import { StderrTail } from '../stderr-tail.js';
import type { ByteBudget } from './sse-reader.js';
import { LoginRequired, StoredOAuthClient, accessToken, refreshDelay } from '../../auth/outbound/oauth-client.js';
import { initializeVersion } from './protocol-version.js';
import { HttpClient, type RemoteResponse } from './http-client.js';
import type { Outgoing, RemoteLink } from './link.js';
import { StreamableHttp } from './streamable-http.js';
import { LegacyStream } from './legacy-sse.js';

/** Requests and notifications on their way to one remote server at once; more are refused ('full'). */
const MAX_IN_FLIGHT = 256;
/** Largest messages being read from one server at once, in units of the message bound. */
const MAX_BUFFERED_MESSAGES = 4;
/** setTimeout's longest delay, ms. */
const MAX_TIMER_MS = 2_147_483_647;

export class RemoteServer implements ChildTransport {
  readonly pid = undefined;
  private exited: ChildExit | undefined;
  private stopping = false;
  /** Messages written before they can go: the legacy stream has not named its endpoint, or the sign-in is under way. */
  private queued: Outgoing[] = [];
  /** The access token is being read or refreshed: nothing is sent before it. */
  private signingIn: boolean;
  private refreshTimer: NodeJS.Timeout | undefined;
  /** The initialize message, written again on the legacy stream when Streamable HTTP is refused (auto). */
  private initializeMessage: Outgoing | undefined;
  /** The id of our initialize request: only its answer names the protocol version. */
  private initializeId: JsonRpcId | undefined;
  private readonly tail = new StderrTail();
  private readonly http: HttpClient;
  private readonly streamable: StreamableHttp;
  private readonly legacy: LegacyStream;

  constructor(
    private readonly name: string,
    private readonly config: RemoteConfig,
    private readonly log: Logger,
    maxMessageBytes: number,
    private readonly events: TransportEvents,
  ) {
    this.http = new HttpClient(config, MAX_IN_FLIGHT + 2);
    // Each message is bounded by maxMessageBytes; many at once by this (a child's pipe holds one line).
    const buffered: ByteBudget = { used: 0, max: MAX_BUFFERED_MESSAGES * maxMessageBytes };
    const link: RemoteLink = {
      name,
      log,
      http: this.http,
      maxMessageBytes,
      buffered,
      isOpen: () => this.writable,
      postTarget: () => (this.http.mode === 'sse' ? (this.legacy.endpoint as URL) : this.http.url),
      lost: (reason) => this.lost(reason),
      problem: (text) => this.tail.push(text),
      refused: (response) => this.refused(response),
      fallBack: (status) => this.fallBack(status),
      deliver: (bytes, carriedBy) => this.deliver(bytes, carriedBy),
      deliverMessage: (message, carriedBy) => this.deliverMessage(message, carriedBy),
      answerError: (id, message) => this.deliverMessage({ jsonrpc: '2.0', id, error: { code: ErrorCode.InternalError, message } }, id),
    };
    this.streamable = new StreamableHttp(link);
    this.legacy = new LegacyStream(link, () => this.flush());
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
        this.http.authorization = `Bearer ${token}`;
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
    this.flush();
  }

  private flush(): void {
    for (const outgoing of this.queued.splice(0)) this.streamable.post(outgoing);
  }

  private openLegacy(): void {
    this.http.mode = 'sse';
    this.legacy.open();
  }

  /** Streamable HTTP refused in `auto` mode (a 4xx to initialize): the legacy transport, with initialize again on it. */
  private fallBack(status: number): void {
    this.log.info({ server: this.name, status }, 'remote server refused Streamable HTTP; trying the HTTP+SSE transport');
    this.openLegacy();
    if (this.initializeMessage !== undefined) this.queued.push(this.initializeMessage);
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
    if (id !== undefined && method !== undefined && this.streamable.requestsInFlight >= MAX_IN_FLIGHT) return 'full';
    const outgoing: Outgoing = { line, id, method, trace: tracing === undefined ? undefined : outgoingTrace() };
    if (method === 'initialize') {
      this.initializeMessage = outgoing;
      this.initializeId = id;
    }
    if (this.signingIn || (this.http.mode === 'sse' && this.legacy.endpoint === undefined)) {
      this.queued.push(outgoing);
      return 'sent';
    }
    this.streamable.post(outgoing);
    if (method === 'notifications/initialized' && this.http.mode === 'http') this.streamable.openStanding();
    return 'sent';
  }

  writeEncoded(bytes: number, encode: (target: Buffer) => void, id: JsonRpcId | undefined, method: string | undefined): WriteOutcome {
    const buffer = Buffer.allocUnsafe(bytes);
    encode(buffer);
    return this.write(buffer.toString('utf8'), id, method);
  }

  abandon(id: JsonRpcId): void {
    this.streamable.abandon(id);
  }

  async stop(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    this.release();
    // Streamable HTTP: a client that is done says so (transports.mdx, session management). Whatever
    // becomes of that, the stop ends in an exit: the handle restarts or forgets the server on it.
    if (this.http.mode === 'http' && this.http.sessionId !== undefined && this.exited === undefined) await this.streamable.deleteSession().catch(() => undefined);
    this.exit({ code: 0, signal: null });
  }

  private exit(exit: ChildExit): void {
    if (this.exited !== undefined) return;
    this.exited = exit;
    this.release();
    this.http.destroy();
    this.events.onExit(exit);
  }

  /** Timers stopped, streams and requests closed (the agent stays: a stop still sends its DELETE). */
  private release(): void {
    clearTimeout(this.refreshTimer);
    this.streamable.close();
    this.legacy.close();
  }

  /** The server cannot be used any more (unreachable, session forgotten): the handle starts a new one. */
  private lost(reason: string): void {
    if (this.exited !== undefined || this.stopping) return;
    this.tail.push(reason);
    this.log.warn({ server: this.name, reason }, 'remote server connection lost');
    this.exit(this.http.protocolVersion === undefined ? { code: null, signal: null, spawnError: reason } : { code: null, signal: null, disconnected: reason });
  }

  /**
   * A 401 to a proxy that signs in itself: the token is refreshed on the way back (the stored one is
   * marked refused) and the connection starts again. False without `oauth`: the 401 is an error like others.
   */
  private refused(response: RemoteResponse): boolean {
    const oauth = this.config.oauth;
    if (oauth === undefined) return false;
    response.body.resume();
    new StoredOAuthClient(this.config.url, this.name, oauth).markRefused();
    this.lost('the server refused the access token (401); it is refreshed on reconnect');
    return true;
  }

  /**
   * A message the server sent goes to the connection as its text, like a child's line: the
   * connection scans large results without parsing them and splices ids into the text, which an
   * object parsed here would rule out.
   */
  private deliver(bytes: Buffer, carriedBy: JsonRpcId | undefined): void {
    if (this.exited !== undefined) return;
    const text = bytes.toString('utf8');
    if (this.http.protocolVersion === undefined && this.initializeId !== undefined) this.http.protocolVersion = initializeVersion(text, this.initializeId);
    this.events.onLine(text, bytes, 0, bytes.length, typeof carriedBy === 'number' ? carriedBy : undefined);
  }

  /** A message made here (never text): handed over as the object it is. */
  private deliverMessage(message: JsonObject, carriedBy: JsonRpcId | undefined): void {
    if (this.exited !== undefined) return;
    this.events.onMessage(message, typeof carriedBy === 'number' ? carriedBy : undefined);
  }
}
