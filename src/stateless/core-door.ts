// The core's door for requests of the stateless era (2026-07-28): what is refused before anything
// runs (another instance's requestState, a stopping proxy, methods the era removed), discover
// answered from the view, listens opened, calls started or continued; and what such a request
// leaves behind when it ends.
import type { Logger } from '../log.js';
import { ErrorCode, errorResponse, resultResponse, type JsonRpcRequest } from '../jsonrpc/messages.js';
import type { Catalog } from '../catalog/catalog.js';
import type { Session } from '../session/session.js';
import type { SessionGrant } from '../session/opening.js';
import type { SessionRegistry } from '../session/registry.js';
import type { Router } from '../router/router.js';
import type { Upstreams } from '../upstream/upstreams.js';
import type { Subscriptions } from '../router/subscriptions.js';
import type { ChildMessages } from '../router/child-messages.js';
import { StatelessCalls } from './calls.js';
import { Listens } from './listens.js';
import { discoverResult } from './discover.js';
import type { CacheScope } from './results.js';
import type { ReplyStream, StatelessContext } from './context.js';

/**
 * Methods the stateless era removed (2026-07-28 changelog) or the proxy does not serve in it (tasks
 * moved to an extension): unknown to a stateless request, -32601 (HTTP 404).
 */
const NOT_STATELESS: ReadonlySet<string> = new Set([
  'initialize',
  'ping',
  'logging/setLevel',
  'resources/subscribe',
  'resources/unsubscribe',
  'tasks/get',
  'tasks/result',
  'tasks/cancel',
  'tasks/list',
]);

/** Stateless requests parked for their client's input at once. */
const MAX_PARKED = 1_000;
/** How long past the longest server timeout a parked request stays to be fetched, ms. */
const PARK_GRACE_MS = 2_000;

export interface StatelessDoorParts {
  readonly sessions: SessionRegistry;
  readonly catalog: Catalog;
  readonly router: Router;
  readonly upstreams: Upstreams;
  readonly subscriptions: Subscriptions;
  readonly childMessages: ChildMessages;
  readonly log: Logger;
  /** The longest timeout of any server, ms: a parked request cannot outlive its child's answer. */
  readonly longestTimeoutMs: number;
  readonly instance: string;
  readonly isStopping: () => boolean;
}

export class StatelessDoor {
  /** Requests of the era, and those parked for their client's input. */
  readonly calls: StatelessCalls;
  private readonly listens: Listens;

  constructor(private readonly parts: StatelessDoorParts) {
    // The retry of a parked request may still fetch its timeout error for a little while.
    const parkMs = Math.max(0, parts.longestTimeoutMs) + PARK_GRACE_MS;
    this.calls = new StatelessCalls(parts.sessions, parts.router, parts.catalog, parts.log, { maxParked: MAX_PARKED, parkMs, instance: parts.instance });
    this.listens = new Listens(parts.sessions, parts.catalog, parts.upstreams, parts.subscriptions, parts.log);
  }

  /**
   * A request the transport checked (headers, `_meta`, version): served on its own, or continued
   * when it carries a requestState. Returns what the transport calls when the client goes away
   * before the answer (cancellation), or undefined when the request was answered at once.
   */
  accept(grant: SessionGrant, request: JsonRpcRequest, context: StatelessContext, reply: ReplyStream): (() => void) | undefined {
    const { calls, parts } = this;
    const id = request.id;
    const requestState = request.params?.requestState;
    // A parked request counts as in flight while the proxy drains, so its retry may still finish it.
    if (typeof requestState === 'string' && calls.owns(requestState)) return calls.resume(grant.principal, request, requestState, reply);
    const elsewhere = typeof requestState === 'string' ? calls.mintedElsewhere(requestState) : undefined;
    if (elsewhere !== undefined) {
      // Parked in another instance's memory: starting the request again here would run it twice.
      reply.send(errorResponse(id, ErrorCode.InvalidParams, `Invalid params: requestState belongs to instance ${elsewhere}, and this is ${parts.instance}; the retry must reach the instance that answered input_required`), true);
      return undefined;
    }
    if (parts.isStopping()) {
      reply.send(errorResponse(id, ErrorCode.ConnectionClosed, 'the proxy is shutting down; retry after it restarts'), true);
      return undefined;
    }
    if (NOT_STATELESS.has(request.method)) {
      reply.send(errorResponse(id, ErrorCode.MethodNotFound, `Method not found: ${request.method} is not part of protocol version ${context.protocolVersion}`), true);
      return undefined;
    }
    calls.holdView(grant.scope);
    if (request.method === 'server/discover') {
      reply.send(resultResponse(id, discoverResult(parts.catalog, parts.catalog.current(grant.scope), cacheScopeOf(grant))), true);
      return undefined;
    }
    if (request.method === 'subscriptions/listen') return this.listens.open(grant, request, context, reply);
    return calls.start(grant, request, context, reply, cacheScopeOf(grant));
  }

  /**
   * What a stateless request leaves when it ends; usually nothing (it was answered), so this runs on
   * every request and looks only where something can be: no isolated instances, no view of its own.
   */
  release(session: Session, reason: string): void {
    const { catalog, childMessages, subscriptions, upstreams } = this.parts;
    // Held requests first: closingWithOpenRequests forgets them, and their servers must too.
    if (session.holdingCount > 0) for (const handle of upstreams.all()) handle.abandon(session);
    session.closingWithOpenRequests();
    if (session.inflight.size > 0) session.cancelRequests(`stateless request ended (${reason})`);
    // A listen holds its view itself (a one-request session uses the views held for stateless requests).
    if (session.initialized) catalog.detach(session.scope);
    if (session.serverRequests.size > 0) childMessages.failServerRequests(session, `stateless request ended (${reason})`);
    if (session.subscriptions.size === 0) return;
    for (const [handle, uri] of subscriptions.dropSession(session, upstreams.all())) {
      if (handle.state === 'ready') handle.connection?.request('resources/unsubscribe', { uri }).catch(() => undefined);
    }
  }

  clear(): void {
    this.calls.clear();
  }
}

/**
 * A list may be shared across users and caches ("public", caching.mdx) only when it is the same for
 * everyone: no identity (auth off) and no filter; a view narrowed by a profile or a query is private.
 */
function cacheScopeOf(grant: SessionGrant): CacheScope {
  return grant.principal === 'anonymous' && grant.scope.key === grant.scope.endpoint ? 'public' : 'private';
}
