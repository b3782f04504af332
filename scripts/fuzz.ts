// Fuzzer: hostile clients, and a child that spews garbage, against a live proxy, while a control
// group of well-behaved sessions checks that each of its calls still gets its own correct answer.
//
//   npm run build && npm run fuzz -- --short        (CI: about 30 s in all)
//   npm run fuzz -- --seconds 120 [--seed N]        (by hand; default 300 s)
//
// Options: --short (25 s of attacks) | --seconds N | --iterations N (attacks in all, then stop) |
// --seed N (replays each worker's sequence of generated attacks; timing still varies) |
// --workers N (attackers, default 6) | --exclude P,... (skip, by prefix, attack kinds as named in
// the report, garbage junk kinds `garbage.junk.<kind>`, garbage tools `garbage.tool.<name>`, deep
// client payloads `payload.deep`, deep answers to server requests `reply.deep`; after a finding,
// e.g. `--exclude garbage.junk.deep,garbage.tool.deep` looks for the next one) | --keep (keep the
// config and proxy log) | --verbose (list every violation in the report, not only the first of
// each type and kind).
//
// Worker 0 starts with the slow-reader attack (sse.stuck_reader), which needs 20 s of run left.
//
// The proxy runs as its own process (dist/cli/main.js) with two children: test/fixtures/
// fixture-server.mjs as `fx`, and test/fixtures/garbage-server.mjs as `garbage`, which answers
// correctly but writes junk to stdout between and around its answers.
//
// Invariants, checked all along; any violation makes the exit status 1:
// - the proxy process never exits; /healthz answers 200 within 5 s, polled every 250 ms;
// - every control call (Streamable HTTP, batched Streamable HTTP, per-server Streamable HTTP,
//   legacy SSE, WebSocket; all calling fx's echo) gets exactly one answer, its own, correct,
//   within 10 s; no control session sees an answer it did not ask for;
// - no attacker request goes unanswered for 10 s (streams it opens itself excepted: it closes
//   them); never a 5xx; never a stack trace in a body; a 4xx from a JSON-RPC endpoint carries a
//   JSON-RPC error; malformed JSON-RPC gets the code SPEC.md names (-32700, -32600, -32601,
//   -32602); never "Internal error" (-32603, an exception inside the proxy); no answer carries an
//   id its request did not have; nothing is answered twice; foreign Origin and Host get 403;
// - afterwards: a fresh session still gets correct answers from both children; fx never
//   restarted; the proxy stops cleanly on SIGTERM and leaves no process behind.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import http from 'node:http';
import { parseArgs } from 'node:util';
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import {
  FOREIGN_ORIGINS, HttpClient, LOOPBACK_ORIGINS, Rng, Stats, badEnvelope, bodyMessages, deepJson, describe, invalidJson,
  invalidUtf8, isJsonRpcMessage, isLoopbackOrigin, jsonRpcError, junkValue, lastEventId, looksLikeStack, now, printable,
  randomPath, rawExchange, rawStatuses, routeOf, sleep, sseEvents, tagText, wsFrame, wsHandshake,
  type HttpResult, type HttpSpec, type Json,
} from './fuzz-lib.js';
import { descendants, freePort, isAlive, rssMb } from './bench-lib.js';
import { slowClientLeg } from './hostile-legs.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CLI = path.join(ROOT, 'dist/cli/main.js');
const FIXTURE = path.join(ROOT, 'test/fixtures/fixture-server.mjs');
const GARBAGE = path.join(ROOT, 'test/fixtures/garbage-server.mjs');

/** Any single attacker request must be answered within this, ms. */
const DEADLINE_MS = 10_000;
/** How long stream sessions may still wait for answers once the attack window has closed, ms. */
const END_GRACE_MS = 4_000;
const MAX_BODY_BYTES = 1_048_576;
/** Set low so the garbage child's huge lines (GARBAGE_HUGE_BYTES and more) are over it. */
const MAX_LINE_BYTES = 262_144;
const GARBAGE_HUGE_BYTES = 300_000;
/** The garbage child's request timeout: its `silent` and `huge` tools must end in -32001 this fast. */
const GARBAGE_TIMEOUT_MS = 3_000;
const SERVERS: ReadonlySet<string> = new Set(['fx', 'garbage']);
const PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'];

// ---------- options ----------

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
const SECONDS = args.short ? 25 : Number(args.seconds ?? 300);
const ITERATIONS = args.iterations === undefined ? Infinity : Number(args.iterations);
const SEED = args.seed === undefined ? (Math.random() * 2 ** 32) >>> 0 : Number(args.seed) >>> 0;
const WORKERS = Number(args.workers ?? 6);
const EXCLUDE = (args.exclude ?? '').split(',').map((s) => s.trim()).filter(Boolean);
const excluded = (tag: string): boolean => EXCLUDE.some((prefix) => tag.startsWith(prefix));

if (!fs.existsSync(CLI)) {
  process.stderr.write(`fuzz: ${path.relative(ROOT, CLI)} not found; run \`npm run build\` first\n`);
  process.exit(2);
}
if (!(SECONDS > 0) || !(WORKERS >= 1) || !(ITERATIONS > 0)) {
  process.stderr.write('fuzz: --seconds, --workers and --iterations take positive numbers\n');
  process.exit(2);
}

const log = (line: string): void => void process.stderr.write(`[fuzz] ${line}\n`);
const stats = new Stats((line) => log(line));
const T0 = now();
const elapsed = (): number => (now() - T0) / 1000;

// ---------- the proxy ----------

const TEMP = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-fuzz-'));
const LOG_FILE = path.join(TEMP, 'proxy.log');
let proxy: ChildProcess | undefined;
let proxyPid = 0;
let port = 0;
let proxyExited: string | undefined;
/** Seconds into the run when the proxy died; failures in the second before it are its collateral. */
let proxyExitAt: number | undefined;
let stoppingProxy = false;
let attackUntil = Infinity;
let attacksStarted = 0;

process.on('exit', () => {
  if (proxyPid === 0) return;
  for (const p of [...descendants(proxyPid), proxyPid]) if (isAlive(p)) try { process.kill(p, 'SIGKILL'); } catch { /* gone */ }
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    log(`${signal}: stopping (temp dir kept: ${TEMP})`);
    process.exit(130);
  });
}

const stopping = (): boolean => now() >= attackUntil || proxyExited !== undefined || attacksStarted >= ITERATIONS;
const remainingMs = (): number => attackUntil - now();

/** What the proxy printed that is not a pino line (a crash's stack trace), else the end of its log. */
function logTail(bytes = 3000): string {
  let text: string;
  try {
    text = fs.readFileSync(LOG_FILE, 'utf8');
  } catch {
    return '(no log)';
  }
  const raw = text.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('{') && !line.startsWith('switchboard listening'));
  return raw.length > 0 ? raw.slice(0, 30).join('\n') : text.slice(-bytes);
}

async function startProxy(): Promise<void> {
  port = await freePort();
  const config = path.join(TEMP, 'config.json');
  const junkExcluded = EXCLUDE.filter((e) => e.startsWith('garbage.junk.')).map((e) => e.slice('garbage.junk.'.length));
  fs.writeFileSync(config, JSON.stringify({
    listen: { host: '127.0.0.1', port },
    limits: { maxBodyBytes: MAX_BODY_BYTES, maxLineBytes: MAX_LINE_BYTES },
    logLevel: 'warn',
    mcpServers: {
      fx: { command: process.execPath, args: [FIXTURE], env: { FIXTURE_NAME: 'fx' } },
      garbage: {
        command: process.execPath,
        args: [GARBAGE],
        env: {
          GARBAGE_SEED: String(SEED),
          GARBAGE_HUGE_BYTES: String(GARBAGE_HUGE_BYTES),
          GARBAGE_EXCLUDE: junkExcluded.join(','),
          GARBAGE_INTERVAL_MS: excluded('garbage.junk') && junkExcluded.length === 0 ? '0' : '30',
        },
        timeoutMs: GARBAGE_TIMEOUT_MS,
        restart: { initialDelayMs: 200, maxDelayMs: 2000 },
      },
    },
  }, null, 2));
  const out = fs.openSync(LOG_FILE, 'w');
  // Pins and the sanitization log stay in the run's temp dir, never the user's state dir.
  const child = spawn(process.execPath, [CLI, 'start', '-c', config], { stdio: ['ignore', out, out], env: { ...process.env, XDG_STATE_HOME: TEMP } });
  fs.closeSync(out);
  proxy = child;
  proxyPid = child.pid as number;
  child.on('exit', (code, signal) => {
    if (stoppingProxy) return;
    proxyExited = `exit code ${code}, signal ${signal}`;
    proxyExitAt = elapsed();
    stats.violation('proxy_exited', 'proxy', `the proxy process exited (${proxyExited}) at ${elapsed().toFixed(1)} s; it printed:\n${logTail()}`);
  });
  const probe = new HttpClient('127.0.0.1', port, 2000);
  for (const deadline = now() + 20_000; now() < deadline; await sleep(100)) {
    if (proxyExited !== undefined) break;
    if ((await probe.request({ method: 'GET', path: '/readyz', fresh: true })).status === 200) return;
  }
  throw new Error(`proxy not ready (${proxyExited ?? 'still running'}); log tail:\n${logTail(2000)}`);
}

// ---------- judging attacker answers ----------

type Id = string | number;
const keyOf = (id: unknown): string => `${typeof id}:${String(id)}`;
const J = (value: unknown): string => JSON.stringify(value);
const RPC_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' } as const;

interface Expect {
  /** Allowed HTTP statuses. */
  status?: number[];
  /** The JSON-RPC error code(s) the answer must carry. */
  code?: number | number[];
  /** Keys (keyOf) of the ids responses may carry, besides null. */
  ids?: Set<string>;
  /** The echo the response to `id` must carry. */
  answer?: { id: Id; text: string };
  /** The response to `id` must be an error with one of these codes. */
  answerError?: { id: Id; codes: number[] };
  /** A reset connection without an answer is fine (an over-limit body the proxy stopped reading). */
  allowReset?: boolean;
}

function headerOf(spec: HttpSpec, name: string): string | undefined {
  const v = spec.headers?.[name];
  return Array.isArray(v) ? v[0] : v;
}

function foreignHost(host: string | undefined): boolean {
  if (host === undefined) return false;
  const name = host.toLowerCase().replace(/:\d+$/, '');
  return !['127.0.0.1', 'localhost', '[::1]'].includes(name);
}

/** Problem with an echo answer, or null when `msg` is the echo of `text` under `id`. */
function echoProblem(msg: Json | undefined, id: Id, text: string): string | null {
  if (msg === undefined) return 'no answer';
  if (msg.id !== id) return `wrong id ${J(msg.id)}`;
  if (msg.error !== undefined) return `error ${J(msg.error).slice(0, 200)}`;
  const result = msg.result as { content?: Array<{ text?: unknown }>; isError?: unknown } | undefined;
  if (result === undefined || result === null) return 'no result';
  if (result.isError === true) return `tool error ${J(result.content).slice(0, 200)}`;
  const got = result.content?.[0]?.text;
  return got === text ? null : `wrong text ${J(got).slice(0, 120)} (wanted ${J(text).slice(0, 120)})`;
}

const responses = (messages: unknown[]): Json[] =>
  messages.filter((m): m is Json => isJsonRpcMessage(m) && m.method === undefined && ('result' in m || 'error' in m));

function checkMessage(kind: string, m: unknown, what: () => string): void {
  if (!isJsonRpcMessage(m)) {
    stats.violation('not_jsonrpc', kind, `a message that is not JSON-RPC: ${J(m)?.slice(0, 200)} in ${what()}`);
    return;
  }
  const e = jsonRpcError(m);
  if (e !== undefined && e.code === -32603 && e.message === 'Internal error') {
    stats.violation('internal_error', kind, `"Internal error" (an exception inside the proxy): ${what()}`);
  }
}

function judge(kind: string, spec: HttpSpec, r: HttpResult, expect: Expect = {}): void {
  const outcome = r.hung ? 'hang' : r.status === -1 ? 'client-refused' : r.status === 0 ? 'reset' : String(r.status);
  stats.record(kind, outcome);
  if (proxyExited !== undefined) return; // after a crash everything fails; the crash is the finding
  const what = (): string => `HTTP ${r.status}${r.error ? ` (${r.error})` : ''} ${printable(Buffer.from(r.body.slice(0, 300)))} <- ${describe(spec)}`;
  if (r.hung) {
    stats.violation('hang', kind, `no complete answer within ${DEADLINE_MS} ms: ${what()}`);
    return;
  }
  if (r.status === -1) return;
  if (r.status === 0) {
    if (!expect.allowReset) stats.note(`${kind}: connection ended without an answer`, what());
    return;
  }
  if (r.status >= 500) stats.violation('http_5xx', kind, what());
  if (looksLikeStack(r.body)) stats.violation('stack_trace', kind, what());
  // Node's HTTP layer answers some requests before the proxy sees them (a method it does not know:
  // 400; an Expect other than 100-continue: 417; oversized headers: 431), always with an empty body.
  const nodeCore = (r.status === 400 || r.status === 417 || r.status === 431) && r.body === '' && spec.method !== 'HEAD';
  if (nodeCore) stats.note(`Node's HTTP layer answered ${r.status} itself (empty body, before any routing)`, what());
  const route = routeOf(spec.path, SERVERS);
  const origin = headerOf(spec, 'origin');
  if (origin !== undefined && !isLoopbackOrigin(origin) && route !== 'health' && r.status !== 403 && !nodeCore) {
    stats.violation('foreign_origin_accepted', kind, `Origin ${origin} was not refused with 403: ${what()}`);
  }
  if (foreignHost(headerOf(spec, 'host')) && route !== 'health' && r.status !== 403 && !nodeCore) {
    stats.violation('foreign_host_accepted', kind, `Host ${headerOf(spec, 'host')} was not refused with 403: ${what()}`);
  }
  const jsonRpcRoute = route === 'mcp' || route === 'messages';
  const contentType = String(r.headers['content-type'] ?? '');
  if (!nodeCore && r.status >= 400 && r.status < 500 && jsonRpcRoute && spec.method !== 'HEAD') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(r.body);
    } catch {
      parsed = undefined;
    }
    if (jsonRpcError(parsed) === undefined) stats.violation('error_not_jsonrpc', kind, `a ${r.status} without a JSON-RPC error body: ${what()}`);
  }
  let messages: unknown[] = [];
  if (jsonRpcRoute && spec.method !== 'HEAD') {
    if (r.heldStream) {
      messages = sseEvents(r.body).events.filter((e) => e.data.trim() !== '').flatMap((e) => {
        try {
          return [JSON.parse(e.data) as unknown];
        } catch {
          stats.violation('bad_body', kind, `SSE data that is not JSON: ${e.data.slice(0, 100)} in ${what()}`);
          return [];
        }
      });
    } else if (r.status < 300 && /json|event-stream/.test(contentType)) {
      const parsed = bodyMessages(contentType, r.body);
      if (parsed.bad !== undefined) stats.violation('bad_body', kind, `${parsed.bad}: ${what()}`);
      messages = parsed.messages;
    } else {
      messages = bodyMessages(contentType, r.body).messages;
    }
  }
  for (const m of messages) checkMessage(kind, m, what);
  if (expect.ids !== undefined) {
    for (const m of responses(messages)) {
      if (m.id !== null && !expect.ids.has(keyOf(m.id))) stats.violation('crossed_answer', kind, `an answer with id ${J(m.id)} the request did not carry: ${what()}`);
    }
  }
  if (expect.status !== undefined && !expect.status.includes(r.status)) {
    stats.violation('unexpected_status', kind, `wanted HTTP ${expect.status.join('/')}: ${what()}`);
  }
  if (expect.code !== undefined) {
    const codes = Array.isArray(expect.code) ? expect.code : [expect.code];
    const got = messages.map((m) => jsonRpcError(m)?.code).find((c) => c !== undefined);
    if (got === undefined || !codes.includes(got)) stats.violation('wrong_error_code', kind, `wanted JSON-RPC error ${codes.join('/')}, got ${got ?? 'none'}: ${what()}`);
  }
  if (expect.answer !== undefined) {
    const { id, text } = expect.answer;
    const mine = responses(messages).filter((m) => m.id === id);
    const problem = mine.length > 1 ? `${mine.length} answers` : echoProblem(mine[0], id, text);
    if (problem !== null && r.status === 200) stats.violation('wrong_answer', kind, `${problem}: ${what()}`);
  }
  if (expect.answerError !== undefined) {
    const { id, codes } = expect.answerError;
    const mine = responses(messages).find((m) => m.id === id);
    const code = jsonRpcError(mine)?.code;
    if (r.status === 200 && (code === undefined || !codes.includes(code))) {
      stats.violation('wrong_answer', kind, `wanted an error ${codes.join('/')} for id ${J(id)}, got ${J(mine)?.slice(0, 200)}: ${what()}`);
    }
  }
}

