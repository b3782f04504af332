// Reads proxy.config.json (or a Claude Desktop config) into the frozen SwitchboardConfig.

import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError, Findings, describeValue, jsonPath, type ConfigProblem, type PathSegment } from './errors.js';
import { substitute } from './interpolate.js';
import { secretFilePath } from './secret-refs.js';
import { parseJson } from './json.js';
import { isLoopbackHost, resolveListen } from './listen.js';
import { checkProfileRef, resolveProfiles } from './profiles.js';
import { DEFAULTS, KNOWN_KEYS, topSchema, type RawTop } from './schema.js';
import { resolveServer, type ResolvedServer } from './servers.js';
import { checkNoLiteralTokens, resolveTokens } from './tokens.js';
import { resolveOAuth } from './oauth.js';
import { resolveTelemetry } from './telemetry.js';
import { stateDir } from './state-dir.js';
import type { SecretNeed } from './secret-sink.js';
import type { RedisLimitsConfig } from './rate-limits.js';
import { resolveState } from './state.js';
import type { CallLogConfig } from './call-log.js';

export { stateDir } from './state-dir.js';
import type { ListenConfig, OAuthConfig, SanitizeConfig, ServerConfig, SkippedServer, SwitchboardConfig } from './types.js';
import { isPlainObject, refuseUnknownKeys, reportIssues, warnUnknownKeys } from './validate.js';

export { ConfigError } from './errors.js';
export type { ConfigProblem } from './errors.js';

/** What the command line adds to the file: listen overrides and how strict to be with server entries. */
export interface LoadOptions {
  /** `--host`/`--port`: win over SWITCHBOARD_HOST/SWITCHBOARD_PORT, which win over `listen` in the file. */
  readonly listen?: { readonly host?: string | undefined; readonly port?: number | undefined };
  /** true (`--strict`): one unusable server entry refuses the whole file instead of skipping that server. */
  readonly strict?: boolean;
  /** Which secrets the command needs (secret-sink.ts); default `all`. The rest are read if they can be, else warned about. */
  readonly secrets?: SecretNeed;
}

export function loadConfig(file: string, env: NodeJS.ProcessEnv = process.env, options: LoadOptions = {}): SwitchboardConfig {
  const abs = path.resolve(file);
  let text: string;
  try {
    text = fs.readFileSync(abs, 'utf8');
  } catch (e) {
    throw new ConfigError(abs, [{ path: '', problem: `cannot read config file: ${readProblem(e)}` }]);
  }
  const parsed = parseJson(text);
  if (!parsed.ok) {
    const { line, column, problem } = parsed.error;
    throw new ConfigError(abs, [{ path: `line ${line}, column ${column}`, problem: `invalid JSON: ${problem}` }]);
  }
  return resolveConfig(parsed.value, { file: abs, dir: path.dirname(abs) }, env, options);
}

function readProblem(e: unknown): string {
  const code = typeof e === 'object' && e !== null && 'code' in e ? String(e.code) : '';
  switch (code) {
    case 'ENOENT':
      return 'no such file';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'is a directory, expected a JSON file';
    default:
      return code !== '' ? code : 'unreadable';
  }
}

