// Access tokens of the configured authorization server: JWTs verified against its published keys
// (RFC 9068), opaque ones asked about at its introspection endpoint (RFC 7662). Verifying costs a
// signature check or a round trip, so each token is verified once and remembered until it expires;
// a request whose token is remembered is answered without waiting for anything.
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { JWTHeaderParameters, JWTPayload, createRemoteJWKSet } from 'jose';
import { isLoopbackHost } from '../../config/listen.js';
import type { OAuthConfig } from '../../config/types.js';
import { isObject, type JsonObject } from '../../jsonrpc/messages.js';
import type { Logger } from '../../log.js';
import { boundedFetch, fetchJson } from './http-json.js';
import { fetchIssuerMetadata, type IssuerMetadata } from './issuer-metadata.js';
import { claimValues, scopesOf } from './token-claims.js';
import { notAnAccessToken } from './token-kind.js';
import { DEFAULT_GATE_LIMITS, VerificationGate, tokenShape, type GateLimits } from './verification-gate.js';

/** What a valid token says, as far as the proxy cares. */
export interface VerifiedToken {
  readonly subject: string;
  /** `aud`, always as a list. */
  readonly audiences: readonly string[];
  readonly scopes: ReadonlySet<string>;
  /** When it expires, ms since the epoch (skew included); Infinity when it says nothing. */
  readonly expiresAt: number;
  /** Until when it is trusted without asking again (its expiry, capped), ms since the epoch. */
  readonly validUntil: number;
  /** The values of the configured profile claim (`groups`, `roles`, ...). */
  readonly claimValues: readonly string[];
}

export type Verification =
  | { readonly ok: true; readonly token: VerifiedToken }
  /**
   * `invalid`: the token is bad (401). `unavailable`: it could not be checked now, the provider is
   * unreachable (503). `message` is for the client; `detail`, for the log only, may name the
   * provider's internal URLs and errors.
   */
  | { readonly ok: false; readonly kind: 'invalid' | 'unavailable'; readonly message: string; readonly detail?: string };

/** Tokens remembered at once; each entry is small, and an LRU bounds a flood of distinct ones. */
const MAX_REMEMBERED = 10_000;
/** A rejected token is not checked again for this long (a client retrying it, or a flood of one). */
const REJECTED_FOR_MS = 30_000;
/** Introspection answers are trusted this long at most, so a revoked token stops working soon. */
const INTROSPECTION_TRUST_MS = 60_000;
/** A verified JWT is checked again after this long even if it lives longer (keys the provider withdrew). */
const JWT_TRUST_MS = 10 * 60_000;
/** What a client is told when its token could not be checked; the reason goes to the log. */
const UNAVAILABLE_MESSAGE = 'the authorization server could not be reached to check the access token; retry later';
/** Per request to the provider: metadata, keys, introspection. */
const PROVIDER_TIMEOUT_MS = 5_000;
/** After the provider's metadata could not be read, requests fail fast this long before it is tried again. */
const METADATA_RETRY_MS = 10_000;
/** Keys are refetched at least this often even when no token names an unknown one (rotation, revocation). */
const JWKS_MAX_AGE_MS = 10 * 60_000;

/** Settings tests (and a future config) may change; the defaults are the constants above. */
export interface VerifierOptions {
  readonly jwtTrustMs?: number;
  readonly introspectionTrustMs?: number;
  readonly gate?: GateLimits;
}

type Jose = typeof import('jose');
let joseModule: Promise<Jose> | undefined;
/** jose, loaded with the first access token: a proxy without OAuth (most) never pays for it at start. */
function jose(): Promise<Jose> {
  joseModule ??= import('jose');
  return joseModule;
}

/** Three base64url parts: a JWS in compact form (the signature part empty for `alg: none`). */
const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

