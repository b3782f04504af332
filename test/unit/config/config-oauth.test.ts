// `auth.oauth` and `listen.publicUrl`: only https issuers (loopback excepted), mappings that name
// real profiles, the introspection secret from env or file and never in a message, and the rules
// that keep the default audience meaningful.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, resolveConfig } from '../../../src/config/load.js';
import type { SwitchboardConfig } from '../../../src/config/types.js';

let dir: string;
const SECRET = 'introspection-secret-Zq8vN3kP1xR7';
const env: NodeJS.ProcessEnv = { PATH: path.dirname(process.execPath), HOME: '/home/tester', IDP_SECRET: SECRET };
const ISSUER = 'https://idp.example.com/realms/team';

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-oauth-'));
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

function resolve(raw: Record<string, unknown>): SwitchboardConfig {
  return resolveConfig({ mcpServers: { fs: { command: 'node' } }, profiles: { narrow: { tools: { allow: ['fs__*'] } } }, ...raw }, { file: '<inline>', dir }, env);
}

function problems(raw: Record<string, unknown>): string {
  try {
    resolve(raw);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as ConfigError).message;
    expect(message).not.toContain(SECRET);
    return message;
  }
  throw new Error('expected a ConfigError');
}

describe('auth.oauth', () => {
  it('reads a full section, profiles in the order written, a profile of null seeing everything', () => {
    const config = resolve({
      auth: {
        oauth: {
          issuer: ISSUER,
          audience: 'mcp-switchboard',
          requiredScopes: ['mcp'],
          profileClaim: 'groups',
          profiles: { admins: null, guests: 'narrow' },
          adminValues: ['admins'],
        },
      },
    });
    const oauth = config.auth.oauth;
    expect(oauth).toMatchObject({ issuer: ISSUER, audience: ['mcp-switchboard'], requiredScopes: ['mcp'], profileClaim: 'groups', adminValues: ['admins'] });
    expect(oauth?.profiles).toEqual([
      { value: 'admins', profile: undefined },
      { value: 'guests', profile: 'narrow' },
    ]);
    expect(oauth?.algorithms).not.toContain('none');
    expect(oauth?.algorithms).not.toContain('HS256');
    expect(oauth?.clockSkewSeconds).toBe(30);
  });

  it('refuses an issuer, jwksUri or introspection endpoint over plain http unless it is on loopback', () => {
    expect(problems({ auth: { oauth: { issuer: 'http://idp.example.com' } } })).toContain('$.auth.oauth.issuer: the issuer must use https');
    expect(problems({ auth: { oauth: { issuer: ISSUER, jwksUri: 'http://idp.example.com/keys' } } })).toContain('$.auth.oauth.jwksUri: jwksUri must use https');
    expect(resolve({ auth: { oauth: { issuer: 'http://127.0.0.1:8080/realms/x' } } }).auth.oauth?.issuer).toBe('http://127.0.0.1:8080/realms/x');
    expect(resolve({ auth: { oauth: { issuer: 'http://[::1]:8080' } } }).auth.oauth?.issuer).toBe('http://[::1]:8080');
    expect(problems({ auth: { oauth: { issuer: 'not a url' } } })).toContain('expected the issuer as an absolute URL');
  });

  it('refuses a mapping to an unknown profile, a mapping without its claim, and misspelt keys', () => {
    expect(problems({ auth: { oauth: { issuer: ISSUER, profileClaim: 'groups', profiles: { guests: 'wide' } } } })).toContain('$.auth.oauth.profiles.guests: unknown profile');
    expect(problems({ auth: { oauth: { issuer: ISSUER, profiles: { guests: 'narrow' } } } })).toContain('$.auth.oauth.profileClaim: is required with "profiles"');
    expect(problems({ auth: { oauth: { issuer: ISSUER, audiance: 'x' } } })).toContain('$.auth.oauth.audiance: unknown key');
    expect(problems({ auth: { oauth: { issuer: ISSUER, algorithms: ['none'] } } })).toContain('$.auth.oauth.algorithms[0]');
  });

  it('takes the introspection secret from the environment or a file, and requires the client id', () => {
    const fromEnv = resolve({ auth: { oauth: { issuer: ISSUER, introspectionEndpoint: `${ISSUER}/introspect`, clientId: 'switchboard', clientSecretEnv: 'IDP_SECRET' } } });
    expect(fromEnv.auth.oauth?.introspection?.clientSecret.reveal()).toBe(SECRET);
    expect(JSON.stringify(fromEnv)).not.toContain(SECRET);
    const file = path.join(dir, 'secret');
    fs.writeFileSync(file, `${SECRET}\n`, { mode: 0o600 });
    const fromFile = resolve({ auth: { oauth: { issuer: ISSUER, introspectionEndpoint: `${ISSUER}/introspect`, clientId: 'switchboard', clientSecretFile: file } } });
    expect(fromFile.auth.oauth?.introspection?.clientSecret.reveal()).toBe(SECRET);
    expect(problems({ auth: { oauth: { issuer: ISSUER, introspectionEndpoint: `${ISSUER}/introspect`, clientSecretEnv: 'IDP_SECRET' } } })).toContain('$.auth.oauth.clientId: is required');
    expect(problems({ auth: { oauth: { issuer: ISSUER, introspectionEndpoint: `${ISSUER}/introspect`, clientId: 'x' } } })).toContain('needs "clientSecretEnv"');
    expect(problems({ auth: { oauth: { issuer: ISSUER, introspectionEndpoint: `${ISSUER}/introspect`, clientId: 'x', clientSecretEnv: 'UNSET_SECRET' } } })).toContain('UNSET_SECRET is not set');
  });

  it('guards a port reachable from other machines with OAuth alone, given the public URL tokens must be meant for', () => {
    expect(resolve({ listen: { host: '192.168.1.10', publicUrl: 'https://tools.example.com' }, auth: { oauth: { issuer: ISSUER } } }).auth.oauth?.issuer).toBe(ISSUER);
    expect(problems({ listen: { host: '192.168.1.10' }, auth: { oauth: { issuer: ISSUER, audience: 'api://switchboard' } } })).toContain('$.listen.publicUrl: is required with auth.oauth when listening beyond loopback');
    expect(problems({ listen: { host: '0.0.0.0', allowedHosts: ['tools.example.com'] }, auth: { oauth: { issuer: ISSUER } } })).toContain('$.listen.publicUrl: is required');
    expect(resolve({ auth: { oauth: { issuer: ISSUER } } }).auth.oauth).toBeDefined();
  });

  it('warns when nothing narrows what the issuer\'s accounts see, or when other host names come without publicUrl', () => {
    const open = resolve({ auth: { oauth: { issuer: ISSUER } } });
    expect(open.warnings.join('\n')).toContain('every account of the issuer that gets a token for this proxy sees every tool');
    expect(resolve({ auth: { oauth: { issuer: ISSUER, requiredScopes: ['mcp'] } } }).warnings.join('\n')).not.toContain('every account');
    expect(resolve({ listen: { allowedHosts: ['tools.example.com'] }, auth: { oauth: { issuer: ISSUER, requiredScopes: ['mcp'] } } }).warnings.join('\n')).toContain('$.listen.publicUrl: is not set while listen.allowedHosts');
  });

  it('refuses a JWKS refetch cooldown under a second', () => {
    expect(problems({ auth: { oauth: { issuer: ISSUER, jwksCooldownMs: 0 } } })).toContain('$.auth.oauth.jwksCooldownMs');
  });
});

describe('listen.publicUrl', () => {
  it('is an origin: scheme, host and port, nothing after', () => {
    expect(resolve({ listen: { publicUrl: 'https://tools.example.com/' } }).listen.publicUrl).toBe('https://tools.example.com');
    expect(resolve({ listen: { publicUrl: 'http://tools.example.com:8443' } }).listen.publicUrl).toBe('http://tools.example.com:8443');
    expect(problems({ listen: { publicUrl: 'https://tools.example.com/switchboard' } })).toContain('without a path');
    expect(problems({ listen: { publicUrl: 'ftp://tools.example.com' } })).toContain('expected an http or https URL');
    expect(problems({ listen: { publicUrl: 'tools.example.com' } })).toContain('expected an absolute URL');
  });
});
