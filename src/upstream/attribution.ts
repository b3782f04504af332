// Which session a message the child sends on its own (a sampling request, a log line) may belong
// to, as far as this connection can tell: the callers with requests in flight, and those that gave
// up on one recently (cancellation is advisory: the child may go on working, and asking, for it).
import type { Caller, Pending } from './types.js';

/** How long a caller that cancelled or timed out a request still counts as possibly involved, ms. */
const LINGER_MS = 30_000;
/** Callers remembered as recently involved with a child, at most. */
const MAX_LINGERING = 1_000;

export type Attribution = { caller: Caller; latest: Pending } | { callers: number };

export class Involvement {
  /** Callers that cancelled or timed out a request here, until when they still count as involved. */
  private readonly lingering = new Map<Caller, number>();

  /** Remembers for a while that this entry's caller abandoned a request the child may still be running. */
  linger(entry: Pending, now = Date.now()): void {
    if (entry.caller === null) return;
    // Callers come and go (every stateless request is one): the oldest entries are the first to
    // have expired, and past the bound the oldest go even unexpired, so this never grows unbounded.
    for (const [caller, until] of this.lingering) {
      if (until >= now && this.lingering.size < MAX_LINGERING) break;
      this.lingering.delete(caller);
    }
    this.lingering.delete(entry.caller);
    this.lingering.set(entry.caller, now + LINGER_MS);
  }

  /**
   * The one caller that may have caused the message: the only caller with requests in flight,
   * provided no other caller gave up on a request recently. Otherwise how many callers are
   * involved. `sessionsOnly`: callers of the stateless era do not count (see UpstreamConnection.soleCaller).
   */
  soleCaller(pending: Iterable<Pending>, sessionsOnly: boolean, now = Date.now()): Attribution {
    const involved = new Set<Caller>();
    for (const [caller, until] of this.lingering) {
      if (until < now) this.lingering.delete(caller);
      else if (!sessionsOnly || !caller.acceptsInputRequired) involved.add(caller);
    }
    let latest: Pending | undefined;
    for (const entry of pending) {
      if (entry.caller === null || (sessionsOnly && entry.caller.acceptsInputRequired)) continue;
      involved.add(entry.caller);
      latest = entry;
    }
    if (involved.size === 1 && latest !== undefined && latest.caller !== null) return { caller: latest.caller, latest };
    return { callers: involved.size };
  }
}

/** The latest in-flight request of `caller` among `pending`. */
export function latestOf(pending: Iterable<Pending>, caller: Caller): Pending | undefined {
  let latest: Pending | undefined;
  for (const entry of pending) if (entry.caller === caller) latest = entry;
  return latest;
}
