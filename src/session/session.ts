// Everything the proxy keeps per client session; the transport underneath is seen only as a channel.
import { SwitchboardError, errorResponse, type JsonObject, type JsonRpcId, type JsonRpcMessage, type JsonRpcResponse } from '../jsonrpc/messages.js';
import type { Serialized } from '../wire/result-bytes.js';
import type { ViewScope } from '../catalog/view.js';
import type { Pending, UpstreamConnection } from '../upstream/connection.js';
import type { ServerHandle } from '../upstream/server-handle.js';
import type { Caller } from '../upstream/types.js';
import { methodSlot, type RequestStats } from './stats.js';
import { FoundTools } from './found-tools.js';
import type { ClientRequest } from './client-request.js';
import type { SessionChannel, SessionGrant, TransportKind } from './opening.js';

/** RFC 5424 severities in MCP's order (server/utilities/logging.mdx), index = rank. */
export const LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** A request of the child's that waits for this client's answer. */
export interface ServerRequestRoute {
  readonly connection: UpstreamConnection;
  readonly childId: JsonRpcId;
  /**
   * Set when the proxy asked on a stateless-era child's behalf (its input_required): the answer,
   * or an error when none will come, goes here instead of to the child, which asked no request.
   */
  readonly onAnswer?: (response: JsonRpcResponse) => void;
}

interface TaskRoute {
  readonly connection: UpstreamConnection;
  readonly childTaskId: string;
}

const EMPTY_MAP: ReadonlyMap<never, never> = new Map<never, never>();
const EMPTY_SET: ReadonlySet<never> = new Set<never>();
/**
 * What a client that declared nothing (yet) declared: one shared, frozen object rather than two
 * new ones per session, since every stateless request is a session of its own. The fields are
 * only ever replaced, never written into.
 */
export const DECLARED_NOTHING: Readonly<JsonObject> = Object.freeze({});

/** Tasks a session can follow at once, tasks; the oldest is forgotten first. */
const MAX_TASKS_PER_SESSION = 1_000;

export class Session implements Caller {
  readonly key: string;
  // Written only by the session's own methods; the rest of the proxy reads them through the getters below.
  private grantedScope: ViewScope;
  readonly principal: string;
  readonly query: string;
  /** SessionGrant.profile. */
  readonly profile: string | undefined;
  // What the client declared and asked for: written only through declareClient, markInitialized
  // and setLogLevel, by whoever reads its handshake (the router) or its envelope (the stateless era).
  private declaredVersion: string;
  private declaredCapabilities: Readonly<JsonObject> = DECLARED_NOTHING;
  private declaredInfo: Readonly<JsonObject> = DECLARED_NOTHING;
  private isInitialized = false;
  private wantedLogLevel: number | undefined;
  private lastActiveAt = Date.now();
  private isClosed = false;
  private slotAmongStateless = -1;
  /** Client request id -> the request forwarded for it; for cancellation and cleanup. */
  private readonly requests = new Map<JsonRpcId, Pending>();
  // The rest is made on first use: most sessions (every stateless request is one) never need it.
  /** Id we gave a child's request -> where its answer goes. */
  private childRequests: Map<JsonRpcId, ServerRequestRoute> | undefined;
  /** `server\0uri` of every resource this client subscribed to. */
  private subscribed: Set<string> | undefined;
  /** The id this client knows a task by -> the child running it and the child's id (tasks.mdx). */
  private taskRoutes: Map<string, TaskRoute> | undefined;
  /** This session's own instances of servers configured with `isolation: "session"`. */
  private instances: Map<string, ServerHandle> | undefined;
  private foundTools: FoundTools | undefined;
  private nextServerRequestId = 1;
  /** Requests held while their server starts, by the client's id; created on first use (servers are mostly up). */
  private held: Map<JsonRpcId, ClientRequest> | undefined;

  /** The view; replaced only when a reload changes what this session's identity may see (`replaceScope`). */
  get scope(): ViewScope {
    return this.grantedScope;
  }
  /** When the client last sent something (`touch`), ms since the epoch: idle expiry and eviction read it. */
  get lastActivity(): number {
    return this.lastActiveAt;
  }
  /** The channel is closed (`closeChannel`): nothing more is delivered. */
  get closed(): boolean {
    return this.isClosed;
  }
  /** Where the registry keeps this session among the stateless ones; -1 when it is not one of them. */
  /** One stateless request's session (2026-07-28), not a session a client opened. */
  get stateless(): boolean {
    return this.transport === 'stateless';
  }
  get statelessSlot(): number {
    return this.slotAmongStateless;
  }

  get protocolVersion(): string {
    return this.declaredVersion;
  }
  get clientCapabilities(): Readonly<JsonObject> {
    return this.declaredCapabilities;
  }
  get clientInfo(): Readonly<JsonObject> {
    return this.declaredInfo;
  }
  /** The client sent notifications/initialized (or, in the stateless era, opened a listen). */
  get initialized(): boolean {
    return this.isInitialized;
  }
  /** Lowest level this client wants; undefined = it never asked, so it gets what servers send. */
  get logLevel(): number | undefined {
    return this.wantedLogLevel;
  }

