// The live sessions: crypto-random ids, a bound on their number, lookup by view, idle expiry.
import { randomBytes } from 'node:crypto';
import type { ViewScope } from '../catalog/catalog.js';
import { Session, type SessionChannel, type SessionGrant, type TransportKind } from './session.js';
import type { RequestStats } from './stats.js';

export interface RegistryOptions {
  readonly maxSessions: number;
  /** Sessions silent this long are closed, ms. */
  readonly idleMs: number;
  /** Releases what a session holds upstream; runs before its channel closes. */
  readonly onClose: (session: Session, reason: string) => void;
  /** Sessions with an open stream are never idle. */
  readonly isBusy?: (session: Session) => boolean;
  /** Where sessions count the requests they answer. */
  readonly stats: RequestStats;
}

export class SessionRegistry {
  private readonly sessions = new Map<string, Session>();
  private readonly byScope = new Map<string, Set<Session>>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly options: RegistryOptions) {
    this.sweeper = setInterval(() => this.expireIdle(Date.now()), Math.min(60_000, Math.max(1000, options.idleMs / 4)));
    this.sweeper.unref();
  }

  get size(): number {
    return this.sessions.size;
  }

  /** A new session, or undefined when the limit is reached. */
  create(transport: TransportKind, grant: SessionGrant, channel: SessionChannel, protocolVersion: string): Session | undefined {
    if (this.sessions.size >= this.options.maxSessions) return undefined;
    // 128 random bits, base64url: unguessable and visible ASCII (transports.mdx, session management).
    const id = randomBytes(16).toString('base64url');
    const session = new Session(id, transport, grant, channel, protocolVersion, this.options.stats);
    this.sessions.set(id, session);
    this.index(session);
    return session;
  }

  /** Moves a session to another view (a reload changed what its identity may see). */
  rescope(session: Session, scope: ViewScope): void {
    this.unindex(session);
    session.scope = scope;
    this.index(session);
  }

  private index(session: Session): void {
    let peers = this.byScope.get(session.scope.key);
    if (peers === undefined) this.byScope.set(session.scope.key, (peers = new Set()));
    peers.add(session);
  }

  private unindex(session: Session): void {
    const peers = this.byScope.get(session.scope.key);
    peers?.delete(session);
    if (peers?.size === 0) this.byScope.delete(session.scope.key);
  }

  get(id: string): Session | undefined {
    return this.sessions.get(id);
  }

  inScope(scopeKey: string): ReadonlySet<Session> {
    return this.byScope.get(scopeKey) ?? EMPTY;
  }

  all(): IterableIterator<Session> {
    return this.sessions.values();
  }

  countByTransport(): Record<TransportKind, number> {
    const counts: Record<TransportKind, number> = { 'streamable-http': 0, sse: 0, websocket: 0 };
    for (const session of this.sessions.values()) counts[session.transport] += 1;
    return counts;
  }

  close(session: Session, reason: string): void {
    if (this.sessions.get(session.id) !== session) return;
    this.sessions.delete(session.id);
    this.unindex(session);
    this.options.onClose(session, reason);
    session.closeChannel(reason);
  }

  closeAll(reason: string): void {
    for (const session of [...this.sessions.values()]) this.close(session, reason);
  }

  stop(): void {
    clearInterval(this.sweeper);
  }

  private expireIdle(now: number): void {
    for (const session of [...this.sessions.values()]) {
      if (now - session.lastActivity < this.options.idleMs) continue;
      if (session.inflight.size > 0 || this.options.isBusy?.(session) === true) continue;
      this.close(session, 'idle');
    }
  }
}

const EMPTY: ReadonlySet<Session> = new Set();
