// Who may use the proxy and what they see: bearer auth per request, and a new session's view scope
// from its identity's profile narrowed by the endpoint URL's `?profile=` / `?tools=` (SPEC "Endpoints").
import type { IncomingMessage, ServerResponse } from 'node:http';
import { LRUCache } from 'lru-cache';
import type { SwitchboardConfig } from '../config/types.js';
import { Secret } from '../config/secret.js';
import { ErrorCode } from '../jsonrpc/messages.js';
import { type Catalog } from '../catalog/catalog.js';
import { narrowScope, type ViewScope } from '../catalog/view.js';
import { resolveViewFilter, type ViewFilter } from '../session/filter.js';
import type { Session, SessionGrant } from '../session/session.js';
import type { Logger } from '../log.js';
import { Authenticator, failureStatus, wwwAuthenticate, type AuthResult, type ChallengeContext, type Identity } from './auth.js';
import { JSON_HEADERS } from './http-util.js';
import { OAUTH_PRINCIPAL_PREFIX } from '../auth/oauth-access.js';

/** A Host header's name (a DNS name, an IPv4 address or a bracketed IPv6 one) and port, digits only. */
const HOST_AND_PORT = /^((?:\[[0-9A-Fa-f:.]+\])|(?:[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?))(?::(\d{1,5}))?$/;

/** RFC 9728 §3: where Protected Resource Metadata lives, the resource's path appended. */
export const RESOURCE_METADATA_PATH = '/.well-known/oauth-protected-resource';

export type { Identity } from './auth.js';

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
  private authenticator: Authenticator;
  private readonly filters = new LRUCache<string, ViewFilter>({ max: MAX_CACHED_FILTERS });
  /**
   * Grants already worked out, by identity, endpoint and URL query. A stateless client asks for
   * one with every request (there is no session to keep it in), and it is the same each time
   * until a reload. Until then a token's identity and an endpoint's scope are the same objects
   * (an access token's for as long as the verifier remembers the token; a new one is a new key).
   */
  private grants = new WeakMap<Identity, WeakMap<ViewScope, Map<string, GrantResult>>>();
  private cachedGrants = 0;
  /** Whether sessions of access-token identities survive the last reload (see identityOf). */
  private oauthSessionsKept = true;

  constructor(
    private config: SwitchboardConfig,
    private readonly log: Logger,
    /** Which servers a view shows: judged on their last listing, so asked on every grant, never cached with it. */
    private readonly catalog: Pick<Catalog, 'shows'>,
  ) {
    this.authenticator = new Authenticator(config, log.child({ component: 'oauth' }));
    this.authenticator.oauth?.prefetch();
  }

  /** A reloaded config: new tokens, authorization server and profiles apply to the next request; cached filters are dropped. */
  reconfigure(config: SwitchboardConfig): void {
    this.oauthSessionsKept = config.auth.oauth !== undefined && oauthMapping(config) === oauthMapping(this.config);
    // Unchanged OAuth settings keep their verifier: remembered tokens and fetched keys stay.
    const kept = sameOAuth(this.config, config) ? this.authenticator.oauth : undefined;
    this.config = config;
    this.authenticator = new Authenticator(config, this.log.child({ component: 'oauth' }), kept);
    if (kept === undefined) this.authenticator.oauth?.prefetch();
    this.filters.clear();
    this.grants = new WeakMap();
    this.cachedGrants = 0;
  }

  /**
   * The identity a session's owner has under the current config, or undefined when it is gone. An
   * access token's identity keeps the profile it opened with while the OAuth settings that mapped
   * it stay the same; when they changed, its session closes and the client signs in again.
   */
  identityOf(session: Pick<Session, 'principal' | 'profile'>): Identity | undefined {
    if (!session.principal.startsWith(OAUTH_PRINCIPAL_PREFIX)) return this.authenticator.identityNamed(session.principal);
    return this.oauthSessionsKept ? { name: session.principal, profile: session.profile, anonymous: false, admin: false } : undefined;
  }

  get authEnabled(): boolean {
    return this.authenticator.enabled;
  }

  /**
   * Who sent the request to `path` (an endpoint's, or a mounted page's). Synchronous but for an
   * access token not seen before, which is verified first (a promise).
   */
  authenticate(req: IncomingMessage, path: string): AuthResult | Promise<AuthResult> {
    const header = req.headers.authorization;
    const authorization = Array.isArray(header) ? header[0] : header;
    if (this.authenticator.oauth === undefined) return this.authenticator.authenticate(authorization);
    const base = this.publicBase(req);
    return this.authenticator.authenticate(authorization, { base, url: base === undefined ? undefined : base + resourcePath(path) }, req.socket.remoteAddress);
  }

  /**
   * `scheme://host[:port]` clients reach the proxy at: `listen.publicUrl`, else the request's Host
   * (only on a loopback listener, where the config allows OAuth without publicUrl), and only when
   * its port is the very port the connection arrived on: a token minted for another service on
   * this machine names another port, so no Host a client picks can make it count as ours.
   */
  private publicBase(req: IncomingMessage): string | undefined {
    const configured = this.config.listen.publicUrl;
    if (configured !== undefined) return configured;
    const match = HOST_AND_PORT.exec(req.headers.host ?? '');
    if (match === null) return undefined;
    const secure = this.config.listen.tls !== undefined;
    const port = match[2] === undefined ? (secure ? 443 : 80) : Number(match[2]);
    if (port !== req.socket.localPort) return undefined;
    return `${secure ? 'https' : 'http'}://${(match[1] as string).toLowerCase()}${match[2] === undefined ? '' : `:${match[2]}`}`;
  }

  /** What a 401 adds to its challenge so an MCP client can find the authorization server; undefined without OAuth. */
  challenge(req: IncomingMessage, path: string): ChallengeContext | undefined {
    const oauth = this.config.auth.oauth;
    if (oauth === undefined) return undefined;
    return { resourceMetadata: `${this.publicBase(req) ?? ''}${RESOURCE_METADATA_PATH}${resourcePath(path)}`, scope: oauth.requiredScopes.join(' ') };
  }

  /**
   * RFC 9728 Protected Resource Metadata for the resource at `path` ('' for the proxy as a whole),
   * or undefined when no authorization server is configured.
   */
  resourceMetadata(req: IncomingMessage, path: string): Record<string, unknown> | undefined {
    const oauth = this.config.auth.oauth;
    const base = this.publicBase(req);
    if (oauth === undefined || base === undefined) return undefined;
    return {
      resource: base + path,
      authorization_servers: [oauth.issuer],
      ...(oauth.requiredScopes.length > 0 ? { scopes_supported: oauth.requiredScopes } : {}),
      bearer_methods_supported: ['header'],
      resource_name: 'mcp-switchboard',
    };
  }

  /** A session belongs to the identity that opened it; anyone else is told it does not exist (404). */
  owns(session: Session, identity: Identity): boolean {
    // An access token's claims may have moved its owner to another profile since the session
    // opened: the old session is then not theirs to use (404), and the client starts a new one.
    if (session.principal !== identity.name) return false;
    return !identity.name.startsWith(OAUTH_PRINCIPAL_PREFIX) || session.profile === identity.profile;
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

/** What decides an access token's identity and profile: a change to any of it re-maps every identity. */
function oauthMapping(config: SwitchboardConfig): string {
  const oauth = config.auth.oauth;
  return oauth === undefined
    ? ''
    : JSON.stringify([oauth.issuer, oauth.audience, oauth.requiredScopes, oauth.profileClaim, oauth.profiles, oauth.adminValues, config.defaultProfile]);
}

/** Everything the verifier was built from is the same (the introspection secret compared as a secret). */
function sameOAuth(a: SwitchboardConfig, b: SwitchboardConfig): boolean {
  const before = a.auth.oauth;
  const after = b.auth.oauth;
  if (before === undefined || after === undefined || a.defaultProfile !== b.defaultProfile) return false;
  if (JSON.stringify(before) !== JSON.stringify(after)) return false;
  return Secret.same(before.introspection?.clientSecret, after.introspection?.clientSecret);
}

/**
 * The resource a path belongs to: an endpoint is its own, the legacy transport's `/messages` is
 * its stream's `/sse` (one session, one token), and mounted pages are the proxy's own, opened by a
 * token for the aggregate endpoint (or the whole proxy).
 */
function resourcePath(path: string): string {
  if (path.endsWith('/messages')) return `${path.slice(0, -'/messages'.length)}/sse`;
  return path.endsWith('/mcp') || path.endsWith('/sse') || path.endsWith('/ws') ? path : '/mcp';
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
