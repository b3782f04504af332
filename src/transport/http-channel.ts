// A Streamable HTTP session's streams: one per in-flight POST, one GET stream, and the event log behind both.
import type { ServerResponse } from 'node:http';
import type { Logger } from '../log.js';
import { ErrorCode, encode, isResponse, type JsonRpcId, type JsonRpcMessage } from '../jsonrpc/messages.js';
import { ResultBytes, type Serialized } from '../wire/result-bytes.js';
import type { SessionChannel } from '../session/opening.js';
import { SSE_HEADERS, replyHead } from './http-util.js';
import { EventLog, eventId, sseFrame } from './event-log.js';

/** Clients on this version or later get a priming event (SDK rule: older clients choke on empty data). */
const PRIMING_SINCE = '2025-11-25';
/** Reconnect delay suggested to clients in priming events, ms. */
const RETRY_MS = 1000;
const GET_STREAM = 'g';
/**
 * Bytes queued on one SSE connection before we drop it, bytes. The events stay in the (bounded)
 * log, so a client that was only slow resumes with Last-Event-ID; memory never grows past this.
 */
const MAX_QUEUED_BYTES = 8 * 1024 * 1024;

/** Writes one event unless the reader has fallen too far behind, in which case the connection goes. */
function writeOrDrop(res: ServerResponse, frame: string): void {
  if (res.writableLength > MAX_QUEUED_BYTES) {
    res.destroy();
    return;
  }
  res.write(frame);
}

/**
 * The reply to one POST: a single request, or a batch of them (2025-03-26). It stays undecided
 * until the first message: one response that comes alone goes out as a JSON body (cheapest, and
 * what most calls are); anything before the response (progress, logs, sampling), or a batch,
 * turns it into an SSE stream whose events are logged so the client can resume it with GET.
 */
export class RequestStream {
  private mode: 'undecided' | 'sse' | 'done' = 'undecided';
  readonly openedAt = Date.now();
  /** The connection carrying the stream now; undefined while the client is away (resumable). */
  res: ServerResponse | undefined;
  private remaining: number;

  constructor(
    readonly streamId: string,
    res: ServerResponse,
    private readonly acceptsSse: boolean,
    private readonly channel: HttpChannel,
    /** Responses this stream carries: 1, or the number of requests in a batch. */
    expected = 1,
  ) {
    this.res = res;
    this.remaining = expected;
  }

  get finished(): boolean {
    return this.mode === 'done';
  }

  /** True once an event id was sent, so a dropped connection can be resumed rather than forgotten. */
  get resumable(): boolean {
    return this.mode === 'sse';
  }

  /** False when the stream cannot carry the message: finished, or a JSON-only client's non-final message. */
  send(message: JsonRpcMessage, final: boolean, serialized?: Serialized): boolean {
    if (this.mode === 'done') return false;
    const last = final && this.remaining === 1;
    if (this.mode === 'undecided') {
      if (this.res === undefined || this.res.destroyed) return false;
      if (last) {
        this.mode = 'done';
        const body = serialized ?? encode(message);
        if (body === undefined) return true;
        // An explicit length avoids chunked encoding for the common one-body reply.
        if (body instanceof ResultBytes) {
          this.res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.byteLength });
          // 'finish': the OS has the bytes, so the buffer may be reused. A connection that dies
          // first never finishes, and its buffer is simply not reused.
          this.res.end(body.bytes, () => body.release());
          return true;
        }
        this.res.writeHead(...replyHead(message, 200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }));
        this.res.end(body);
        return true;
      }
      if (!this.acceptsSse) return false;
      this.openSse();
    }
    const encoded = serialized ?? encode(message);
    if (encoded === undefined) return true;
    const data = String(encoded);
    const seq = this.channel.events.append(this.streamId, data);
    if (final) this.remaining -= 1;
    if (this.res !== undefined && !this.res.destroyed) writeOrDrop(this.res, sseFrame(eventId(this.streamId, seq), data));
    if (last) {
      this.mode = 'done';
      this.res?.end();
    }
    return true;
  }

  /** Continues this stream on a new connection (GET with Last-Event-ID), after the events it missed. */
  resume(res: ServerResponse, afterSeq: number): void {
    this.res?.end();
    this.res = res;
    res.on('close', () => {
      if (this.res === res) this.res = undefined;
    });
    res.writeHead(200, SSE_HEADERS);
    for (const event of this.channel.events.since(this.streamId, afterSeq)) res.write(sseFrame(eventId(this.streamId, event.seq), event.data));
    if (this.mode === 'done') res.end();
  }

  /** Keeps a long call's connection alive: idle HTTP clients and balancers cut silent responses. */
  keepAlive(now: number, afterMs: number): void {
    if (this.res === undefined || this.res.destroyed) return;
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
    const res = this.res;
    if (res === undefined || res.destroyed) return;
    if (undecided) res.writeHead(this.acceptsSse ? 200 : 204, this.acceptsSse ? SSE_HEADERS : undefined);
    res.end();
  }

  private openSse(): void {
    this.mode = 'sse';
    const res = this.res as ServerResponse;
    res.writeHead(200, SSE_HEADERS);
    if (this.channel.primes()) res.write(`id: ${eventId(this.streamId, this.channel.events.next())}\nretry: ${RETRY_MS}\ndata: \n\n`);
    else res.flushHeaders();
  }
}

