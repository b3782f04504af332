import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, resolveConfig } from '../../../src/config/load.js';
import type { SwitchboardConfig } from '../../../src/config/types.js';

let dir: string;
const nodeDir = path.dirname(process.execPath);
const baseEnv: NodeJS.ProcessEnv = { PATH: nodeDir, HOME: '/home/tester' };

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-config-'));
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

function resolve(raw: unknown, env: NodeJS.ProcessEnv = baseEnv): SwitchboardConfig {
  return resolveConfig(raw, { file: '<inline>', dir }, env, { strict: true });
}

function writeConfig(body: unknown): string {
  const file = path.join(dir, 'proxy.config.json');
  fs.writeFileSync(file, typeof body === 'string' ? body : JSON.stringify(body, null, 2));
  return file;
}

function makeExecutable(file: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, '#!/bin/sh\nexit 0\n');
  fs.chmodSync(file, 0o755);
}

/** The ConfigError a call throws, checked to be a one-line message with exit code 2. */
function configError(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    const err = e as ConfigError;
    expect(err.exitCode).toBe(2);
    expect(err.message).not.toMatch(/[\r\n]/);
    return err;
  }
  throw new Error('expected a ConfigError');
}

describe('Claude Desktop shape', () => {
  it('loads unchanged, warning about keys it does not know', () => {
    const file = writeConfig({
      globalShortcut: 'Ctrl+Space',
      mcpServers: { everything: { type: 'stdio', command: 'node', args: ['server.js'], env: { FOO: 'bar' } } },
    });
    const config = loadConfig(file, baseEnv);
    expect(config.file).toBe(file);
    expect(config.dir).toBe(dir);
    expect(config.servers).toHaveLength(1);
    const server = config.servers[0]!;
    expect(server.name).toBe('everything');
    expect(server.command).toBe(path.join(nodeDir, 'node'));
    expect(server.commandAsWritten).toBe('node');
    expect(server.args).toEqual(['server.js']);
    expect(server.env['FOO']).toBe('bar');
    expect(config.warnings).toEqual([`${file}: $.globalShortcut: unknown key, ignored`]);
  });

  it('fills every default', () => {
    const config = resolve({ mcpServers: { 'my.server': { command: 'node' } } });
    expect(config.listen).toEqual({ host: '127.0.0.1', port: 8808, tls: undefined, allowedHosts: [] });
    expect(config.namespace).toEqual({ separator: '__', maxLength: 48 });
    expect(config.limits).toEqual({
      maxBodyBytes: 4 * 1024 * 1024,
      maxLineBytes: 16 * 1024 * 1024,
      maxSessions: 10_000,
      maxSessionsPerIdentity: 1_000,
      requestTimeoutMs: 30_000,
      headersTimeoutMs: 10_000,
      maxConnections: 4_096,
      maxConnectionsPerAddress: 256,
      pageSize: 1_000,
      sessionIdleMs: 30 * 60 * 1000,
      shutdownGraceMs: 10_000,
      // No rate limits unless configured.
      profiles: {},
      tools: {},
    });
    expect(config.allowedOrigins).toEqual([]);
    expect(Object.keys(config.profiles)).toEqual([]);
    expect(config.defaultProfile).toBeUndefined();
    expect(config.auth).toEqual({ tokens: [] });
    expect(config.sanitize).toEqual({
      log: '/home/tester/.local/state/mcp-switchboard/sanitize.jsonl',
      pins: '/home/tester/.local/state/mcp-switchboard/pins.json',
      blocking: true,
      learnedIntent: true,
      logMaxBytes: 10 * 1024 * 1024,
      logKeep: 5,
    });
    expect(config.logLevel).toBe('info');
    expect(config.warnings).toEqual([]);
    const server = config.servers[0]!;
    expect(server).toMatchObject({
      alias: 'my_server',
      args: [],
      cwd: dir,
      isolation: 'shared',
      timeoutMs: 60_000,
      disabled: false,
      restart: { initialDelayMs: 500, maxDelayMs: 30_000 },
      roots: [],
    });
  });

  it('resolves sanitize paths, cwd and roots against the config dir, XDG_STATE_HOME when set', () => {
    fs.mkdirSync(path.join(dir, 'work'));
    const sanitize = { log: './logs/sanitize.jsonl', blocking: false };
    const config = resolve({
      mcpServers: { fs: { command: 'node', cwd: 'work', roots: ['data', '/abs'] } },
      sanitize,
    }, { ...baseEnv, XDG_STATE_HOME: '/var/state' });
    expect(config.sanitize.log).toBe(path.join(dir, 'logs/sanitize.jsonl'));
    expect(config.sanitize.pins).toBe('/var/state/mcp-switchboard/pins.json');
    expect(config.sanitize.blocking).toBe(false);
    expect(config.servers[0]!.acceptUpdates).toBe(false);
    expect(Object.isFrozen(sanitize)).toBe(false);
    expect(config.servers[0]!.cwd).toBe(path.join(dir, 'work'));
    expect(config.servers[0]!.roots).toEqual([
      pathToFileURL(path.join(dir, 'data')).href,
      pathToFileURL('/abs').href,
    ]);
  });
});

