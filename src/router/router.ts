// A table from method to handler: local methods answered from the catalog, the rest routed to one upstream.
import type { Logger } from '../log.js';
import type { SwitchboardConfig } from '../config/types.js';
import {
  ErrorCode,
  SwitchboardError,
  errorResponse,
  idJson,
  isObject,
  resultResponse,
  type JsonObject,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
} from '../jsonrpc/messages.js';
import type { Catalog } from '../catalog/catalog.js';
import type { View } from '../catalog/view.js';
import { LOG_LEVELS, type LogLevel, type Session } from '../session/session.js';
import { methodSlot, type RequestStats } from '../session/stats.js';
import type { ClientRequest } from '../session/client-request.js';
import { SWITCHBOARD_INFO, negotiateVersion } from '../protocol.js';
import type { Upstreams } from '../upstream/upstreams.js';
import type { Subscriptions } from './subscriptions.js';
import { pageText } from './lists.js';
import { ListHolds } from './list-holds.js';
import { answerFindTools, isMetaTool, listedTools, pendingServers, unwrapCallTool } from './search-tools.js';
import { FIND_TOOLS } from '../search/meta-tools.js';
import type { RateLimiter } from '../limits/rate-limiter.js';
import type { Refusal } from '../limits/buckets.js';
import type { ToolStats } from '../session/tool-stats.js';
import type { CallLog } from '../session/call-log.js';
import { tracing } from '../telemetry/active.js';
import { startRequestTrace } from './request-trace.js';

type Handler = (session: Session, request: ClientRequest, view: View) => void;

export class Router {
  /** Set when the daemon stops: new requests are refused while in-flight ones finish. */
  draining = false;
  /** Where tool calls are logged (config `callLog`); the core replaces it on a reload. */
  callLog: CallLog | undefined;
  /** List requests waiting for the first start of a server of their view. */
  readonly holds: ListHolds;
  private readonly handlers: ReadonlyMap<string, Handler>;

  constructor(
    private readonly config: SwitchboardConfig,
    private readonly catalog: Catalog,
    private readonly upstreams: Upstreams,
    private readonly subscriptions: Subscriptions,
    private readonly log: Logger,
    private readonly stats: RequestStats,
    private readonly limiter: RateLimiter,
    private readonly toolStats: ToolStats,
  ) {
    this.holds = new ListHolds(upstreams, catalog, (session, request, error) => this.fail(session, request, error));
    this.handlers = new Map<string, Handler>([
      ['initialize', (s, r, v) => this.initialize(s, r, v)],
      ['ping', (s, r) => s.reply(r, resultResponse(r.id, {}))],
      ['tools/list', (s, r, v) => this.holds.answer(s, r, v, (view) => this.list(s, r, 'tools', listedTools(s, view)))],
      ['prompts/list', (s, r, v) => this.holds.answer(s, r, v, (view) => this.list(s, r, 'prompts', view.prompts))],
      ['resources/list', (s, r, v) => this.holds.answer(s, r, v, (view) => this.list(s, r, 'resources', view.resources))],
      ['resources/templates/list', (s, r, v) => this.holds.answer(s, r, v, (view) => this.list(s, r, 'resourceTemplates', view.resourceTemplates))],
      ['logging/setLevel', (s, r) => this.setLevel(s, r)],
      ['tools/call', (s, r, v) => this.callTool(s, r, v)],
      ['prompts/get', (s, r, v) => this.byName(s, r, v.promptRoutes, 'prompt')],
      ['resources/read', (s, r, v) => this.byUri(s, r, v)],
      ['resources/subscribe', (s, r, v) => this.subscribe(s, r, v)],
      ['resources/unsubscribe', (s, r, v) => this.unsubscribe(s, r, v)],
      ['completion/complete', (s, r, v) => this.complete(s, r, v)],
      ['tasks/get', (s, r) => this.byTask(s, r)],
      ['tasks/result', (s, r) => this.byTask(s, r)],
      ['tasks/cancel', (s, r) => this.byTask(s, r)],
    ]);
  }

