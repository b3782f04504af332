// Who may make the proxy ask the authorization server about a token it has not seen: every new
// token costs a round trip (introspection) or a key fetch, and a stranger can invent tokens without
// end. So each source address gets a few at a time and a rate, token shapes no real token has had
// share a bounded part, a share of the slots waits for sources that signed in before, and after the
// provider failed only those sources probe it, one at a time.
import { LRUCache } from 'lru-cache';
import { isIPv6 } from 'node:net';

export interface GateLimits {
  /** Verifications in flight at once, all sources together. */
  readonly total: number;
  /** Of `total`, kept for sources that verified a token before and for tokens verified before. */
  readonly reserved: number;
  /** In flight at once from one source address (an IPv6 /64 counts as one). */
  readonly perSource: number;
  /** New tokens one source may have verified in a burst, then `perSourcePerSecond`. */
  readonly perSourceBurst: number;
  readonly perSourcePerSecond: number;
  /** In flight at once for one token shape no verified token has had; all such shapes together: `unknownShapes`. */
  readonly perUnknownShape: number;
  readonly unknownShapes: number;
  /** After the provider failed, only sources known to it probe it, one at a time, for this long (ms). */
  readonly backoffMs: number;
}

export const DEFAULT_GATE_LIMITS: GateLimits = {
  total: 64,
  reserved: 16,
  perSource: 8,
  // A reverse proxy on the same host is one address for everyone: a burst of sign-ins at nine
  // o'clock fits, a stranger's flood gets one provider call a second.
  perSourceBurst: 30,
  perSourcePerSecond: 1,
  perUnknownShape: 4,
  unknownShapes: 24,
  backoffMs: 10_000,
};

/** Sources and shapes remembered (LRU): enough for a large team, bounded against a flood of addresses. */
const MAX_REMEMBERED = 10_000;

export type GateVerdict = { readonly admitted: true; readonly ticket: GateTicket } | { readonly admitted: false; readonly detail: string };

export interface GateTicket {
  /** Exactly once, with how the verification ended. */
  release(outcome: 'ok' | 'invalid' | 'unavailable'): void;
}

interface Bucket {
  tokens: number;
  at: number;
}

export class VerificationGate {
  private inFlight = 0;
  /** In flight per source key and per unknown shape (entries at 0 are deleted: at most `total` keys each). */
  private readonly bySource = new Map<string, number>();
  private readonly byShape = new Map<string, number>();
  private unknownShapeFlight = 0;
  private strangerFlight = 0;
  private readonly buckets = new LRUCache<string, Bucket>({ max: MAX_REMEMBERED });
  /** Source keys and token shapes of tokens verified before. */
  private readonly knownSources = new LRUCache<string, true>({ max: MAX_REMEMBERED });
  private readonly knownShapes = new LRUCache<string, true>({ max: 1_000 });
  private downUntil = 0;
  private probing = false;

  constructor(
    private readonly limits: GateLimits = DEFAULT_GATE_LIMITS,
    private readonly clock: () => number = Date.now,
  ) {}

