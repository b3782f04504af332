// A Streamable HTTP session's streams: one per in-flight POST request, one GET stream, a bounded backlog.
import type { ServerResponse } from 'node:http';
import type { Logger } from '../log.js';
import { ErrorCode, type JsonRpcId, type JsonRpcMessage } from '../jsonrpc/messages.js';
import type { SessionChannel } from '../session/session.js';
import { SSE_HEADERS } from './http-util.js';

/** Unrelated messages kept for a session with no GET stream open, messages; the oldest go first. */
const MAX_BACKLOG = 1_000;

function isResponse(message: JsonRpcMessage): boolean {
  return (message as { method?: unknown }).method === undefined;
}

function sseEvent(message: JsonRpcMessage): string {
  return `event: message\ndata: ${JSON.stringify(message)}\n\n`;
}

/**
 * The reply to one POSTed request. It stays undecided until the first message: a response that
 * comes alone goes out as one JSON body (cheapest, and what most calls are); anything sent before
 * the response (progress, logs, sampling) turns the reply into an SSE stream, so related messages
 * travel on the request's own stream as transports.mdx asks.
 */
export class RequestStream {
  private mode: 'undecided' | 'sse' | 'done' = 'undecided';
  readonly openedAt = Date.now();

  constructor(
    readonly res: ServerResponse,
    private readonly acceptsSse: boolean,
  ) {}

  /** The response (or an end) has been written; nothing more goes on this stream. */
  get finished(): boolean {
    return this.mode === 'done';
  }

  /** False when this stream cannot carry the message: finished, disconnected, or a JSON-only client's non-final message. */
  send(message: JsonRpcMessage, final: boolean): boolean {
    if (this.mode === 'done' || this.res.destroyed) return false;
    if (this.mode === 'undecided') {
      if (final) {
        this.mode = 'done';
        const body = JSON.stringify(message);
        // An explicit length avoids chunked encoding for the common one-body reply.
        this.res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
        this.res.end(body);
        return true;
      }
      if (!this.acceptsSse) return false;
      this.openSse();
    }
    if (final) {
      this.mode = 'done';
      this.res.end(sseEvent(message));
    } else {
      this.res.write(sseEvent(message));
    }
    return true;
  }

  /** Keeps a long call's connection alive: idle HTTP clients and balancers cut silent responses. */
  keepAlive(now: number, afterMs: number): void {
    if (this.mode === 'undecided' && this.acceptsSse && now - this.openedAt >= afterMs) this.openSse();
    if (this.mode === 'sse') this.res.write(': keepalive\n\n');
  }

  /**
   * Ends the stream without a response (the client cancelled: cancellation.mdx says not to answer).
   * An empty SSE stream reads as "no messages" to SSE clients; JSON-only clients get 204.
   */
  end(): void {
    if (this.mode === 'done') return;
    const undecided = this.mode === 'undecided';
    this.mode = 'done';
    if (undecided) {
      if (this.acceptsSse) this.res.writeHead(200, SSE_HEADERS);
      else this.res.writeHead(204);
    }
    this.res.end();
  }

  private openSse(): void {
    this.mode = 'sse';
    this.res.writeHead(200, SSE_HEADERS);
    this.res.flushHeaders();
  }
}

export class HttpChannel implements SessionChannel {
  readonly requests = new Map<JsonRpcId, RequestStream>();
  getStream: ServerResponse | undefined;
  private backlog: JsonRpcMessage[] = [];
  private dropped = 0;
  closed = false;

  constructor(
    private readonly log: Logger,
    private readonly onClosed: () => void,
  ) {}

  deliver(message: JsonRpcMessage, relatedTo: JsonRpcId | undefined): void {
    if (relatedTo !== undefined) {
      const stream = this.requests.get(relatedTo);
      const final = isResponse(message) && (message as { id?: unknown }).id === relatedTo;
      if (stream !== undefined && stream.send(message, final)) {
        if (final) this.requests.delete(relatedTo);
        return;
      }
      if (final) {
        if (stream !== undefined) this.requests.delete(relatedTo);
        // The client dropped the POST before its answer; the GET stream must not carry responses.
        this.log.debug({ id: relatedTo }, 'response for a closed request stream dropped');
        return;
      }
    }
    this.sendUnrelated(message);
  }

  /** The client cancelled this request: close its stream and forget it. */
  abandon(requestId: JsonRpcId): void {
    const stream = this.requests.get(requestId);
    if (stream === undefined) return;
    this.requests.delete(requestId);
    stream.end();
  }

  /** Every open request still gets an answer: an error saying why the session ended. */
  close(reason: string): void {
    if (this.closed) return;
    this.closed = true;
    for (const [id, stream] of this.requests) {
      stream.send({ jsonrpc: '2.0', id, error: { code: ErrorCode.ConnectionClosed, message: `session closed: ${reason}` } }, true);
    }
    this.requests.clear();
    this.getStream?.end();
    this.getStream = undefined;
    this.backlog = [];
    this.onClosed();
  }

  /** Attaches the session's GET stream and flushes what waited for it. */
  attachGetStream(res: ServerResponse): void {
    this.getStream = res;
    res.writeHead(200, SSE_HEADERS);
    res.flushHeaders();
    if (this.dropped > 0) this.log.warn({ dropped: this.dropped }, 'messages dropped while no GET stream was open');
    this.dropped = 0;
    const waiting = this.backlog;
    this.backlog = [];
    for (const message of waiting) res.write(sseEvent(message));
    res.on('close', () => {
      if (this.getStream === res) this.getStream = undefined;
    });
  }

  keepAlive(now: number, afterMs: number): void {
    for (const stream of this.requests.values()) stream.keepAlive(now, afterMs);
    this.getStream?.write(': keepalive\n\n');
  }

  get busy(): boolean {
    return this.getStream !== undefined || this.requests.size > 0;
  }

  private sendUnrelated(message: JsonRpcMessage): void {
    if (this.getStream !== undefined && !this.getStream.destroyed) {
      this.getStream.write(sseEvent(message));
      return;
    }
    if (this.backlog.length >= MAX_BACKLOG) {
      this.backlog.shift();
      this.dropped += 1;
    }
    this.backlog.push(message);
  }
}