  /** What the client declared: at initialize, or in a stateless request's envelope (the version then stays as created). */
  declareClient(capabilities: Readonly<JsonObject>, clientInfo: Readonly<JsonObject>, protocolVersion?: string): void {
    this.declaredCapabilities = capabilities;
    this.declaredInfo = clientInfo;
    if (protocolVersion !== undefined) this.declaredVersion = protocolVersion;
  }

  markInitialized(): void {
    this.isInitialized = true;
  }

  setLogLevel(rank: number | undefined): void {
    this.wantedLogLevel = rank;
  }

  /**
   * A reload changed what this session's identity may see: the session now serves `scope`. Only the
   * registry calls it, since it indexes sessions by their scope's key (`SessionRegistry.rescope`).
   */
  replaceScope(scope: ViewScope): void {
    this.grantedScope = scope;
  }

  /**
   * The registry keeps stateless sessions in an array and moves the last one into a freed slot; the
   * session remembers its index so leaving costs no search. The registry's bookkeeping alone.
   */
  takeStatelessSlot(slot: number): void {
    this.slotAmongStateless = slot;
  }

  /** The registry let go of this stateless session (it closed): it is in no slot any more. */
  leaveStatelessSlot(): void {
    this.slotAmongStateless = -1;
  }

  /** Search mode: tools this session found, listed after the search tools. */
  get found(): FoundTools {
    return (this.foundTools ??= new FoundTools());
  }

  /** Only stateless requests take a child's input_required as it is (see Caller). */
  get acceptsInputRequired(): boolean {
    return this.stateless;
  }

  /** Requests forwarded for this client and not answered yet, by the client's id. */
  get inflight(): ReadonlyMap<JsonRpcId, Pending> {
    return this.requests;
  }

  /** A forwarded request ended without an answer going through `answered` (the client cancelled it). */
  forgetRequest(id: JsonRpcId): void {
    this.requests.delete(id);
  }

  /** The session closed: every forwarded request is given up upstream (counted by `closingWithOpenRequests`). */
  cancelRequests(reason: string): void {
    for (const entry of this.requests.values()) entry.connection.cancel(entry, reason);
    this.requests.clear();
  }

  /** Children's requests sent to this client, by the id we gave them. */
  get serverRequests(): ReadonlyMap<JsonRpcId, ServerRequestRoute> {
    return this.childRequests ?? EMPTY_MAP;
  }

  routeServerRequest(id: JsonRpcId, route: ServerRequestRoute): void {
    (this.childRequests ??= new Map()).set(id, route);
  }

  forgetServerRequest(id: JsonRpcId): void {
    this.childRequests?.delete(id);
  }

  forgetServerRequests(): void {
    this.childRequests?.clear();
  }

  /** Resources this client subscribed to, as `server\0uri`. */
  get subscriptions(): ReadonlySet<string> {
    return this.subscribed ?? EMPTY_SET;
  }

  subscribe(server: string, uri: string): void {
    (this.subscribed ??= new Set()).add(`${server}\0${uri}`);
  }

  unsubscribe(server: string, uri: string): void {
    this.subscribed?.delete(`${server}\0${uri}`);
  }

  unsubscribeAll(): void {
    this.subscribed?.clear();
  }

  /** Tasks this client follows, by the id it knows them by. */
  get tasks(): ReadonlyMap<string, TaskRoute> {
    return this.taskRoutes ?? EMPTY_MAP;
  }

  /** A connection is gone: the tasks it ran cannot be followed any more. */
  forgetTasksOn(connection: UpstreamConnection): void {
    const routes = this.taskRoutes;
    if (routes === undefined) return;
    for (const [taskId, task] of routes) if (task.connection === connection) routes.delete(taskId);
  }

  /** This session's own instances of `isolation: "session"` servers, by server. */
  get isolated(): ReadonlyMap<string, ServerHandle> {
    return this.instances ?? EMPTY_MAP;
  }

  ownInstance(server: string, handle: ServerHandle): void {
    (this.instances ??= new Map()).set(server, handle);
  }

  dropInstance(server: string): void {
    this.instances?.delete(server);
  }

  dropInstances(): void {
    this.instances?.clear();
  }

  constructor(
    readonly id: string,
    readonly transport: TransportKind,
    grant: SessionGrant,
    private readonly channel: SessionChannel,
    protocolVersion: string,
    private readonly stats: RequestStats,
  ) {
    this.key = id;
    this.grantedScope = grant.scope;
    this.principal = grant.principal;
    this.query = grant.query;
    this.profile = grant.profile;
    this.declaredVersion = protocolVersion;
  }

