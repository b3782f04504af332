// What a client may see: its identity (auth/inbound/client-auth.ts) bound to a view, a new
// session's scope from the identity's profile narrowed by the endpoint URL's `?profile=` /
// `?tools=` (SPEC "Endpoints") and by what the catalog shows; and the HTTP answer to a refusal.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { LRUCache } from 'lru-cache';
import type { SwitchboardConfig } from '../config/types.js';
import { ErrorCode } from '../jsonrpc/messages.js';
import { type Catalog } from '../catalog/catalog.js';
import { narrowScope, type ViewScope } from '../catalog/view.js';
import { resolveViewFilter, type ViewFilter } from '../session/filter.js';
import type { Session } from '../session/session.js';
import type { SessionGrant } from '../session/opening.js';
import type { Logger } from '../log.js';
import { failureStatus, wwwAuthenticate, type AuthResult, type ChallengeContext, type Identity } from '../auth/inbound/authenticator.js';
import { ClientAuth } from '../auth/inbound/client-auth.js';
import { JSON_HEADERS } from './http-util.js';

export { RESOURCE_METADATA_PATH } from '../auth/inbound/client-auth.js';
export type { Identity } from '../auth/inbound/authenticator.js';

/** Distinct (profile, query) filters kept compiled; sessions share them, so this only bounds abuse. */
const MAX_CACHED_FILTERS = 1_000;
/**
 * Grants kept at once, for all identities together; past it the cache starts empty again. Each
 * access token is an identity of its own, so a bound per identity would not bound the whole.
 */
const MAX_CACHED_GRANTS = 4_096;
/** Longer URL queries are worked out every time rather than kept: real clients' are short. */
const MAX_CACHED_QUERY_CHARS = 512;

export type GrantResult = { readonly ok: true; readonly grant: SessionGrant } | { readonly ok: false; readonly status: number; readonly message: string };

/** A per-server endpoint whose server the view does not show: as unknown as a server that does not exist. */
const NOT_FOUND = Object.freeze({ ok: false, status: 404, message: 'Not found' } as const);

export class AccessControl {
  /** Who a request's or a session's client is: tokens, access tokens, the RFC 9728 metadata. */
  private readonly clients: ClientAuth;
  private readonly filters = new LRUCache<string, ViewFilter>({ max: MAX_CACHED_FILTERS });
  /**
   * Grants already worked out, by identity, endpoint and URL query. A stateless client asks for
   * one with every request (there is no session to keep it in), and it is the same each time
   * until a reload. Until then a token's identity and an endpoint's scope are the same objects
   * (an access token's for as long as the verifier remembers the token; a new one is a new key).
   */
  private grants = new WeakMap<Identity, WeakMap<ViewScope, Map<string, GrantResult>>>();
  private cachedGrants = 0;

  constructor(
    private config: SwitchboardConfig,
    log: Logger,
    /** Which servers a view shows: judged on their last listing, so asked on every grant, never cached with it. */
    private readonly catalog: Pick<Catalog, 'shows'>,
  ) {
    this.clients = new ClientAuth(config, log);
  }

  /** A reloaded config: new tokens, authorization server and profiles apply to the next request; cached filters are dropped. */
  reconfigure(config: SwitchboardConfig): void {
    this.clients.reconfigure(config);
    this.config = config;
    this.filters.clear();
    this.grants = new WeakMap();
    this.cachedGrants = 0;
  }

  /** The identity a session's owner has under the current config, or undefined when it is gone (ClientAuth.identityOf). */
  identityOf(session: Pick<Session, 'principal' | 'profile'>): Identity | undefined {
    return this.clients.identityOf(session);
  }

  get authEnabled(): boolean {
    return this.clients.enabled;
  }

  /** Who sent the request to `path`: at once, or a promise for an access token not seen before. */
  authenticate(req: IncomingMessage, path: string): AuthResult | Promise<AuthResult> {
    return this.clients.authenticate(req, path);
  }

  /** What a 401 adds to its challenge so an MCP client can find the authorization server; undefined without OAuth. */
  challenge(req: IncomingMessage, path: string): ChallengeContext | undefined {
    return this.clients.challenge(req, path);
  }

  /** RFC 9728 Protected Resource Metadata for the resource at `path`, or undefined without OAuth. */
  resourceMetadata(req: IncomingMessage, path: string): Record<string, unknown> | undefined {
    return this.clients.resourceMetadata(req, path);
  }

  /** A session belongs to the identity that opened it; anyone else is told it does not exist (404). */
  owns(session: Session, identity: Identity): boolean {
    return this.clients.owns(session, identity);
  }

  /** What a new session (or a stateless request) on `endpoint` gets: its identity's bound, narrowed by the URL query. */
  grant(endpoint: ViewScope, identity: Identity, url: string | undefined): GrantResult {
    const result = this.cachedGrant(endpoint, identity, url);
    return result.ok && !this.showsEndpoint(endpoint, result.grant.scope) ? NOT_FOUND : result;
  }

