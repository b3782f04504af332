// Chaos test: many Streamable HTTP sessions call tools on three shared fixture servers through
// mcp-switchboard while a loop SIGKILLs a random child every couple of seconds. Every reply is
// checked (the id we sent, this session's own text, the server we addressed); at the end the proxy
// is stopped with SIGTERM and no child may be left behind.
//
//   npm run build && npm run chaos [-- --short] [-- --duration 120] [-- --json]
//   flags (or env): --duration S (CHAOS_DURATION, 300; --short: 30), --sessions N (CHAOS_SESSIONS, 50;
//   --short: 20), --reload-every MS (CHAOS_RELOAD_MS, 30000; --short: 10000; 0: never): rewrite the
//   config (server c redefined, so restarted; a spare server d added or removed) and SIGHUP the proxy;
//   --short: 20), --kill-every MS (CHAOS_KILL_MS, 2000), --timeout MS (CHAOS_TIMEOUT_MS, client-side
//   deadline per request, 30000; --short: 8000), --seed N (CHAOS_SEED), CHAOS_LOG_LEVEL (proxy log, warn)
//
// Exit status 1 when a request was never answered or misrouted, a process outlived the proxy, the
// proxy crashed or did not stop cleanly, or a server did not come back after the last kill.
//
// The killer picks any child /readyz names, starting ones included (a kill during initialize is a
// case worth having). Keep --kill-every well above the restart backoff cap (1 s here): much shorter
// intervals kill every new child during initialize, no server ever gets ready, and calls held for
// it wait up to the server's timeoutMs (60 s), past the client deadline: "never answered" by design.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { INITIALIZED, descendants, freePort, httpDelete, now, sleep } from './bench-lib.js';
import { hostileChildLeg } from './hostile-legs.js';
import {
  NoReply, Samples, getJson, isResponse, memoryMb, openGetStream, pidExists, postRpc, procCmdline, procStat, prng, scanProc,
  type GetStream, type RpcId, type RpcMessage, type RpcReply,
} from './chaos-lib.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CLI = path.join(ROOT, 'dist/cli/main.js');
const FIXTURE = path.join(ROOT, 'test/fixtures/fixture-server.mjs');
const SERVERS = ['a', 'b', 'c'] as const;
type Server = (typeof SERVERS)[number];

// ---------- options ----------

const USAGE = 'usage: chaos.ts [--short] [--duration S] [--sessions N] [--kill-every MS] [--reload-every MS] [--timeout MS] [--seed N] [--json]';
const args = process.argv.slice(2);
const flags = new Map<string, string>();
for (let i = 0; i < args.length; i++) {
  const arg = args[i] as string;
  const m = /^--([a-z-]+)(?:=(.*))?$/.exec(arg);
  if (m === null) usage(`unexpected argument ${arg}`);
  const [, name, inline] = m as unknown as [string, string, string | undefined];
  if (name === 'short' || name === 'json') flags.set(name, 'true');
  else if (['duration', 'sessions', 'kill-every', 'timeout', 'seed'].includes(name)) {
    const value = inline ?? args[++i];
    if (value === undefined) usage(`--${name} needs a value`);
    flags.set(name, value as string);
  } else usage(`unknown flag --${name}`);
}
function usage(why: string): never {
  process.stderr.write(`chaos: ${why}\n${USAGE}\n`);
  process.exit(2);
}
function intOption(flag: string, env: string, fallback: number, min: number): number {
  const raw = flags.get(flag) ?? process.env[env];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) usage(`--${flag} / ${env} must be an integer >= ${min}, got ${raw}`);
  return n;
}
const SHORT = flags.has('short');
const JSON_OUT = flags.has('json');
const DURATION_S = intOption('duration', 'CHAOS_DURATION', SHORT ? 30 : 300, 1);
const SESSIONS = intOption('sessions', 'CHAOS_SESSIONS', SHORT ? 20 : 50, 2);
const KILL_MS = intOption('kill-every', 'CHAOS_KILL_MS', 2_000, 100);
const RELOAD_MS = intOption('reload-every', 'CHAOS_RELOAD_MS', SHORT ? 10_000 : 30_000, 0);
// --short keeps the worst case (a call stuck until its deadline) inside a 45 s CI budget.
const TIMEOUT_MS = intOption('timeout', 'CHAOS_TIMEOUT_MS', SHORT ? 8_000 : 30_000, 100);
const SEED = intOption('seed', 'CHAOS_SEED', Math.floor(Math.random() * 2 ** 31), 0);
const LOG_LEVEL = process.env.CHAOS_LOG_LEVEL ?? 'warn';
/** How long the servers get to be ready again after the last kill before we call one stuck, ms. */
const RECOVER_MS = 10_000;

if (!fs.existsSync(CLI)) {
  process.stderr.write(`chaos: ${path.relative(ROOT, CLI)} not found; run \`npm run build\` first\n`);
  process.exit(2);
}
const log = (line: string): void => void process.stderr.write(`[chaos] ${line}\n`);
const random = prng(SEED);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;

// A unique marker in the temp dir (so in the proxy's argv: -c <dir>/config.json), in every child's
// argv (--chaos-marker=..., ignored by the fixture) and in every child's environment.
const MARKER = `chaos-${process.pid}-${randomBytes(4).toString('hex')}`;
const MARKER_ENV = `CHAOS_MARKER=${MARKER}`;
const TEMP = fs.mkdtempSync(path.join(os.tmpdir(), `switchboard-${MARKER}-`));
const CONFIG = path.join(TEMP, 'config.json');
const LOG_FILE = path.join(TEMP, 'proxy.log');

