// Whether a verified access token admits a request: meant for this server (RFC 8707 audience),
// carrying the required scopes, and whose identity it is, with the profile its groups or roles map to.
import type { OAuthConfig } from '../../config/types.js';
import type { Logger } from '../../log.js';
import type { Identity } from './identity.js';
import { OAuthVerifier, type Verification, type VerifiedToken, type VerifierOptions } from './oauth-verifier.js';

/** The URLs a request was addressed to: the proxy's public base, and the endpoint's full URL. */
export interface RequestResource {
  /** `scheme://host[:port]`; undefined when the request named no host. */
  readonly base: string | undefined;
  /** The base and the endpoint's path (`/mcp`, `/s/fs/mcp`). */
  readonly url: string | undefined;
}

export type OAuthAdmission =
  | { readonly ok: true; readonly identity: Identity }
  | { readonly ok: false; readonly reason: 'invalid_token' | 'insufficient_scope' | 'unavailable'; readonly message: string; readonly detail?: string };

/** Principal names of access-token identities start with this: no static token name contains `:`. */
export const OAUTH_PRINCIPAL_PREFIX = 'oauth:';

export class OAuthAccess {
  private readonly verifier: OAuthVerifier;
  /** One admission per remembered token, not an identity and a result object per request. */
  private readonly admissions = new WeakMap<VerifiedToken, OAuthAdmission>();

  constructor(
    private readonly config: OAuthConfig,
    private readonly defaultProfile: string | undefined,
    log: Logger,
    options?: VerifierOptions,
  ) {
    this.verifier = new OAuthVerifier(config, log, options);
  }

  prefetch(): void {
    this.verifier.prefetch();
  }

  /**
   * Synchronous when the token was seen before (the usual request), a promise when it must be
   * verified. `source`: the request's remote address (new verifications are bounded per source).
   */
  admit(token: string, digest: string, resource: RequestResource, source?: string): OAuthAdmission | Promise<OAuthAdmission> {
    const known = this.verifier.known(digest, Date.now());
    if (known !== undefined) return this.decide(known, resource);
    return this.verifier.verify(token, digest, source).then((verification) => this.decide(verification, resource));
  }

  private decide(verification: Verification, resource: RequestResource): OAuthAdmission {
    if (!verification.ok) {
      const reason = verification.kind === 'unavailable' ? 'unavailable' : 'invalid_token';
      return verification.detail === undefined ? { ok: false, reason, message: verification.message } : { ok: false, reason, message: verification.message, detail: verification.detail };
    }
    const token = verification.token;
    if (!this.meantForUs(token.audiences, resource)) return { ok: false, reason: 'invalid_token', message: 'the access token is meant for another resource (its audience does not name this server)' };
    const missing = this.config.requiredScopes.filter((scope) => !token.scopes.has(scope));
    if (missing.length > 0) return { ok: false, reason: 'insufficient_scope', message: `the access token lacks the scope ${missing.join(' ')}` };
    let admission = this.admissions.get(token);
    if (admission === undefined) {
      admission = Object.freeze({ ok: true, identity: this.identityOf(token) });
      this.admissions.set(token, admission);
    }
    return admission;
  }

  /**
   * A configured audience, else this server's own URL: its base (a token for the whole proxy) or
   * the very endpoint (RFC 8707: the resource the client named, as the metadata told it).
   */
  private meantForUs(audiences: readonly string[], resource: RequestResource): boolean {
    const accepted = this.config.audience;
    if (accepted !== undefined) return audiences.some((aud) => accepted.includes(aud));
    const { base, url } = resource;
    return audiences.some((aud) => (base !== undefined && (aud === base || aud === `${base}/`)) || (url !== undefined && (aud === url || aud === `${url}/`)));
  }

  /**
   * The first `profiles` entry (in config order) whose value the token carries picks the profile;
   * none: defaultProfile. Only an `adminValues` value makes an operator: unlike a static token,
   * which someone handed out, an access token may come from anyone the issuer lets sign in.
   */
  private identityOf(token: VerifiedToken): Identity {
    const mapped = this.config.profiles.find((entry) => token.claimValues.includes(entry.value));
    const profile = mapped === undefined ? this.defaultProfile : mapped.profile;
    const admin = token.claimValues.some((value) => this.config.adminValues.includes(value));
    return Object.freeze({ name: `${OAUTH_PRINCIPAL_PREFIX}${token.subject}`, profile, anonymous: false, admin, expiresAt: token.expiresAt });
  }
}