// ---------- attacker state ----------

/** The attackers' HTTP client (keep-alive pool and fresh connections); set once the port is known. */
let client!: HttpClient;
/** Streamable HTTP sessions attackers opened and did not delete: deleted at the end, then counted. */
const liveHttpSessions = new Map<string, string>(); // id -> path
/** Legacy SSE session ids seen, for use on the wrong transport. */
const sseSessionIds: string[] = [];

interface Scope { path: string; fx: string | undefined; garbage: string | undefined }
const SCOPES: Scope[] = [
  { path: '/mcp', fx: 'fx__', garbage: 'garbage__' },
  { path: '/s/fx/mcp', fx: '', garbage: undefined },
  { path: '/s/garbage/mcp', fx: undefined, garbage: '' },
];

interface AttackSession extends Scope {
  id: string;
  version: string;
  /** Request streams the proxy opened for this session (r1 is initialize's); for plausible Last-Event-IDs. */
  streams: number;
  next: number;
  sampling: boolean;
}

class Worker {
  readonly rng: Rng;
  readonly sessions: AttackSession[] = [];
  constructor(readonly index: number, root: Rng) {
    this.rng = root.fork(`worker-${index}`);
  }

  /** An attack session (reused mostly), optionally one that can reach `server`. */
  async session(server?: 'fx' | 'garbage'): Promise<AttackSession | undefined> {
    const fit = this.sessions.filter((s) => server === undefined || s[server] !== undefined);
    if (fit.length > 0 && this.rng.chance(0.85)) return this.rng.pick(fit);
    const scopes = SCOPES.filter((s) => server === undefined || s[server] !== undefined);
    return openSession(this, this.rng.pick(scopes));
  }
}

function newId(s: { next: number }, rng: Rng): Id {
  const n = s.next++;
  return rng.weighted<Id>([[n, 6], [String(n), 2], [`${n}-é🙂`, 1], [`__proto__${n}`, 1], [`${'x'.repeat(300)}${n}`, 1]]);
}

const call = (id: Id, name: string, args: unknown, meta?: Json): Json =>
  ({ jsonrpc: '2.0', id, method: 'tools/call', params: meta === undefined ? { name, arguments: args } : { name, arguments: args, _meta: meta } });

function rpcSpec(s: AttackSession, body: unknown, extra: Record<string, string> = {}): HttpSpec {
  return {
    method: 'POST', path: s.path,
    headers: { ...RPC_HEADERS, 'mcp-session-id': s.id, 'mcp-protocol-version': s.version, ...extra },
    body: typeof body === 'string' || Buffer.isBuffer(body) ? body : J(body),
  };
}

async function rpc(kind: string, s: AttackSession, body: unknown, expect: Expect = {}, extra: Record<string, string> = {}): Promise<HttpResult> {
  const spec = rpcSpec(s, body, extra);
  const r = await client.request(spec);
  if (typeof body === 'object' && body !== null && 'id' in body && 'method' in body) s.streams += 1;
  judge(kind, spec, r, expect);
  if (r.status === 404 && liveHttpSessions.has(s.id)) stats.note('an attack session vanished (404) while in use', describe(spec));
  return r;
}

async function openSession(w: Worker, scope: Scope, kind = 'http.session'): Promise<AttackSession | undefined> {
  const rng = w.rng;
  const version = rng.pick(PROTOCOL_VERSIONS);
  const sampling = rng.chance(0.5);
  const spec: HttpSpec = {
    method: 'POST', path: scope.path, headers: { ...RPC_HEADERS },
    body: J({
      jsonrpc: '2.0', id: 0, method: 'initialize',
      params: { protocolVersion: version, capabilities: sampling ? { sampling: {}, elicitation: {} } : {}, clientInfo: { name: `fuzz-w${w.index}`, version: '0' } },
    }),
  };
  const r = await client.request(spec);
  judge(kind, spec, r, { status: [200], ids: new Set([keyOf(0)]) });
  const sid = r.headers['mcp-session-id'];
  if (r.status !== 200 || typeof sid !== 'string') return undefined;
  liveHttpSessions.set(sid, scope.path);
  const s: AttackSession = { ...scope, id: sid, version, streams: 1, next: 1, sampling };
  await rpc(kind, s, { jsonrpc: '2.0', method: 'notifications/initialized' }, { status: [202] });
  w.sessions.push(s);
  if (w.sessions.length > 4) await deleteSession(w, w.sessions[0] as AttackSession, kind);
  return s;
}

async function deleteSession(w: Worker, s: AttackSession, kind: string): Promise<void> {
  w.sessions.splice(w.sessions.indexOf(s), 1);
  const spec: HttpSpec = { method: 'DELETE', path: s.path, headers: { 'mcp-session-id': s.id } };
  const r = await client.request(spec);
  judge(kind, spec, r, { status: [200] });
  if (r.status === 200) liveHttpSessions.delete(s.id);
}

/** Junk answers to a server-to-client request (sampling, elicitation, ...). */
function junkReply(rng: Rng, id: unknown): string {
  const pickers: Array<() => string> = [
    () => J({ jsonrpc: '2.0', id, result: { role: 'assistant', content: { type: 'text', text: 'fuzzed' }, model: 'fuzz' } }),
    () => J({ jsonrpc: '2.0', id, result: { action: 'accept', content: { name: 'fuzz' } } }),
    () => J({ jsonrpc: '2.0', id, error: { code: rng.int(-40000, 40000), message: 'no' } }),
    () => J({ jsonrpc: '2.0', id, result: junkValue(rng) }),
    () => J({ jsonrpc: '2.0', id: typeof id === 'number' ? id + 1000 : `${String(id)}x`, result: {} }),
    () => J({ jsonrpc: '2.0', id }),
    () => J([{ jsonrpc: '2.0', id, result: {} }]),
  ];
  if (!excluded('reply.deep')) pickers.push(() => `{"jsonrpc":"2.0","id":${J(id)},"result":{"content":${deepJson(rng.int(5_000, 40_000), 'array')}}}`);
  return rng.pick(pickers)();
}

// ---------- attacks: Streamable HTTP ----------

async function attackInvalidJson(w: Worker): Promise<void> {
  const rng = w.rng;
  const body = invalidJson(rng);
  let parses = true;
  try {
    JSON.parse(body.toString('utf8'));
  } catch {
    parses = false;
  }
  const s = rng.chance(0.6) ? await w.session() : undefined;
  const spec: HttpSpec = s !== undefined ? rpcSpec(s, body) : { method: 'POST', path: rng.pick(['/mcp', '/s/fx/mcp', '/s/garbage/mcp']), headers: { ...RPC_HEADERS }, body };
  spec.fresh = rng.chance(0.2);
  const r = await client.request(spec);
  judge('http.invalid_json', spec, r, parses ? {} : { status: [400], code: -32700 });
}

async function attackBadEnvelope(w: Worker): Promise<void> {
  const rng = w.rng;
  const s = rng.chance(0.6) ? await w.session() : undefined;
  const { body, code } = badEnvelope(rng, rng.int(1, 1000));
  const spec: HttpSpec = s !== undefined ? rpcSpec(s, J(body)) : { method: 'POST', path: '/mcp', headers: { ...RPC_HEADERS }, body: J(body) };
  const r = await client.request(spec);
  judge('http.bad_envelope', spec, r, { status: [400], ...(code === undefined ? {} : { code }) });
}

/** A message that is a valid request, with what its answer must be. */
function validRequest(rng: Rng, s: { fx: string | undefined; garbage: string | undefined; next: number }, tag: string): { body: Json; id: Id; expect: Pick<Expect, 'answer' | 'answerError'> } {
  const id = newId(s, rng);
  const choices: Array<() => { body: Json; expect: Pick<Expect, 'answer' | 'answerError'> }> = [
    () => ({ body: { jsonrpc: '2.0', id, method: 'ping' }, expect: {} }),
    () => ({ body: { jsonrpc: '2.0', id, method: rng.pick(['no/such', 'tools/cal', 'rpc.discover', 'constructor', '__proto__', '']) }, expect: { answerError: { id, codes: [-32601] } } }),
    () => ({ body: call(id, rng.pick(['nope', 'fx__nope', 'garbage__nope__x']), {}), expect: { answerError: { id, codes: [-32602] } } }),
  ];
  if (s.fx !== undefined) {
    const fx = s.fx;
    choices.push(() => {
      const text = tagText(rng, tag);
      return { body: call(id, `${fx}echo`, { text }), expect: { answer: { id, text } } };
    });
  }
  if (s.garbage !== undefined && !excluded('garbage.tool.echo')) {
    const g = s.garbage;
    choices.push(() => {
      const text = tagText(rng, tag);
      return { body: call(id, `${g}echo`, { text }), expect: { answer: { id, text } } };
    });
  }
  const { body, expect } = rng.pick(choices)();
  return { body, id, expect };
}

async function attackBatch(w: Worker): Promise<void> {
  const rng = w.rng;
  const s = rng.chance(0.9) ? await w.session() : undefined;
  const items: unknown[] = [];
  const wanted: Array<{ id: Id; expect: Pick<Expect, 'answer' | 'answerError'> }> = [];
  const n = rng.weighted([[0, 1], [rng.int(1, 5), 6], [rng.int(6, 60), 2], [rng.int(200, 2000), 1]]);
  const scope = s ?? { fx: 'fx__', garbage: 'garbage__', next: 1 };
  for (let i = 0; i < n; i++) {
    const pick = rng.int(0, 9);
    if (pick < 5) {
      const v = validRequest(rng, scope, `batch-w${w.index}`);
      items.push(v.body);
      wanted.push({ id: v.id, expect: v.expect });
    } else if (pick === 5) items.push({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: rng.int(1, 100) } });
    else if (pick === 6) items.push(junkValue(rng));
    else if (pick === 7) items.push(badEnvelope(rng, 1e6 + scope.next++).body);
    else if (pick === 8) items.push([{ jsonrpc: '2.0', id: 1e7 + scope.next++, method: 'ping' }]);
    else items.push({ jsonrpc: '2.0', id: 2e7 + scope.next++, result: {} });
  }
  const body = J(items);
  if (Buffer.byteLength(body) > MAX_BODY_BYTES) return;
  const spec: HttpSpec = s !== undefined ? rpcSpec(s, body) : { method: 'POST', path: '/mcp', headers: { ...RPC_HEADERS }, body };
  if (s !== undefined) s.streams += 1;
  const r = await client.request(spec);
  const ids = new Set(items.flatMap((item) => (typeof item === 'object' && item !== null && 'id' in item ? [keyOf((item as Json).id)] : [])));
  const batching = s !== undefined && s.version === '2025-03-26' && items.length > 0;
  judge('http.batch', spec, r, { ids, ...(batching ? { status: [200, 202] } : { status: [400], code: -32600 }) });
  if (!batching || r.status !== 200 || proxyExited !== undefined) return;
  const got = responses(bodyMessages(String(r.headers['content-type'] ?? ''), r.body).messages);
  for (const { id, expect } of wanted) {
    const mine = got.filter((m) => m.id === id);
    if (mine.length !== 1) {
      stats.violation(mine.length === 0 ? 'batch_unanswered' : 'answered_twice', 'http.batch', `${mine.length} answers for id ${J(id)} in a batch of ${items.length}: ${describe(spec)}`);
      continue;
    }
    if (expect.answer !== undefined) {
      const problem = echoProblem(mine[0], expect.answer.id, expect.answer.text);
      if (problem !== null) stats.violation('wrong_answer', 'http.batch', `${problem} in a batch: ${describe(spec)}`);
    }
    if (expect.answerError !== undefined && !expect.answerError.codes.includes(jsonRpcError(mine[0])?.code ?? 0)) {
      stats.violation('wrong_error_code', 'http.batch', `wanted ${expect.answerError.codes.join('/')} for ${J(id)}, got ${J(mine[0]).slice(0, 200)}`);
    }
  }
}

async function attackNested(w: Worker): Promise<void> {
  const rng = w.rng;
  const depth = rng.weighted([[rng.int(100, 2000), 1], [rng.int(5_000, 20_000), 3], [rng.int(20_000, 120_000), 2]]);
  const deep = deepJson(depth, rng.chance(0.5) ? 'array' : 'object');
  const s = await w.session();
  if (s === undefined) return;
  const id = newId(s, rng);
  const tool = s.fx !== undefined ? `${s.fx}echo` : `${s.garbage ?? ''}echo`;
  const shape = rng.int(0, 5);
  const body = [
    deep,
    `{"jsonrpc":"2.0","id":${J(id)},"method":"tools/call","params":{"name":${J(tool)},"arguments":{"text":"n","x":${deep}}}}`,
    `{"jsonrpc":"2.0","id":${J(id)},"method":"ping","params":{"x":${deep}}}`,
    `{"jsonrpc":"2.0","id":${deep},"method":"ping"}`,
    `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1,"reason":${deep}}}`,
    `{"jsonrpc":"2.0","id":${J(id)},"method":"tools/call","params":{"name":${J(tool)},"arguments":{"text":"n"},"_meta":{"progressToken":1,"x":${deep}}}}`,
  ][shape] as string;
  if (Buffer.byteLength(body) > MAX_BODY_BYTES) return;
  await rpc('http.nested', s, body, { ids: new Set([keyOf(id)]) });
}

