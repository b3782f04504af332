// Stream sessions (legacy SSE and WebSocket) carry many requests over one connection: the Book
// tracks what must come back on one, and streamMessage makes the messages sent on them.
import { isJsonRpcMessage, jsonRpcError, looksLikeStack, type Json } from './lib/answers.js';
import { badEnvelope, deepJson, invalidJson, junkValue, tagText } from './lib/junk.js';
import type { Rng } from './lib/rng.js';
import { now, sleep } from './lib/time.js';
import { DEADLINE_MS, END_GRACE_MS, PROTOCOL_VERSIONS, type Excluded } from './options.js';
import { J, checkMessage, echoProblem, keyOf, type Id } from './judge.js';
import { call, junkReply, newId, validRequest, type ToolTarget } from './messages.js';
import type { RunContext } from './context.js';

/** Who must answer what on a stream session (SSE or WebSocket): pending ids, errors without id, duplicates. */
export class Book {
  readonly pending = new Map<string, { id: Id; check: ((m: Json) => string | null) | undefined; label: string }>();
  private readonly answered = new Set<string>();
  private readonly cancelled = new Set<string>();
  nullErrorsExpected = 0;
  nullErrorsSeen = 0;

  constructor(
    private readonly ctx: RunContext,
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
    if (looksLikeStack(raw)) this.ctx.stats.violation('stack_trace', this.kind, `${raw.slice(0, 300)} (${this.context()})`);
    let m: unknown;
    try {
      m = JSON.parse(raw);
    } catch {
      this.ctx.stats.violation('bad_body', this.kind, `a message that is not JSON: ${raw.slice(0, 200)} (${this.context()})`);
      return;
    }
    checkMessage(this.ctx, this.kind, m, () => `${raw.slice(0, 300)} (${this.context()})`);
    if (!isJsonRpcMessage(m)) return;
    if (typeof m.method === 'string') {
      if (m.id !== undefined) this.reply(junkReply(this.rng, m.id, this.ctx.options.excluded)); // a server-to-client request
      return;
    }
    if (m.id === null) {
      this.nullErrorsSeen += 1;
      if (jsonRpcError(m) === undefined) this.ctx.stats.violation('not_jsonrpc', this.kind, `a response without id that is not an error: ${raw.slice(0, 200)}`);
      return;
    }
    const key = keyOf(m.id);
    const p = this.pending.get(key);
    if (p === undefined) {
      if (this.cancelled.has(key)) return; // cancelled, answered anyway: allowed
      const type = this.answered.has(key) ? 'answered_twice' : 'crossed_answer';
      this.ctx.stats.violation(type, this.kind, `${type === 'answered_twice' ? 'a second answer' : 'an answer nobody asked for'} with id ${J(m.id)}: ${raw.slice(0, 300)} (${this.context()}; last sent: ${this.sent.join(' | ')})`);
      return;
    }
    this.pending.delete(key);
    this.answered.add(key);
    const problem = p.check?.(m) ?? null;
    if (problem !== null) this.ctx.stats.violation('wrong_answer', this.kind, `${p.label}: ${problem} (${this.context()})`);
  }

  /**
   * Waits for every expected answer; reports what never came. At the end of the run the wait is
   * cut to a few seconds, and what is still missing then is not judged (there was no time to).
   */
  async settle(alive: () => boolean, timeoutMs = DEADLINE_MS): Promise<void> {
    const full = now() + timeoutMs;
    const until = Math.min(full, this.ctx.attackUntil + END_GRACE_MS);
    const cut = until < full;
    while (now() < until && alive() && this.ctx.proxy.exited === undefined && (this.pending.size > 0 || this.nullErrorsSeen < this.nullErrorsExpected)) await sleep(20);
    // Late duplicates show up in the quiet time after the last answer.
    if (alive()) await sleep(100);
    if (!alive() || this.ctx.proxy.exited !== undefined) return;
    if (cut && now() >= until && (this.pending.size > 0 || this.nullErrorsSeen < this.nullErrorsExpected)) {
      this.ctx.stats.note('answers still outstanding when the run ended (not judged)', this.context());
      return;
    }
    for (const p of this.pending.values()) this.ctx.stats.violation('unanswered', this.kind, `no answer within ${timeoutMs} ms for ${p.label} id ${J(p.id)} (${this.context()})`);
    if (this.nullErrorsSeen < this.nullErrorsExpected) {
      this.ctx.stats.violation('unanswered', this.kind, `${this.nullErrorsExpected - this.nullErrorsSeen} of ${this.nullErrorsExpected} malformed messages got no error (${this.context()})`);
    }
  }
}

export const codeCheck = (codes: number[]) => (m: Json): string | null => {
  const code = jsonRpcError(m)?.code;
  return code !== undefined && codes.includes(code) ? null : `wanted error ${codes.join('/')}, got ${J(m).slice(0, 200)}`;
};
export const echoCheck = (id: Id, text: string) => (m: Json): string | null => echoProblem(m, id, text);


/**
 * One message for a stream session and what must come back: `id` (an answer for that id),
 * `nullError` (an error without id), nothing, or `fatal` (the connection must close).
 */
export function streamMessage(rng: Rng, t: ToolTarget, tag: string, transport: 'sse' | 'ws', excluded: Excluded): { text: string; expectId?: Id; check?: (m: Json) => string | null; label: string; nullError?: boolean } {
  const pick = rng.int(0, 11);
  if (pick <= 3) {
    const v = validRequest(rng, t, tag, excluded);
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

