// After a command edited the config file: ask the running daemon to load it now (POST /admin/reload),
// and say in one line what happened. No daemon is no failure: the file takes effect at its start.
import { ConfigError } from '../config/load.js';
import { daemonUrl, readToken } from './restart.js';
import { printable } from './render.js';

/** How long to wait for the daemon's answer, ms: a reload restarts changed servers but answers before they are up. */
const TIMEOUT_MS = 15_000;

export interface ReloadFlags {
  /** The daemon's base URL instead of the config's `listen`. */
  readonly daemon?: string | undefined;
  readonly 'token-file'?: string | undefined;
}

/** The parseArgs options of every command that edits the config and then tells the daemon. */
export const RELOAD_OPTIONS = {
  daemon: { type: 'string' },
  'token-file': { type: 'string' },
} as const;

export const RELOAD_HELP = `      --daemon URL       the running switchboard's base URL (default: from the config's "listen")
      --token-file FILE  admin bearer token for the reload request (default: SWITCHBOARD_TOKEN)
`;

/** Resolves to the line to print and the exit code: 0 unless a reachable daemon refused the file. */
export async function tellDaemon(configFile: string, flags: ReloadFlags): Promise<{ readonly line: string; readonly code: number }> {
  let base: string;
  try {
    base = flags.daemon ?? daemonUrl(configFile);
  } catch (error) {
    // daemonUrl speaks of restart's --url; here the flag is --daemon.
    const why = (error instanceof ConfigError ? (error.problems[0]?.problem ?? error.message) : String(error)).replace("the daemon's --url", '--daemon URL').replace('(or give --url)', '(or give --daemon URL)');
    return { line: `could not tell where a running switchboard listens (${printable(why)}); a running one reloads the file when it sees it change`, code: 0 };
  }
  let target: URL;
  try {
    target = new URL('/admin/reload', base);
  } catch {
    return { line: `--daemon expects a URL like http://127.0.0.1:8808, got "${printable(base)}"`, code: 2 };
  }
  const token = readToken(flags['token-file']);
  let response: Response;
  let body: { error?: unknown };
  try {
    response = await fetch(target, { method: 'POST', headers: token === undefined ? {} : { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(TIMEOUT_MS) });
    body = (await response.json().catch(() => ({}))) as { error?: unknown };
  } catch (error) {
    const code = (error as { cause?: { code?: unknown } }).cause?.code;
    if (code === 'ECONNREFUSED') return { line: `no switchboard is running on ${target.host}; the change takes effect when it starts`, code: 0 };
    return { line: `could not reach a switchboard on ${target.host}${typeof code === 'string' ? ` (${code})` : ''}; a running one reloads the file when it sees it change`, code: 0 };
  }
  if (response.status === 200) return { line: `the switchboard on ${target.host} reloaded the config`, code: 0 };
  if (response.status === 401 || response.status === 403) {
    return { line: `the switchboard on ${target.host} wants an admin token to reload (SWITCHBOARD_TOKEN or --token-file); it reloads the file itself when it sees it change`, code: 0 };
  }
  if (response.status === 404) return { line: `the switchboard on ${target.host} has no reload request (an older version); send it SIGHUP or wait for it to see the change`, code: 0 };
  const why = typeof body.error === 'string' ? body.error : `HTTP ${response.status}`;
  return { line: `the switchboard on ${target.host} refused the new config, the running one stays: ${printable(why.split('\n')[0] ?? '')}`, code: 1 };
}
