// `switchboard restart SERVER`: asks the running daemon for a fresh child of one server, with an
// admin token (as /metrics needs), never one given on the command line.
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config/load.js';
import type { SwitchboardConfig } from '../config/types.js';
import { UsageError } from './flags.js';

export const RESTART_OPTIONS = {
  config: { type: 'string', short: 'c' },
  url: { type: 'string' },
  'token-file': { type: 'string' },
} as const;

export const RESTART_HELP = `Usage: switchboard restart SERVER [-c FILE] [--url URL] [--token-file FILE]

Asks the running switchboard to start a fresh child of SERVER: new requests go to it, the old
child finishes its requests in flight (up to limits.shutdownGraceMs) and stops. Sessions stay.

With auth on, the request needs an admin token (as /metrics does): from SWITCHBOARD_TOKEN, or
the first line of --token-file (never on the command line, where other users could read it).

Exit codes: 0 restarting; 1 the daemon refused or could not be reached; 2 bad flag or config.

Options:
  -c, --config FILE      the daemon's config, for its address (default: ./proxy.config.json)
      --url URL          the daemon's base URL instead (e.g. https://tools.example.com:8808)
      --token-file FILE  read the bearer token from FILE
`;

/** Seconds to wait for the daemon's answer. */
const TIMEOUT_MS = 10_000;

export async function runRestart(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args, options: RESTART_OPTIONS, strict: true, allowPositionals: true });
  const [server, extra] = positionals;
  if (server === undefined) throw new UsageError('restart needs a server name; see switchboard restart --help');
  if (extra !== undefined) throw new UsageError(`unexpected argument "${extra}"; see switchboard restart --help`);
  const base = values.url ?? daemonUrl(loadConfig(values.config ?? 'proxy.config.json'));
  let target: URL;
  try {
    target = new URL(`/admin/restart?server=${encodeURIComponent(server)}`, base);
  } catch {
    throw new UsageError(`--url expects a URL like http://127.0.0.1:8808, got "${base}"`);
  }
  const token = readToken(values['token-file']);
  let response: Response;
  try {
    response = await fetch(target, { method: 'POST', headers: token === undefined ? {} : { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    process.stderr.write(`switchboard: no switchboard answered at ${target.origin}${cause === undefined ? '' : ` (${cause})`}\n`);
    return 1;
  }
  const body = (await response.json().catch(() => ({}))) as { error?: { message?: string } | string; state?: string };
  if (response.status === 202) {
    process.stdout.write(`server ${server} is restarting: a fresh child takes new requests, the old one finishes those in flight\n`);
    return 0;
  }
  const why = typeof body.error === 'string' ? body.error : (body.error?.message ?? `HTTP ${response.status}`);
  const hint = response.status === 401 ? ' (set SWITCHBOARD_TOKEN or --token-file to an admin token)' : response.status === 403 ? ' (the token needs "admin": true, or no profile)' : '';
  process.stderr.write(`switchboard: the daemon refused: ${why}${hint}\n`);
  return 1;
}

/** Where the daemon of this config listens, as a client reaches it (a wildcard address by loopback). */
function daemonUrl(config: SwitchboardConfig): string {
  const host = config.listen.host === '0.0.0.0' || config.listen.host === '' ? '127.0.0.1' : config.listen.host === '::' ? '[::1]' : config.listen.host.includes(':') ? `[${config.listen.host}]` : config.listen.host;
  return `${config.listen.tls === undefined ? 'http' : 'https'}://${host}:${config.listen.port}`;
}

function readToken(file: string | undefined): string | undefined {
  if (file === undefined) return process.env.SWITCHBOARD_TOKEN?.trim() || undefined;
  try {
    return fs.readFileSync(file, 'utf8').split('\n')[0]?.trim() || undefined;
  } catch {
    throw new UsageError(`cannot read --token-file ${file}`);
  }
}
