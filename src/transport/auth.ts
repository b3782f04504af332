// Static bearer tokens (PROTOCOL.md §8): parsing `Authorization: Bearer …` and finding whose token
// it is without timing revealing which token, or how much of one, matched. No HTTP server code.

import { createHash, timingSafeEqual } from 'node:crypto';
import type { SwitchboardConfig } from '../config/types.js';

/** Who a session belongs to. */
export interface Identity {
  /** The token's `name`, or `anonymous` when auth is off; unique among tokens. */
  readonly name: string;
  /** The profile bounding this identity's views (resolveViewFilter's `bound`), undefined for none. */
  readonly profile: string | undefined;
  readonly anonymous: boolean;
  /** May read operations data and restart servers (TokenConfig.admin; everyone when auth is off). */
  readonly admin: boolean;
}

/**
 * `missing`: no Authorization header. `malformed`: not `Bearer <b64token>`. `unknown`: a
 * well-formed token that is not configured. The transport answers all three with 401 and the
 * header from wwwAuthenticate(): RFC 6750 §3.1 allows 400 for a malformed request, but MCP
 * clients start their auth flow only on 401 (authorization.mdx), so 401 is the useful answer.
 */
export type AuthFailure = 'missing' | 'malformed' | 'unknown';

export type AuthResult =
  | { readonly ok: true; readonly identity: Identity }
  | { readonly ok: false; readonly reason: AuthFailure; readonly message: string };

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

/** Auth is on exactly when tokens are configured; the config refuses non-loopback listening without. */
export function isAuthEnabled(config: Pick<SwitchboardConfig, 'auth'>): boolean {
  return config.auth.tokens.length > 0;
}

/** Built once per (re)loaded config; holds digests, never token text. */
export class Authenticator {
  readonly enabled: boolean;
  private readonly known: readonly KnownToken[];
  private readonly anonymous: Identity;
  /** With auth off every request gets this one answer: nothing allocated per request. */
  private readonly anonymousResult: AuthResult;

  constructor(config: Pick<SwitchboardConfig, 'auth' | 'defaultProfile'>) {
    this.enabled = isAuthEnabled(config);
    this.known = config.auth.tokens.map((t) => ({
      digest: sha256(t.secret.reveal()),
      identity: Object.freeze({ name: t.name, profile: t.profile, anonymous: false, admin: t.admin }),
    }));
    this.anonymous = Object.freeze({ name: 'anonymous', profile: config.defaultProfile, anonymous: true, admin: true });
    this.anonymousResult = Object.freeze({ ok: true, identity: this.anonymous });
  }

  /** The identity of a token name (`anonymous` when auth is off), or undefined when not configured. */
  identityNamed(name: string): Identity | undefined {
    if (!this.enabled) return name === this.anonymous.name ? this.anonymous : undefined;
    return this.known.find((known) => known.identity.name === name)?.identity;
  }

  /**
   * With auth off every request is the anonymous identity, whatever header it carries (clients
   * configured with a token keep working against a local proxy without tokens). With auth on,
   * the presented token is hashed and compared with every known digest: equal-length inputs
   * satisfy timingSafeEqual and hide the tokens' lengths, and visiting every entry hides which
   * one matched.
   */
  authenticate(authorization: string | undefined): AuthResult {
    if (!this.enabled) return this.anonymousResult;
    const parsed = parseBearer(authorization);
    if (!parsed.ok) return parsed;
    const digest = sha256(parsed.token);
    let found: Identity | undefined;
    for (const known of this.known) {
      const equal = timingSafeEqual(digest, known.digest);
      found = equal ? known.identity : found;
    }
    if (found === undefined) return { ok: false, reason: 'unknown', message: 'unknown bearer token' };
    return { ok: true, identity: found };
  }
}

/** The WWW-Authenticate value for a 401 (RFC 6750 §3): error codes only when a token was sent. */
export function wwwAuthenticate(reason: AuthFailure): string {
  const realm = 'Bearer realm="mcp-switchboard"';
  switch (reason) {
    case 'missing':
      return realm;
    case 'malformed':
      return `${realm}, error="invalid_request", error_description="expected Authorization: Bearer <token>"`;
    case 'unknown':
      return `${realm}, error="invalid_token", error_description="unknown token"`;
  }
}
