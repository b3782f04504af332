// `${VAR}`, `${file:PATH}` and `${credential:NAME}` substitution in config strings. Messages name
// variables and files, never their values: values are often tokens.

import type { PathSegment } from './errors.js';
import { readSecretRef, type SecretRefKind } from './secret-refs.js';

export interface Substituted {
  readonly value: string;
  /** True when at least one variable, file or credential was substituted, so the result must not be echoed in messages. */
  readonly fromEnv: boolean;
}

/** `unavailable`: the problem is a secret this environment lacks (unset variable, missing file), not a mistake in the text. */
export type ProblemSink = (path: readonly PathSegment[], problem: string, unavailable?: boolean) => void;

/** Defaults may hold references (`${A:-${B:-x}}`); deeper than this is surely a mistake. */
const MAX_NESTING = 8;
const NAME = /[A-Za-z_][A-Za-z0-9_]*/y;
const MALFORMED = 'invalid variable reference: expected ${NAME}, ${NAME:-default}, ${file:PATH} or ${credential:NAME} (write $${ for a literal ${)';
const REF_KINDS: readonly SecretRefKind[] = ['file', 'credential'];

/** `dir`: the config file's folder, which a relative `${file:PATH}` is resolved against. */
export function substitute(
  text: string,
  path: readonly PathSegment[],
  env: NodeJS.ProcessEnv,
  report: ProblemSink,
  dir: string = process.cwd(),
): Substituted {
  // Plain text, the common case, costs one indexOf.
  if (!text.includes('${')) return { value: text, fromEnv: false };
  const state: ExpandState = { fromEnv: false, dir, report: (problem, unavailable) => report(path, problem, unavailable) };
  const { value } = expand(text, 0, 0, env, state, true);
  return { value, fromEnv: state.fromEnv };
}

interface ExpandState {
  fromEnv: boolean;
  readonly dir: string;
  readonly report: (problem: string, unavailable?: boolean) => void;
}

/**
 * Expands `text` from `start` to its end, or, inside a default (`depth` > 0), to the `}` that closes
 * it; returns the expansion and the index after that `}`. A default is itself expanded, so
 * `${UNSET:-${HOME}}` is HOME's value; `$${` is a literal `${`.
 */
function expand(
  text: string,
  start: number,
  depth: number,
  env: NodeJS.ProcessEnv,
  state: ExpandState,
  /** False inside a default that is not used: an unset variable there is no error, bad syntax still is. */
  used: boolean,
): { value: string; end: number } {
  const report = state.report;
  let out = '';
  let i = start;
  while (i < text.length) {
    const c = text[i];
    if (depth > 0 && c === '}') return { value: out, end: i + 1 };
    if (c === '$' && text.startsWith('$${', i)) {
      out += '${';
      i += 3;
      continue;
    }
    if (c !== '$' || text[i + 1] !== '{') {
      out += c;
      i += 1;
      continue;
    }
    const kind = REF_KINDS.find((k) => text.startsWith(`${k}:`, i + 2));
    if (kind !== undefined) {
      // The reference runs to the first "}": a path or a credential name holds none, and no nesting.
      const start = i + 3 + kind.length;
      const close = text.indexOf('}', start);
      if (close === -1) {
        report(`unterminated \${${kind}:...}: a "}" is missing`);
        return { value: out, end: text.length + (depth > 0 ? 1 : 0) };
      }
      state.fromEnv = true;
      if (used) {
        const read = readSecretRef(kind, text.slice(start, close), state.dir, env);
        if (read.ok) out += read.value;
        else report(read.problem, read.unavailable);
      }
      i = close + 1;
      continue;
    }
    NAME.lastIndex = i + 2;
    const name = NAME.exec(text)?.[0];
    const after = i + 2 + (name?.length ?? 0);
    if (name === undefined || (text[after] !== '}' && !text.startsWith(':-', after))) {
      report(MALFORMED);
      out += '${';
      i += 2;
      continue;
    }
    state.fromEnv = true;
    const set = env[name];
    if (text[after] === '}') {
      if (set === undefined && used) report(`environment variable ${name} is not set`, true);
      out += set ?? '';
      i = after + 1;
      continue;
    }
    if (depth + 1 > MAX_NESTING) {
      report(`variable defaults nest deeper than ${MAX_NESTING} levels`);
      return { value: out, end: text.length };
    }
    // The default is read (and its syntax checked) even when the variable is set: a typo is still a typo.
    const useDefault = set === undefined || set === '';
    const fallback = expand(text, after + 2, depth + 1, env, state, used && useDefault);
    if (fallback.end > text.length || text[fallback.end - 1] !== '}') {
      report(`unterminated default of \${${name}:-...}: a "}" is missing`);
      return { value: out, end: text.length };
    }
    out += useDefault ? fallback.value : set;
    i = fallback.end;
  }
  return { value: out, end: depth > 0 ? text.length + 1 : text.length };
}
