// `switchboard restart SERVER`: asks the running daemon for a fresh child of one server, with an
// admin token (as /metrics needs), never one given on the command line.
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, parsePort } from '../config/load.js';
import { jsonPath, type ConfigProblem } from '../config/errors.js';
import { substitute } from '../config/interpolate.js';
import { parseJson } from '../config/json.js';
import { DEFAULTS } from '../config/schema.js';
import { isPlainObject } from '../config/validate.js';
import { UsageError } from './flags.js';
import { printable, truncate } from './render.js';

export const RESTART_OPTIONS = {
  config: { type: 'string', short: 'c' },
  url: { type: 'string' },
  'token-file': { type: 'string' },
} as const;

export const RESTART_HELP = `Usage: switchboard restart SERVER [-c FILE] [--url URL] [--token-file FILE]

Asks the running switchboard to start a fresh child of SERVER and says whether it came up (it
waits up to 15 s). New requests go to the fresh child; the old one finishes its requests in
flight (up to limits.shutdownGraceMs) and stops. Sessions stay.

The daemon's address is the config's "listen" (SWITCHBOARD_HOST and SWITCHBOARD_PORT win, as
for start), or --url. Only "listen" is read, so the variables and files the daemon's servers
and tokens need do not have to be set here.

With auth on, the request needs an admin token (as /metrics does): from SWITCHBOARD_TOKEN, or
the first line of --token-file (never on the command line, where other users could read it).

Exit codes: 0 the server is up again (or still starting); 1 it failed to start, the daemon
refused, or no daemon answered; 2 bad flag or config.

Options:
  -c, --config FILE      the daemon's config, for its address (default: ./proxy.config.json)
      --url URL          the daemon's base URL instead (e.g. https://tools.example.com:8808)
      --token-file FILE  read the bearer token from FILE
`;

/** How long to wait for the daemon's answer, ms: it waits up to 15 s for the fresh child itself. */
const TIMEOUT_MS = 30_000;
/** Longest stderr line quoted from a server that failed to come back, characters. */
const MAX_STDERR_CHARS = 300;

interface Answer {
  readonly state?: unknown;
  readonly pid?: unknown;
  readonly lastError?: unknown;
  readonly stderr?: unknown;
  readonly error?: unknown;
}

