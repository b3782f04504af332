// Supervises one server instance: start, list, restart with capped backoff, re-list on list_changed.
import type { Logger } from '../log.js';
import type { ServerConfig } from '../config/types.js';
import { ErrorCode, SwitchboardError, isObject, type JsonObject, type JsonRpcId, type JsonRpcNotification, type JsonRpcRequest } from '../jsonrpc/messages.js';
import type { ShutdownTimings } from './child.js';
import type { TransportOpener } from './child-transport.js';
import { UpstreamConnection, type Pending } from './connection.js';
import { describeExit, type ChildExit } from './transport.js';
import type { Caller, ListKind, ServerIdentity, ServerLists } from './types.js';
import { RELIST_SPACING_MS, RelistPacer } from './relist-pacer.js';
import { WaitingRoom } from './waiting-room.js';
import { fetchAllLists, fetchList } from './list-fetch.js';

export type ServerState = 'starting' | 'ready' | 'backoff' | 'stopped';

export interface ServerHandleEvents {
  /** The instance (re)started and was listed, or one of its lists changed. */
  onLists(handle: ServerHandle, changed: readonly ListKind[]): void;
  onStateChange?(handle: ServerHandle, state: ServerState): void;
  onNotification(handle: ServerHandle, connection: UpstreamConnection, message: JsonRpcNotification): void;
  onServerRequest(handle: ServerHandle, connection: UpstreamConnection, message: JsonRpcRequest): void;
  onInputRequired(handle: ServerHandle, connection: UpstreamConnection, entry: Pending, result: JsonObject): void;
  /** A child exited: whatever clients hold that points at it (its requests, its tasks) is void. */
  onConnectionExit?(handle: ServerHandle, connection: UpstreamConnection): void;
}

export interface ServerHandleOptions {
  readonly maxLineBytes: number;
  readonly shutdown?: ShutdownTimings;
  /**
   * The catalog already holds lists of this server (a restart, a redefinition): its first start
   * holds no list request. Otherwise list requests of views showing it wait for that start.
   */
  readonly listsKnown?: boolean;
  /** What its connections talk to instead of the configured child or remote server (the core's tests). */
  readonly openTransport?: TransportOpener;
}

/** A child that stayed up this long has its backoff reset, ms. */
const STABLE_AFTER_MS = 10_000;
/** Requests held while the server (re)starts, per server; beyond this they are refused. */
const MAX_WAITING = 1_000;
/** How often a retiring instance looks whether its last requests are done, ms. */
const RETIRE_POLL_MS = 50;

const EMPTY_LISTS: ServerLists = { tools: [], prompts: [], resources: [], resourceTemplates: [] };

export class ServerHandle {
  state: ServerState = 'starting';
  connection: UpstreamConnection | undefined;
  identity: ServerIdentity | undefined;
  lists: ServerLists = EMPTY_LISTS;
  restarts = 0;
  /** Why the server is not up, kept until it is up again (for /readyz and waiting callers). */
  lastError: string | undefined;
  /** stderr of the child that last failed, kept until the server is up again (like lastError). */
  private failedStderr: readonly string[] = [];
  /**
   * The last stderr lines of the child `lastError` is about: while the server is not up after a
   * failure, the failed child's, even once its successor starts (under npx a successor's first
   * words are npm's warnings, which would hide why its predecessor died); else the running one's.
   */
  get stderrTail(): readonly string[] {
    if (this.state !== 'ready' && this.lastError !== undefined) return this.failedStderr;
    return this.connection?.stderrTail ?? [];
  }
  /** Why the current start attempt failed before the child exited, if it did. */
  private initFailure: string | undefined;
  /**
   * A start attempt failed since the server was last ready (or it was never ready): it is known
   * down, so requests fail at once with `lastError` instead of waiting up to `timeoutMs` for a
   * server that is not coming (a remote host refusing connections, a child that cannot start).
   */
  private down = false;
  /** When the next start attempt begins (ms since epoch), while in backoff. */
  private retryAt = 0;
  private failures = 0;
  private readyAt = 0;
  private retryTimer: NodeJS.Timeout | undefined;
  /** Requests waiting for this instance to come up. */
  private readonly starting = new WaitingRoom(MAX_WAITING);
  /** Requests waiting for one of `maxConcurrent` slots (none without the cap). */
  private readonly queued: WaitingRoom;
  /**
   * Re-list passes per kind: a child announcing list_changed nonstop gets one pass per
   * RELIST_SPACING_MS per kind over any period (every pass re-sanitizes, re-pins and tells
   * sessions, and must not run at the child's pace); the last change is always listed.
   */
  private readonly relists = new RelistPacer(RELIST_SPACING_MS);
  /** A reload replaced this instance; it only finishes what it has in flight. */
  private retiring = false;
  /**
   * The catalog holds lists of this server: created so (a restart or redefinition of one that had
   * listed), or it came up. A successor of one that never listed (down since its first start) holds lists.
   */
  private listed: boolean;
  /** Resolved when the first start attempt ends (up and listed, failed, stopped, or timeoutMs passed). */
  private firstAttempt: { readonly ended: Promise<void>; readonly end: () => void; timer: NodeJS.Timeout | undefined } | undefined;