async function attackHugeBody(w: Worker): Promise<void> {
  const rng = w.rng;
  const edge = rng.chance(0.3);
  const s = rng.chance(0.7) ? await w.session() : undefined;
  if (edge) {
    // Exactly at the limit is accepted; one byte over is refused with 413.
    const over = rng.chance(0.5);
    const id = s !== undefined ? newId(s, rng) : 1;
    const head = `{"jsonrpc":"2.0","id":${J(id)},"method":"ping","params":{"pad":"`;
    const tail = '"}}';
    const size = MAX_BODY_BYTES + (over ? 1 : 0);
    const body = head + 'p'.repeat(size - Buffer.byteLength(head) - tail.length) + tail;
    const spec: HttpSpec = s !== undefined ? rpcSpec(s, body) : { method: 'POST', path: '/mcp', headers: { ...RPC_HEADERS }, body };
    spec.chunked = rng.chance(0.3);
    if (s !== undefined && !over) s.streams += 1;
    const r = await client.request(spec);
    const expect: Expect = over ? { status: [413], code: -32600, allowReset: true } : s !== undefined ? { status: [200], ids: new Set([keyOf(id)]) } : { status: [400] };
    judge('http.huge_body', spec, r, expect);
    return;
  }
  const size = MAX_BODY_BYTES + rng.int(1, 3 * MAX_BODY_BYTES);
  const body = rng.chance(0.5) ? Buffer.alloc(size, 0x20) : Buffer.from(`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"${'y'.repeat(size)}"}}`);
  const spec: HttpSpec = s !== undefined ? rpcSpec(s, body) : { method: 'POST', path: rng.pick(['/mcp', '/s/fx/mcp']), headers: { ...RPC_HEADERS }, body };
  spec.chunked = rng.chance(0.5);
  const r = await client.request(spec);
  judge('http.huge_body', spec, r, { status: [413], code: -32600, allowReset: true });
}

async function attackUtf8(w: Worker): Promise<void> {
  const rng = w.rng;
  const s = await w.session();
  if (s === undefined) return;
  const id = newId(s, rng);
  const bad = invalidUtf8(rng);
  const tool = s.fx !== undefined ? `${s.fx}echo` : `${s.garbage ?? ''}echo`;
  const inString = rng.chance(0.6);
  const body = inString
    ? Buffer.concat([Buffer.from(`{"jsonrpc":"2.0","id":${J(id)},"method":"tools/call","params":{"name":${J(tool)},"arguments":{"text":"u`), bad, Buffer.from('"}}}')])
    : Buffer.concat([Buffer.from(`{"jsonrpc":"2.0","id":${J(id)},"method":"ping"`), bad, Buffer.from('}')]);
  if (inString) s.streams += 1;
  const spec = rpcSpec(s, body);
  const r = await client.request(spec);
  // Inside a string the bytes decode to U+FFFD and the echo must carry exactly that.
  const text = 'u' + bad.toString('utf8');
  judge('http.utf8', spec, r, inString ? { status: [200], answer: { id, text }, ids: new Set([keyOf(id)]) } : { status: [400], code: -32700 });
}

async function attackHeaders(w: Worker): Promise<void> {
  const rng = w.rng;
  const s = await w.session();
  if (s === undefined) return;
  const headers: Record<string, string> = { ...RPC_HEADERS, 'mcp-session-id': s.id, 'mcp-protocol-version': s.version };
  const mutations = rng.int(1, 3);
  for (let i = 0; i < mutations; i++) {
    switch (rng.int(0, 6)) {
      case 0: {
        const ct = rng.pick(['', 'text/plain', 'application/jsonx', 'Application/JSON', 'application/json; charset=utf-16', 'multipart/form-data; boundary=x', 'application/x-www-form-urlencoded', '*/*', 'application/json, text/plain']);
        if (ct === '') delete headers['content-type'];
        else headers['content-type'] = ct;
        break;
      }
      case 1: {
        const accept = rng.pick(['', 'text/html', 'application/json', 'text/event-stream', '*/*', 'application/*', 'image/png', 'text/event-stream;q=0, application/json;q=0', 'x'.repeat(3000)]);
        if (accept === '') delete headers.accept;
        else headers.accept = accept;
        break;
      }
      case 2: {
        const other = rng.chance(0.5) && sseSessionIds.length > 0 ? rng.pick(sseSessionIds) : undefined;
        const sid = other ?? rng.pick([rng.hex(22), '', ' ', 'x'.repeat(rng.int(100, 8000)), s.id + 'x', s.id.toUpperCase(), '../' + s.id, '%00', 'null']);
        if (sid === '') delete headers['mcp-session-id'];
        else headers['mcp-session-id'] = sid;
        break;
      }
      case 3:
        headers['mcp-protocol-version'] = rng.pick(['1999-01-01', '', '2025-06-18, 2025-03-26', '2026-07-28', 'x'.repeat(500), 'DRAFT-2026-v1']);
        break;
      case 4:
        headers.origin = rng.chance(0.6) ? rng.pick(FOREIGN_ORIGINS) : rng.pick(LOOPBACK_ORIGINS);
        break;
      case 5:
        headers.host = rng.pick(['evil.example', '127.0.0.1.evil.example', `localhost:${port}`, `127.0.0.1:${port}`, '[::1]', 'LOCALHOST', '127.0.0.2']);
        break;
      default:
        headers[rng.pick(['x-junk', 'last-event-id', 'authorization', 'cookie', 'expect', 'te'])] = rng.pick(['x', 'Bearer ' + rng.hex(40), '100-continue', 'trailers', 'x'.repeat(2000)]);
    }
  }
  // A session opened on another scope is as unknown on this one.
  const path = rng.chance(0.15) ? rng.pick(SCOPES).path : s.path;
  const id = newId(s, rng);
  const spec: HttpSpec = { method: 'POST', path, headers, body: J({ jsonrpc: '2.0', id, method: 'ping' }) };
  const r = await client.request(spec);
  judge('http.headers', spec, r, { ids: new Set([keyOf(id)]) });
  if (r.status === 415 && /^application\/json/i.test(headers['content-type'] ?? '') && !(headers['content-type'] ?? '').includes('application/json')) {
    stats.note('media type matched case-sensitively (RFC 9110: case-insensitive)', describe(spec));
  }
}

async function attackMethods(w: Worker): Promise<void> {
  const rng = w.rng;
  const method = rng.pick(['PUT', 'PATCH', 'HEAD', 'OPTIONS', 'TRACE', 'PROPFIND', 'FOO', 'M-SEARCH', 'PURGE', 'LINK', 'DELETE', 'GET', 'POST', 'QUERY']);
  const s = rng.chance(0.5) ? await w.session() : undefined;
  const target = rng.pick(['/mcp', '/sse', '/messages', '/ws', '/s/fx/mcp', '/s/garbage/sse', '/healthz', '/readyz', `/messages?sessionId=${rng.chance(0.5) && sseSessionIds.length > 0 ? rng.pick(sseSessionIds) : 'x'}`]);
  const headers: Record<string, string> = { ...RPC_HEADERS };
  if (s !== undefined) headers['mcp-session-id'] = s.id;
  if (rng.chance(0.3)) headers.origin = rng.pick(LOOPBACK_ORIGINS);
  const spec: HttpSpec = { method, path: target, headers, ...(rng.chance(0.5) ? { body: J({ jsonrpc: '2.0', id: 1, method: 'ping' }) } : {}), holdStreamMs: 100 };
  const r = await client.request(spec);
  judge('http.methods', spec, r);
  if (method === 'DELETE' && r.status === 200 && s !== undefined && target === s.path) {
    liveHttpSessions.delete(s.id);
    w.sessions.splice(w.sessions.indexOf(s), 1);
  }
}

async function attackPaths(w: Worker): Promise<void> {
  const rng = w.rng;
  const spec: HttpSpec = { method: rng.pick(['GET', 'POST', 'DELETE']), path: randomPath(rng), headers: { ...RPC_HEADERS }, holdStreamMs: 100 };
  if (spec.method === 'POST') spec.body = J({ jsonrpc: '2.0', id: 1, method: 'ping' });
  const r = await client.request(spec);
  judge('http.paths', spec, r);
  // A GET /sse that opened a session: the stream was closed by us, which ends it.
}

async function attackLong(w: Worker): Promise<void> {
  const rng = w.rng;
  const len = rng.weighted([[rng.int(4_000, 15_000), 2], [rng.int(16_000, 120_000), 3]]);
  const spec: HttpSpec = { method: rng.pick(['GET', 'POST']), path: '/mcp', headers: { ...RPC_HEADERS }, fresh: true };
  switch (rng.int(0, 3)) {
    case 0:
      spec.path = `/mcp?${'q'.repeat(len)}`;
      break;
    case 1:
      spec.path = `/s/${'%41'.repeat(Math.floor(len / 3))}/mcp`;
      break;
    case 2:
      (spec.headers as Record<string, string>)['x-long'] = 'v'.repeat(len);
      break;
    default:
      for (let i = 0; i < Math.floor(len / 20); i++) (spec.headers as Record<string, string>)[`x-h${i}`] = 'v';
  }
  if (spec.method === 'POST') spec.body = J({ jsonrpc: '2.0', id: 1, method: 'ping' });
  const r = await client.request(spec);
  judge('http.long', spec, r, { allowReset: true });
}

async function attackGetStream(w: Worker): Promise<void> {
  const rng = w.rng;
  const s = rng.chance(0.8) ? await w.session() : undefined;
  const headers: Record<string, string> = {};
  headers.accept = rng.weighted([['text/event-stream', 6], ['application/json', 1], ['*/*', 1], ['', 1]]);
  if (headers.accept === '') delete headers.accept;
  if (s !== undefined) {
    headers['mcp-session-id'] = rng.chance(0.9) ? s.id : rng.hex(22);
    headers['mcp-protocol-version'] = s.version;
    if (rng.chance(0.5)) headers['last-event-id'] = lastEventId(rng, s.streams);
  }
  const spec: HttpSpec = { method: 'GET', path: s?.path ?? rng.pick(['/mcp', '/s/fx/mcp']), headers, holdStreamMs: rng.int(20, 800) };
  const r = await client.request(spec);
  judge('http.get_stream', spec, r);
}

async function attackDelete(w: Worker): Promise<void> {
  const rng = w.rng;
  const pick = rng.int(0, 4);
  if (pick === 0 && w.sessions.length > 0) {
    const s = rng.pick(w.sessions);
    await deleteSession(w, s, 'http.delete');
    const again: HttpSpec = { method: 'DELETE', path: s.path, headers: { 'mcp-session-id': s.id } };
    judge('http.delete', again, await client.request(again), { status: [404] });
    // The deleted session is gone for every use.
    const after = rpcSpec(s, { jsonrpc: '2.0', id: 1, method: 'ping' });
    judge('http.delete', after, await client.request(after), { status: [404] });
    return;
  }
  const sid = rng.pick([rng.hex(22), '', 'x'.repeat(5000), sseSessionIds.length > 0 ? rng.pick(sseSessionIds) : 'none']);
  const headers: Record<string, string> = sid === '' ? {} : { 'mcp-session-id': sid };
  const spec: HttpSpec = { method: 'DELETE', path: rng.pick(['/mcp', '/s/fx/mcp', '/s/garbage/mcp']), headers };
  judge('http.delete', spec, await client.request(spec), { status: sid === '' ? [400] : [404] });
}

/** Valid-but-weird JSON-RPC inside a real session. */
async function attackWeirdRpc(w: Worker): Promise<void> {
  const rng = w.rng;
  const s = await w.session();
  if (s === undefined) return;
  const id = newId(s, rng);
  const ids = new Set([keyOf(id)]);
  const req = (method: string, params?: unknown): Json => (params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params });
  const tool = s.fx !== undefined ? `${s.fx}echo` : `${s.garbage ?? ''}echo`;
  const junk = (): unknown => rng.pick<unknown>([42, 'x', null, true, [], [1, 2], { a: 1 }]);
  const cases: Array<() => [Json, Expect]> = [
    () => [req(rng.pick(['no/such/method', 'TOOLS/LIST', 'tools/list ', 'rpc.discover', '__proto__', 'constructor', 'toString', 'hasOwnProperty', '', 'sampling/createMessage', 'roots/list', 'notifications/initialized', 'x'.repeat(3000)])), { status: [200], code: -32601 }],
    () => [req('tools/call', { name: junk() }), { status: [200], code: -32602 }],
    () => [req('tools/call', { name: `${tool}x`, arguments: {} }), { status: [200], code: -32602 }],
    () => [req('tools/call'), { status: [200], code: -32602 }],
    () => [req('tools/call', { name: tool, arguments: junk() }), { status: [200] }],
    () => [req('tools/call', { name: tool, arguments: { text: junk() } }), { status: [200] }],
    () => [req('resources/read', { uri: rng.pick<unknown>([42, null, '', {}, []]) }), { status: [200], code: -32602 }],
    () => [req('resources/read', { uri: rng.pick(['fixture://fx/static', 'fixture://fx/item/%zz', 'file:///etc/passwd', 'x'.repeat(2000), '\u0000']) }), { status: [200] }],
    () => [req(rng.pick(['tools/list', 'prompts/list', 'resources/list', 'resources/templates/list']), { cursor: rng.pick<unknown>(['nope', 42, null, {}, 'bzo5OTk5OTk5OTk', '']) }), { status: [200], code: -32602 }],
    () => [req('logging/setLevel', { level: rng.pick<unknown>(['loud', 42, null, 'DEBUG', '']) }), { status: [200], code: -32602 }],
    () => [req('prompts/get', { name: rng.pick<unknown>([42, null, 'nope', 'fx__nope']) }), { status: [200], code: -32602 }],
    () => [req('completion/complete', { ref: rng.pick<unknown>([null, 'x', { type: 'ref/nope' }, { type: 'ref/prompt', name: 42 }]), argument: {} }), { status: [200], code: -32602 }],
    () => [req(rng.pick(['tasks/get', 'tasks/result', 'tasks/cancel']), { taskId: rng.pick<unknown>(['nope', 42, null, '__proto__', 'c1.task-1']) }), { status: [200], code: -32602 }],
    () => [req(rng.pick(['resources/subscribe', 'resources/unsubscribe']), { uri: rng.pick<unknown>([42, '', null]) }), { status: [200], code: -32602 }],
    () => [req('ping', junkValue(rng) as Json), { status: [200, 400] }],
    () => [{ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: rng.pick<unknown>([rng.int(1, 100), String(rng.int(1, 100)), null, {}, 'ctl-1']), reason: junk() } }, { status: [202] }],
    () => [{ jsonrpc: '2.0', method: rng.pick(['notifications/initialized', 'notifications/progress', 'notifications/roots/list_changed', 'notifications/nope', 'notifications/message']), params: { junk: junk() } }, { status: [202] }],
    // 400 too: a junk value of `undefined` serializes away, leaving `{jsonrpc, id}`, which is no message at all.
    () => [{ jsonrpc: '2.0', id: rng.pick<Id>([rng.int(1, 100), 'never-sent', 0]), result: junkValue(rng) }, { status: [202, 400] }],
    () => [{ jsonrpc: '2.0', id: rng.pick<Id>([rng.int(1, 100), 'never-sent']), error: { code: rng.int(-40000, 40000), message: 'x' } }, { status: [202] }],
    () => [{ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'client says parse error' } }, { status: [202] }],
  ];
  const [body, expect] = rng.pick(cases)();
  await rpc('http.weird_rpc', s, body, { ...expect, ids });
}

