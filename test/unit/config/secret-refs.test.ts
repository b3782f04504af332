// `${file:PATH}` and `${credential:NAME}` in config strings: read from the file, never echoed.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, resolveConfig } from '../../../src/config/load.js';
import { substitute } from '../../../src/config/interpolate.js';
import type { PathSegment } from '../../../src/config/errors.js';
import { credentialsRead, parseCredentials, withCredentials } from '../../../src/cli/service-credentials.js';
import { renderUnit, type UnitSpec } from '../../../src/ops/systemd.js';

const SECRET = 'sk-test-0123456789abcdefSECRET';
let dir: string;
const env: NodeJS.ProcessEnv = { PATH: path.dirname(process.execPath), HOME: '/home/tester' };

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-secret-refs-'));
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

function sub(text: string, e: NodeJS.ProcessEnv = env): { value: string; fromEnv: boolean; problems: Array<{ problem: string; unavailable: boolean }> } {
  const problems: Array<{ problem: string; unavailable: boolean }> = [];
  const result = substitute(text, ['x'], e, (_p: readonly PathSegment[], problem: string, unavailable?: boolean) => problems.push({ problem, unavailable: unavailable === true }), dir);
  return { ...result, problems };
}

function server(envValue: string): Record<string, unknown> {
  return { mcpServers: { gh: { command: process.execPath, args: ['x.js'], env: { GITHUB_TOKEN: envValue } } } };
}

function thrown(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error('expected a ConfigError');
}

describe('${file:PATH}', () => {
  it('reads the file relative to the config folder, one trailing newline dropped', () => {
    fs.writeFileSync(path.join(dir, 'token'), `${SECRET}\n`);
    expect(sub('${file:token}')).toEqual({ value: SECRET, fromEnv: true, problems: [] });
    expect(sub(`Bearer \${file:${path.join(dir, 'token')}}`).value).toBe(`Bearer ${SECRET}`);
    fs.writeFileSync(path.join(dir, 'two'), 'a\n\n');
    expect(sub('${file:two}').value).toBe('a\n');
  });

  it('resolves ~/ against HOME, and works as a default', () => {
    fs.writeFileSync(path.join(dir, 'home-token'), SECRET);
    expect(sub('${file:~/home-token}', { ...env, HOME: dir }).value).toBe(SECRET);
    expect(sub('${UNSET_ONE:-${file:home-token}}').value).toBe(SECRET);
    // An unused default is not read: its file need not exist.
    expect(sub('${HOME:-${file:nowhere}}').problems).toEqual([]);
  });

  it('a missing file is an unavailable secret naming the file; bad syntax is a mistake', () => {
    const missing = sub('${file:nowhere}');
    expect(missing.problems).toEqual([{ problem: `secret file ${path.join(dir, 'nowhere')}: no such file`, unavailable: true }]);
    expect(sub('${file:nowhere').problems[0]).toMatchObject({ unavailable: false });
    expect(sub('${file:}').problems[0]?.problem).toContain('names no file');
  });

  it('a server whose secret file is missing fails with one line naming the key and the server, never a value', () => {
    const error = thrown(() => resolveConfig(server('${file:gh-token}'), { file: '<inline>', dir }, env, { strict: true }));
    expect(error.message).toBe(`<inline>: $.mcpServers.gh.env.GITHUB_TOKEN: secret file ${path.join(dir, 'gh-token')}: no such file`);
  });

  it('reaches the child environment, and no error message ever shows the value', () => {
    fs.writeFileSync(path.join(dir, 'gh-token'), `${SECRET}\n`);
    const config = resolveConfig(server('${file:gh-token}'), { file: '<inline>', dir }, env);
    expect(config.servers[0]?.env['GITHUB_TOKEN']).toBe(SECRET);
    // A command that does not exist is reported by its written form.
    const bad = { mcpServers: { gh: { command: '${file:gh-token}', args: [] } } };
    expect(thrown(() => resolveConfig(bad, { file: '<inline>', dir }, env, { strict: true })).message).not.toContain(SECRET);
  });

  it('warns about a secret file others can read, and lists the files for the reload watch', () => {
    const file = path.join(dir, 'gh-token');
    fs.writeFileSync(file, SECRET, { mode: 0o644 });
    fs.chmodSync(file, 0o644);
    const config = resolveConfig(server('${file:gh-token}'), { file: '<inline>', dir }, env);
    expect(config.warnings.join('\n')).toContain(`secret file ${file} is readable by other users (mode 644); chmod 600 it`);
    expect(config.secretFiles).toEqual([file]);
    fs.chmodSync(file, 0o600);
    expect(resolveConfig(server('${file:gh-token}'), { file: '<inline>', dir }, env).warnings).toEqual([]);
  });

  it('commands that start no server only warn about a missing one', () => {
    const file = path.join(dir, 'proxy.config.json');
    fs.writeFileSync(file, JSON.stringify(server('${file:gh-token}')));
    const config = loadConfig(file, env, { secrets: 'none' });
    expect(config.warnings.join('\n')).toContain('GITHUB_TOKEN: secret file');
    expect(config.warnings.join('\n')).toContain('switchboard start needs it');
  });
});

