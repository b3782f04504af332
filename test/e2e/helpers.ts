// Starting a real proxy with real child servers, and connecting the SDK's own client to it.
import { fileURLToPath } from 'node:url';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createSwitchboard, resolveConfig, type RunningSwitchboard } from '../../src/index.js';
import { createRootLogger } from '../../src/log.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const FIXTURE = path.join(ROOT, 'test/fixtures/fixture-server.mjs');
export const ECHO = path.join(ROOT, 'test/fixtures/echo-server.mjs');
/** A server that dies on start as under npx: noise on stderr, then its own last words (see the file's env). */
export const FAILING = path.join(ROOT, 'test/fixtures/failing-server.mjs');

/** A fixture server entry for `mcpServers`. */
export function fixture(name: string, extra: Record<string, unknown> = {}, env: Record<string, string> = {}): Record<string, unknown> {
  return { command: process.execPath, args: [FIXTURE], env: { FIXTURE_NAME: name, ...env }, ...extra };
}

export interface StartOptions {
  /** The environment `${VAR}` and `tokenEnv` read from (default: this process's). */
  readonly env?: NodeJS.ProcessEnv;
  /** Writes the proxy's debug log here (default: $SWITCHBOARD_TEST_LOG, else silent). */
  readonly logFile?: string;
  /** Wait until every server is up (default true); false for a proxy with a server meant to fail. */
  readonly waitReady?: boolean;
}

export async function startProxy(raw: Record<string, unknown>, options: StartOptions = {}): Promise<RunningSwitchboard> {
  // Each proxy its own pins and sanitization log: findings already logged by another test's proxy
  // would otherwise count as seen, and pins of one test's fixtures would judge another's.
  // Inside the run's own state dir (test/setup-state.ts), which goes when the run ends: the log
  // stays readable after the proxy closes, and nothing is left in the temp dir.
  const state = fs.mkdtempSync(path.join(process.env.XDG_STATE_HOME ?? os.tmpdir(), 'sb-e2e-state-'));
  const sanitize = { log: path.join(state, 'sanitize.jsonl'), pins: path.join(state, 'pins.json') };
  const config = resolveConfig({ listen: { host: '127.0.0.1', port: 0 }, sanitize, ...raw }, { file: '<inline>', dir: ROOT }, options.env ?? process.env);
  const logFile = options.logFile ?? process.env.SWITCHBOARD_TEST_LOG;
  const proxy = await createSwitchboard(config, {
    shutdown: { afterStdinCloseMs: 500, afterTermMs: 500 },
    ...(logFile ? { logger: createRootLogger({ level: 'debug', destination: logFile }) } : {}),
  });
  if (options.waitReady !== false && !(await proxy.whenReady(20_000))) {
    await proxy.close();
    throw new Error('proxy servers did not become ready');
  }
  return proxy;
}

export interface ConnectOptions {
  /** Endpoint path, query included (`/mcp?tools=fs__*`). */
  readonly path?: string;
  /** Sent as `Authorization: Bearer <token>` on every request. */
  readonly token?: string;
  readonly capabilities?: Record<string, unknown>;
  readonly name?: string;
}

export async function connect(proxy: RunningSwitchboard, options: ConnectOptions = {}): Promise<Client> {
  const client = new Client({ name: options.name ?? 'e2e', version: '1.0.0' }, { capabilities: options.capabilities ?? {} });
  const requestInit = options.token === undefined ? undefined : { headers: { authorization: `Bearer ${options.token}` } };
  await client.connect(new StreamableHTTPClientTransport(new URL(`${proxy.url}${options.path ?? '/mcp'}`), { requestInit }));
  return client;
}

export function textOf(result: unknown): string {
  const content = (result as { content?: Array<{ type: string; text?: string }> }).content ?? [];
  return content.map((c) => c.text ?? '').join('');
}

// ---------------------------------------------------------------------------------------------
// Helpers shared by the e2e files below the smoke test.

/** Every tool of a client's view, following `nextCursor` to the end. */
export async function listAllTools(client: Client): Promise<Array<Record<string, unknown> & { name: string }>> {
  const tools: Array<Record<string, unknown> & { name: string }> = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 1000; pages += 1) {
    const result = await client.listTools(cursor === undefined ? {} : { cursor });
    tools.push(...(result.tools as Array<Record<string, unknown> & { name: string }>));
    cursor = result.nextCursor;
    if (cursor === undefined) return tools;
  }
  throw new Error('tools/list never ended');
}

/** Polls `condition` until it is truthy (returning that value) or throws after `timeoutMs`. */
export async function waitFor<T>(condition: () => T | Promise<T>, timeoutMs = 10_000, what = 'condition'): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await condition();
      if (value) return value as NonNullable<T>;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${lastError ? `: ${String(lastError)}` : ''}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * The text of a proxy's log file once every line written before this call has reached it. The log
 * is written asynchronously but in order, so a session opened now under a unique client name (which
 * "session opened" records) is a marker that lands after all of them. Returns the marker's client
 * for the caller to close.
 */
