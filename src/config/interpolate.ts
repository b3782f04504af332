// `${VAR}` substitution in config strings. Messages name variables, never their values: values are
// often tokens.

import type { PathSegment } from './errors.js';

export interface Substituted {
  readonly value: string;
  /** True when at least one variable was substituted, so the result must not be echoed in messages. */
  readonly fromEnv: boolean;
}

export type ProblemSink = (path: readonly PathSegment[], problem: string) => void;

// Alternation order matters: `$${` must win over `${` at the same position to act as an escape; the
// last branch catches a `${` that is not a well-formed reference so it is reported, not passed on.
const REFERENCE = /\$\$\{|\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}|\$\{/g;

export function substitute(
  text: string,
  path: readonly PathSegment[],
  env: NodeJS.ProcessEnv,
  report: ProblemSink,
): Substituted {
  let fromEnv = false;
  const value = text.replace(REFERENCE, (match, name: string | undefined, fallback: string | undefined) => {
    if (match === '$${') return '${';
    if (name === undefined) {
      report(path, 'invalid variable reference: expected ${NAME} or ${NAME:-default} (write $${ for a literal ${)');
      return match;
    }
    fromEnv = true;
    const set = env[name];
    if (fallback !== undefined) return set === undefined || set === '' ? fallback : set;
    if (set === undefined) {
      report(path, `environment variable ${name} is not set`);
      return '';
    }
    return set;
  });
  return { value, fromEnv };
}
