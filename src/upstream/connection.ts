// One MCP client over one child's stdio: the handshake, the pending map, id minting, timeouts.
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
} from '../jsonrpc/messages.js';
import { ChildProcess, type ChildExit, type ShutdownTimings } from './child.js';
import type { Caller, ServerIdentity } from './types.js';
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS, SWITCHBOARD_INFO } from '../protocol.js';

/** A request we sent to the child and still owe an answer for. */
export interface Pending {
  readonly upstreamId: number;
  readonly method: string;
  /** ms since epoch after which the request is answered with a timeout error. */
  readonly deadline: number;
  /** The client session, or null for the proxy's own requests (initialize, lists). */
  readonly caller: Caller | null;
  readonly downstreamId: JsonRpcId;
  /** The caller's progress token, restored on every progress notification. */
  readonly progressToken: string | number | undefined;
  readonly connection: UpstreamConnection;
  /** Completion of the proxy's own requests. */
  readonly settle: ((response: JsonRpcResponse) => void) | undefined;
  /** A task-augmented request (tasks.mdx): its result names a task the caller may poll later. */
  readonly createsTask: boolean;
}

export interface ConnectionHandlers {
  /** A notification other than progress (which is routed here), ids untouched. */
  onNotification(connection: UpstreamConnection, message: JsonRpcNotification): void;
  /** A server-to-client request (sampling, elicitation, roots/list) other than ping. */
  onServerRequest(connection: UpstreamConnection, message: JsonRpcRequest): void;
  onExit(connection: UpstreamConnection, exit: ChildExit): void;
}

export interface ConnectionOptions {
  readonly maxLineBytes: number;
  readonly shutdown?: ShutdownTimings;
  /** Most requests waiting for this child at once; beyond it requests are refused, not queued. */
  readonly maxPending?: number;
}

/** Requests in flight towards one child; a child that stops answering cannot grow this without bound. */
const DEFAULT_MAX_PENDING = 10_000;

/** The capabilities we offer each child: servers such as server-everything only list some tools when they see these. */
const CLIENT_CAPABILITIES = { sampling: {}, elicitation: {}, roots: { listChanged: false } };

export class UpstreamConnection {
  private readonly child: ChildProcess;
  private pending = new Map<number, Pending>();
  private nextId = 1;
  private readonly sweeper: NodeJS.Timeout;
  private exitInfo: ChildExit | undefined;
  identity: ServerIdentity | undefined;

  constructor(
    readonly server: ServerConfig,
    private readonly log: Logger,
    private readonly handlers: ConnectionHandlers,
    private readonly options: ConnectionOptions,
  ) {
    this.child = new ChildProcess(server, log, options.maxLineBytes, {
      onLine: (line) => this.onLine(line),
      onExit: (exit) => this.onExit(exit),
    }, options.shutdown);
    // Every request to this child has the same timeout, so the pending map's insertion order is
    // deadline order and one sweep from the front replaces a timer per request.
    const sweepEvery = Math.min(1000, Math.max(10, Math.floor(server.timeoutMs / 20)));
    this.sweeper = setInterval(() => this.expire(Date.now()), sweepEvery);
    this.sweeper.unref();
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get alive(): boolean {
    return this.exitInfo === undefined;
  }

  get pendingCount(): number {
    return this.pending.size;
  }

  /** Runs the handshake: initialize, then notifications/initialized. Rejects if the child fails it. */
  async initialize(): Promise<ServerIdentity> {
    const result = await this.request('initialize', {
      protocolVersion: LATEST_PROTOCOL_VERSION,
      capabilities: CLIENT_CAPABILITIES,
      clientInfo: SWITCHBOARD_INFO,
    });
    const version = typeof result.protocolVersion === 'string' ? result.protocolVersion : '';
    if (!SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
      throw new SwitchboardError(ErrorCode.InternalError, `server ${this.server.name} answered initialize with unsupported protocol version "${version}"`);
    }
    this.identity = {
      protocolVersion: version,
      capabilities: isObject(result.capabilities) ? result.capabilities : {},
      serverInfo: isObject(result.serverInfo) ? result.serverInfo : {},
      instructions: typeof result.instructions === 'string' ? result.instructions : undefined,
    };
    this.notify({ jsonrpc: '2.0', method: 'notifications/initialized' });
    return this.identity;
  }

  /** The proxy's own request; resolves with the result or rejects with a SwitchboardError. */
  request(method: string, params: JsonObject): Promise<JsonObject> {
    return new Promise((resolve, reject) => {
      const upstreamId = this.nextId++;
      const entry: Pending = {
        upstreamId,
        method,
        deadline: Date.now() + this.server.timeoutMs,
        caller: null,
        downstreamId: upstreamId,
        progressToken: undefined,
        connection: this,
        settle: (response) => {
          if ('error' in response) reject(new SwitchboardError(response.error.code, response.error.message, response.error.data));
          else resolve(response.result);
        },
        createsTask: false,
      };
      const refusal = this.admit(entry);
      if (refusal !== undefined) return reject(refusal);
      this.child.write(JSON.stringify({ jsonrpc: '2.0', id: upstreamId, method, params }) + '\n');
    });
  }

  /**
   * Sends a client's request on with a fresh id (and progress token), remembering whom to answer.
   * Mutates `request`: it was parsed for this call alone. Returns the pending entry, or the error to answer with.
   */
  forward(caller: Caller, request: JsonRpcRequest): Pending | SwitchboardError {
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
      caller,
      downstreamId: request.id,
      progressToken,
      connection: this,
      settle: undefined,
      createsTask: request.params?.task !== undefined,
    };
    const refusal = this.admit(entry);
    if (refusal !== undefined) return refusal;
    request.id = upstreamId;
    if (!this.child.write(JSON.stringify(request) + '\n')) {
      this.pending.delete(upstreamId);
      return new SwitchboardError(ErrorCode.Overloaded, `server ${this.server.name} is not reading its input`);
    }
    return entry;
  }

