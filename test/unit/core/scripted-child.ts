// A child the core's tests script in memory, given to the core through its transport seam
// (`CoreOptions.openTransport`): it answers the handshake and lists as an MCP server would, runs
// tools/call through handlers a test sets, and lets the test write notifications and requests as
// the child and wait for what the proxy wrote to it. No process, no pipe: routing in milliseconds.
import type { JsonObject, JsonRpcId } from '../../../src/jsonrpc/messages.js';
import type { TransportEvents } from '../../../src/upstream/transport.js';
import { MemoryTransport, type Written } from '../../memory-transport.js';

const WAIT_MS = 10_000;

/**
 * Runs one tools/call: a result to answer with at once, or undefined when the test answers later
 * (`answer`), or never (a call that hangs).
 */
export type CallHandler = (args: JsonObject, request: Written) => JsonObject | undefined;

const echo: CallHandler = (args) => ({ content: [{ type: 'text', text: String(args.text ?? '') }] });

export class ScriptedChild extends MemoryTransport {
  tools: JsonObject[] = [{ name: 'echo', description: 'Echoes its text.', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } }];
  /** tools/call handlers by tool name; a tool without one echoes its `text` argument. */
  readonly calls = new Map<string, CallHandler>();
  private readonly waiters = new Set<() => void>();
  private ownRequests = 0;

  constructor(
    readonly name: string,
    events: TransportEvents,
  ) {
    super(events);
    this.script = (message) => this.respond(message);
  }

  private respond(message: JsonObject): JsonObject | undefined {
    for (const wake of [...this.waiters]) wake();
    const { id, method } = message as { id?: JsonRpcId; method?: string };
    // Notifications and the proxy's answers to the child's own requests need no reply.
    if (id === undefined || method === undefined) return undefined;
    const params = (message.params ?? {}) as JsonObject;
    const ok = (result: JsonObject): JsonObject => ({ jsonrpc: '2.0', id, result });
    switch (method) {
      case 'initialize':
        return ok({ protocolVersion: params.protocolVersion as string, capabilities: { tools: { listChanged: true } }, serverInfo: { name: this.name, version: '1.0.0' } });
      case 'tools/list':
        return ok({ tools: this.tools });
      case 'ping':
        return ok({});
      case 'tools/call': {
        // Run after the proxy's write returns, as a child reading its stdin would: a handler that
        // writes to the proxy (a request to the client) must not re-enter it mid-write.
        const handler = this.calls.get(String(params.name)) ?? echo;
        const call = this.written[this.written.length - 1]!;
        queueMicrotask(() => {
          const result = handler((params.arguments ?? {}) as JsonObject, call);
          if (result !== undefined) this.answer(id, result);
        });
        return undefined;
      }
      default:
        return { jsonrpc: '2.0', id, error: { code: -32601, message: `Method not found: ${method}` } };
    }
  }

  /** Answers a request the proxy sent this child (a call its handler left open). */
  answer(id: JsonRpcId, result: JsonObject): void {
    this.send({ jsonrpc: '2.0', id, result });
  }

  notify(method: string, params: JsonObject = {}): void {
    this.send({ jsonrpc: '2.0', method, params });
  }

  /** Sends a request as the child (sampling, elicitation, roots) and resolves with the proxy's answer to it. */
  async request(method: string, params: JsonObject): Promise<JsonObject> {
    const id = `child-${(this.ownRequests += 1)}`;
    this.send({ jsonrpc: '2.0', id, method, params });
    const answer = await this.next((w) => w.method === undefined && w.message.id === id, `the proxy's answer to ${method} ${id}`);
    return answer.message;
  }

  /**
   * The first call of `tool` the proxy wrote after the first `since` messages, waiting for it: take
   * `child.written.length` before sending, so a call an earlier test left is not mistaken for it.
   */
  callAfter(since: number, tool: string): Promise<Written> {
    return this.next((w) => w.method === 'tools/call' && (w.message.params as JsonObject).name === tool && this.written.indexOf(w) >= since, `a call of ${tool}`);
  }

  /** Requests the proxy sent with `method`, in order. */
  requests(method: string): Written[] {
    return this.written.filter((w) => w.method === method && w.id !== undefined);
  }

  /** The first message the proxy wrote that `match` accepts, waiting for it if need be. */
  next(match: (w: Written) => boolean, what: string, timeoutMs = WAIT_MS): Promise<Written> {
    const now = this.written.find(match);
    if (now !== undefined) return Promise.resolve(now);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`${this.name}: no ${what} within ${timeoutMs} ms; written: ${this.written.map((w) => w.method ?? `response ${String(w.id)}`).join(', ')}`));
      }, timeoutMs);
      const check = (): void => {
        const hit = this.written.find(match);
        if (hit === undefined) return;
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve(hit);
      };
      this.waiters.add(check);
    });
  }
}
