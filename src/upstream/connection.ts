// One MCP client over one child's transport: the handshake, id minting, forwarding requests and
// notifications, timeouts and the child's exit. Pending bookkeeping (pending.ts), the reading side
// (inbound.ts), tasks (tasks.ts) and the attribution of the child's own messages (attribution.ts)
// each live in their own module.
import type { Logger } from '../log.js';
import type { ServerConfig } from '../config/types.js';
import {
  ErrorCode,
  SwitchboardError,
  errorResponse,
  isObject,
  type JsonObject,
  type JsonRpcId,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcRequest,
  encode,
  tryStringify,
} from '../jsonrpc/messages.js';
import { RAW_SPANS, splicedRequestLine, type RawCarrier } from '../wire/request-splice.js';
import type { ShutdownTimings } from './child.js';
import { openChild, type TransportOpener } from './child-transport.js';
import { describeExit, type ChildExit, type ChildTransport, type TransportEvents } from './transport.js';
import type { Caller, Pending, ServerIdentity } from './types.js';
import { addEnvelope, proxyEnvelope, removeEnvelope, rootsFromConfig } from './stateless-envelope.js';
import { CLIENT_CAPABILITIES, PROBE_METHOD, listenRequest, negotiateEra } from './era.js';
import { PendingTable, answerLocally } from './pending.js';
import { setOutgoingTrace, tracing } from '../telemetry/active.js';
import { TRACE, type TraceCarrier } from '../telemetry/meta.js';
import { Inbound } from './inbound.js';
import { TaskIndex, type TaskOwner } from './tasks.js';
import { Involvement, latestOf, type Attribution } from './attribution.js';

export type { Pending } from './types.js';
export { RELATED_TASK, restoreTaskId, type TaskOwner } from './tasks.js';
export { describeExit } from './transport.js';

export interface ConnectionHandlers {
  /** A notification other than progress (which is routed here), ids untouched. */
  onNotification(connection: UpstreamConnection, message: JsonRpcNotification): void;
  /** A server-to-client request (sampling, elicitation, roots/list) other than ping. */
  onServerRequest(connection: UpstreamConnection, message: JsonRpcRequest): void;
  /**
   * A stateless-era child needs input from a session's client to go on with `entry` (mrtr.mdx):
   * whoever handles it asks, then calls `sendAgain` with the answers, or answers `entry` itself.
   */
  onInputRequired(connection: UpstreamConnection, entry: Pending, result: JsonObject): void;
  onExit(connection: UpstreamConnection, exit: ChildExit): void;
  /** A request left the table of those in flight (answered, timed out, cancelled): a slot is free. */
  onVacancy?(): void;
}

export interface ConnectionOptions {
  readonly maxLineBytes: number;
  readonly shutdown?: ShutdownTimings;
  /** Most requests waiting for this child at once; beyond it requests are refused, not queued. */
  readonly maxPending?: number;
  /** Opens the transport instead of the configured child or remote server (tests drive it in memory). */
  readonly openTransport?: TransportOpener;
}

let connectionSerial = 0;

/** Requests in flight towards one child; a child that stops answering cannot grow this without bound. */
const DEFAULT_MAX_PENDING = 10_000;

export class UpstreamConnection {
  private readonly child: ChildTransport;
  /** The upstream id of the request whose response stream carried the message being dispatched (remote servers). */
  private carriedBy: JsonRpcId | undefined;
  private readonly pending: PendingTable;
  private readonly tasks = new TaskIndex();
  private readonly involvement = new Involvement();
  private readonly inbound: Inbound;
  private readonly sweeper: NodeJS.Timeout;
  private exitInfo: ChildExit | undefined;
  identity: ServerIdentity | undefined;
  /** Short name unique in this process, used to make task ids of different children distinct. */
  readonly tag = `c${(connectionSerial += 1)}`;

