// The composed proxy core without sockets: catalog, upstreams, router and sessions wired together.
import type { Logger } from './log.js';
import type { SwitchboardConfig } from './config/types.js';
import type { Classified, JsonRpcRequest } from './jsonrpc/messages.js';
import { Catalog } from './catalog/catalog.js';
import type { ViewScope } from './catalog/view.js';
import type { CatalogReview } from './catalog/review.js';
import { FindingsFeed } from './catalog/findings-feed.js';
import { diffConfigs, type ConfigDiff } from './config/reload-diff.js';
import type { ShutdownTimings } from './upstream/child.js';
import type { TransportOpener } from './upstream/child-transport.js';
import type { ServerHandle } from './upstream/server-handle.js';
import { SessionRegistry, type SessionRefusal } from './session/registry.js';
import { RequestStats } from './session/stats.js';
import { RateLimiter } from './limits/rate-limiter.js';
import { ToolStats } from './session/tool-stats.js';
import { CallLog } from './session/call-log.js';
import { isDeepStrictEqual } from 'node:util';
import { rateLimitsOf } from './config/rate-limits.js';
import type { Session } from './session/session.js';
import type { SessionChannel, SessionGrant, TransportKind } from './session/opening.js';
import { Router } from './router/router.js';
import { Upstreams } from './upstream/upstreams.js';
import { Subscriptions } from './router/subscriptions.js';
import { ChildMessages } from './router/child-messages.js';
import type { StatelessCalls } from './stateless/calls.js';
import { StatelessDoor } from './stateless/core-door.js';
import { ListChanges } from './router/list-changes.js';
import type { StatelessContext, ReplyStream } from './stateless/context.js';

export interface CoreOptions {
  readonly shutdown?: ShutdownTimings;
  /** The sanitizer over the catalog (createSwitchboard opens it); without it lists are shown as listed. */
  readonly review?: CatalogReview;
  /** Transports tell the registry which sessions hold an open stream (never idle). */
  readonly isBusy?: (session: Session) => boolean;
  /** Every server's instances talk to what this opens instead of their configured child or remote server (tests: a scripted child in memory). */
  readonly openTransport?: TransportOpener;
}

export class SwitchboardCore {
  readonly catalog: Catalog;
  readonly upstreams: Upstreams;
  readonly router: Router;
  readonly sessions: SessionRegistry;
  /** Requests answered, by method and outcome, and their latency; read by /metrics and /status.json. */
  readonly stats = new RequestStats();
  /** Sanitization findings by rule and the latest ones; the catalog reports here as it sanitizes lists. */
  readonly findings = new FindingsFeed();
  /** Tool calls per server and tool (/metrics). */
  readonly toolStats = new ToolStats();
  /** Rate limits per identity, profile and tool glob (limits.identity/profiles/tools), reloaded live. */
  readonly limiter: RateLimiter;
  private readonly review: CatalogReview | undefined;
  private readonly subscriptions = new Subscriptions();
  private readonly childMessages: ChildMessages;
  /** Requests of the stateless era (2026-07-28), and those parked for their client's input. */
  readonly stateless: StatelessCalls;
  private readonly statelessDoor: StatelessDoor;
  private readonly listChanges: ListChanges;
  private readonly log: Logger;
  private readonly callLogs: Logger;
  private busyProbe: ((session: Session) => boolean) | undefined;
  /** Session-owned instances still stopping; `stop()` waits for them so no child outlives the proxy. */
  private readonly releasing = new Set<Promise<void>>();

