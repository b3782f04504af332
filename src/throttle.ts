// A per-key budget of events per time window, for logging what a hostile peer can repeat at will
// (a child's stderr, refused requests, findings): the first ones are logged, the rest are counted.

export interface ThrottleVerdict {
  /** Log this event. */
  readonly allowed: boolean;
  /** Events of this key dropped since the last one allowed: say so with the next one logged. */
  readonly dropped: number;
}

interface Window {
  start: number;
  count: number;
  dropped: number;
}

const ALLOWED: ThrottleVerdict = Object.freeze({ allowed: true, dropped: 0 });
const DENIED: ThrottleVerdict = Object.freeze({ allowed: false, dropped: 0 });

/**
 * At most `burst` events per key in each `windowMs`. Keys are few and chosen by us (server names,
 * rule ids); `maxKeys` bounds the map anyway, forgetting the oldest window first.
 */
export class Throttle {
  private readonly windows = new Map<string, Window>();

  constructor(
    private readonly burst: number,
    private readonly windowMs: number,
    private readonly maxKeys = 1_000,
  ) {}

  take(key: string, now: number = Date.now()): ThrottleVerdict {
    let window = this.windows.get(key);
    if (window === undefined || now - window.start >= this.windowMs) {
      const dropped = window?.dropped ?? 0;
      if (window === undefined && this.windows.size >= this.maxKeys) this.windows.delete(this.windows.keys().next().value as string);
      window = { start: now, count: 1, dropped: 0 };
      this.windows.set(key, window);
      return dropped === 0 ? ALLOWED : { allowed: true, dropped };
    }
    if (window.count < this.burst) {
      window.count += 1;
      return ALLOWED;
    }
    window.dropped += 1;
    return DENIED;
  }

  /** Events dropped in the current window of `key` and not reported yet. */
  pending(key: string): number {
    return this.windows.get(key)?.dropped ?? 0;
  }
}
