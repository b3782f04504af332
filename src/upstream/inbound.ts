// The reading side of a connection: each message the child sends, parsed once (or, for a large
// result, only scanned) and sent where it belongs: the answer to a pending request with the
// caller's ids restored, progress and task status to their caller, the rest to the handlers.
import { isUtf8 } from 'node:buffer';
import type { Logger } from '../log.js';
import {
  ErrorCode,
  errorResponse,
  idJson,
  isObject,
  tryStringify,
  type JsonObject,
  type JsonRpcId,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
} from '../jsonrpc/messages.js';
import { RAW_MIN_CHARS } from '../wire/request-splice.js';
import { scanMessage } from '../wire/message-scan.js';
import { mintedIdAt, spliceId, spliceResultBytes } from '../wire/result-splice.js';
import { BufferPool } from '../wire/buffer-pool.js';
import { answerLocally, errorType, type PendingTable } from './pending.js';
import { restoreTaskId, type TaskIndex } from './tasks.js';
import type { Pending } from './types.js';

/** Where the messages that are not answers to the proxy's bookkeeping go. */
export interface InboundEvents {
  /** A notification other than progress and task status (routed here), ids untouched. */
  onNotification(message: JsonRpcNotification): void;
  /** A server-to-client request other than ping. */
  onServerRequest(message: JsonRpcRequest): void;
  /** A stateless-era child answered `entry` with input_required (mrtr.mdx). */
  onInputRequired(entry: Pending, result: JsonObject): void;
  /** Sends a message to the child (the answer to its ping). */
  reply(message: JsonRpcMessage): void;
}

/**
 * Stand-ins for a result forwarded as text: only the caller's metrics read a response object
 * then, and only whether a tool reported an error. Never serialized: the text goes instead.
 */
const RESULT_FORWARDED_AS_TEXT: JsonObject = Object.freeze({});
const TOOL_ERROR_FORWARDED_AS_TEXT: JsonObject = Object.freeze({ isError: true });

export class Inbound {
  /** Buffers for large results on their way to clients. */
  private readonly resultBuffers = new BufferPool();

  constructor(
    private readonly serverName: string,
    private readonly log: Logger,
    private readonly pending: PendingTable,
    private readonly tasks: TaskIndex,
    private readonly events: InboundEvents,
  ) {}

