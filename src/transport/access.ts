// Who may use the proxy and what they see: bearer auth per request, and a new session's view scope
// from its identity's profile narrowed by the endpoint URL's `?profile=` / `?tools=` (SPEC "Endpoints").
import type { IncomingMessage, ServerResponse } from 'node:http';
import { LRUCache } from 'lru-cache';
import type { SwitchboardConfig } from '../config/types.js';
import { ErrorCode } from '../jsonrpc/messages.js';
import { narrowScope, type ViewScope } from '../catalog/catalog.js';
import { resolveViewFilter, type ViewFilter } from '../session/filter.js';
import type { Session, SessionGrant } from '../session/session.js';
import { Authenticator, wwwAuthenticate, type AuthResult, type Identity } from './auth.js';
import { JSON_HEADERS } from './http-util.js';

export type { Identity } from './auth.js';

/** Distinct (profile, query) filters kept compiled; sessions share them, so this only bounds abuse. */
const MAX_CACHED_FILTERS = 1_000;

export type GrantResult = { readonly ok: true; readonly grant: SessionGrant } | { readonly ok: false; readonly status: number; readonly message: string };

export class AccessControl {
  private authenticator: Authenticator;
  private readonly filters = new LRUCache<string, ViewFilter>({ max: MAX_CACHED_FILTERS });

  constructor(private config: SwitchboardConfig) {
    this.authenticator = new Authenticator(config);
  }

  /** A reloaded config: new tokens and profiles apply to the next request; cached filters are dropped. */
  reconfigure(config: SwitchboardConfig): void {
    this.config = config;
    this.authenticator = new Authenticator(config);
    this.filters.clear();
  }

  /** The identity a session's principal has under the current config, or undefined when it is gone. */
  identityNamed(principal: string): Identity | undefined {
    return this.authenticator.identityNamed(principal);
  }

  get authEnabled(): boolean {
    return this.authenticator.enabled;
  }

  authenticate(req: IncomingMessage): AuthResult {
    const header = req.headers.authorization;
    return this.authenticator.authenticate(Array.isArray(header) ? header[0] : header);
  }

  /** A session belongs to the identity that opened it; anyone else is told it does not exist (404). */
  owns(session: Session, identity: Identity): boolean {
    return session.principal === identity.name;
  }

  /** What a new session on `endpoint` gets: its identity's bound, narrowed by the URL query. */
  grant(endpoint: ViewScope, identity: Identity, url: string | undefined): GrantResult {
    const search = querystring(url);
    const scope = this.scopeFor(endpoint, identity.profile, search);
    return scope.ok ? { ok: true, grant: { scope: scope.scope, principal: identity.name, query: search } } : scope;
  }

  /** `alias + separator` of a per-server endpoint's server, so its unprefixed names work in ?tools=. */
  private serverPrefix(endpoint: ViewScope): string | undefined {
    const name = endpoint.servers?.size === 1 ? [...endpoint.servers][0] : undefined;
    const server = name === undefined ? undefined : this.config.servers.find((s) => s.name === name);
    return server === undefined ? undefined : server.alias + this.config.namespace.separator;
  }

  /** The scope for a bound profile and a query string; also how a reload re-resolves live sessions. */
  scopeFor(endpoint: ViewScope, profile: string | undefined, search: string): { ok: true; scope: ViewScope } | { ok: false; status: number; message: string } {
    const prefix = endpoint.prefixed ? undefined : this.serverPrefix(endpoint);
    const cacheKey = `${profile ?? ''}\u0000${search}\u0000${prefix ?? ''}`;
    let filter = this.filters.get(cacheKey);
    if (filter === undefined) {
      const resolved = resolveViewFilter(profile, new URLSearchParams(search), this.config, prefix);
      if (!resolved.ok) return { ok: false, status: resolved.error.status, message: resolved.error.message };
      filter = resolved.filter;
      this.filters.set(cacheKey, filter);
    }
    // A server outside the view is unknown to this identity on its own endpoint too.
    if (endpoint.servers !== undefined && ![...endpoint.servers].some((server) => filter.allowsServer(server))) {
      return { ok: false, status: 404, message: 'Not found' };
    }
    return { ok: true, scope: narrowScope(endpoint, filter) };
  }
}

function querystring(url: string | undefined): string {
  const at = url?.indexOf('?') ?? -1;
  return at === -1 || url === undefined ? '' : url.slice(at + 1);
}

/** 401 with the RFC 6750 challenge; the body is a JSON-RPC error like every other refusal. */
export function sendUnauthorized(res: ServerResponse, failure: Extract<AuthResult, { ok: false }>): void {
  // Closing the connection also ends a body still trickling in: a stranger cannot hold it open.
  res.writeHead(401, { ...JSON_HEADERS, 'www-authenticate': wwwAuthenticate(failure.reason), connection: 'close' });
  res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: ErrorCode.InvalidRequest, message: `Unauthorized: ${failure.message}` } }));
}

/** The same refusal on a socket about to be upgraded (no ServerResponse exists there). */
export function unauthorizedUpgrade(failure: Extract<AuthResult, { ok: false }>): string {
  return `HTTP/1.1 401 Unauthorized\r\nwww-authenticate: ${wwwAuthenticate(failure.reason)}\r\nconnection: close\r\ncontent-length: 0\r\n\r\n`;
}
