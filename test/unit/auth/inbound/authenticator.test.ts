import * as crypto from 'node:crypto';
import path from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { resolveConfig } from '../../../../src/config/load.js';
import { Authenticator, isAuthEnabled, parseBearer, wwwAuthenticate } from '../../../../src/auth/inbound/authenticator.js';

// Counts comparisons, to check that every known token is visited whichever one matches.
vi.mock('node:crypto', async (importOriginal) => {
  const original = await importOriginal<typeof import('node:crypto')>();
  return { ...original, timingSafeEqual: vi.fn(original.timingSafeEqual) };
});

const ALICE = 'alice-Zq8vN3kP1xR7tY2wB5mC9dF4';
const BOB = 'bob-Hj6sL0aQ3eU8iO1pV7nK2gT5==';
const CAROL = 'carol/Xw4+Yt7.Lm2_Nb9~Qp3Rs6';
const DAN = 'dan-Op5rT8uV1wX4yZ7aB0cD3';
const ERIN = 'erin-Fg6hJ9kL2mN5pQ8rS1tU4';
const env = { PATH: path.dirname(process.execPath), A: ALICE, B: BOB, C: CAROL, D: DAN, E: ERIN };

function config(withTokens: boolean) {
  return resolveConfig(
    {
      mcpServers: { fs: { command: 'node' } },
      profiles: { reader: {}, admin: {} },
      defaultProfile: 'reader',
      auth: withTokens
        ? {
            tokens: [
              { name: 'alice', tokenEnv: 'A', profile: 'admin' },
              { name: 'bob', tokenEnv: 'B' },
              { name: 'carol', tokenEnv: 'C', profile: 'reader' },
              { name: 'dan', tokenEnv: 'D', profile: null },
              { name: 'erin', tokenEnv: 'E', profile: 'reader', admin: true },
            ],
          }
        : {},
    },
    { file: '<inline>', dir: process.cwd() },
    env,
  );
}

describe('parseBearer', () => {
  it.each([
    ['Bearer abc', 'abc'],
    ['bearer abc', 'abc'],
    ['BEARER abc', 'abc'],
    ['Bearer   abc', 'abc'],
    ['  Bearer abc  ', 'abc'],
    [`Bearer ${BOB}`, BOB],
    [`Bearer ${CAROL}`, CAROL],
  ])('reads %j', (header, token) => {
    expect(parseBearer(header)).toEqual({ ok: true, token });
  });

  it.each(['Bearer', 'Bearer ', 'Bearer a b', 'Bearer a,b', 'Bearer =abc', 'Bearer ä', 'Bearer\tabc', `Bearer ${'a'.repeat(5000)}`])(
    'refuses %j as malformed',
    (header) => {
      const result = parseBearer(header);
      expect(result).toMatchObject({ ok: false, reason: 'malformed' });
      if (!result.ok) expect(result.message).toBe(header.length > 5000 ? 'Authorization header too long' : 'malformed Authorization header: expected Bearer <token>');
    },
  );

  it.each(['Basic YWxpY2U6c2VjcmV0', 'Bearerabc', 'Digest'])('names the scheme problem of %j without echoing credentials', (header) => {
    expect(parseBearer(header)).toEqual({ ok: false, reason: 'malformed', message: 'malformed Authorization header: only the Bearer scheme is accepted' });
  });

  it('reports a missing header', () => {
    expect(parseBearer(undefined)).toMatchObject({ ok: false, reason: 'missing' });
    expect(parseBearer('   ')).toMatchObject({ ok: false, reason: 'missing' });
  });
});

