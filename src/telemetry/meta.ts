// Trace context into a forwarded request's `params._meta` (traceparent, tracestate), so a server
// that traces joins the client's trace (the MCP convention for context in `_meta`).
import { isObject, type JsonObject, type JsonRpcRequest } from '../jsonrpc/messages.js';
import { spliceNoMore, type RawCarrier } from '../wire/request-splice.js';
import type { OutgoingTrace, RequestTrace } from './types.js';

/** Where a request's spans ride from the router to the connection that sends it: a symbol, never serialized. */
export const TRACE: unique symbol = Symbol('request trace');

export interface TraceCarrier {
  [TRACE]?: RequestTrace;
}

/**
 * Sets `_meta.traceparent` (and `tracestate`) on `request`. A request kept as text to splice is
 * parsed whole first, as for the stateless envelope: tracing trades the splice for the edit.
 */
export function injectTraceMeta(request: JsonRpcRequest & RawCarrier, trace: OutgoingTrace): void {
  spliceNoMore(request);
  const params = (request.params ??= {});
  const meta: JsonObject = isObject(params._meta) ? { ...params._meta } : {};
  meta.traceparent = trace.traceparent;
  if (trace.tracestate !== undefined) meta.tracestate = trace.tracestate;
  else delete meta.tracestate;
  params._meta = meta;
}

/** The W3C context a request carries in `_meta`, when it carries one. */
export function metaTraceContext(meta: unknown): { traceparent: string; tracestate: string | undefined } | undefined {
  if (!isObject(meta) || typeof meta.traceparent !== 'string') return undefined;
  return { traceparent: meta.traceparent, tracestate: typeof meta.tracestate === 'string' ? meta.tracestate : undefined };
}