  private current: SwitchboardConfig;
  /** The last refused config reload, until a reload succeeds (/status.json, the status page). */
  reloadError: { readonly time: string; readonly message: string } | undefined;
  /** Set once the proxy begins to stop: a reload from then on would start children that nothing stops. */
  private stopping = false;
  constructor(
    config: SwitchboardConfig,
    rootLog: Logger,
    options: CoreOptions = {},
  ) {
    this.current = config;
    this.log = rootLog.child({ component: 'core' });
    if (options.review !== undefined) {
      options.review.onFinding = (note) => this.findings.record(note);
      // An approval rewrote the pins: withheld tools may come back.
      options.review.watchPins(() => this.listChanges.fanOut(this.catalog.rereview()));
    }
    this.review = options.review;
    this.catalog = new Catalog(config, rootLog.child({ component: 'catalog' }), options.review);
    this.sessions = new SessionRegistry({
      maxSessions: config.limits.maxSessions,
      maxPerIdentity: config.limits.maxSessionsPerIdentity,
      idleMs: config.limits.sessionIdleMs,
      onClose: (session, reason) => this.release(session, reason),
      isBusy: (session) => this.busyProbe?.(session) ?? false,
      stats: this.stats,
      instance: config.instance,
    });
    this.busyProbe = options.isBusy;
    this.childMessages = new ChildMessages(this.sessions, this.subscriptions, rootLog.child({ component: 'router' }));
    this.upstreams = new Upstreams(config, rootLog.child({ component: 'upstream' }), {
      onLists: (handle, kinds) => this.listChanges.onLists(handle, kinds),
      onStateChange: (handle, state) => this.listChanges.onStateChange(handle, state),
      onNotification: (handle, connection, message) => this.childMessages.onNotification(handle, connection, message),
      onServerRequest: (handle, connection, message) => this.childMessages.onServerRequest(handle, connection, message),
      onInputRequired: (handle, connection, entry, result) => this.childMessages.onInputRequired(handle, connection, entry, result),
      onConnectionExit: (handle, connection) => this.childMessages.forgetConnection(handle, connection),
    }, { ...(options.shutdown ? { shutdown: options.shutdown } : {}), ...(options.openTransport ? { openTransport: options.openTransport } : {}) });
    this.listChanges = new ListChanges(this.sessions, this.catalog, this.upstreams, this.subscriptions, this.log);
    this.limiter = new RateLimiter(rateLimitsOf(config.limits), rootLog.child({ component: 'limits' }));
    this.router = new Router(config, this.catalog, this.upstreams, this.subscriptions, rootLog.child({ component: 'router' }), this.stats, this.limiter, this.toolStats);
    this.callLogs = rootLog.child({ component: 'call-log' });
    this.router.callLog = config.callLog === undefined ? undefined : new CallLog(config.callLog, config.instance, this.callLogs);
    // A list held for a server's first start is answered with every listing that has arrived.
    this.router.holds.beforeAnswer = () => this.listChanges.flush();
    this.statelessDoor = new StatelessDoor({
      sessions: this.sessions,
      catalog: this.catalog,
      router: this.router,
      upstreams: this.upstreams,
      subscriptions: this.subscriptions,
      childMessages: this.childMessages,
      log: rootLog.child({ component: 'stateless' }),
      longestTimeoutMs: Math.max(0, ...config.servers.map((server) => server.timeoutMs)),
      instance: config.instance,
      isStopping: () => this.stopping,
    });
    this.stateless = this.statelessDoor.calls;
  }

  /** The config in force; a reload replaces it. */
  get config(): SwitchboardConfig {
    return this.current;
  }

  /** The pins' Redis, when they are shared (state.redis or limits.redis); undefined for a pin file. */
  get sharedPins(): { readonly reachable: boolean } | undefined {
    return this.review?.pinStore;
  }

  /** Resolves once the findings of every listing reviewed so far are in the sanitization log (CatalogReview.settled). */
  findingsSettled(): Promise<void> {
    return this.review?.settled() ?? Promise.resolve();
  }

