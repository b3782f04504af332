// Client requests a server instance holds before sending them on: while it (re)starts, and while
// it has `maxConcurrent` requests in flight. Each waits at most its deadline, the room holds at most
// its bound, and a request leaves it exactly once: sent, withdrawn, timed out or failed.
import type { JsonRpcId, JsonRpcRequest, SwitchboardError } from '../jsonrpc/messages.js';
import type { Caller } from './types.js';

export interface Waiting {
  readonly caller: Caller;
  readonly request: JsonRpcRequest;
  readonly timer: NodeJS.Timeout;
}

export class WaitingRoom {
  private waiting: Waiting[] = [];

  constructor(readonly bound: number) {}

  get size(): number {
    return this.waiting.length;
  }

  get full(): boolean {
    return this.waiting.length >= this.bound;
  }

  /** Holds `request` until taken out; after `timeoutMs` it is answered with `expired()`'s error. */
  hold(caller: Caller, request: JsonRpcRequest, timeoutMs: number, expired: () => SwitchboardError): void {
    const downstreamId = request.id;
    const timer = setTimeout(() => {
      this.waiting = this.waiting.filter((w) => w.timer !== timer);
      caller.forwarded(downstreamId, expired());
    }, timeoutMs);
    timer.unref();
    this.waiting.push({ caller, request, timer });
  }

  /** The oldest request, out of the room (its timer stopped). */
  next(): Waiting | undefined {
    const w = this.waiting.shift();
    if (w !== undefined) clearTimeout(w.timer);
    return w;
  }

  /** Every request, out of the room, oldest first. */
  takeAll(): Waiting[] {
    const all = this.waiting;
    this.waiting = [];
    for (const w of all) clearTimeout(w.timer);
    return all;
  }

  /** Drops one request (the client cancelled it before it could be sent). */
  withdraw(caller: Caller, downstreamId: JsonRpcId): void {
    this.waiting = this.waiting.filter((w) => {
      if (w.caller !== caller || w.request.id !== downstreamId) return true;
      clearTimeout(w.timer);
      return false;
    });
  }

  /** Drops the requests of a caller that went away. */
  abandon(caller: Caller): void {
    this.waiting = this.waiting.filter((w) => {
      if (w.caller !== caller) return true;
      clearTimeout(w.timer);
      return false;
    });
  }

  /** Answers every request with `error` (the instance stopped, or is known down). */
  failAll(error: () => SwitchboardError): void {
    for (const w of this.takeAll()) w.caller.forwarded(w.request.id, error());
  }
}
