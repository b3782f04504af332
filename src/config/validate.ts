// Turns zod issues and unknown keys into path-naming findings.

import type { z } from 'zod';
import { describeValue, type Findings, type PathSegment } from './errors.js';
import { isSecretPath } from './schema.js';

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

export function warnUnknownKeys(
  value: Record<string, unknown>,
  known: ReadonlySet<string>,
  at: readonly PathSegment[],
  findings: Findings,
): void {
  for (const key of Object.keys(value)) {
    if (!known.has(key)) findings.warn([...at, key], 'unknown key, ignored');
  }
}

/**
 * For sections that grant access (profiles, auth): there a misspelt key (`alow`, `profiel`)
 * would silently widen what someone sees, so it is an error, not a warning.
 */
export function refuseUnknownKeys(
  value: Record<string, unknown>,
  known: ReadonlySet<string>,
  at: readonly PathSegment[],
  findings: Findings,
): void {
  for (const key of Object.keys(value)) {
    if (!known.has(key)) findings.error([...at, key], `unknown key; expected ${[...known].join(', ')} (a misspelt key here could widen access)`);
  }
}

/**
 * `input` is the value the schema was given and `at` its path within the file; the offending value
 * is looked up there rather than taken from the issue, so secret paths can be skipped uniformly.
 */
export function reportIssues(
  issues: readonly z.core.$ZodIssue[],
  input: unknown,
  at: readonly PathSegment[],
  findings: Findings,
): void {
  for (const issue of issues) {
    const rel = issue.path.filter((seg): seg is PathSegment => typeof seg !== 'symbol');
    const full = [...at, ...rel];
    const value = valueAt(input, rel);
    if (value === undefined) findings.error(full, `missing (${issue.message})`);
    // An unknown key is named by the message; the object it sits in is no news.
    else if (isSecretPath(full) || issue.code === 'unrecognized_keys') findings.error(full, issue.message);
    else findings.error(full, `${issue.message}, got ${describeValue(value)}`);
  }
}

function valueAt(root: unknown, segments: readonly PathSegment[]): unknown {
  let current = root;
  for (const seg of segments) {
    if (typeof current !== 'object' || current === null) return undefined;
    if (!Object.prototype.hasOwnProperty.call(current, seg)) return undefined;
    current = (current as Record<PathSegment, unknown>)[seg];
  }
  return current;
}
