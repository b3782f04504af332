// One MCP client over one child's stdio: the handshake, the pending map, id minting, timeouts.
import { isUtf8 } from 'node:buffer';
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
  type JsonRpcResponse,
  encode,
  idJson,
  tryStringify,
} from '../jsonrpc/messages.js';
import { RAW_MIN_CHARS, RAW_SPANS, splicedRequestLine, type RawCarrier } from '../wire/request-splice.js';
import { scanMessage } from '../wire/message-scan.js';
import { mintedIdAt, spliceId, spliceResultBytes } from '../wire/result-splice.js';
import { BufferPool } from '../wire/buffer-pool.js';
import type { ChildExit, ShutdownTimings } from './child.js';
import { openChild, type ChildTransport } from './child-transport.js';
import type { Caller, Pending, ServerIdentity } from './types.js';
import { addEnvelope, proxyEnvelope, removeEnvelope, rootsFromConfig } from './modern-envelope.js';
import { CLIENT_CAPABILITIES, PROBE_METHOD, negotiateEra } from './era.js';

export type { Pending } from './types.js';

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
}

export interface ConnectionOptions {
  readonly maxLineBytes: number;
  readonly shutdown?: ShutdownTimings;
  /** Most requests waiting for this child at once; beyond it requests are refused, not queued. */
  readonly maxPending?: number;
}

/**
 * How long a caller that cancelled or timed out a request still counts as possibly behind a child's
 * messages, ms: cancellation is advisory, so the child may go on and sample or log for it.
 */
const LINGER_MS = 30_000;

let connectionSerial = 0;

/** Tasks remembered per child, tasks; servers expire their own tasks by TTL, we only bound the index. */
const MAX_TASKS = 10_000;

/** Result metadata key that ties a message to a task (tasks.mdx). */
export const RELATED_TASK = 'io.modelcontextprotocol/related-task';

export interface TaskOwner {
  readonly caller: Caller;
  readonly downstreamTaskId: string;
}

/** Puts the caller's task id back wherever a tasks/* result carries the child's (Task fields, related-task meta). */
export function restoreTaskId(result: JsonObject, downstreamTaskId: string): boolean {
  let changed = false;
  if (typeof result.taskId === 'string') {
    result.taskId = downstreamTaskId;
    changed = true;
  }
  const meta = result._meta;
  const related = isObject(meta) ? meta[RELATED_TASK] : undefined;
  if (isObject(related) && typeof related.taskId === 'string') {
    related.taskId = downstreamTaskId;
    changed = true;
  }
  return changed;
}

/**
 * Stand-ins for a result forwarded as text: only the caller's metrics read a response object
 * then, and only whether a tool reported an error. Never serialized: the text goes instead.
 */
const RESULT_FORWARDED_AS_TEXT: JsonObject = Object.freeze({});
const TOOL_ERROR_FORWARDED_AS_TEXT: JsonObject = Object.freeze({ isError: true });

/** Requests in flight towards one child; a child that stops answering cannot grow this without bound. */
const DEFAULT_MAX_PENDING = 10_000;

/** Callers remembered as recently involved with a child (see `linger`), at most. */
const MAX_LINGERING = 1_000;
/** The id of the proxy's subscriptions/listen to a stateless-era child. */
const LISTEN_ID = 'switchboard-listen';

export class UpstreamConnection {
  private readonly child: ChildTransport;
  /** The upstream id of the request whose response stream carried the message being dispatched (remote servers). */
  private carriedBy: JsonRpcId | undefined;
  private pending = new Map<number, Pending>();
  /** Buffers for large results on their way to clients. */
  private readonly resultBuffers = new BufferPool();
  /** Child task id -> its creator; bounded, oldest forgotten first. */
  private readonly taskOwners = new Map<string, TaskOwner>();
  /** Callers that cancelled or timed out a request here, until when they still count as involved. */
  private readonly lingering = new Map<Caller, number>();
  private nextId = 1;
  private readonly sweeper: NodeJS.Timeout;
  private exitInfo: ChildExit | undefined;
  identity: ServerIdentity | undefined;
  /** Short name unique in this process, used to make task ids of different children distinct. */
  readonly tag = `c${(connectionSerial += 1)}`;