  /** Handles one client request; the answer always reaches the session, now (`reply`) or later (`answered`). */
  handleRequest(session: Session, message: JsonRpcRequest): void {
    // A message read after its session ended (a legacy SSE POST whose body was still arriving when
    // the stream closed): nothing can answer it, and routing it would start an isolated server
    // instance for a session whose release already ran, a child nothing would ever stop.
    if (session.closed) return;
    session.touch();
    const slot = methodSlot(message.method);
    if (this.draining) {
      // Stopping: what is in flight may finish, nothing new starts (initialize included). Counted
      // as refused, not by its answer.
      this.stats.ended(slot, 'refused');
      session.deliver(errorResponse(message.id, ErrorCode.ConnectionClosed, 'the proxy is shutting down; retry after it restarts'), message.id);
      return;
    }
    // Counted when its answer goes out (Session.reply / Session.answered), latency from here.
    const request: ClientRequest = { id: message.id, message, slot, receivedAt: this.stats.now(), tool: undefined };
    const handler = this.handlers.get(message.method);
    if (handler === undefined) {
      this.fail(session, request, new SwitchboardError(ErrorCode.MethodNotFound, `Method not found: ${message.method}`));
      return;
    }
    if (session.inflight.has(message.id)) {
      this.fail(session, request, new SwitchboardError(ErrorCode.InvalidRequest, 'a request with this id is still in flight'));
      return;
    }
    try {
      // tools/call is limited where its tool's name is known (callTool); ping never is.
      if (this.limiter.active && message.method !== 'tools/call' && message.method !== 'ping') {
        this.withinLimits(session, request, undefined, () => handler(session, request, this.catalog.current(session.scope)));
      } else {
        handler(session, request, this.catalog.current(session.scope));
      }
    } catch (error) {
      this.fail(session, request, error);
    }
  }

  handleNotification(session: Session, notification: JsonRpcNotification): void {
    session.touch();
    switch (notification.method) {
      case 'notifications/initialized':
        session.markInitialized();
        return;
      case 'notifications/cancelled': {
        const requestId = notification.params?.requestId;
        if (typeof requestId !== 'string' && typeof requestId !== 'number') return;
        const reason = typeof notification.params?.reason === 'string' ? notification.params.reason : 'cancelled by the client';
        session.cancelled(requestId);
        const entry = session.inflight.get(requestId);
        if (entry !== undefined) {
          session.forgetRequest(requestId);
          entry.connection.cancel(entry, reason);
        } else {
          // Not sent yet: held while its server starts. Withdrawn, it never reaches the child.
          for (const handle of this.upstreams.handlesOf(session)) handle.withdraw(session, requestId);
        }
        session.abandon(requestId);
        return;
      }
      default:
        // roots/list_changed: children get roots from the config, never from a client (see child-messages.ts).
        return;
    }
  }

  /** A client's answer to a request a child sent it through us. */
  handleResponse(session: Session, response: JsonRpcResponse): void {
    session.touch();
    const id = response.id;
    const route = id === null ? undefined : session.serverRequests.get(id);
    if (route === undefined) {
      this.log.debug({ session: session.id, id }, 'client answered a request we did not send; dropped');
      return;
    }
    session.forgetServerRequest(id as string | number);
    if (route.onAnswer !== undefined) {
      route.onAnswer(response);
      return;
    }
    response.id = route.childId;
    route.connection.notify(response);
  }

  private initialize(session: Session, request: ClientRequest, view: View): void {
    const params = request.message.params ?? {};
    session.declareClient(isObject(params.capabilities) ? params.capabilities : {}, isObject(params.clientInfo) ? params.clientInfo : {}, negotiateVersion(params.protocolVersion));
    const result: JsonObject = {
      protocolVersion: session.protocolVersion,
      capabilities: this.catalog.capabilities(view),
      serverInfo: SWITCHBOARD_INFO,
    };
    const instructions = this.catalog.instructions(view);
    if (instructions !== undefined) result.instructions = instructions;
    session.reply(request, resultResponse(request.id, result));
  }

  private list(session: Session, request: ClientRequest, key: string, items: readonly JsonObject[]): void {
    const { result, text } = pageText(key, items, request.message.params?.cursor, this.config.limits.pageSize);
    const id = request.id;
    session.reply(request, resultResponse(id, result), `{"jsonrpc":"2.0","id":${idJson(id)},"result":${text}}`);
  }