export async function logThrough(proxy: RunningSwitchboard, logFile: string, token?: string): Promise<{ text: string; client: Client }> {
  const name = `log-marker-${Math.random().toString(36).slice(2)}`;
  const client = await connect(proxy, { name, ...(token === undefined ? {} : { token }) });
  const text = await waitFor(() => {
    const read = fs.readFileSync(logFile, 'utf8');
    return read.includes(name) ? read : undefined;
  }, 10_000, 'the marker session in the log');
  return { text, client };
}

/**
 * Asserts that something does NOT happen within `ms`: polls `happened` (truthy: it did, and says
 * what) until the window closes. Absence has no event to wait for, so the window is fixed; pick it
 * as long as the thing would take if it were going to happen, and prefer an ordering barrier (a
 * later event on the same stream that would have come after it) where one exists.
 */
export async function expectNothingWithin(ms: number, what: string, happened: () => unknown): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    const seen = happened();
    if (seen) throw new Error(`${what} happened within ${ms} ms: ${typeof seen === 'string' ? seen : JSON.stringify(seen)}`);
    if (Date.now() >= deadline) return;
    await new Promise((resolve) => setTimeout(resolve, Math.min(50, Math.max(1, deadline - Date.now()))));
  }
}

/**
 * Lets a product timer run out (a cooldown, a rate window) that the behaviour under test is defined
 * by. Not a wait for an event: the time itself is the condition, and it only ever grows, so a
 * loaded machine makes the wait longer, never too short. `rule` names the timer for the reader.
 */
export async function outlast(ms: number, rule: string): Promise<void> {
  void rule;
  await new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * An `onprogress` for a call and a promise of its first progress. A call that has reported progress
 * is running in its server: a test that needs a call in flight waits for that, not for some time.
 */
export function firstProgress(): { onprogress: () => void; reached: Promise<void> } {
  let onprogress!: () => void;
  const reached = new Promise<void>((resolve) => (onprogress = resolve));
  return { onprogress, reached };
}

/** The pid in a fixture `whoami` answer ("<name> pid <pid>"). */
export function pidOf(result: unknown): number {
  const match = /pid (\d+)/.exec(textOf(result));
  if (match?.[1] === undefined) throw new Error(`no pid in ${JSON.stringify(result)}`);
  return Number(match[1]);
}

/** True while a process with this pid exists. */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

// ---------------------------------------------------------------------------------------------
// Raw Streamable HTTP, for what the SDK client would never send.

export const ACCEPT_BOTH = 'application/json, text/event-stream';
export const PROTOCOL_VERSION = '2025-06-18';

export interface RawReply {
  readonly status: number;
  readonly headers: Headers;
  /** Raw body text. */
  readonly text: string;
  /** JSON-RPC messages of the body: one for a JSON body, each `data:` of an SSE body. */
  readonly messages: Array<Record<string, unknown>>;
}

/** Parses a reply body as JSON or as SSE events, by its content type. */
export function parseBody(contentType: string | null, text: string): Array<Record<string, unknown>> {
  if (text.trim() === '') return [];
  if ((contentType ?? '').includes('text/event-stream')) {
    const messages: Array<Record<string, unknown>> = [];
    for (const event of text.split(/\r?\n\r?\n/)) {
      const data = event
        .split(/\r?\n/)
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).replace(/^ /, ''))
        .join('\n');
      if (data !== '') messages.push(JSON.parse(data) as Record<string, unknown>);
    }
    return messages;
  }
  try {
    const parsed = JSON.parse(text) as unknown;
    return Array.isArray(parsed) ? (parsed as Array<Record<string, unknown>>) : [parsed as Record<string, unknown>];
  } catch {
    return [];
  }
}

export interface RawPostOptions {
  readonly sessionId?: string;
  readonly headers?: Record<string, string>;
  readonly path?: string;
}

/** POSTs `body` (an object is JSON-encoded, a string is sent as is) and reads the whole reply. */
export async function rawPost(proxy: RunningSwitchboard, body: unknown, options: RawPostOptions = {}): Promise<RawReply> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: ACCEPT_BOTH };
  if (options.sessionId !== undefined) {
    headers['mcp-session-id'] = options.sessionId;
    headers['mcp-protocol-version'] = PROTOCOL_VERSION;
  }
  Object.assign(headers, options.headers ?? {});
  const res = await fetch(`${proxy.url}${options.path ?? '/mcp'}`, {
    method: 'POST',
    headers,
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, messages: parseBody(res.headers.get('content-type'), text) };
}

/** The one JSON-RPC response (a message with an id and result or error) in a reply. */
export function responseOf(reply: RawReply): Record<string, unknown> & { id?: unknown; result?: any; error?: any } {
  const response = reply.messages.find((m) => 'result' in m || 'error' in m);
  if (response === undefined) throw new Error(`no JSON-RPC response in HTTP ${reply.status}: ${reply.text.slice(0, 500)}`);
  return response;
}