async function attackGarbageCall(w: Worker): Promise<void> {
  const rng = w.rng;
  const s = await w.session('garbage');
  if (s === undefined || s.garbage === undefined) return;
  const tools = ['echo', 'burst', 'stray', 'twice', 'batch', 'split', 'slow', 'notify', 'silent', 'huge', 'error', 'deep'].filter((t) => !excluded(`garbage.tool.${t}`));
  if (tools.length === 0) return;
  const tool = rng.pick(tools);
  const id = newId(s, rng);
  const text = tagText(rng, `g-w${w.index}`);
  const args: Json = { text };
  let expect: Expect = { ids: new Set([keyOf(id)]), status: [200] };
  const answers: Expect = { ...expect, answer: { id, text } };
  // A timeout, or -32603: the garbage child's stray responses reuse ids it already "answered", and
  // the answer to `huge` was an oversize line the proxy dropped, so a stray `{"id":n}` without a
  // result can land on that still-pending call first. Either way the caller gets exactly one error.
  const timesOut: Expect = { ...expect, answerError: { id, codes: [-32001, -32603] } };
  switch (tool) {
    case 'burst':
      args.n = rng.int(1, 50);
      expect = answers;
      break;
    case 'slow': {
      const ms = rng.chance(0.7) ? rng.int(0, 1200) : rng.int(GARBAGE_TIMEOUT_MS + 800, GARBAGE_TIMEOUT_MS + 2500);
      args.ms = ms;
      expect = ms < GARBAGE_TIMEOUT_MS ? answers : timesOut;
      break;
    }
    case 'silent':
    case 'huge':
      expect = timesOut;
      break;
    case 'error':
      break;
    case 'deep':
      args.depth = rng.int(1_000, 100_000);
      break;
    default:
      expect = answers;
  }
  const meta = rng.chance(0.4) ? { progressToken: rng.pick<Id>([rng.int(1, 50), `p-${rng.hex(6)}`]) } : undefined;
  await rpc('garbage.call', s, call(id, `${s.garbage}${tool}`, args, meta), expect);
}

async function attackFxCall(w: Worker): Promise<void> {
  const rng = w.rng;
  const s = await w.session('fx');
  if (s === undefined || s.fx === undefined) return;
  const fx = s.fx;
  const id = newId(s, rng);
  const ids = new Set([keyOf(id)]);
  const pick = rng.int(0, 12);
  if (pick === 0) {
    // Hang, then cancel: the request stream must end at once, with no answer.
    const hang = rpcSpec(s, call(id, `${fx}hang`, {}));
    s.streams += 1;
    const pending = client.request(hang);
    let finished = false;
    void pending.then(() => (finished = true));
    for (let attempt = 0; attempt < 3 && !finished; attempt++) {
      await sleep(attempt === 0 ? rng.int(30, 300) : 2000);
      if (!finished) await rpc('fx.hang_cancel', s, { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: 'fuzz' } }, { status: [202] });
    }
    const r = await pending;
    judge('fx.hang_cancel', hang, r, { ids, status: [200, 204] });
    if (responses(bodyMessages(String(r.headers['content-type'] ?? ''), r.body).messages).length > 0 && proxyExited === undefined) {
      stats.note('a cancelled request was answered anyway (allowed, but unusual)', describe(hang));
    }
    return;
  }
  if (pick === 1) {
    // The same id twice at once: the second is refused while the first is in flight.
    const first = rpcSpec(s, call(id, `${fx}slow`, { ms: rng.int(300, 800) }));
    s.streams += 1;
    const p = client.request(first);
    await sleep(100);
    await rpc('fx.same_id', s, call(id, `${fx}echo`, { text: 'dup' }), { ids, status: [400, 200] });
    judge('fx.same_id', first, await p, { ids, status: [200] });
    return;
  }
  if (pick === 2) {
    const name = `fz_${w.index}_${rng.hex(6)}`;
    await rpc('fx.call', s, call(id, `${fx}add_tool`, { name }), { ids, status: [200] });
    await sleep(rng.int(0, 100));
    const id2 = newId(s, rng);
    await rpc('fx.call', s, call(id2, `${fx}remove_tool`, { name }), { ids: new Set([keyOf(id2)]), status: [200] });
    return;
  }
  const text = tagText(rng, `fx-w${w.index}`);
  const cases: Array<() => [Json, Expect]> = [
    () => [call(id, `${fx}echo`, { text }), { ids, status: [200], answer: { id, text } }],
    () => [call(id, `${fx}echo`, { text: junkValue(rng) }), { ids, status: [200] }],
    () => [call(id, `${fx}whoami`, {}), { ids, status: [200] }],
    () => [call(id, `${fx}big`, { bytes: rng.int(0, 200_000) }), { ids, status: [200] }],
    () => [call(id, `${fx}structured`, {}), { ids, status: [200] }],
    () => [call(id, `${fx}log`, { level: rng.pick(['debug', 'info', 'emergency', 'bogus']), message: text }), { ids, status: [200] }],
    () => [call(id, `${fx}touch`, { uri: rng.pick(['fixture://fx/static', 'x']) }), { ids, status: [200] }],
    () => [call(id, `${fx}slow`, { ms: rng.int(0, 1500), steps: rng.int(1, 5) }, { progressToken: rng.pick<Id>([rng.int(1, 9), 'tok', rng.int(1e6, 1e9)]) }), { ids, status: [200] }],
    () => [{ jsonrpc: '2.0', id, method: 'tools/call', params: { name: `${fx}echo`, arguments: { text }, task: { ttl: rng.int(1, 60000) } } }, { ids, status: [200] }],
    () => [{ jsonrpc: '2.0', id, method: 'resources/read', params: { uri: rng.pick(['fixture://fx/static', `fixture://fx/item/${rng.hex(4)}`, 'fixture://fx/item/']) } }, { ids, status: [200] }],
    () => [{ jsonrpc: '2.0', id, method: 'prompts/get', params: { name: fx === '' ? 'greet' : 'fx__greet', arguments: rng.pick<unknown>([{ name: 'bob' }, {}, null, 'x']) } }, { ids, status: [200] }],
    () => [{ jsonrpc: '2.0', id, method: rng.pick(['resources/subscribe', 'resources/unsubscribe']), params: { uri: 'fixture://fx/static' } }, { ids, status: [200] }],
  ];
  const [body, expect] = rng.pick(cases)();
  await rpc('fx.call', s, body, expect);
}

async function attackResume(w: Worker): Promise<void> {
  const rng = w.rng;
  const s = await w.session();
  if (s === undefined) return;
  const id = newId(s, rng);
  const useGarbage = s.garbage !== undefined && (s.fx === undefined || rng.chance(0.5)) && !excluded('garbage.tool.slow');
  const name = useGarbage ? `${s.garbage}slow` : `${s.fx ?? ''}slow`;
  const ms = rng.int(200, 1500);
  const meta = rng.chance(0.5) ? { progressToken: rng.int(1, 100) } : undefined;
  const first = rpcSpec(s, call(id, name, { text: 'r', ms }, meta), rng.chance(0.3) ? { accept: 'application/json' } : {});
  s.streams += 1;
  const p = client.request(first);
  await sleep(rng.int(10, 300));
  const get: HttpSpec = {
    method: 'GET', path: s.path,
    headers: { accept: 'text/event-stream', 'mcp-session-id': s.id, 'mcp-protocol-version': s.version, 'last-event-id': lastEventId(rng, s.streams) },
    holdStreamMs: ms + 500,
  };
  const [r1, r2] = await Promise.all([p, client.request(get)]);
  judge('http.resume', first, r1, { ids: new Set([keyOf(id)]) });
  judge('http.resume', get, r2);
}

async function attackOrigin(w: Worker): Promise<void> {
  const rng = w.rng;
  const origin = rng.chance(0.7) ? rng.pick(FOREIGN_ORIGINS) : rng.pick(LOOPBACK_ORIGINS);
  const s = rng.chance(0.5) ? await w.session() : undefined;
  const target = rng.pick(['/mcp', '/sse', '/ws', '/s/fx/mcp', '/messages?sessionId=x', '/nope', '/healthz']);
  const method = rng.pick(['GET', 'POST', 'OPTIONS', 'DELETE']);
  const headers: Record<string, string> = { ...RPC_HEADERS, origin };
  if (s !== undefined && target === s.path) headers['mcp-session-id'] = s.id;
  const spec: HttpSpec = { method, path: target, headers, holdStreamMs: 100, ...(method === 'POST' ? { body: J({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'evil', version: '0' } } }) } : {}) };
  const r = await client.request(spec);
  judge('http.origin', spec, r);
  const sid = r.headers['mcp-session-id'];
  if (typeof sid === 'string') liveHttpSessions.set(sid, target);
  if (method === 'DELETE' && r.status === 200 && s !== undefined && target === s.path) {
    liveHttpSessions.delete(s.id);
    w.sessions.splice(w.sessions.indexOf(s), 1);
  }
}

async function attackSessionChurn(w: Worker): Promise<void> {
  const rng = w.rng;
  const params = rng.pick<unknown>([
    undefined, {}, { protocolVersion: rng.pick<unknown>([42, null, '', '1999-01-01', '2026-07-28', ['2025-06-18'], 'x'.repeat(1000)]) },
    { protocolVersion: '2025-06-18', capabilities: junkValue(rng), clientInfo: junkValue(rng) },
    { protocolVersion: '2025-03-26', capabilities: { sampling: junkValue(rng), roots: { listChanged: 'yes' } } },
  ]);
  const path = rng.pick(['/mcp', '/s/fx/mcp', '/s/garbage/mcp', '/s/nope/mcp']);
  const body: Json = params === undefined ? { jsonrpc: '2.0', id: 0, method: 'initialize' } : { jsonrpc: '2.0', id: 0, method: 'initialize', params };
  const spec: HttpSpec = { method: 'POST', path, headers: { ...RPC_HEADERS }, body: J(body) };
  const r = await client.request(spec);
  judge('http.session_churn', spec, r, { ids: new Set([keyOf(0)]), ...(routeOf(path, SERVERS) === 'none' ? { status: [404] } : { status: [200] }) });
  const sid = r.headers['mcp-session-id'];
  if (typeof sid !== 'string') return;
  if (rng.chance(0.6)) {
    const del: HttpSpec = { method: 'DELETE', path, headers: { 'mcp-session-id': sid } };
    judge('http.session_churn', del, await client.request(del), { status: [200] });
  } else {
    liveHttpSessions.set(sid, path);
  }
}

// ---------- attacks: legacy SSE and WebSocket sessions ----------

/** Who must answer what on a stream session (SSE or WebSocket): pending ids, errors without id, duplicates. */
class Book {
  readonly pending = new Map<string, { id: Id; check: ((m: Json) => string | null) | undefined; label: string }>();
  private readonly answered = new Set<string>();
  private readonly cancelled = new Set<string>();
  nullErrorsExpected = 0;
  nullErrorsSeen = 0;

  constructor(
    private readonly kind: string,
    private readonly rng: Rng,
    private readonly reply: (text: string) => void,
    private readonly context: () => string,
  ) {}

  /** What went out last, for context when something unexpected comes back. */
  readonly sent: string[] = [];

  expect(id: Id, label: string, check?: (m: Json) => string | null): void {
    this.pending.set(keyOf(id), { id, check, label });
  }

  wrote(text: string): void {
    this.sent.push(text.length > 160 ? `${text.slice(0, 160)}… (${text.length} chars)` : text);
    if (this.sent.length > 6) this.sent.shift();
  }

  cancel(id: Id): void {
    if (this.pending.delete(keyOf(id))) this.cancelled.add(keyOf(id));
  }

  receive(raw: string): void {
    if (looksLikeStack(raw)) stats.violation('stack_trace', this.kind, `${raw.slice(0, 300)} (${this.context()})`);
    let m: unknown;
    try {
      m = JSON.parse(raw);
    } catch {
      stats.violation('bad_body', this.kind, `a message that is not JSON: ${raw.slice(0, 200)} (${this.context()})`);
      return;
    }
    checkMessage(this.kind, m, () => `${raw.slice(0, 300)} (${this.context()})`);
    if (!isJsonRpcMessage(m)) return;
    if (typeof m.method === 'string') {
      if (m.id !== undefined) this.reply(junkReply(this.rng, m.id)); // a server-to-client request
      return;
    }
    if (m.id === null) {
      this.nullErrorsSeen += 1;
      if (jsonRpcError(m) === undefined) stats.violation('not_jsonrpc', this.kind, `a response without id that is not an error: ${raw.slice(0, 200)}`);
      return;
    }
    const key = keyOf(m.id);
    const p = this.pending.get(key);
    if (p === undefined) {
      if (this.cancelled.has(key)) return; // cancelled, answered anyway: allowed
      const type = this.answered.has(key) ? 'answered_twice' : 'crossed_answer';
      stats.violation(type, this.kind, `${type === 'answered_twice' ? 'a second answer' : 'an answer nobody asked for'} with id ${J(m.id)}: ${raw.slice(0, 300)} (${this.context()}; last sent: ${this.sent.join(' | ')})`);
      return;
    }
    this.pending.delete(key);
    this.answered.add(key);
    const problem = p.check?.(m) ?? null;
    if (problem !== null) stats.violation('wrong_answer', this.kind, `${p.label}: ${problem} (${this.context()})`);
  }

  /**
   * Waits for every expected answer; reports what never came. At the end of the run the wait is
   * cut to a few seconds, and what is still missing then is not judged (there was no time to).
   */
  async settle(alive: () => boolean, timeoutMs = DEADLINE_MS): Promise<void> {
    const full = now() + timeoutMs;
    const until = Math.min(full, attackUntil + END_GRACE_MS);
    const cut = until < full;
    while (now() < until && alive() && proxyExited === undefined && (this.pending.size > 0 || this.nullErrorsSeen < this.nullErrorsExpected)) await sleep(20);
    // Late duplicates show up in the quiet time after the last answer.
    if (alive()) await sleep(100);
    if (!alive() || proxyExited !== undefined) return;
    if (cut && now() >= until && (this.pending.size > 0 || this.nullErrorsSeen < this.nullErrorsExpected)) {
      stats.note('answers still outstanding when the run ended (not judged)', this.context());
      return;
    }
    for (const p of this.pending.values()) stats.violation('unanswered', this.kind, `no answer within ${timeoutMs} ms for ${p.label} id ${J(p.id)} (${this.context()})`);
    if (this.nullErrorsSeen < this.nullErrorsExpected) {
      stats.violation('unanswered', this.kind, `${this.nullErrorsExpected - this.nullErrorsSeen} of ${this.nullErrorsExpected} malformed messages got no error (${this.context()})`);
    }
  }
}

const codeCheck = (codes: number[]) => (m: Json): string | null => {
  const code = jsonRpcError(m)?.code;
  return code !== undefined && codes.includes(code) ? null : `wanted error ${codes.join('/')}, got ${J(m).slice(0, 200)}`;
};
const echoCheck = (id: Id, text: string) => (m: Json): string | null => echoProblem(m, id, text);

interface StreamTarget { fx: string | undefined; garbage: string | undefined; next: number }

/**
 * One message for a stream session and what must come back: `id` (an answer for that id),
 * `nullError` (an error without id), nothing, or `fatal` (the connection must close).
 */
