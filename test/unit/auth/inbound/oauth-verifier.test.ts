// Opaque access tokens through RFC 7662 introspection against a loopback endpoint: the proxy's
// client credentials sent, inactive and foreign tokens refused, answers remembered (one round trip
// per token), and an endpoint that is down reported as unavailable rather than as a bad token.
// JWTs whose keys cannot be fetched are the provider's failure too, and do not start a storm.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OAuthVerifier } from '../../../../src/auth/inbound/oauth-verifier.js';
import { Secret } from '../../../../src/config/secret.js';
import type { OAuthConfig } from '../../../../src/config/types.js';
import { silentLogger } from '../../../../src/log.js';

const ISSUER = 'https://idp.example.com';
const answers: Record<string, Record<string, unknown>> = {
  good: { active: true, sub: 'alice', aud: 'https://tools.example.com/mcp', scope: 'mcp read', groups: ['staff'], iss: ISSUER, exp: Math.floor(Date.now() / 1000) + 600 },
  foreign: { active: true, sub: 'eve', iss: 'https://other.example.com' },
  expired: { active: true, sub: 'bob', exp: Math.floor(Date.now() / 1000) - 600 },
  anonymous: { active: true },
};
let server: Server;
let endpoint: string;
const seen: Array<{ authorization: string | undefined; body: string }> = [];
let jwksRequests = 0;

function config(introspectionEndpoint: string, jwksUri?: string): OAuthConfig {
  return {
    issuer: ISSUER,
    audience: undefined,
    jwksUri,
    requiredScopes: [],
    profileClaim: 'groups',
    profiles: [],
    adminValues: [],
    introspection: { endpoint: introspectionEndpoint, clientId: 'switch board', clientSecret: new Secret('s3cret:&') },
    algorithms: ['RS256'],
    clockSkewSeconds: 30,
    jwksCooldownMs: 0,
  };
}

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/jwks') {
      jwksRequests += 1;
      res.writeHead(503).end('busy');
      return;
    }
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      seen.push({ authorization: req.headers.authorization, body });
      const token = new URLSearchParams(body).get('token') ?? '';
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answers[token] ?? { active: false }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}/introspect`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe('OAuthVerifier with introspection', () => {
  it('accepts an active token with its subject, audience, scopes and groups, asking the endpoint once', async () => {
    const verifier = new OAuthVerifier(config(endpoint), silentLogger());
    const before = seen.length;
    const [first, second] = await Promise.all([verifier.verify('good', 'd-good'), verifier.verify('good', 'd-good')]);
    expect(first).toEqual(second);
    expect(first.ok && first.token).toMatchObject({ subject: 'alice', audiences: ['https://tools.example.com/mcp'], claimValues: ['staff'] });
    expect(first.ok && [...first.token.scopes]).toEqual(['mcp', 'read']);
    expect(verifier.known('d-good', Date.now())).toMatchObject({ ok: true });
    expect(seen.length - before).toBe(1);
    // client_secret_basic: each part form-encoded, then base64.
    const request = seen[seen.length - 1];
    expect(request?.authorization).toBe(`Basic ${Buffer.from('switch%20board:s3cret%3A%26').toString('base64')}`);
    expect(new URLSearchParams(request?.body).get('token_type_hint')).toBe('access_token');
  });

  it('refuses inactive, foreign-issuer, expired and subject-less tokens as invalid, and remembers the refusal', async () => {
    const verifier = new OAuthVerifier(config(endpoint), silentLogger());
    expect(await verifier.verify('unknown', 'd1')).toEqual({ ok: false, kind: 'invalid', message: 'the access token is not active' });
    expect(await verifier.verify('foreign', 'd2')).toMatchObject({ ok: false, kind: 'invalid', message: expect.stringContaining('not issued by') });
    expect(await verifier.verify('expired', 'd3')).toMatchObject({ ok: false, kind: 'invalid', message: 'the access token has expired' });
    expect(await verifier.verify('anonymous', 'd4')).toMatchObject({ ok: false, kind: 'invalid', message: expect.stringContaining('no subject') });
    expect(verifier.known('d1', Date.now())).toMatchObject({ ok: false, kind: 'invalid' });
  });

  it('reports an endpoint that cannot be reached as unavailable, and does not remember it', async () => {
    const down = new OAuthVerifier(config('http://127.0.0.1:1/introspect'), silentLogger());
    const result = await down.verify('good', 'd5');
    expect(result).toMatchObject({ ok: false, kind: 'unavailable' });
    expect(down.known('d5', Date.now())).toBeUndefined();
  });

  it('answers a JWT whose keys the provider fails to serve as unavailable, remembers nothing, and asks again only after a pause', async () => {
    const jwks = endpoint.replace('/introspect', '/jwks');
    const verifier = new OAuthVerifier(config(endpoint, jwks), silentLogger());
    const jwt = (sub: string): string => `${Buffer.from('{"alg":"RS256","kid":"k1"}').toString('base64url')}.${Buffer.from(JSON.stringify({ sub })).toString('base64url')}.c2ln`;
    const before = jwksRequests;
    expect(await verifier.verify(jwt('a'), 'j1')).toMatchObject({ ok: false, kind: 'unavailable', message: expect.stringContaining('retry later') });
    expect(verifier.known('j1', Date.now())).toBeUndefined();
    // The provider just failed: another new token is answered at once, without asking it again.
    expect(await verifier.verify(jwt('b'), 'j2')).toMatchObject({ ok: false, kind: 'unavailable' });
    expect(jwksRequests - before).toBe(1);
  });
});
