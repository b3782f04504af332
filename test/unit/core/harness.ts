// Drives the socket-free core (SwitchboardCore, Router, Session, ChildMessages) with an in-memory
// channel per session, and either real fixture children or children scripted in memory
// (scripted-child.ts): a change to routing, ids, progress, cancellation or list_changed fails here
// in milliseconds, without HTTP, SSE or WebSocket in the way.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AGGREGATE_SCOPE, type ViewScope } from '../../../src/catalog/view.js';
import { resolveConfig } from '../../../src/config/load.js';
import { classify, type JsonObject, type JsonRpcId, type JsonRpcMessage } from '../../../src/jsonrpc/messages.js';
import { silentLogger } from '../../../src/log.js';
import type { Session } from '../../../src/session/session.js';
import type { SessionChannel } from '../../../src/session/opening.js';
import type { TransportEvents } from '../../../src/upstream/transport.js';
import { SwitchboardCore } from '../../../src/switchboard.js';
import type { Serialized } from '../../../src/wire/result-bytes.js';
import { ScriptedChild } from './scripted-child.js';

export const FIXTURE = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/fixture-server.mjs');
const WAIT_MS = 20_000;

interface Delivered {
  readonly message: JsonRpcMessage & { id?: JsonRpcId; method?: string; result?: JsonObject; error?: { code: number; message: string }; params?: JsonObject };
  readonly relatedTo: JsonRpcId | undefined;
}

/** A client's side of one session: what the core delivered, in order, and what it abandoned. */
export class MemoryChannel implements SessionChannel {
  readonly delivered: Delivered[] = [];
  readonly abandoned: JsonRpcId[] = [];
  closedWith: string | undefined;
  private readonly waiters = new Set<() => void>();

  deliver(message: JsonRpcMessage, relatedTo: JsonRpcId | undefined, serialized?: Serialized): void {
    // A result forwarded as the child's own text arrives as bytes with a stand-in object: the text is the message.
    const real = serialized === undefined ? message : (JSON.parse(typeof serialized === 'string' ? serialized : serialized.toString()) as JsonRpcMessage);
    this.delivered.push({ message: real as Delivered['message'], relatedTo });
    for (const wake of [...this.waiters]) wake();
  }

  abandon(requestId: JsonRpcId): void {
    this.abandoned.push(requestId);
    for (const wake of [...this.waiters]) wake();
  }

  close(reason: string): void {
    this.closedWith = reason;
  }

  /** The first delivered message `match` accepts, waiting for it if need be. */
  async next(match: (d: Delivered) => boolean, what: string, timeoutMs = WAIT_MS): Promise<Delivered> {
    const found = (): Delivered | undefined => this.delivered.find(match);
    const now = found();
    if (now !== undefined) return now;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`no ${what} within ${timeoutMs} ms; delivered: ${this.delivered.map((d) => d.message.method ?? `response ${String(d.message.id)}`).join(', ')}`));
      }, timeoutMs);
      const check = (): void => {
        const hit = found();
        if (hit === undefined) return;
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve(hit);
      };
      this.waiters.add(check);
    });
  }

  responseTo(id: JsonRpcId): Promise<Delivered> {
    return this.next((d) => d.message.id === id && d.message.method === undefined, `response to ${String(id)}`);
  }
}

export interface Client {
  readonly session: Session;
  readonly channel: MemoryChannel;
  request(method: string, params?: JsonObject, id?: JsonRpcId): Promise<Delivered>;
  /** Sends a request without waiting; returns its id. */
  send(method: string, params?: JsonObject, id?: JsonRpcId): JsonRpcId;
  notify(method: string, params?: JsonObject): void;
  /** Answers a request the core sent this client (sampling, elicitation, roots). */
  answer(id: JsonRpcId, result: JsonObject): void;
  /** The proxy's initialize result: its capabilities and identity. */
  readonly initialized: JsonObject;
}

/** Sets up each scripted child the core opens (its tools, its call handlers) before its handshake. */
export type Script = (child: ScriptedChild) => void;

export class CoreHarness {
  private nextId = 1;
  /** The config's directory: relative paths in it (roots) resolve here. */
  readonly dir: string;
  readonly core: SwitchboardCore;
  /** Every scripted child the core opened, by server, oldest first (a restart opens another). */
  private readonly opened = new Map<string, ScriptedChild[]>();