// ---------- cleanup: nothing we started outlives this script, even on Ctrl-C or a crash ----------

let proxyPid: number | undefined;
/** Every child pid the proxy ever had, from /readyz, /proc and whoami. */
const childPids = new Set<number>();
const hasMarker = (pid: number): boolean => (procCmdline(pid) ?? '').includes(MARKER);
process.on('exit', () => {
  const pids = new Set<number>([...childPids]);
  if (proxyPid !== undefined) {
    for (const p of [proxyPid, ...descendants(proxyPid)]) pids.add(p);
  }
  for (const p of pids) if (hasMarker(p) || p === proxyPid) try { process.kill(p, 'SIGKILL'); } catch { /* gone */ }
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    log(`${signal}: stopping; proxy config and log kept in ${TEMP}`);
    process.exit(130);
  });
}

// ---------- ids and texts: who sent what can be read back from any id or text ----------
//
// Sessions come in pairs j = k >> 1. The even one sends numbers (j+1)*1e7 + seq; the odd one sends
// strings: the same digits as a string on even seqs (a numeric twin exists in the other session, so
// a proxy that mixes 5 and "5" up is caught), `s<k>-<seq>` on odd ones. Ids are unique in the run.

const ID_SPAN = 10_000_000;
const lastSeq: number[] = Array.from({ length: SESSIONS }, () => 0);
const nextSeq = (k: number): number => (lastSeq[k] = (lastSeq[k] ?? 0) + 1);

function makeId(k: number, seq: number): RpcId {
  const digits = ((k >> 1) + 1) * ID_SPAN + seq;
  if (k % 2 === 0) return digits;
  return seq % 2 === 0 ? String(digits) : `s${k}-${seq}`;
}

/** The session and call an id belongs to, or undefined if we never sent it. */
function ownerOfId(id: unknown): { k: number; seq: number } | undefined {
  let k: number;
  let seq: number;
  if (typeof id === 'number' && Number.isInteger(id)) {
    [k, seq] = [(Math.floor(id / ID_SPAN) - 1) * 2, id % ID_SPAN];
  } else if (typeof id === 'string' && /^\d+$/.test(id)) {
    [k, seq] = [(Math.floor(Number(id) / ID_SPAN) - 1) * 2 + 1, Number(id) % ID_SPAN];
    if (seq % 2 !== 0) return undefined;
  } else if (typeof id === 'string' && /^s\d+-\d+$/.test(id)) {
    [k, seq] = id.slice(1).split('-').map(Number) as [number, number];
    if (k % 2 !== 1 || seq % 2 !== 1) return undefined;
  } else return undefined;
  return k >= 0 && k < SESSIONS && seq >= 0 && seq <= (lastSeq[k] ?? -1) ? { k, seq } : undefined;
}

const describeId = (id: unknown): string => {
  const owner = ownerOfId(id);
  return owner === undefined ? `id ${JSON.stringify(id)} (never sent)` : `id ${JSON.stringify(id)} (session ${owner.k} call ${owner.seq})`;
};

const FILLER = 'The quick brown fox jumps over the lazy dog; é ✓ 漢字 🙂 ';
/** This call's echo text: a readable owner tag, then sometimes multi-byte or long filler (chunk boundaries). */
function echoText(k: number, seq: number): string {
  const tag = `chaos|s${k}|c${seq}|${Math.floor(random() * 1e9).toString(36)}|`;
  const r = random();
  if (r < 0.05) return tag + FILLER.repeat(Math.ceil((4_000 + random() * 16_000) / FILLER.length));
  if (r < 0.3) return tag + FILLER;
  return tag;
}
const textOwner = (text: string): string => {
  const m = /^chaos\|s(\d+)\|c(\d+)\|/.exec(text);
  return m === null ? `a text we never sent (${JSON.stringify(text.slice(0, 40))})` : `the text of session ${m[1]} call ${m[2]}`;
};

// ---------- tallies ----------

interface Kind {
  count: number;
  maxMs: number;
}
const stats = {
  sent: 0,
  results: 0,
  errors: 0,
  never: 0,
  misrouted: 0,
  inFlight: 0,
  errorKinds: new Map<string, Kind>(),
  neverKinds: new Map<string, Kind>(),
  misroutedKinds: new Map<string, Kind>(),
  misroutedExamples: [] as string[],
  byTool: { echo: 0, slow: 0, whoami: 0 },
  resultMs: new Samples(),
  /** SIGKILL of a child to the error for a call it was handling, ms ("at once"). */
  killToErrorMs: new Samples(),
  kills: 0,
  reloads: 0,
  listChanged: 0,
  killsByServer: { a: 0, b: 0, c: 0 } as Record<Server, number>,
  killsSkipped: 0,
  /** GET-stream traffic: notifications are fine, responses are misrouted (on top of the per-call count). */
  getNotifications: 0,
  getResponses: 0,
};
const lastKillAt: Partial<Record<Server, number>> = {};

function tally(map: Map<string, Kind>, kind: string, ms: number): void {
  const entry = map.get(kind) ?? { count: 0, maxMs: 0 };
  entry.count++;
  entry.maxMs = Math.max(entry.maxMs, ms);
  map.set(kind, entry);
}

function misrouted(kind: string, detail: string, ms: number): void {
  stats.misrouted++;
  tally(stats.misroutedKinds, kind, ms);
  if (stats.misroutedExamples.length < 20) stats.misroutedExamples.push(detail);
  log(`MISROUTED: ${detail}`);
}

