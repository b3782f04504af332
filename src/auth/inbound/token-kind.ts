// Whether a signed JWT is an access token at all: providers sign refresh tokens (Keycloak), ID
// tokens (every OpenID provider) and others with the same keys and issuer, and an ID token's `aud`
// is the client id, which is what some providers' access tokens carry too (Entra ID v2). A token
// of another kind must not open a session, whatever its signature says.
import type { JsonObject } from '../../jsonrpc/messages.js';

/** Header `typ` values of an access token: RFC 9068 §2.1 `at+jwt`, or the generic `JWT` most providers write. */
const ACCESS_HEADER_TYPES = new Set(['at+jwt', 'jwt']);
/** Claims only ID tokens carry (OpenID Connect Core §2, §3.3.2.11). */
const ID_TOKEN_CLAIMS = ['nonce', 'at_hash', 'c_hash', 's_hash'] as const;
/** Claims naming the client a token was issued to: RFC 9068 `client_id`, `azp` (Keycloak, Entra v2, Auth0), `appid` (Entra v1), `cid` (Okta). */
const CLIENT_CLAIMS = ['client_id', 'azp', 'appid', 'cid'] as const;

/**
 * Why the token is not an access token, or undefined when it is one. The rule, in order:
 * 1. the header's `typ` (media type, `application/` optional) is absent, `JWT` or `at+jwt`;
 * 2. a kind the claims name is the access token's: Keycloak's `typ` is `Bearer` (not `Refresh`,
 *    `Offline`, `ID`, `Logout`), Cognito's `token_use` is `access` (not `id`);
 * 3. a token typed `at+jwt` is an access token (RFC 9068); one typed `JWT` or not at all must not
 *    look like an ID token: no claim only ID tokens carry (`nonce`, `at_hash`, `c_hash`,
 *    `s_hash`), no `auth_time` without a scope, and a scope (`scope`, `scp`) or a client
 *    (`client_id`, `azp`, `appid`, `cid`) named, as every provider's access tokens do.
 */
export function notAnAccessToken(headerType: unknown, claims: JsonObject): string | undefined {
  let typedAccess = false;
  if (headerType !== undefined) {
    const type = typeof headerType === 'string' ? headerType.toLowerCase().replace(/^application\//, '') : '';
    if (!ACCESS_HEADER_TYPES.has(type)) return `the token's header types it ${describe(headerType)}, not as an access token (at+jwt)`;
    typedAccess = type === 'at+jwt';
  }
  if (claims.typ !== undefined && (typeof claims.typ !== 'string' || claims.typ.toLowerCase() !== 'bearer')) {
    return `the token is a ${describe(claims.typ)} token, not an access token`;
  }
  if (claims.token_use !== undefined && claims.token_use !== 'access') return `the token is an ${describe(claims.token_use)} token, not an access token`;
  if (typedAccess) return undefined;
  const idClaim = ID_TOKEN_CLAIMS.find((name) => claims[name] !== undefined);
  if (idClaim !== undefined) return `an ID token is not an access token (it carries "${idClaim}")`;
  const scoped = claims.scope !== undefined || claims.scp !== undefined;
  if (claims.auth_time !== undefined && !scoped) return 'an ID token is not an access token (it carries "auth_time" and no scope)';
  if (!scoped && !CLIENT_CLAIMS.some((name) => claims[name] !== undefined)) return 'the token names neither a scope nor a client, as access tokens do (an ID token?)';
  return undefined;
}

/** A claim's value for a message: short, and only what the token says of itself. */
function describe(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value) ?? String(value);
  return JSON.stringify(text.slice(0, 40));
}