describe('${credential:NAME}', () => {
  it('reads $CREDENTIALS_DIRECTORY/NAME', () => {
    fs.writeFileSync(path.join(dir, 'github'), `${SECRET}\n`);
    expect(sub('${credential:github}', { ...env, CREDENTIALS_DIRECTORY: dir }).value).toBe(SECRET);
  });

  it('without systemd, says what sets it; a name with a slash is refused', () => {
    expect(sub('${credential:github}').problems).toEqual([{ problem: expect.stringContaining('credential github is not available: CREDENTIALS_DIRECTORY is not set'), unavailable: true }]);
    expect(sub('${credential:../etc/passwd}', { ...env, CREDENTIALS_DIRECTORY: dir }).problems[0]).toMatchObject({ unavailable: false });
  });
});

describe('service install --credential', () => {
  const spec: UnitSpec = {
    name: 'mcp-switchboard',
    scope: 'user',
    nodePath: '/usr/bin/node',
    entryPath: '/opt/sb/dist/cli/main.js',
    configPath: '/srv/sb/proxy.config.json',
    stateDir: '/home/u/.local/state/mcp-switchboard',
    notify: false,
    shutdownGraceMs: 10_000,
    listenHost: '127.0.0.1',
    searchPath: ['/usr/bin'],
    cacheDirs: [],
    namespaces: false,
  };

  it('writes one LoadCredential= line per credential', () => {
    const unit = renderUnit({ ...spec, credentials: [{ name: 'github', path: '/etc/sb/github-100%' }] });
    expect(unit).toContain('\nLoadCredential=github:/etc/sb/github-100%%\n');
    expect(renderUnit(spec)).not.toContain('LoadCredential=');
  });

  it('parses NAME=PATH, refusing what a unit line cannot carry', () => {
    expect(parseCredentials(['github=/etc/sb/gh'])).toEqual([{ name: 'github', path: '/etc/sb/gh' }]);
    expect(() => parseCredentials(['github'])).toThrow(/NAME=PATH/);
    expect(() => parseCredentials(['a/b=/x'])).toThrow(/NAME=PATH/);
    expect(() => parseCredentials(['gh=/with space'])).toThrow(/LoadCredential/);
    expect(() => parseCredentials(['gh=/a', 'gh=/b'])).toThrow(/twice/);
  });

  it('checks the config with the credentials as the service will see them', () => {
    const text = JSON.stringify(server('${credential:github}'));
    expect(credentialsRead(text)).toEqual(['github']);
    expect(() => withCredentials(text, [], env, () => 0, () => undefined)).toThrow(/pass --credential github=PATH/);
    const file = path.join(dir, 'gh');
    fs.writeFileSync(file, SECRET);
    const seen = withCredentials(text, [{ name: 'github', path: file }], env, (e) => fs.readFileSync(path.join(e['CREDENTIALS_DIRECTORY'] ?? '', 'github'), 'utf8'), () => undefined);
    expect(seen).toBe(SECRET);
    const warnings: string[] = [];
    withCredentials('{}', [{ name: 'extra', path: file }], env, () => 0, (w) => warnings.push(w));
    expect(warnings[0]).toContain('not read by the config');
  });
});
