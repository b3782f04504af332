// Access tokens of the configured authorization server: JWTs verified against its published keys
// (RFC 9068), opaque ones asked about at its introspection endpoint (RFC 7662). Verifying costs a
// signature check or a round trip, so each token is verified once and remembered until it expires;
// a request whose token is remembered is answered without waiting for anything.
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload } from 'jose';
import type { OAuthConfig } from '../config/types.js';
import { isObject, type JsonObject } from '../jsonrpc/messages.js';
import type { Logger } from '../log.js';
import { fetchJson } from './http-json.js';
import { fetchIssuerMetadata, type IssuerMetadata } from './issuer-metadata.js';
import { claimValues, scopesOf } from './token-claims.js';

/** What a valid token says, as far as the proxy cares. */
export interface VerifiedToken {
  readonly subject: string;
  /** `aud`, always as a list. */
  readonly audiences: readonly string[];
  readonly scopes: ReadonlySet<string>;
  /** When it stops being valid, ms since the epoch (skew included). */
  readonly validUntil: number;
  /** The values of the configured profile claim (`groups`, `roles`, ...). */
  readonly claimValues: readonly string[];
}

export type Verification =
  | { readonly ok: true; readonly token: VerifiedToken }
  /** `invalid`: the token is bad (401). `unavailable`: it could not be checked now, the provider is unreachable (503). */
  | { readonly ok: false; readonly kind: 'invalid' | 'unavailable'; readonly message: string };

/** Tokens remembered at once; each entry is small, and an LRU bounds a flood of distinct ones. */
const MAX_REMEMBERED = 10_000;
/** A rejected token is not checked again for this long (a client retrying it, or a flood of one). */
const REJECTED_FOR_MS = 30_000;
/** Introspection answers are trusted this long at most, so a revoked token stops working soon. */
const INTROSPECTION_TRUST_MS = 60_000;
/** Per request to the provider: metadata, keys, introspection. */
const PROVIDER_TIMEOUT_MS = 5_000;
/** After the provider's metadata could not be read, requests fail fast this long before it is tried again. */
const METADATA_RETRY_MS = 10_000;
/** Keys are refetched at least this often even when no token names an unknown one (rotation, revocation). */
const JWKS_MAX_AGE_MS = 10 * 60_000;

/** Three base64url parts: a JWS in compact form (the signature part empty for `alg: none`). */
const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

export class OAuthVerifier {
  private readonly remembered = new LRUCache<string, VerifiedToken>({ max: MAX_REMEMBERED });
  private readonly rejected = new LRUCache<string, string>({ max: MAX_REMEMBERED, ttl: REJECTED_FOR_MS });
  /** Verifications under way, so concurrent requests with one new token verify it once. */
  private readonly pending = new Map<string, Promise<Verification>>();
  private metadata: Promise<IssuerMetadata> | undefined;
  private metadataFailedAt = 0;
  private keys: ReturnType<typeof createRemoteJWKSet> | undefined;

  constructor(
    private readonly config: OAuthConfig,
    private readonly log: Logger,
  ) {}

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
      this.remembered.delete(digest);
      return { ok: false, kind: 'invalid', message: 'the access token has expired' };
    }
    const reason = this.rejected.get(digest);
    return reason === undefined ? undefined : { ok: false, kind: 'invalid', message: reason };
  }

  verify(token: string, digest: string): Promise<Verification> {
    let running = this.pending.get(digest);
    if (running === undefined) {
      running = this.check(token).then((result) => {
        this.pending.delete(digest);
        if (result.ok) this.remembered.set(digest, result.token);
        else if (result.kind === 'invalid') this.rejected.set(digest, result.message);
        return result;
      });
      this.pending.set(digest, running);
    }
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
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, keys, {
        issuer: this.config.issuer,
        algorithms: [...this.config.algorithms],
        clockTolerance: this.config.clockSkewSeconds,
        requiredClaims: ['exp', 'sub'],
      }));
    } catch (error) {
      return jwtFailure(error, this.config.issuer);
    }
    return { ok: true, token: this.verified(payload as JsonObject, (payload.exp ?? 0) * 1000 + this.config.clockSkewSeconds * 1000) };
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
    if (!isObject(answer)) return { ok: false, kind: 'unavailable', message: 'the introspection endpoint answered no JSON object' };
    if (answer.active !== true) return { ok: false, kind: 'invalid', message: 'the access token is not active' };
    if (answer.iss !== undefined && answer.iss !== this.config.issuer) return { ok: false, kind: 'invalid', message: `the access token was not issued by ${this.config.issuer}` };
    if (typeof answer.sub !== 'string' || answer.sub === '') return { ok: false, kind: 'invalid', message: 'the access token names no subject' };
    const now = Date.now();
    const expires = typeof answer.exp === 'number' ? answer.exp * 1000 + this.config.clockSkewSeconds * 1000 : Infinity;
    if (expires <= now) return { ok: false, kind: 'invalid', message: 'the access token has expired' };
    return { ok: true, token: this.verified(answer, Math.min(expires, now + INTROSPECTION_TRUST_MS)) };
  }

  private verified(claims: JsonObject, validUntil: number): VerifiedToken {
    const aud = claims.aud;
    return {
      subject: String(claims.sub),
      audiences: typeof aud === 'string' ? [aud] : Array.isArray(aud) ? aud.filter((a): a is string => typeof a === 'string') : [],
      scopes: scopesOf(claims),
      validUntil,
      claimValues: this.config.profileClaim === undefined ? [] : claimValues(claims, this.config.profileClaim),
    };
  }

  private async keySet(): Promise<ReturnType<typeof createRemoteJWKSet>> {
    if (this.keys !== undefined) return this.keys;
    const uri = this.config.jwksUri ?? (await this.issuerMetadata()).jwksUri;
    if (uri === undefined) throw new Error(`the metadata of ${this.config.issuer} names no jwks_uri; set auth.oauth.jwksUri`);
    const url = new URL(uri);
    if (url.protocol !== 'https:' && new URL(this.config.issuer).protocol === 'https:') throw new Error(`the issuer's jwks_uri ${uri} is not https`);
    // jose refetches the set when a token names a key it lacks, at most once per cooldown.
    this.keys = createRemoteJWKSet(url, { cooldownDuration: this.config.jwksCooldownMs, cacheMaxAge: JWKS_MAX_AGE_MS, timeoutDuration: PROVIDER_TIMEOUT_MS });
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
  const detail = error instanceof Error ? error.message : String(error);
  return { ok: false, kind: 'unavailable', message: `${what} could not be reached to check the token (${detail})` };
}

/** jose's verdicts in one line each; a key set the provider could not serve is its failure, not the token's. */
function jwtFailure(error: unknown, issuer: string): Verification {
  if (error instanceof errors.JWKSTimeout || error instanceof errors.JWKSInvalid || !(error instanceof errors.JOSEError)) return unavailable(error);
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
