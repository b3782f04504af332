// Reads proxy.config.json (or a Claude Desktop config) into the frozen SwitchboardConfig.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError, Findings, jsonPath, type PathSegment } from './errors.js';
import { substitute } from './interpolate.js';
import { parseJson } from './json.js';
import { resolveListen } from './listen.js';
import { checkProfileRef, resolveProfiles } from './profiles.js';
import { KNOWN_KEYS, topSchema } from './schema.js';
import { resolveServer, type ResolvedServer } from './servers.js';
import { checkNoLiteralTokens, resolveTokens } from './tokens.js';
import type { SanitizeConfig, ServerConfig, SwitchboardConfig } from './types.js';
import { isPlainObject, refuseUnknownKeys, reportIssues, warnUnknownKeys } from './validate.js';

export { ConfigError } from './errors.js';
export type { ConfigProblem } from './errors.js';

export function loadConfig(file: string, env: NodeJS.ProcessEnv = process.env): SwitchboardConfig {
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
  return resolveConfig(parsed.value, { file: abs, dir: path.dirname(abs) }, env);
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
  raw: unknown,
  origin: { readonly file: string; readonly dir: string },
  env: NodeJS.ProcessEnv = process.env,
): SwitchboardConfig {
  const findings = new Findings(origin.file);
  const dir = path.resolve(origin.dir);
  if (!isPlainObject(raw)) {
    findings.error([], 'expected a JSON object with "mcpServers"');
    throw new ConfigError(origin.file, findings.problems);
  }
  warnUnknownKeys(raw, KNOWN_KEYS.top, [], findings);
  for (const section of ['listen', 'namespace', 'limits', 'sanitize'] as const) {
    const value = raw[section];
    if (isPlainObject(value)) warnUnknownKeys(value, KNOWN_KEYS[section], [section], findings);
  }
  if (isPlainObject(raw['auth'])) refuseUnknownKeys(raw['auth'], KNOWN_KEYS.auth, ['auth'], findings);
  const rawListen = raw['listen'];
  if (isPlainObject(rawListen) && isPlainObject(rawListen['tls'])) warnUnknownKeys(rawListen['tls'], KNOWN_KEYS.tls, ['listen', 'tls'], findings);
  const tokenCount = checkNoLiteralTokens(raw['auth'], findings);

  const parsed = topSchema.safeParse(raw);
  if (!parsed.success) reportIssues(parsed.error.issues, raw, [], findings);

  const resolved: ResolvedServer[] = [];
  const rawServers = raw['mcpServers'];
  if (isPlainObject(rawServers)) {
    // Iterate the input, not zod's copy: a record copy may lose keys like `__proto__`.
    const entries = Object.entries(rawServers);
    if (entries.length === 0) findings.error(['mcpServers'], 'no servers configured');
    for (const [name, value] of entries) {
      const server = resolveServer(name, value, { dir, env, findings });
      if (server !== undefined) resolved.push(server);
    }
    checkUniqueAliases(resolved, findings);
  }
  if (!parsed.success) throw new ConfigError(origin.file, findings.problems);
  const top = parsed.data;
  const servers: ServerConfig[] = resolved.map((r) => r.config);

  const report = (p: readonly PathSegment[], problem: string): void => findings.error(p, problem);
  const listen = resolveListen(top.listen, { dir, env, findings, tokenCount });
  const allowedOrigins = top.allowedOrigins.map((o, i) => substitute(o, ['allowedOrigins', i], env, report).value);

  const serverNames = new Set(servers.map((s) => s.name));
  const profiles = resolveProfiles(raw['profiles'], top.profiles, { env, findings, serverNames });
  const defaultProfile = top.defaultProfile;
  checkProfileRef(defaultProfile, profiles, ['defaultProfile'], findings);
  const tokens = resolveTokens(raw['auth'], top.auth.tokens, { dir, env, findings, profiles, defaultProfile });

  const stateFile = (key: 'log' | 'pins', fallback: string): string => {
    const written = top.sanitize[key];
    const report = (p: readonly PathSegment[], problem: string): void => findings.error(p, problem);
    return written === undefined ? fallback : path.resolve(dir, substitute(written, ['sanitize', key], env, report).value);
  };
  const sanitize: SanitizeConfig = {
    log: stateFile('log', path.join(stateDir(env), 'sanitize.jsonl')),
    pins: stateFile('pins', path.join(stateDir(env), 'pins.json')),
    blocking: top.sanitize.blocking,
    logMaxBytes: top.sanitize.logMaxBytes,
    logKeep: top.sanitize.logKeep,
  };

  findings.throwIfAny();
  return deepFreeze({
    file: origin.file,
    dir,
    listen,
    servers,
    namespace: { separator: top.namespace.separator, maxLength: top.namespace.maxLength },
    limits: { ...top.limits },
    allowedOrigins,
    profiles,
    defaultProfile,
    auth: { tokens },
    sanitize,
    logLevel: top.logLevel,
    warnings: findings.warnings,
  });
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

/** $XDG_STATE_HOME/mcp-switchboard, else ~/.local/state/mcp-switchboard (XDG Base Directory spec). */
export function stateDir(env: NodeJS.ProcessEnv): string {
  const base = env['XDG_STATE_HOME'] || path.join(env['HOME'] || os.homedir(), '.local', 'state');
  return path.join(base, 'mcp-switchboard');
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
