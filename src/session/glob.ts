// Glob matching for profile rules: `*` any run (also empty), `?` one character, everything else
// literal; anchored at both ends; case-sensitive. No regular expressions, so no backtracking blowup.

export type NameMatcher = (name: string) => boolean;

const matchAll: NameMatcher = () => true;
const matchNone: NameMatcher = () => false;

/**
 * Splits the glob at `*` into literal pieces (which may hold `?`). The first piece must match at
 * the start, the last at the end, and each middle piece at its leftmost place after the one
 * before: taking the leftmost place never loses a match, because it leaves the most room for
 * what follows. So one name costs at most O(name length × glob length), whatever the glob.
 * Characters are code points, so `?` matches one emoji in a server name too.
 */
export function compileGlob(glob: string): NameMatcher {
  if (glob === '*') return matchAll;
  const pieces = glob.split('*').map((p) => Array.from(p));
  if (pieces.length === 1) {
    const only = pieces[0]!;
    if (!only.includes('?')) return (name) => name === glob;
    return (name) => {
      const chars = Array.from(name);
      return chars.length === only.length && pieceAt(chars, only, 0);
    };
  }
  const first = pieces[0]!;
  const last = pieces[pieces.length - 1]!;
  const middle = pieces.slice(1, -1).filter((p) => p.length > 0);
  const minLength = pieces.reduce((n, p) => n + p.length, 0);
  return (name) => {
    const chars = Array.from(name);
    if (chars.length < minLength) return false;
    if (!pieceAt(chars, first, 0)) return false;
    const end = chars.length - last.length;
    if (!pieceAt(chars, last, end)) return false;
    let pos = first.length;
    for (const piece of middle) {
      const found = find(chars, piece, pos, end);
      if (found < 0) return false;
      pos = found + piece.length;
    }
    return true;
  };
}

/** True when any of the globs matches; none given matches nothing. */
export function compileGlobs(globs: readonly string[]): NameMatcher {
  if (globs.includes('*')) return matchAll;
  const matchers = globs.map(compileGlob);
  if (matchers.length === 0) return matchNone;
  if (matchers.length === 1) return matchers[0]!;
  return (name) => matchers.some((m) => m(name));
}

function pieceAt(chars: readonly string[], piece: readonly string[], at: number): boolean {
  for (let i = 0; i < piece.length; i++) {
    const p = piece[i]!;
    if (p !== '?' && p !== chars[at + i]) return false;
  }
  return true;
}

/** Leftmost start in [from, limit - piece.length] where the piece matches, or -1. */
function find(chars: readonly string[], piece: readonly string[], from: number, limit: number): number {
  for (let at = from; at + piece.length <= limit; at++) if (pieceAt(chars, piece, at)) return at;
  return -1;
}