  /**
   * `source`: the request's remote address (undefined: unknown, one source for all such).
   * `shape`: tokenShape() of the token. `renewal`: the token itself was verified before.
   */
  enter(source: string | undefined, shape: string, renewal: boolean): GateVerdict {
    const now = this.clock();
    const key = sourceKey(source);
    const knownSource = this.knownSources.has(key);
    const trusted = renewal || knownSource;
    const knownShape = renewal || this.knownShapes.has(shape);
    const { limits } = this;

    if (now < this.downUntil) {
      if (!trusted || this.probing) return refused('the authorization server failed moments ago');
    }
    if (this.inFlight >= limits.total) return refused(`${limits.total} new tokens are being checked already`);
    if (!trusted && this.strangerFlight >= limits.total - limits.reserved) return refused('the slots left are kept for addresses that signed in before');
    const fromSource = this.bySource.get(key) ?? 0;
    if (fromSource >= limits.perSource) return refused(`${limits.perSource} new tokens from this address are being checked already`);
    if (!knownShape) {
      if (this.unknownShapeFlight >= limits.unknownShapes) return refused('too many tokens of unfamiliar forms are being checked');
      if ((this.byShape.get(shape) ?? 0) >= limits.perUnknownShape) return refused('too many tokens of this form are being checked');
    }
    if (!renewal && !this.takeFromBucket(key, now)) return refused('this address sent too many new tokens; slow down');

    const probe = now < this.downUntil;
    this.inFlight += 1;
    if (probe) this.probing = true;
    if (!trusted) this.strangerFlight += 1;
    this.bySource.set(key, fromSource + 1);
    if (!knownShape) {
      this.unknownShapeFlight += 1;
      this.byShape.set(shape, (this.byShape.get(shape) ?? 0) + 1);
    }
    let released = false;
    const release = (outcome: 'ok' | 'invalid' | 'unavailable'): void => {
      if (released) return;
      released = true;
      this.inFlight -= 1;
      if (probe) this.probing = false;
      if (!trusted) this.strangerFlight -= 1;
      decrement(this.bySource, key);
      if (!knownShape) {
        this.unknownShapeFlight -= 1;
        decrement(this.byShape, shape);
      }
      if (outcome === 'ok') {
        this.knownSources.set(key, true);
        this.knownShapes.set(shape, true);
        this.downUntil = 0;
      } else if (outcome === 'unavailable') {
        this.downUntil = this.clock() + limits.backoffMs;
      }
    };
    return { admitted: true, ticket: { release } };
  }

  private takeFromBucket(key: string, now: number): boolean {
    const { perSourceBurst, perSourcePerSecond } = this.limits;
    const bucket = this.buckets.get(key) ?? { tokens: perSourceBurst, at: now };
    bucket.tokens = Math.min(perSourceBurst, bucket.tokens + ((now - bucket.at) / 1000) * perSourcePerSecond);
    bucket.at = now;
    this.buckets.set(key, bucket);
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  }
}

function refused(detail: string): GateVerdict {
  return { admitted: false, detail };
}

function decrement(map: Map<string, number>, key: string): void {
  const left = (map.get(key) ?? 1) - 1;
  if (left <= 0) map.delete(key);
  else map.set(key, left);
}

/**
 * One source per IPv4 address and per IPv6 /64 (one host can hold a whole /64); an IPv4-mapped
 * IPv6 address is its IPv4 address.
 */
export function sourceKey(address: string | undefined): string {
  if (address === undefined || address === '') return '?';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped !== null) return mapped[1] as string;
  if (!isIPv6(address)) return address;
  return expandIPv6(address).slice(0, 4).join(':') + '::/64';
}

function expandIPv6(address: string): string[] {
  const [head = '', tail] = address.split('%')[0]!.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const missing = tail === undefined ? 0 : 8 - left.length - right.length;
  return [...left, ...Array<string>(missing).fill('0'), ...right].map((part) => part.toLowerCase().replace(/^0+(?=.)/, ''));
}

/**
 * What kind of token this looks like, without saying which: a JWT by its header (the same for every
 * token of one key), an opaque token by its length, alphabet and prefix (`ya29.`, `gho_`). A
 * flood of invented tokens rarely matches the shape of the provider's real ones.
 */
export function tokenShape(token: string): string {
  const parts = token.split('.');
  if (parts.length === 3) return `jwt:${parts[0]!.slice(0, 200)}`;
  const prefix = /^[A-Za-z0-9]{1,8}[._-]/.exec(token)?.[0] ?? '';
  const alphabet = /^[0-9a-f]+$/.test(token) ? 'hex' : /^[A-Za-z0-9]+$/.test(token) ? 'alnum' : /^[A-Za-z0-9_-]+$/.test(token) ? 'b64url' : 'other';
  return `opaque:${token.length}:${alphabet}:${prefix}`;
}