/** An error message with server names, pids and numbers made generic, to group errors by kind. */
const errorKind = (code: number, message: string): string =>
  `${code} ${message.replace(/\bserver [a-z]\b/g, 'server <s>').replace(/\d+/g, 'N')}`;

// ---------- the proxy ----------


interface ReadyzServer {
  state: string;
  pid?: number;
  restarts: number;
  lastError?: string;
}
interface Readyz {
  ready: boolean;
  sessions: number;
  servers: Record<string, ReadyzServer>;
}

let proxy: ChildProcess;
let base = '';
/** Set when the proxy exits before we stop it. */
let crashed: string | undefined;
let stopRequested = false;

let port = 0;

/**
 * The proxy's config for reload generation `generation`: server c's environment carries the
 * generation (so every reload redefines c and the proxy restarts it), and a spare server d that
 * no session calls is present in odd generations only (added, then removed).
 */
function writeConfig(generation: number): void {
  const server = (name: string, extra: Record<string, string> = {}) => ({
    command: process.execPath,
    args: [FIXTURE, `--chaos-marker=${MARKER}`],
    env: { FIXTURE_NAME: name, CHAOS_MARKER: MARKER, ...extra },
    restart: { initialDelayMs: 100, maxDelayMs: 1000 },
  });
  const servers: Record<string, unknown> = Object.fromEntries(SERVERS.map((name) => [name, server(name, name === 'c' ? { CHAOS_GENERATION: String(generation) } : {})]));
  if (generation % 2 === 1) servers.d = server('d');
  // Written aside and renamed: the proxy also watches the file, and must never read half of it.
  fs.writeFileSync(`${CONFIG}.tmp`, JSON.stringify({ listen: { host: '127.0.0.1', port }, logLevel: LOG_LEVEL, mcpServers: servers }, null, 2));
  fs.renameSync(`${CONFIG}.tmp`, CONFIG);
}

async function startProxy(): Promise<void> {
  port = await freePort();
  writeConfig(0);
  const out = fs.openSync(LOG_FILE, 'w');
  // Pins and the sanitization log stay in the run's temp dir, never the user's state dir.
  proxy = spawn(process.execPath, [CLI, 'start', '-c', CONFIG], { stdio: ['ignore', out, out], env: { ...process.env, XDG_STATE_HOME: TEMP } });
  fs.closeSync(out);
  proxyPid = proxy.pid as number;
  proxy.once('exit', (code, signal) => {
    if (!stopRequested) {
      crashed = `exited with ${signal ?? `code ${code}`} while under test`;
      log(`PROXY ${crashed}; log tail:\n${logTail()}`);
    }
  });
  base = `http://127.0.0.1:${port}`;
  for (const deadline = now() + 20_000; now() < deadline; await sleep(100)) {
    if (crashed !== undefined) break;
    const { status, body } = await getJson<Readyz>(`${base}/readyz`);
    if (status === 200 && body?.ready) return;
  }
  throw new Error(`proxy not ready in 20 s (${crashed ?? 'still running'}); log tail:\n${logTail()}`);
}

const logTail = (): string => {
  try {
    return fs.readFileSync(LOG_FILE, 'utf8').slice(-3000);
  } catch {
    return '(no log)';
  }
};

let lastReadyz: Readyz | undefined;

/** Reads /readyz and remembers every child pid it names. */
async function readyz(): Promise<Readyz | undefined> {
  const { body } = await getJson<Readyz>(`${base}/readyz`);
  if (body?.servers === undefined) return undefined;
  lastReadyz = body;
  for (const s of Object.values(body.servers)) if (typeof s.pid === 'number') childPids.add(s.pid);
  return body;
}

/** Also catches children that lived and died between two /readyz polls. */
function recordChildren(): void {
  if (proxyPid === undefined || crashed !== undefined) return;
  for (const p of descendants(proxyPid)) if (hasMarker(p)) childPids.add(p);
}

// ---------- sessions ----------

interface Session {
  k: number;
  headers: Record<string, string>;
  get?: GetStream;
}

async function openSession(k: number): Promise<Session> {
  const url = `${base}/mcp`;
  const id = makeId(k, 0);
  const init = await postRpc(url, {}, JSON.stringify({
    jsonrpc: '2.0', id, method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'switchboard-chaos', version: '1.0.0' } },
  }), id, 10_000);
  const sid = init.headers['mcp-session-id'];
  if (init.status !== 200 || typeof sid !== 'string' || init.msg?.id !== id || !init.msg.result) {
    throw new Error(`session ${k}: initialize: HTTP ${init.status} ${JSON.stringify(init.msg)}`);
  }
  const headers = { 'mcp-session-id': sid, 'mcp-protocol-version': init.msg.result.protocolVersion ?? '2025-06-18' };
  const done = await postRpc(url, headers, INITIALIZED, null, 10_000);
  if (done.status !== 202) throw new Error(`session ${k}: notifications/initialized: HTTP ${done.status}`);
  const session: Session = { k, headers };
  // The standalone GET stream: notifications may come here, responses never.
  session.get = await openGetStream(url, headers, (msg) => {
    if (!isResponse(msg)) {
      stats.getNotifications++;
      if (msg.method === 'notifications/tools/list_changed') stats.listChanged++;
      return;
    }
    // Not tied to one of our calls (that call still gets counted on its own), but misrouted all the same.
    stats.getResponses++;
    tally(stats.misroutedKinds, 'response on the GET stream', 0);
    if (stats.misroutedExamples.length < 20) stats.misroutedExamples.push(`session ${k} got a response on its GET stream: ${describeId(msg.id)}`);
    log(`MISROUTED: session ${k} got a response on its GET stream: ${describeId(msg.id)}`);
  });
  return session;
}

