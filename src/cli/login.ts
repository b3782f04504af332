// `switchboard login SERVER`: signs the proxy in to a remote server that wants OAuth, once, in a
// browser; the daemon then uses and refreshes the stored tokens itself.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { loadConfig, parsePort } from '../config/load.js';
import type { ServerConfig } from '../config/types.js';
import { signIn } from '../auth/outbound/oauth-client.js';
import { UsageError } from './flags.js';

export const LOGIN_OPTIONS = {
  config: { type: 'string', short: 'c' },
  port: { type: 'string' },
  'no-browser': { type: 'boolean' },
} as const;

export const LOGIN_HELP = `Usage: switchboard login SERVER [-c FILE] [--port PORT] [--no-browser]

Signs the proxy in to a remote server whose entry has "oauth": opens the authorization server's
page in a browser (or prints its address with --no-browser, to open anywhere), waits for the
browser to come back to http://127.0.0.1:PORT/callback, and stores the client registration and
tokens where the daemon reads them (mode 0600):
$XDG_STATE_HOME/mcp-switchboard/remote-oauth/SERVER.json

The daemon uses them the next time it connects to the server (switchboard restart SERVER: now)
and refreshes them itself while the authorization server issues refresh tokens. Run it as the
user the daemon runs as (or with the same XDG_STATE_HOME).

Exit codes: 0 signed in; 1 the sign-in failed or timed out; 2 bad flag or config.

Options:
  -c, --config FILE   the daemon's config (default: ./proxy.config.json)
      --port PORT     port of the local redirect (default: any free one; a client registered in
                      advance with a fixed redirect URI needs that URI's port)
      --no-browser    print the address instead of opening a browser
`;

/** How long the browser may take to come back, ms. */
const LOGIN_TIMEOUT_MS = 5 * 60_000;

export async function runLogin(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args, options: LOGIN_OPTIONS, strict: true, allowPositionals: true });
  const [name, extra] = positionals;
  if (name === undefined) throw new UsageError('login needs a server name; see switchboard login --help');
  if (extra !== undefined) throw new UsageError(`unexpected argument "${extra}"; see switchboard login --help`);
  const config = loadConfig(values.config ?? 'proxy.config.json');
  const server = config.servers.find((s) => s.name === name);
  if (server === undefined) throw new UsageError(`no server "${name}" in ${config.file}`);
  const port = values.port === undefined ? 0 : parsePort(values.port);
  if (port === undefined) throw new UsageError(`--port must be a port number, got "${values.port}"`);
  const open = values['no-browser'] === true ? printOnly : openBrowser;
  try {
    const store = await login(server, { port, open, timeoutMs: LOGIN_TIMEOUT_MS });
    process.stdout.write(`signed in to ${name}; tokens stored in ${store}\n`);
    return 0;
  } catch (error) {
    process.stderr.write(`switchboard: sign-in to ${name} failed: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}\n`);
    return 1;
  }
}

export interface LoginOptions {
  /** Port of the local redirect; 0: any free one. */
  readonly port: number;
  /** Shows the user the authorization page. */
  open(authorizationUrl: URL): Promise<void>;
  readonly timeoutMs: number;
}

/** Signs in to `server`; resolves with the file the tokens were stored in. */
export async function login(server: ServerConfig, options: LoginOptions): Promise<string> {
  const remote = server.remote;
  if (remote?.oauth === undefined) throw new UsageError(`server "${server.name}" has no "oauth" in its entry (a remote server the proxy signs in to)`);
  const oauth = remote.oauth;
  const state = randomBytes(16).toString('base64url');
  let arrived: (code: string) => void = () => undefined;
  let refused: (error: Error) => void = () => undefined;
  const code = new Promise<string>((resolve, reject) => {
    arrived = resolve;
    refused = reject;
  });
  const callback = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== '/callback') {
      res.writeHead(404).end();
      return;
    }
    const error = url.searchParams.get('error');
    const given = url.searchParams.get('code');
    // The state ties the answer to this sign-in: another page cannot hand us its code.
    if (url.searchParams.get('state') !== state) {
      res.writeHead(400, { 'content-type': 'text/plain' }).end('This is not the answer to the sign-in under way.\n');
      return;
    }
    if (error !== null || given === null) {
      res.writeHead(400, { 'content-type': 'text/plain' }).end('The sign-in failed; see the terminal.\n');
      refused(new Error(`the authorization server answered ${error ?? 'without a code'}${url.searchParams.get('error_description') ? `: ${url.searchParams.get('error_description')}` : ''}`));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/plain' }).end(`Signed in to ${server.name}. You can close this window.\n`);
    arrived(given);
  });
  await new Promise<void>((resolve, reject) => {
    callback.once('error', reject);
    callback.listen(options.port, '127.0.0.1', resolve);
  });
  const redirectUrl = `http://127.0.0.1:${(callback.address() as AddressInfo).port}/callback`;
  const timer = setTimeout(() => refused(new Error(`no answer from the browser within ${Math.round(options.timeoutMs / 1000)} s`)), options.timeoutMs);
  try {
    await signIn(remote.url, server.name, oauth, { redirectUrl, state, open: options.open }, code);
    return oauth.store;
  } finally {
    clearTimeout(timer);
    callback.closeAllConnections();
    callback.close();
  }
}

async function printOnly(url: URL): Promise<void> {
  process.stderr.write(`Open this address in a browser to sign in:\n${url.href}\n`);
}

/** Opens the system's browser where there is one; the address is printed either way. */
async function openBrowser(url: URL): Promise<void> {
  await printOnly(url);
  const opener = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  try {
    const child = spawn(opener, [url.href], { stdio: 'ignore', detached: true });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // No browser here: the printed address is the way.
  }
}
