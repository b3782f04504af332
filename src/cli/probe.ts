// Starts every enabled server without serving HTTP, waits until each is ready or has failed, and always stops them.
import type { SwitchboardConfig } from '../config/types.js';
import { openReview } from '../catalog/review.js';
import { createRootLogger, silentLogger, type Logger } from '../log.js';
import { SwitchboardCore } from '../switchboard.js';
import { printable, truncate } from './render.js';
import type { ServerHandle } from '../upstream/server-handle.js';

/** `skipped`: the config entry itself is unusable (a remote url, a command not installed); never started. */
export type ServerStatus = 'ready' | 'failed' | 'disabled' | 'skipped';

export interface ServerOutcome {
  /** The key under `mcpServers`. */
  readonly name: string;
  readonly status: ServerStatus;
  /** Why it is not ready: the handle's lastError, or that it did not come up in time. */
  readonly reason: string | undefined;
  /** The last line the failed child wrote to stderr (Node's stack frames left out): servers usually say why there. */
  readonly stderr: string | undefined;
  /** Its child's pid while the probe ran, if one was alive. */
  readonly pid: number | undefined;
  readonly restarts: number;
}

export interface ProbeOptions {
  /** How long to wait for servers still starting, ms; those are then reported as failed. */
  readonly timeoutMs: number;
  /** Forward the logs (proxy and servers' stderr) to our stderr. */
  readonly verbose: boolean;
}

export type ProbeResult<T> =
  | { readonly interrupted: false; readonly outcomes: readonly ServerOutcome[]; readonly value: T }
  | { readonly interrupted: true };

/** How often readiness is polled, ms: the core has no "all settled" event, and 25 ms is invisible to a person. */
const POLL_MS = 25;
/** Longest stderr line kept for a failure report, characters (stack traces and blobs are cut). */
const MAX_STDERR_CHARS = 300;

/**
 * Runs `inspect` on a core whose servers have all settled (ready, failed once, or timed out), then
 * stops every child before returning, on errors and on SIGINT/SIGTERM too. A second signal exits at
 * once; the children still die then, because child.ts kills their process groups on process exit.
 */
export async function probe<T>(
  config: SwitchboardConfig,
  options: ProbeOptions,
  inspect: (core: SwitchboardCore, outcomes: readonly ServerOutcome[]) => T,
): Promise<ProbeResult<T>> {
  const logger = probeLogger(options.verbose);
  // Sanitized as the daemon would serve it, against the daemon's pins, but read-only: a probe
  // next to a running daemon must neither write the log nor pin what it saw.
  const review = await openReview(config, logger.child({ component: 'sanitize' }), { writeLog: false, persistPins: false, pinLog: logger.child({ component: 'pins' }) });
  const core = new SwitchboardCore(config, logger, { review });
  let signals = 0;
  const onSignal = () => {
    signals += 1;
    if (signals > 1) process.exit(130);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const started = Date.now();
  try {
    core.start();
    const deadline = started + options.timeoutMs;
    while (signals === 0 && Date.now() < deadline && !core.upstreams.all().every(settled)) await sleep(POLL_MS);
    if (signals > 0) return { interrupted: true };
    const waited = Math.round((Date.now() - started) / 100) / 10;
    const outcomes = config.servers.map((server): ServerOutcome => {
      const handle = core.upstreams.primaryOf(server.name);
      if (server.disabled || handle === undefined) {
        return { name: server.name, status: 'disabled', reason: undefined, stderr: undefined, pid: undefined, restarts: 0 };
      }
      return outcome(handle, waited);
    });
    for (const skipped of config.skipped) {
      outcomes.push({ name: skipped.name, status: 'skipped', reason: skipped.reason, stderr: undefined, pid: undefined, restarts: 0 });
    }
    return { interrupted: false, outcomes, value: inspect(core, outcomes) };
  } finally {
    await core.stop();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

/** Ready, or failed at least once: a failed server keeps restarting with backoff, but one failure is the answer a check needs. */
function settled(handle: ServerHandle): boolean {
  return handle.state === 'ready' || handle.lastError !== undefined;
}

function outcome(handle: ServerHandle, waitedS: number): ServerOutcome {
  const pid = handle.connection?.alive === true ? handle.connection.pid : undefined;
  const base = { name: handle.name, pid, restarts: handle.restarts };
  if (handle.state === 'ready') return { ...base, status: 'ready', reason: undefined, stderr: undefined };
  const reason = handle.lastError ?? `not ready after ${waitedS} s`;
  return { ...base, status: 'failed', reason, stderr: lastWords(handle.stderrTail) };
}

/**
 * The last stderr line of the child the failure is about, from the child's own tail (every line,
 * with Node's stack frames and trailer left out), not from the log, which a burst of lines
 * outruns. Printed on the user's terminal: a child's escape sequences must not reach it.
 */
function lastWords(tail: readonly string[]): string | undefined {
  for (let i = tail.length - 1; i >= 0; i--) {
    const line = truncate(printable(tail[i] ?? ''), MAX_STDERR_CHARS);
    if (line.trim() !== '') return line;
  }
  return undefined;
}

/** The probe's logger: off the terminal unless `--verbose` (a failure is reported as one line by the command instead). */
function probeLogger(verbose: boolean): Logger {
  if (!verbose) return silentLogger();
  return createRootLogger({ level: process.env.SWITCHBOARD_LOG_LEVEL ?? 'info', destination: { write: (line: string) => process.stderr.write(line) } });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Exit code after SIGINT/SIGTERM, as a shell reports a process killed by SIGINT. */
export const INTERRUPTED_EXIT = 130;

/** One line saying why a server is not up, with its last stderr line when it wrote one. */
export function describeFailure(outcome: ServerOutcome): string {
  const why = outcome.reason ?? 'not ready';
  return outcome.stderr === undefined ? why : `${why}; its stderr said: ${outcome.stderr}`;
}