// ---------- one call, checked ----------

type Tool = 'echo' | 'slow' | 'whoami';

interface Call {
  k: number;
  seq: number;
  id: RpcId;
  server: Server;
  tool: Tool;
  text?: string;
  progressToken?: RpcId;
}

function planCall(k: number): Call {
  const seq = nextSeq(k);
  const id = makeId(k, seq);
  const server = pick(SERVERS);
  const r = random();
  const tool: Tool = r < 0.8 ? 'echo' : r < 0.92 ? 'slow' : 'whoami';
  const call: Call = { k, seq, id, server, tool };
  if (tool === 'echo') call.text = echoText(k, seq);
  if (tool === 'slow' && random() < 0.5) call.progressToken = typeof id === 'number' ? id : `p-${id}`;
  return call;
}

function callBody(call: Call): string {
  let args: Record<string, unknown> = {};
  if (call.tool === 'echo') args = { text: call.text };
  if (call.tool === 'slow') args = { ms: 10 + Math.floor(random() * 190), steps: 1 + Math.floor(random() * 3) };
  const params: Record<string, unknown> = { name: `${call.server}__${call.tool}`, arguments: args };
  if (call.progressToken !== undefined) params._meta = { progressToken: call.progressToken };
  return JSON.stringify({ jsonrpc: '2.0', id: call.id, method: 'tools/call', params });
}

type Outcome = { kind: 'result' } | { kind: 'error'; what: string } | { kind: 'never'; what: string } | { kind: 'misrouted'; what: string; detail: string };

function check(call: Call, reply: RpcReply): Outcome {
  const who = `session ${call.k} call ${call.seq} (${describeId(call.id)}, ${call.server}__${call.tool})`;
  for (const other of reply.others) {
    if (isResponse(other)) return { kind: 'misrouted', what: 'foreign response on the POST stream', detail: `${who} saw a response for ${describeId(other.id)}` };
    if (other.method === 'notifications/progress' && other.params?.progressToken !== call.progressToken) {
      return { kind: 'misrouted', what: 'foreign progress', detail: `${who} got progress for token ${JSON.stringify(other.params?.progressToken)}` };
    }
  }
  const msg = reply.msg;
  if (msg === undefined) return { kind: 'never', what: `HTTP ${reply.status} ${reply.sse ? 'stream' : 'body'} ended without a response` };
  if (msg.id !== call.id) {
    // An HTTP-level refusal may carry id null; any other id is someone else's answer.
    if (reply.status !== 200 && (msg.id === null || msg.id === undefined) && msg.error) {
      return { kind: 'error', what: `HTTP ${reply.status} ${errorKind(msg.error.code, msg.error.message)}` };
    }
    return { kind: 'misrouted', what: 'wrong id', detail: `${who} was answered with ${describeId(msg.id)}` };
  }
  if (msg.error) {
    const named = /\bserver ([a-z])\b/.exec(msg.error.message)?.[1];
    if (named !== undefined && named !== call.server) {
      return { kind: 'misrouted', what: 'error names another server', detail: `${who} got an error about server ${named}: ${msg.error.message}` };
    }
    return { kind: 'error', what: `${reply.status === 200 ? '' : `HTTP ${reply.status} `}${errorKind(msg.error.code, msg.error.message)}` };
  }
  const text = msg.result?.content?.[0]?.text;
  if (msg.result?.isError) return { kind: 'error', what: `tool error: ${String(text).replace(/\d+/g, 'N').slice(0, 80)}` };
  if (typeof text !== 'string') return { kind: 'misrouted', what: 'result without text', detail: `${who} got ${JSON.stringify(msg.result).slice(0, 200)}` };
  switch (call.tool) {
    case 'echo':
      if (text === call.text) return { kind: 'result' };
      return { kind: 'misrouted', what: 'wrong echo text', detail: `${who} got ${textOwner(text)}` };
    case 'slow':
      if (text === 'done') return { kind: 'result' };
      return { kind: 'misrouted', what: 'wrong slow result', detail: `${who} got ${textOwner(text)}` };
    case 'whoami': {
      const m = /^([a-z]+) pid (\d+)$/.exec(text);
      if (m !== null && m[1] === call.server) {
        childPids.add(Number(m[2]));
        return { kind: 'result' };
      }
      return { kind: 'misrouted', what: 'whoami answered by another server', detail: `${who} got ${JSON.stringify(text)}` };
    }
  }
}

let stopping = false;