export function resolveConfig(
  written: unknown,
  origin: { readonly file: string; readonly dir: string },
  env: NodeJS.ProcessEnv = process.env,
  options: LoadOptions = {},
): SwitchboardConfig {
  const findings = new Findings(origin.file);
  const dir = path.resolve(origin.dir);
  const needs = options.secrets ?? 'all';
  const daemonSecrets = needs === 'all';
  if (!isPlainObject(written)) {
    findings.error([], 'expected a JSON object with "mcpServers"');
    throw new ConfigError(origin.file, findings.problems);
  }
  const raw = withListenOverrides(written, env, options, findings);
  warnUnknownKeys(raw, KNOWN_KEYS.top, [], findings);
  for (const section of ['listen', 'namespace', 'limits', 'sanitize', 'state', 'telemetry'] as const) {
    const value = raw[section];
    if (isPlainObject(value)) warnUnknownKeys(value, KNOWN_KEYS[section], [section], findings);
  }
  if (isPlainObject(raw['auth'])) refuseUnknownKeys(raw['auth'], KNOWN_KEYS.auth, ['auth'], findings);
  const rawTelemetry = raw['telemetry'];
  if (isPlainObject(rawTelemetry) && isPlainObject(rawTelemetry['otlp'])) warnUnknownKeys(rawTelemetry['otlp'], KNOWN_KEYS.otlp, ['telemetry', 'otlp'], findings);
  const rawListen = raw['listen'];
  if (isPlainObject(rawListen) && isPlainObject(rawListen['tls'])) warnUnknownKeys(rawListen['tls'], KNOWN_KEYS.tls, ['listen', 'tls'], findings);
  const tokenCount = checkNoLiteralTokens(raw['auth'], findings);

  const parsed = topSchema.safeParse(raw);
  if (!parsed.success) reportIssues(parsed.error.issues, raw, [], findings);

  const resolved: ResolvedServer[] = [];
  const skipped: SkippedServer[] = [];
  const rawServers = raw['mcpServers'];
  if (isPlainObject(rawServers)) {
    // Iterate the input, not zod's copy: a record copy may lose keys like `__proto__`.
    const entries = Object.entries(rawServers);
    if (entries.length === 0) findings.error(['mcpServers'], 'no servers configured');
    const problems: ConfigProblem[] = [];
    for (const [name, value] of entries) {
      // Each entry's problems are its own: like Claude Desktop, one unusable server (a remote
      // `url`, a command that is not installed) is skipped with its reason and the rest start.
      const own = new Findings(origin.file);
      const server = resolveServer(name, value, { dir, env, findings: own, secretsNeeded: needs !== 'none' });
      findings.warnings.push(...own.warnings);
      if (own.count === 0 && server !== undefined) resolved.push(server);
      else {
        problems.push(...own.problems);
        skipped.push({ name, reason: describeProblem(own.problems[0]), remote: isPlainObject(value) && value['url'] !== undefined });
      }
    }
    // Strict, or nothing left to serve: a daemon without a single usable server is a mistake to report.
    if (options.strict === true || (resolved.length === 0 && skipped.length > 0)) {
      findings.problems.push(...problems);
      skipped.length = 0;
    }
    checkUniqueAliases(resolved, findings);
  }
  const separator = isPlainObject(raw['namespace']) && typeof raw['namespace']['separator'] === 'string' ? raw['namespace']['separator'] : DEFAULTS.separator;
  warnNestedAliases(resolved, separator, findings);
  if (!parsed.success) throw new ConfigError(origin.file, findings.problems);
  const top = parsed.data;
  const servers: ServerConfig[] = resolved.map((r) => r.config);

  const report = (p: readonly PathSegment[], problem: string): void => findings.error(p, problem);
  const listen = resolveListen(top.listen, { dir, env, findings, tokenCount, oauth: top.auth.oauth !== undefined, keyNeeded: daemonSecrets });
  const allowedOrigins = top.allowedOrigins.map((o, i) => substitute(o, ['allowedOrigins', i], env, report, dir).value);

  const serverNames = new Set([...servers.map((s) => s.name), ...skipped.map((s) => s.name)]);
  const profiles = resolveProfiles(raw['profiles'], top.profiles, { dir, env, findings, serverNames });
  const defaultProfile = top.defaultProfile;
  checkProfileRef(defaultProfile, profiles, ['defaultProfile'], findings);
  const tokens = resolveTokens(raw['auth'], top.auth.tokens, { dir, env, findings, profiles, defaultProfile, needed: daemonSecrets });
  const oauth = resolveOAuth(raw['auth'], top.auth.oauth, { dir, env, findings, profiles, secretNeeded: daemonSecrets });
  if (oauth !== undefined) checkOAuthReach(oauth, listen, defaultProfile, findings);
  // Judged on the tokens as written: one left unread (its secret is not needed here) still counts.
  const anyAdmin = top.auth.tokens.some((token) => token.admin || token.profile === null || (token.profile === undefined && defaultProfile === undefined));
  if (top.auth.tokens.length > 0 && !anyAdmin && (oauth === undefined || oauth.adminValues.length === 0)) {
    findings.warn(
      ['auth', 'tokens'],
      'no token can read /metrics, /status.json, the status page or /readyz detail (each is bound to a profile); give an operator\'s token "admin": true, or "profile": null to see everything',
    );
  }

  const stateFile = (key: 'log' | 'pins', fallback: string): string => {
    const written = top.sanitize[key];
    const report = (p: readonly PathSegment[], problem: string): void => findings.error(p, problem);
    return written === undefined ? fallback : path.resolve(dir, substitute(written, ['sanitize', key], env, report, dir).value);
  };
  const sanitize: SanitizeConfig = {
    log: stateFile('log', path.join(stateDir(env), 'sanitize.jsonl')),
    pins: stateFile('pins', path.join(stateDir(env), 'pins.json')),
    blocking: top.sanitize.blocking,
    learnedIntent: top.sanitize.learnedIntent,
    logMaxBytes: top.sanitize.logMaxBytes,
    logKeep: top.sanitize.logKeep,
  };
  const callLog: CallLogConfig | undefined =
    top.callLog === undefined
      ? undefined
      : {
          path: top.callLog.path === undefined ? path.join(stateDir(env), 'calls.jsonl') : path.resolve(dir, substitute(top.callLog.path, ['callLog', 'path'], env, (p, problem) => findings.error(p, problem)).value),
          maxBytes: top.callLog.maxBytes,
          keep: top.callLog.keep,
          payloads: top.callLog.payloads,
        };

  const limits = { ...top.limits, ...redisLimits(top.limits.redis, env, findings) };
  const state = resolveState(top.state, limits.redis, env, findings);
  const secretFiles = secretFilesOf(raw, dir, env);
  warnReadableSecrets(secretFiles, findings);
  const telemetry = resolveTelemetry(top.telemetry, env, report);

  findings.throwIfAny();
  return deepFreeze({
    file: origin.file,
    dir,
    listen,
    servers,
    skipped,
    namespace: { separator: top.namespace.separator, maxLength: top.namespace.maxLength },
    limits,
    allowedOrigins,
    profiles,
    defaultProfile,
    auth: { tokens, oauth },
    sanitize,
    state,
    callLog,
    logLevel: top.logLevel,
    telemetry,
    instance: top.instance ?? derivedInstance(listen.port),
    warnings: findings.warnings,
    secretFiles,
  });
}