  /** The caller gave up (notifications/cancelled, session closed): tell the child and forget the request. */
  cancel(entry: Pending, reason: string): void {
    if (this.pending.get(entry.upstreamId) !== entry) return;
    this.pending.delete(entry.upstreamId);
    this.notify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: entry.upstreamId, reason } });
  }

  /** Sends a notification or a response (to a child's own request) as is. */
  notify(message: JsonRpcMessage): boolean {
    return this.child.write(JSON.stringify(message) + '\n');
  }

  /** Distinct callers with a request in flight here, oldest first; used to attribute a child's requests. */
  callersInFlight(): Pending[] {
    const seen = new Set<Caller>();
    const firsts: Pending[] = [];
    for (const entry of this.pending.values()) {
      if (entry.caller !== null && !seen.has(entry.caller)) {
        seen.add(entry.caller);
        firsts.push(entry);
      }
    }
    return firsts;
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

  private onLine(line: string): void {
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      this.log.warn({ line: excerpt(line) }, 'server printed a line that is not JSON; skipped');
      return;
    }
    if (Array.isArray(message)) {
      // 2025-03-26 allowed batches on stdio; take them apart rather than drop them.
      for (const item of message) this.dispatch(item);
      return;
    }
    this.dispatch(message);
  }

  private dispatch(message: unknown): void {
    if (!isObject(message) || message.jsonrpc !== '2.0') {
      this.log.warn({ line: excerpt(JSON.stringify(message)) }, 'server printed JSON that is not JSON-RPC; skipped');
      return;
    }
    const method = message.method;
    if (typeof method !== 'string') {
      this.onResponse(message);
      return;
    }
    if (message.id === undefined) {
      if (method === 'notifications/progress') this.onProgress(message as unknown as JsonRpcNotification);
      else this.handlers.onNotification(this, message as unknown as JsonRpcNotification);
      return;
    }
    if (method === 'ping') {
      this.notify({ jsonrpc: '2.0', id: message.id as JsonRpcId, result: {} });
      return;
    }
    this.handlers.onServerRequest(this, message as unknown as JsonRpcRequest);
  }

  private onResponse(message: JsonObject): void {
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
    response.id = entry.downstreamId;
    if (entry.createsTask && 'result' in response) this.noteTask(entry, response.result);
    entry.caller?.settled(entry.downstreamId);
    entry.caller?.deliver(response, entry.downstreamId);
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

  private noteTask(entry: Pending, result: JsonObject): void {
    const task = result.task;
    if (isObject(task) && typeof task.taskId === 'string') entry.caller?.taskCreated(task.taskId, this);
  }

  /** Answers a pending request locally (timeout, child exit) the way the child would have. */
  private answer(entry: Pending, response: JsonRpcResponse): void {
    if (entry.settle !== undefined) {
      entry.settle(response);
      return;
    }
    entry.caller?.settled(entry.downstreamId);
    entry.caller?.deliver(response, entry.downstreamId);
  }

  private expire(now: number): void {
    for (const entry of this.pending.values()) {
      if (entry.deadline > now) return;
      this.pending.delete(entry.upstreamId);
      this.log.warn({ method: entry.method, timeoutMs: this.server.timeoutMs }, 'request timed out');
      if (entry.method !== 'initialize') {
        this.notify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: entry.upstreamId, reason: 'timed out' } });
      }
      this.answer(
        entry,
        errorResponse(entry.downstreamId, ErrorCode.RequestTimeout, `server ${this.server.name} did not answer ${entry.method} within ${this.server.timeoutMs} ms`),
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
  if (exit.signal !== null) return `was killed by ${exit.signal}`;
  return `exited with code ${exit.code ?? 'unknown'}`;
}

/** Enough of a bad line to recognize it, never the whole thing (it can be megabytes). */
function excerpt(line: string): string {
  return line.length > 200 ? `${line.slice(0, 200)}… (${line.length} chars)` : line;
}