describe('variable substitution', () => {
  it('replaces ${VAR}, ${VAR:-default} and keeps $${ literal', () => {
    const env = { ...baseEnv, NAME: 'alice', EMPTY: '' };
    const config = resolve(
      {
        mcpServers: {
          s: {
            command: 'node',
            args: ['--user=${NAME}', '${MISSING:-fallback}', '${EMPTY:-used}', '$${NAME}'],
            env: { WHO: 'hi ${NAME}' },
          },
        },
        listen: { host: '${HOST:-localhost}' },
      },
      env,
    );
    const server = config.servers[0]!;
    expect(server.args).toEqual(['--user=alice', 'fallback', 'used', '${NAME}']);
    expect(server.env['WHO']).toBe('hi alice');
    expect(config.listen.host).toBe('localhost');
  });

  it('names the path and the variable of an unset variable, never a value', () => {
    const env = { ...baseEnv, OTHER_SECRET: 's3cr3t-value' };
    const err = configError(() =>
      resolve({ mcpServers: { fs: { command: 'node', env: { TOKEN: '${GITHUB_TOKEN}', X: '${OTHER_SECRET}' } } } }, env),
    );
    expect(err.message).toBe('<inline>: $.mcpServers.fs.env.TOKEN: environment variable GITHUB_TOKEN is not set');
    expect(err.message).not.toContain('s3cr3t-value');
  });
  it('only warns about unset variables of a disabled server', () => {
    const config = resolve({ mcpServers: { s: { command: '${TOOL_BIN}', disabled: true } } });
    expect(config.warnings).toEqual([
      '<inline>: $.mcpServers.s.command: environment variable TOOL_BIN is not set (server is disabled, ignored)',
    ]);
  });

  it('rejects a malformed reference', () => {
    const err = configError(() => resolve({ mcpServers: { s: { command: 'node', args: ['${oops'] } } }));
    expect(err.message).toContain('$.mcpServers.s.args[0]: invalid variable reference');
  });

  it('expands references inside defaults, to any depth a person writes', () => {
    const env = { ...baseEnv, NAME: 'alice', EMPTY: '' };
    const config = resolve(
      { mcpServers: { s: { command: 'node', args: ['${UNSET:-${HOME}}', '${UNSET:-${EMPTY:-${NAME}}}/x', '${NAME:-${UNSET}}', 'a${UNSET:-b}c}', '${UNSET:-$${NAME}}'] } } },
      env,
    );
    // A default is used only when needed: the unset variable in an unused default is no error.
    expect(config.servers[0]!.args).toEqual(['/home/tester', 'alice/x', 'alice', 'abc}', '${NAME}']);
  });

  it('refuses an unset variable in a used default, and an unterminated default, naming the problem', () => {
    expect(configError(() => resolve({ mcpServers: { s: { command: 'node', args: ['${UNSET:-${ALSO_UNSET}}'] } } })).message).toBe(
      '<inline>: $.mcpServers.s.args[0]: environment variable ALSO_UNSET is not set',
    );
    expect(configError(() => resolve({ mcpServers: { s: { command: 'node', args: ['${UNSET:-${HOME}'] } } })).message).toContain(
      '$.mcpServers.s.args[0]: unterminated default of ${UNSET:-...}',
    );
    const deep = `${'${U:-'.repeat(9)}x${'}'.repeat(9)}`;
    expect(configError(() => resolve({ mcpServers: { s: { command: 'node', args: [deep] } } })).message).toContain('nest deeper than 8 levels');
  });
});

