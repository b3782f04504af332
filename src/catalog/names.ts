// Client-facing names for tools and prompts: `<alias><sep><name>`, host-safe, bounded, stable, collision-free.
import { createHash } from 'node:crypto';

/** Hosts accept only these characters in tool names (OpenAI, Anthropic; PROTOCOL.md §7). */
const UNSAFE = /[^A-Za-z0-9_-]/g;
/** Length of the hash suffix that makes a shortened or colliding name unique, hex chars. */
const HASH_CHARS = 6;

export interface NamingRule {
  /** `alias + separator`, or '' on per-server endpoints. */
  readonly prefix: string;
  readonly maxLength: number;
}

/** The name a client sees for one original name, ignoring collisions. */
export function emittedName(rule: NamingRule, original: string): string {
  const safe = original.replace(UNSAFE, '_');
  const plain = rule.prefix + safe;
  if (plain.length <= rule.maxLength && safe.length > 0) return plain;
  return hashedName(rule, original);
}

/**
 * The fallback form: prefix + as much of the name as fits + `_` + a hash of the original.
 * It depends only on the prefix and the original name, so it is the same after every restart.
 */
export function hashedName(rule: NamingRule, original: string): string {
  const hash = createHash('sha256').update(rule.prefix).update('\0').update(original).digest('hex').slice(0, HASH_CHARS);
  const room = Math.max(0, rule.maxLength - rule.prefix.length - HASH_CHARS - 1);
  return `${rule.prefix}${original.replace(UNSAFE, '_').slice(0, room)}_${hash}`;
}

/**
 * Assigns names to one server's originals in list order, against names already taken by servers
 * before it. A name that would collide falls back to its hashed form; a duplicate original (a
 * server bug) or a hash collision is reported and left out rather than routed ambiguously.
 */
export function assignNames(
  rule: NamingRule,
  originals: readonly string[],
  taken: Set<string>,
  onSkip: (original: string, reason: string) => void,
): Map<string, string> {
  const byEmitted = new Map<string, string>();
  const seen = new Set<string>();
  for (const original of originals) {
    if (seen.has(original)) {
      onSkip(original, 'the server lists this name more than once');
      continue;
    }
    seen.add(original);
    let name = emittedName(rule, original);
    if (taken.has(name)) name = hashedName(rule, original);
    if (taken.has(name)) {
      onSkip(original, `its name collides with ${name}`);
      continue;
    }
    taken.add(name);
    byEmitted.set(name, original);
  }
  return byEmitted;
}