async function callOnce(session: Session): Promise<void> {
  const call = planCall(session.k);
  stats.sent++;
  stats.byTool[call.tool]++;
  stats.inFlight++;
  const t0 = now();
  let outcome: Outcome;
  try {
    outcome = check(call, await postRpc(`${base}/mcp`, session.headers, callBody(call), call.id, TIMEOUT_MS));
  } catch (error) {
    outcome = { kind: 'never', what: error instanceof NoReply ? error.kind : `client error: ${(error as Error).message}` };
  }
  stats.inFlight--;
  const t1 = now();
  const ms = t1 - t0;
  switch (outcome.kind) {
    case 'result':
      stats.results++;
      stats.resultMs.add(ms);
      return;
    case 'error': {
      stats.errors++;
      tally(stats.errorKinds, outcome.what, ms);
      const killedAt = lastKillAt[call.server];
      if (outcome.what.includes('was killed by SIGKILL while handling') && killedAt !== undefined && t1 - killedAt < 10_000) {
        stats.killToErrorMs.add(t1 - killedAt);
      }
      return;
    }
    case 'never':
      stats.never++;
      tally(stats.neverKinds, outcome.what, ms);
      if (stats.never <= 20) log(`NEVER ANSWERED: session ${session.k} call ${call.seq} (${describeId(call.id)}, ${call.server}__${call.tool}) after ${Math.round(ms)} ms: ${outcome.what}`);
      if (crashed === undefined) await sleep(5);
      return;
    case 'misrouted':
      misrouted(outcome.what, outcome.detail, ms);
      return;
  }
}

async function closedLoop(session: Session): Promise<void> {
  while (!stopping && crashed === undefined) await callOnce(session);
}

/** Before the chaos starts: every tool on every server answers (the names exist, routing works). */
async function preflight(session: Session): Promise<void> {
  for (const server of SERVERS) {
    for (const tool of ['echo', 'slow', 'whoami'] as const) {
      const seq = nextSeq(session.k);
      const call: Call = { k: session.k, seq, id: makeId(session.k, seq), server, tool, ...(tool === 'echo' ? { text: echoText(session.k, seq) } : {}) };
      const reply = await postRpc(`${base}/mcp`, session.headers, callBody(call), call.id, 10_000);
      const outcome = check(call, reply);
      if (outcome.kind !== 'result') throw new Error(`preflight ${server}__${tool}: ${JSON.stringify(outcome)} ${JSON.stringify(reply.msg)}`);
    }
  }
}

// ---------- chaos: kills and config reloads ----------

/**
 * Config reloads, every RELOAD_MS: server c redefined (restarted under load: its in-flight calls
 * must end in an error naming c, never hang), server d added or removed (sessions must see
 * tools/list_changed on their GET streams). Old children must be gone at the end like all others.
 */
let generation = 0;
let lastReloadAt = 0;

async function reloadChaos(_tick: number): Promise<void> {
  if (RELOAD_MS === 0 || now() - lastReloadAt < RELOAD_MS) return;
  lastReloadAt = now();
  generation += 1;
  writeConfig(generation);
  // The file watch would notice too; SIGHUP makes the reload happen now (and a second, identical
  // reload from the watch is a no-op: same content).
  proxy.kill('SIGHUP');
  stats.reloads++;
}

/** SIGKILLs one random child of the proxy that /readyz names, if it is really the proxy's child. */
async function killRandomChild(): Promise<void> {
  const report = await readyz();
  const candidates = report === undefined ? [] : SERVERS.filter((s) => typeof report.servers[s]?.pid === 'number');
  if (candidates.length === 0) {
    stats.killsSkipped++;
    return;
  }
  const server = pick(candidates);
  const pid = report?.servers[server]?.pid as number;
  // The pid must still be the proxy's child running our fixture (no pid reuse, no stale report).
  if (procStat(pid)?.ppid !== proxyPid || !hasMarker(pid)) {
    stats.killsSkipped++;
    return;
  }
  try {
    process.kill(pid, 'SIGKILL');
    stats.kills++;
    stats.killsByServer[server]++;
    lastKillAt[server] = now();
  } catch {
    stats.killsSkipped++; // exited on its own just now
  }
}

/** Runs `task` every `ms` (after each run) until the returned stopper is called; stopping wakes it at once. */
function every(ms: number, task: (tick: number) => Promise<void>): () => Promise<void> {
  let stopped = false;
  let wake: (() => void) | undefined;
  const loop = (async () => {
    for (let tick = 1; ; tick++) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ms);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      if (stopped || crashed !== undefined) break;
      try {
        await task(tick);
      } catch (error) {
        log(`background task failed: ${(error as Error).message}`);
      }
    }
  })();
  return async () => {
    stopped = true;
    wake?.();
    await loop;
  };
}

// ---------- stop and the leftover check ----------

interface StopResult {
  stopMs: number;
  exit: string;
  clean: boolean;
  leftover: { pid: number; state: string; how: string }[];
  aliveAtExit: number;
  zombies: number;
}

async function stopProxy(): Promise<StopResult> {
  recordChildren();
  stopRequested = true;
  const t0 = now();
  let clean = crashed === undefined;
  if (proxy.exitCode === null && proxy.signalCode === null) {
    const exited = new Promise((resolve) => proxy.once('exit', resolve));
    proxy.kill('SIGTERM');
    const timer = setTimeout(() => {
      log('proxy ignored SIGTERM for 15 s: SIGKILL');
      clean = false;
      proxy.kill('SIGKILL');
    }, 15_000);
    await exited;
    clearTimeout(timer);
  }
  const stopMs = Math.round(now() - t0);
  const exit = proxy.signalCode !== null ? `signal ${proxy.signalCode}` : `code ${proxy.exitCode}`;
  if (proxy.exitCode !== 0) clean = false;
  const aliveAtExit = [...childPids].filter(pidExists).length;
  await sleep(1_000); // a child that is merely exiting gets a moment; one that stays is a leftover
  const leftover = new Map<number, { pid: number; state: string; how: string }>();
  let zombies = 0;
  for (const pid of childPids) {
    if (!pidExists(pid)) continue;
    // A zombie has exited and holds nothing but its pid: the proxy is gone, so it waits for init to reap it.
    if (procStat(pid)?.state === 'Z') zombies++;
    else if (hasMarker(pid)) leftover.set(pid, { pid, state: procStat(pid)?.state ?? '?', how: 'a child pid seen during the run' });
  }
  for (const p of scanProc(MARKER, MARKER_ENV, new Set([process.pid]))) {
    if (!leftover.has(p.pid)) leftover.set(p.pid, { pid: p.pid, state: p.state, how: `found in /proc: ${p.cmdline.slice(0, 120)}` });
  }
  for (const { pid } of leftover.values()) try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ }
  return { stopMs, exit, clean, leftover: [...leftover.values()], aliveAtExit, zombies };
}