  /**
   * `servers`: each server's environment for the fixture child. With `script`, no process starts:
   * each server is a ScriptedChild the core is given through its transport seam. `config`: more
   * fields of a server's entry (isolation, roots).
   */
  constructor(servers: Record<string, Record<string, string>>, options: { script?: Script; config?: Record<string, Record<string, unknown>> } = {}) {
    const { script, config: extra = {} } = options;
    this.dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-core-harness-'));
    const mcpServers = Object.fromEntries(Object.entries(servers).map(([name, env]) => [name, { command: process.execPath, args: [FIXTURE], env: { FIXTURE_NAME: name, ...env }, ...extra[name] }]));
    const config = resolveConfig({ mcpServers }, { file: '<inline>', dir: this.dir }, process.env);
    const openTransport = script === undefined ? undefined : (server: { name: string }, events: TransportEvents): ScriptedChild => {
      const child = new ScriptedChild(server.name, events);
      script(child);
      this.opened.set(server.name, [...(this.opened.get(server.name) ?? []), child]);
      return child;
    };
    this.core = new SwitchboardCore(config, silentLogger(), openTransport === undefined ? {} : { openTransport });
  }

  /** The newest scripted child the core opened for `server`: its shared child, a restart of it, or a session's own (isolation). */
  child(server: string): ScriptedChild {
    const children = this.opened.get(server) ?? [];
    const newest = children[children.length - 1];
    if (newest === undefined) throw new Error(`no scripted child was opened for ${server}`);
    return newest;
  }

  /** Every scripted child opened for `server`, oldest first: the shared one, then a session's own (isolation) or a restart. */
  children(server: string): readonly ScriptedChild[] {
    return this.opened.get(server) ?? [];
  }

  async start(): Promise<void> {
    this.core.start();
    const deadline = Date.now() + WAIT_MS;
    while (!this.core.ready()) {
      if (Date.now() > deadline) throw new Error('the fixture servers did not become ready');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** Opens and initializes a session; `capabilities` are the client's (sampling, roots, elicitation). */
  async open(capabilities: JsonObject = {}, scope: ViewScope = AGGREGATE_SCOPE): Promise<Client> {
    const channel = new MemoryChannel();
    const opened = this.core.openSession('websocket', { scope, principal: 'test', query: '' }, channel, '2025-11-25');
    if ('refused' in opened) throw new Error(`session refused: ${opened.refused}`);
    const session = opened;
    // Through the core's one door, as every transport does.
    const accept = (message: unknown): void => {
      if (!this.core.accept(session, classify(message))) throw new Error(`the core refused ${JSON.stringify(message)}`);
    };
    const send = (method: string, params: JsonObject = {}, id: JsonRpcId = this.nextId++): JsonRpcId => {
      accept({ jsonrpc: '2.0', id, method, params });
      return id;
    };
    const client: Omit<Client, 'initialized'> = {
      session,
      channel,
      send,
      request: (method, params, id) => channel.responseTo(send(method, params, id)),
      notify: (method, params = {}) => accept({ jsonrpc: '2.0', method, params }),
      answer: (id, result) => accept({ jsonrpc: '2.0', id, result }),
    };
    const init = await client.request('initialize', { protocolVersion: '2025-11-25', capabilities, clientInfo: { name: 'harness', version: '1' } });
    if (init.message.error !== undefined) throw new Error(`initialize failed: ${init.message.error.message}`);
    client.notify('notifications/initialized');
    return Object.assign(client, { initialized: init.message.result ?? {} });
  }

  async stop(): Promise<void> {
    await this.core.stop();
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Resolves once `condition` holds (checked every few ms), or fails naming `what` after WAIT_MS. */
export async function waitUntil(condition: () => boolean, what: string, timeoutMs = WAIT_MS): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; !condition(); ) {
    if (Date.now() > deadline) throw new Error(`no ${what} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** The text of a tools/call result's first content item. */
export function textOf(d: Delivered): string {
  const content = (d.message.result as { content?: Array<{ text?: string }> } | undefined)?.content;
  return content?.[0]?.text ?? `(no text: ${JSON.stringify(d.message)})`;
}