  /**
   * Applies a reloaded config to the running proxy: stops removed servers, restarts changed ones,
   * starts added ones, rebuilds views and tells sessions whose view changed. Sessions stay open.
   * Settings it cannot change live are reported in `needsRestart`; access changes (profiles,
   * tokens) are applied by the transport, which re-resolves each session's view.
   */
  reload(next: SwitchboardConfig): ConfigDiff {
    if (this.stopping) {
      this.log.warn('config reload ignored: the proxy is stopping');
      return diffConfigs(this.current, this.current);
    }
    const diff = diffConfigs(this.current, next);
    this.current = next;
    this.reloadError = undefined;
    this.limiter.update(rateLimitsOf(next.limits));
    if (!isDeepStrictEqual(this.router.callLog?.config, next.callLog)) {
      this.router.callLog = next.callLog === undefined ? undefined : new CallLog(next.callLog, next.instance, this.callLogs);
    }
    const redefined = new Set([...diff.removed, ...diff.changed].map((server) => server.name));
    // Instances about to be replaced: their subscriptions move to the successor (renewed when it is ready) or end.
    const replaced: ServerHandle[] = [];
    for (const name of redefined) {
      const old = this.upstreams.primaryOf(name);
      if (old !== undefined) replaced.push(old);
    }
    const dropped: ServerHandle[] = [];
    for (const session of this.sessions.all()) for (const [name, handle] of session.isolated) if (redefined.has(name)) dropped.push(handle);
    const stops = [this.upstreams.reconfigure(next, diff)];
    if (redefined.size > 0) for (const session of this.sessions.all()) stops.push(this.upstreams.dropIsolated(session, redefined));
    for (const old of replaced) this.subscriptions.transfer(old, this.upstreams.primaryOf(old.name));
    for (const old of dropped) this.subscriptions.transfer(old, undefined);
    const stopped = Promise.all(stops).then(() => undefined);
    this.releasing.add(stopped);
    void stopped.finally(() => this.releasing.delete(stopped));
    this.listChanges.fanOut(this.catalog.reconfigure(next));
    this.log.info(
      {
        added: diff.added.map((s) => s.name),
        removed: diff.removed.map((s) => s.name),
        restarted: diff.changed.map((s) => s.name),
        unchanged: diff.unchanged.length,
        accessChanged: diff.accessChanged,
        ...(diff.needsRestart.length > 0 ? { needsRestart: diff.needsRestart } : {}),
      },
      'config reloaded',
    );
    if (diff.needsRestart.length > 0) this.log.warn({ settings: diff.needsRestart }, 'these settings take effect only after a restart of the daemon');
    return diff;
  }

  /**
   * Restarts one server's shared child on an operator's request: a fresh child takes new requests,
   * the old one finishes those in flight (up to limits.shutdownGraceMs). Returns the fresh
   * instance; undefined when no such server runs (or the proxy is stopping).
   */
  restartServer(name: string): ServerHandle | undefined {
    if (this.stopping) return undefined;
    const restarted = this.upstreams.restart(name, this.current.limits.shutdownGraceMs);
    if (restarted === undefined) return undefined;
    // Subscriptions move to the new child, renewed once it is ready (as on a reload).
    this.subscriptions.transfer(restarted.old, restarted.fresh);
    this.releasing.add(restarted.stopped);
    void restarted.stopped.finally(() => this.releasing.delete(restarted.stopped));
    this.log.info({ server: name }, 'server restart requested');
    return restarted.fresh;
  }

  /** Moves a session to another view (its identity's profile changed); tells it when its lists differ. */
  rescope(session: Session, scope: ViewScope): void {
    if (session.scope.key === scope.key) return;
    const kinds = this.catalog.reattach(session.scope, scope);
    this.sessions.rescope(session, scope);
    // Servers the new view hides: the session's subscriptions there end (no more resources/updated).
    const hidden = this.upstreams.handlesOf(session).filter((handle) => !scope.policy.allowsServer(handle.name));
    for (const [handle, uri] of this.subscriptions.dropSessionOn(session, hidden)) {
      if (handle.owner === undefined && handle.state === 'ready') handle.connection?.request('resources/unsubscribe', { uri }).catch(() => undefined);
    }
    if (kinds.length > 0) this.listChanges.notify(session, kinds);
  }

  start(): void {
    this.log.info({ servers: this.catalog.serverNames() }, 'starting servers');
    this.upstreams.startAll();
  }

  setBusyProbe(probe: (session: Session) => boolean): void {
    this.busyProbe = probe;
  }