export class OAuthVerifier {
  private readonly remembered = new LRUCache<string, VerifiedToken>({ max: MAX_REMEMBERED });
  private readonly rejected = new LRUCache<string, string>({ max: MAX_REMEMBERED, ttl: REJECTED_FOR_MS });
  /** Verifications under way, so concurrent requests with one new token verify it once. */
  private readonly pending = new Map<string, Promise<Verification>>();
  /** Who may start a verification now (per source, per token shape, after provider failures). */
  private readonly gate: VerificationGate;
  private readonly trust: { readonly jwtMs: number; readonly introspectionMs: number };
  private metadata: Promise<IssuerMetadata> | undefined;
  private metadataFailedAt = 0;
  private keys: ReturnType<typeof createRemoteJWKSet> | undefined;

  constructor(
    private readonly config: OAuthConfig,
    private readonly log: Logger,
    options: VerifierOptions = {},
  ) {
    this.gate = new VerificationGate(options.gate ?? DEFAULT_GATE_LIMITS);
    this.trust = { jwtMs: options.jwtTrustMs ?? JWT_TRUST_MS, introspectionMs: options.introspectionTrustMs ?? INTROSPECTION_TRUST_MS };
  }

  /** Reads the provider's metadata ahead of the first token, so a misconfiguration shows in the log at start. */
  prefetch(): void {
    this.keySet()
      .then((keys) => keys.reload())
      .catch((error: unknown) => this.log.warn({ issuer: this.config.issuer, err: error instanceof Error ? error.message : String(error) }, 'the authorization server\'s keys could not be read yet'));
  }

  /** A digest names a token in memory: the token itself is never kept. */
  static digest(token: string): string {
    return createHash('sha256').update(token, 'utf8').digest('base64url');
  }

  /** The remembered answer for a token, or undefined when it has to be verified (`verify`). */
  known(digest: string, now: number): Verification | undefined {
    const token = this.remembered.get(digest);
    if (token !== undefined) {
      if (token.validUntil > now) return { ok: true, token };
      // Trusted no longer is not expired: the cap on trust (revocation, withdrawn keys) is ours,
      // so a token that is itself still valid is verified again rather than refused.
      if (token.expiresAt > now) return undefined;
      this.remembered.delete(digest);
      return { ok: false, kind: 'invalid', message: 'the access token has expired' };
    }
    const reason = this.rejected.get(digest);
    return reason === undefined ? undefined : { ok: false, kind: 'invalid', message: reason };
  }

  /** `source`: the request's remote address, which the gate bounds new verifications by. */
  verify(token: string, digest: string, source?: string): Promise<Verification> {
    let running = this.pending.get(digest);
    if (running !== undefined) return running;
    // A token verified before (its trust ran out) is no stranger's invention.
    const entry = this.gate.enter(source, tokenShape(token), this.remembered.has(digest));
    if (!entry.admitted) return Promise.resolve({ ok: false, kind: 'unavailable', message: UNAVAILABLE_MESSAGE, detail: entry.detail });
    running = this.check(token)
      .then((result) => {
        if (result.ok) this.remembered.set(digest, result.token);
        else if (result.kind === 'invalid') {
          this.remembered.delete(digest);
          this.rejected.set(digest, result.message);
        }
        entry.ticket.release(result.ok ? 'ok' : result.kind);
        return result;
      }, (error: unknown) => {
        entry.ticket.release('unavailable');
        throw error;
      })
      .finally(() => this.pending.delete(digest));
    this.pending.set(digest, running);
    return running;
  }

  private async check(token: string): Promise<Verification> {
    if (COMPACT_JWS.test(token)) return this.checkJwt(token);
    if (this.config.introspection !== undefined) return this.introspect(token, this.config.introspection);
    return { ok: false, kind: 'invalid', message: 'the access token is not a JWT, and no introspection endpoint is configured' };
  }