/** The files named by `${file:PATH}` anywhere in the config, resolved as substitution resolves them. */
function secretFilesOf(raw: unknown, dir: string, env: NodeJS.ProcessEnv): string[] {
  const files = new Set<string>();
  const walk = (value: unknown): void => {
    if (typeof value === 'string') {
      for (const match of value.matchAll(/\$\$\{|\$\{file:([^}]*)\}/g)) if (match[1] !== undefined && match[1].trim() !== '') files.add(secretFilePath(match[1], dir, env));
    } else if (Array.isArray(value)) value.forEach(walk);
    else if (isPlainObject(value)) Object.values(value).forEach(walk);
  };
  walk(raw);
  return [...files];
}

/** As for token files: a secret others on the machine can read is not kept secret. */
function warnReadableSecrets(files: readonly string[], findings: Findings): void {
  for (const file of files) {
    let mode: number;
    try {
      mode = fs.statSync(file).mode;
    } catch {
      continue; // Missing: reported where it is read.
    }
    if ((mode & 0o077) !== 0 && process.platform !== 'win32') findings.warn([], `secret file ${file} is readable by other users (mode ${(mode & 0o777).toString(8)}); chmod 600 it`);
  }
}

function describeProblem(problem: ConfigProblem | undefined): string {
  if (problem === undefined) return 'unusable entry';
  return problem.path === '' ? problem.problem : `${problem.path}: ${problem.problem}`;
}

const PORT_TEXT = /^\d{1,5}$/;

/**
 * The file's `listen` with SWITCHBOARD_HOST/SWITCHBOARD_PORT and then the flags on top, so a
 * Claude Desktop file is served unchanged on another port; the result is validated like the file.
 */
function withListenOverrides(raw: Record<string, unknown>, env: NodeJS.ProcessEnv, options: LoadOptions, findings: Findings): Record<string, unknown> {
  const overrides: Record<string, unknown> = {};
  const envHost = env['SWITCHBOARD_HOST'];
  if (envHost !== undefined && envHost !== '') overrides['host'] = envHost;
  const envPort = env['SWITCHBOARD_PORT'];
  if (envPort !== undefined && envPort !== '') {
    const port = parsePort(envPort);
    if (port === undefined) findings.error([], `SWITCHBOARD_PORT: expected a port number from 0 to 65535, got ${describeValue(envPort)}`);
    else overrides['port'] = port;
  }
  if (options.listen?.host !== undefined) overrides['host'] = options.listen.host;
  if (options.listen?.port !== undefined) overrides['port'] = options.listen.port;
  if (Object.keys(overrides).length === 0) return raw;
  const listen = raw['listen'];
  // A broken `listen` stays broken, to be reported as the file has it.
  if (listen !== undefined && !isPlainObject(listen)) return raw;
  return { ...raw, listen: { ...(listen ?? {}), ...overrides } };
}

