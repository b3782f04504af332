// The control group: well-behaved sessions (Streamable HTTP, batched, per-server, legacy SSE,
// WebSocket) calling fx's echo all through the attacks; each call must get exactly its own,
// correct answer within DEADLINE_MS.
import http from 'node:http';
import WebSocket from 'ws';
import { bodyMessages, isJsonRpcMessage, type Json } from './lib/answers.js';
import { HttpClient } from './lib/http.js';
import { tagText } from './lib/junk.js';
import type { Rng } from './lib/rng.js';
import { now, sleep } from './lib/time.js';
import { DEADLINE_MS } from './options.js';
import { J, RPC_HEADERS, echoProblem, keyOf, responses, type Id } from './judge.js';
import { call } from './messages.js';
import { openSse } from './open-sse.js';
import type { RunContext } from './context.js';

export interface ControlStats { ok: number; failed: number; notifications: number; failures: Map<string, number> }

export abstract class Control {
  readonly st: ControlStats = { ok: 0, failed: 0, notifications: 0, failures: new Map() };
  protected seq = 0;
  protected readonly rng: Rng;
  protected readonly answered = new Set<string>();
  running = true;

  constructor(protected readonly ctx: RunContext, readonly name: string, root: Rng, protected readonly concurrency: number) {
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
    if (this.ctx.proxy.exited === undefined) this.ctx.stats.violation(`control_${type}`, `control.${this.name}`, detail);
  }

  judgeAnswer(msg: Json | undefined, id: Id, text: string): void {
    const problem = echoProblem(msg, id, text);
    if (problem === null) this.st.ok += 1;
    else this.fail(msg === undefined ? 'lost' : 'wrong', `call ${J(id)}: ${problem}`);
  }

  async loop(): Promise<void> {
    await Promise.all(Array.from({ length: this.concurrency }, async () => {
      while (this.running && !this.ctx.stopping()) {
        await this.runOne();
        await sleep(this.rng.int(0, 6));
      }
    }));
  }
}

export class HttpControl extends Control {
  private sid = '';
  private readonly http = new HttpClient('127.0.0.1', this.ctx.proxy.port, DEADLINE_MS);

  constructor(ctx: RunContext, name: string, root: Rng, private readonly path: string, private readonly tool: string, private readonly version: string, private readonly batch: boolean, concurrency: number) {
    super(ctx, name, root, concurrency);
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
    if (r.status !== 200 && this.ctx.proxy.exited === undefined) this.fail('http', `DELETE -> ${r.status}`);
  }
}

/** A control over one long-lived connection (SSE or WebSocket): calls pipelined, answers matched by id. */
export abstract class StreamControl extends Control {
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
    for (const until = now() + DEADLINE_MS + 500; this.pending.size > 0 && now() < until && this.ctx.proxy.exited === undefined; ) await sleep(20);
  }
}

export class SseControl extends StreamControl {
  private endpoint = '';
  private res: http.IncomingMessage | undefined;
  private req: http.ClientRequest | undefined;
  private readonly http = new HttpClient('127.0.0.1', this.ctx.proxy.port, DEADLINE_MS);

  async open(): Promise<void> {
    const sse = await openSse(this.ctx.proxy.port, '/sse', {});
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

export class WsControl extends StreamControl {
  private ws: WebSocket | undefined;

  constructor(ctx: RunContext, name: string, root: Rng, private readonly path: string, private readonly tool: string, concurrency: number) {
    super(ctx, name, root, concurrency);
  }

  async open(): Promise<void> {
    const ws = new WebSocket(`ws://127.0.0.1:${this.ctx.proxy.port}${this.path}`, 'mcp');
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

