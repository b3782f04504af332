// The fuzzer's fixed settings (paths, limits the proxy is configured with, deadlines) and its
// command-line options. See scripts/fuzz.ts for what each option does.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const CLI = path.join(ROOT, 'dist/cli/main.js');
export const FIXTURE = path.join(ROOT, 'test/fixtures/fixture-server.mjs');
export const GARBAGE = path.join(ROOT, 'test/fixtures/garbage-server.mjs');

/** Any single attacker request must be answered within this, ms. */
export const DEADLINE_MS = 10_000;
/** How long stream sessions may still wait for answers once the attack window has closed, ms. */
export const END_GRACE_MS = 4_000;
export const MAX_BODY_BYTES = 1_048_576;
/** Set low so the garbage child's huge lines (GARBAGE_HUGE_BYTES and more) are over it. */
export const MAX_LINE_BYTES = 262_144;
export const GARBAGE_HUGE_BYTES = 300_000;
/** The garbage child's request timeout: its `silent` and `huge` tools must end in -32001 this fast. */
export const GARBAGE_TIMEOUT_MS = 3_000;
export const SERVERS: ReadonlySet<string> = new Set(['fx', 'garbage']);
export const PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'];

/** Whether a tag (attack kind, `garbage.junk.<kind>`, `garbage.tool.<name>`, ...) was excluded by prefix. */
export type Excluded = (tag: string) => boolean;

export interface FuzzOptions {
  short: boolean;
  /** Length of the attack window. */
  seconds: number;
  /** Attacks in all before stopping; Infinity when not given. */
  iterations: number;
  seed: number;
  workers: number;
  /** Prefixes given with --exclude. */
  exclude: string[];
  excluded: Excluded;
  keep: boolean;
  verbose: boolean;
}

/** Reads the command line; bad values are reported by `optionsProblem`. */
export function parseOptions(): FuzzOptions {
  const { values: args } = parseArgs({
    options: {
      short: { type: 'boolean' },
      seconds: { type: 'string' },
      iterations: { type: 'string' },
      seed: { type: 'string' },
      workers: { type: 'string' },
      exclude: { type: 'string' },
      keep: { type: 'boolean' },
      verbose: { type: 'boolean' },
    },
  });
  const exclude = (args.exclude ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  return {
    short: args.short === true,
    seconds: args.short ? 25 : Number(args.seconds ?? 300),
    iterations: args.iterations === undefined ? Infinity : Number(args.iterations),
    seed: args.seed === undefined ? (Math.random() * 2 ** 32) >>> 0 : Number(args.seed) >>> 0,
    workers: Number(args.workers ?? 6),
    exclude,
    excluded: (tag) => exclude.some((prefix) => tag.startsWith(prefix)),
    keep: args.keep === true,
    verbose: args.verbose === true,
  };
}

/** Why the options cannot be used, or undefined when they can. */
export function optionsProblem(options: FuzzOptions): string | undefined {
  if (!(options.seconds > 0) || !(options.workers >= 1) || !(options.iterations > 0)) {
    return '--seconds, --workers and --iterations take positive numbers';
  }
  return undefined;
}