  private async checkJwt(token: string): Promise<Verification> {
    let keys: ReturnType<typeof createRemoteJWKSet>;
    try {
      keys = await this.keySet();
    } catch (error) {
      return unavailable(error);
    }
    const { jwtVerify, errors } = await jose();
    let payload: JWTPayload;
    let header: JWTHeaderParameters;
    try {
      ({ payload, protectedHeader: header } = await jwtVerify(token, keys, {
        issuer: this.config.issuer,
        algorithms: [...this.config.algorithms],
        clockTolerance: this.config.clockSkewSeconds,
        requiredClaims: ['exp', 'sub'],
      }));
    } catch (error) {
      return jwtFailure(error, this.config.issuer, errors);
    }
    if (typeof payload.sub !== 'string' || payload.sub === '') return { ok: false, kind: 'invalid', message: 'the access token names no subject' };
    // Refresh and ID tokens are signed by the same keys for the same issuer.
    const otherKind = notAnAccessToken(header.typ, payload as JsonObject);
    if (otherKind !== undefined) return { ok: false, kind: 'invalid', message: otherKind };
    const expiresAt = (payload.exp ?? 0) * 1000 + this.config.clockSkewSeconds * 1000;
    return { ok: true, token: this.verified(payload as JsonObject, expiresAt, Math.min(expiresAt, Date.now() + this.trust.jwtMs)) };
  }

  private async introspect(token: string, introspection: NonNullable<OAuthConfig['introspection']>): Promise<Verification> {
    let answer: unknown;
    try {
      // client_secret_basic (RFC 6749 §2.3.1): each part form-encoded before base64.
      const basic = Buffer.from(`${encodeURIComponent(introspection.clientId)}:${encodeURIComponent(introspection.clientSecret.reveal())}`).toString('base64');
      answer = await fetchJson(introspection.endpoint, {
        timeoutMs: PROVIDER_TIMEOUT_MS,
        form: { token, token_type_hint: 'access_token' },
        headers: { authorization: `Basic ${basic}` },
      });
    } catch (error) {
      return unavailable(error, 'the introspection endpoint');
    }
    if (!isObject(answer)) return { ok: false, kind: 'unavailable', message: UNAVAILABLE_MESSAGE, detail: 'the introspection endpoint answered no JSON object' };
    if (answer.active !== true) return { ok: false, kind: 'invalid', message: 'the access token is not active' };
    if (answer.token_type === 'refresh_token') return { ok: false, kind: 'invalid', message: 'a refresh token is not an access token' };
    if (answer.iss !== undefined && answer.iss !== this.config.issuer) return { ok: false, kind: 'invalid', message: `the access token was not issued by ${this.config.issuer}` };
    if (typeof answer.sub !== 'string' || answer.sub === '') return { ok: false, kind: 'invalid', message: 'the access token names no subject' };
    const now = Date.now();
    const expires = typeof answer.exp === 'number' ? answer.exp * 1000 + this.config.clockSkewSeconds * 1000 : Infinity;
    if (expires <= now) return { ok: false, kind: 'invalid', message: 'the access token has expired' };
    return { ok: true, token: this.verified(answer, expires, Math.min(expires, now + this.trust.introspectionMs)) };
  }

  private verified(claims: JsonObject, expiresAt: number, validUntil: number): VerifiedToken {
    const aud = claims.aud;
    return {
      subject: String(claims.sub),
      audiences: typeof aud === 'string' ? [aud] : Array.isArray(aud) ? aud.filter((a): a is string => typeof a === 'string') : [],
      scopes: scopesOf(claims),
      expiresAt,
      validUntil,
      claimValues: this.config.profileClaim === undefined ? [] : claimValues(claims, this.config.profileClaim),
    };
  }

