// Bearer tokens (PROTOCOL.md §8): parsing `Authorization: Bearer …`, finding whose static token it
// is without timing revealing which token, or how much of one, matched, and otherwise handing it
// to OAuth verification when an authorization server is configured. No HTTP server code.

import { createHash, timingSafeEqual } from 'node:crypto';
import type { SwitchboardConfig } from '../../config/types.js';
import { silentLogger, type Logger } from '../../log.js';
import type { Identity } from './identity.js';
import { OAuthAccess, type RequestResource } from './oauth-access.js';

export type { Identity } from './identity.js';
export type { RequestResource } from './oauth-access.js';

/**
 * `missing`: no Authorization header. `malformed`: not `Bearer <b64token>`. `unknown`: a
 * well-formed token that is not configured. `invalid_token`: an access token that failed
 * verification (signature, issuer, audience, expiry). These four answer 401 with the header from
 * wwwAuthenticate(): RFC 6750 §3.1 allows 400 for a malformed request, but MCP clients start
 * their auth flow only on 401 (authorization.mdx), so 401 is the useful answer.
 * `insufficient_scope`: a valid token without a required scope, 403 (step-up, RFC 6750 §3.1).
 * `unavailable`: the authorization server could not be asked, 503.
 */
export type AuthFailure = 'missing' | 'malformed' | 'unknown' | 'invalid_token' | 'insufficient_scope' | 'unavailable';

/** The HTTP status a failure is answered with. */
export function failureStatus(reason: AuthFailure): number {
  return reason === 'insufficient_scope' ? 403 : reason === 'unavailable' ? 503 : 401;
}

export type AuthResult =
  | { readonly ok: true; readonly identity: Identity }
  /** `detail`: for the log only (why the authorization server could not be asked). */
  | { readonly ok: false; readonly reason: AuthFailure; readonly message: string; readonly detail?: string };

/** Characters; longer than any sane token, and it bounds the hashing work per request. */
const MAX_TOKEN_LENGTH = 4096;
/** RFC 7235 §2.1 auth-scheme `Bearer` (case-insensitive), then RFC 6750 §2.1 `b64token`. */
const BEARER = /^bearer +([A-Za-z0-9\-._~+/]+=*)$/i;
const SCHEME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+(?: |$)/;

export type ParsedBearer = { readonly ok: true; readonly token: string } | { readonly ok: false; readonly reason: AuthFailure; readonly message: string };

/** The token of an Authorization header value; never echoes the header in a message. */
export function parseBearer(header: string | undefined): ParsedBearer {
  if (header === undefined || header.trim() === '') return { ok: false, reason: 'missing', message: 'Authorization header required: Bearer <token>' };
  const value = header.trim();
  if (value.length > MAX_TOKEN_LENGTH + 16) return { ok: false, reason: 'malformed', message: 'Authorization header too long' };
  const match = BEARER.exec(value);
  if (match !== null) return { ok: true, token: match[1]! };
  const scheme = SCHEME.test(value) && !/^bearer(?: |$)/i.test(value) ? 'only the Bearer scheme is accepted' : 'expected Bearer <token>';
  return { ok: false, reason: 'malformed', message: `malformed Authorization header: ${scheme}` };
}

interface KnownToken {
  readonly digest: Buffer;
  readonly identity: Identity;
}

const sha256 = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

/** Auth is on exactly when tokens or an authorization server are configured; the config refuses non-loopback listening without. */
export function isAuthEnabled(config: Pick<SwitchboardConfig, 'auth'>): boolean {
  return config.auth.tokens.length > 0 || config.auth.oauth !== undefined;
}

const NO_RESOURCE: RequestResource = { base: undefined, url: undefined };

/** Built once per (re)loaded config; holds digests, never token text. */
export class Authenticator {
  readonly enabled: boolean;
  private readonly known: readonly KnownToken[];
  private readonly anonymous: Identity;
  /** With auth off every request gets this one answer: nothing allocated per request. */
  private readonly anonymousResult: AuthResult;
  /** Access tokens of the configured authorization server; undefined without `auth.oauth`. */
  readonly oauth: OAuthAccess | undefined;

