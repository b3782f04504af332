// Config sections that decide who sees what: profiles, defaultProfile, auth.tokens, listen.tls/allowedHosts.
import { generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { inspect } from 'node:util';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, resolveConfig } from '../../../src/config/load.js';
import { isLoopbackHost } from '../../../src/config/listen.js';
import type { SwitchboardConfig } from '../../../src/config/types.js';

let dir: string;
const nodeDir = path.dirname(process.execPath);
const TLS_DIR = path.resolve(import.meta.dirname, '../../fixtures/tls');
/** Looks like a real token; every test checks it never leaks. */
const ALICE = 'alice-Zq8vN3kP1xR7tY2wB5mC9dF4';
const BOB = 'bob-Hj6sL0aQ3eU8iO1pV7nK2gT5';
const env: NodeJS.ProcessEnv = { PATH: nodeDir, HOME: '/home/tester', TOKEN_ALICE: ALICE, TOKEN_BOB: BOB };
const servers = { fs: { command: 'node' }, everything: { command: 'node' } };

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-access-'));
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

function resolve(raw: Record<string, unknown>, e: NodeJS.ProcessEnv = env): SwitchboardConfig {
  return resolveConfig({ mcpServers: servers, ...raw }, { file: '<inline>', dir }, e);
}

/** The ConfigError a call throws: one line, exit code 2, and no token value in it. */
function configError(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    const err = e as ConfigError;
    expect(err.exitCode).toBe(2);
    expect(err.message).not.toMatch(/[\r\n]/);
    for (const secret of [ALICE, BOB, 'short-secret', 'has space inside it!!']) expect(err.message).not.toContain(secret);
    return err;
  }
  throw new Error('expected a ConfigError');
}

function tokenFile(name: string, content: string, mode = 0o600): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, content, { mode });
  fs.chmodSync(file, mode);
  return file;
}

describe('profiles', () => {
  it('resolve with allow-all and deny-nothing defaults, keeping caps', () => {
    const config = resolve({
      profiles: {
        reader: { tools: { allow: ['fs__read_*', 'everything__*'], deny: ['*__write_*'] }, maxTools: 20 },
        none: { prompts: { allow: [] }, servers: { deny: ['fs'] }, maxTokens: 5000 },
      },
    });
    expect(config.profiles['reader']).toEqual({
      name: 'reader',
      tools: { allow: ['fs__read_*', 'everything__*'], deny: ['*__write_*'] },
      prompts: { allow: ['*'], deny: [] },
      servers: { allow: ['*'], deny: [] },
      resources: { allow: ['*'], deny: [] },
      maxTools: 20,
      maxTokens: undefined,
      discovery: undefined,
      pinned: [],
      priority: [],
    });
    expect(config.profiles['none']).toMatchObject({ prompts: { allow: [], deny: [] }, servers: { allow: ['*'], deny: ['fs'] }, maxTokens: 5000 });
    expect(config.warnings).toEqual([]);
  });

  it('find no profile for names inherited from Object.prototype', () => {
    const config = resolve({ profiles: { reader: {} } });
    expect(config.profiles['constructor']).toBeUndefined();
    expect(config.profiles['__proto__']).toBeUndefined();
    expect(config.profiles['toString']).toBeUndefined();
  });

  it('refuse names that would not survive a ?profile= query', () => {
    const err = configError(() => resolve({ profiles: { 'has space': {} } }));
    expect(err.message).toMatch(/^<inline>: \$\.profiles\["has space"\]: profile names are 1 to 64 characters/);
    configError(() => resolve({ profiles: { __proto__x: {} } }));
  });

  it('refuse caps that are not positive integers, naming the path', () => {
    const err = configError(() => resolve({ profiles: { p: { maxTools: 0 } } }));
    expect(err.message).toBe('<inline>: $.profiles.p.maxTools: expected an integer between 1 and 1000000, got 0');
    expect(configError(() => resolve({ profiles: { p: { maxTokens: 1.5 } } })).message).toContain('$.profiles.p.maxTokens');
    expect(configError(() => resolve({ profiles: { p: { tools: { allow: 'fs__*' } } } })).message).toContain(
      '$.profiles.p.tools.allow: expected an array of strings',
    );
    expect(configError(() => resolve({ profiles: { p: { tools: { deny: [''] } } } })).message).toContain('$.profiles.p.tools.deny[0]');
  });

  it('warn about globs that can never match and servers that do not exist', () => {
    const config = resolve({
      profiles: { p: { tools: { allow: ['fs.read'] }, servers: { allow: ['fss', 'f*'] } } },
    });
    expect(config.warnings).toEqual([
      '<inline>: $.profiles.p.tools.allow[0]: "fs.read" can never match: tools names use only A-Z a-z 0-9 _ - (globs add * and ?)',
      '<inline>: $.profiles.p.servers.allow[0]: no server is named "fss"',
    ]);
  });

  it('refuse misspelt keys, which would otherwise widen a view', () => {
    expect(configError(() => resolve({ profiles: { p: { tools: { alow: ['fs__read_*'] } } } })).message).toBe(
      '<inline>: $.profiles.p.tools.alow: unknown key; expected allow, deny (a misspelt key here could widen access)',
    );
    expect(configError(() => resolve({ profiles: { p: { tool: {} } } })).message).toContain(
      '$.profiles.p.tool: unknown key; expected tools, prompts, servers, resources, maxTools, maxTokens, discovery, pinned, priority',
    );
  });

  it('accept a known defaultProfile and refuse an unknown one', () => {
    expect(resolve({ profiles: { reader: {} }, defaultProfile: 'reader' }).defaultProfile).toBe('reader');
    const err = configError(() => resolve({ profiles: { reader: {} }, defaultProfile: 'writer' }));
    expect(err.message).toBe('<inline>: $.defaultProfile: unknown profile "writer" (configured: reader)');
  });
});