  private cachedGrant(endpoint: ViewScope, identity: Identity, url: string | undefined): GrantResult {
    const search = querystring(url);
    if (search.length > MAX_CACHED_QUERY_CHARS) return this.workOutGrant(endpoint, identity, search);
    if (this.cachedGrants >= MAX_CACHED_GRANTS) {
      this.grants = new WeakMap();
      this.cachedGrants = 0;
    }
    let byEndpoint = this.grants.get(identity);
    if (byEndpoint === undefined) this.grants.set(identity, (byEndpoint = new WeakMap()));
    let byQuery = byEndpoint.get(endpoint);
    if (byQuery === undefined) byEndpoint.set(endpoint, (byQuery = new Map()));
    const known = byQuery.get(search);
    if (known !== undefined) return known;
    const result = this.workOutGrant(endpoint, identity, search);
    byQuery.set(search, result);
    this.cachedGrants += 1;
    return result;
  }

  private workOutGrant(endpoint: ViewScope, identity: Identity, search: string): GrantResult {
    const scope = this.resolveScope(endpoint, identity.profile, search);
    return scope.ok
      ? Object.freeze({ ok: true, grant: Object.freeze({ scope: scope.scope, principal: identity.name, query: search, profile: identity.profile }) })
      : Object.freeze({ ok: false, status: scope.status, message: scope.message });
  }

  /** `alias + separator` of a per-server endpoint's server, so its unprefixed names work in ?tools=. */
  private serverPrefix(endpoint: ViewScope): string | undefined {
    const name = endpoint.servers?.size === 1 ? [...endpoint.servers][0] : undefined;
    const server = name === undefined ? undefined : this.config.servers.find((s) => s.name === name);
    return server === undefined ? undefined : server.alias + this.config.namespace.separator;
  }

  /** The scope for a bound profile and a query string; also how a reload re-resolves live sessions. */
  scopeFor(endpoint: ViewScope, profile: string | undefined, search: string): ScopeResult {
    const resolved = this.resolveScope(endpoint, profile, search);
    return resolved.ok && !this.showsEndpoint(endpoint, resolved.scope) ? NOT_FOUND : resolved;
  }

  /**
   * A per-server endpoint exists for a view only while the view shows its server (Catalog.shows):
   * a token whose profile hides every tool of a server gets 404 there, as for an unknown server.
   */
  private showsEndpoint(endpoint: ViewScope, scope: ViewScope): boolean {
    if (endpoint.servers === undefined) return true;
    for (const server of endpoint.servers) if (this.catalog.shows(scope.policy, server)) return true;
    return false;
  }

  /** The scope for a bound profile and a query string, before asking whether its server is shown. */
  private resolveScope(endpoint: ViewScope, profile: string | undefined, search: string): ScopeResult {
    const prefix = endpoint.prefixed ? undefined : this.serverPrefix(endpoint);
    const cacheKey = `${profile ?? ''}\u0000${search}\u0000${prefix ?? ''}`;
    let filter = this.filters.get(cacheKey);
    if (filter === undefined) {
      const resolved = resolveViewFilter(profile, new URLSearchParams(search), this.config, prefix);
      if (!resolved.ok) return { ok: false, status: resolved.error.status, message: resolved.error.message };
      filter = resolved.filter;
      this.filters.set(cacheKey, filter);
    }
    return { ok: true, scope: narrowScope(endpoint, filter) };
  }
}

type ScopeResult = { readonly ok: true; readonly scope: ViewScope } | { readonly ok: false; readonly status: number; readonly message: string };

function querystring(url: string | undefined): string {
  const at = url?.indexOf('?') ?? -1;
  return at === -1 || url === undefined ? '' : url.slice(at + 1);
}

const STATUS_TEXT: Readonly<Record<number, string>> = { 401: 'Unauthorized', 403: 'Forbidden', 503: 'Service Unavailable' };

/**
 * 401 with the RFC 6750 challenge (403 for a missing scope, 503 when the authorization server
 * cannot be asked); the body is a JSON-RPC error like every other refusal.
 */
export function sendUnauthorized(res: ServerResponse, failure: Extract<AuthResult, { ok: false }>, challenge?: ChallengeContext): void {
  const status = failureStatus(failure.reason);
  const headers: Record<string, string> = { ...JSON_HEADERS, connection: 'close' };
  // Closing the connection also ends a body still trickling in: a stranger cannot hold it open.
  if (status === 503) headers['retry-after'] = '10';
  else headers['www-authenticate'] = wwwAuthenticate(failure.reason, challenge, failure.message);
  res.writeHead(status, headers);
  res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: ErrorCode.InvalidRequest, message: `${STATUS_TEXT[status] ?? 'Unauthorized'}: ${failure.message}` } }));
}

/** The same refusal on a socket about to be upgraded (no ServerResponse exists there). */
export function unauthorizedUpgrade(failure: Extract<AuthResult, { ok: false }>, challenge?: ChallengeContext): string {
  const status = failureStatus(failure.reason);
  const header = status === 503 ? 'retry-after: 10' : `www-authenticate: ${wwwAuthenticate(failure.reason, challenge, failure.message)}`;
  return `HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? 'Unauthorized'}\r\n${header}\r\nconnection: close\r\ncontent-length: 0\r\n\r\n`;
}
