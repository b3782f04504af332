// The live sessions: crypto-random ids, a bound on their number, lookup by view, idle expiry.
import { randomBytes } from 'node:crypto';
import type { ViewScope } from '../catalog/view.js';
import { Session } from './session.js';
import type { SessionChannel, SessionGrant, TransportKind } from './opening.js';
import type { RequestStats } from './stats.js';
import { INSTANCE_PATTERN } from '../config/schema.js';

/** Why no session was opened: the proxy's total, or this identity's share, is taken by busy sessions. */
export type SessionRefusal = { readonly refused: 'total' | 'identity' };

/** The identity of sessions opened without a token (auth off): one local user, no share to enforce. */
const ANONYMOUS = 'anonymous';

export interface RegistryOptions {
  readonly maxSessions: number;
  /** Most sessions per principal (token name); `anonymous` is bounded by maxSessions only. */
  readonly maxPerIdentity: number;
  /** Sessions silent this long are closed, ms. */
  readonly idleMs: number;
  /** Releases what a session holds upstream; runs before its channel closes. */
  readonly onClose: (session: Session, reason: string) => void;
  /** Sessions with an open stream are never idle. */
  readonly isBusy?: (session: Session) => boolean;
  /** Where sessions count the requests they answer. */
  readonly stats: RequestStats;
  /** This daemon's instance name: session ids are `<instance>.<random>`. */
  readonly instance?: string;
}

export class SessionRegistry {
  private readonly sessions = new Map<string, Session>();
  /**
   * Sessions of one stateless request each; apart, so they count toward no limit and no id finds
   * them. In no order, each at its `statelessSlot`: a Set would hash a fresh object on every
   * request (measured ~1 µs a request between add and delete), a slot costs nothing.
   */
  private readonly stateless: Session[] = [];
  /** Names stateless sessions in logs; no client ever sees or sends it, so it need not be secret. */
  private statelessSerial = 0;
  private readonly byScope = new Map<string, Set<Session>>();
  private readonly byPrincipal = new Map<string, Set<Session>>();
  private readonly sweeper: NodeJS.Timeout;

  private readonly idPrefix: string;

  constructor(private readonly options: RegistryOptions) {
    this.idPrefix = options.instance === undefined ? '' : `${options.instance}.`;
    this.sweeper = setInterval(() => this.expireIdle(Date.now()), Math.min(60_000, Math.max(1000, options.idleMs / 4)));
    this.sweeper.unref();
  }

  get size(): number {
    return this.sessions.size;
  }

  /**
   * A new session. At a cap (this identity's share, then the total) the least recently active idle
   * session (no request in flight, no open stream) of that identity, or of anyone for the total,
   * is closed to make room; only when every one of them is busy is the new one refused.
   */
  create(transport: TransportKind, grant: SessionGrant, channel: SessionChannel, protocolVersion: string): Session | SessionRefusal {
    const own = this.byPrincipal.get(grant.principal);
    if (grant.principal !== ANONYMOUS && own !== undefined && own.size >= this.options.maxPerIdentity) {
      if (!this.evictIdle(own, 'session limit of its identity reached')) return { refused: 'identity' };
    }
    if (this.sessions.size >= this.options.maxSessions && !this.evictIdle(this.sessions.values(), 'session limit reached')) return { refused: 'total' };
    // 128 random bits, base64url: unguessable and visible ASCII (transports.mdx, session management);
    // after the instance name, so a balancer can route on it and another instance knows it is not its own.
    const id = `${this.idPrefix}${randomBytes(16).toString('base64url')}`;
    const session = new Session(id, transport, grant, channel, protocolVersion, this.options.stats);
    this.sessions.set(id, session);
    this.index(session);
    let mine = this.byPrincipal.get(session.principal);
    if (mine === undefined) this.byPrincipal.set(session.principal, (mine = new Set()));
    mine.add(session);
    return session;
  }