  constructor(
    readonly config: ServerConfig,
    private readonly log: Logger,
    private readonly events: ServerHandleEvents,
    private readonly options: ServerHandleOptions,
    /** The session this instance belongs to when the server is isolated per session. */
    readonly owner: string | undefined = undefined,
  ) {
    this.queued = new WaitingRoom(config.maxQueued);
    this.listed = options.listsKnown === true;
    if (!this.listed) {
      let end!: () => void;
      const ended = new Promise<void>((resolve) => (end = resolve));
      this.firstAttempt = { ended, end, timer: undefined };
    }
  }

  /**
   * While the first start attempt of an instance the catalog has no lists of runs: resolves when it
   * ends, at the latest timeoutMs after it began. Later restarts are not waited for.
   */
  get firstStart(): Promise<void> | undefined {
    return this.firstAttempt?.ended;
  }

  /** See `listed`: a successor's start holds no list request. */
  get listsKnown(): boolean {
    return this.listed;
  }

  private endFirstAttempt(): void {
    const attempt = this.firstAttempt;
    if (attempt === undefined) return;
    this.firstAttempt = undefined;
    clearTimeout(attempt.timer);
    attempt.end();
  }

  get name(): string {
    return this.config.name;
  }

  /** A start attempt failed since it was last ready: calls fail at once with `lastError`. */
  get isDown(): boolean {
    return this.down;
  }

  /** Client requests waiting for this instance to come up. */
  get heldCount(): number {
    return this.starting.size;
  }

  /** Client requests waiting for a free slot (maxConcurrent). */
  get queuedCount(): number {
    return this.queued.size;
  }

  start(): void {
    if (this.state === 'stopped') return;
    this.initFailure = undefined;
    // The new child is listed whole once up: passes owed to its predecessor are void.
    this.relists.reset();
    this.setState('starting');
    const connection = new UpstreamConnection(this.config, this.log, {
      onNotification: (conn, message) => this.onNotification(conn, message),
      onServerRequest: (conn, message) => this.events.onServerRequest(this, conn, message),
      onInputRequired: (conn, entry, result) => this.events.onInputRequired(this, conn, entry, result),
      onExit: (conn, exit) => this.onExit(conn, exit),
      // A slot freed: the oldest queued request goes next (after the answer that freed it is on its way).
      onVacancy: () => {
        if (this.queued.size > 0) queueMicrotask(() => this.sendQueued());
      },
    }, { maxLineBytes: this.options.maxLineBytes, ...(this.options.shutdown ? { shutdown: this.options.shutdown } : {}), ...(this.options.openTransport ? { openTransport: this.options.openTransport } : {}) });
    this.connection = connection;
    if (this.firstAttempt !== undefined && this.firstAttempt.timer === undefined) {
      this.firstAttempt.timer = setTimeout(() => this.endFirstAttempt(), this.config.timeoutMs);
      this.firstAttempt.timer.unref();
    }
    void this.bringUp(connection);
  }

