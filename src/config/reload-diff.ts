// What a config reload changes: servers to start, stop and restart, and the settings that take
// effect live or only after a restart of the daemon.
import { isDeepStrictEqual } from 'node:util';
import type { ServerConfig, SwitchboardConfig } from './types.js';
import { Secret } from './secret.js';
import { RATE_LIMIT_KEYS } from './rate-limits.js';

export interface ConfigDiff {
  /** Enabled in the new config and not (enabled) in the old one. */
  readonly added: readonly ServerConfig[];
  /** Enabled in the old config and gone or disabled in the new one. */
  readonly removed: readonly ServerConfig[];
  /** Enabled in both with any field different: restarted with the new definition. */
  readonly changed: readonly ServerConfig[];
  /** Enabled in both, identical: left running. */
  readonly unchanged: readonly string[];
  /** Profiles, default profile or tokens differ: sessions' views are re-resolved. */
  readonly accessChanged: boolean;
  /** Namespace rules differ: every name may change, so every view is rebuilt. */
  readonly namespaceChanged: boolean;
  /**
   * Settings a running daemon cannot change (the listening socket, TLS files, limits baked into
   * open connections): named so the reload can say that they need a restart.
   */
  readonly needsRestart: readonly string[];
}

const enabled = (config: SwitchboardConfig): Map<string, ServerConfig> =>
  new Map(config.servers.filter((s) => !s.disabled).map((s) => [s.name, s]));

/** Token identity without revealing or comparing the secrets in a way that could leak them. */
function sameTokens(a: SwitchboardConfig, b: SwitchboardConfig): boolean {
  if (a.auth.tokens.length !== b.auth.tokens.length) return false;
  return a.auth.tokens.every((t, i) => {
    const u = b.auth.tokens[i];
    return u !== undefined && t.name === u.name && t.profile === u.profile && t.source === u.source && t.secret.equals(u.secret);
  });
}

/**
 * A remote server's headers and OAuth client secret are secrets, which deep equality cannot see
 * into: a changed one restarts it.
 */
function sameRemoteSecrets(a: ServerConfig, b: ServerConfig): boolean {
  if (!Secret.same(a.remote?.oauth?.clientSecret, b.remote?.oauth?.clientSecret)) return false;
  const before = a.remote?.headers ?? {};
  const after = b.remote?.headers ?? {};
  const names = Object.keys(before);
  return names.length === Object.keys(after).length && names.every((name) => after[name] !== undefined && Secret.same(before[name], after[name]));
}

export function diffConfigs(before: SwitchboardConfig, after: SwitchboardConfig): ConfigDiff {
  const old = enabled(before);
  const next = enabled(after);
  const added: ServerConfig[] = [];
  const changed: ServerConfig[] = [];
  const unchanged: string[] = [];
  for (const [name, server] of next) {
    const previous = old.get(name);
    if (previous === undefined) added.push(server);
    else if (isDeepStrictEqual(previous, server) && sameRemoteSecrets(previous, server)) unchanged.push(name);
    else changed.push(server);
  }
  const removed = [...old.values()].filter((server) => !next.has(server.name));
  const needsRestart: string[] = [];
  if (before.listen.host !== after.listen.host || before.listen.port !== after.listen.port) needsRestart.push('listen.host/port');
  if (!isDeepStrictEqual(before.listen.tls, after.listen.tls)) needsRestart.push('listen.tls');
  if (!isDeepStrictEqual(before.listen.allowedHosts, after.listen.allowedHosts)) needsRestart.push('listen.allowedHosts');
  if (!isDeepStrictEqual(before.allowedOrigins, after.allowedOrigins)) needsRestart.push('allowedOrigins');
  // Rate limits apply live (the router reads them per request); the rest of `limits` is read at start.
  if (!isDeepStrictEqual(withoutRateLimits(before.limits), withoutRateLimits(after.limits))) needsRestart.push('limits');
  // The sanitizer (its log, pin file and blocking mode) and the daemon's logger are built once at start.
  if (!isDeepStrictEqual(before.sanitize, after.sanitize)) needsRestart.push('sanitize');
  // The pins' Redis (state.redis, or limits.redis standing in for it) is opened once at start too.
  if (!isDeepStrictEqual(before.state, after.state)) needsRestart.push('state.redis');
  if (before.logLevel !== after.logLevel) needsRestart.push('logLevel');
  // Session ids carry it: the sessions open now keep the name they were given. (A derived name
  // follows the port, whose change is named already.)
  if (before.instance !== after.instance && before.listen.port === after.listen.port) needsRestart.push('instance');
  return {
    added,
    removed,
    changed,
    unchanged,
    accessChanged:
      !isDeepStrictEqual(before.profiles, after.profiles) || before.defaultProfile !== after.defaultProfile || !sameTokens(before, after),
    namespaceChanged: !isDeepStrictEqual(before.namespace, after.namespace),
    needsRestart,
  };
}

function withoutRateLimits(limits: SwitchboardConfig['limits']): Record<string, unknown> {
  const rest: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(limits)) if (!RATE_LIMIT_KEYS.has(key)) rest[key] = value;
  return rest;
}
