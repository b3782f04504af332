// Identities that must not drift: canonical JSON hashes of entities and fields, server ids, log dedupe keys.
import { createHash } from 'node:crypto';

export function sha256(text: string): string {
  return `sha256:${createHash('sha256').update(text, 'utf8').digest('hex')}`;
}

/**
 * JSON with object keys sorted (by UTF-16 code units, recursively) and no whitespace, so two
 * equal entities hash equally whatever order a server serialized them in. `undefined` members are
 * dropped as JSON.stringify drops them; arrays keep their order (it is meaningful).
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    const s = JSON.stringify(value);
    return s === undefined ? 'null' : s;
  }
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : canonicalJson(v))).join(',')}]`;
  const obj = value as Record<string, unknown>;
  const parts: string[] = [];
  for (const key of Object.keys(obj).sort()) {
    const v = obj[key];
    if (v === undefined) continue;
    parts.push(`${JSON.stringify(key)}:${canonicalJson(v)}`);
  }
  return `{${parts.join(',')}}`;
}

/** "sha256:<hex>" of the canonical JSON: the pin of a tool as received. */
export function canonicalHash(entity: unknown): string {
  return sha256(canonicalJson(entity));
}

/**
 * A server's identity for pins and the log: its command line and working directory, not its config
 * name (a renamed server is the same identity, a changed command is not).
 */
export function serverId(command: string, args: readonly string[] = [], cwd: string | null = null): string {
  return sha256(canonicalJson({ command, args: [...args], cwd }));
}

/** The log's dedupe key: one record per (server, entity, tool, field, rule, original value). */
export function findingKey(
  serverIdentity: string,
  entity: string,
  tool: string,
  field: string,
  rule: string,
  beforeSha256: string,
): string {
  return sha256(JSON.stringify([serverIdentity, entity, tool, field, rule, beforeSha256]));
}

/** RFC 6901: `~` as `~0`, `/` as `~1`. */
export function pointerSegment(key: string | number): string {
  if (typeof key === 'number') return String(key);
  return key.includes('~') || key.includes('/') ? key.replace(/~/g, '~0').replace(/\//g, '~1') : key;
}
