// Request counters the proxy keeps as it answers clients: plain typed arrays indexed by small
// integers, so counting a request costs a few array updates and no allocation; /metrics and
// /status.json read them (and everything else) when asked.
import type { JsonRpcMessage } from '../jsonrpc/messages.js';

/** Methods counted under their own name; anything else (unknown methods included) is `other`, so clients cannot mint labels. */
export const METHODS = [
  'initialize',
  'ping',
  'tools/list',
  'prompts/list',
  'resources/list',
  'resources/templates/list',
  'logging/setLevel',
  'tools/call',
  'prompts/get',
  'resources/read',
  'resources/subscribe',
  'resources/unsubscribe',
  'completion/complete',
  'tasks/get',
  'tasks/result',
  'tasks/cancel',
  'other',
] as const;
const OTHER_METHOD = METHODS.length - 1;
const METHOD_SLOTS = new Map<string, number>(METHODS.map((method, slot) => [method, slot]));

/** A method's slot in METHODS; `other` for methods we do not serve. */
export function methodSlot(method: string): number {
  return METHOD_SLOTS.get(method) ?? OTHER_METHOD;
}

/**
 * How a request ended. Errors are named by their JSON-RPC code class; `timeout` (-32001, the server
 * did not answer in `timeoutMs`) and `refused` (-32003, a bound was hit, or the proxy was stopping)
 * stand apart because they mean something else to an operator. `tool_error` is a tools/call result
 * with `isError: true`; `cancelled` requests got no answer (the client cancelled, or its session ended).
 */
export const OUTCOMES = [
  'result',
  'tool_error',
  'timeout',
  'refused',
  'unavailable',
  'parse_error',
  'invalid_request',
  'method_not_found',
  'invalid_params',
  'internal_error',
  'not_found',
  'server_error',
  'other_error',
  'cancelled',
] as const;
export type Outcome = (typeof OUTCOMES)[number];
const O = Object.fromEntries(OUTCOMES.map((name, index) => [name, index])) as Record<Outcome, number>;
export const OUTCOME_COUNT = OUTCOMES.length;

const TOOLS_CALL = methodSlot('tools/call');

/** Latency histogram groups: what a dashboard wants apart (tool calls are the slow, interesting ones). */
export const LATENCY_GROUPS = ['tools/call', 'list', 'other'] as const;
const GROUP_OF_SLOT: readonly number[] = METHODS.map((method) => (method === 'tools/call' ? 0 : method.endsWith('/list') ? 1 : 2));

/**
 * Upper bounds of the latency buckets, ms (exposed in seconds). A proxied call of a small tool takes
 * ~0.2 ms on a laptop, a real tool call anything up to `timeoutMs` (60 s by default).
 */
export const LATENCY_BOUNDS_MS = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10_000, 30_000, 60_000] as const;
/** Buckets per group: the bounds, then +Inf. */
export const LATENCY_BUCKETS = LATENCY_BOUNDS_MS.length + 1;

/** The outcome index of a response (`message` is a JSON-RPC response). */
function outcomeOf(message: JsonRpcMessage, slot: number): number {
  const error = (message as { error?: { code?: unknown } }).error;
  if (error === undefined) {
    // Only a tool result's own flag; reading it costs one property load on an object already parsed.
    if (slot === TOOLS_CALL && (message as { result?: { isError?: unknown } }).result?.isError === true) return O.tool_error;
    return O.result;
  }
  switch (error.code) {
    case -32001:
      return O.timeout;
    case -32003:
      return O.refused;
    case -32000:
      return O.unavailable;
    case -32700:
      return O.parse_error;
    case -32600:
      return O.invalid_request;
    case -32601:
      return O.method_not_found;
    case -32602:
      return O.invalid_params;
    case -32603:
      return O.internal_error;
    case -32002:
      return O.not_found;
    default: {
      const code = error.code;
      return typeof code === 'number' && code >= -32099 && code <= -32000 ? O.server_error : O.other_error;
    }
  }
}
export class RequestStats {
  /** Requests that ended, by `slot * OUTCOME_COUNT + outcome`. Float64: counters outgrow int32 on a busy proxy. */
  readonly requests = new Float64Array(METHODS.length * OUTCOME_COUNT);
  /** Answered requests by latency bucket, `group * LATENCY_BUCKETS + bucket`, not cumulative (the exposition sums them). */
  readonly latency = new Float64Array(LATENCY_GROUPS.length * LATENCY_BUCKETS);
  /** Sum of the latencies per group, ms. */
  readonly latencySumMs = new Float64Array(LATENCY_GROUPS.length);

  /** The clock arrival times are read from, ms; monotonic. */
  now(): number {
    return performance.now();
  }

  /** A response to the request of method `slot` that arrived at `receivedAt` goes out now. */
  answered(slot: number, response: JsonRpcMessage, receivedAt: number): void {
    this.requests[slot * OUTCOME_COUNT + outcomeOf(response, slot)]! += 1;
    const ms = performance.now() - receivedAt;
    const group = GROUP_OF_SLOT[slot] ?? 2;
    let bucket = 0;
    // Most answers land in the first few buckets, so a scan from the bottom beats a binary search.
    while (bucket < LATENCY_BOUNDS_MS.length && ms > (LATENCY_BOUNDS_MS[bucket] as number)) bucket += 1;
    this.latency[group * LATENCY_BUCKETS + bucket]! += 1;
    this.latencySumMs[group]! += ms;
  }

  /** A request that ended without a response (cancelled), or one refused before it was handled. */
  ended(slot: number, outcome: 'cancelled' | 'refused'): void {
    this.requests[slot * OUTCOME_COUNT + O[outcome]]! += 1;
  }

  /** Requests of `outcome` over all methods. */
  total(outcome?: Outcome): number {
    let sum = 0;
    for (let slot = 0; slot < METHODS.length; slot++) {
      if (outcome !== undefined) sum += this.requests[slot * OUTCOME_COUNT + O[outcome]] as number;
      else for (let o = 0; o < OUTCOME_COUNT; o++) sum += this.requests[slot * OUTCOME_COUNT + o] as number;
    }
    return sum;
  }
}