// ---------- report ----------

interface Report {
  hostile_child: Record<string, number>;
  seed: number;
  sessions: number;
  servers: number;
  duration_s: number;
  run_s: number | null;
  settle_ms: number;
  kill_every_ms: number;
  client_timeout_ms: number;
  node: string;
  cpus: number;
  requests_sent: number;
  by_tool: Record<Tool, number>;
  answered_result: number;
  answered_error: number;
  error_kinds: Record<string, { count: number; max_ms: number }>;
  never_answered: number;
  never_kinds: Record<string, { count: number; max_ms: number }>;
  misrouted: number;
  misrouted_on_get_streams: number;
  misrouted_kinds: Record<string, number>;
  misrouted_examples: string[];
  result_ms: { p50: number | null; p99: number | null; max: number | null };
  kill_to_error_ms: { count: number; p50: number | null; max: number | null };
  kills: number;
  reloads: number;
  /** tools/list_changed notifications the sessions' GET streams carried (reloads add and remove server d). */
  list_changed_seen: number;
  kills_by_server: Record<Server, number>;
  kills_skipped: number;
  restarts_seen: number;
  servers_recovered: boolean;
  child_pids_seen: number;
  children_alive_at_proxy_exit: number;
  exited_unreaped_children: number;
  leftover_processes: number;
  leftovers: { pid: number; state: string; how: string }[];
  proxy_rss_mb_start: number | null;
  proxy_rss_mb_end: number | null;
  proxy_peak_rss_mb: number | null;
  proxy_crashed: string | false;
  proxy_exit: string;
  proxy_stop_ms: number;
  get_stream_notifications: number;
  get_streams_open_after_stop: number;
  failed_deletes: number;
  failures: string[];
}

const round = (x: number | null, d = 0): number | null => (x === null ? null : Number(x.toFixed(d)));

