// Where a secret that cannot be read here is reported: an error for the commands that use it
// (start, reload), a warning for those that only read the config and the daemon's state.
import type { Findings, PathSegment } from './errors.js';

/**
 * `all`: every secret is read and an unavailable one is an error (start, reload, login).
 * `servers`: the servers' secrets (child env, remote headers and OAuth client secrets) are needed
 * to start them, the daemon's own (auth.tokens, auth.oauth's client secret, the TLS key) are not:
 * check and tools serve no client. `none`: nothing is started either (audit, approve).
 * A secret that is there is still checked in full: a malformed token is a mistake wherever it is read.
 */
export type SecretNeed = 'all' | 'servers' | 'none';

/** Reports that a secret is unavailable (unset variable, missing or unreadable file), and remembers that it did. */
export interface SecretSink {
  (path: readonly PathSegment[], problem: string): void;
  /** Problems reported since the sink was made. */
  readonly count: number;
}

export function secretSink(findings: Findings, needed: boolean): SecretSink {
  let count = 0;
  const sink = (path: readonly PathSegment[], problem: string): void => {
    count += 1;
    if (needed) findings.error(path, problem);
    else findings.warn(path, `${problem} (not read by this command; switchboard start needs it)`);
  };
  return Object.defineProperty(sink, 'count', { get: () => count }) as SecretSink;
}

/** A `substitute` sink: an unset variable or a missing secret file is an unavailable secret, bad syntax is always an error. */
export function substitutionSink(findings: Findings, missing: SecretSink): (path: readonly PathSegment[], problem: string, unavailable?: boolean) => void {
  return (path, problem, unavailable) => (unavailable === true ? missing(path, problem) : findings.error(path, problem));
}