describe('command resolution', () => {
  it('prefers the config dir node_modules/.bin over PATH', () => {
    const pathDir = path.join(dir, 'on-path');
    makeExecutable(path.join(pathDir, 'my-server'));
    makeExecutable(path.join(dir, 'node_modules', '.bin', 'my-server'));
    const config = resolve({ mcpServers: { s: { command: 'my-server' } } }, { PATH: pathDir });
    expect(config.servers[0]!.command).toBe(path.join(dir, 'node_modules', '.bin', 'my-server'));
  });

  it('resolves a bare name on PATH to an absolute path', () => {
    const config = resolve({ mcpServers: { s: { command: 'node' } } });
    expect(path.isAbsolute(config.servers[0]!.command)).toBe(true);
    expect(config.servers[0]!.command).toBe(path.join(nodeDir, 'node'));
  });

  it('resolves a relative path against the config dir', () => {
    makeExecutable(path.join(dir, 'bin', 'run.sh'));
    const config = resolve({ mcpServers: { s: { command: './bin/run.sh' } } });
    expect(config.servers[0]!.command).toBe(path.join(dir, 'bin', 'run.sh'));
  });

  it('reports a missing command, except for disabled servers', () => {
    const err = configError(() => resolve({ mcpServers: { x: { command: 'no-such-command-here' } } }));
    expect(err.message).toBe(
      `<inline>: $.mcpServers.x.command: command "no-such-command-here" not found in ${path.join(dir, 'node_modules', '.bin')} or PATH`,
    );
    const config = resolve({ mcpServers: { x: { command: 'no-such-command-here', disabled: true } } });
    expect(config.servers[0]!.command).toBe('no-such-command-here');
    expect(config.servers[0]!.disabled).toBe(true);
  });
});

describe('child environment', () => {
  it('has the safe defaults and configured vars, not the daemon secrets', () => {
    const env = { ...baseEnv, SECRET_TOKEN: 'daemon-only', LANG: 'C.UTF-8' };
    const config = resolve({ mcpServers: { s: { command: 'node', env: { API_KEY: 'k', LANG: 'de_DE.UTF-8' } } } }, env);
    const childEnv = config.servers[0]!.env;
    expect(childEnv['PATH']).toBe(nodeDir);
    expect(childEnv['HOME']).toBe('/home/tester');
    expect(childEnv['API_KEY']).toBe('k');
    expect(childEnv['LANG']).toBe('de_DE.UTF-8');
    expect(childEnv).not.toHaveProperty('SECRET_TOKEN');
  });
});