async function main(): Promise<number> {
  log(`seed ${SEED}, ${SESSIONS} sessions, ${DURATION_S} s, kill every ${KILL_MS} ms, client timeout ${TIMEOUT_MS} ms; temp ${TEMP}`);
  const t0 = now();
  await startProxy();
  await readyz();
  const sessions: Session[] = [];
  for (let k = 0; k < SESSIONS; k += 10) {
    sessions.push(...(await Promise.all(Array.from({ length: Math.min(10, SESSIONS - k) }, (_, i) => openSession(k + i)))));
  }
  await preflight(sessions[0] as Session);
  await sleep(200);
  const memStart = memoryMb(proxyPid as number);
  log(`proxy up (pid ${proxyPid}), ${sessions.length} sessions open, RSS ${round(memStart.rss, 1)} MB after ${Math.round(now() - t0)} ms`);

  const stopPoller = every(250, async () => {
    await readyz();
    recordChildren();
  });
  const stopKiller = every(KILL_MS, async (tick) => {
    await reloadChaos(tick); // HOOK(config-reload): see reloadChaos
    await killRandomChild();
  });
  const runStart = now();
  lastReloadAt = runStart;
  const stopProgress = every(10_000, async () => {
    log(`${Math.round((now() - runStart) / 1000)} s: sent ${stats.sent}, results ${stats.results}, errors ${stats.errors}, ` +
      `never ${stats.never}, misrouted ${stats.misrouted}, kills ${stats.kills}, in flight ${stats.inFlight}, ` +
      `RSS ${round(memoryMb(proxyPid as number).rss, 1)} MB`);
  });
  let stoppedAt = Infinity;
  const endTimer = setTimeout(() => {
    stopping = true;
    stoppedAt = now();
  }, DURATION_S * 1000);
  const loops = Promise.all(sessions.map((session) => closedLoop(session)));

  await loops; // every loop ends after its current call settles: answered or timed out client-side
  clearTimeout(endTimer);
  stopping = true;
  const runMs = now() - runStart;
  const settleMs = Number.isFinite(stoppedAt) ? Math.round(now() - stoppedAt) : 0; // 0: ended early (proxy crash)
  await stopKiller();
  await stopProgress();

  // The last kill may be a second old: give every server the chance to come back before judging.
  let recovered = false;
  for (const deadline = now() + RECOVER_MS; now() < deadline && crashed === undefined; await sleep(100)) {
    const r = await readyz();
    if (r !== undefined && SERVERS.every((s) => r.servers[s]?.state === 'ready')) {
      recovered = true;
      break;
    }
  }
  await stopPoller();
  const final = lastReadyz;
  const restarts = SERVERS.reduce((sum, s) => sum + (final?.servers[s]?.restarts ?? 0), 0);
  const memEnd = memoryMb(proxyPid as number);

  // Half the sessions say goodbye; the other half are still open when SIGTERM comes.
  const deletes = await Promise.all(sessions.filter((s) => s.k % 2 === 0).map((s) => httpDelete(`${base}/mcp`, s.headers)));
  const badDeletes = deletes.filter((status) => status !== 200).length;
  const stop = await stopProxy();
  for (const s of sessions) s.get?.close();
  const getStillOpen = sessions.filter((s) => s.get !== undefined && !s.get.ended()).length;

  const answered = stats.results + stats.errors + stats.never + stats.misrouted;
  const failures: string[] = [];
  if (stats.never > 0) failures.push(`${stats.never} request(s) never answered`);
  const misroutedTotal = stats.misrouted + stats.getResponses;
  if (misroutedTotal > 0) failures.push(`${misroutedTotal} misrouted`);
  if (stop.leftover.length > 0) failures.push(`${stop.leftover.length} process(es) left after stop`);
  if (crashed !== undefined) failures.push(`proxy crashed (${crashed})`);
  else if (!stop.clean) failures.push(`proxy did not stop cleanly (${stop.exit}, ${stop.stopMs} ms)`);
  if (crashed === undefined && !recovered) failures.push(`servers not all ready ${RECOVER_MS / 1000} s after the run: ${JSON.stringify(final?.servers)}`);
  if (answered !== stats.sent) failures.push(`bookkeeping: ${stats.sent} sent but ${answered} accounted for`);
  if (stats.kills === 0) failures.push('no child was killed: the chaos did not happen');
  if (RELOAD_MS > 0 && DURATION_S * 1000 > RELOAD_MS + KILL_MS && stats.reloads === 0) failures.push('no config reload happened');
  if (stats.reloads > 0 && stats.listChanged === 0) failures.push(`${stats.reloads} reload(s) added or removed a server, but no session was told its tool list changed`);

  // The hostile-child leg: a daemon of its own, a child flooding stderr, list_changed and server requests.
  log('hostile-child leg');
  const hostile = await hostileChildLeg({ short: SHORT, log });
  failures.push(...hostile.failures);

  const report: Report = {
    hostile_child: hostile.numbers,
    seed: SEED,
    sessions: SESSIONS,
    servers: SERVERS.length,
    duration_s: DURATION_S,
    run_s: round(runMs / 1000, 1),
    settle_ms: settleMs,
    kill_every_ms: KILL_MS,
    client_timeout_ms: TIMEOUT_MS,
    node: process.version,
    cpus: os.cpus().length,
    requests_sent: stats.sent,
    by_tool: stats.byTool,
    answered_result: stats.results,
    answered_error: stats.errors,
    error_kinds: Object.fromEntries([...stats.errorKinds].sort((a, b) => b[1].count - a[1].count).map(([k, v]) => [k, { count: v.count, max_ms: Math.round(v.maxMs) }])),
    never_answered: stats.never,
    never_kinds: Object.fromEntries([...stats.neverKinds].map(([k, v]) => [k, { count: v.count, max_ms: Math.round(v.maxMs) }])),
    misrouted: misroutedTotal,
    misrouted_on_get_streams: stats.getResponses,
    misrouted_kinds: Object.fromEntries([...stats.misroutedKinds].map(([k, v]) => [k, v.count])),
    misrouted_examples: stats.misroutedExamples,
    result_ms: { p50: round(stats.resultMs.q(0.5), 1), p99: round(stats.resultMs.q(0.99), 1), max: round(stats.resultMs.q(1), 1) },
    kill_to_error_ms: { count: stats.killToErrorMs.count, p50: round(stats.killToErrorMs.q(0.5), 1), max: round(stats.killToErrorMs.q(1), 1) },
    kills: stats.kills,
    reloads: stats.reloads,
    list_changed_seen: stats.listChanged,
    kills_by_server: stats.killsByServer,
    kills_skipped: stats.killsSkipped,
    restarts_seen: restarts,
    servers_recovered: recovered,
    child_pids_seen: childPids.size,
    children_alive_at_proxy_exit: stop.aliveAtExit,
    exited_unreaped_children: stop.zombies,
    leftover_processes: stop.leftover.length,
    leftovers: stop.leftover,
    proxy_rss_mb_start: round(memStart.rss, 1),
    proxy_rss_mb_end: round(memEnd.rss, 1),
    proxy_peak_rss_mb: round(memEnd.hwm, 1),
    proxy_crashed: crashed ?? false,
    proxy_exit: stop.exit,
    proxy_stop_ms: stop.stopMs,
    get_stream_notifications: stats.getNotifications,
    get_streams_open_after_stop: getStillOpen,
    failed_deletes: badDeletes,
    failures,
  };
  if (failures.length > 0) log(`FAILED: ${failures.join('; ')}; proxy config and log kept in ${TEMP}`);
  else fs.rmSync(TEMP, { recursive: true, force: true });
  process.stdout.write(JSON_OUT ? JSON.stringify(report, null, 2) + '\n' : table(report) + '\n');
  return failures.length > 0 ? 1 : 0;
}

