// The chaos run's fixed settings (paths, the three servers) and its command-line options. See
// scripts/chaos.ts for what each option does.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const CLI = path.join(ROOT, 'dist/cli/main.js');
export const FIXTURE = path.join(ROOT, 'test/fixtures/fixture-server.mjs');
export const SERVERS = ['a', 'b', 'c'] as const;
export type Server = (typeof SERVERS)[number];
/** How long the servers get to be ready again after the last kill before we call one stuck, ms. */
export const RECOVER_MS = 10_000;

const USAGE = 'usage: chaos.ts [--short] [--duration S] [--sessions N] [--kill-every MS] [--reload-every MS] [--timeout MS] [--seed N] [--json]';

export interface ChaosOptions {
  readonly short: boolean;
  /** Print the report as JSON rather than a table. */
  readonly json: boolean;
  readonly durationS: number;
  readonly sessions: number;
  readonly killMs: number;
  /** 0: never reload. */
  readonly reloadMs: number;
  /** Client-side deadline per request. */
  readonly timeoutMs: number;
  readonly seed: number;
  /** The proxy's log level. */
  readonly logLevel: string;
}

export function usage(why: string): never {
  process.stderr.write(`chaos: ${why}\n${USAGE}\n`);
  process.exit(2);
}

/** The options from the command line and the environment; a bad one ends the process (exit 2) with the usage line. */
export function parseOptions(args: readonly string[] = process.argv.slice(2), env: NodeJS.ProcessEnv = process.env): ChaosOptions {
  const flags = new Map<string, string>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    const m = /^--([a-z-]+)(?:=(.*))?$/.exec(arg);
    if (m === null) usage(`unexpected argument ${arg}`);
    const [, name, inline] = m as unknown as [string, string, string | undefined];
    if (name === 'short' || name === 'json') flags.set(name, 'true');
    else if (['duration', 'sessions', 'kill-every', 'reload-every', 'timeout', 'seed'].includes(name)) {
      const value = inline ?? args[++i];
      if (value === undefined) usage(`--${name} needs a value`);
      flags.set(name, value as string);
    } else usage(`unknown flag --${name}`);
  }
  const intOption = (flag: string, name: string, fallback: number, min: number): number => {
    const raw = flags.get(flag) ?? env[name];
    if (raw === undefined || raw === '') return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min) usage(`--${flag} / ${name} must be an integer >= ${min}, got ${raw}`);
    return n;
  };
  const short = flags.has('short');
  return {
    short,
    json: flags.has('json'),
    durationS: intOption('duration', 'CHAOS_DURATION', short ? 30 : 300, 1),
    sessions: intOption('sessions', 'CHAOS_SESSIONS', short ? 20 : 50, 2),
    killMs: intOption('kill-every', 'CHAOS_KILL_MS', 2_000, 100),
    reloadMs: intOption('reload-every', 'CHAOS_RELOAD_MS', short ? 10_000 : 30_000, 0),
    // --short keeps the worst case (a call stuck until its deadline) inside a 45 s CI budget.
    timeoutMs: intOption('timeout', 'CHAOS_TIMEOUT_MS', short ? 8_000 : 30_000, 100),
    seed: intOption('seed', 'CHAOS_SEED', Math.floor(Math.random() * 2 ** 31), 0),
    logLevel: env.CHAOS_LOG_LEVEL ?? 'warn',
  };
}