  private setLevel(session: Session, request: ClientRequest): void {
    const level = request.message.params?.level;
    const rank = LOG_LEVELS.indexOf(level as LogLevel);
    if (rank < 0) throw new SwitchboardError(ErrorCode.InvalidParams, `Invalid log level: ${String(level)}`);
    session.setLogLevel(rank);
    // Children are shared, so each keeps logging at its own level and the proxy filters per session.
    session.reply(request, resultResponse(request.id, {}));
  }

  /** tools/call, and in search mode the proxy's own find_tools and call_tool. */
  private callTool(session: Session, request: ClientRequest, view: View): void {
    const name = request.message.params?.name;
    if (view.scope.policy.discovery === 'search' && isMetaTool(name)) {
      if (name === FIND_TOOLS) {
        // Answered at once from the servers that are up, naming those still starting: unlike a
        // list, a search is asked again (and the session hears list_changed when a server lists).
        const search = (): void => {
          // Listings applied since the last build are in the index before the search, not after it.
          this.catalog.refreshIndex();
          const current = this.catalog.current(session.scope);
          answerFindTools(this.catalog, session, request, current, pendingServers(current, this.upstreams));
        };
        if (this.limiter.active) this.withinLimits(session, request, undefined, search);
        else search();
        return;
      }
      unwrapCallTool(request.message);
    }
    if (!this.limiter.active) {
      this.byName(session, request, view.toolRoutes, 'tool');
      return;
    }
    const tool = request.message.params?.name;
    this.withinLimits(session, request, typeof tool === 'string' ? tool : undefined, () => this.byName(session, request, view.toolRoutes, 'tool'));
  }

  /**
   * Runs `go` when the request is within its rate limits (identity, profile, and `tool`'s globs),
   * else answers it with the limit and when to retry. With Redis the verdict arrives later.
   */
  private withinLimits(session: Session, request: ClientRequest, tool: string | undefined, go: () => void): void {
    const verdict = this.limiter.take(session.principal, session.profile, tool);
    if (verdict === undefined) {
      go();
      return;
    }
    if (!(verdict instanceof Promise)) {
      this.refuse(session, request, verdict);
      return;
    }
    verdict.then(
      (later) => {
        if (session.closed) return;
        if (later !== undefined) {
          this.refuse(session, request, later);
          return;
        }
        try {
          go();
        } catch (error) {
          this.fail(session, request, error);
        }
      },
      (error: unknown) => this.fail(session, request, error),
    );
  }

  private refuse(session: Session, request: ClientRequest, refusal: Refusal): void {
    const seconds = Math.max(1, Math.ceil(refusal.retryAfterMs / 1000));
    const message = refusal.unavailable === true
      ? `rate limits cannot be checked (${refusal.limit} is unreachable); retry in ${seconds} s`
      : `rate limit reached (${refusal.limit}); retry in ${seconds} s`;
    this.log.debug({ session: session.id, identity: session.principal, limit: refusal.limit, method: request.message.method }, 'request refused by a rate limit');
    session.reply(request, errorResponse(request.id, ErrorCode.RateLimited, message, { limit: refusal.limit, retryAfterSeconds: seconds }));
  }

  private byName(session: Session, request: ClientRequest, routes: View['toolRoutes'], what: 'tool' | 'prompt'): void {
    const params = request.message.params;
    const name = params?.name;
    const route = typeof name === 'string' ? routes.get(name) : undefined;
    if (route === undefined || params === undefined) {
      // Same error for a name outside the view as for one that exists nowhere (SPEC: unknown to that session).
      throw new SwitchboardError(ErrorCode.InvalidParams, `Unknown ${what}: ${typeof name === 'string' ? name : '(missing name)'}`);
    }
    params.name = route.original;
    if (what === 'tool') {
      const series = this.toolStats.series(route.server, route.original);
      request.tool = this.callLog === undefined ? series : this.callLog.call(series, session, name as string, route.server, request.message);
    }
    this.forward(session, request, route.server);
  }

  private byUri(session: Session, request: ClientRequest, view: View): void {
    this.forward(session, request, this.ownerOf(view, request.message.params?.uri));
  }