/** A decimal TCP port (0: any free port), or undefined. */
export function parsePort(text: string): number | undefined {
  if (!PORT_TEXT.test(text.trim())) return undefined;
  const port = Number(text.trim());
  return port <= 65535 ? port : undefined;
}

// Disabled servers take part too: enabling one later must not be what breaks the config.
function checkUniqueAliases(servers: readonly ResolvedServer[], findings: Findings): void {
  const owner = new Map<string, string>();
  for (const { config, aliasShown } of servers) {
    const first = owner.get(config.alias);
    if (first === undefined) {
      owner.set(config.alias, config.name);
      continue;
    }
    findings.error(
      ['mcpServers', config.name],
      `alias ${JSON.stringify(aliasShown)} is already used by ${jsonPath(['mcpServers', first])}; set a distinct "alias" on one of them`,
    );
  }
}

/**
 * Alias `a__b` beside alias `a`: `a`'s tool `b__echo` would read as `a__b`'s `echo`. The catalog
 * never lets it (such names are flattened to `a__b_echo`), but the overlap is a trap worth naming.
 */
function warnNestedAliases(servers: readonly ResolvedServer[], separator: string, findings: Findings): void {
  for (const outer of servers) {
    for (const inner of servers) {
      if (inner === outer || !inner.config.alias.startsWith(outer.config.alias + separator)) continue;
      findings.warn(
        ['mcpServers', inner.config.name],
        `alias ${JSON.stringify(inner.aliasShown)} begins with alias ${JSON.stringify(outer.aliasShown)} of ${jsonPath(['mcpServers', outer.config.name])} and the separator ${JSON.stringify(separator)}: names of ${outer.config.name} that would fall in its namespace are served with their separators flattened; set a distinct "alias"`,
      );
    }
  }
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/**
 * Tokens are checked to be meant for this proxy's URL, and clients are told that URL: off loopback
 * only `listen.publicUrl` can say it (a Host header is the client's to choose, and a TLS-terminating
 * proxy in front changes the scheme). And an issuer's whole population signs in: say so when
 * nothing narrows what its accounts see.
 */
function checkOAuthReach(oauth: OAuthConfig, listen: ListenConfig, defaultProfile: string | undefined, findings: Findings): void {
  if (listen.publicUrl === undefined && !isLoopbackHost(listen.host)) {
    findings.error(['listen', 'publicUrl'], 'is required with auth.oauth when listening beyond loopback: the URL clients reach the proxy at, which tokens must be meant for');
  } else if (listen.publicUrl === undefined && listen.allowedHosts.length > 0) {
    findings.warn(['listen', 'publicUrl'], 'is not set while listen.allowedHosts names other hosts: clients reaching the proxy by those names (through a reverse proxy) need it for OAuth');
  }
  if (oauth.requiredScopes.length === 0 && oauth.profiles.length === 0 && defaultProfile === undefined) {
    findings.warn(['auth', 'oauth'], 'every account of the issuer that gets a token for this proxy sees every tool: set requiredScopes, profiles or defaultProfile to narrow it');
  }
}

/**
 * An instance name when none is configured: stable for this host and port (a restarted daemon
 * keeps it), different for two daemons on one host, and plain enough for an id.
 */
function derivedInstance(port: number): string {
  return createHash('sha256').update(`${os.hostname()}:${port}`).digest('hex').slice(0, 8);
}

/** `limits.redis` with `${VAR}` substituted in its URL (a password is often one); errors never echo the value. */
function redisLimits(redis: RawTop['limits']['redis'], env: NodeJS.ProcessEnv, findings: Findings): { redis?: RedisLimitsConfig } {
  if (redis === undefined) return {};
  const url = substitute(redis.url, ['limits', 'redis', 'url'], env, (p, problem) => findings.error(p, problem)).value;
  if (!/^rediss?:\/\/[^/]/.test(url)) findings.error(['limits', 'redis', 'url'], 'expected a redis:// or rediss:// URL');
  return { redis: { ...redis, url } };
}
