// A secret value (a bearer token) that renders as `[redacted]` everywhere except through reveal().

import { createHash, timingSafeEqual } from 'node:crypto';
import { inspect } from 'node:util';

const REDACTED = '[redacted]';

/**
 * The value lives in a private field: it is not an own enumerable property, so JSON.stringify,
 * pino, structuredClone, Object.values, util.inspect and vitest diffs cannot reach it, and
 * string conversion (`${secret}`) yields `[redacted]`. Only code that calls reveal() sees it,
 * which keeps every use of a token greppable.
 */
export class Secret {
  readonly #value: string;

  constructor(value: string) {
    this.#value = value;
  }

  reveal(): string {
    return this.#value;
  }

  /**
   * For a reload diff: JSON renderings of two configs cannot tell a rotated token apart, this can.
   * Digests make the comparison constant-time whatever the lengths.
   */
  equals(other: Secret): boolean {
    return timingSafeEqual(digest(this.#value), digest(other.#value));
  }

  /** Two optional secrets alike: both absent, or both there and equal. */
  static same(a: Secret | undefined, b: Secret | undefined): boolean {
    return a === undefined || b === undefined ? a === b : a.equals(b);
  }

  toJSON(): string {
    return REDACTED;
  }

  toString(): string {
    return REDACTED;
  }

  [Symbol.toPrimitive](): string {
    return REDACTED;
  }

  [inspect.custom](): string {
    return REDACTED;
  }
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}