function streamMessage(rng: Rng, t: StreamTarget, tag: string, transport: 'sse' | 'ws'): { text: string; expectId?: Id; check?: (m: Json) => string | null; label: string; nullError?: boolean } {
  const pick = rng.int(0, 11);
  if (pick <= 3) {
    const v = validRequest(rng, t, tag);
    const check = v.expect.answer !== undefined ? echoCheck(v.expect.answer.id, v.expect.answer.text) : v.expect.answerError !== undefined ? codeCheck(v.expect.answerError.codes) : undefined;
    return { text: J(v.body), expectId: v.id, ...(check ? { check } : {}), label: String(v.body.method) };
  }
  if (pick === 4 && t.garbage !== undefined) {
    const tools = ['echo', 'burst', 'stray', 'twice', 'batch', 'split', 'notify', 'silent', 'huge', 'error', 'deep', 'slow'].filter((x) => !excluded(`garbage.tool.${x}`));
    if (tools.length > 0) {
      const tool = rng.pick(tools);
      const id = newId(t, rng);
      const text = tagText(rng, tag);
      const answersText = ['echo', 'burst', 'stray', 'twice', 'batch', 'split', 'notify', 'slow'].includes(tool);
      const check = answersText ? echoCheck(id, text) : tool === 'silent' || tool === 'huge' ? codeCheck([-32001, -32603]) : undefined;
      return { text: J(call(id, `${t.garbage}${tool}`, { text, ms: rng.int(0, 1000), depth: rng.int(1_000, 60_000) })), expectId: id, ...(check ? { check } : {}), label: `garbage ${tool}` };
    }
  }
  if (pick === 5 && t.fx !== undefined) {
    const id = newId(t, rng);
    const tool = rng.pick(['sample', 'elicit', 'slow', 'log', 'big', 'whoami']);
    return { text: J(call(id, `${t.fx}${tool}`, { prompt: 'p', message: 'm', ms: rng.int(0, 800), bytes: rng.int(0, 100_000) }, { progressToken: rng.int(1, 5) })), expectId: id, label: `fx ${tool}` };
  }
  if (pick === 6) return { text: invalidJson(rng).toString('utf8'), nullError: true, label: 'invalid JSON' };
  if (pick === 7) {
    const { body } = badEnvelope(rng, 0);
    // The error names the request's id when it has a usable one.
    const id = (body as Json | null)?.id;
    if (typeof body === 'object' && body !== null && (typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id)))) {
      const fresh = newId(t, rng);
      (body as Json).id = fresh;
      return { text: J(body), expectId: fresh, check: codeCheck([-32600, -32602]), label: 'bad envelope' };
    }
    return { text: J(body), nullError: true, label: 'bad envelope without id' };
  }
  if (pick === 8) {
    const items = [{ jsonrpc: '2.0', id: newId(t, rng), method: 'ping' }, junkValue(rng)];
    // WebSocket refuses batches outright; legacy SSE takes them apart.
    if (transport === 'ws') return { text: J(items), nullError: true, label: 'batch' };
    return { text: J(items), label: 'batch' };
  }
  if (pick === 9 && !excluded('payload.deep')) {
    const id = newId(t, rng);
    const depth = rng.int(5_000, 60_000);
    return { text: `{"jsonrpc":"2.0","id":${J(id)},"method":"tools/call","params":{"name":"${t.fx !== undefined ? `${t.fx}echo` : `${t.garbage ?? ''}echo`}","arguments":{"text":"n","d":${deepJson(depth, 'array')}}}}`, expectId: id, label: `deep arguments (${depth})` };
  }
  if (pick === 10) {
    return {
      text: J(rng.pick<Json>([
        { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: rng.pick<unknown>([rng.int(1, 100), 'x', null]) } },
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        { jsonrpc: '2.0', method: 'notifications/whatever', params: { x: junkValue(rng) } },
        { jsonrpc: '2.0', id: rng.int(1, 1000), result: junkValue(rng) },
        { jsonrpc: '2.0', id: 'never-sent', error: { code: 1, message: 'x' } },
      ])),
      label: 'notification or stray response',
    };
  }
  const id = newId(t, rng);
  return { text: J({ jsonrpc: '2.0', id, method: 'initialize', params: { protocolVersion: rng.pick(PROTOCOL_VERSIONS), capabilities: {}, clientInfo: { name: 'again', version: '0' } } }), expectId: id, label: 'initialize again' };
}

/** A legacy SSE stream we read ourselves: the endpoint event, then messages. */
function openSse(path: string, headers: Record<string, string>): Promise<{ status: number; endpoint?: string; res?: http.IncomingMessage; req: http.ClientRequest; onMessage: (fn: (data: string) => void) => void; closed: () => boolean; body: () => string }> {
  return new Promise((resolve) => {
    let handler: (data: string) => void = () => {};
    let buf = '';
    let all = '';
    let closed = false;
    let settled = false;
    const req = http.get({ host: '127.0.0.1', port, path, headers, agent: false }, (res) => {
      const status = res.statusCode ?? 0;
      res.setEncoding('utf8');
      res.on('close', () => (closed = true));
      res.on('error', () => (closed = true));
      const api = { status, res, req, onMessage: (fn: (data: string) => void) => (handler = fn), closed: () => closed, body: () => all };
      if (status !== 200 || !String(res.headers['content-type'] ?? '').includes('text/event-stream')) {
        res.on('data', (chunk: string) => (all += chunk));
        res.on('end', () => resolve(api));
        return;
      }
      res.on('data', (chunk: string) => {
        if (all.length < 100_000) all += chunk;
        buf += chunk;
        const { events, rest } = sseEvents(buf);
        buf = rest;
        for (const e of events) {
          if (e.event === 'endpoint' && !settled) {
            settled = true;
            resolve({ ...api, endpoint: e.data });
          } else if (e.event === 'message') handler(e.data);
        }
      });
    });
    req.on('error', () => {
      closed = true;
      if (!settled) resolve({ status: 0, req, onMessage: () => {}, closed: () => true, body: () => '' });
      settled = true;
    });
    setTimeout(() => {
      if (!settled) {
        settled = true;
        resolve({ status: -2, req, onMessage: () => {}, closed: () => closed, body: () => '' });
      }
    }, DEADLINE_MS);
  });
}