  /** Messages from children and the proxy's notifications; requests are answered through `reply` (counted), not here. */
  deliver(message: JsonRpcMessage, relatedTo: JsonRpcId | undefined, serialized?: Serialized): void {
    if (!this.isClosed) this.channel.deliver(message, relatedTo, serialized);
  }

  /** Answers `request` (a result or an error): counted, and its stream ends with it. */
  reply(request: ClientRequest, response: JsonRpcResponse, serialized?: Serialized): void {
    this.stats.answered(request.slot, response, request.receivedAt);
    request.tool?.record(response, this.stats.now() - request.receivedAt);
    if (!this.isClosed) this.channel.deliver(response, request.id, serialized);
  }

  answered(entry: Pending, response: JsonRpcResponse, serialized?: Serialized): void {
    this.requests.delete(entry.downstreamId);
    this.stats.answered(methodSlot(entry.method), response, entry.receivedAt);
    entry.tool?.record(response, this.stats.now() - entry.receivedAt);
    if (!this.isClosed) this.channel.deliver(response, entry.downstreamId, serialized);
  }

  /** `request` was sent to a child (a pending entry that `answered` completes) or refused on the way (an error to answer with). */
  sent(request: ClientRequest, outcome: Pending | SwitchboardError): void {
    if (outcome instanceof SwitchboardError) {
      this.reply(request, errorResponse(request.id, outcome.code, outcome.message, outcome.data));
      return;
    }
    outcome.receivedAt = request.receivedAt;
    outcome.tool = request.tool;
    if (this.isClosed) {
      outcome.connection.cancel(outcome, 'session closed');
      this.stats.ended(request.slot, 'cancelled');
    } else this.requests.set(request.id, outcome);
  }

  /** Requests held here while their server starts. */
  get holdingCount(): number {
    return this.held?.size ?? 0;
  }

  /**
   * `request` waits: for its server to start (the server sends it on later and tells `forwarded`), or
   * a list for the first start of a server of the view (answered later after `unhold`).
   */
  hold(request: ClientRequest): void {
    (this.held ??= new Map()).set(request.id, request);
  }

  /** A request held by the proxy itself is to be answered now: false when it is no longer held (cancelled, session closed). */
  unhold(downstreamId: JsonRpcId): boolean {
    return this.held?.delete(downstreamId) === true;
  }

  forwarded(downstreamId: JsonRpcId, outcome: Pending | SwitchboardError): void {
    const request = this.held?.get(downstreamId);
    if (request === undefined) {
      // Not held here (cancelled while its server started): nothing waits for an answer.
      if (!(outcome instanceof SwitchboardError)) outcome.connection.cancel(outcome, 'request withdrawn');
      return;
    }
    this.held?.delete(downstreamId);
    this.sent(request, outcome);
  }

  /**
   * The client cancelled this request: no answer will go out, so it is counted as cancelled. Only
   * counts; whoever cancels drops it from `inflight` and upstream.
   */
  cancelled(downstreamId: JsonRpcId): void {
    const entry = this.inflight.get(downstreamId);
    if (entry !== undefined) {
      this.stats.ended(methodSlot(entry.method), 'cancelled');
      return;
    }
    const request = this.held?.get(downstreamId);
    if (request !== undefined) {
      this.held?.delete(downstreamId);
      this.stats.ended(request.slot, 'cancelled');
    }
  }

  /** The session is closing: every request still open (in flight or held) ends without an answer. */
  closingWithOpenRequests(): void {
    for (const entry of this.inflight.values()) this.stats.ended(methodSlot(entry.method), 'cancelled');
    if (this.held === undefined) return;
    for (const request of this.held.values()) this.stats.ended(request.slot, 'cancelled');
    this.held.clear();
  }

  taskCreated(childTaskId: string, connection: UpstreamConnection): string {
    const taskId = `${connection.tag}.${childTaskId}`;
    const routes = (this.taskRoutes ??= new Map());
    if (routes.size >= MAX_TASKS_PER_SESSION) routes.delete(routes.keys().next().value as string);
    routes.set(taskId, { connection, childTaskId });
    return taskId;
  }

  /** A fresh id for a request we send this client on a child's behalf; never reused in the session. */
  mintServerRequestId(): number {
    return this.nextServerRequestId++;
  }

  /** A server asked this client for something it did not declare it can do (see SessionChannel). */
  missingCapability(capability: string): void {
    this.channel.missingCapability?.(capability);
  }

  /** The client cancelled `requestId`; its stream closes with no answer. */
  abandon(requestId: JsonRpcId): void {
    this.channel.abandon(requestId);
  }

  /** The client sent something: the session is not idle. */
  touch(): void {
    this.lastActiveAt = Date.now();
  }

  /** Closes the channel; the caller (the registry) has already released upstream state. */
  closeChannel(reason: string): void {
    if (this.isClosed) return;
    this.isClosed = true;
    this.channel.close(reason);
  }
}
