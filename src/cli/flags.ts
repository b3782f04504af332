// Flags shared by the commands that start servers only to look at them (`tools`, `check`), and the user-error type.

/** A mistake of the user's: printed as one line, exit code 2, no stack. */
export class UsageError extends Error {
  readonly exitCode = 2;
}

/** parseArgs options every probing command takes. */
export const PROBE_OPTIONS = {
  config: { type: 'string', short: 'c' },
  json: { type: 'boolean' },
  timeout: { type: 'string' },
  verbose: { type: 'boolean' },
} as const;

/** Seconds to wait for servers when `--timeout` is not given: npx-launched servers may download first. */
export const DEFAULT_TIMEOUT_S = 30;
/** Longest `--timeout` accepted, seconds: past an hour a hung server is not worth waiting for. */
const MAX_TIMEOUT_S = 3600;

/** `--timeout SECONDS` as milliseconds; anything but a positive number of seconds is a usage error. */
export function timeoutMs(value: string | undefined): number {
  if (value === undefined) return DEFAULT_TIMEOUT_S * 1000;
  const seconds = Number(value);
  if (value.trim() === '' || !Number.isFinite(seconds) || seconds <= 0 || seconds > MAX_TIMEOUT_S) {
    throw new UsageError(`--timeout expects seconds between 0 and ${MAX_TIMEOUT_S}, got "${value}"`);
  }
  return Math.round(seconds * 1000);
}

/** The help text's lines for PROBE_OPTIONS, so both commands describe them alike. */
export const PROBE_HELP = `  -c, --config FILE   config file (default: ./proxy.config.json)
      --json          print one JSON object instead of tables
      --timeout SECS  wait at most this long for servers to start (default: ${DEFAULT_TIMEOUT_S})
      --verbose       write the proxy's and the servers' logs to stderr (JSON lines)
`;