async function attackSse(w: Worker): Promise<void> {
  const rng = w.rng;
  const path = rng.pick(['/sse', '/sse', '/s/fx/sse', '/s/garbage/sse']);
  const headers: Record<string, string> = rng.chance(0.1) ? { origin: rng.pick([...FOREIGN_ORIGINS, ...LOOPBACK_ORIGINS]) } : {};
  if (rng.chance(0.2)) headers.accept = rng.pick(['text/event-stream', 'application/json', '*/*']);
  const sse = await openSse(path, headers);
  const kind = 'sse.session';
  const origin = headers.origin;
  stats.record(kind, sse.status === -2 ? 'hang' : String(sse.status));
  if (proxyExited !== undefined) return;
  const openSpec: HttpSpec = { method: 'GET', path, headers };
  if (sse.status === -2) stats.violation('hang', kind, `no endpoint event within ${DEADLINE_MS} ms: ${describe(openSpec)}`);
  if (sse.status >= 500) stats.violation('http_5xx', kind, describe(openSpec));
  if (origin !== undefined && !isLoopbackOrigin(origin) && sse.status !== 403) stats.violation('foreign_origin_accepted', kind, `${origin} -> ${sse.status}`);
  if (sse.endpoint === undefined) {
    sse.req.destroy();
    return;
  }
  const endpoint = sse.endpoint;
  const sessionId = new URLSearchParams(endpoint.slice(endpoint.indexOf('?') + 1)).get('sessionId') ?? '';
  sseSessionIds.push(sessionId);
  if (sseSessionIds.length > 50) sseSessionIds.shift();
  const t: StreamTarget = path === '/sse' ? { fx: 'fx__', garbage: 'garbage__', next: 1 } : path === '/s/fx/sse' ? { fx: '', garbage: undefined, next: 1 } : { fx: undefined, garbage: '', next: 1 };
  const context = (): string => `SSE session on ${path}`;
  const postTo = async (body: Buffer | string, expect: Expect, url = endpoint, method = 'POST'): Promise<HttpResult> => {
    const spec: HttpSpec = { method, path: url, headers: { 'content-type': 'application/json' }, body };
    book.wrote(`${method} ${url === endpoint ? '' : url + ' '}${Buffer.isBuffer(body) ? `<${body.length} bytes>` : body}`);
    const r = await client.request(spec);
    judge('sse.post', spec, r, expect);
    return r;
  };
  const book = new Book(kind, rng, (text) => void postTo(text, { status: [202] }), context);
  sse.onMessage((data) => book.receive(data));
  // initialize first, mostly; a client that skips it is fuzz too.
  if (rng.chance(0.85)) {
    book.expect(0, 'initialize');
    await postTo(J({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2024-11-05', capabilities: rng.chance(0.5) ? { sampling: {}, elicitation: {} } : {}, clientInfo: { name: 'fuzz-sse', version: '0' } } }), { status: [202] });
    await postTo(J({ jsonrpc: '2.0', method: 'notifications/initialized' }), { status: [202] });
  }
  const steps = rng.int(3, 15);
  for (let i = 0; i < steps && !stopping() && !sse.closed(); i++) {
    const action = rng.int(0, 9);
    if (action <= 5) {
      const m = streamMessage(rng, t, `sse-w${w.index}`, 'sse');
      let parses = true;
      let parsed: unknown;
      try {
        parsed = JSON.parse(m.text);
      } catch {
        parses = false;
      }
      if (!parses) {
        await postTo(m.text, { status: [400], code: -32700 });
        continue;
      }
      // A single invalid message is refused on the POST itself; inside a batch, on the stream.
      if (!Array.isArray(parsed) && m.expectId === undefined && m.label.startsWith('bad envelope')) {
        await postTo(m.text, { status: [400], code: -32600 });
        continue;
      }
      if (m.label === 'bad envelope') {
        await postTo(m.text, { status: [400], code: [-32600, -32602] });
        continue;
      }
      // Expected before the POST: answers can come on the stream before its 202 does.
      const ids: Id[] = [];
      let nullErrors = 0;
      if (m.expectId !== undefined) {
        book.expect(m.expectId, m.label, m.check);
        ids.push(m.expectId);
      }
      if (Array.isArray(parsed)) {
        for (const item of parsed) {
          const id = (item as Json | null)?.id;
          if (isJsonRpcMessage(item) && typeof item.method === 'string' && (typeof id === 'string' || typeof id === 'number')) {
            book.expect(id, 'batch item');
            ids.push(id);
          } else nullErrors += 1;
        }
      }
      book.nullErrorsExpected += nullErrors;
      const r = await postTo(m.text, { status: [202] });
      if (r.status !== 202) {
        // Not accepted (judged above): nothing of it is owed on the stream.
        for (const id of ids) book.cancel(id);
        book.nullErrorsExpected -= nullErrors;
      }
    } else if (action === 6) {
      // The wrong session, in every way.
      const other = rng.pick([rng.hex(22), '', `${sessionId}x`, liveHttpSessions.size > 0 ? rng.pick([...liveHttpSessions.keys()]) : 'x', '%zz']);
      const url = rng.pick([`/messages?sessionId=${encodeURIComponent(other)}`, `/messages?sessionId=${other}`, '/messages', `/s/fx/messages?sessionId=${encodeURIComponent(sessionId)}`, `/messages?sessionid=${sessionId}`]);
      const routedToThis = url.endsWith(`sessionId=${encodeURIComponent(sessionId)}`) && endpoint.startsWith(url.slice(0, url.indexOf('?')));
      if (!routedToThis) await postTo(J({ jsonrpc: '2.0', id: 1, method: 'ping' }), { status: [400, 404] }, url);
    } else if (action === 7) {
      await postTo(J([]), { status: [400], code: -32600 });
    } else if (action === 8) {
      const size = MAX_BODY_BYTES + rng.int(1, MAX_BODY_BYTES);
      await postTo(Buffer.alloc(size, 0x20), { status: [413], allowReset: true });
    } else {
      await postTo(J({ jsonrpc: '2.0', id: 1, method: 'ping' }), { status: [405] }, endpoint, rng.pick(['GET', 'PUT', 'DELETE', 'PATCH']));
    }
  }
  await book.settle(() => !sse.closed());
  if (sse.closed() && proxyExited === undefined) stats.note('an SSE attack stream was closed by the proxy', context());
  sse.req.destroy();
  sse.res?.destroy();
}

let stuckRunning = false;
let stuckLast = -Infinity;

/** An SSE client that stops reading while its answers pile up; the proxy must cut it loose, and live. */
async function attackStuckReader(_w: Worker): Promise<void> {
  if (stuckRunning || now() - stuckLast < 40_000 || remainingMs() < 20_000) return;
  stuckRunning = true;
  stuckLast = now();
  try {
    const sse = await openSse('/sse', {});
    stats.record('sse.stuck_reader', String(sse.status));
    if (sse.endpoint === undefined || sse.res === undefined) return;
    sse.res.pause();
    const endpoint = sse.endpoint;
    await client.request({ method: 'POST', path: endpoint, headers: { 'content-type': 'application/json' }, body: J({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 'stuck', version: '0' } } }) });
    const started = now();
    let posted = 0;
    for (let i = 0; i < 220 && !stopping(); i++) {
      const spec: HttpSpec = { method: 'POST', path: endpoint, headers: { 'content-type': 'application/json' }, body: J(call(i + 1, 'fx__big', { bytes: 190_000 })) };
      const r = await client.request(spec);
      judge('sse.stuck_reader', spec, r, { status: [202, 404] });
      posted += 1;
      if (r.status === 404) break; // the proxy already closed the session
    }
    log(`stuck reader: ${posted} big calls posted in ${Math.round(now() - started)} ms; holding the stream unread for 17 s`);
    while (!stopping() && now() - started < 17_000) await sleep(200);
    stats.record('sse.stuck_reader', sse.closed() ? 'closed-by-proxy' : 'still-open');
    sse.res.destroy();
    sse.req.destroy();
  } finally {
    stuckRunning = false;
  }
}

async function attackWs(w: Worker): Promise<void> {
  const rng = w.rng;
  const path = rng.pick(['/ws', '/ws', '/s/fx/ws', '/s/garbage/ws']);
  const protocols = rng.weighted<string[]>([[['mcp'], 8], [[], 1], [['x', 'mcp'], 1], [['other'], 1]]);
  const origin = rng.chance(0.1) ? rng.pick([...FOREIGN_ORIGINS, ...LOOPBACK_ORIGINS]) : undefined;
  const kind = 'ws.session';
  const ws = new WebSocket(`ws://127.0.0.1:${port}${path}`, protocols, { handshakeTimeout: DEADLINE_MS, maxPayload: 256 * 1024 * 1024, ...(origin !== undefined ? { origin } : {}) });
  let closed = false;
  let closeCode = 0;
  const opened = await new Promise<string>((resolve) => {
    ws.on('open', () => resolve('101'));
    ws.on('unexpected-response', (_req, res) => {
      resolve(String(res.statusCode ?? 0));
      res.resume();
      ws.terminate();
    });
    ws.on('error', (error) => resolve(`error:${(error as NodeJS.ErrnoException).code ?? error.message.slice(0, 40)}`));
    ws.on('close', (code) => {
      closed = true;
      closeCode = code;
    });
  });
  stats.record(kind, `upgrade:${opened}`);
  if (proxyExited !== undefined) return;
  if (origin !== undefined && !isLoopbackOrigin(origin) && opened !== '403') stats.violation('foreign_origin_accepted', kind, `WebSocket upgrade with Origin ${origin} -> ${opened}`);
  if (/^5\d\d$/.test(opened)) stats.violation('http_5xx', kind, `WebSocket upgrade ${path} -> ${opened}`);
  if (opened !== '101') return;
  const t: StreamTarget = path === '/ws' ? { fx: 'fx__', garbage: 'garbage__', next: 1 } : path === '/s/fx/ws' ? { fx: '', garbage: undefined, next: 1 } : { fx: undefined, garbage: '', next: 1 };
  const context = (): string => `WebSocket session on ${path}`;
  const send = (text: string | Buffer, opts: { binary?: boolean; fin?: boolean } = {}): void => {
    book.wrote(typeof text === 'string' ? text : `<${text.length} bytes>`);
    if (ws.readyState === ws.OPEN) ws.send(text, { binary: opts.binary ?? false, fin: opts.fin ?? true });
  };
  const book = new Book(kind, rng, (text) => send(text), context);
  ws.on('message', (data, isBinary) => {
    if (isBinary) stats.violation('binary_from_proxy', kind, `a binary frame from the proxy (${context()})`);
    book.receive(Buffer.isBuffer(data) ? data.toString('utf8') : Array.isArray(data) ? Buffer.concat(data).toString('utf8') : Buffer.from(data).toString('utf8'));
  });
  if (rng.chance(0.85)) {
    book.expect(0, 'initialize');
    send(J({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: rng.pick(PROTOCOL_VERSIONS), capabilities: rng.chance(0.6) ? { sampling: {}, elicitation: {} } : {}, clientInfo: { name: 'fuzz-ws', version: '0' } } }));
    send(J({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  }
  const steps = rng.int(3, 20);
  for (let i = 0; i < steps && !stopping() && !closed; i++) {
    const action = rng.int(0, 9);
    if (action <= 6) {
      const m = streamMessage(rng, t, `ws-w${w.index}`, 'ws');
      if (m.expectId !== undefined) book.expect(m.expectId, m.label, m.check);
      if (m.nullError) book.nullErrorsExpected += 1;
      if (action === 6 && m.text.length > 8) {
        // The same message in fragments, cut anywhere in its UTF-8 bytes (even inside a character).
        const bytes = Buffer.from(m.text);
        const cut = rng.int(1, bytes.length - 1);
        book.wrote(m.text);
        if (ws.readyState === ws.OPEN) {
          ws.send(bytes.subarray(0, cut), { binary: false, fin: false });
          ws.send(bytes.subarray(cut), { binary: false, fin: true });
        }
      } else send(m.text);
    } else if (action === 7) {
      ws.ping(rng.bytes(rng.int(0, 125)));
    } else if (action === 8) {
      // Cancel something we have in flight (its answer may or may not come).
      const p = [...book.pending.values()].filter((x) => x.id !== 0);
      if (p.length > 0) {
        const victim = rng.pick(p).id;
        book.cancel(victim);
        send(J({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: victim, reason: 'fuzz' } }));
      }
    } else {
      await sleep(rng.int(0, 200));
    }
    if (rng.chance(0.3)) await sleep(rng.int(0, 50));
  }
  // Last, sometimes: a frame the proxy must close the connection for.
  const fatal = rng.chance(0.3) && !closed ? rng.pick(['binary', 'huge', 'utf8']) : undefined;
  if (fatal === undefined) {
    await book.settle(() => !closed);
    if (closed && proxyExited === undefined) stats.note('a WebSocket attack session was closed by the proxy', `${context()} code ${closeCode}`);
    ws.close(1000);
    return;
  }
  await book.settle(() => !closed);
  if (fatal === 'binary') send(rng.bytes(rng.int(1, 200)), { binary: true });
  else if (fatal === 'huge') send('x'.repeat(MAX_BODY_BYTES + rng.int(1, MAX_BODY_BYTES)));
  else if (ws.readyState === ws.OPEN) ws.send(Buffer.concat([Buffer.from('{"jsonrpc":"2.0","method":"ping","id":"'), invalidUtf8(rng), Buffer.from('"}')]), { binary: false });
  const until = now() + DEADLINE_MS;
  while (!closed && now() < until && proxyExited === undefined) await sleep(20);
  stats.record(`ws.fatal_${fatal}`, closed ? `close:${closeCode}` : 'not-closed');
  const want = { binary: [1003], huge: [1009], utf8: [1007] }[fatal] ?? [];
  if (proxyExited !== undefined) return;
  if (!closed) stats.violation('ws_not_closed', kind, `a ${fatal} frame did not close the connection within ${DEADLINE_MS} ms (${context()})`);
  else if (!want.includes(closeCode)) stats.note(`ws: ${fatal} frame closed with ${closeCode}, not ${want.join('/')}`, context());
  ws.terminate();
}

// ---------- attacks: raw TCP and hand-made WebSocket frames ----------

async function attackRawWs(w: Worker): Promise<void> {
  const rng = w.rng;
  const kind = 'ws.raw';
  const host = `127.0.0.1:${port}`;
  const ping = Buffer.from(J({ jsonrpc: '2.0', id: 7, method: 'ping' }));
  const scenarios: Array<[string, () => Buffer[], 'close' | 'reply' | 'none']> = [
    ['unmasked', () => [wsFrame(1, ping, { mask: false })], 'close'],
    ['rsv', () => [wsFrame(1, ping, { rsv: rng.int(1, 7) })], 'close'],
    ['opcode', () => [wsFrame(rng.pick([3, 4, 5, 6, 7, 11, 12, 13, 14, 15]), ping)], 'close'],
    ['continuation_first', () => [wsFrame(0, ping)], 'close'],
    ['fragments_with_ping', () => [wsFrame(1, ping.subarray(0, 5), { fin: false }), wsFrame(9, Buffer.from('p')), wsFrame(0, ping.subarray(5))], 'reply'],
    ['many_fragments', () => {
      const parts: Buffer[] = [];
      const n = rng.int(2, Math.min(200, ping.length));
      const step = Math.ceil(ping.length / n);
      for (let i = 0; i < ping.length; i += step) parts.push(wsFrame(i === 0 ? 1 : 0, ping.subarray(i, i + step), { fin: i + step >= ping.length }));
      return parts;
    }, 'reply'],
    ['fragment_then_text', () => [wsFrame(1, ping.subarray(0, 5), { fin: false }), wsFrame(1, ping)], 'close'],
    ['big_control', () => [wsFrame(9, rng.bytes(rng.int(126, 2000)))], 'close'],
    ['fragmented_control', () => [wsFrame(9, Buffer.from('x'), { fin: false })], 'close'],
    ['bad_close_code', () => [wsFrame(8, Buffer.from([...[rng.pick([0, 999, 1004, 1005, 1006, 1015, 2999, 5000, 65535])].flatMap((c) => [c >> 8, c & 0xff])]))], 'close'],
    ['short_close', () => [wsFrame(8, Buffer.from([3]))], 'close'],
    ['close_bad_utf8', () => [wsFrame(8, Buffer.concat([Buffer.from([0x03, 0xe8]), invalidUtf8(rng)]))], 'close'],
    ['huge_length', () => [wsFrame(1, Buffer.alloc(0), { lengthOverride: 2n ** 63n - 1n })], 'close'],
    ['over_max_payload', () => [wsFrame(1, Buffer.alloc(0), { lengthOverride: BigInt(MAX_BODY_BYTES + rng.int(1, 1 << 20)) })], 'close'],
    ['bad_utf8_text', () => [wsFrame(1, Buffer.concat([Buffer.from('{"x":"'), invalidUtf8(rng), Buffer.from('"}')]))], 'close'],
    ['partial_frame', () => [wsFrame(1, ping).subarray(0, rng.int(1, ping.length))], 'none'],
    ['valid', () => [wsFrame(1, ping)], 'reply'],
    ['close_normal', () => [wsFrame(8, Buffer.from([0x03, 0xe8]))], 'close'],
  ];
  const [name, frames, want] = rng.pick(scenarios);
  const handshake = wsHandshake(rng.pick(['/ws', '/s/fx/ws']), host);
  const r = await rawExchange('127.0.0.1', port, [handshake, ...frames()], {
    gapMs: rng.int(0, 20), deadlineMs: DEADLINE_MS, ...(want === 'close' ? {} : { holdMs: want === 'reply' ? 3000 : rng.int(100, 1000) }),
  });
  const head = r.data.toString('latin1');
  const status = rawStatuses(r.data)[0] ?? 0;
  const frameData = r.data.subarray(head.indexOf('\r\n\r\n') + 4);
  const serverFrames = parseServerFrames(frameData);
  const close = serverFrames.find((f) => f.opcode === 8);
  const closeCode = close !== undefined && close.payload.length >= 2 ? close.payload.readUInt16BE(0) : 0;
  const replied = serverFrames.some((f) => f.opcode === 1 && f.payload.toString('utf8').includes('"id":7'));
  stats.record(`${kind}.${name}`, status !== 101 ? `status:${status}` : want === 'close' ? (r.end === 'server' ? `close:${closeCode}` : r.end) : replied ? 'replied' : r.end);
  if (proxyExited !== undefined) return;
  if (status >= 500) stats.violation('http_5xx', kind, `${name}: ${head.slice(0, 200)}`);
  if (status !== 101) return;
  if (want === 'close' && r.end !== 'server') stats.violation('ws_not_closed', kind, `${name}: the connection was not closed within ${DEADLINE_MS} ms (${r.end})`);
  if (want === 'reply' && !replied) stats.violation('unanswered', kind, `${name}: no answer to a valid fragmented ping within 3 s`);
}

function parseServerFrames(buf: Buffer): Array<{ opcode: number; payload: Buffer }> {
  const frames: Array<{ opcode: number; payload: Buffer }> = [];
  let at = 0;
  while (at + 2 <= buf.length) {
    const b0 = buf[at] as number;
    const b1 = buf[at + 1] as number;
    let len = b1 & 0x7f;
    let off = at + 2;
    if (len === 126) {
      if (off + 2 > buf.length) break;
      len = buf.readUInt16BE(off);
      off += 2;
    } else if (len === 127) {
      if (off + 8 > buf.length) break;
      len = Number(buf.readBigUInt64BE(off));
      off += 8;
    }
    if (off + len > buf.length) break;
    frames.push({ opcode: b0 & 0x0f, payload: buf.subarray(off, off + len) });
    at = off + len;
  }
  return frames;
}

async function attackBadUpgrade(w: Worker): Promise<void> {
  const rng = w.rng;
  const host = `127.0.0.1:${port}`;
  const variants: Array<[string, () => Buffer]> = [
    ['no_key', () => wsHandshake('/ws', host, {}, ['sec-websocket-key'])],
    ['bad_key', () => wsHandshake('/ws', host, { 'sec-websocket-key': rng.pick(['x', '', 'a'.repeat(100), '====']) })],
    ['version_8', () => wsHandshake('/ws', host, { 'sec-websocket-version': rng.pick(['8', '0', '99', 'x']) })],
    ['h2c', () => wsHandshake('/ws', host, { upgrade: 'h2c' })],
    ['wrong_path', () => wsHandshake(rng.pick(['/mcp', '/sse', '/s/nope/ws', '/s/%zz/ws', '/wss', '/ws/']), host)],
    ['foreign_origin', () => wsHandshake('/ws', host, { origin: rng.pick(FOREIGN_ORIGINS) })],
    ['foreign_host', () => wsHandshake('/ws', 'evil.example')],
    ['no_protocol', () => wsHandshake('/ws', host, {}, ['sec-websocket-protocol'])],
    ['odd_protocol', () => wsHandshake('/ws', host, { 'sec-websocket-protocol': rng.pick(['', ',,,', 'mcp, mcp', 'a b', 'x'.repeat(3000)]) })],
    ['post_upgrade', () => Buffer.from(wsHandshake('/ws', host).toString('latin1').replace('GET ', 'POST '))],
    ['no_upgrade', () => Buffer.from(`GET /ws HTTP/1.1\r\nhost: ${host}\r\n\r\n`)],
  ];
  const [name, make] = rng.pick(variants);
  const r = await rawExchange('127.0.0.1', port, [make()], { deadlineMs: DEADLINE_MS, holdMs: 1500 });
  const status = rawStatuses(r.data)[0] ?? 0;
  stats.record(`ws.bad_upgrade.${name}`, status === 0 ? r.end : String(status));
  if (proxyExited !== undefined) return;
  if (status >= 500) stats.violation('http_5xx', 'ws.bad_upgrade', `${name}: ${r.data.toString('latin1').slice(0, 300)}`);
  if (status === 0 && r.end !== 'server') stats.violation('hang', 'ws.bad_upgrade', `${name}: no status line within ${r.end === 'client' ? '1.5 s' : `${DEADLINE_MS} ms`}`);
  if ((name === 'foreign_origin' || name === 'foreign_host') && status !== 403) stats.violation(name === 'foreign_origin' ? 'foreign_origin_accepted' : 'foreign_host_accepted', 'ws.bad_upgrade', `${name} -> ${status}`);
}

function requestBytes(method: string, target: string, headers: Record<string, string>, body = ''): Buffer {
  const lines = [`${method} ${target} HTTP/1.1`, `host: 127.0.0.1:${port}`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
  if (body !== '' && !('transfer-encoding' in headers) && !('content-length' in headers)) lines.push(`content-length: ${Buffer.byteLength(body)}`);
  return Buffer.from(`${lines.join('\r\n')}\r\n\r\n${body}`);
}

async function attackTcp(w: Worker): Promise<void> {
  const rng = w.rng;
  const ping = J({ jsonrpc: '2.0', id: 1, method: 'ping' });
  const initialize = J({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } } });
  const valid = requestBytes('POST', '/mcp', { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, initialize);
  const pick = rng.int(0, 5);
  let name: string;
  let r;
  if (pick === 0) {
    name = 'garbage';
    // A first byte that cannot start a method, so the parser fails at once.
    const bytes = Buffer.concat([Buffer.from([rng.pick([0x00, 0x16, 0x80, 0xff, 0x20, 0x7b, 0x0d])]), rng.bytes(rng.int(0, 4000))]);
    r = await rawExchange('127.0.0.1', port, [bytes], { deadlineMs: DEADLINE_MS });
    if (r.end === 'timeout') stats.violation('hang', 'tcp.garbage', `the proxy neither answered nor closed within ${DEADLINE_MS} ms after ${bytes.length} junk bytes starting ${bytes.subarray(0, 8).toString('hex')}`);
  } else if (pick === 1) {
    const cut = rng.int(1, valid.length - 1);
    const end = rng.pick(['fin', 'rst', 'stall'] as const);
    name = `half_${end}`;
    r = await rawExchange('127.0.0.1', port, [valid.subarray(0, cut)], end === 'fin' ? { deadlineMs: DEADLINE_MS, halfClose: true } : end === 'rst' ? { deadlineMs: DEADLINE_MS, reset: true } : { deadlineMs: DEADLINE_MS, holdMs: rng.int(100, 2000) });
    if (end === 'fin' && r.end === 'timeout') stats.note('a request cut short with FIN kept its connection open for 10 s', `cut at ${cut}/${valid.length}: ${printable(valid.subarray(0, Math.min(cut, 120)))}`);
  } else if (pick === 2) {
    name = 'pipelined';
    const reqs = Array.from({ length: rng.int(2, 6) }, () => rng.pick([
      requestBytes('GET', '/healthz', {}),
      requestBytes('POST', '/mcp', { 'content-type': 'application/json', accept: 'application/json' }, ping),
      requestBytes('POST', '/mcp', { 'content-type': 'application/json', accept: 'application/json' }, '{bad'),
      Buffer.from('GARBAGE / HTTP/1.1\r\n\r\n'),
      requestBytes('DELETE', '/mcp', { 'mcp-session-id': 'nope' }),
    ]));
    r = await rawExchange('127.0.0.1', port, [Buffer.concat(reqs)], { deadlineMs: DEADLINE_MS, holdMs: 1500 });
  } else if (pick === 3) {
    const smuggles: Array<[string, Buffer]> = [
      ['cl_te', Buffer.from(`POST /mcp HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: 5\r\ntransfer-encoding: chunked\r\n\r\n0\r\n\r\n`)],
      ['double_cl', Buffer.from(`POST /mcp HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-length: 2\r\ncontent-length: 3\r\n\r\n{}`)],
      ['negative_cl', Buffer.from(`POST /mcp HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-length: -1\r\n\r\n`)],
      ['bad_chunk', Buffer.from(`POST /mcp HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`)],
      ['chunk_ext', Buffer.from(`POST /mcp HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n2;${'e'.repeat(20000)}\r\n{}\r\n0\r\n\r\n`)],
      ['obs_fold', Buffer.from(`GET /healthz HTTP/1.1\r\nhost: 127.0.0.1\r\nx-a: b\r\n  folded\r\n\r\n`)],
      ['no_colon', Buffer.from(`GET /healthz HTTP/1.1\r\nhost: 127.0.0.1\r\nnocolon\r\n\r\n`)],
      ['nul_header', Buffer.from(`GET /healthz HTTP/1.1\r\nhost: 127.0.0.1\r\nx-a: b\u0000c\r\n\r\n`)],
      ['lf_only', Buffer.from(`GET /healthz HTTP/1.1\nhost: 127.0.0.1\n\n`)],
      ['absolute_uri', Buffer.from(`GET http://127.0.0.1:${port}/mcp HTTP/1.1\r\nhost: 127.0.0.1\r\naccept: text/event-stream\r\n\r\n`)],
      ['http09', Buffer.from('GET /mcp\r\n')],
      ['http2_preface', Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n')],
      ['lowercase_method', Buffer.from('get /healthz HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n')],
      ['long_method', Buffer.from(`${'A'.repeat(20000)} /mcp HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n`)],
      ['connect', Buffer.from(`CONNECT 127.0.0.1:${port} HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n`)],
      ['http10', Buffer.from('POST /mcp HTTP/1.0\r\ncontent-type: application/json\r\naccept: application/json\r\ncontent-length: 2\r\n\r\n{}')],
      ['utf8_path', Buffer.concat([Buffer.from('GET /s/'), invalidUtf8(rng), Buffer.from('/mcp HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n')])],
      ['utf8_header', Buffer.concat([Buffer.from('POST /mcp HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\nmcp-session-id: '), invalidUtf8(rng), Buffer.from('\r\ncontent-length: 2\r\n\r\n{}')])],
    ];
    const [what, bytes] = rng.pick(smuggles);
    name = `smuggle_${what}`;
    r = await rawExchange('127.0.0.1', port, [bytes], { deadlineMs: DEADLINE_MS, holdMs: 1500 });
  } else if (pick === 4) {
    name = 'slowloris';
    const bytes = requestBytes('GET', '/healthz', {});
    const parts = Array.from({ length: bytes.length }, (_, i) => bytes.subarray(i, i + 1));
    r = await rawExchange('127.0.0.1', port, parts, { gapMs: rng.int(1, 8), deadlineMs: DEADLINE_MS, holdMs: 500 });
    if (rawStatuses(r.data)[0] !== 200 && proxyExited === undefined) stats.violation('unanswered', 'tcp.slowloris', `a GET /healthz sent a byte at a time got ${rawStatuses(r.data)[0] ?? 'no answer'} (${r.end})`);
  } else {
    name = 'early_close';
    // A real call whose answer comes after the client hung up: the proxy writes to a closed connection.
    const s = await w.session('fx');
    const body = J(call(s !== undefined ? newId(s, rng) : 1, `${s?.fx ?? 'fx__'}slow`, { ms: rng.int(0, 300) }));
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: rng.pick(['application/json', 'application/json, text/event-stream']) };
    if (s !== undefined) Object.assign(headers, { 'mcp-session-id': s.id, 'mcp-protocol-version': s.version });
    r = await rawExchange('127.0.0.1', port, [requestBytes('POST', s?.path ?? '/mcp', headers, body)], { deadlineMs: DEADLINE_MS, holdMs: rng.int(0, 30) });
  }
  const statuses = rawStatuses(r.data);
  stats.record(`tcp.${name}`, statuses.length > 0 ? statuses.join('+') : r.end);
  if (proxyExited !== undefined) return;
  if (statuses.some((s) => s >= 500)) stats.violation('http_5xx', `tcp.${name}`, r.data.toString('latin1').slice(0, 400));
  if (looksLikeStack(r.data.toString('utf8'))) stats.violation('stack_trace', `tcp.${name}`, r.data.toString('utf8').slice(0, 400));
}

// ---------- the control group ----------

interface ControlStats { ok: number; failed: number; notifications: number; failures: Map<string, number> }

abstract class Control {
  readonly st: ControlStats = { ok: 0, failed: 0, notifications: 0, failures: new Map() };
  protected seq = 0;
  protected readonly rng: Rng;
  protected readonly answered = new Set<string>();
  running = true;

  constructor(readonly name: string, root: Rng, protected readonly concurrency: number) {
    this.rng = root.fork(`control-${name}`);
  }

  abstract open(): Promise<void>;
  abstract close(): Promise<void>;
  protected abstract runOne(): Promise<void>;

  protected next(): { id: Id; text: string } {
    const seq = ++this.seq;
    // Numbers and strings, colliding on purpose with the ids attackers use in their own sessions.
    const id: Id = seq % 2 === 1 ? seq : `${seq}`;
    return { id, text: tagText(this.rng, `ctl:${this.name}:${seq}`, this.rng.chance(0.05) ? 40_000 : 64) };
  }

  fail(type: string, detail: string): void {
    this.st.failed += 1;
    this.st.failures.set(type, (this.st.failures.get(type) ?? 0) + 1);
    if (proxyExited === undefined) stats.violation(`control_${type}`, `control.${this.name}`, detail);
  }

  judgeAnswer(msg: Json | undefined, id: Id, text: string): void {
    const problem = echoProblem(msg, id, text);
    if (problem === null) this.st.ok += 1;
    else this.fail(msg === undefined ? 'lost' : 'wrong', `call ${J(id)}: ${problem}`);
  }

  async loop(): Promise<void> {
    await Promise.all(Array.from({ length: this.concurrency }, async () => {
      while (this.running && !stopping()) {
        await this.runOne();
        await sleep(this.rng.int(0, 6));
      }
    }));
  }
}

class HttpControl extends Control {
  private sid = '';
  private readonly http = new HttpClient('127.0.0.1', port, DEADLINE_MS);

  constructor(name: string, root: Rng, private readonly path: string, private readonly tool: string, private readonly version: string, private readonly batch: boolean, concurrency: number) {
    super(name, root, concurrency);
  }

  private headers(): Record<string, string> {
    return { ...RPC_HEADERS, 'mcp-session-id': this.sid, 'mcp-protocol-version': this.version };
  }

  async open(): Promise<void> {
    const r = await this.http.request({
      method: 'POST', path: this.path, headers: { ...RPC_HEADERS },
      body: J({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: this.version, capabilities: {}, clientInfo: { name: `control-${this.name}`, version: '0' } } }),
    });
    const sid = r.headers['mcp-session-id'];
    if (r.status !== 200 || typeof sid !== 'string') throw new Error(`control ${this.name}: initialize -> ${r.status} ${r.body.slice(0, 200)}`);
    this.sid = sid;
    const done = await this.http.request({ method: 'POST', path: this.path, headers: this.headers(), body: J({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
    if (done.status !== 202) throw new Error(`control ${this.name}: notifications/initialized -> ${done.status}`);
  }

  protected async runOne(): Promise<void> {
    const calls = Array.from({ length: this.batch ? this.rng.int(1, 4) : 1 }, () => this.next());
    const messages = calls.map(({ id, text }) => call(id, this.tool, { text }));
    const r = await this.http.request({ method: 'POST', path: this.path, headers: this.headers(), body: J(this.batch ? messages : messages[0]) });
    if (r.hung || r.status !== 200) {
      for (const c of calls) this.fail(r.hung ? 'lost' : 'http', `call ${J(c.id)}: HTTP ${r.hung ? 'no answer in 10 s' : r.status} ${r.error ?? ''} ${r.body.slice(0, 200)}`);
      return;
    }
    const parsed = bodyMessages(String(r.headers['content-type'] ?? ''), r.body);
    if (parsed.bad !== undefined) this.fail('wrong', parsed.bad);
    this.st.notifications += parsed.messages.filter((m) => isJsonRpcMessage(m) && typeof m.method === 'string').length;
    const got = responses(parsed.messages);
    for (const c of calls) {
      const mine = got.filter((m) => m.id === c.id);
      if (mine.length > 1) this.fail('duplicate', `call ${J(c.id)} answered ${mine.length} times`);
      this.judgeAnswer(mine[0], c.id, c.text);
    }
    for (const m of got) {
      if (!calls.some((c) => c.id === m.id)) this.fail('crossed', `an answer for id ${J(m.id)} this control did not ask: ${J(m).slice(0, 300)}`);
    }
  }

  async close(): Promise<void> {
    const r = await this.http.request({ method: 'DELETE', path: this.path, headers: { 'mcp-session-id': this.sid } });
    if (r.status !== 200 && proxyExited === undefined) this.fail('http', `DELETE -> ${r.status}`);
  }
}

/** A control over one long-lived connection (SSE or WebSocket): calls pipelined, answers matched by id. */
abstract class StreamControl extends Control {
  protected readonly pending = new Map<string, { id: Id; text: string; done: (msg: Json | undefined) => void }>();
  protected closing = false;

  protected abstract sendText(text: string): Promise<void>;

  protected onData(raw: string): void {
    let msg: unknown;
    try {
      msg = JSON.parse(raw);
    } catch {
      this.fail('wrong', `a message that is not JSON: ${raw.slice(0, 200)}`);
      return;
    }
    if (!isJsonRpcMessage(msg)) {
      this.fail('wrong', `a message that is not JSON-RPC: ${raw.slice(0, 200)}`);
      return;
    }
    if (typeof msg.method === 'string') {
      if (msg.id !== undefined) this.fail('crossed', `a server request reached a control session: ${raw.slice(0, 200)}`);
      else this.st.notifications += 1;
      return;
    }
    const key = keyOf(msg.id);
    const p = this.pending.get(key);
    if (p === undefined) {
      this.fail(this.answered.has(key) ? 'duplicate' : 'crossed', `an answer with id ${J(msg.id)} nobody here is waiting for: ${raw.slice(0, 300)}`);
      return;
    }
    this.pending.delete(key);
    this.answered.add(key);
    p.done(msg);
  }

  protected request(id: Id, body: string): Promise<Json | undefined> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.pending.delete(keyOf(id));
        this.answered.add(keyOf(id)); // a late answer then counts as a duplicate, not as crossed
        resolve(undefined);
      }, DEADLINE_MS);
      this.pending.set(keyOf(id), { id, text: '', done: (msg) => { clearTimeout(timer); resolve(msg); } });
      this.sendText(body).catch((error: unknown) => this.fail('http', `send: ${(error as Error).message}`));
    });
  }

  protected async handshake(): Promise<void> {
    const init = await this.request(0, J({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: `control-${this.name}`, version: '0' } } }));
    if (init === undefined || init.result === undefined) throw new Error(`control ${this.name}: initialize failed: ${J(init)}`);
    await this.sendText(J({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  }

  protected async runOne(): Promise<void> {
    const { id, text } = this.next();
    const msg = await this.request(id, J(call(id, 'fx__echo', { text })));
    this.judgeAnswer(msg, id, text);
  }

  /** Waits (bounded) for calls still in flight, so none is cut off by closing. */
  protected async drain(): Promise<void> {
    for (const until = now() + DEADLINE_MS + 500; this.pending.size > 0 && now() < until && proxyExited === undefined; ) await sleep(20);
  }
}

class SseControl extends StreamControl {
  private endpoint = '';
  private res: http.IncomingMessage | undefined;
  private req: http.ClientRequest | undefined;
  private readonly http = new HttpClient('127.0.0.1', port, DEADLINE_MS);

  async open(): Promise<void> {
    const sse = await openSse('/sse', {});
    if (sse.endpoint === undefined || sse.res === undefined) throw new Error(`control ${this.name}: GET /sse -> ${sse.status}`);
    this.endpoint = sse.endpoint;
    this.res = sse.res;
    this.req = sse.req;
    sse.onMessage((data) => this.onData(data));
    sse.res.on('close', () => {
      if (!this.closing) this.fail('stream_closed', 'the control SSE stream closed');
    });
    await this.handshake();
  }

  protected async sendText(text: string): Promise<void> {
    const r = await this.http.request({ method: 'POST', path: this.endpoint, headers: { 'content-type': 'application/json' }, body: text });
    if (r.status !== 202) this.fail('http', `POST ${this.endpoint} -> ${r.hung ? 'no answer' : r.status} ${r.body.slice(0, 200)}`);
  }

  async close(): Promise<void> {
    await this.drain();
    this.closing = true;
    this.res?.destroy();
    this.req?.destroy();
  }
}

class WsControl extends StreamControl {
  private ws: WebSocket | undefined;

  constructor(name: string, root: Rng, private readonly path: string, private readonly tool: string, concurrency: number) {
    super(name, root, concurrency);
  }

  async open(): Promise<void> {
    const ws = new WebSocket(`ws://127.0.0.1:${port}${this.path}`, 'mcp');
    this.ws = ws;
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    ws.on('message', (data) => this.onData(String(data)));
    ws.on('close', (code) => {
      if (!this.closing) this.fail('stream_closed', `the control WebSocket closed (${code})`);
    });
    await this.handshake();
  }

  protected async sendText(text: string): Promise<void> {
    if (this.ws?.readyState !== WebSocket.OPEN) throw new Error('socket not open');
    this.ws.send(text);
  }

  protected override async runOne(): Promise<void> {
    const { id, text } = this.next();
    const msg = await this.request(id, J(call(id, this.tool, { text })));
    this.judgeAnswer(msg, id, text);
  }

  async close(): Promise<void> {
    await this.drain();
    this.closing = true;
    this.ws?.close(1000);
  }
}

// ---------- health ----------

const health = { ok: 0, failed: 0, maxMs: 0 };
let healthRunning = true;

async function healthLoop(): Promise<void> {
  const probe = new HttpClient('127.0.0.1', port, 5000);
  while (healthRunning && proxyExited === undefined) {
    const r = await probe.request({ method: 'GET', path: '/healthz' });
    health.maxMs = Math.max(health.maxMs, r.ms);
    if (r.status === 200 && r.body.includes('"ok"')) health.ok += 1;
    else if (proxyExited === undefined && healthRunning) {
      health.failed += 1;
      stats.violation('healthz', 'healthz', `GET /healthz -> ${r.hung ? 'no answer in 5 s' : r.status} ${r.error ?? ''} ${r.body.slice(0, 200)}`);
    }
    await sleep(250);
  }
}

// ---------- main ----------

const ATTACKS: Array<readonly [string, number, (w: Worker) => Promise<void>]> = [
  ['http.invalid_json', 6, attackInvalidJson],
  ['http.bad_envelope', 6, attackBadEnvelope],
  ['http.batch', 4, attackBatch],
  ['http.nested', 3, attackNested],
  ['http.huge_body', 2, attackHugeBody],
  ['http.utf8', 3, attackUtf8],
  ['http.headers', 6, attackHeaders],
  ['http.methods', 4, attackMethods],
  ['http.paths', 4, attackPaths],
  ['http.long', 2, attackLong],
  ['http.get_stream', 3, attackGetStream],
  ['http.delete', 2, attackDelete],
  ['http.weird_rpc', 8, attackWeirdRpc],
  ['http.resume', 3, attackResume],
  ['http.origin', 3, attackOrigin],
  ['http.session_churn', 2, attackSessionChurn],
  ['garbage.call', 8, attackGarbageCall],
  ['fx.call', 5, attackFxCall],
  ['sse.session', 4, attackSse],
  ['sse.stuck_reader', 1, attackStuckReader],
  ['ws.session', 5, attackWs],
  ['ws.raw', 4, attackRawWs],
  ['ws.bad_upgrade', 2, attackBadUpgrade],
  ['tcp', 4, attackTcp],
];

async function workerLoop(w: Worker, attacks: ReadonlyArray<readonly [string, number, (w: Worker) => Promise<void>]>): Promise<void> {
  const entries = attacks.map((a) => [a, a[1]] as const);
  // The stuck reader needs 20 s of run left: worker 0 starts with it.
  if (w.index === 0 && attacks.some(([k]) => k === 'sse.stuck_reader')) await attackStuckReader(w).catch(() => undefined);
  while (!stopping()) {
    attacksStarted += 1;
    const [kind, , fn] = w.rng.weighted(entries);
    try {
      await fn(w);
    } catch (error) {
      stats.note(`fuzzer error in ${kind}`, (error as Error).stack ?? String(error));
    }
  }
}

interface Ready { ready: boolean; sessions: number; servers: Record<string, { state: string; restarts: number; tools: number }> }

async function readyz(): Promise<Ready | undefined> {
  const r = await new HttpClient('127.0.0.1', port, 5000).request({ method: 'GET', path: '/readyz' });
  try {
    return JSON.parse(r.body) as Ready;
  } catch {
    return undefined;
  }
}

function scanLog(): { levels: Record<string, number>; top: Array<[string, number]>; errors: string[]; exceptions: string[] } {
  const levels: Record<string, number> = {};
  const messages = new Map<string, number>();
  const errors: string[] = [];
  /** Lines where the proxy logged an exception it caught (a bug even when answered). */
  const exceptions: string[] = [];
  let text = '';
  try {
    text = fs.readFileSync(LOG_FILE, 'utf8');
  } catch {
    return { levels, top: [], errors, exceptions };
  }
  const names: Record<number, string> = { 10: 'trace', 20: 'debug', 30: 'info', 40: 'warn', 50: 'error', 60: 'fatal' };
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    let entry: { level?: number; msg?: string; err?: unknown };
    try {
      entry = JSON.parse(line) as typeof entry;
    } catch {
      levels['non-JSON'] = (levels['non-JSON'] ?? 0) + 1;
      if (errors.length < 40) errors.push(line.slice(0, 300));
      continue;
    }
    const level = names[entry.level ?? 0] ?? String(entry.level);
    levels[level] = (levels[level] ?? 0) + 1;
    const key = `${level}: ${entry.msg ?? ''}`;
    messages.set(key, (messages.get(key) ?? 0) + 1);
    if ((entry.level ?? 0) >= 50 && errors.length < 40) errors.push(line.slice(0, 400));
    if ((entry.level ?? 0) >= 50 && /handler failed|uncaught|unhandled/i.test(entry.msg ?? '')) exceptions.push(line.slice(0, 400));
  }
  return { levels, top: [...messages.entries()].sort((a, b) => b[1] - a[1]).slice(0, 12), errors, exceptions };
}

