// The requests in flight towards one child: our ids for them, admission under a bound, their
// deadlines, and a way out for each (its answer, a timeout, the child's exit).
import type { JsonRpcResponse } from '../jsonrpc/messages.js';
import type { Pending } from './types.js';

export class PendingTable {
  private entries = new Map<number, Pending>();
  private nextId = 1;

  /**
   * `max`: most requests waiting at once; beyond it requests are refused, not queued. `onVacancy`:
   * told whenever an entry leaves, so whoever caps concurrency below `max` can send the next one.
   */
  constructor(
    private readonly max: number,
    private readonly onVacancy: (() => void) | undefined = undefined,
  ) {}

  /** A fresh id for a request to the child: a number, never reused by this connection. */
  mint(): number {
    return this.nextId++;
  }

  get size(): number {
    return this.entries.size;
  }

  get full(): boolean {
    return this.entries.size >= this.max;
  }

  get(upstreamId: number): Pending | undefined {
    return this.entries.get(upstreamId);
  }

  values(): IterableIterator<Pending> {
    return this.entries.values();
  }

  /** Registers `entry` under its upstream id (callers check `full` first). */
  add(entry: Pending): void {
    this.entries.set(entry.upstreamId, entry);
  }

  /** The entry waiting under `upstreamId`, no longer waiting. */
  take(upstreamId: number): Pending | undefined {
    const entry = this.entries.get(upstreamId);
    if (entry !== undefined) {
      this.entries.delete(upstreamId);
      this.onVacancy?.();
    }
    return entry;
  }

  /** Stops waiting for `entry`; false when it was no longer waiting (answered, expired, sent again). */
  forget(entry: Pending): boolean {
    if (this.entries.get(entry.upstreamId) !== entry) return false;
    this.entries.delete(entry.upstreamId);
    this.onVacancy?.();
    return true;
  }

  /**
   * Takes out every entry whose deadline is past and hands each to `each`, oldest first. Requests
   * have the server's timeout (the era probe's is shorter, but is alone in flight), so insertion
   * order is deadline order and the sweep stops at the first entry still in time.
   */
  expire(now: number, each: (entry: Pending) => void): void {
    for (const entry of this.entries.values()) {
      if (entry.deadline > now) return;
      this.entries.delete(entry.upstreamId);
      each(entry);
      this.onVacancy?.();
    }
  }

  /** Empties the table and returns what it held: swapped first, so a caller reacting to its error cannot touch the map being drained. */
  drain(): Iterable<Pending> {
    const drained = this.entries;
    this.entries = new Map();
    return drained.values();
  }
}

/** Answers a pending request without the child (timeout, child exit, a transport's own error) the way the child would have. */
export function answerLocally(entry: Pending, response: JsonRpcResponse): void {
  if (entry.trace !== undefined) entry.trace.end(errorType(response));
  if (entry.settle !== undefined) {
    entry.settle(response);
    return;
  }
  entry.caller?.answered(entry, response);
}

/**
 * What a traced request's spans are marked failed with (OpenTelemetry MCP conventions): the
 * JSON-RPC error code, or `tool_error` for a tool result with isError; undefined for success.
 */
export function errorType(response: JsonRpcResponse): string | undefined {
  if ('error' in response) return String(response.error.code);
  const result: unknown = response.result;
  return typeof result === 'object' && result !== null && (result as { isError?: unknown }).isError === true ? 'tool_error' : undefined;
}
