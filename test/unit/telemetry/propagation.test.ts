// Trace context in and out of `_meta`: the request a server gets carries the proxy's context,
// a request kept as text to splice is edited whole, and the client's own _meta is kept.
import { describe, expect, it } from 'vitest';
import type { JsonRpcRequest } from '../../../src/jsonrpc/messages.js';
import { injectTraceMeta, metaTraceContext } from '../../../src/telemetry/meta.js';
import { RAW_SPANS, RAW_TEXT, routedRequest, type RawCarrier } from '../../../src/wire/request-splice.js';

const TP = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

describe('trace context in _meta', () => {
  it('reads traceparent and tracestate from _meta, and nothing from anything else', () => {
    expect(metaTraceContext({ traceparent: TP, tracestate: 'a=b' })).toEqual({ traceparent: TP, tracestate: 'a=b' });
    expect(metaTraceContext({ traceparent: TP })).toEqual({ traceparent: TP, tracestate: undefined });
    expect(metaTraceContext({ traceparent: 7 })).toBeUndefined();
    expect(metaTraceContext(undefined)).toBeUndefined();
    expect(metaTraceContext('x')).toBeUndefined();
  });

  it('replaces the client\'s context with the proxy\'s and keeps the rest of _meta', () => {
    const request: JsonRpcRequest = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 't', arguments: {}, _meta: { progressToken: 5, traceparent: 'old', tracestate: 'old=1' } } };
    injectTraceMeta(request, { traceparent: TP, tracestate: undefined });
    expect(request.params?._meta).toEqual({ progressToken: 5, traceparent: TP });
    injectTraceMeta(request, { traceparent: TP, tracestate: 'k=v' });
    expect(request.params?._meta).toEqual({ progressToken: 5, traceparent: TP, tracestate: 'k=v' });
  });

  it('adds _meta to a request without params', () => {
    const request: JsonRpcRequest = { jsonrpc: '2.0', id: 1, method: 'ping' };
    injectTraceMeta(request, { traceparent: TP, tracestate: undefined });
    expect(request.params).toEqual({ _meta: { traceparent: TP } });
  });

  it('parses a request kept as text whole, keeping its arguments and the routed name', () => {
    const text = JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'fs__read', arguments: { blob: 'x'.repeat(2000) }, _meta: { progressToken: 'p' } } });
    const request = routedRequest(text) as unknown as JsonRpcRequest & RawCarrier;
    expect(request[RAW_SPANS]).toBeDefined();
    (request.params as Record<string, unknown>).name = 'read';
    (request.params?._meta as Record<string, unknown>).progressToken = 3;
    injectTraceMeta(request, { traceparent: TP, tracestate: undefined });
    expect(request[RAW_TEXT]).toBeUndefined();
    expect(request[RAW_SPANS]).toBeUndefined();
    const sent = JSON.parse(JSON.stringify(request)) as { params: Record<string, unknown> };
    expect(sent.params.name).toBe('read');
    expect(sent.params._meta).toEqual({ progressToken: 3, traceparent: TP });
    expect((sent.params.arguments as { blob: string }).blob).toHaveLength(2000);
  });
});