describe('auth.tokens', () => {
  it('reads values from the environment and from files relative to the config dir', () => {
    const file = tokenFile('bob.token', `${BOB}\n`);
    const config = resolve({
      profiles: { reader: {}, admin: {} },
      defaultProfile: 'reader',
      auth: {
        tokens: [
          { name: 'alice', tokenEnv: 'TOKEN_ALICE', profile: 'admin' },
          { name: 'bob', tokenFile: 'bob.token' },
        ],
      },
    });
    const [alice, bob] = config.auth.tokens;
    expect(alice).toMatchObject({ name: 'alice', profile: 'admin', source: 'environment variable TOKEN_ALICE' });
    expect(alice!.secret.reveal()).toBe(ALICE);
    // A token without a profile is bounded by the default profile.
    expect(bob).toMatchObject({ name: 'bob', profile: 'reader', source: `file ${file}` });
    expect(bob!.secret.reveal()).toBe(BOB);
    // Both are bound to a profile: nobody could read /metrics or /status.json, and the config says so.
    expect(config.warnings).toEqual([
      '<inline>: $.auth.tokens: no token can read /metrics, /status.json, the status page or /readyz detail (each is bound to a profile); give an operator\'s token "admin": true, or "profile": null to see everything',
    ]);
  });

  it('"profile": null opts a token out of defaultProfile and makes it an operator\'s; "admin": true keeps the profile', () => {
    tokenFile('bob.token', `${BOB}\n`);
    const config = resolve({
      profiles: { reader: {} },
      defaultProfile: 'reader',
      auth: {
        tokens: [
          { name: 'alice', tokenEnv: 'TOKEN_ALICE', profile: null },
          { name: 'bob', tokenFile: 'bob.token', admin: true },
        ],
      },
    });
    const [alice, bob] = config.auth.tokens;
    expect(alice).toMatchObject({ name: 'alice', profile: undefined, admin: true });
    expect(bob).toMatchObject({ name: 'bob', profile: 'reader', admin: true });
    expect(config.warnings).toEqual([]);
    const typo = configError(() => resolve({ auth: { tokens: [{ name: 'alice', tokenEnv: 'TOKEN_ALICE', admin: 'yes' }] } }));
    expect(typo.message).toContain('$.auth.tokens[0].admin: expected true or false');
  });

  it('never serialize a token value: JSON, inspect, string conversion, structuredClone, pino', () => {
    tokenFile('bob.token', BOB);
    const config = resolve({
      auth: { tokens: [{ name: 'alice', tokenEnv: 'TOKEN_ALICE' }, { name: 'bob', tokenFile: 'bob.token' }] },
      listen: { host: '0.0.0.0' },
    });
    const renderings = [
      JSON.stringify(config),
      inspect(config, { depth: Infinity, showHidden: true }),
      `${config.auth.tokens[0]!.secret}`,
      String(config.auth.tokens[1]!.secret),
      JSON.stringify(structuredClone(config.auth.tokens)),
    ];
    let logged = '';
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        logged += chunk.toString();
        done();
      },
    });
    pino({ level: 'info' }, sink).info({ config, tokens: config.auth.tokens }, 'loaded');
    renderings.push(logged);
    for (const text of renderings) {
      expect(text).not.toContain(ALICE);
      expect(text).not.toContain(BOB);
    }
    expect(JSON.stringify(config.auth.tokens[0])).toContain('"secret":"[redacted]"');
  });

  it('tell a rotated token apart although both serialize alike', () => {
    const load = (e: NodeJS.ProcessEnv) => resolve({ auth: { tokens: [{ name: 'a', tokenEnv: 'TOKEN_ALICE' }] } }, e).auth.tokens[0]!.secret;
    const before = load(env);
    expect(before.equals(load(env))).toBe(true);
    expect(before.equals(load({ ...env, TOKEN_ALICE: BOB }))).toBe(false);
    expect(before.equals(load({ ...env, TOKEN_ALICE: `${ALICE}x` }))).toBe(false);
  });

  it('refuse a literal token, without echoing it, even when other parts are broken', () => {
    const err = configError(() => resolve({ auth: { tokens: [{ name: 'alice', token: ALICE }] } }));
    expect(err.message).toBe(
      '<inline>: $.auth.tokens[0].token: token values do not belong in the config file: set "tokenEnv" (an environment variable) or "tokenFile" (a file) instead',
    );
    const broken = configError(() => resolve({ listen: { port: -1 }, auth: { tokens: [{ token: ALICE }] } }));
    expect(broken.message).toContain('$.auth.tokens[0].token: token values do not belong');
  });

  it('need exactly one of tokenEnv and tokenFile', () => {
    expect(configError(() => resolve({ auth: { tokens: [{ name: 'a' }] } })).message).toBe(
      '<inline>: $.auth.tokens[0]: needs "tokenEnv" (an environment variable) or "tokenFile" (a file) holding the token',
    );
    tokenFile('a.token', ALICE);
    expect(configError(() => resolve({ auth: { tokens: [{ name: 'a', tokenEnv: 'TOKEN_ALICE', tokenFile: 'a.token' }] } })).message).toBe(
      '<inline>: $.auth.tokens[0]: set only one of "tokenEnv" and "tokenFile"',
    );
  });

  it('explain unusable values in one line each, naming the variable or file, never the value', () => {
    const cases: Array<[unknown, NodeJS.ProcessEnv, string]> = [
      [{ name: 'a', tokenEnv: 'NOPE' }, env, '$.auth.tokens[0].tokenEnv: environment variable NOPE is not set'],
      [{ name: 'a', tokenEnv: 'EMPTY' }, { ...env, EMPTY: '\n' }, '$.auth.tokens[0].tokenEnv: environment variable EMPTY is empty'],
      [{ name: 'a', tokenEnv: 'SHORT' }, { ...env, SHORT: 'short-secret' }, 'environment variable SHORT holds a token shorter than 16 characters; generate one with `openssl rand -hex 32`'],
      [{ name: 'a', tokenEnv: 'SPACE' }, { ...env, SPACE: 'has space inside it!!' }, 'environment variable SPACE holds characters a bearer token cannot carry'],
      [{ name: 'a', tokenEnv: 'lower-case' }, env, '$.auth.tokens[0].tokenEnv: expected an environment variable name like SWITCHBOARD_TOKEN_ALICE'],
      [{ name: 'a', tokenFile: 'absent.token' }, env, `$.auth.tokens[0].tokenFile: no such file: ${path.join('DIR', 'absent.token')}`],
      [{ name: 'a b', tokenEnv: 'TOKEN_ALICE' }, env, '$.auth.tokens[0].name: expected 1 to 64 characters'],
      [{ name: 'a', tokenEnv: 'TOKEN_ALICE', profile: 'nope' }, env, '$.auth.tokens[0].profile: unknown profile "nope" (no profiles are configured)'],
    ];
    for (const [token, e, expected] of cases) {
      const err = configError(() => resolve({ auth: { tokens: [token] } }, e));
      expect(err.message).toContain(expected.replace('DIR', dir));
      expect(err.problems).toHaveLength(1);
    }
  });

  it('refuse misspelt keys in auth and its tokens', () => {
    expect(configError(() => resolve({ auth: { token: [] } })).message).toBe(
      '<inline>: $.auth.token: unknown key; expected tokens, oauth (a misspelt key here could widen access)',
    );
    expect(configError(() => resolve({ profiles: { r: {} }, auth: { tokens: [{ name: 'a', tokenEnv: 'TOKEN_ALICE', profiel: 'r' }] } })).message).toBe(
      '<inline>: $.auth.tokens[0].profiel: unknown key; expected name, tokenEnv, tokenFile, profile, admin (a misspelt key here could widen access)',
    );
  });

  it('reserve the name anonymous for sessions without a token', () => {
    expect(configError(() => resolve({ auth: { tokens: [{ name: 'anonymous', tokenEnv: 'TOKEN_ALICE' }] } })).message).toBe(
      '<inline>: $.auth.tokens[0].name: the token name "anonymous" is reserved for sessions without a token; choose another name',
    );
  });

  it('refuse duplicate names and duplicate values, naming the first entry', () => {
    const names = configError(() =>
      resolve({ auth: { tokens: [{ name: 'a', tokenEnv: 'TOKEN_ALICE' }, { name: 'a', tokenEnv: 'TOKEN_BOB' }] } }),
    );
    expect(names.message).toBe('<inline>: $.auth.tokens[1].name: token name "a" is already used by $.auth.tokens[0]');
    tokenFile('same.token', `${ALICE}\r\n`);
    const values = configError(() =>
      resolve({ auth: { tokens: [{ name: 'a', tokenEnv: 'TOKEN_ALICE' }, { name: 'b', tokenFile: 'same.token' }] } }),
    );
    expect(values.message).toBe(
      '<inline>: $.auth.tokens[1]: has the same token value as $.auth.tokens[0]; give every member their own token',
    );
  });

  it('warn about a token file other users can read', () => {
    if (process.platform === 'win32') return;
    const file = tokenFile('open.token', ALICE, 0o644);
    const config = resolve({ auth: { tokens: [{ name: 'a', tokenFile: 'open.token' }] } });
    expect(config.warnings).toEqual([`<inline>: $.auth.tokens[0].tokenFile: ${file} is readable by other users (mode 644); chmod 600 it`]);
  });
});