  private async keySet(): Promise<ReturnType<typeof createRemoteJWKSet>> {
    if (this.keys !== undefined) return this.keys;
    const uri = this.config.jwksUri ?? (await this.issuerMetadata()).jwksUri;
    if (uri === undefined) throw new Error(`the metadata of ${this.config.issuer} names no jwks_uri; set auth.oauth.jwksUri`);
    const url = new URL(uri);
    // The keys decide which tokens are genuine: never over plain http beyond this machine.
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname))) throw new Error(`the key set URL ${uri} is not https`);
    // jose refetches the set when a token names a key it lacks, at most once per cooldown (a
    // failed fetch starts no cooldown, but the gate's backoff holds new tokens after it). Its own
    // fetch reads a body whole: the key set is read with the bounds of every provider answer.
    const { createRemoteJWKSet, customFetch } = await jose();
    const fetchKeys = (href: string, init: RequestInit): Promise<Response> =>
      boundedFetch(href, init).catch((error: unknown) => {
        const reason = error instanceof Error ? error.message : String(error);
        this.log.error({ jwksUri: uri, err: error instanceof Error && error.name === 'TimeoutError' ? `no answer within ${PROVIDER_TIMEOUT_MS} ms` : reason }, 'the authorization server\'s key set could not be read; tokens signed with a key not yet known are answered 503');
        throw error;
      });
    this.keys = createRemoteJWKSet(url, { cooldownDuration: this.config.jwksCooldownMs, cacheMaxAge: JWKS_MAX_AGE_MS, timeoutDuration: PROVIDER_TIMEOUT_MS, [customFetch]: fetchKeys });
    return this.keys;
  }

  private issuerMetadata(): Promise<IssuerMetadata> {
    const now = Date.now();
    if (this.metadata !== undefined && (this.metadataFailedAt === 0 || now - this.metadataFailedAt < METADATA_RETRY_MS)) return this.metadata;
    this.metadataFailedAt = 0;
    const loading = fetchIssuerMetadata(this.config.issuer, PROVIDER_TIMEOUT_MS);
    this.metadata = loading;
    loading.then(
      () => this.log.info({ issuer: this.config.issuer }, 'authorization server metadata read'),
      (error: unknown) => {
        this.metadataFailedAt = Date.now();
        this.log.error({ issuer: this.config.issuer, err: error instanceof Error ? error.message : String(error) }, 'authorization server metadata could not be read; access tokens are refused until it can');
      },
    );
    return loading;
  }
}

function unavailable(error: unknown, what = 'the authorization server'): Verification {
  const reason = error instanceof Error ? error.message : String(error);
  return { ok: false, kind: 'unavailable', message: UNAVAILABLE_MESSAGE, detail: `${what} could not be reached to check the token (${reason})` };
}

/**
 * jose's verdicts in one line each. Only what is about the token makes it invalid; anything else
 * (the key set could not be fetched, answered an error status, was not JSON) is the provider's
 * failure: 503, and the token is not remembered as bad.
 */
function jwtFailure(error: unknown, issuer: string, errors: Jose['errors']): Verification {
  if (error instanceof errors.JWKSMultipleMatchingKeys) return { ok: false, kind: 'invalid', message: `the access token names no key id, and ${issuer} publishes several keys` };
  const aboutTheToken =
    error instanceof errors.JWTExpired ||
    error instanceof errors.JWTClaimValidationFailed ||
    error instanceof errors.JWKSNoMatchingKey ||
    error instanceof errors.JOSEAlgNotAllowed ||
    error instanceof errors.JOSENotSupported ||
    error instanceof errors.JWSSignatureVerificationFailed ||
    error instanceof errors.JWSInvalid ||
    error instanceof errors.JWTInvalid;
  if (!aboutTheToken) return unavailable(error, 'the authorization server\'s keys');
  if (error instanceof errors.JWTExpired) return { ok: false, kind: 'invalid', message: 'the access token has expired' };
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === 'iss') return { ok: false, kind: 'invalid', message: `the access token was not issued by ${issuer}` };
    if (error.claim === 'nbf') return { ok: false, kind: 'invalid', message: 'the access token is not valid yet' };
    return { ok: false, kind: 'invalid', message: `the access token's "${error.claim}" claim is missing or invalid` };
  }
  if (error instanceof errors.JWKSNoMatchingKey) return { ok: false, kind: 'invalid', message: `the access token is signed with a key ${issuer} does not publish` };
  if (error instanceof errors.JOSEAlgNotAllowed) return { ok: false, kind: 'invalid', message: 'the access token is signed with an algorithm that is not accepted' };
  if (error instanceof errors.JWSSignatureVerificationFailed) return { ok: false, kind: 'invalid', message: 'the access token\'s signature does not verify' };
  return { ok: false, kind: 'invalid', message: 'the access token is malformed' };
}
