// The call log: one JSON line per tool call answered (time, instance, identity, session, tool,
// server, duration, outcome, trace id), for a team asking who used what. Arguments and results are
// never written, unless the tool matches a `payloads` glob, and then with secrets redacted.
import type { CallLogConfig } from '../config/call-log.js';
import { isObject, type JsonObject, type JsonRpcMessage, type JsonRpcRequest } from '../jsonrpc/messages.js';
import type { Logger } from '../log.js';
import { RotatingLog } from '../rotating-log.js';
import { RAW_TEXT, type RawCarrier } from '../wire/request-splice.js';
import type { OutcomeCounter } from '../upstream/types.js';
import { compileGlob, type NameMatcher } from './glob.js';
import { redacted } from './redact.js';

/** Characters of a logged result's text kept; the rest is cut (`…`). */
const MAX_RESULT_CHARS = 4096;
const TRACEPARENT = /^[0-9a-f]{2}-([0-9a-f]{32})-[0-9a-f]{16}-[0-9a-f]{2}$/;

/** Who made a call, as the session knows it. */
export interface CallOrigin {
  readonly principal: string;
  readonly id: string;
}

export class CallLog {
  private readonly file: RotatingLog;
  private readonly payloads: readonly NameMatcher[];

  constructor(
    readonly config: CallLogConfig,
    private readonly instance: string,
    log: Logger,
  ) {
    this.file = new RotatingLog({ path: config.path, maxBytes: config.maxBytes, keep: config.keep, onError: (error) => log.warn({ path: config.path, err: error.message }, 'call log not written; calls go on') });
    this.payloads = config.payloads.map(compileGlob);
  }

  /** A counter for one call that also writes its line when the call is answered. */
  call(counter: OutcomeCounter, origin: CallOrigin, tool: string, server: string, request: JsonRpcRequest): OutcomeCounter {
    const withPayload = this.payloads.some((matches) => matches(tool));
    return new LoggedCall(counter, this.file, {
      time: new Date().toISOString(),
      instance: this.instance,
      identity: origin.principal,
      session: origin.id,
      tool,
      server,
      ...traceOf(request),
      ...(withPayload ? { arguments: redacted(argumentsOf(request)) } : {}),
    }, withPayload);
  }

  /** Resolves once every line so far is on disk (tests, shutdown). */
  drained(): Promise<void> {
    return this.file.drained();
  }
}

class LoggedCall implements OutcomeCounter {
  constructor(
    private readonly counter: OutcomeCounter,
    private readonly file: RotatingLog,
    private readonly line: Record<string, unknown>,
    private readonly withPayload: boolean,
  ) {}

  record(response: JsonRpcMessage, ms: number): void {
    this.counter.record(response, ms);
    const error = (response as { error?: { code?: unknown; message?: unknown } }).error;
    const result = (response as { result?: JsonObject }).result;
    const outcome = error !== undefined ? 'protocol_error' : result?.isError === true ? 'tool_error' : 'result';
    this.file.write({
      ...this.line,
      durationMs: Math.round(ms * 100) / 100,
      outcome,
      ...(error !== undefined ? { error: { code: error.code, message: error.message } } : {}),
      ...(this.withPayload && result !== undefined ? { result: redacted(resultText(result)) } : {}),
    });
  }
}

/** The W3C trace id of the call, from `_meta.traceparent` when the client sent one. */
function traceOf(request: JsonRpcRequest): { traceId?: string } {
  const meta = request.params?._meta;
  const parent = isObject(meta) ? meta.traceparent : undefined;
  const match = typeof parent === 'string' ? TRACEPARENT.exec(parent) : null;
  return match === null ? {} : { traceId: match[1]! };
}

/** The call's arguments: parsed, or read from the request's text when only its routing members were. */
function argumentsOf(request: JsonRpcRequest & RawCarrier): unknown {
  const args = request.params?.arguments;
  if (args !== undefined) return args;
  const raw = request[RAW_TEXT];
  if (raw === undefined) return undefined;
  try {
    const parsed = JSON.parse(raw) as { params?: { arguments?: unknown } };
    return parsed.params?.arguments;
  } catch {
    return undefined;
  }
}

/** The text content of a result, cut to MAX_RESULT_CHARS (structured content and media are not logged). */
function resultText(result: JsonObject): string {
  const content = Array.isArray(result.content) ? result.content : [];
  let text = '';
  for (const item of content) if (isObject(item) && typeof item.text === 'string') text += (text === '' ? '' : '\n') + item.text;
  return text.length > MAX_RESULT_CHARS ? `${text.slice(0, MAX_RESULT_CHARS)}…` : text;
}
