// How one entity's verdict meets its pin and the operator's decisions: pin identities and keys,
// the rules that withhold an entity, updates accepted by `acceptUpdates`.
import type { ServerConfig } from '../config/types.js';
import type { JsonObject } from '../jsonrpc/messages.js';
import { rugPullFinding, serverId, sha256, type EntityKind, type Finding, type PinCheck, type SanitizeResult } from '../sanitize/index.js';

/** An accepted update (acceptUpdates) as a finding: the rug-pull finding, flagged, the tool forwarded. */
export function withAcceptedUpdate<T>(result: SanitizeResult<T>, check: PinCheck, entity: unknown): SanitizeResult<T> {
  const drift = rugPullFinding(check, entity);
  if (drift === undefined) return result;
  const accepted: Finding = {
    ...drift,
    action: 'flag',
    severity: 'low',
    afterSha256: drift.beforeSha256,
    after: drift.before,
    reason: `${drift.reason}; accepted (acceptUpdates)`,
  };
  return { ...result, findings: [...result.findings, accepted], outcome: result.outcome === 'none' ? 'flag' : result.outcome };
}

/**
 * The identity a server's tools are pinned under: its command line (SANITIZE.md: a renamed server
 * keeps its pins, a changed command does not). Two configured servers with the same command line
 * (the same package with different env, say) are told apart by name, or each would pin the
 * other's tools and both would read as rug pulls.
 */
export function pinIdentity(server: ServerConfig, configured: readonly ServerConfig[]): string {
  const id = commandId(server);
  const twin = configured.some((other) => other.name !== server.name && !other.disabled && commandId(other) === id);
  return twin ? sha256(`${id}\u0000${server.name}`) : id;
}

/** A child's command line, or a remote server's URL (its headers are credentials, not identity). */
function commandId(server: ServerConfig): string {
  return server.remote === undefined ? serverId(server.command, server.args, server.cwd) : serverId(server.remote.url);
}

/** The rules that withhold an entity whatever its pin says (none when it is served). */
export function blockingRules(result: SanitizeResult<unknown>): string[] {
  return result.blocked ? [...new Set(result.findings.filter((f) => f.action === 'block').map((f) => f.rule))] : [];
}

export function sameBlockingRules(a: SanitizeResult<unknown>, b: SanitizeResult<unknown>): boolean {
  const before = blockingRules(a);
  const after = blockingRules(b);
  return before.length === after.length && before.every((rule, i) => rule === after[i]);
}

/**
 * The key an entity is pinned under within its server: a tool's name as before (pin files written
 * by earlier versions stay valid), other kinds prefixed so a prompt and a tool may share a name.
 */
export function pinKey(kind: EntityKind, name: string): string {
  return kind === 'tool' ? name : `${kind}:${name}`;
}

/** What identifies an entity within its server: a resource's URI and a template's URI template, else its name. */
export function entityName(kind: EntityKind, item: JsonObject): string {
  const id = kind === 'resource' ? item.uri : kind === 'resourceTemplate' ? item.uriTemplate : item.name;
  return typeof id === 'string' ? id : typeof item.name === 'string' ? item.name : '';
}