  constructor(
    readonly server: ServerConfig,
    private readonly log: Logger,
    private readonly handlers: ConnectionHandlers,
    private readonly options: ConnectionOptions,
  ) {
    this.child = openChild(server, log, options.maxLineBytes, {
      onLine: (line, bytes, start, end, carriedBy) => {
        this.carriedBy = carriedBy;
        try {
          this.onLine(line, bytes, start, end);
        } finally {
          this.carriedBy = undefined;
        }
      },
      onExit: (exit) => this.onExit(exit),
    }, options.shutdown);
    // Requests have the server's timeout (the era probe's is shorter, but is alone in flight), so
    // insertion order is deadline order and one sweep from the front replaces a timer per request.
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
    if (identity.era === 'stateless') this.listen(identity.capabilities);
    return identity;
  }

  /**
   * A stateless-era child tells of list changes only on a subscriptions/listen stream: one, open for
   * the child's life (its id is a string, so no answer of it is mistaken for a pending request's).
   */
  private listen(capabilities: JsonObject): void {
    const notifications: JsonObject = {};
    for (const [kind, filter] of [['tools', 'toolsListChanged'], ['prompts', 'promptsListChanged'], ['resources', 'resourcesListChanged']] as const) {
      const offered = capabilities[kind];
      if (isObject(offered) && offered.listChanged === true) notifications[filter] = true;
    }
    if (Object.keys(notifications).length === 0) return;
    const params = { notifications, _meta: proxyEnvelope(CLIENT_CAPABILITIES) };
    this.child.write(JSON.stringify({ jsonrpc: '2.0', id: LISTEN_ID, method: 'subscriptions/listen', params }) + '\n');
  }

  /** The proxy's own request; resolves with the result or rejects with a SwitchboardError. */
  request(method: string, params: JsonObject, timeoutMs = this.server.timeoutMs): Promise<JsonObject> {
    if (this.identity?.era === 'stateless' && !isObject(params._meta)) params = { ...params, _meta: proxyEnvelope(CLIENT_CAPABILITIES) };
    return new Promise((resolve, reject) => {
      const upstreamId = this.nextId++;
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
      };
      const refusal = this.admit(entry);
      if (refusal !== undefined) return reject(refusal);
      if (this.child.write(JSON.stringify({ jsonrpc: '2.0', id: upstreamId, method, params }) + '\n') !== 'sent') {
        this.pending.delete(upstreamId);
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
    const upstreamId = this.nextId++;
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
    const written = typeof line === 'string' ? this.child.write(line + '\n') : this.child.writeEncoded(line.bytes, (target) => line.writeTo(target));
    if (written !== 'sent') {
      this.pending.delete(upstreamId);
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
    const upstreamId = this.nextId++;
    entry.upstreamId = upstreamId;
    entry.deadline = Date.now() + this.server.timeoutMs;
    params.inputResponses = inputResponses;
    if (typeof requestState === 'string') params.requestState = requestState;
    else delete params.requestState;
    const meta = params._meta;
    if (entry.progressToken !== undefined && isObject(meta)) meta.progressToken = upstreamId;
    const refusal = this.admit(entry);
    const line = refusal === undefined ? tryStringify({ jsonrpc: '2.0', id: upstreamId, method: entry.method, params }) : undefined;
    if (refusal !== undefined || line === undefined || this.child.write(line + '\n') !== 'sent') {
      this.pending.delete(upstreamId);
      this.answer(entry, errorResponse(entry.downstreamId, ErrorCode.ConnectionClosed, refusal?.message ?? `server ${this.server.name} could not be sent the request again`));
    }
  }

  /** Answers a request without the child (the input it needed could not be had). */
  fail(entry: Pending, error: SwitchboardError): void {
    this.answer(entry, errorResponse(entry.downstreamId, error.code, error.message, error.data));
  }

  /** The caller gave up (notifications/cancelled, session closed): tell the child and forget the request. */
  cancel(entry: Pending, reason: string): void {
    if (this.pending.get(entry.upstreamId) !== entry) return;
    this.pending.delete(entry.upstreamId);
    this.linger(entry);
    this.notify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: entry.upstreamId, reason } });
  }

