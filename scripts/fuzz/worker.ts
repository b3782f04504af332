// One attacker: its own random sequence (forked from the seed by its index) and the Streamable
// HTTP sessions it keeps open, reuses, and deletes.
import { describe, type HttpResult, type HttpSpec } from './lib/http.js';
import { Rng } from './lib/rng.js';
import { PROTOCOL_VERSIONS } from './options.js';
import { J, RPC_HEADERS, judge, keyOf, type Expect } from './judge.js';
import type { RunContext } from './context.js';

/** A Streamable HTTP endpoint and the tool-name prefix for each child there (undefined: not reachable). */
export interface Scope { path: string; fx: string | undefined; garbage: string | undefined }
export const SCOPES: Scope[] = [
  { path: '/mcp', fx: 'fx__', garbage: 'garbage__' },
  { path: '/s/fx/mcp', fx: '', garbage: undefined },
  { path: '/s/garbage/mcp', fx: undefined, garbage: '' },
];

export interface AttackSession extends Scope {
  id: string;
  version: string;
  /** Request streams the proxy opened for this session (r1 is initialize's); for plausible Last-Event-IDs. */
  streams: number;
  next: number;
  sampling: boolean;
  /** Task ids the proxy handed this session: looking one up must find it, any other must not. */
  tasks?: Set<string>;
}

/** A POST of `body` within session `s`. */
export function rpcSpec(s: AttackSession, body: unknown, extra: Record<string, string> = {}): HttpSpec {
  return {
    method: 'POST', path: s.path,
    headers: { ...RPC_HEADERS, 'mcp-session-id': s.id, 'mcp-protocol-version': s.version, ...extra },
    body: typeof body === 'string' || Buffer.isBuffer(body) ? body : J(body),
  };
}

export class Worker {
  readonly rng: Rng;
  readonly sessions: AttackSession[] = [];

  constructor(readonly ctx: RunContext, readonly index: number, root: Rng) {
    this.rng = root.fork(`worker-${index}`);
  }

  /** An attack session (reused mostly), optionally one that can reach `server`. */
  async session(server?: 'fx' | 'garbage'): Promise<AttackSession | undefined> {
    const fit = this.sessions.filter((s) => server === undefined || s[server] !== undefined);
    if (fit.length > 0 && this.rng.chance(0.85)) return this.rng.pick(fit);
    const scopes = SCOPES.filter((s) => server === undefined || s[server] !== undefined);
    return this.openSession(this.rng.pick(scopes));
  }

  /** Sends `body` in session `s` and judges the reply. */
  async rpc(kind: string, s: AttackSession, body: unknown, expect: Expect = {}, extra: Record<string, string> = {}): Promise<HttpResult> {
    const { ctx } = this;
    const spec = rpcSpec(s, body, extra);
    const r = await ctx.client.request(spec);
    if (typeof body === 'object' && body !== null && 'id' in body && 'method' in body) s.streams += 1;
    judge(ctx, kind, spec, r, expect);
    if (r.status === 404 && ctx.liveHttpSessions.has(s.id)) ctx.stats.note('an attack session vanished (404) while in use', describe(spec));
    return r;
  }

  /** initialize + notifications/initialized; keeps at most four sessions, deleting the oldest. */
  async openSession(scope: Scope, kind = 'http.session'): Promise<AttackSession | undefined> {
    const { ctx, rng } = this;
    const version = rng.pick(PROTOCOL_VERSIONS);
    const sampling = rng.chance(0.5);
    const spec: HttpSpec = {
      method: 'POST', path: scope.path, headers: { ...RPC_HEADERS },
      body: J({
        jsonrpc: '2.0', id: 0, method: 'initialize',
        params: { protocolVersion: version, capabilities: sampling ? { sampling: {}, elicitation: {} } : {}, clientInfo: { name: `fuzz-w${this.index}`, version: '0' } },
      }),
    };
    const r = await ctx.client.request(spec);
    judge(ctx, kind, spec, r, { status: [200], ids: new Set([keyOf(0)]) });
    const sid = r.headers['mcp-session-id'];
    if (r.status !== 200 || typeof sid !== 'string') return undefined;
    ctx.liveHttpSessions.set(sid, scope.path);
    const s: AttackSession = { ...scope, id: sid, version, streams: 1, next: 1, sampling };
    await this.rpc(kind, s, { jsonrpc: '2.0', method: 'notifications/initialized' }, { status: [202] });
    this.sessions.push(s);
    if (this.sessions.length > 4) await this.deleteSession(this.sessions[0] as AttackSession, kind);
    return s;
  }

  async deleteSession(s: AttackSession, kind: string): Promise<void> {
    const { ctx } = this;
    this.sessions.splice(this.sessions.indexOf(s), 1);
    const spec: HttpSpec = { method: 'DELETE', path: s.path, headers: { 'mcp-session-id': s.id } };
    const r = await ctx.client.request(spec);
    judge(ctx, kind, spec, r, { status: [200] });
    if (r.status === 200) ctx.liveHttpSessions.delete(s.id);
  }

  /** Forgets a session the proxy no longer has (an attack deleted it with a request of its own). */
  forget(s: AttackSession): void {
    this.ctx.liveHttpSessions.delete(s.id);
    this.sessions.splice(this.sessions.indexOf(s), 1);
  }
}