/** Opens a session with initialize + notifications/initialized; returns its Mcp-Session-Id. */
export async function rawSession(proxy: RunningSwitchboard, path = '/mcp'): Promise<string> {
  const init = await rawPost(
    proxy,
    {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'raw-e2e', version: '1.0.0' } },
    },
    { path },
  );
  if (init.status !== 200) throw new Error(`initialize answered HTTP ${init.status}: ${init.text}`);
  const sessionId = init.headers.get('mcp-session-id');
  if (!sessionId) throw new Error('initialize answered without mcp-session-id');
  const initialized = await rawPost(proxy, { jsonrpc: '2.0', method: 'notifications/initialized' }, { sessionId, path });
  if (initialized.status !== 202) throw new Error(`notifications/initialized answered HTTP ${initialized.status}`);
  return sessionId;
}

/** Like `connect`, also returning the transport (for `terminateSession`). */
export async function connectWithTransport(
  proxy: RunningSwitchboard,
  options: ConnectOptions = {},
): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const client = new Client({ name: options.name ?? 'e2e', version: '1.0.0' }, { capabilities: options.capabilities ?? {} });
  const transport = new StreamableHTTPClientTransport(new URL(`${proxy.url}${options.path ?? '/mcp'}`));
  await client.connect(transport);
  return { client, transport };
}

/** How a `switchboard` command run as a process ended. */
export interface CliOutcome {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * How long a CLI run may take before the test calls it hung: a `check` that starts a few servers
 * takes 1-2 s on a quiet machine under tsx (less from the run's build) and ten times that when every
 * core is busy.
 */
export const CLI_TIMEOUT_MS = 45_000;

/**
 * Node's arguments that run `switchboard`: the build made once for this run (test/cli-build.ts), or
 * the sources under tsx when there is none (a unit run, a failed build).
 */
export const CLI_ENTRY: string = (() => {
  const built = process.env['SWITCHBOARD_TEST_CLI'];
  return built !== undefined && fs.existsSync(built) ? built : path.join(ROOT, 'src/cli/main.ts');
})();
/** Node's arguments that run the entry point `entry`: TypeScript sources through tsx. */
export const cliArgsFor = (entry: string): string[] => (entry.endsWith('.ts') ? ['--import', 'tsx', entry] : [entry]);
export const CLI: readonly string[] = cliArgsFor(CLI_ENTRY);

/** Runs `switchboard ARGS` as a user would (CLI), and collects its output. */
export function runCli(args: readonly string[], timeoutMs = CLI_TIMEOUT_MS, env: NodeJS.ProcessEnv = process.env): Promise<CliOutcome> {
  return new Promise((resolve) => {
    execFile(process.execPath, [...CLI, ...args], { cwd: ROOT, timeout: timeoutMs, env }, (error, stdout, stderr) => {
      // A run killed for its time says so, rather than leaving a bare exit code of -1 to explain.
      const note = error !== null && error.killed ? `\n[test] switchboard ${args.join(' ')} killed after ${timeoutMs} ms` : '';
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stdout, stderr: stderr + note });
    });
  });
}

/** A TCP port free on loopback right now, for a daemon started as a process. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (server.address() as net.AddressInfo).port;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** How a command run by `runBounded` ended. */
export interface BoundedRun {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  /** It ran out of time and its process group was killed. */
  readonly timedOut: boolean;
}

/**
 * Runs a command in a process group of its own and resolves once all of it is gone. On timeout the
 * whole group is SIGKILLed, grandchildren too: `npm pack` runs the build as one, which a plain
 * execFile timeout leaves writing into the directory the test is about to remove.
 */
export function runBounded(command: string, args: readonly string[], options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs: number }): Promise<BoundedRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    const killGroup = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // The group is gone already.
      }
    };
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, options.timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    // 'close' comes once every holder of the pipes is gone; what is left of the group goes with it.
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      killGroup();
      resolve({ code, signal, stdout, stderr, timedOut });
    });
  });
}

/** One line that says how a bounded run failed, its stderr's tail included. */
export function describeRun(what: string, result: BoundedRun, timeoutMs: number): string {
  const how = result.timedOut ? `ran out of its ${timeoutMs} ms` : `exited with ${result.code ?? result.signal}`;
  return `${what} ${how}; stderr: ${result.stderr.trim().slice(-2000) || '(empty)'}`;
}

/**
 * Removes a test's scratch directory. A failure to remove it is reported, never thrown: thrown
 * from an afterAll it would stand in the report where the failure that matters should.
 */
export function removeScratch(dir: string | undefined): void {
  if (dir === undefined) return;
  try {
    fs.rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  } catch (error) {
    console.warn(`could not remove the scratch directory ${dir}: ${String(error)}`);
  }
}

export interface Served {
  readonly child: ChildProcess;
  readonly port: number;
}

/**
 * Starts a server process (node `args`) and resolves with the port it printed on stderr (`listening`'s
 * group). `spawned` gets the process at once, so a caller can stop it even when it never listens.
 */
export function serveListening(args: string[], env: Record<string, string>, listening: RegExp, spawned?: (child: ChildProcess) => void): Promise<Served> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    spawned?.(child);
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`${args.join(' ')} did not start: ${seen}`)), 15_000);
    child.stderr?.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const match = listening.exec(seen);
      if (match === null) return;
      clearTimeout(timer);
      resolve({ child, port: Number(match[1] ?? env.PORT) });
    });
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}: ${seen}`)));
  });
}