  /** Sends a notification or a response (to a child's own request) as is. */
  notify(message: JsonRpcMessage): boolean {
    const line = encode(message);
    return line !== undefined && this.child.write(line + '\n') === 'sent';
  }

  /**
   * The one caller that may have caused a message the child sends on its own: the only caller with
   * requests in flight, provided no other caller gave up on a request here recently (the child may
   * still be working on that one). Otherwise how many callers are involved. `asking`: the message
   * is a request (sampling, elicitation), which a child of both eras sends for a session client's
   * request only (a stateless client's gets input_required), so stateless clients are not involved.
   */
  soleCaller(asking = false): { caller: Caller; latest: Pending } | { callers: number } {
    const sessionsOnly = asking && this.identity?.era === 'both';
    const involved = new Set<Caller>();
    const now = Date.now();
    for (const [caller, until] of this.lingering) {
      if (until < now) this.lingering.delete(caller);
      else if (!sessionsOnly || !caller.acceptsInputRequired) involved.add(caller);
    }
    let latest: Pending | undefined;
    for (const entry of this.pending.values()) {
      if (entry.caller === null || (sessionsOnly && entry.caller.acceptsInputRequired)) continue;
      involved.add(entry.caller);
      latest = entry;
    }
    if (involved.size === 1 && latest !== undefined && latest.caller !== null) return { caller: latest.caller, latest };
    return { callers: involved.size };
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
    let latest: Pending | undefined;
    for (const entry of this.pending.values()) if (entry.caller === caller) latest = entry;
    return latest;
  }

  stop(): Promise<void> {
    return this.child.stop();
  }

  /** Remembers for a while that this caller abandoned a request the child may still be running. */
  private linger(entry: Pending): void {
    if (entry.caller === null) return;
    const now = Date.now();
    // Callers come and go (every stateless request is one): the oldest entries are the first to
    // have expired, and past the bound the oldest go even unexpired, so this never grows unbounded.
    for (const [caller, until] of this.lingering) {
      if (until >= now && this.lingering.size < MAX_LINGERING) break;
      this.lingering.delete(caller);
    }
    this.lingering.delete(entry.caller);
    this.lingering.set(entry.caller, now + LINGER_MS);
  }

  private admit(entry: Pending): SwitchboardError | undefined {
    if (this.exitInfo !== undefined || !this.child.alive) {
      return new SwitchboardError(ErrorCode.ConnectionClosed, `server ${this.server.name} is not running`);
    }
    if (this.pending.size >= (this.options.maxPending ?? DEFAULT_MAX_PENDING)) {
      return new SwitchboardError(ErrorCode.Overloaded, `server ${this.server.name} has too many requests in flight`);
    }
    this.pending.set(entry.upstreamId, entry);
    return undefined;
  }

