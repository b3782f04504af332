// A secret value (a bearer token) that renders as `[redacted]` everywhere except through reveal().

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