async function main(): Promise<number> {
  const root = new Rng(SEED);
  log(`seed ${SEED} (replay with --seed ${SEED}); ${SECONDS} s of attacks, ${WORKERS} workers${EXCLUDE.length > 0 ? `, excluding ${EXCLUDE.join(',')}` : ''}; temp ${TEMP}`);
  await startProxy();
  client = new HttpClient('127.0.0.1', port, DEADLINE_MS);
  const rssStart = rssMb(proxyPid);
  log(`proxy pid ${proxyPid} on 127.0.0.1:${port} ready`);

  const controls: Control[] = [
    new HttpControl('http', root, '/mcp', 'fx__echo', '2025-06-18', false, 2),
    new HttpControl('http-batch', root, '/mcp', 'fx__echo', '2025-03-26', true, 1),
    new HttpControl('http-fx', root, '/s/fx/mcp', 'echo', '2025-11-25', false, 1),
    new SseControl('sse', root, 3),
    new WsControl('ws', root, '/ws', 'fx__echo', 3),
  ];
  for (const c of controls) await c.open();
  log(`control group open: ${controls.map((c) => c.name).join(', ')}`);

  const healthDone = healthLoop();
  attackUntil = now() + SECONDS * 1000;
  const controlDone = Promise.all(controls.map((c) => c.loop()));
  const attacks = ATTACKS.filter(([k]) => !excluded(k));
  const workers = Array.from({ length: WORKERS }, (_, i) => new Worker(i, root));
  const progress = setInterval(() => {
    const ok = controls.reduce((n, c) => n + c.st.ok, 0);
    log(`${elapsed().toFixed(0)} s: ${stats.total()} attacker requests, ${ok} control calls ok, ${stats.violations.length} violations`);
  }, 10_000);
  await Promise.all(workers.map((w) => workerLoop(w, attacks)));
  clearInterval(progress);
  log(`attacks stopped after ${elapsed().toFixed(1)} s (${attacksStarted} attacks started)`);
  for (const c of controls) c.running = false;
  await controlDone;

  // Afterwards: the proxy still serves a fresh session correctly, from both children.
  if (proxyExited === undefined) {
    const fresh = new Worker(WORKERS, root);
    const s = await openSession(fresh, SCOPES[0] as Scope, 'post_run');
    if (s === undefined) stats.violation('post_run', 'post_run', 'a fresh session could not be opened');
    else {
      for (const tool of ['fx__echo', 'garbage__echo']) {
        const text = `after:${tool}`;
        const id = newId(s, fresh.rng);
        const r = await rpc('post_run', s, call(id, tool, { text }), { status: [200], answer: { id, text } });
        if (r.status !== 200) stats.violation('post_run', 'post_run', `${tool} after the run -> ${r.status}`);
      }
      await deleteSession(fresh, s, 'post_run');
    }
  }
  for (const c of controls) await c.close().catch((error: unknown) => stats.note('control close failed', String(error)));
  // Every session attackers left open, closed now; then the proxy must hold none.
  const leftovers = [...liveHttpSessions.entries()];
  await Promise.all(leftovers.map(async ([sid, p]) => {
    const r = await client.request({ method: 'DELETE', path: p, headers: { 'mcp-session-id': sid } });
    if (r.status === 200 || r.status === 404) liveHttpSessions.delete(sid);
  }));
  let ready = proxyExited === undefined ? await readyz() : undefined;
  for (let i = 0; i < 30 && ready !== undefined && ready.sessions > 0; i++) {
    await sleep(100);
    ready = await readyz();
  }
  healthRunning = false;
  await healthDone;
  const rssEnd = rssMb(proxyPid);
  if (ready !== undefined) {
    if (ready.sessions > 0) stats.note('sessions still open at the proxy after every client closed or deleted its own', `${ready.sessions}`);
    if ((ready.servers.fx?.restarts ?? 0) > 0) stats.violation('child_restarted', 'fx', `fx restarted ${ready.servers.fx?.restarts} times (nothing asked it to exit)`);
    if ((ready.servers.garbage?.restarts ?? 0) > 0) stats.note('the garbage child was restarted', `${ready.servers.garbage?.restarts} restarts`);
  }

  // A clean stop on SIGTERM, leaving no process behind.
  let stopMs = 0;
  let exitCode: number | null = null;
  let leftover = 0;
  if (proxyExited === undefined && proxy !== undefined) {
    const tree = descendants(proxyPid);
    stoppingProxy = true;
    const t = now();
    const exited = new Promise<number | null>((resolve) => proxy?.once('exit', (code) => resolve(code)));
    proxy.kill('SIGTERM');
    const timer = setTimeout(() => proxy?.kill('SIGKILL'), 10_000);
    exitCode = await exited;
    clearTimeout(timer);
    stopMs = Math.round(now() - t);
    await sleep(200);
    const alive = tree.filter(isAlive);
    leftover = alive.length;
    for (const p of alive) try { process.kill(p, 'SIGKILL'); } catch { /* gone */ }
    if (exitCode !== 0) stats.violation('unclean_stop', 'proxy', `SIGTERM -> exit code ${exitCode} after ${stopMs} ms`);
    if (leftover > 0) stats.violation('leftover_process', 'proxy', `${leftover} child process(es) outlived the proxy`);
  }

  const scan = scanLog();
  for (const line of scan.exceptions) stats.violation('proxy_logged_exception', 'proxy-log', line);

  // ---------- report ----------
  const out: string[] = [];
  const p = (line = ''): void => void out.push(line);
  p(`mcp-switchboard fuzz: seed ${SEED}, ${SECONDS} s of attacks (${elapsed().toFixed(1)} s in all), ${WORKERS} workers, node ${process.version}`);
  p(`replay: npm run fuzz -- ${args.short ? '--short' : `--seconds ${SECONDS}`} --seed ${SEED}${EXCLUDE.length > 0 ? ` --exclude ${EXCLUDE.join(',')}` : ''}`);
  p();
  p(`attacker requests: ${stats.total()} (${attacksStarted} attacks)`);
  const kinds = [...stats.byKind.entries()].sort((a, b) => a[0].localeCompare(b[0]));
  const width = Math.max(...kinds.map(([k]) => k.length), 10);
  for (const [kind, m] of kinds) {
    const total = [...m.values()].reduce((a, b) => a + b, 0);
    const outcomes = [...m.entries()].sort((a, b) => b[1] - a[1]).map(([o, n]) => `${o}:${n}`).join(' ');
    p(`  ${kind.padEnd(width)} ${String(total).padStart(6)}  ${outcomes}`);
  }
  p();
  const cok = controls.reduce((n, c) => n + c.st.ok, 0);
  const cfail = controls.reduce((n, c) => n + c.st.failed, 0);
  p(`control calls: ok ${cok}, failed ${cfail}`);
  for (const c of controls) {
    const f = [...c.st.failures.entries()].map(([k, n]) => `${k}:${n}`).join(' ');
    p(`  ${c.name.padEnd(10)} ok ${String(c.st.ok).padStart(6)}  failed ${c.st.failed}${f ? ` (${f})` : ''}  notifications seen ${c.st.notifications}`);
  }
  p();
  p(`healthz: ${health.ok} ok, ${health.failed} failed, slowest ${Math.round(health.maxMs)} ms`);
  p(`proxy: ${proxyExited !== undefined ? `EXITED (${proxyExited})` : `alive throughout; SIGTERM -> exit ${exitCode} in ${stopMs} ms, ${leftover} leftover processes`}; ` +
    `RSS ${rssStart?.toFixed(0) ?? '?'} -> ${rssEnd?.toFixed(0) ?? '?'} MB; sessions at the end ${ready?.sessions ?? '?'}; ` +
    `restarts fx ${ready?.servers.fx?.restarts ?? '?'}, garbage ${ready?.servers.garbage?.restarts ?? '?'}`);
  p(`proxy log: ${Object.entries(scan.levels).map(([k, n]) => `${k} ${n}`).join(', ')}`);
  for (const [msg, n] of scan.top) p(`  ${String(n).padStart(6)}  ${msg}`);
  if (stats.notes.size > 0) {
    p();
    p('notes (not invariant violations):');
    for (const [what, { count, example }] of stats.notes) p(`  ${count} x ${what}${example ? `\n      e.g. ${example.replace(/\n/g, '\n      ')}` : ''}`);
  }
  p();
  // Connections reset in the last second before the proxy died are the crash seen from outside.
  const collateral = (v: { type: string; at: number }): boolean =>
    proxyExitAt !== undefined && v.at >= proxyExitAt - 1.5 && v.type !== 'proxy_exited' && v.type !== 'proxy_logged_exception';
  const counted = stats.violations.filter((v) => !collateral(v));
  const types = new Map<string, number>();
  for (const v of counted) types.set(v.type, (types.get(v.type) ?? 0) + 1);
  const dropped = stats.violations.length - counted.length;
  p(`invariant violations: ${counted.length}${dropped > 0 ? ` (and ${dropped} failures in the moment the proxy died, not counted)` : ''}`);
  for (const [type, n] of [...types.entries()].sort((a, b) => b[1] - a[1])) p(`  ${type}: ${n}`);
  if (counted.length > 0) {
    p();
    p('first violations of each type and kind:');
    const seen = new Set<string>();
    for (const v of counted) {
      const key = `${v.type}|${v.kind}`;
      if (seen.has(key) && !args.verbose) continue;
      seen.add(key);
      p(`  [${v.at}s] ${v.type} (${v.kind}): ${v.detail.replace(/\n/g, '\n      ')}`);
    }
  }
  // The slow-client leg: a daemon of its own, strangers trickling requests and holding sockets.
  log('slow-client leg');
  const slow = await slowClientLeg({ short: args.short === true, log });
  p();
  p(`slow clients: ${Object.entries(slow.numbers).map(([k, v]) => `${k} ${v}`).join(', ')}`);
  p(`slow-client bounds: ${slow.failures.length === 0 ? 'held' : `BROKEN: ${slow.failures.join('; ')}`}`);
  process.stdout.write(out.join('\n') + '\n');
  const failed = counted.length > 0 || slow.failures.length > 0;
  if (failed || args.keep) log(`config and proxy log kept in ${TEMP}`);
  else fs.rmSync(TEMP, { recursive: true, force: true });
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`fuzz: ${(error as Error).stack ?? String(error)}\n(config and proxy log kept in ${TEMP})\n`);
    process.exit(1);
  },
);
