// The tracing seam the rest of the proxy sees: plain types, so nothing outside telemetry/sdk.ts
// imports OpenTelemetry (it is loaded only when tracing is configured).
import type { IncomingMessage, ServerResponse } from 'node:http';

/** What an MCP request says about itself, read when it is routed to a server. */
export interface McpRequestFacts {
  readonly method: string;
  readonly requestId: string | number;
  readonly sessionId: string | undefined;
  readonly protocolVersion: string | undefined;
  /** The tool, prompt or resource named (a tool name only for tools/call). */
  readonly target: string | undefined;
  /** The configured server the request goes to. */
  readonly server: string;
  /** The request's `params._meta` (a W3C `traceparent`/`tracestate` there wins over the HTTP headers). */
  readonly meta: unknown;
}

/** W3C trace context to send on with a forwarded request. */
export interface OutgoingTrace {
  readonly traceparent: string;
  readonly tracestate: string | undefined;
}

/** The spans of one routed request: the proxy's MCP server span and its call to the server. */
export interface RequestTrace extends OutgoingTrace {
  /** Ends both spans; `errorType` (a JSON-RPC code, `tool_error`, `cancelled`...) marks them failed. Idempotent. */
  end(errorType: string | undefined): void;
}

export interface Tracing {
  /** Runs `route` inside a server span for one client HTTP request, ended when the response is. */
  http(req: IncomingMessage, res: ServerResponse, route: () => void): void;
  /** Starts the spans of one request routed to a server. */
  request(facts: McpRequestFacts): RequestTrace;
  /** Exports what is buffered and stops. */
  shutdown(): Promise<void>;
}
