// Who a client is under the config of the moment: a request's bearer token (a configured token, or
// an access token verified for the resource it was sent to), the identity a session's owner keeps
// across a reload, and what a 401 tells a client about where to sign in (RFC 9728). It knows no
// catalog and no view: which tools an identity sees is worked out by the transport
// (transport/access.ts), from the identity's profile.
import { Secret } from '../../config/secret.js';
import type { SwitchboardConfig } from '../../config/types.js';
import type { Logger } from '../../log.js';
import { Authenticator, type AuthResult, type ChallengeContext } from './authenticator.js';
import type { Identity } from './identity.js';
import { OAUTH_PRINCIPAL_PREFIX } from './oauth-access.js';

/** A Host header's name (a DNS name, an IPv4 address or a bracketed IPv6 one) and port, digits only. */
const HOST_AND_PORT = /^((?:\[[0-9A-Fa-f:.]+\])|(?:[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?))(?::(\d{1,5}))?$/;

/** RFC 9728 §3: where Protected Resource Metadata lives, the resource's path appended. */
export const RESOURCE_METADATA_PATH = '/.well-known/oauth-protected-resource';

/** What authentication reads of an HTTP request (an IncomingMessage is one). */
export interface ClientRequest {
  readonly headers: { readonly host?: string | undefined; readonly authorization?: string | string[] | undefined };
  readonly socket: { readonly remoteAddress?: string | undefined; readonly localPort?: number | undefined };
}

/** A session's owner, as the session remembers it. */
export interface Owner {
  readonly principal: string;
  readonly profile: string | undefined;
}

export class ClientAuth {
  private authenticator: Authenticator;
  /** Whether sessions of access-token identities survive the last reload (see identityOf). */
  private oauthSessionsKept = true;

  constructor(
    private config: SwitchboardConfig,
    private readonly log: Logger,
  ) {
    this.authenticator = new Authenticator(config, log.child({ component: 'oauth' }));
    this.authenticator.oauth?.prefetch();
  }

  /** A reloaded config: new tokens and authorization server apply to the next request. */
  reconfigure(config: SwitchboardConfig): void {
    this.oauthSessionsKept = config.auth.oauth !== undefined && oauthMapping(config) === oauthMapping(this.config);
    // Unchanged OAuth settings keep their verifier: remembered tokens and fetched keys stay.
    const kept = sameOAuth(this.config, config) ? this.authenticator.oauth : undefined;
    this.config = config;
    this.authenticator = new Authenticator(config, this.log.child({ component: 'oauth' }), kept);
    if (kept === undefined) this.authenticator.oauth?.prefetch();
  }

  /**
   * The identity a session's owner has under the current config, or undefined when it is gone. An
   * access token's identity keeps the profile it opened with while the OAuth settings that mapped
   * it stay the same; when they changed, its session closes and the client signs in again.
   */
  identityOf(owner: Owner): Identity | undefined {
    if (!owner.principal.startsWith(OAUTH_PRINCIPAL_PREFIX)) return this.authenticator.identityNamed(owner.principal);
    return this.oauthSessionsKept ? { name: owner.principal, profile: owner.profile, anonymous: false, admin: false } : undefined;
  }

  get enabled(): boolean {
    return this.authenticator.enabled;
  }

  /**
   * Who sent the request to `path` (an endpoint's, or a mounted page's). Synchronous but for an
   * access token not seen before, which is verified first (a promise).
   */
  authenticate(req: ClientRequest, path: string): AuthResult | Promise<AuthResult> {
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
  private publicBase(req: ClientRequest): string | undefined {
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
  challenge(req: ClientRequest, path: string): ChallengeContext | undefined {
    const oauth = this.config.auth.oauth;
    if (oauth === undefined) return undefined;
    return { resourceMetadata: `${this.publicBase(req) ?? ''}${RESOURCE_METADATA_PATH}${resourcePath(path)}`, scope: oauth.requiredScopes.join(' ') };
  }

  /**
   * RFC 9728 Protected Resource Metadata for the resource at `path` ('' for the proxy as a whole),
   * or undefined when no authorization server is configured.
   */
  resourceMetadata(req: ClientRequest, path: string): Record<string, unknown> | undefined {
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
  owns(owner: Owner, identity: Identity): boolean {
    // An access token's claims may have moved its owner to another profile since the session
    // opened: the old session is then not theirs to use (404), and the client starts a new one.
    if (owner.principal !== identity.name) return false;
    return !identity.name.startsWith(OAUTH_PRINCIPAL_PREFIX) || owner.profile === identity.profile;
  }
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