  /** One line the child wrote: `line` is the text of `bytes[start, end)`. */
  line(line: string, bytes: Buffer, start: number, end: number): void {
    try {
      if (line.length >= RAW_MIN_CHARS && this.forwardResultText(line, bytes, start, end)) return;
    } catch (error) {
      this.failed(error);
      return;
    }
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      this.log.warn({ line: excerpt(line) }, 'server printed a line that is not JSON; skipped');
      return;
    }
    try {
      if (Array.isArray(message)) {
        // 2025-03-26 allowed batches on stdio; take them apart rather than drop them.
        for (const item of message) this.dispatch(item, undefined);
      } else {
        this.dispatch(message, line);
      }
    } catch (error) {
      this.failed(error);
    }
  }

  /** A message the transport made up itself, already an object (it has no text of its own to splice). */
  message(message: JsonObject): void {
    try {
      this.dispatch(message, undefined);
    } catch (error) {
      this.failed(error);
    }
  }

  /** Whatever a child prints, the proxy stays up; the request it concerned times out at worst. */
  private failed(error: unknown): void {
    this.log.error({ err: error instanceof Error ? error.message : String(error) }, 'a message from the server could not be handled');
  }

  /**
   * A large result for a client's request goes out as the child's own text with only the id
   * replaced: scanned, not parsed, so its payload is never copied onto the heap. False when the line
   * needs the parsing path (not a plain result, our own request, a task result to rewrite, invalid).
   */
  private forwardResultText(line: string, bytes: Buffer, start: number, end: number): boolean {
    // The splice copies the child's bytes by offsets taken from the decoded text: they match only
    // if the bytes were valid UTF-8 (a bad sequence decodes to a U+FFFD of another length). Invalid
    // ones take the parsing path, which forwards the decoded, valid text.
    if (!isUtf8(bytes.subarray(start, end))) return false;
    const spans = scanMessage(line);
    if (spans === undefined || spans.methodStart !== -1 || spans.resultStart === -1 || spans.errorStart !== -1) return false;
    if (spans.jsonrpcEnd - spans.jsonrpcStart !== 5 || !line.startsWith('"2.0"', spans.jsonrpcStart)) return false;
    const upstreamId = mintedIdAt(line, spans.idStart, spans.idEnd);
    const entry = upstreamId === -1 ? undefined : this.pending.get(upstreamId);
    // A request that may come back as input_required (resend) is read whole: the result decides.
    if (entry === undefined || entry.caller === null || entry.settle !== undefined || entry.createsTask || entry.taskId !== undefined || entry.resend !== undefined) return false;
    this.pending.take(upstreamId);
    const toolError = spans.isErrorEnd - spans.isErrorStart === 4 && line.startsWith('true', spans.isErrorStart);
    const standIn: JsonRpcResponse = { jsonrpc: '2.0', id: entry.downstreamId, result: toolError ? TOOL_ERROR_FORWARDED_AS_TEXT : RESULT_FORWARDED_AS_TEXT };
    entry.caller.answered(entry, standIn, spliceResultBytes(this.resultBuffers, line, spans, idJson(entry.downstreamId), bytes, start, end));
    return true;
  }

  /** `line` is the message's own text when it came alone on its line (not in a batch). */
  private dispatch(message: unknown, line: string | undefined): void {
    if (!isObject(message) || message.jsonrpc !== '2.0') {
      this.log.warn({ line: excerpt(tryStringify(message) ?? '(unprintable)') }, 'server printed JSON that is not JSON-RPC; skipped');
      return;
    }
    const method = message.method;
    if (typeof method !== 'string') {
      this.onResponse(message, line);
      return;
    }
    if (message.id === undefined) {
      if (method === 'notifications/progress') this.onProgress(message as unknown as JsonRpcNotification);
      else if (method === 'notifications/tasks/status') this.onTaskStatus(message as unknown as JsonRpcNotification);
      else this.events.onNotification(message as unknown as JsonRpcNotification);
      return;
    }
    if (method === 'ping') {
      this.events.reply({ jsonrpc: '2.0', id: message.id as JsonRpcId, result: {} });
      return;
    }
    this.events.onServerRequest(message as unknown as JsonRpcRequest);
  }

  private onResponse(message: JsonObject, line: string | undefined): void {
    const id = message.id;
    const entry = typeof id === 'number' ? this.pending.take(id) : undefined;
    if (entry === undefined) {
      // Late answers to timed-out or cancelled requests land here, as do a buggy child's inventions.
      this.log.debug({ id }, 'response for no pending request; dropped');
      return;
    }
    if (!('result' in message) && !isObject(message.error)) {
      answerLocally(entry, errorResponse(entry.downstreamId, ErrorCode.InternalError, `server ${this.serverName} sent a malformed response`));
      return;
    }
    const response = message as unknown as JsonRpcResponse;
    if (entry.settle !== undefined) {
      entry.settle(response);
      return;
    }
    if (entry.resend !== undefined && 'result' in response && isObject(response.result) && response.result.resultType === 'input_required') {
      this.events.onInputRequired(entry, response.result);
      return;
    }
    response.id = entry.downstreamId;
    let rewritten = false;
    if ('result' in response && isObject(response.result)) {
      if (entry.createsTask) rewritten = this.tasks.created(entry, response.result);
      else if (entry.taskId !== undefined) rewritten = restoreTaskId(response.result, entry.taskId);
    }
    // Only the id differs from what the child wrote: splice it into the child's text rather than
    // serialize the whole result again (for a 64 KiB result, ~115 µs of stringify against ~15 µs).
    const serialized = line !== undefined && !rewritten ? spliceId(line, entry.upstreamId, entry.downstreamId) : undefined;
    if (entry.trace !== undefined) entry.trace.end(errorType(response));
    entry.caller?.answered(entry, response, serialized);
  }

  private onProgress(message: JsonRpcNotification): void {
    const params = message.params;
    const token = params?.progressToken;
    const entry = typeof token === 'number' ? this.pending.get(token) : undefined;
    if (entry === undefined || entry.caller === null || entry.progressToken === undefined || params === undefined) {
      this.log.debug({ token }, 'progress for no pending request; dropped');
      return;
    }
    params.progressToken = entry.progressToken;
    entry.caller.deliver(message, entry.downstreamId);
  }

  private onTaskStatus(message: JsonRpcNotification): void {
    if (!this.tasks.deliverStatus(message)) this.log.debug({ taskId: message.params?.taskId }, 'status of a task nobody here created; dropped');
  }
}

/** Enough of a bad line to recognize it, never the whole thing (it can be megabytes). */
function excerpt(line: string): string {
  return line.length > 200 ? `${line.slice(0, 200)}… (${line.length} chars)` : line;
}
