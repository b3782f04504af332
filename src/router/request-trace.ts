// Starts the spans of a request the router sends to a server, and puts their context where the
// server (and the connection that writes the request) will find it. Called only when tracing is on.
import { isObject } from '../jsonrpc/messages.js';
import type { Session } from '../session/session.js';
import type { ClientRequest } from '../session/client-request.js';
import { TRACE, injectTraceMeta, type TraceCarrier } from '../telemetry/meta.js';
import type { RequestTrace, Tracing } from '../telemetry/types.js';

export function startRequestTrace(tracing: Tracing, session: Session, request: ClientRequest, server: string): RequestTrace {
  const message = request.message;
  const params = message.params;
  const name = params?.name;
  const trace = tracing.request({
    method: message.method,
    requestId: request.id === null ? 'null' : request.id,
    // A stateless-era request has no session: its per-request context's id names nothing a client sees.
    sessionId: session.stateless ? undefined : session.id,
    protocolVersion: session.protocolVersion,
    // Tool and prompt names only: a resource URI may carry what its owner would not want exported.
    target: typeof name === 'string' && message.method !== 'resources/read' ? name : undefined,
    server,
    meta: isObject(params) ? params._meta : undefined,
  });
  injectTraceMeta(message, trace);
  (message as TraceCarrier)[TRACE] = trace;
  return trace;
}
