// One `mcpServers` entry → ServerConfig: substitution, command lookup, child environment, paths.

import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describeValue, type Findings, type PathSegment } from './errors.js';
import { substitute, type ProblemSink, type Substituted } from './interpolate.js';
import { ALIAS_PATTERN, KNOWN_KEYS, RESERVED_ALIAS, serverSchema } from './schema.js';
import { reportIssues, warnUnknownKeys, isPlainObject } from './validate.js';
import type { RemoteConfig, RemoteOAuthConfig, ServerConfig } from './types.js';
import { stateDir } from './state-dir.js';
import { isLoopbackHost } from './listen.js';
import { Secret } from './secret.js';
import { secretSink, substitutionSink } from './secret-sink.js';

/**
 * What a child inherits from the daemon: enough to run a shell tool and find user files, nothing
 * that is commonly a credential. Everything else must be listed in the server's `env`.
 */
export const SAFE_ENV_KEYS = [
  'HOME',
  'LOGNAME',
  'PATH',
  'SHELL',
  'TERM',
  'USER',
  'LANG',
  'LC_ALL',
  'LC_CTYPE',
  'TZ',
  'TMPDIR',
  'NODE_EXTRA_CA_CERTS',
  'SYSTEMROOT',
  'XDG_RUNTIME_DIR',
] as const;

export interface ServerContext {
  readonly dir: string;
  readonly env: NodeJS.ProcessEnv;
  readonly findings: Findings;
  /** false: env values, headers and OAuth client secrets that cannot be read are warnings (nothing is started). */
  readonly secretsNeeded?: boolean;
}


export interface ResolvedServer {
  readonly config: ServerConfig;
  /** The alias as it may appear in messages: as written when it came from a variable. */
  readonly aliasShown: string;
}

export function resolveServer(name: string, raw: unknown, ctx: ServerContext): ResolvedServer | undefined {
  const { findings } = ctx;
  const at: PathSegment[] = ['mcpServers', name];
  if (name === '') {
    findings.error(at, 'server name must not be empty');
    return undefined;
  }
  if (!isPlainObject(raw)) {
    findings.error(at, `expected an object with a "command" or a "url", got ${describeValue(raw)}`);
    return undefined;
  }
  warnUnknownKeys(raw, KNOWN_KEYS.server, at, findings);
  if (isPlainObject(raw['restart'])) warnUnknownKeys(raw['restart'], KNOWN_KEYS.restart, [...at, 'restart'], findings);

  const parsed = serverSchema.safeParse(raw);
  if (!parsed.success) {
    reportIssues(parsed.error.issues, raw, at, findings);
    return undefined;
  }
  const server = parsed.data;
  if ((server.command === undefined) === (server.url === undefined)) {
    findings.error(at, server.command === undefined ? 'needs a "command" (a stdio server) or a "url" (a remote server)' : 'set either "command" or "url", not both');
    return undefined;
  }
  if (server.restart.maxDelayMs < server.restart.initialDelayMs) {
    findings.error([...at, 'restart', 'maxDelayMs'], 'must not be less than restart.initialDelayMs');
  }

  const disabled = server.disabled;
  // A disabled server is often disabled because its token is not available on this machine.
  const sink: ProblemSink = disabled
    ? (p, problem) => findings.warn(p, `${problem} (server is disabled, ignored)`)
    : (p, problem) => findings.error(p, problem);
  // `clean` lets later checks skip a value whose substitution already produced an error.
  const sub = (text: string, ...rest: PathSegment[]): Substituted & { clean: boolean } => {
    const before = findings.count;
    const result = substitute(text, [...at, ...rest], ctx.env, sink, ctx.dir);
    return { ...result, clean: findings.count === before };
  };

  // Values that are commonly credentials: a command that starts nothing does not need them.
  const secretProblems = ctx.secretsNeeded === false && !disabled ? substitutionSink(findings, secretSink(findings, false)) : sink;
  const subSecret = (text: string, ...rest: PathSegment[]): Substituted => substitute(text, [...at, ...rest], ctx.env, secretProblems, ctx.dir);
  const remote = server.url === undefined ? undefined : resolveRemote(server as typeof server & { url: string }, name, at, ctx, sub, subSecret, disabled);
  if (server.url !== undefined && remote === undefined) return undefined;
  const command = sub(server.command ?? '', 'command');
  const args = server.args.map((a, i) => sub(a, 'args', i).value);
  const configuredEnv = Object.entries(server.env).map(([k, v]) => [k, subSecret(v, 'env', k).value] as const);
  const roots = server.roots.map((r, i) => pathToFileURL(path.resolve(ctx.dir, sub(r, 'roots', i).value)).href);

  let alias = defaultAlias(name);
  let aliasShown = alias;
  if (server.alias !== undefined) {
    const written = sub(server.alias, 'alias');
    alias = written.value;
    aliasShown = written.fromEnv ? server.alias : alias;
    if (written.clean && !ALIAS_PATTERN.test(alias)) {
      findings.error([...at, 'alias'], `expected 1 to 24 characters of [A-Za-z0-9_-], got ${describeValue(server.alias)}`);
    }
  }

  if (alias.toLowerCase() === RESERVED_ALIAS) {
    findings.error([...at, 'alias'], `the alias "${RESERVED_ALIAS}" is reserved for the proxy's own tools; set another "alias" for this server`);
  }

  let cwd = ctx.dir;
  if (server.cwd !== undefined) {
    const written = sub(server.cwd, 'cwd');
    cwd = path.resolve(ctx.dir, written.value);
    if (!disabled && written.clean && !isDirectory(cwd)) {
      const shown = written.fromEnv ? describeValue(server.cwd) : JSON.stringify(cwd);
      findings.error([...at, 'cwd'], `no such directory: ${shown}`);
    }
  }

  let executable = command.value;
  if (remote !== undefined) {
    // Nothing to spawn.
  } else if (!command.clean) {
    // Already reported; looking up a half-substituted name would only add a misleading error.
  } else if (command.value === '') {
    if (!disabled) findings.error([...at, 'command'], 'is empty after substituting variables');
  } else {
    const found = findCommand(command.value, ctx.dir, ctx.env['PATH']);
    if (found.ok) executable = found.path;
    else if (!disabled) {
      // The resolved location would reveal a variable's value; the written form never does.
      const where = found.looked !== undefined && !command.fromEnv ? ` (looked at ${found.looked})` : '';
      findings.error([...at, 'command'], `command ${describeValue(server.command)} ${found.problem}${where}`);
    }
  }

  const env = childEnv(ctx.env, configuredEnv);
  const config: ServerConfig = {
    name,
    alias,
    command: executable,
    commandAsWritten: server.command ?? server.url ?? '',
    args,
    env,
    cwd,
    isolation: server.isolation,
    // A remote server is spoken to in the session era: no server/discover probe over HTTP.
    protocol: remote === undefined ? server.protocol : 'session',
    timeoutMs: server.timeoutMs,
    maxConcurrent: server.maxConcurrent,
    maxQueued: server.maxQueued,
    disabled,
    restart: { initialDelayMs: server.restart.initialDelayMs, maxDelayMs: server.restart.maxDelayMs },
    roots,
    acceptUpdates: server.acceptUpdates,
    remote,
  };
  return { config, aliasShown };
}

