// The server instances behind the catalog: one per shared server, plus one per session for isolated ones.
import type { Logger } from '../log.js';
import type { ServerConfig, SwitchboardConfig } from '../config/types.js';
import type { ShutdownTimings } from '../upstream/child.js';
import { ServerHandle, type ServerHandleEvents } from '../upstream/server-handle.js';
import type { Session } from '../session/session.js';

export class Upstreams {
  /**
   * One instance per enabled server. For an isolated server this instance only feeds the catalog
   * (its lists, readiness and list_changed); client calls go to the session's own instance.
   */
  private readonly primary = new Map<string, ServerHandle>();
  private readonly isolatedCount = new Map<string, number>();

  constructor(
    private readonly config: SwitchboardConfig,
    private readonly log: Logger,
    private readonly events: ServerHandleEvents,
    private readonly shutdown: ShutdownTimings | undefined,
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
  handleFor(server: string, session: Session): ServerHandle | undefined {
    const primary = this.primary.get(server);
    if (primary === undefined || primary.config.isolation === 'shared') return primary;
    let own = session.isolated.get(server);
    if (own === undefined) {
      own = this.create(primary.config, session.id);
      session.isolated.set(server, own);
      this.isolatedCount.set(server, (this.isolatedCount.get(server) ?? 0) + 1);
      own.start();
    }
    return own;
  }

  /** Every instance that may hold `session`'s requests: the shared ones and its own. */
  handlesOf(session: Session): ServerHandle[] {
    return [...this.primary.values(), ...session.isolated.values()];
  }

  /** Instances owned by sessions, per server (for status and tests). */
  isolatedInstances(server: string): number {
    return this.isolatedCount.get(server) ?? 0;
  }

  /** Stops the instances a closing session owned. */
  async release(session: Session): Promise<void> {
    const stops: Promise<void>[] = [];
    for (const [server, handle] of session.isolated) {
      this.isolatedCount.set(server, Math.max(0, (this.isolatedCount.get(server) ?? 1) - 1));
      stops.push(handle.stop());
    }
    session.isolated.clear();
    await Promise.all(stops);
  }

  allReady(): boolean {
    for (const handle of this.primary.values()) if (handle.state !== 'ready') return false;
    return true;
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.primary.values()].map((handle) => handle.stop()));
  }

  private create(server: ServerConfig, owner: string | undefined): ServerHandle {
    const log = this.log.child(owner === undefined ? { server: server.name } : { server: server.name, session: owner });
    return new ServerHandle(server, log, this.events, {
      maxLineBytes: this.config.limits.maxLineBytes,
      ...(this.shutdown ? { shutdown: this.shutdown } : {}),
    }, owner);
  }
}
