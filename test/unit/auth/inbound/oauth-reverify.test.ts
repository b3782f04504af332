// A verified access token is trusted for a while (10 min for a JWT, 60 s for an introspected one),
// then verified again: the end of that trust is not the end of the token, so the request that
// meets it is verified afresh rather than refused as expired. The clock is moved with a fake Date.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { OAuthAccess, type OAuthAdmission } from '../../../../src/auth/inbound/oauth-access.js';
import { OAuthVerifier } from '../../../../src/auth/inbound/oauth-verifier.js';
import { Secret } from '../../../../src/config/secret.js';
import type { OAuthConfig } from '../../../../src/config/types.js';
import { silentLogger } from '../../../../src/log.js';
import { startIdp, type TestIdp } from '../../../fixtures/oidc-idp.js';

const RESOURCE = { base: 'https://tools.example.com', url: 'https://tools.example.com/mcp' };
let idp: TestIdp;

beforeAll(async () => {
  idp = await startIdp();
});
afterAll(async () => {
  await idp.close();
});
afterEach(() => {
  vi.useRealTimers();
});

function config(): OAuthConfig {
  return {
    issuer: idp.issuer,
    audience: undefined,
    jwksUri: undefined,
    requiredScopes: ['mcp'],
    profileClaim: undefined,
    profiles: [],
    adminValues: [],
    introspection: { endpoint: `${idp.issuer}/introspect`, clientId: 'switchboard', clientSecret: new Secret('secret') },
    algorithms: ['RS256'],
    clockSkewSeconds: 0,
    jwksCooldownMs: 1000,
  };
}

/** The admission of `token` as the next request sees it: `sync` when answered from memory. */
async function admitted(access: OAuthAccess, token: string): Promise<{ sync: boolean; result: OAuthAdmission }> {
  const answer = access.admit(token, OAuthVerifier.digest(token), RESOURCE, '127.0.0.1');
  return answer instanceof Promise ? { sync: false, result: await answer } : { sync: true, result: answer };
}

describe('a verified token whose trust ran out', () => {
  it('is verified again, not refused as expired, when it is a JWT still valid after 10 minutes', async () => {
    const access = new OAuthAccess(config(), undefined, silentLogger());
    const now = Math.floor(Date.now() / 1000);
    const token = await idp.sign({ iss: idp.issuer, sub: 'alice', aud: RESOURCE.url, scope: 'mcp', client_id: 'c', iat: now, exp: now + 3600 });
    expect((await admitted(access, token)).result).toMatchObject({ ok: true });
    expect(await admitted(access, token)).toMatchObject({ sync: true, result: { ok: true } });

    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 10 * 60_000 + 1_000 });
    expect(await admitted(access, token)).toMatchObject({ sync: false, result: { ok: true } });
    expect(await admitted(access, token)).toMatchObject({ sync: true, result: { ok: true } });
  });

  it('is introspected again, not refused as expired, when an opaque token is still valid after 60 s', async () => {
    const access = new OAuthAccess(config(), undefined, silentLogger());
    const token = idp.opaqueToken({ sub: 'bob', aud: RESOURCE.url, ttlSeconds: 3600 });
    const asked = idp.introspections.total;
    expect((await admitted(access, token)).result).toMatchObject({ ok: true });
    expect(idp.introspections.total - asked).toBe(1);

    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 61_000 });
    expect(await admitted(access, token)).toMatchObject({ sync: false, result: { ok: true } });
    expect(idp.introspections.total - asked).toBe(2);
    expect(await admitted(access, token)).toMatchObject({ sync: true, result: { ok: true } });
  });

  it('is refused as expired once the token itself has expired', async () => {
    const access = new OAuthAccess(config(), undefined, silentLogger());
    const now = Math.floor(Date.now() / 1000);
    const token = await idp.sign({ iss: idp.issuer, sub: 'carol', aud: RESOURCE.url, scope: 'mcp', client_id: 'c', iat: now, exp: now + 120 });
    expect((await admitted(access, token)).result).toMatchObject({ ok: true });
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 121_000 });
    expect(await admitted(access, token)).toMatchObject({ sync: true, result: { ok: false, message: 'the access token has expired' } });
  });
});