  /**
   * The one way a transport hands the core a client message of an open session: a request,
   * notification or response goes to the router; an invalid message is not dispatched (false), and
   * the transport answers it in its own framing (an HTTP status, an error on the stream).
   * Transports own sockets and framing, and whatever their streams need (Streamable HTTP refuses a
   * second POST with an id still open on one of its streams before calling this).
   */
  accept(session: Session, message: Classified): boolean {
    // A client sees every listing that has arrived, batched or not.
    this.listChanges.flush();
    switch (message.kind) {
      case 'request':
        this.router.handleRequest(session, message.message);
        return true;
      case 'notification':
        this.router.handleNotification(session, message.message);
        return true;
      case 'response':
        this.router.handleResponse(session, message.message);
        return true;
      default:
        return false;
    }
  }

  /**
   * The door for requests of the stateless era (2026-07-28), checked by the transport (headers,
   * `_meta`, version): served on their own, or continued when they carry a requestState. Returns
   * what the transport calls when the client goes away before the answer (cancellation), or
   * undefined when the request was answered at once.
   */
  acceptStateless(grant: SessionGrant, request: JsonRpcRequest, context: StatelessContext, reply: ReplyStream): (() => void) | undefined {
    this.listChanges.flush();
    return this.statelessDoor.accept(grant, request, context, reply);
  }

  /** An open session by its id. */
  session(id: string): Session | undefined {
    return this.sessions.get(id);
  }

  /** A new client session bound to a view, or why none could be opened (a session limit, all busy). */
  openSession(transport: TransportKind, grant: SessionGrant, channel: SessionChannel, protocolVersion: string): Session | SessionRefusal {
    const session = this.sessions.create(transport, grant, channel, protocolVersion);
    if ('refused' in session) {
      this.log.warn({ identity: grant.principal, limit: session.refused, sessions: this.sessions.size }, 'session refused: limit reached and every session is busy');
      return session;
    }
    this.catalog.attach(grant.scope);
    return session;
  }

  closeSession(session: Session, reason: string): void {
    this.sessions.close(session, reason);
  }

  /** Refuses new requests (and reloads) from now on; those in flight go on. */
  drain(): void {
    this.stopping = true;
    this.router.draining = true;
  }

  /** True once the proxy began to stop (drain or stop). */
  get isStopping(): boolean {
    return this.stopping;
  }

  /** Client requests forwarded to a server or held for one, not answered yet, across all sessions. */
  inflightRequests(): number {
    let count = 0;
    for (const session of this.sessions.all()) {
      count += session.inflight.size;
      // Requests waiting for a session's own instance to start are in flight too.
      for (const handle of session.isolated.values()) count += handle.heldCount;
    }
    // And those waiting for a shared server that is (re)starting, or lists waiting for first starts.
    for (const handle of this.upstreams.all()) count += handle.heldCount;
    return count + this.router.holds.count;
  }

  ready(): boolean {
    const ready = this.upstreams.allReady();
    // Ready means listed too: a batch still waiting would leave the first tools/list short.
    if (ready) this.listChanges.flush();
    return ready;
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.listChanges.stop();
    this.statelessDoor.clear();
    this.sessions.closeAll('server stopping');
    this.sessions.stop();
    await Promise.all([this.upstreams.stopAll(), ...this.releasing]);
    await this.review?.close();
    await this.limiter.close();
    await this.router.callLog?.drained();
  }

  /** Frees what a closing session holds upstream: in-flight and held requests, child requests, subscriptions, own instances. */
  private release(session: Session, reason: string): void {
    if (session.stateless) {
      this.statelessDoor.release(session, reason);
      return;
    }
    session.closingWithOpenRequests();
    session.cancelRequests(`client session closed (${reason})`);
    const handles = this.upstreams.handlesOf(session);
    for (const handle of handles) handle.abandon(session);
    this.childMessages.failServerRequests(session, `client session closed (${reason})`);
    for (const [handle, uri] of this.subscriptions.dropSession(session, handles)) {
      // A child that is not up has no subscriptions to drop; resubscribe() renews only live ones.
      if (handle.owner === undefined && handle.state === 'ready') handle.connection?.request('resources/unsubscribe', { uri }).catch(() => undefined);
    }
    for (const handle of session.isolated.values()) this.subscriptions.forget(handle);
    const stopped = this.upstreams.release(session);
    this.releasing.add(stopped);
    void stopped.finally(() => this.releasing.delete(stopped));
    this.catalog.detach(session.scope);
  }
}