describe('errors', () => {
  it('refuses two servers with the same alias, naming both', () => {
    const err = configError(() => resolve({ mcpServers: { 'a.b': { command: 'node' }, a_b: { command: 'node' } } }));
    expect(err.message).toContain('$.mcpServers.a_b');
    expect(err.message).toContain('$.mcpServers["a.b"]');
  });

  it('explains an invalid port with the value given', () => {
    const err = configError(() => resolve({ mcpServers: { s: { command: 'node' } }, listen: { port: 'abc' } }));
    expect(err.message).toBe('<inline>: $.listen.port: expected an integer between 0 and 65535, got "abc"');
  });

  it('does not echo env values of the wrong type', () => {
    const err = configError(() => resolve({ mcpServers: { s: { command: 'node', env: { K: 12345678 } } } }));
    expect(err.message).toBe('<inline>: $.mcpServers.s.env.K: expected a string');
  });

  it('names file, line and column of a JSON syntax error', () => {
    const file = writeConfig('{\n  "mcpServers": {\n    "a": { "command": "node" },\n  }\n}\n');
    const err = configError(() => loadConfig(file, baseEnv));
    expect(err.message).toContain(file);
    expect(err.message).toContain('line 4, column 3');
  });

  it('names the file when it is missing', () => {
    const file = path.join(dir, 'absent.json');
    const err = configError(() => loadConfig(file, baseEnv));
    expect(err.message).toBe(`${file}: cannot read config file: no such file`);
  });

  it('reads remote servers: url, headers kept as secrets, the transport from `transport` or VS Code\'s `type`', () => {
    const config = resolve({
      mcpServers: {
        r: { url: 'https://example.com/mcp', headers: { Authorization: 'Bearer ${REMOTE_TOKEN}' } },
        s: { type: 'sse', url: 'https://example.com/sse' },
        h: { type: 'http', url: 'http://127.0.0.1:9/mcp', transport: 'sse' },
      },
    }, { ...baseEnv, REMOTE_TOKEN: 'remote-secret-value' });
    const [r, s2, h] = config.servers;
    expect(r?.remote).toMatchObject({ url: 'https://example.com/mcp', transport: 'auto' });
    expect(r?.remote?.headers['authorization']?.reveal()).toBe('Bearer remote-secret-value');
    expect(JSON.stringify(config)).not.toContain('remote-secret-value');
    expect(s2?.remote?.transport).toBe('sse');
    expect(h?.remote?.transport).toBe('sse');
    expect(configError(() => resolve({ mcpServers: { r: { url: 'https://example.com/mcp', command: 'node' } } })).message).toContain('set either "command" or "url", not both');
    expect(configError(() => resolve({ mcpServers: { r: { url: 'ftp://example.com/mcp' } } })).message).toContain('$.mcpServers.r.url: expected an http or https URL');
    expect(configError(() => resolve({ mcpServers: { r: { url: 'https://example.com/mcp', protocol: 'stateless' } } })).message).toContain('$.mcpServers.r.protocol');
    expect(configError(() => resolve({ mcpServers: { r: { type: 'stdio', url: 'https://example.com/mcp' } } })).message).toContain('$.mcpServers.r.type');
    expect(configError(() => resolve({ mcpServers: { r: {} } })).message).toContain('needs a "command" (a stdio server) or a "url" (a remote server)');
  });

  it('requires at least one server', () => {
    expect(configError(() => resolve({ mcpServers: {} })).message).toBe('<inline>: $.mcpServers: no servers configured');
    expect(configError(() => resolve({ preferences: {} })).message).toContain('$.mcpServers: missing');
  });

  it('keeps several problems on one line', () => {
    const err = configError(() =>
      resolve({
        mcpServers: { a: { command: 'node', timeoutMs: -1, isolation: 'x\ny' }, b: { command: '' } },
        limits: { pageSize: 0 },
        namespace: { separator: '::' },
      }),
    );
    expect(err.problems.length).toBeGreaterThan(3);
    expect(err.message).toMatch(/\(and \d+ more\)$/);
  });

  it('validates an explicit alias', () => {
    const err = configError(() => resolve({ mcpServers: { s: { command: 'node', alias: 'has space' } } }));
    expect(err.message).toBe('<inline>: $.mcpServers.s.alias: expected 1 to 24 characters of [A-Za-z0-9_-], got "has space"');
  });

  it('requires an existing cwd for enabled servers', () => {
    const err = configError(() => resolve({ mcpServers: { s: { command: 'node', cwd: 'nope' } } }));
    expect(err.message).toContain('$.mcpServers.s.cwd: no such directory');
  });
});

describe('result', () => {
  it('is deeply frozen', () => {
    const config = resolve(
      {
        mcpServers: { s: { command: 'node', args: ['a'] } },
        profiles: { p: { tools: { deny: ['x'] } } },
        auth: { tokens: [{ name: 'x', tokenEnv: 'TOKEN_X' }] },
      },
      { ...baseEnv, TOKEN_X: 'x'.repeat(32) },
    );
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.servers)).toBe(true);
    expect(Object.isFrozen(config.servers[0])).toBe(true);
    expect(Object.isFrozen(config.servers[0]!.args)).toBe(true);
    expect(Object.isFrozen(config.servers[0]!.env)).toBe(true);
    expect(Object.isFrozen(config.listen)).toBe(true);
    expect(Object.isFrozen(config.auth.tokens[0])).toBe(true);
    expect(Object.isFrozen(config.profiles)).toBe(true);
    expect(Object.isFrozen(config.profiles['p']!.tools.deny)).toBe(true);
    expect(Object.isFrozen(config.warnings)).toBe(true);
  });
});

