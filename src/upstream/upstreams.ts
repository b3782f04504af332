// The server instances behind the catalog: one per shared server, plus one per session for isolated ones.
import type { Logger } from '../log.js';
import type { ServerConfig, SwitchboardConfig } from '../config/types.js';
import { ServerHandle, type ServerHandleEvents, type ServerHandleOptions } from './server-handle.js';
import { ErrorCode, SwitchboardError } from '../jsonrpc/messages.js';
import type { ConfigDiff } from '../config/reload-diff.js';

/**
 * A client session as the registry sees it: it may own instances of isolated servers (each
 * instance's `owner` is its id). Session (session/session.ts) is one; the registry sits below the
 * sessions and names only this.
 */
export interface InstanceOwner {
  readonly id: string;
  /** A stateless request's one-off session, which cannot own an instance. */
  readonly stateless: boolean;
  readonly isolated: ReadonlyMap<string, ServerHandle>;
  ownInstance(server: string, handle: ServerHandle): void;
  dropInstance(server: string): void;
  dropInstances(): void;
}

export class Upstreams {
  /**
   * One instance per enabled server. For an isolated server this instance only feeds the catalog
   * (its lists, readiness and list_changed); client calls go to the session's own instance.
   */
  private readonly primary = new Map<string, ServerHandle>();
  private readonly isolatedCount = new Map<string, number>();

  constructor(
    private config: SwitchboardConfig,
    private readonly log: Logger,
    private readonly events: ServerHandleEvents,
    /** How every instance stops, and what it talks to when not its configured child (the core's tests). */
    private readonly instanceOptions: Pick<ServerHandleOptions, 'shutdown' | 'openTransport'> = {},
  ) {
    for (const server of config.servers) {
      if (server.disabled) continue;
      this.primary.set(server.name, this.create(server, undefined));
    }
  }

  startAll(): void {
    for (const handle of this.primary.values()) handle.start();
  }

  primaryOf(server: string): ServerHandle | undefined {
    return this.primary.get(server);
  }

  all(): ServerHandle[] {
    return [...this.primary.values()];
  }

  /** The instance that serves `session`'s calls to `server`: the shared one, or the session's own (started on first use). */
  handleFor(server: string, session: InstanceOwner): ServerHandle | undefined {
    const primary = this.primary.get(server);
    if (primary === undefined || primary.config.isolation === 'shared') return primary;
    if (session.stateless) {
      // An instance per request would be a child per call, and nothing of it could carry over.
      throw new SwitchboardError(
        ErrorCode.InvalidRequest,
        `server ${server} runs one instance per session (isolation: "session"); a stateless (2026-07-28) request cannot reach it: connect with initialize`,
      );
    }
    let own = session.isolated.get(server);
    if (own === undefined) {
      own = this.create(primary.config, session.id);
      session.ownInstance(server, own);
      this.isolatedCount.set(server, (this.isolatedCount.get(server) ?? 0) + 1);
      own.start();
    }
    return own;
  }

  /** Every instance that may hold `session`'s requests: the shared ones and its own. */
  handlesOf(session: InstanceOwner): ServerHandle[] {
    return [...this.primary.values(), ...session.isolated.values()];
  }

  /** Instances owned by sessions, per server (for status and tests). */
  isolatedInstances(server: string): number {
    return this.isolatedCount.get(server) ?? 0;
  }

  /** Stops the instances a closing session owned. */
  async release(session: InstanceOwner): Promise<void> {
    const stops: Promise<void>[] = [];
    for (const [server, handle] of session.isolated) {
      this.isolatedCount.set(server, Math.max(0, (this.isolatedCount.get(server) ?? 1) - 1));
      stops.push(handle.stop());
    }
    session.dropInstances();
    await Promise.all(stops);
  }

  /**
   * Applies a reloaded config: removed servers stop, changed ones start again with their new
   * definition while the old child finishes its requests in flight (up to limits.shutdownGraceMs),
   * added ones start; the others keep running untouched. Resolves when every replaced child is gone.
   */
  reconfigure(config: SwitchboardConfig, diff: ConfigDiff): Promise<void> {
    this.config = config;
    const stops: Promise<void>[] = [];
    for (const server of diff.removed) {
      const old = this.primary.get(server.name);
      this.primary.delete(server.name);
      if (old !== undefined) stops.push(old.stop());
    }
    for (const server of [...diff.changed, ...diff.added]) {
      const old = this.primary.get(server.name);
      // A changed server's last lists stay in the catalog meanwhile; an added one has none yet (nor
      // one redefined before it ever came up: still in its first start, or down since it failed).
      const handle = this.create(server, undefined, old?.listsKnown === true);
      this.primary.set(server.name, handle);
      handle.start();
      // A redefined server: the old child finishes what it is doing (as on a graceful stop) while
      // new requests go to, or wait for, the new one.
      if (old !== undefined) stops.push(old.retire(handle, config.limits.shutdownGraceMs));
    }
    return Promise.all(stops).then(() => undefined);
  }

  /**
   * Starts a fresh shared child of `name` (as a reload that redefined it would): new requests go to
   * it, the old child finishes its requests in flight for up to `graceMs` and stops. Resolves when
   * the old one is gone; undefined when no such server runs.
   */
  restart(name: string, graceMs: number): { readonly old: ServerHandle; readonly fresh: ServerHandle; readonly stopped: Promise<void> } | undefined {
    const old = this.primary.get(name);
    if (old === undefined) return undefined;
    const fresh = this.create(old.config, undefined, old.listsKnown);
    this.primary.set(name, fresh);
    fresh.start();
    return { old, fresh, stopped: old.retire(fresh, graceMs) };
  }

  /** Stops a session's own instances of `servers` (removed or redefined); its next call starts a fresh one. */
  dropIsolated(session: InstanceOwner, servers: ReadonlySet<string>): Promise<void> {
    const stops: Promise<void>[] = [];
    for (const [server, handle] of session.isolated) {
      if (!servers.has(server)) continue;
      session.dropInstance(server);
      this.isolatedCount.set(server, Math.max(0, (this.isolatedCount.get(server) ?? 1) - 1));
      stops.push(handle.stop());
    }
    return Promise.all(stops).then(() => undefined);
  }

  /** True for the instance currently serving `handle.name` (not one a reload replaced). */
  isCurrent(handle: ServerHandle): boolean {
    return handle.owner !== undefined || this.primary.get(handle.name) === handle;
  }

  allReady(): boolean {
    for (const handle of this.primary.values()) if (handle.state !== 'ready') return false;
    return true;
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.primary.values()].map((handle) => handle.stop()));
  }

  /**
   * While `server`'s first start runs (the catalog has no lists of it yet): resolves when it is up
   * and listed, or has failed, at the latest its timeoutMs after it began.
   */
  firstStartOf(server: string): Promise<void> | undefined {
    return this.primary.get(server)?.firstStart;
  }

  /** `listsKnown`: the catalog lists this server already, so its start holds no list request. */
  private create(server: ServerConfig, owner: string | undefined, listsKnown = false): ServerHandle {
    const log = this.log.child(owner === undefined ? { server: server.name } : { server: server.name, session: owner });
    return new ServerHandle(server, log, this.events, {
      maxLineBytes: this.config.limits.maxLineBytes,
      // A session's own instance: the catalog lists the shared one, so nothing waits for this one.
      listsKnown: listsKnown || owner !== undefined,
      ...this.instanceOptions,
    }, owner);
  }
}
