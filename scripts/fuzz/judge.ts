// Judging attacker answers: every reply to an attacker request goes through `judge`, which counts
// its outcome and records each invariant it breaks (see the list at the top of scripts/fuzz.ts).
import { bodyMessages, isJsonRpcMessage, isLoopbackOrigin, jsonRpcError, looksLikeStack, routeOf, type Json } from './lib/answers.js';
import { describe, printable, type HttpResult, type HttpSpec } from './lib/http.js';
import { sseEvents } from '../sse-client.js';
import { DEADLINE_MS, SERVERS } from './options.js';
import type { RunContext } from './context.js';

export type Id = string | number;
/** A key for an id that keeps 1 and "1" apart. */
export const keyOf = (id: unknown): string => `${typeof id}:${String(id)}`;
export const J = (value: unknown): string => JSON.stringify(value);
export const RPC_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' } as const;

export interface Expect {
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
export function echoProblem(msg: Json | undefined, id: Id, text: string): string | null {
  if (msg === undefined) return 'no answer';
  if (msg.id !== id) return `wrong id ${J(msg.id)}`;
  if (msg.error !== undefined) return `error ${J(msg.error).slice(0, 200)}`;
  const result = msg.result as { content?: Array<{ text?: unknown }>; isError?: unknown } | undefined;
  if (result === undefined || result === null) return 'no result';
  if (result.isError === true) return `tool error ${J(result.content).slice(0, 200)}`;
  const got = result.content?.[0]?.text;
  return got === text ? null : `wrong text ${J(got).slice(0, 120)} (wanted ${J(text).slice(0, 120)})`;
}

/** The responses (results and errors) among JSON-RPC messages. */
export const responses = (messages: unknown[]): Json[] =>
  messages.filter((m): m is Json => isJsonRpcMessage(m) && m.method === undefined && ('result' in m || 'error' in m));

/** What every message from the proxy must be: JSON-RPC, and never "Internal error". */
export function checkMessage(ctx: RunContext, kind: string, m: unknown, what: () => string): void {
  if (!isJsonRpcMessage(m)) {
    ctx.stats.violation('not_jsonrpc', kind, `a message that is not JSON-RPC: ${J(m)?.slice(0, 200)} in ${what()}`);
    return;
  }
  const e = jsonRpcError(m);
  if (e !== undefined && e.code === -32603 && e.message === 'Internal error') {
    ctx.stats.violation('internal_error', kind, `"Internal error" (an exception inside the proxy): ${what()}`);
  }
}

/** Counts the outcome of one attacker request under `kind` and records what it breaks. */
export function judge(ctx: RunContext, kind: string, spec: HttpSpec, r: HttpResult, expect: Expect = {}): void {
  const { stats } = ctx;
  const outcome = r.hung ? 'hang' : r.status === -1 ? 'client-refused' : r.status === 0 ? 'reset' : String(r.status);
  stats.record(kind, outcome);
  if (ctx.proxy.exited !== undefined) return; // after a crash everything fails; the crash is the finding
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
  for (const m of messages) checkMessage(ctx, kind, m, what);
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
