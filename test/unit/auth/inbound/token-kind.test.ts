// Only access tokens open sessions: the refresh, ID and other tokens providers sign with the same
// keys are told apart by their header type, their own kind claims, and the claims only ID tokens
// carry. Samples follow what each provider issues (claims trimmed to the ones that matter).
import { describe, expect, it } from 'vitest';
import { notAnAccessToken } from '../../../../src/auth/inbound/token-kind.js';

const base = { iss: 'https://idp.example.com', sub: 'u1', aud: 'api', exp: 2_000_000_000, iat: 1_900_000_000 };

describe('notAnAccessToken', () => {
  it.each([
    ['RFC 9068 / oidc-provider', 'at+jwt', { client_id: 'c', scope: 'mcp' }],
    ['RFC 9068 with the full media type', 'application/at+jwt', { client_id: 'c' }],
    ['Keycloak access token', 'JWT', { typ: 'Bearer', azp: 'mcp-client', scope: 'openid mcp', realm_access: { roles: ['x'] } }],
    ['Entra ID v2 access token', 'JWT', { azp: 'client-guid', scp: 'mcp', ver: '2.0' }],
    ['Entra ID v1 app-only token', 'JWT', { appid: 'client-guid', roles: ['Switchboard.Admin'], ver: '1.0' }],
    ['Okta access token', undefined, { cid: '0oa1', scp: ['mcp'], uid: '00u1' }],
    ['Auth0 access token', 'JWT', { azp: 'client', scope: 'openid mcp', permissions: ['mcp'] }],
    ['Cognito access token', undefined, { client_id: 'c', token_use: 'access', scope: 'mcp' }],
    ['a token of an at+jwt issuer whose sign-in time is noted', 'at+jwt', { client_id: 'c', auth_time: 1_900_000_000 }],
  ])('accepts a %s', (_what, typ, claims) => {
    expect(notAnAccessToken(typ, { ...base, ...claims })).toBeUndefined();
  });

  it.each([
    ['Keycloak refresh token', 'JWT', { typ: 'Refresh', azp: 'mcp-client', scope: 'openid mcp' }, 'a "Refresh" token'],
    ['Keycloak offline token', 'JWT', { typ: 'Offline', azp: 'mcp-client', scope: 'offline_access mcp' }, 'a "Offline" token'],
    ['Keycloak ID token', 'JWT', { typ: 'ID', azp: 'mcp-client', nonce: 'n' }, 'a "ID" token'],
    ['token typed as a logout token in its header', 'logout+jwt', { client_id: 'c' }, 'header types it "logout+jwt"'],
    ['token typed as a refresh token in its header', 'refresh+jwt', { client_id: 'c', scope: 'mcp' }, 'header types it'],
    ['Entra ID v2 ID token without a nonce', 'JWT', { aud: 'client-guid', oid: 'o', tid: 't', ver: '2.0', roles: ['Switchboard.Admin'] }, 'neither a scope nor a client'],
    ['OpenID ID token with nonce', 'JWT', { azp: 'c', nonce: 'n' }, '"nonce"'],
    ['Google-style ID token with at_hash', undefined, { azp: 'c', at_hash: 'h', email: 'a@b' }, '"at_hash"'],
    ['Auth0-style ID token with auth_time and no scope', 'JWT', { azp: 'c', auth_time: 1_900_000_000, sid: 's' }, '"auth_time"'],
    ['Cognito ID token', undefined, { aud: 'c', token_use: 'id', auth_time: 1 }, 'an "id" token'],
    ['token whose header typ is not a string', 7, { client_id: 'c' }, 'header types it "7"'],
  ])('refuses a %s', (_what, typ, claims, why) => {
    expect(notAnAccessToken(typ, { ...base, ...claims })).toContain(why);
  });
});