  constructor(
    readonly server: ServerConfig,
    private readonly log: Logger,
    private readonly handlers: ConnectionHandlers,
    options: ConnectionOptions,
  ) {
    this.pending = new PendingTable(options.maxPending ?? DEFAULT_MAX_PENDING, handlers.onVacancy);
    this.inbound = new Inbound(server.name, log, this.pending, this.tasks, {
      onNotification: (message) => handlers.onNotification(this, message),
      onServerRequest: (message) => handlers.onServerRequest(this, message),
      onInputRequired: (entry, result) => handlers.onInputRequired(this, entry, result),
      reply: (message) => this.notify(message),
    });
    const events: TransportEvents = {
      onLine: (line, bytes, start, end, carriedBy) => {
        this.carriedBy = carriedBy;
        try {
          this.inbound.line(line, bytes, start, end);
        } finally {
          this.carriedBy = undefined;
        }
      },
      onMessage: (message, carriedBy) => {
        this.carriedBy = carriedBy;
        try {
          this.inbound.message(message);
        } finally {
          this.carriedBy = undefined;
        }
      },
      onExit: (exit) => this.onExit(exit),
    };
    this.child = options.openTransport?.(server, events) ?? openChild(server, log, options.maxLineBytes, events, options.shutdown);
    // One sweep from the front of the pending table (deadline order) replaces a timer per request.
    const sweepEvery = Math.min(1000, Math.max(10, Math.floor(server.timeoutMs / 20)));
    this.sweeper = setInterval(() => this.expire(Date.now()), sweepEvery);
    this.sweeper.unref();
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** The child's last stderr lines, oldest first. */
  get stderrTail(): readonly string[] {
    return this.child.stderrTail;
  }

  get alive(): boolean {
    return this.exitInfo === undefined;
  }

  /** Whether a request written now would reach the child. */
  get writable(): boolean {
    return this.exitInfo === undefined && this.child.writable;
  }

  get pendingCount(): number {
    return this.pending.size;
  }

  /**
   * Learns what the child is (era.ts), then opens the listen a stateless-era child announces list
   * changes on (a child initialized in the session era announces them there).
   */
  async initialize(): Promise<ServerIdentity> {
    const identity = await negotiateEra(this, this.log);
    this.identity = identity;
    const listen = identity.era === 'stateless' ? listenRequest(identity.capabilities) : undefined;
    // Not pending: the listen is open for the child's life, and its id is not one of ours.
    if (listen !== undefined) this.child.write(JSON.stringify(listen) + '\n', listen.id, listen.method);
    return identity;
  }

  /** The proxy's own request; resolves with the result or rejects with a SwitchboardError. */
  request(method: string, params: JsonObject, timeoutMs = this.server.timeoutMs): Promise<JsonObject> {
    if (this.identity?.era === 'stateless' && !isObject(params._meta)) params = { ...params, _meta: proxyEnvelope(CLIENT_CAPABILITIES) };
    return new Promise((resolve, reject) => {
      const upstreamId = this.pending.mint();
      const entry: Pending = {
        upstreamId,
        method,
        deadline: Date.now() + timeoutMs,
        timeoutMs,
        caller: null,
        downstreamId: upstreamId,
        progressToken: undefined,
        connection: this,
        settle: (response) => {
          if ('error' in response) reject(new SwitchboardError(response.error.code, response.error.message, response.error.data));
          else resolve(response.result);
        },
        createsTask: false,
        taskId: undefined,
        resend: undefined,
        receivedAt: 0,
        tool: undefined,
        trace: undefined,
      };
      const refusal = this.admit(entry);
      if (refusal !== undefined) return reject(refusal);
      if (this.child.write(JSON.stringify({ jsonrpc: '2.0', id: upstreamId, method, params }) + '\n', upstreamId, method) !== 'sent') {
        this.pending.take(upstreamId);
        reject(new SwitchboardError(ErrorCode.ConnectionClosed, `server ${this.server.name} is not accepting input`));
      }
    });
  }

  /**
   * Sends a client's request on with a fresh id (and progress token), remembering whom to answer.
   * Mutates `request`: it was parsed for this call alone. Returns the pending entry, or the error to answer with.
   */
  forward(caller: Caller, request: JsonRpcRequest, taskId?: string): Pending | SwitchboardError {
    const era = this.identity?.era;
    // A child of both eras gets a stateless client's request in that client's era: its own
    // input_required rounds then belong to that request, with no session to attribute them to.
    if (era === 'stateless' || (era === 'both' && caller.acceptsInputRequired)) {
      addEnvelope(request, caller.clientCapabilities);
      rootsFromConfig(request, this.server.roots);
    } else if (caller.acceptsInputRequired) removeEnvelope(request);
    const upstreamId = this.pending.mint();
    const meta = request.params?._meta;
    let progressToken: string | number | undefined;
    if (isObject(meta) && (typeof meta.progressToken === 'string' || typeof meta.progressToken === 'number')) {
      progressToken = meta.progressToken;
      // The child sees our id as the token: unique per child, and found again with one map lookup.
      meta.progressToken = upstreamId;
    }
    const entry: Pending = {
      upstreamId,
      method: request.method,
      deadline: Date.now() + this.server.timeoutMs,
      timeoutMs: this.server.timeoutMs,
      caller,
      downstreamId: request.id,
      progressToken,
      connection: this,
      settle: undefined,
      createsTask: request.params?.task !== undefined,
      taskId,
      resend: era === 'stateless' && !caller.acceptsInputRequired ? request.params : undefined,
      receivedAt: 0,
      tool: undefined,
      // The router put the request's spans on it (telemetry/meta.ts); read only when tracing is on.
      trace: tracing === undefined ? undefined : (request as TraceCarrier)[TRACE],
    };
    const downstreamId = request.id;
    request.id = upstreamId;
    const spliced = splicedRequestLine(request, upstreamId, progressToken !== undefined);
    // A request built from a scan holds only the routed members: serialized, it would lose the rest.
    const line = spliced ?? ((request as RawCarrier)[RAW_SPANS] === undefined ? tryStringify(request) : undefined);
    if (line === undefined) {
      // Nothing was registered or sent: put the caller's ids back and refuse the request itself.
      request.id = downstreamId;
      if (progressToken !== undefined && isObject(meta)) meta.progressToken = progressToken;
      return new SwitchboardError(ErrorCode.InvalidParams, 'Invalid params: nested too deeply to forward');
    }
    const refusal = this.admit(entry);
    if (refusal !== undefined) {
      request.id = downstreamId;
      return refusal;
    }
    // A remote server's transport reads the context for its headers inside the (synchronous) write.
    if (entry.trace !== undefined) setOutgoingTrace(entry.trace);
    const written =
      typeof line === 'string'
        ? this.child.write(line + '\n', upstreamId, request.method)
        : this.child.writeEncoded(line.bytes, (target) => line.writeTo(target), upstreamId, request.method);
    if (entry.trace !== undefined) setOutgoingTrace(undefined);
    if (written !== 'sent') {
      this.pending.take(upstreamId);
      // The router ends the spans with the error it answers.
      return written === 'full'
        ? new SwitchboardError(ErrorCode.Overloaded, `server ${this.server.name} is not reading its input`)
        : new SwitchboardError(ErrorCode.ConnectionClosed, `server ${this.server.name} is restarting; its input is closed`);
    }
    return entry;
  }

  /**
   * Sends a request the child answered with input_required again, with the client's answers and the
   * child's requestState (mrtr.mdx: a new request, with a new id); the same entry waits for it.
   */
  sendAgain(entry: Pending, inputResponses: JsonObject, requestState: unknown): void {
    const params = entry.resend;
    if (params === undefined) return;
    const upstreamId = this.pending.mint();
    entry.upstreamId = upstreamId;
    entry.deadline = Date.now() + this.server.timeoutMs;
    params.inputResponses = inputResponses;
    if (typeof requestState === 'string') params.requestState = requestState;
    else delete params.requestState;
    const meta = params._meta;
    if (entry.progressToken !== undefined && isObject(meta)) meta.progressToken = upstreamId;
    const refusal = this.admit(entry);
    const line = refusal === undefined ? tryStringify({ jsonrpc: '2.0', id: upstreamId, method: entry.method, params }) : undefined;
    if (refusal !== undefined || line === undefined || this.child.write(line + '\n', upstreamId, entry.method) !== 'sent') {
      this.pending.take(upstreamId);
      answerLocally(entry, errorResponse(entry.downstreamId, ErrorCode.ConnectionClosed, refusal?.message ?? `server ${this.server.name} could not be sent the request again`));
    }
  }

  /** Answers a request without the child (the input it needed could not be had). */
  fail(entry: Pending, error: SwitchboardError): void {
    answerLocally(entry, errorResponse(entry.downstreamId, error.code, error.message, error.data));
  }

  /** The caller gave up (notifications/cancelled, session closed): tell the child and forget the request. */
  cancel(entry: Pending, reason: string): void {
    if (!this.pending.forget(entry)) return;
    entry.trace?.end('cancelled');
    this.involvement.linger(entry);
    this.cancelAtChild(entry.upstreamId, reason);
  }

  /** Sends a notification or a response (to a child's own request) as is. */
  notify(message: JsonRpcMessage): boolean {
    const line = encode(message);
    if (line === undefined) return false;
    const id = 'id' in message && message.id !== null ? message.id : undefined;
    return this.child.write(line + '\n', id, 'method' in message ? message.method : undefined) === 'sent';
  }

  /** The child is told to stop working on a request of ours, and the transport frees what it held for it. */
  private cancelAtChild(upstreamId: number, reason: string): void {
    this.child.abandon(upstreamId);
    this.notify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: upstreamId, reason } });
  }

  /**
   * The one caller that may have caused a message the child sends on its own: the only caller with
   * requests in flight, provided no other caller gave up on a request here recently (the child may
   * still be working on that one). Otherwise how many callers are involved. `asking`: the message
   * is a request (sampling, elicitation), which a child of both eras sends for a session client's
   * request only (a stateless client's gets input_required), so stateless clients are not involved.
   */
  soleCaller(asking = false): Attribution {
    return this.involvement.soleCaller(this.pending.values(), asking && this.identity?.era === 'both');
  }

  /**
   * The request whose response stream carries the message being handled, when the server said so
   * (a remote server's request or notification arrives on the stream of the request it serves).
   */
  streamOwner(): Pending | undefined {
    return typeof this.carriedBy === 'number' ? this.pending.get(this.carriedBy) : undefined;
  }

  /** The latest in-flight request of `caller` here, to relate a child's message to it. */
  latestOf(caller: Caller): Pending | undefined {
    return latestOf(this.pending.values(), caller);
  }

  /** Who created a task of this child, and what they call it. */
  taskOwner(childTaskId: unknown): TaskOwner | undefined {
    return this.tasks.owner(childTaskId);
  }

  stop(): Promise<void> {
    return this.child.stop();
  }

  private admit(entry: Pending): SwitchboardError | undefined {
    if (this.exitInfo !== undefined || !this.child.alive) {
      return new SwitchboardError(ErrorCode.ConnectionClosed, `server ${this.server.name} is not running`);
    }
    if (this.pending.full) {
      return new SwitchboardError(ErrorCode.Overloaded, `server ${this.server.name} has too many requests in flight`);
    }
    this.pending.add(entry);
    return undefined;
  }

  private expire(now: number): void {
    this.pending.expire(now, (entry) => {
      this.involvement.linger(entry);
      // The era probe going unanswered is normal for a session-era server: era.ts says so, below warn.
      if (entry.caller !== null || entry.method !== PROBE_METHOD) this.log.warn({ method: entry.method, timeoutMs: entry.timeoutMs }, 'request timed out');
      // Before the child is initialized only the probe and initialize are in flight, and nothing
      // but initialize (and ping) may reach a session-era server then (lifecycle.mdx): no cancel.
      if (this.identity !== undefined) this.cancelAtChild(entry.upstreamId, 'timed out');
      answerLocally(
        entry,
        errorResponse(entry.downstreamId, ErrorCode.RequestTimeout, `server ${this.server.name} did not answer ${entry.method} within ${entry.timeoutMs} ms`),
      );
    });
  }

  private onExit(exit: ChildExit): void {
    this.exitInfo = exit;
    clearInterval(this.sweeper);
    const how = describeExit(exit);
    for (const entry of this.pending.drain()) {
      answerLocally(entry, errorResponse(entry.downstreamId, ErrorCode.ConnectionClosed, `server ${this.server.name} ${how} while handling ${entry.method}`));
    }
    this.handlers.onExit(this, exit);
  }
}