describe('listen', () => {
  it('refuses a non-loopback host without tokens, in `check` too (loadConfig)', () => {
    const file = path.join(dir, 'proxy.config.json');
    fs.writeFileSync(file, JSON.stringify({ listen: { host: '0.0.0.0' }, mcpServers: servers }));
    const err = configError(() => loadConfig(file, env));
    expect(err.message).toBe(`${file}: $.listen.host: 0.0.0.0 is not loopback: configure auth.tokens or auth.oauth, or bind 127.0.0.1`);
    configError(() => resolve({ listen: { host: '192.168.1.10' } }));
    configError(() => resolve({ listen: { host: '::' } }));
  });

  it('accepts loopback hosts without tokens, and any host with tokens (warning without TLS)', () => {
    for (const host of ['127.0.0.1', 'localhost', '::1', '127.0.0.2']) expect(resolve({ listen: { host } }).listen.host).toBe(host);
    const config = resolve({ listen: { host: '0.0.0.0' }, auth: { tokens: [{ name: 'a', tokenEnv: 'TOKEN_ALICE' }] } });
    expect(config.warnings).toEqual([
      '<inline>: $.listen.host: 0.0.0.0 is not loopback and listen.tls is not set: bearer tokens cross the network in clear text unless a TLS-terminating proxy is in front',
    ]);
  });

  it('tells loopback hosts apart', () => {
    for (const h of ['localhost', 'LOCALHOST', '127.0.0.1', '127.1.2.3', '::1', '[::1]', '::ffff:127.0.0.1']) expect(isLoopbackHost(h)).toBe(true);
    for (const h of ['0.0.0.0', '::', '10.0.0.1', '127.evil.example', 'localhost.example', '']) expect(isLoopbackHost(h)).toBe(false);
  });

  it('resolves TLS files against the config dir and checks they parse and match', () => {
    fs.copyFileSync(path.join(TLS_DIR, 'localhost.cert.pem'), path.join(dir, 'cert.pem'));
    fs.copyFileSync(path.join(TLS_DIR, 'localhost.key.pem'), path.join(dir, 'key.pem'));
    const config = resolve({ listen: { tls: { cert: 'cert.pem', key: 'key.pem' } } });
    expect(config.listen.tls).toEqual({ cert: path.join(dir, 'cert.pem'), key: path.join(dir, 'key.pem') });

    const missing = configError(() => resolve({ listen: { tls: { cert: 'nope.pem', key: 'key.pem' } } }));
    expect(missing.message).toBe(`<inline>: $.listen.tls.cert: no such file: ${path.join(dir, 'nope.pem')}`);

    const other = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey.export({ type: 'pkcs8', format: 'pem' });
    fs.writeFileSync(path.join(dir, 'other.pem'), other);
    const mismatch = configError(() => resolve({ listen: { tls: { cert: 'cert.pem', key: 'other.pem' } } }));
    expect(mismatch.message).toBe(
      `<inline>: $.listen.tls.key: ${path.join(dir, 'other.pem')} is not the private key of the certificate in ${path.join(dir, 'cert.pem')}`,
    );

    fs.writeFileSync(path.join(dir, 'junk.pem'), 'not a pem');
    const junk = configError(() => resolve({ listen: { tls: { cert: 'junk.pem', key: 'junk.pem' } } }));
    expect(junk.problems.map((p) => p.problem)).toEqual([
      `${path.join(dir, 'junk.pem')} holds no PEM certificate`,
      `${path.join(dir, 'junk.pem')} holds no unencrypted PEM private key`,
    ]);
    expect(configError(() => resolve({ listen: { tls: { cert: 'cert.pem' } } })).message).toContain('$.listen.tls.key: missing');
  });

  it('normalizes allowedHosts and refuses URLs or ports', () => {
    expect(resolve({ listen: { allowedHosts: ['Tools.Example.com', '[::1]', '10.0.0.5'] } }).listen.allowedHosts).toEqual([
      'tools.example.com',
      '[::1]',
      '10.0.0.5',
    ]);
    for (const bad of ['https://tools.example.com', 'tools.example.com:8808', 'a b']) {
      const err = configError(() => resolve({ listen: { allowedHosts: [bad] } }));
      expect(err.message).toContain('$.listen.allowedHosts[0]: expected a host name without scheme or port');
    }
  });
});
