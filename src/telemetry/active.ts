// The process's tracing, when configured: one live binding that hot paths test with a single
// `tracing !== undefined` (nothing else is allocated or looked up per message when it is off).
import type { Logger } from 'pino';
import type { TelemetryConfig } from '../config/telemetry.js';
import type { OutgoingTrace, Tracing } from './types.js';

export let tracing: Tracing | undefined;

let starts = 0;

/**
 * Loads the OpenTelemetry SDK (a dynamic import: a daemon without tracing never reads it) and
 * makes it the process's tracing. One per process: a second switchboard in the same process shares it.
 */
export async function startTracing(config: TelemetryConfig, log: Logger): Promise<void> {
  starts += 1;
  if (tracing !== undefined) return;
  const { createTracing } = await import('./sdk.js');
  tracing = await createTracing(config, log);
}

/** Undone by the last switchboard that started it. */
export async function stopTracing(): Promise<void> {
  if (starts === 0) return;
  starts -= 1;
  if (starts > 0 || tracing === undefined) return;
  const stopping = tracing;
  tracing = undefined;
  await stopping.shutdown();
}

/**
 * The trace context of the request being written right now, for a remote server's HTTP headers:
 * set by the connection around its synchronous write, read by the remote transport inside it.
 */
let outgoing: OutgoingTrace | undefined;

export function setOutgoingTrace(trace: OutgoingTrace | undefined): void {
  outgoing = trace;
}

export function outgoingTrace(): OutgoingTrace | undefined {
  return outgoing;
}
