// A child held in memory behind the connection's transport seam (no process, no pipe): what the
// proxy wrote to it, with the id and method the proxy said, and a way to write back. The
// connection's tests drive it by hand; the core's scripted child (unit/core/scripted-child.ts)
// answers the MCP handshake and lists on top of it.
import { expect } from 'vitest';
import type { JsonObject, JsonRpcId } from '../src/jsonrpc/messages.js';
import type { ChildExit, ChildTransport, TransportEvents, WriteOutcome } from '../src/upstream/transport.js';

export interface Written {
  readonly message: JsonObject;
  readonly id: JsonRpcId | undefined;
  readonly method: string | undefined;
}

/** A child held in memory: what the connection wrote (with the id and method it said), and a way to answer. */
export class MemoryTransport implements ChildTransport {
  readonly pid = undefined;
  alive = true;
  writable = true;
  readonly stderrTail: string[] = [];
  readonly written: Written[] = [];
  readonly abandoned: JsonRpcId[] = [];
  /** Answers the child gives on its own to what it is sent (the handshake), by method. */
  script: (message: JsonObject) => JsonObject | undefined = () => undefined;

  constructor(private readonly events: TransportEvents) {}

  write(line: string, id: JsonRpcId | undefined, method: string | undefined): WriteOutcome {
    if (!this.writable) return 'closed';
    expect(line.endsWith('\n')).toBe(true);
    const message = JSON.parse(line) as JsonObject;
    this.written.push({ message, id, method });
    const answer = this.script(message);
    if (answer !== undefined) queueMicrotask(() => this.send(answer));
    return 'sent';
  }

  writeEncoded(bytes: number, encode: (target: Buffer) => void, id: JsonRpcId | undefined, method: string | undefined): WriteOutcome {
    const buffer = Buffer.alloc(bytes);
    encode(buffer);
    return this.write(buffer.toString('utf8'), id, method);
  }

  abandon(id: JsonRpcId): void {
    this.abandoned.push(id);
  }

  stop(): Promise<void> {
    this.close({ code: 0, signal: null });
    return Promise.resolve();
  }

  /** The child writes one line; `carriedBy` as a remote server's response stream would say. */
  send(message: unknown, carriedBy?: number): void {
    const text = JSON.stringify(message);
    const bytes = Buffer.from(`${text}\n`);
    this.events.onLine(text, bytes, 0, bytes.length - 1, carriedBy);
  }

  /** A message the transport made up itself (a remote server's error for a request it could not carry). */
  madeUp(message: JsonObject, carriedBy?: number): void {
    this.events.onMessage(message, carriedBy);
  }

  close(exit: ChildExit): void {
    if (!this.alive) return;
    this.alive = false;
    this.writable = false;
    this.events.onExit(exit);
  }

  /** The messages written with `method`. */
  sent(method: string): Written[] {
    return this.written.filter((w) => w.method === method);
  }
}