  /**
   * A session for one stateless request (2026-07-28): never refused or counted against the session
   * limits (the HTTP connection limits bound those requests), never idle-expired while it waits.
   * Its id is internal: no client can name it, and the Streamable HTTP door refuses it as unknown.
   * `told`: a listen, which list changes must reach.
   */
  createStateless(grant: SessionGrant, channel: SessionChannel, protocolVersion: string, told: boolean): Session {
    const session = new Session(`stateless-${(this.statelessSerial += 1)}`, 'stateless', grant, channel, protocolVersion, this.options.stats);
    session.takeStatelessSlot(this.stateless.length);
    this.stateless.push(session);
    // Only a listen is told of list changes; a single request needs no place in the fan-out.
    if (told) this.index(session);
    return session;
  }

  /** Sessions a principal holds now. */
  countOf(principal: string): number {
    return this.byPrincipal.get(principal)?.size ?? 0;
  }

  /** Closes the least recently active idle session among `candidates`; false when all are busy. */
  private evictIdle(candidates: Iterable<Session>, reason: string): boolean {
    let oldest: Session | undefined;
    for (const session of candidates) {
      if (session.inflight.size > 0 || this.options.isBusy?.(session) === true) continue;
      if (oldest === undefined || session.lastActivity < oldest.lastActivity) oldest = session;
    }
    if (oldest === undefined) return false;
    this.close(oldest, reason);
    return true;
  }

  /** Moves a session to another view (a reload changed what its identity may see). */
  rescope(session: Session, scope: ViewScope): void {
    this.unindex(session);
    session.replaceScope(scope);
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

  /** The instance a session id names when it is not this one's (a balancer sent it astray), else undefined. */
  foreignInstance(id: string): string | undefined {
    const dot = id.indexOf('.');
    if (dot <= 0 || this.idPrefix === '' || id.startsWith(this.idPrefix)) return undefined;
    const name = id.slice(0, dot);
    // Only a name an instance could have: anything else is echoed nowhere.
    return INSTANCE_PATTERN.test(name) ? name : undefined;
  }

  inScope(scopeKey: string): ReadonlySet<Session> {
    return this.byScope.get(scopeKey) ?? EMPTY;
  }

  /** Every session, stateless requests included. */
  *all(): IterableIterator<Session> {
    yield* this.sessions.values();
    // A copy: closing one moves another into its slot. One closed meanwhile is left out (as a Set
    // would leave it), one opened meanwhile too (a Set would include it; no caller needs it).
    for (const session of this.stateless.slice()) if (session.statelessSlot !== -1) yield session;
  }

  /** Stateless requests being served now. */
  get statelessCount(): number {
    return this.stateless.length;
  }

  countByTransport(): Record<TransportKind, number> {
    const counts: Record<TransportKind, number> = { 'streamable-http': 0, sse: 0, websocket: 0, stateless: 0 };
    for (const session of this.sessions.values()) counts[session.transport] += 1;
    counts.stateless = this.stateless.length;
    return counts;
  }

  close(session: Session, reason: string): void {
    if (session.stateless) {
      if (!this.dropStateless(session)) return;
    } else {
      if (this.sessions.get(session.id) !== session) return;
      this.sessions.delete(session.id);
      const mine = this.byPrincipal.get(session.principal);
      mine?.delete(session);
      if (mine?.size === 0) this.byPrincipal.delete(session.principal);
    }
    this.unindex(session);
    this.options.onClose(session, reason);
    session.closeChannel(reason);
  }

  /** Takes a stateless session out of its slot (the last one moves in); false when it is not there. */
  private dropStateless(session: Session): boolean {
    const slot = session.statelessSlot;
    if (slot === -1 || this.stateless[slot] !== session) return false;
    const last = this.stateless.pop() as Session;
    if (last !== session) {
      this.stateless[slot] = last;
      last.takeStatelessSlot(slot);
    }
    session.leaveStatelessSlot();
    return true;
  }

  closeAll(reason: string): void {
    for (const session of [...this.all()]) this.close(session, reason);
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
