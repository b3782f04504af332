// `callLog` in proxy.config.json: an opt-in JSON-lines record of every tool call (who, what, how
// long, how it ended), rotated like the sanitization log; arguments and results only for the tool
// globs named in `payloads`, and then with secrets redacted.
import { z } from 'zod';

export interface CallLogConfig {
  /** Absolute path of the current file. */
  readonly path: string;
  readonly maxBytes: number;
  readonly keep: number;
  /** Tool globs (names clients see) whose arguments and results are logged, redacted. */
  readonly payloads: readonly string[];
}

const INT_ERROR = (min: number, max: number) => `expected an integer between ${min} and ${max}`;
const int = (min: number, max: number) => z.number({ error: INT_ERROR(min, max) }).int({ error: INT_ERROR(min, max) }).min(min, { error: INT_ERROR(min, max) }).max(max, { error: INT_ERROR(min, max) });

export const callLogObject = z.strictObject(
  {
    // Relative to the config dir; default: the XDG state dir's calls.jsonl.
    path: z.string({ error: 'expected a non-empty string' }).min(1, { error: 'expected a non-empty string' }).optional(),
    maxBytes: int(4096, 2 ** 40).default(10 * 1024 * 1024),
    keep: int(0, 100).default(5),
    payloads: z.array(z.string().min(1, { error: 'expected a tool name or glob' }), { error: 'expected an array of tool globs' }).default([]),
  },
  { error: (issue: { code?: string; keys?: readonly string[] }) => (issue.code === 'unrecognized_keys' ? `unknown key ${(issue.keys ?? []).map((k) => JSON.stringify(k)).join(', ')}` : 'expected an object') },
);