  private subscribe(session: Session, request: ClientRequest, view: View): void {
    const uri = request.message.params?.uri as string;
    const handle = this.upstreams.handleFor(this.ownerOf(view, uri), session);
    if (handle === undefined) throw new SwitchboardError(ErrorCode.ResourceNotFound, 'Resource not found', { uri });
    if (this.subscriptions.has(handle, uri, session)) {
      session.reply(request, resultResponse(request.id, {}));
      return;
    }
    if (this.subscriptions.add(handle, uri, session)) this.forwardTo(session, request, handle);
    else session.reply(request, resultResponse(request.id, {}));
  }

  private unsubscribe(session: Session, request: ClientRequest, view: View): void {
    const uri = request.message.params?.uri as string;
    const handle = this.upstreams.handleFor(this.ownerOf(view, uri), session);
    if (handle !== undefined && this.subscriptions.remove(handle, uri, session)) this.forwardTo(session, request, handle);
    else session.reply(request, resultResponse(request.id, {}));
  }

  private complete(session: Session, request: ClientRequest, view: View): void {
    const ref = request.message.params?.ref;
    if (!isObject(ref)) throw new SwitchboardError(ErrorCode.InvalidParams, 'completion/complete needs a ref');
    if (ref.type === 'ref/prompt') {
      const route = typeof ref.name === 'string' ? view.promptRoutes.get(ref.name) : undefined;
      if (route === undefined) throw new SwitchboardError(ErrorCode.InvalidParams, `Unknown prompt: ${String(ref.name)}`);
      ref.name = route.original;
      this.forward(session, request, route.server);
      return;
    }
    if (ref.type === 'ref/resource') {
      this.forward(session, request, this.ownerOf(view, ref.uri));
      return;
    }
    throw new SwitchboardError(ErrorCode.InvalidParams, `Unknown completion ref type: ${String(ref.type)}`);
  }

  /** tasks/get, tasks/result, tasks/cancel go to the child that created the task, for its creator only. */
  private byTask(session: Session, request: ClientRequest): void {
    const params = request.message.params;
    const taskId = params?.taskId;
    const task = typeof taskId === 'string' ? session.tasks.get(taskId) : undefined;
    if (task === undefined || params === undefined) throw new SwitchboardError(ErrorCode.InvalidParams, `Unknown task: ${String(taskId)}`);
    params.taskId = task.childTaskId;
    session.sent(request, task.connection.forward(session, request.message, taskId as string));
  }

  private ownerOf(view: View, uri: unknown): string {
    if (typeof uri !== 'string' || uri === '') throw new SwitchboardError(ErrorCode.InvalidParams, 'uri must be a non-empty string');
    const owner = this.catalog.resourceOwner(view, uri);
    if (owner !== undefined) return owner;
    // Withheld means unreadable, as a withheld tool is uncallable: its server would answer with
    // what the sanitizer kept from the list. Said plainly, so nobody takes it for a server bug.
    if (this.catalog.withheldResource(view, uri)) {
      throw new SwitchboardError(ErrorCode.ResourceNotFound, 'Resource withheld by the proxy\'s sanitizer (its definition was blocked or changed since approval)', { uri });
    }
    throw new SwitchboardError(ErrorCode.ResourceNotFound, 'Resource not found', { uri });
  }

  private forward(session: Session, request: ClientRequest, server: string): void {
    const handle = this.upstreams.handleFor(server, session);
    if (handle === undefined) throw new SwitchboardError(ErrorCode.ConnectionClosed, `server ${server} is not configured`);
    this.forwardTo(session, request, handle);
  }

  private forwardTo(session: Session, request: ClientRequest, handle: NonNullable<ReturnType<Upstreams['handleFor']>>): void {
    const trace = tracing === undefined ? undefined : startRequestTrace(tracing, session, request, handle.name);
    const outcome = handle.forward(session, request.message);
    if (outcome === 'held') session.hold(request);
    else {
      if (trace !== undefined && !('upstreamId' in outcome)) trace.end(String(outcome.code));
      session.sent(request, outcome);
    }
  }

  private fail(session: Session, request: ClientRequest, error: unknown): void {
    const id = request.id;
    if (error instanceof SwitchboardError) {
      session.reply(request, errorResponse(id, error.code, error.message, error.data));
      return;
    }
    this.log.error({ err: error instanceof Error ? error.message : String(error), method: request.message.method }, 'request handler failed');
    session.reply(request, errorResponse(id, ErrorCode.InternalError, 'Internal error'));
  }
}