type Substitute = (text: string, ...rest: PathSegment[]) => Substituted & { clean: boolean };

/** `url`, `headers`, `transport` (or VS Code's `type`) and `ca` of a remote server. */
function resolveRemote(
  server: {
    url: string;
    headers: Record<string, string>;
    transport?: 'auto' | 'http' | 'sse' | undefined;
    type?: string | undefined;
    ca?: string | undefined;
    protocol: string;
    args: string[];
    env: Record<string, string>;
    cwd?: string | undefined;
    oauth?: { scope?: string | undefined; clientId?: string | undefined; clientSecretEnv?: string | undefined } | undefined;
  },
  name: string,
  at: readonly PathSegment[],
  ctx: ServerContext,
  sub: Substitute,
  subSecret: (text: string, ...rest: PathSegment[]) => Substituted,
  disabled: boolean,
): RemoteConfig | undefined {
  const { findings } = ctx;
  const url = sub(server.url, 'url');
  let parsed: URL | undefined;
  if (url.clean) {
    try {
      parsed = new URL(url.value);
    } catch {
      findings.error([...at, 'url'], `expected an absolute http or https URL, got ${describeValue(server.url)}`);
    }
  }
  if (parsed !== undefined && parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    findings.error([...at, 'url'], `expected an http or https URL, got ${describeValue(server.url)}`);
    parsed = undefined;
  }
  if (parsed !== undefined && parsed.protocol === 'http:' && !isLoopbackHost(parsed.hostname) && Object.keys(server.headers).length > 0) {
    findings.warn([...at, 'url'], 'is plain http to another machine: its headers (credentials) cross the network in clear text');
  }
  if (server.protocol === 'stateless') findings.error([...at, 'protocol'], 'a remote server is spoken to in the session era ("auto" or "session")');
  for (const key of ['args', 'env', 'cwd'] as const) {
    const value = server[key];
    if (value !== undefined && (typeof value === 'string' || (Array.isArray(value) ? value.length > 0 : Object.keys(value).length > 0))) {
      findings.warn([...at, key], 'is ignored for a remote server (url)');
    }
  }
  const headers: Record<string, Secret> = Object.create(null) as Record<string, Secret>;
  for (const [name, value] of Object.entries(server.headers)) {
    if (!HEADER_NAME.test(name)) {
      findings.error([...at, 'headers', name], 'is not a valid HTTP header name');
      continue;
    }
    const expanded = subSecret(value, 'headers', name).value;
    // A header value is visible Latin-1 and tabs: a line break would start another header.
    if (/[^\t\x20-\x7e\x80-\xff]/.test(expanded)) findings.error([...at, 'headers', name], 'holds a control character or a character outside Latin-1 after substituting variables');
    headers[name.toLowerCase()] = new Secret(expanded);
  }
  const transport = server.transport ?? (server.type === 'sse' ? 'sse' : server.type === undefined || server.type === 'stdio' ? 'auto' : 'http');
  if (server.type === 'stdio') findings.error([...at, 'type'], '"stdio" needs a "command", not a "url"');
  let ca: string | undefined;
  if (server.ca !== undefined) {
    const file = path.resolve(ctx.dir, sub(server.ca, 'ca').value);
    try {
      ca = fs.readFileSync(file, 'utf8');
      if (!ca.includes('-----BEGIN CERTIFICATE-----')) findings.error([...at, 'ca'], `${file} holds no PEM certificate`);
    } catch {
      if (!disabled) findings.error([...at, 'ca'], `cannot read ${file}`);
    }
  }
  let oauth: RemoteOAuthConfig | undefined;
  if (server.oauth !== undefined) {
    const secretName = server.oauth.clientSecretEnv;
    const secret = secretName === undefined ? undefined : ctx.env[secretName];
    if (secretName !== undefined && secret === undefined && !disabled) secretSink(findings, ctx.secretsNeeded !== false)([...at, 'oauth', 'clientSecretEnv'], `environment variable ${secretName} is not set`);
    if (headers['authorization'] !== undefined) findings.error([...at, 'oauth'], 'and an Authorization header both set the credentials: keep one');
    oauth = {
      scope: server.oauth.scope,
      clientId: server.oauth.clientId,
      clientSecret: secret === undefined ? undefined : new Secret(secret),
      store: path.join(stateDir(ctx.env), 'remote-oauth', `${encodeURIComponent(name)}.json`),
    };
  }
  if (parsed === undefined) return undefined;
  return { url: parsed.href, headers: Object.freeze(headers), transport, ca, oauth };
}