export async function runRestart(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args, options: RESTART_OPTIONS, strict: true, allowPositionals: true });
  const [server, extra] = positionals;
  if (server === undefined) throw new UsageError('restart needs a server name; see switchboard restart --help');
  if (extra !== undefined) throw new UsageError(`unexpected argument "${extra}"; see switchboard restart --help`);
  const base = values.url ?? daemonUrl(values.config ?? 'proxy.config.json');
  let target: URL;
  try {
    target = new URL(`/admin/restart?server=${encodeURIComponent(server)}`, base);
  } catch {
    throw new UsageError(`--url expects a URL like http://127.0.0.1:8808, got "${base}"`);
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new UsageError(`--url expects an http or https URL, got "${base}"`);
  const token = readToken(values['token-file']);
  let response: Response;
  let body: Answer;
  try {
    response = await fetch(target, { method: 'POST', headers: token === undefined ? {} : { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(TIMEOUT_MS) });
    body = (await response.json().catch(() => ({}))) as Answer;
  } catch (error) {
    process.stderr.write(`switchboard: ${unreachable(target, error)}\n`);
    return 1;
  }
  if (response.status === 200) return reportRestart(server, body);
  const why = typeof body.error === 'string' ? body.error : errorMessage(body.error) ?? `HTTP ${response.status}`;
  const hint = response.status === 401 ? ' (set SWITCHBOARD_TOKEN or --token-file to an admin token)' : '';
  process.stderr.write(`switchboard: the daemon refused: ${oneLine(why)}${hint}\n`);
  return 1;
}

/** One line for what the daemon said about the fresh child; 0 when it is up (or still starting). */
function reportRestart(server: string, answer: Answer): number {
  const state = typeof answer.state === 'string' ? answer.state : 'unknown';
  if (state === 'ready') {
    process.stdout.write(`server ${server} restarted: ready${typeof answer.pid === 'number' ? `, pid ${answer.pid}` : ''}\n`);
    return 0;
  }
  if (state === 'starting') {
    process.stdout.write(`server ${server} restarted: still starting after 15 s (see /status.json)\n`);
    return 0;
  }
  const why = typeof answer.lastError === 'string' ? answer.lastError : state;
  const lines = Array.isArray(answer.stderr) ? answer.stderr.filter((line): line is string => typeof line === 'string') : [];
  const last = lines.length > 0 ? truncate(printable(lines[lines.length - 1] ?? ''), MAX_STDERR_CHARS) : '';
  process.stderr.write(`switchboard: server ${server} restarted but is not up: ${oneLine(why)}${last === '' ? '' : `; its stderr said: ${last}`}\n`);
  return 1;
}

/** Why the daemon could not be asked, in one line that says where we looked. */
export function unreachable(target: URL, error: unknown): string {
  const cause = (error as { cause?: { code?: unknown } }).cause?.code;
  const code = typeof cause === 'string' ? cause : undefined;
  const where = target.host;
  if ((error as { name?: unknown }).name === 'TimeoutError') return `the switchboard on ${where} did not answer within ${TIMEOUT_MS / 1000} s`;
  if (code === 'ECONNREFUSED') return `no switchboard is listening on ${where} (start it, or give --url or -c with its config)`;
  if (code !== undefined && (code.startsWith('ERR_TLS_') || code.includes('CERT') || code.endsWith('_SIGNED_CERT') || code === 'UNABLE_TO_VERIFY_LEAF_SIGNATURE')) {
    return `the switchboard on ${where} has a certificate this machine does not trust for that name (${code}): give --url with the certificate's name, or NODE_EXTRA_CA_CERTS=its CA`;
  }
  return `cannot reach a switchboard on ${where}${code === undefined ? '' : ` (${code})`}`;
}

function errorMessage(error: unknown): string | undefined {
  const message = isPlainObject(error) ? error['message'] : undefined;
  return typeof message === 'string' ? message : undefined;
}

function oneLine(text: string): string {
  return printable(text.split('\n')[0] ?? '');
}

/**
 * Where the daemon of this config listens, as a client reaches it (a wildcard address by
 * loopback). Only `listen` is read, with SWITCHBOARD_HOST/SWITCHBOARD_PORT on top as the daemon
 * applies them: the rest of the file may need variables (a server's env, a tokenEnv) and files
 * (the TLS key) that the daemon's environment has and an operator's shell does not.
 */
export function daemonUrl(file: string, env: NodeJS.ProcessEnv = process.env): string {
  const abs = path.resolve(file);
  let text: string;
  try {
    text = fs.readFileSync(abs, 'utf8');
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    throw new ConfigError(abs, [{ path: '', problem: `cannot read config file: ${code === 'ENOENT' ? 'no such file' : String(code)} (or give --url)` }]);
  }
  const parsed = parseJson(text);
  if (!parsed.ok) {
    const { line, column, problem } = parsed.error;
    throw new ConfigError(abs, [{ path: `line ${line}, column ${column}`, problem: `invalid JSON: ${problem}` }]);
  }
  const listen = isPlainObject(parsed.value) && isPlainObject(parsed.value['listen']) ? parsed.value['listen'] : {};
  const problems: ConfigProblem[] = [];
  const writtenHost = typeof listen['host'] === 'string' ? listen['host'] : DEFAULTS.host;
  const fileHost = substitute(writtenHost, ['listen', 'host'], env, (at, problem) => problems.push({ path: jsonPath(at), problem }), path.dirname(abs)).value;
  const host = env['SWITCHBOARD_HOST'] || fileHost;
  let port: unknown = listen['port'] ?? DEFAULTS.port;
  const envPort = env['SWITCHBOARD_PORT'];
  if (envPort !== undefined && envPort !== '') {
    port = parsePort(envPort);
    if (port === undefined) problems.push({ path: '', problem: `SWITCHBOARD_PORT: expected a port number from 0 to 65535, got "${envPort}"` });
  }
  if (problems.length === 0 && (typeof port !== 'number' || !Number.isInteger(port) || port < 1 || port > 65535)) {
    problems.push({ path: jsonPath(['listen', 'port']), problem: port === 0 ? 'is 0 (any free port): give the daemon\'s --url' : 'is not a port number' });
  }
  if (problems.length > 0) throw new ConfigError(abs, problems);
  const shown = host === '0.0.0.0' ? '127.0.0.1' : host === '::' || host === '[::]' ? '[::1]' : host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  return `${listen['tls'] === undefined ? 'http' : 'https'}://${shown}:${String(port)}`;
}

export function readToken(file: string | undefined): string | undefined {
  if (file === undefined) return process.env.SWITCHBOARD_TOKEN?.trim() || undefined;
  try {
    return fs.readFileSync(file, 'utf8').split('\n')[0]?.trim() || undefined;
  } catch {
    throw new UsageError(`cannot read --token-file ${file}`);
  }
}