export class HttpChannel implements SessionChannel {
  readonly requests = new Map<JsonRpcId, RequestStream>();
  readonly events = new EventLog();
  getStream: ServerResponse | undefined;
  /** Seq of the last GET-stream event written to a connection; later ones are still owed. */
  private getDelivered = 0;
  private nextStream = 0;
  closed = false;

  constructor(
    private readonly log: Logger,
    private readonly protocolVersion: () => string,
    private readonly onClosed: () => void,
  ) {}

  newStreamId(): string {
    return `r${++this.nextStream}`;
  }

  primes(): boolean {
    return this.protocolVersion() >= PRIMING_SINCE;
  }

  deliver(message: JsonRpcMessage, relatedTo: JsonRpcId | undefined, serialized?: Serialized): void {
    if (relatedTo !== undefined) {
      const stream = this.requests.get(relatedTo);
      const final = isResponse(message) && (message as { id?: unknown }).id === relatedTo;
      if (stream !== undefined && stream.send(message, final, serialized)) {
        if (final) this.requests.delete(relatedTo);
        return;
      }
      if (final) {
        if (stream !== undefined) this.requests.delete(relatedTo);
        // The client dropped the POST before any event id: nothing can resume it, and the GET
        // stream must not carry responses.
        this.log.debug({ id: relatedTo }, 'response for a closed request stream dropped');
        return;
      }
    }
    this.sendOnGetStream(message, serialized);
  }

  /** A connection of a request stream went away; keep the stream for resumption if it can be resumed. */
  detach(id: JsonRpcId, stream: RequestStream, res: ServerResponse): void {
    // A resumed stream may already run on a newer connection; only the current one's loss counts.
    if (this.requests.get(id) !== stream || stream.finished || stream.res !== res) return;
    if (stream.resumable) stream.res = undefined;
    else this.requests.delete(id);
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
    this.onClosed();
  }

  /** Attaches the GET stream: replays after `lastEventSeq` when resuming, else sends what is still owed. */
  attachGetStream(res: ServerResponse, lastEventSeq?: number): void {
    const previous = this.getStream;
    this.getStream = res;
    // A resuming client's old connection is dead even if the socket has not noticed yet.
    if (previous !== undefined && previous !== res) previous.end();
    res.writeHead(200, SSE_HEADERS);
    if (this.primes()) res.write(`id: ${eventId(GET_STREAM, this.events.next())}\nretry: ${RETRY_MS}\ndata: \n\n`);
    else res.flushHeaders();
    for (const event of this.events.since(GET_STREAM, lastEventSeq ?? this.getDelivered)) {
      res.write(sseFrame(eventId(GET_STREAM, event.seq), event.data));
      this.getDelivered = event.seq;
    }
    res.on('close', () => {
      if (this.getStream === res) this.getStream = undefined;
    });
  }

  /** Resumes a request stream by its id; false when no such stream is known. */
  resumeRequestStream(streamId: string, res: ServerResponse, afterSeq: number): boolean {
    for (const stream of this.requests.values()) {
      if (stream.streamId !== streamId) continue;
      // Only a stream that has sent event ids can be resumed; one still deciding JSON vs SSE has none.
      if (!stream.resumable) return false;
      stream.resume(res, afterSeq);
      return true;
    }
    // Finished streams are no longer tracked, but their events may still be in the log.
    const missed = this.events.since(streamId, afterSeq);
    if (missed.length === 0) return false;
    res.writeHead(200, SSE_HEADERS);
    for (const event of missed) res.write(sseFrame(eventId(streamId, event.seq), event.data));
    res.end();
    return true;
  }

  keepAlive(now: number, afterMs: number): void {
    for (const stream of this.requests.values()) stream.keepAlive(now, afterMs);
    this.getStream?.write(': keepalive\n\n');
  }

  get busy(): boolean {
    return this.getStream !== undefined || this.requests.size > 0;
  }

  /** Unrelated messages are logged first, so a client without a GET stream yet gets them when it opens one. */
  private sendOnGetStream(message: JsonRpcMessage, serialized?: Serialized): void {
    const encoded = serialized ?? encode(message);
    if (encoded === undefined) return;
    const data = String(encoded);
    const seq = this.events.append(GET_STREAM, data);
    const res = this.getStream;
    if (res !== undefined && !res.destroyed) {
      writeOrDrop(res, sseFrame(eventId(GET_STREAM, seq), data));
      this.getDelivered = seq;
    }
  }
}