  /**
   * Sends a client request to the current child. While the server starts or restarts the request is
   * held (bounded, up to the server's timeout) and later completed through `caller.forwarded`.
   */
  forward(caller: Caller, request: JsonRpcRequest): Pending | SwitchboardError | 'held' {
    // A ready child whose input just broke is dying; the request waits for its successor instead.
    if (this.state === 'ready' && this.connection !== undefined && this.connection.writable) {
      if (!this.atCapacity(this.connection)) return this.connection.forward(caller, request);
      if (this.queued.full) return new SwitchboardError(ErrorCode.Overloaded, `server ${this.name} is busy: ${this.config.maxConcurrent} requests in flight (maxConcurrent) and ${this.queued.size} waiting`);
      this.queued.hold(caller, request, this.config.timeoutMs, () => new SwitchboardError(ErrorCode.Overloaded, `server ${this.name} is busy: the request waited ${this.config.timeoutMs} ms for one of its ${this.config.maxConcurrent} slots (maxConcurrent)`));
      return 'held';
    }
    if (this.state === 'stopped') return new SwitchboardError(ErrorCode.ConnectionClosed, `server ${this.name} is stopped`);
    if (this.down) return this.downError();
    if (this.starting.full) {
      return new SwitchboardError(ErrorCode.Overloaded, `server ${this.name} is starting and too many requests are waiting for it`);
    }
    this.starting.hold(caller, request, this.config.timeoutMs, () => {
      const why = this.lastError === undefined ? 'is still starting' : `is not available (${this.lastError})`;
      return new SwitchboardError(ErrorCode.ConnectionClosed, `server ${this.name} ${why}`);
    });
    return 'held';
  }

  /** Drops one held request (the client cancelled it before it could be sent). */
  withdraw(caller: Caller, downstreamId: JsonRpcId): void {
    this.starting.withdraw(caller, downstreamId);
    this.queued.withdraw(caller, downstreamId);
  }

  /** Drops a held request whose caller went away. */
  abandon(caller: Caller): void {
    this.starting.abandon(caller);
    this.queued.abandon(caller);
  }

  /** Every slot taken (queued requests go first, so a newcomer never overtakes them). */
  private atCapacity(connection: UpstreamConnection): boolean {
    const cap = this.config.maxConcurrent;
    return cap !== undefined && (this.queued.size > 0 || connection.pendingCount >= cap);
  }

  /** Sends queued requests while the ready instance has free slots. */
  private sendQueued(): void {
    const connection = this.connection;
    const cap = this.config.maxConcurrent ?? Infinity;
    while (this.queued.size > 0 && this.state === 'ready' && connection !== undefined && connection.writable && connection.pendingCount < cap) {
      const w = this.queued.next()!;
      const downstreamId = w.request.id;
      w.caller.forwarded(downstreamId, connection.forward(w.caller, w.request));
    }
  }