/** RFC 9110 field-name: a token. */
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** The key made name-safe: tool names may only use [A-Za-z0-9_-] and must stay short. */
export function defaultAlias(name: string): string {
  return name.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 24);
}

export function childEnv(
  daemonEnv: NodeJS.ProcessEnv,
  configured: readonly (readonly [string, string])[],
): Record<string, string> {
  const entries = new Map<string, string>();
  for (const key of SAFE_ENV_KEYS) {
    const value = daemonEnv[key];
    if (value !== undefined) entries.set(key, value);
  }
  for (const [key, value] of configured) entries.set(key, value);
  // fromEntries defines own properties, so a key like `__proto__` cannot reach the prototype.
  return Object.fromEntries(entries);
}

type Found =
  | { readonly ok: true; readonly path: string }
  | { readonly ok: false; readonly problem: string; readonly looked?: string };

export function findCommand(command: string, dir: string, pathVar: string | undefined): Found {
  const hasSeparator = command.includes('/') || (process.platform === 'win32' && command.includes('\\'));
  if (hasSeparator) {
    const candidate = path.resolve(dir, command);
    if (isExecutableFile(candidate)) return { ok: true, path: candidate };
    if (isDirectory(candidate)) return { ok: false, problem: 'is a directory', looked: candidate };
    const problem = fs.existsSync(candidate) ? 'is not executable' : 'not found';
    return { ok: false, problem, looked: candidate };
  }
  const bin = path.join(dir, 'node_modules', '.bin');
  // Relative PATH entries would make the result depend on the daemon's cwd; they are skipped.
  const dirs = [bin, ...(pathVar ?? '').split(path.delimiter).filter((d) => d !== '' && path.isAbsolute(d))];
  for (const d of dirs) {
    for (const name of executableNames(command)) {
      const candidate = path.join(d, name);
      if (isExecutableFile(candidate)) return { ok: true, path: candidate };
    }
  }
  return { ok: false, problem: `not found in ${bin} or PATH` };
}

function executableNames(command: string): string[] {
  if (process.platform !== 'win32') return [command];
  const exts = (process.env['PATHEXT'] ?? '.COM;.EXE;.BAT;.CMD').split(';').filter((e) => e !== '');
  return [command, ...exts.map((e) => command + e)];
}

function isExecutableFile(file: string): boolean {
  try {
    if (!fs.statSync(file).isFile()) return false;
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function isDirectory(dir: string): boolean {
  try {
    return fs.statSync(dir).isDirectory();
  } catch {
    return false;
  }
}