  private onLine(line: string, bytes: Buffer, start: number, end: number): void {
    try {
      if (line.length >= RAW_MIN_CHARS && this.forwardResultText(line, bytes, start, end)) return;
    } catch (error) {
      this.log.error({ err: error instanceof Error ? error.message : String(error) }, 'a message from the server could not be handled');
      return;
    }
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      this.log.warn({ line: excerpt(line) }, 'server printed a line that is not JSON; skipped');
      return;
    }
    try {
      if (Array.isArray(message)) {
        // 2025-03-26 allowed batches on stdio; take them apart rather than drop them.
        for (const item of message) this.dispatch(item);
      } else {
        this.dispatch(message, line);
      }
    } catch (error) {
      // Whatever a child prints, the proxy stays up; the request it concerned times out at worst.
      this.log.error({ err: error instanceof Error ? error.message : String(error) }, 'a message from the server could not be handled');
    }
  }

  /**
   * A large result for a client's request goes out as the child's own text with only the id
   * replaced: scanned, not parsed, so its payload is never copied onto the heap. False when the line
   * needs the parsing path (not a plain result, our own request, a task result to rewrite, invalid).
   */
  private forwardResultText(line: string, bytes: Buffer, start: number, end: number): boolean {
    // The splice copies the child's bytes by offsets taken from the decoded text: they match only
    // if the bytes were valid UTF-8 (a bad sequence decodes to a U+FFFD of another length). Invalid
    // ones take the parsing path, which forwards the decoded, valid text.
    if (!isUtf8(bytes.subarray(start, end))) return false;
    const spans = scanMessage(line);
    if (spans === undefined || spans.methodStart !== -1 || spans.resultStart === -1 || spans.errorStart !== -1) return false;
    if (spans.jsonrpcEnd - spans.jsonrpcStart !== 5 || !line.startsWith('"2.0"', spans.jsonrpcStart)) return false;
    const upstreamId = mintedIdAt(line, spans.idStart, spans.idEnd);
    const entry = upstreamId === -1 ? undefined : this.pending.get(upstreamId);
    // A request that may come back as input_required (resend) is read whole: the result decides.
    if (entry === undefined || entry.caller === null || entry.settle !== undefined || entry.createsTask || entry.taskId !== undefined || entry.resend !== undefined) return false;
    this.pending.delete(upstreamId);
    const toolError = spans.isErrorEnd - spans.isErrorStart === 4 && line.startsWith('true', spans.isErrorStart);
    const standIn: JsonRpcResponse = { jsonrpc: '2.0', id: entry.downstreamId, result: toolError ? TOOL_ERROR_FORWARDED_AS_TEXT : RESULT_FORWARDED_AS_TEXT };
    entry.caller.answered(entry, standIn, spliceResultBytes(this.resultBuffers, line, spans, idJson(entry.downstreamId), bytes, start, end));
    return true;
  }

  /** `line` is the message's own text when it came alone on its line (not in a batch). */
  private dispatch(message: unknown, line?: string): void {
    if (!isObject(message) || message.jsonrpc !== '2.0') {
      this.log.warn({ line: excerpt(tryStringify(message) ?? '(unprintable)') }, 'server printed JSON that is not JSON-RPC; skipped');
      return;
    }
    const method = message.method;
    if (typeof method !== 'string') {
      this.onResponse(message, line);
      return;
    }
    if (message.id === undefined) {
      if (method === 'notifications/progress') this.onProgress(message as unknown as JsonRpcNotification);
      else if (method === 'notifications/tasks/status') this.onTaskStatus(message as unknown as JsonRpcNotification);
      else this.handlers.onNotification(this, message as unknown as JsonRpcNotification);
      return;
    }
    if (method === 'ping') {
      this.notify({ jsonrpc: '2.0', id: message.id as JsonRpcId, result: {} });
      return;
    }
    this.handlers.onServerRequest(this, message as unknown as JsonRpcRequest);
  }

  private onResponse(message: JsonObject, line: string | undefined): void {
    const id = message.id;
    const entry = typeof id === 'number' ? this.pending.get(id) : undefined;
    if (entry === undefined) {
      // Late answers to timed-out or cancelled requests land here, as do a buggy child's inventions.
      this.log.debug({ id }, 'response for no pending request; dropped');
      return;
    }
    this.pending.delete(entry.upstreamId);
    if (!('result' in message) && !isObject(message.error)) {
      this.answer(entry, errorResponse(entry.downstreamId, ErrorCode.InternalError, `server ${this.server.name} sent a malformed response`));
      return;
    }
    const response = message as unknown as JsonRpcResponse;
    if (entry.settle !== undefined) {
      entry.settle(response);
      return;
    }
    if (entry.resend !== undefined && 'result' in response && isObject(response.result) && response.result.resultType === 'input_required') {
      this.handlers.onInputRequired(this, entry, response.result);
      return;
    }
    response.id = entry.downstreamId;
    let rewritten = false;
    if ('result' in response && isObject(response.result)) {
      if (entry.createsTask) rewritten = this.noteTask(entry, response.result);
      else if (entry.taskId !== undefined) rewritten = restoreTaskId(response.result, entry.taskId);
    }
    // Only the id differs from what the child wrote: splice it into the child's text rather than
    // serialize the whole result again (for a 64 KiB result, ~115 µs of stringify against ~15 µs).
    const serialized = line !== undefined && !rewritten ? spliceId(line, entry.upstreamId, entry.downstreamId) : undefined;
    entry.caller?.answered(entry, response, serialized);
  }

  private onProgress(message: JsonRpcNotification): void {
    const params = message.params;
    const token = params?.progressToken;
    const entry = typeof token === 'number' ? this.pending.get(token) : undefined;
    if (entry === undefined || entry.caller === null || entry.progressToken === undefined || params === undefined) {
      this.log.debug({ token }, 'progress for no pending request; dropped');
      return;
    }
    params.progressToken = entry.progressToken;
    entry.caller.deliver(message, entry.downstreamId);
  }

  /** A new task: the caller names it its own way, and later status notifications find it here. */
  private noteTask(entry: Pending, result: JsonObject): boolean {
    const task = result.task;
    if (!isObject(task) || typeof task.taskId !== 'string' || entry.caller === null) return false;
    const downstreamTaskId = entry.caller.taskCreated(task.taskId, this);
    if (this.taskOwners.size >= MAX_TASKS) this.taskOwners.delete(this.taskOwners.keys().next().value as string);
    this.taskOwners.set(task.taskId, { caller: entry.caller, downstreamTaskId });
    task.taskId = downstreamTaskId;
    return true;
  }

  /** Who created a task of this child, and what they call it. */
  taskOwner(childTaskId: unknown): TaskOwner | undefined {
    return typeof childTaskId === 'string' ? this.taskOwners.get(childTaskId) : undefined;
  }

  private onTaskStatus(message: JsonRpcNotification): void {
    const params = message.params;
    const owner = this.taskOwner(params?.taskId);
    if (owner === undefined || params === undefined) {
      this.log.debug({ taskId: params?.taskId }, 'status of a task nobody here created; dropped');
      return;
    }
    params.taskId = owner.downstreamTaskId;
    owner.caller.deliver(message, undefined);
  }

  /** Answers a pending request locally (timeout, child exit) the way the child would have. */
  private answer(entry: Pending, response: JsonRpcResponse): void {
    if (entry.settle !== undefined) {
      entry.settle(response);
      return;
    }
    entry.caller?.answered(entry, response);
  }

  private expire(now: number): void {
    for (const entry of this.pending.values()) {
      if (entry.deadline > now) return;
      this.pending.delete(entry.upstreamId);
      this.linger(entry);
      // The era probe going unanswered is normal for a session-era server: era.ts says so, below warn.
      if (entry.caller !== null || entry.method !== PROBE_METHOD) this.log.warn({ method: entry.method, timeoutMs: entry.timeoutMs }, 'request timed out');
      // Before the child is initialized only the probe and initialize are in flight, and nothing
      // but initialize (and ping) may reach a session-era server then (lifecycle.mdx): no cancel.
      if (this.identity !== undefined) {
        this.notify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: entry.upstreamId, reason: 'timed out' } });
      }
      this.answer(
        entry,
        errorResponse(entry.downstreamId, ErrorCode.RequestTimeout, `server ${this.server.name} did not answer ${entry.method} within ${entry.timeoutMs} ms`),
      );
    }
  }

  private onExit(exit: ChildExit): void {
    this.exitInfo = exit;
    clearInterval(this.sweeper);
    // Swap first, then fail: a caller reacting to its error cannot touch the map being drained.
    const failed = this.pending;
    this.pending = new Map();
    const how = describeExit(exit);
    for (const entry of failed.values()) {
      this.answer(entry, errorResponse(entry.downstreamId, ErrorCode.ConnectionClosed, `server ${this.server.name} ${how} while handling ${entry.method}`));
    }
    this.handlers.onExit(this, exit);
  }
}

export function describeExit(exit: ChildExit): string {
  if (exit.spawnError !== undefined) return `could not start (${exit.spawnError})`;
  if (exit.disconnected !== undefined) return `disconnected (${exit.disconnected})`;
  if (exit.signal !== null) return `was killed by ${exit.signal}`;
  return `exited with code ${exit.code ?? 'unknown'}`;
}

/** Enough of a bad line to recognize it, never the whole thing (it can be megabytes). */
function excerpt(line: string): string {
  return line.length > 200 ? `${line.slice(0, 200)}… (${line.length} chars)` : line;
}