describe('one unusable server entry', () => {
  // As in a Cursor or VS Code file: a remote entry with a broken URL and a server that is not installed beside a good one.
  const mixed = {
    mcpServers: {
      good: { command: 'node' },
      remote: { url: 'tools.example.com/mcp', headers: { Authorization: 'Bearer x' } },
      missing: { command: 'no-such-mcp-server-anywhere' },
      typo: { command: 'node', timeoutMs: 'soon' },
    },
  };

  it('is skipped with its reason by default, and the rest is served', () => {
    const config = resolveConfig(mixed, { file: '<inline>', dir }, baseEnv);
    expect(config.servers.map((s) => s.name)).toEqual(['good']);
    expect(config.skipped).toEqual([
      { name: 'remote', reason: '$.mcpServers.remote.url: expected an absolute http or https URL, got "tools.example.com/mcp"', remote: true },
      { name: 'missing', reason: expect.stringMatching(/^\$\.mcpServers\.missing\.command: command "no-such-mcp-server-anywhere" not found in /), remote: false },
      { name: 'typo', reason: '$.mcpServers.typo.timeoutMs: expected an integer between 1 and 2147483647, got "soon"', remote: false },
    ]);
  });

  it('refuses the whole file with --strict', () => {
    const err = configError(() => resolveConfig(mixed, { file: '<inline>', dir }, baseEnv, { strict: true }));
    expect(err.message).toContain('$.mcpServers.remote.url: expected an absolute http or https URL');
    expect(err.message).toContain('$.mcpServers.missing.command');
  });

  it('still refuses problems outside server entries, and a profile naming a skipped server is no typo', () => {
    const config = resolveConfig({ ...mixed, profiles: { p: { servers: { allow: ['remote'] } } } }, { file: '<inline>', dir }, baseEnv);
    expect(config.warnings).toEqual([]);
    expect(configError(() => resolveConfig({ ...mixed, listen: { port: 'x' } }, { file: '<inline>', dir }, baseEnv)).message).toContain('$.listen.port');
  });
});

describe('listen overrides', () => {
  it('SWITCHBOARD_HOST and SWITCHBOARD_PORT win over the file, and --host/--port over both', () => {
    const file = writeConfig({ listen: { host: '127.0.0.1', port: 8808 }, mcpServers: { a: { command: 'node' } } });
    expect(loadConfig(file, baseEnv).listen).toMatchObject({ host: '127.0.0.1', port: 8808 });
    const env = { ...baseEnv, SWITCHBOARD_HOST: '::1', SWITCHBOARD_PORT: '9100' };
    expect(loadConfig(file, env).listen).toMatchObject({ host: '::1', port: 9100 });
    expect(loadConfig(file, env, { listen: { host: 'localhost', port: 0 } }).listen).toMatchObject({ host: 'localhost', port: 0 });
    // A Claude Desktop file has no listen section at all.
    const bare = writeConfig({ mcpServers: { a: { command: 'node' } } });
    expect(loadConfig(bare, env).listen).toMatchObject({ host: '::1', port: 9100 });
  });

  it('checks an override like the file: a bad port names the variable, a public host still needs tokens', () => {
    const file = writeConfig({ mcpServers: { a: { command: 'node' } } });
    expect(configError(() => loadConfig(file, { ...baseEnv, SWITCHBOARD_PORT: '80a' })).message).toContain('SWITCHBOARD_PORT: expected a port number from 0 to 65535, got "80a"');
    expect(configError(() => loadConfig(file, { ...baseEnv, SWITCHBOARD_PORT: '70000' })).message).toContain('SWITCHBOARD_PORT');
    expect(configError(() => loadConfig(file, baseEnv, { listen: { host: '0.0.0.0' } })).message).toContain('0.0.0.0 is not loopback: configure auth.tokens');
  });
});

describe('instance', () => {
  it('takes a plain name, refuses another, and derives a stable one from host and port when absent', () => {
    expect(resolve({ instance: 'east-1', mcpServers: { a: { command: 'node' } } }).instance).toBe('east-1');
    expect(configError(() => resolve({ instance: 'East.1', mcpServers: { a: { command: 'node' } } })).message).toContain('$.instance: expected 1 to 32 characters of [a-z0-9-]');
    const derived = resolve({ mcpServers: { a: { command: 'node' } } }).instance;
    expect(derived).toMatch(/^[0-9a-f]{8}$/);
    expect(resolve({ mcpServers: { a: { command: 'node' } } }).instance).toBe(derived);
    expect(resolve({ listen: { port: 9911 }, mcpServers: { a: { command: 'node' } } }).instance).not.toBe(derived);
  });
});