describe('Authenticator', () => {
  const compare = vi.mocked(crypto.timingSafeEqual);
  beforeEach(() => {
    compare.mockClear();
  });

  it('is off without tokens: everyone is anonymous with the default profile, whatever they send', () => {
    const auth = new Authenticator(config(false));
    expect(auth.enabled).toBe(false);
    expect(isAuthEnabled(config(false))).toBe(false);
    const anonymous = { ok: true, identity: { name: 'anonymous', profile: 'reader', anonymous: true, admin: true } };
    expect(auth.authenticate(undefined)).toEqual(anonymous);
    expect(auth.authenticate('Bearer whatever-it-is-here')).toEqual(anonymous);
    expect(auth.authenticate('garbage')).toEqual(anonymous);
  });

  it('finds each identity, with its own profile or the default one', () => {
    const auth = new Authenticator(config(true));
    expect(auth.enabled).toBe(true);
    expect(auth.authenticate(`Bearer ${ALICE}`)).toEqual({ ok: true, identity: { name: 'alice', profile: 'admin', anonymous: false, admin: false } });
    expect(auth.authenticate(`bearer ${BOB}`)).toEqual({ ok: true, identity: { name: 'bob', profile: 'reader', anonymous: false, admin: false } });
    expect(auth.authenticate(`Bearer ${CAROL}`)).toEqual({ ok: true, identity: { name: 'carol', profile: 'reader', anonymous: false, admin: false } });
  });

  it('with defaultProfile set, "profile": null is an unrestricted operator token and "admin": true a bound one that may monitor', () => {
    const auth = new Authenticator(config(true));
    expect(auth.authenticate(`Bearer ${DAN}`)).toEqual({ ok: true, identity: { name: 'dan', profile: undefined, anonymous: false, admin: true } });
    expect(auth.authenticate(`Bearer ${ERIN}`)).toEqual({ ok: true, identity: { name: 'erin', profile: 'reader', anonymous: false, admin: true } });
  });

  it('refuses near misses: prefixes, extensions, other case', () => {
    const auth = new Authenticator(config(true));
    for (const token of [ALICE.slice(0, -1), `${ALICE}x`, ALICE.toUpperCase(), `${BOB.replace(/=+$/, '')}`]) {
      const result = auth.authenticate(`Bearer ${token}`);
      expect(result).toEqual({ ok: false, reason: 'unknown', message: 'unknown bearer token' });
    }
    expect(auth.authenticate(undefined)).toMatchObject({ ok: false, reason: 'missing' });
    expect(auth.authenticate(`Token ${ALICE}`)).toMatchObject({ ok: false, reason: 'malformed' });
  });

  it('compares against every known token, whichever matches or none', () => {
    const auth = new Authenticator(config(true));
    for (const token of [ALICE, BOB, CAROL, 'not-a-known-token-at-all']) {
      compare.mockClear();
      auth.authenticate(`Bearer ${token}`);
      expect(compare).toHaveBeenCalledTimes(5);
      for (const [a, b] of compare.mock.calls) {
        // Fixed-length digests, never the token text.
        expect((a as Buffer).length).toBe(32);
        expect((b as Buffer).length).toBe(32);
      }
    }
  });

  it('never puts a token in a message or in its own serialization', () => {
    const auth = new Authenticator(config(true));
    const seen = JSON.stringify([
      auth,
      auth.authenticate(`Bearer ${ALICE}x`),
      auth.authenticate(`Token ${ALICE}`),
      auth.authenticate(`Bearer ${ALICE} extra`),
    ]);
    expect(seen).not.toContain(ALICE);
    expect(seen).not.toContain(BOB);
  });
});

describe('wwwAuthenticate', () => {
  it('adds RFC 6750 error codes only when a token was presented', () => {
    expect(wwwAuthenticate('missing')).toBe('Bearer realm="mcp-switchboard"');
    expect(wwwAuthenticate('malformed')).toContain('error="invalid_request"');
    expect(wwwAuthenticate('unknown')).toContain('error="invalid_token"');
  });
});

describe('wwwAuthenticate with an authorization server (RFC 9728 §5.1)', () => {
  const challenge = { resourceMetadata: 'https://tools.example.com/.well-known/oauth-protected-resource/mcp', scope: 'mcp read' };

  it('names the resource metadata and the scopes to ask for, with or without an error', () => {
    expect(wwwAuthenticate('missing', challenge)).toBe(
      'Bearer realm="mcp-switchboard", resource_metadata="https://tools.example.com/.well-known/oauth-protected-resource/mcp", scope="mcp read"',
    );
    expect(wwwAuthenticate('insufficient_scope', challenge, 'the access token lacks the scope read')).toContain('error="insufficient_scope", error_description="the access token lacks the scope read"');
    expect(wwwAuthenticate('missing', { ...challenge, scope: '' })).not.toContain('scope=');
  });

  it('keeps a description a quoted-string can carry', () => {
    const header = wwwAuthenticate('invalid_token', challenge, 'bad "aud" \\ claim\u00e9\n');
    expect(header).toContain(`error_description="bad 'aud' ' claim??"`);
  });
});
