// The OpenTelemetry SDK behind the Tracing seam: provider, sampler, OTLP exporter, W3C propagation
// and the spans themselves. Only ever reached by the dynamic import in active.ts.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { DiagLogLevel, ROOT_CONTEXT, SpanKind, SpanStatusCode, diag, trace, defaultTextMapGetter, defaultTextMapSetter, type Attributes, type Context, type Span, type Tracer } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor, ParentBasedSampler, TraceIdRatioBasedSampler } from '@opentelemetry/sdk-trace-base';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import type { Logger } from 'pino';
import type { TelemetryConfig } from '../config/telemetry.js';
import { SWITCHBOARD_INFO } from '../protocol.js';
import { metaTraceContext } from './meta.js';
import type { McpRequestFacts, RequestTrace, Tracing } from './types.js';

/** How often buffered spans are exported, ms, unless OTEL_BSP_SCHEDULE_DELAY says otherwise (the SDK's default is 5 s). */
const DEFAULT_EXPORT_DELAY_MS = 2000;

export async function createTracing(config: TelemetryConfig, log: Logger): Promise<Tracing> {
  const tlog = log.child({ component: 'telemetry' });
  // The SDK's own complaints (an unreachable collector, a rejected export) as our warnings; its
  // messages name the URL and status, never the configured headers.
  diag.setLogger(
    {
      error: (message) => tlog.warn(message),
      warn: (message) => tlog.warn(message),
      info: () => {},
      debug: () => {},
      verbose: () => {},
    },
    DiagLogLevel.WARN,
  );
  const options = { url: config.endpoint, headers: { ...config.headers } };
  // Only the exporter of the configured protocol is loaded: the protobuf one brings protobufjs along.
  const exporter =
    config.protocol === 'http/json'
      ? new (await import('@opentelemetry/exporter-trace-otlp-http')).OTLPTraceExporter(options)
      : new (await import('@opentelemetry/exporter-trace-otlp-proto')).OTLPTraceExporter(options);
  const ratio = new TraceIdRatioBasedSampler(config.sampleRatio);
  const delay = Number(process.env['OTEL_BSP_SCHEDULE_DELAY']);
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: config.serviceName, [ATTR_SERVICE_VERSION]: SWITCHBOARD_INFO.version }),
    sampler: config.parentBased ? new ParentBasedSampler({ root: ratio }) : ratio,
    spanProcessors: [new BatchSpanProcessor(exporter, { scheduledDelayMillis: Number.isFinite(delay) && delay > 0 ? delay : DEFAULT_EXPORT_DELAY_MS })],
  });
  // A private context manager: the HTTP request's span follows the request across the awaits of
  // reading its body, without registering anything global another library in the process could see.
  const contexts = new AsyncLocalStorageContextManager().enable();
  const tracer = provider.getTracer('mcp-switchboard', SWITCHBOARD_INFO.version);
  const propagator = new W3CTraceContextPropagator();
  tlog.info({ endpoint: config.endpoint, protocol: config.protocol, sampleRatio: config.sampleRatio, serviceName: config.serviceName, headers: Object.keys(config.headers) }, 'tracing on');

  return {
    http(req, res, route) {
      const parent = propagator.extract(ROOT_CONTEXT, req.headers, defaultTextMapGetter);
      const span = tracer.startSpan(`${req.method ?? 'GET'}`, { kind: SpanKind.SERVER, attributes: httpAttributes(req) }, parent);
      const end = (): void => endHttp(span, res);
      res.once('finish', end);
      res.once('close', end);
      contexts.with(trace.setSpan(parent, span), route);
    },
    request(facts) {
      return startRequest(tracer, propagator, facts, contexts.active());
    },
    async shutdown() {
      contexts.disable();
      try {
        await provider.shutdown();
      } catch (error) {
        tlog.warn({ err: error instanceof Error ? error.message : String(error) }, 'spans could not be exported on shutdown');
      }
    },
  };
}

function httpAttributes(req: IncomingMessage): Attributes {
  // The path alone: a query string may carry a token (legacy SSE clients put one there).
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  return {
    'http.request.method': req.method ?? 'GET',
    'url.path': q === -1 ? url : url.slice(0, q),
    'network.protocol.name': 'http',
    'network.protocol.version': req.httpVersion,
    'network.transport': 'tcp',
  };
}

function endHttp(span: Span, res: ServerResponse): void {
  if (!span.isRecording()) return;
  // Set before the response ended means it was sent; unset on a connection lost first.
  if (res.headersSent) span.setAttribute('http.response.status_code', res.statusCode);
  if (!res.writableFinished) span.setAttribute('error.type', 'connection_closed');
  else if (res.statusCode >= 500) {
    span.setAttribute('error.type', String(res.statusCode));
    span.setStatus({ code: SpanStatusCode.ERROR });
  }
  span.end();
}

function startRequest(tracer: Tracer, propagator: W3CTraceContextPropagator, facts: McpRequestFacts, active: Context): RequestTrace {
  // A context the client put in `_meta` names the MCP call's own parent: it wins over the HTTP headers.
  // A malformed one is ignored (W3C: restart from what else is known), not made a new root.
  const meta = metaTraceContext(facts.meta);
  const extracted = meta === undefined ? undefined : propagator.extract(ROOT_CONTEXT, meta, defaultTextMapGetter);
  const parent = extracted !== undefined && trace.getSpanContext(extracted) !== undefined ? extracted : active;
  const name = facts.target === undefined ? facts.method : `${facts.method} ${facts.target}`;
  const attributes: Attributes = {
    'mcp.method.name': facts.method,
    'jsonrpc.request.id': String(facts.requestId),
    'network.transport': 'tcp',
    'network.protocol.name': 'http',
    'switchboard.server': facts.server,
  };
  if (facts.sessionId !== undefined) attributes['mcp.session.id'] = facts.sessionId;
  if (facts.protocolVersion !== undefined) attributes['mcp.protocol.version'] = facts.protocolVersion;
  if (facts.target !== undefined) {
    if (facts.method === 'tools/call') {
      attributes['gen_ai.tool.name'] = facts.target;
      attributes['gen_ai.operation.name'] = 'execute_tool';
    } else if (facts.method === 'prompts/get') attributes['gen_ai.prompt.name'] = facts.target;
  }
  const server = tracer.startSpan(name, { kind: SpanKind.SERVER, attributes }, parent);
  const callAttributes: Attributes = { 'mcp.method.name': facts.method, 'switchboard.server': facts.server };
  if (facts.method === 'tools/call' && facts.target !== undefined) callAttributes['gen_ai.tool.name'] = facts.target;
  const client = tracer.startSpan(name, { kind: SpanKind.CLIENT, attributes: callAttributes }, trace.setSpan(parent, server));
  const carrier: Record<string, string> = {};
  propagator.inject(trace.setSpan(ROOT_CONTEXT, client), carrier, defaultTextMapSetter);
  let ended = false;
  return {
    // An unsampled span still propagates its ids, with the sampled flag off.
    traceparent: carrier['traceparent'] ?? '',
    tracestate: carrier['tracestate'],
    end(errorType) {
      if (ended) return;
      ended = true;
      if (errorType !== undefined) {
        for (const span of [client, server]) {
          span.setAttribute('error.type', errorType);
          span.setStatus({ code: SpanStatusCode.ERROR });
        }
      }
      client.end();
      server.end();
    },
  };
}