  /** `oauth`: the verifier to keep (a reload that left auth.oauth as it was). */
  constructor(config: Pick<SwitchboardConfig, 'auth' | 'defaultProfile'>, log?: Logger, oauth?: OAuthAccess) {
    this.enabled = isAuthEnabled(config);
    this.known = config.auth.tokens.map((t) => ({
      digest: sha256(t.secret.reveal()),
      identity: Object.freeze({ name: t.name, profile: t.profile, anonymous: false, admin: t.admin }),
    }));
    this.anonymous = Object.freeze({ name: 'anonymous', profile: config.defaultProfile, anonymous: true, admin: true });
    this.anonymousResult = Object.freeze({ ok: true, identity: this.anonymous });
    const settings = config.auth.oauth;
    this.oauth = settings === undefined ? undefined : (oauth ?? new OAuthAccess(settings, config.defaultProfile, log ?? silentLogger()));
  }

  /**
   * The identity of a token name (`anonymous` when auth is off), or undefined when not configured.
   * Access-token identities are not named here: their tokens are checked on every request.
   */
  identityNamed(name: string): Identity | undefined {
    if (!this.enabled) return name === this.anonymous.name ? this.anonymous : undefined;
    return this.known.find((known) => known.identity.name === name)?.identity;
  }

  /**
   * With auth off every request is the anonymous identity, whatever header it carries (clients
   * configured with a token keep working against a local proxy without tokens). With auth on,
   * the presented token is hashed and compared with every known digest: equal-length inputs
   * satisfy timingSafeEqual and hide the tokens' lengths, and visiting every entry hides which
   * one matched. A token that is none of them goes to OAuth verification, which answers at once
   * for a token it has seen, else after verifying it (a promise). `source`: the remote address,
   * which bounds how many new tokens one sender can have verified.
   */
  authenticate(authorization: string | undefined, resource: RequestResource = NO_RESOURCE, source?: string): AuthResult | Promise<AuthResult> {
    if (!this.enabled) return this.anonymousResult;
    const parsed = parseBearer(authorization);
    if (!parsed.ok) return parsed;
    const digest = sha256(parsed.token);
    let found: Identity | undefined;
    for (const known of this.known) {
      const equal = timingSafeEqual(digest, known.digest);
      found = equal ? known.identity : found;
    }
    if (found !== undefined) return { ok: true, identity: found };
    if (this.oauth === undefined) return { ok: false, reason: 'unknown', message: 'unknown bearer token' };
    return this.oauth.admit(parsed.token, digest.toString('base64url'), resource, source);
  }
}

/** What the challenge adds when an authorization server is configured (authorization.mdx, RFC 9728 §5.1). */
export interface ChallengeContext {
  /** The URL of the Protected Resource Metadata for the endpoint asked. */
  readonly resourceMetadata: string;
  /** Scopes to ask for (space-separated); empty: none named. */
  readonly scope: string;
}

/** The WWW-Authenticate value for a 401 or 403 (RFC 6750 §3): error codes only when a token was sent. */
export function wwwAuthenticate(reason: AuthFailure, challenge?: ChallengeContext, description?: string): string {
  let value = 'Bearer realm="mcp-switchboard"';
  if (challenge !== undefined) {
    value += `, resource_metadata="${challenge.resourceMetadata}"`;
    if (challenge.scope !== '') value += `, scope="${challenge.scope}"`;
  }
  switch (reason) {
    case 'missing':
    case 'unavailable':
      return value;
    case 'malformed':
      return `${value}, error="invalid_request", error_description="expected Authorization: Bearer <token>"`;
    case 'unknown':
      return `${value}, error="invalid_token", error_description="unknown token"`;
    case 'invalid_token':
    case 'insufficient_scope':
      return `${value}, error="${reason}", error_description="${quotable(description ?? reason)}"`;
  }
}

/** A quoted-string's content (RFC 7230 §3.2.6): no quotes or backslashes, visible ASCII and spaces only. */
function quotable(text: string): string {
  return text.replace(/["\\]/g, "'").replace(/[^\x20-\x7e]/g, '?');
}