  /**
   * Replaced by a reload: requests still waiting for this instance go to its successor, requests
   * in flight here may finish for up to `graceMs` (the child is not restarted meanwhile), then the
   * child is stopped. Callers never see the swap unless their request outlives the grace.
   */
  async retire(successor: ServerHandle, graceMs: number): Promise<void> {
    this.retiring = true;
    clearTimeout(this.retryTimer);
    for (const w of [...this.starting.takeAll(), ...this.queued.takeAll()]) {
      const downstreamId = w.request.id;
      const outcome = successor.forward(w.caller, w.request);
      if (outcome !== 'held') w.caller.forwarded(downstreamId, outcome);
    }
    const deadline = Date.now() + graceMs;
    while (this.state === 'ready' && (this.connection?.pendingCount ?? 0) > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, RETIRE_POLL_MS));
    }
    await this.stop();
  }

  async stop(): Promise<void> {
    this.setState('stopped');
    clearTimeout(this.retryTimer);
    this.relists.reset();
    this.endFirstAttempt();
    const stopped = (): SwitchboardError => new SwitchboardError(ErrorCode.ConnectionClosed, `server ${this.name} is stopped`);
    this.starting.failAll(stopped);
    this.queued.failAll(stopped);
    await this.connection?.stop();
  }

  private async bringUp(connection: UpstreamConnection): Promise<void> {
    try {
      this.identity = await connection.initialize();
      this.lists = await fetchAllLists(connection, this.name);
    } catch (error) {
      if (connection !== this.connection || this.state === 'stopped') return;
      this.initFailure = error instanceof Error ? error.message : String(error);
      this.log.error({ err: this.initFailure }, 'server failed to initialize; stopping this instance');
      this.endFirstAttempt();
      // onExit schedules the restart once the child is gone.
      void connection.stop();
      return;
    }
    if (connection !== this.connection || this.state === 'stopped') return;
    this.lastError = undefined;
    this.down = false;
    this.readyAt = Date.now();
    this.log.info(
      { childPid: connection.pid, protocolVersion: this.identity.protocolVersion, tools: this.lists.tools.length, restarts: this.restarts },
      'server ready',
    );
    this.setState('ready');
    this.listed = true;
    this.events.onLists(this, ['tools', 'prompts', 'resources', 'resourceTemplates']);
    // After onLists: lists held for this start are answered with these in the catalog.
    this.endFirstAttempt();
    // Those that waited for the start go first, then those queued for a slot, within maxConcurrent.
    for (const w of this.starting.takeAll()) {
      // Read before forwarding: the connection gives the request its own id as it sends it.
      const downstreamId = w.request.id;
      const outcome = this.forward(w.caller, w.request);
      if (outcome !== 'held') w.caller.forwarded(downstreamId, outcome);
    }
    this.sendQueued();
  }

  private onNotification(connection: UpstreamConnection, message: JsonRpcNotification): void {
    const kind = LIST_CHANGED.get(message.method);
    if (kind !== undefined) {
      if (connection === this.connection && this.state === 'ready') this.relists.changed(kind[0] as ListKind, () => this.relist(connection, kind));
      return;
    }
    this.events.onNotification(this, connection, message);
  }

  /** One pass: fetches `kinds` again and reports them; a failure keeps the previous lists. */
  private async relist(connection: UpstreamConnection, kinds: readonly ListKind[]): Promise<void> {
    if (connection !== this.connection) return;
    try {
      const fresh = await Promise.all(kinds.map((kind) => fetchList(connection, this.name, kind)));
      if (connection !== this.connection) return;
      const next: Record<ListKind, readonly Record<string, unknown>[]> = { ...this.lists };
      kinds.forEach((kind, i) => (next[kind] = fresh[i] ?? []));
      this.lists = next;
      this.events.onLists(this, kinds);
    } catch (error) {
      this.log.warn({ err: error instanceof Error ? error.message : String(error) }, 're-listing after list_changed failed; keeping the previous list');
    }
  }

  private onExit(connection: UpstreamConnection, exit: ChildExit): void {
    this.events.onConnectionExit?.(this, connection);
    if (connection !== this.connection) return;
    // Exited before it was up: the attempt failed (later ones are announced with list_changed).
    this.endFirstAttempt();
    if (this.state === 'stopped') {
      this.log.info({ childPid: connection.pid, exit: describeExit(exit) }, 'server stopped');
      return;
    }
    const wasReady = this.state === 'ready';
    this.lastError = this.initFailure ?? describeExit(exit);
    this.failedStderr = [...connection.stderrTail];
    if (this.retiring) {
      // Its successor serves the server now; a retiring child that dies is not brought back.
      this.setState('stopped');
      return;
    }
    if (wasReady && Date.now() - this.readyAt >= STABLE_AFTER_MS) this.failures = 0;
    const delay = Math.min(this.config.restart.initialDelayMs * 2 ** this.failures, this.config.restart.maxDelayMs);
    this.failures += 1;
    this.log.error({ childPid: connection.pid, exit: describeExit(exit), restartInMs: delay }, 'server exited; restarting');
    this.retryAt = Date.now() + delay;
    // A server that was serving gets one restart attempt before it counts as down: a crashed child
    // is usually back within the restart delay, and requests held meanwhile are then answered. One
    // that could not even start (a failed attempt, a remote server that could not be reached) is down.
    this.setState('backoff');
    if (!wasReady || exit.spawnError !== undefined) this.markDown();
    this.retryTimer = setTimeout(() => {
      this.restarts += 1;
      this.start();
    }, delay);
    this.retryTimer.unref();
  }

  /** Known down: the requests held for this attempt are answered now, with the reason. */
  private markDown(): void {
    this.down = true;
    this.starting.failAll(() => this.downError());
  }

  private downError(): SwitchboardError {
    const next = this.state === 'backoff' ? `; next attempt in ${Math.max(0, Math.ceil((this.retryAt - Date.now()) / 1000))} s` : '; retrying now';
    return new SwitchboardError(ErrorCode.ConnectionClosed, `server ${this.name} is down: ${this.lastError ?? 'its last start attempt failed'}${next}`);
  }

  private setState(state: ServerState): void {
    if (this.state === state) return;
    this.state = state;
    this.events.onStateChange?.(this, state);
  }
}

const LIST_CHANGED = new Map<string, readonly ListKind[]>([
  ['notifications/tools/list_changed', ['tools']],
  ['notifications/prompts/list_changed', ['prompts']],
  ['notifications/resources/list_changed', ['resources', 'resourceTemplates']],
]);
