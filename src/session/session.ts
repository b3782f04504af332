// Everything the proxy keeps per client session; the transport underneath is seen only as a channel.
import { SwitchboardError, errorResponse, type JsonObject, type JsonRpcId, type JsonRpcMessage } from '../jsonrpc/messages.js';
import type { ViewScope } from '../catalog/catalog.js';
import type { Pending, UpstreamConnection } from '../upstream/connection.js';
import type { ServerHandle } from '../upstream/server-handle.js';
import type { Caller } from '../upstream/types.js';

/** How a transport carries messages to one client. */
export interface SessionChannel {
  /** `relatedTo`: the client request this message belongs to; a response also ends that request's stream. */
  deliver(message: JsonRpcMessage, relatedTo: JsonRpcId | undefined, serialized?: string): void;
  /** The client cancelled a request: end the stream its answer would have used, without an answer. */
  abandon(requestId: JsonRpcId): void;
  /** The session ended on our side (DELETE, expiry, shutdown): answer what is open, release streams and sockets. */
  close(reason: string): void;
}

export type TransportKind = 'streamable-http' | 'sse' | 'websocket';

/** RFC 5424 severities in MCP's order (server/utilities/logging.mdx), index = rank. */
export const LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** A request of the child's that waits for this client's answer. */
export interface ServerRequestRoute {
  readonly connection: UpstreamConnection;
  readonly childId: JsonRpcId;
}

/** What a session was granted when it opened: its view, whose it is, and the URL query that narrowed it. */
export interface SessionGrant {
  readonly scope: ViewScope;
  /** Who opened it (a token's name, or `anonymous`): only the same identity may use the session id. */
  readonly principal: string;
  /** The endpoint URL's query string (`tools=fs__*`), kept so a reload can re-resolve the view. */
  readonly query: string;
}

/** Tasks a session can follow at once, tasks; the oldest is forgotten first. */
const MAX_TASKS_PER_SESSION = 1_000;

export class Session implements Caller {
  readonly key: string;
  /** The view; replaced only when a reload changes what this session's identity may see. */
  scope: ViewScope;
  readonly principal: string;
  readonly query: string;
  protocolVersion: string;
  clientCapabilities: JsonObject = {};
  clientInfo: JsonObject = {};
  initialized = false;
  /** Lowest level this client wants; undefined = it never asked, so it gets what servers send. */
  logLevel: number | undefined;
  lastActivity = Date.now();
  closed = false;
  /** Client request id -> the request forwarded for it; for cancellation and cleanup. */
  readonly inflight = new Map<JsonRpcId, Pending>();
  /** Id we gave a child's request -> where its answer goes. */
  readonly serverRequests = new Map<JsonRpcId, ServerRequestRoute>();
  /** `server\0uri` of every resource this client subscribed to. */
  readonly subscriptions = new Set<string>();
  /** The id this client knows a task by -> the child running it and the child's id (tasks.mdx). */
  readonly tasks = new Map<string, { readonly connection: UpstreamConnection; readonly childTaskId: string }>();
  /** This session's own instances of servers configured with `isolation: "session"`. */
  readonly isolated = new Map<string, ServerHandle>();
  private nextServerRequestId = 1;

  constructor(
    readonly id: string,
    readonly transport: TransportKind,
    grant: SessionGrant,
    private readonly channel: SessionChannel,
    protocolVersion: string,
  ) {
    this.key = id;
    this.scope = grant.scope;
    this.principal = grant.principal;
    this.query = grant.query;
    this.protocolVersion = protocolVersion;
  }

  deliver(message: JsonRpcMessage, relatedTo: JsonRpcId | undefined, serialized?: string): void {
    if (!this.closed) this.channel.deliver(message, relatedTo, serialized);
  }

  settled(downstreamId: JsonRpcId): void {
    this.inflight.delete(downstreamId);
  }

  forwarded(downstreamId: JsonRpcId, outcome: Pending | SwitchboardError): void {
    if (outcome instanceof SwitchboardError) this.deliver(errorResponse(downstreamId, outcome.code, outcome.message, outcome.data), downstreamId);
    else if (this.closed) outcome.connection.cancel(outcome, 'session closed');
    else this.inflight.set(downstreamId, outcome);
  }

  taskCreated(childTaskId: string, connection: UpstreamConnection): string {
    const taskId = `${connection.tag}.${childTaskId}`;
    if (this.tasks.size >= MAX_TASKS_PER_SESSION) this.tasks.delete(this.tasks.keys().next().value as string);
    this.tasks.set(taskId, { connection, childTaskId });
    return taskId;
  }

  /** A fresh id for a request we send this client on a child's behalf; never reused in the session. */
  mintServerRequestId(): number {
    return this.nextServerRequestId++;
  }

  /** The client cancelled `requestId`; its stream closes with no answer. */
  abandon(requestId: JsonRpcId): void {
    this.channel.abandon(requestId);
  }

  touch(): void {
    this.lastActivity = Date.now();
  }

  /** Closes the channel; the caller (the registry) has already released upstream state. */
  closeChannel(reason: string): void {
    if (this.closed) return;
    this.closed = true;
    this.channel.close(reason);
  }
}