function table(r: Report): string {
  const n = (x: unknown): string => (typeof x === 'number' ? x.toLocaleString('en-US') : x === null || x === undefined ? '-' : String(x));
  const must = (ok: boolean, rule: string): string => `${rule}: ${ok ? 'ok' : 'FAIL'}`;
  const pct = (x: number): string => (r.requests_sent > 0 ? ` (${((x / r.requests_sent) * 100).toFixed(2)} %)` : '');
  const lines = [
    `mcp-switchboard chaos: ${r.sessions} sessions × ${r.servers} shared fixture servers, ${r.duration_s} s (ran ${r.run_s} s, ` +
      `in-flight settled ${r.settle_ms} ms after), SIGKILL every ${r.kill_every_ms} ms, client timeout ${r.client_timeout_ms} ms, ` +
      `seed ${r.seed}, node ${r.node}, ${r.cpus} CPUs`,
    '',
    '| | value | check |',
    '|---|---:|---|',
    `| requests sent (echo / slow / whoami) | ${n(r.requests_sent)} (${n(r.by_tool.echo)} / ${n(r.by_tool.slow)} / ${n(r.by_tool.whoami)}) | |`,
    `| answered with a result | ${n(r.answered_result)}${pct(r.answered_result)} | p50 ${n(r.result_ms.p50)} ms, p99 ${n(r.result_ms.p99)} ms, max ${n(r.result_ms.max)} ms |`,
    `| answered with an error | ${n(r.answered_error)}${pct(r.answered_error)} | by kind below |`,
    `| never answered | ${n(r.never_answered)} | ${must(r.never_answered === 0, 'must be 0')} |`,
    `| misrouted | ${n(r.misrouted)} | ${must(r.misrouted === 0, 'must be 0')} |`,
    `| kills done (a / b / c; skipped) | ${n(r.kills)} (${r.kills_by_server.a} / ${r.kills_by_server.b} / ${r.kills_by_server.c}; ${r.kills_skipped}) | |`,
    `| config reloads (SIGHUP: c redefined, d added/removed) | ${n(r.reloads)} | tools/list_changed seen on GET streams: ${n(r.list_changed_seen)} |`,
    `| restarts seen (/readyz) | ${n(r.restarts_seen)} | ${r.restarts_seen === r.kills ? '= kills' : `≠ kills (${r.kills})`}; all ready after: ${r.servers_recovered ? 'yes' : 'NO'} |`,
    `| kill → error for the call in flight | ${r.kill_to_error_ms.count} calls | p50 ${n(r.kill_to_error_ms.p50)} ms, max ${n(r.kill_to_error_ms.max)} ms |`,
    `| child pids seen | ${n(r.child_pids_seen)} | |`,
    `| child processes left after stop | ${n(r.leftover_processes)} | ${must(r.leftover_processes === 0, 'must be 0')}` +
      `${r.exited_unreaped_children > 0 ? ` (plus ${r.exited_unreaped_children} exited, not yet reaped by init)` : ''} |`,
    `| proxy RSS at start (sessions open) | ${n(r.proxy_rss_mb_start)} MB | |`,
    `| proxy RSS at end (before SIGTERM) | ${n(r.proxy_rss_mb_end)} MB | peak ${n(r.proxy_peak_rss_mb)} MB |`,
    `| proxy crashed | ${r.proxy_crashed === false ? 'no' : r.proxy_crashed} | ${must(r.proxy_crashed === false, 'must be no')} |`,
    `| proxy stop after SIGTERM | ${n(r.proxy_stop_ms)} ms, ${r.proxy_exit} | ${must(r.proxy_exit === 'code 0', 'exit 0')} |`,
    `| hostile child: stderr flood | ${n(r.hostile_child.stderrMb)} MB in ${n(r.hostile_child.stderrSeconds)} s | RSS peak ${n(r.hostile_child.stderrRssPeakMb)} MB (baseline ${n(r.hostile_child.baselineRssMb)}), ${n(r.hostile_child.stderrLinesLogged)} lines logged |`,
    `| hostile child: list_changed flood | ${n(r.hostile_child.relistSeconds)} s | ${n(r.hostile_child.relistListings)} listings, RSS peak ${n(r.hostile_child.relistRssPeakMb)} MB |`,
    `| hostile child: request flood | RSS peak ${n(r.hostile_child.requestFloodRssPeakMb)} MB | ${n(r.hostile_child.requestFloodRefusalLines)} refusal lines; fds peak ${n(r.hostile_child.fdPeak)} (baseline ${n(r.hostile_child.baselineFds)}); stop ${n(r.hostile_child.stopMs)} ms |`,
  ];
  const kinds = Object.entries(r.error_kinds as Record<string, { count: number; max_ms: number }>);
  if (kinds.length > 0) {
    lines.push('', '| errors by kind | count | slowest ms |', '|---|---:|---:|');
    for (const [kind, v] of kinds) lines.push(`| ${kind.replace(/\|/g, '\\|')} | ${n(v.count)} | ${n(v.max_ms)} |`);
  }
  const never = Object.entries(r.never_kinds as Record<string, { count: number; max_ms: number }>);
  if (never.length > 0) {
    lines.push('', '| never answered, why | count | after ms (max) |', '|---|---:|---:|');
    for (const [kind, v] of never) lines.push(`| ${kind} | ${n(v.count)} | ${n(v.max_ms)} |`);
  }
  if (r.misrouted > 0) lines.push('', 'Misrouted (first ones):', ...r.misrouted_examples.map((e: string) => `- ${e}`));
  if (r.leftover_processes > 0) lines.push('', 'Left after stop:', ...r.leftovers.map((p: { pid: number; state: string; how: string }) => `- pid ${p.pid} state ${p.state}: ${p.how}`));
  lines.push('', r.failures.length === 0 ? 'PASS' : `FAIL: ${r.failures.join('; ')}`);
  return lines.join('\n');
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`chaos: ${(error as Error).stack ?? String(error)}\n(proxy config and log kept in ${TEMP})\n`);
    process.exit(1);
  },
);
