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
  /**
   * Other servers' prefixes that begin with this one (alias `a__b` beside alias `a`), with the
   * separator: a name of this server must never land in them, or server `a`'s tool `b__echo`
   * would pose as `a__b`'s `echo` and match a profile's `a__b__*`.
   */
  readonly foreign?: { readonly prefixes: readonly string[]; readonly separator: string };
}

/** The original made name-safe, with its separators flattened when it would enter another server's namespace. */
function bodyOf(rule: NamingRule, original: string): string {
  let safe = original.replace(UNSAFE, '_');
  const foreign = rule.foreign;
  if (foreign === undefined || !foreign.prefixes.some((prefix) => (rule.prefix + safe).startsWith(prefix))) return safe;
  // One character for the separator: the loop ends, since each pass shortens the name (or, for a
  // one-character separator, replaces it with another character).
  const flat = foreign.separator === '_' ? '-' : '_';
  while (safe.includes(foreign.separator)) safe = safe.replaceAll(foreign.separator, flat);
  return safe;
}

/** The name a client sees for one original name, ignoring collisions. */
export function emittedName(rule: NamingRule, original: string): string {
  const safe = bodyOf(rule, original);
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
  return `${rule.prefix}${bodyOf(rule, original).slice(0, room)}_${hash}`;
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
