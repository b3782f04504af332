// Streamable HTTP (basic/transports.mdx): each message POSTed, a request's answer in the POST's
// response (a JSON body or an SSE stream that may carry the server's own messages first), the
// session the server names, its standing GET stream, and the DELETE that ends it. The legacy
// transport POSTs through the same code, to the endpoint its stream named (answered 202).
import type { Readable } from 'node:stream';
import { isObject, type JsonRpcId } from '../../jsonrpc/messages.js';
import { SseReader } from './sse-reader.js';
import { describeError, excerpt, readBounded, type Exchange, type RemoteResponse } from './http-client.js';
import type { Outgoing, RemoteLink } from './link.js';

/** How long a POST that answers nothing (a notification, a response) may take, ms. */
const ACCEPT_TIMEOUT_MS = 30_000;
/** How long to wait before reopening the standing GET stream after it ended, ms (doubling while it fails). */
const STANDING_RETRY_MS = 1_000;
const STANDING_RETRY_MAX_MS = 30_000;
/** How long a request's stream may stay open after its answer before the proxy closes it, ms. */
const ANSWERED_STREAM_GRACE_MS = 5_000;
/** How long a stop waits for the session's DELETE, ms. */
const DELETE_TIMEOUT_MS = 2_000;
/** Bytes of an error body read for its message. */
const MAX_ERROR_BODY_BYTES = 64 * 1024;

/** Resumptions in a row that bring no new event before a request is given up. */
const MAX_IDLE_RESUMES = 3;

const METHOD_MEMBER = Buffer.from('"method"');

export class StreamableHttp {
  /** POSTs under way, by the JSON-RPC id of the request they carry (notifications by a serial). */
  private readonly inflight = new Map<JsonRpcId, Exchange>();
  private serial = 0;
  /** Of `inflight`, the POSTs of notifications and answers. */
  private notesInFlight = 0;
  /** The GET stream the server sends its own messages on. */
  private standing: Exchange | undefined;
  private standingTimer: NodeJS.Timeout | undefined;
  /** The standing stream was open once in this session (so a 404 for it later means the session is gone). */
  private standingWorked = false;
  private standingFailures = 0;
  /** The standing stream's last event id, to reopen it from. */
  private standingLastEventId: string | undefined;

  constructor(private readonly link: RemoteLink) {}

  /** Requests (not notifications or answers) whose POST is still open. */
  get requestsInFlight(): number {
    return this.inflight.size - this.notesInFlight;
  }

  /** The request stops being waited for: its POST is closed (transports.mdx allows either), which frees its slot. */
  abandon(id: JsonRpcId): void {
    const request = this.inflight.get(id);
    this.inflight.delete(id);
    request?.abort();
  }

  /** Streams and requests closed, the retry timer stopped. */
  close(): void {
    clearTimeout(this.standingTimer);
    this.standing?.abort();
    for (const request of this.inflight.values()) request.abort();
    this.inflight.clear();
  }

  post(outgoing: Outgoing): void {
    const { link } = this;
    const { line } = outgoing;
    const body = line.endsWith('\n') ? line.slice(0, -1) : line;
    const isRequest = outgoing.id !== undefined && outgoing.method !== undefined;
    const key = isRequest ? (outgoing.id as JsonRpcId) : `note-${(this.serial += 1)}`;
    if (!isRequest) this.notesInFlight += 1;
    const request: Exchange = link.http.request('POST', link.postTarget(), body, {
      response: (response) => this.onPostResponse(request, response, key, outgoing, isRequest),
      error: (error) => {
        if (this.inflight.get(key) !== request) return; // given up on purpose (cancelled, stopped)
        this.inflight.delete(key);
        const reason = describeError(error);
        if (outgoing.method === 'initialize') link.lost(`unreachable: ${reason}`);
        else if (isRequest) link.answerError(outgoing.id as JsonRpcId, `server ${link.name} could not be reached (${reason})`);
        else link.problem(`POST failed: ${reason}`);
      },
      done: () => {
        if (!isRequest) this.notesInFlight -= 1;
        if (this.inflight.get(key) === request) this.inflight.delete(key);
      },
    }, isRequest ? 0 : ACCEPT_TIMEOUT_MS, outgoing.trace === undefined ? undefined : traceHeaders(outgoing.trace));
    this.inflight.set(key, request);
  }

  private onPostResponse(request: Exchange, response: RemoteResponse, key: JsonRpcId, outgoing: Outgoing, isRequest: boolean): void {
    const { link } = this;
    const { http } = link;
    const status = response.statusCode;
    if (outgoing.method === 'initialize' && http.mode !== 'sse') {
      const session = response.headers['mcp-session-id'];
      if (typeof session === 'string' && session !== '') http.sessionId = session;
      // No mode chosen yet (auto): a 4xx says the server is of the legacy transport (transports.mdx,
      // backwards compatibility); the initialize goes again on its stream.
      if (http.mode === undefined) {
        if (status === 401 && link.refused(response)) return;
        // 401, 403 and 429 are about us, not about the transport: no fallback for those.
        if (status >= 400 && status < 500 && status !== 401 && status !== 403 && status !== 429) {
          response.body.resume();
          this.inflight.delete(key);
          link.fallBack(status);
          return;
        }
        http.mode = 'http';
      }
    }
    if (status === 401 && link.refused(response)) return;
    if (status === 404 && http.sessionId !== undefined && http.mode === 'http') {
      response.body.resume();
      link.lost('the server no longer knows the session (404)');
      return;
    }
    if (status === 202 || (status >= 200 && status < 300 && !isRequest)) {
      response.body.resume();
      return;
    }
    const id = isRequest ? (outgoing.id as JsonRpcId) : undefined;
    if (status < 200 || status >= 300) {
      readBounded(response.body, MAX_ERROR_BODY_BYTES, link.buffered, (body) => {
        const text = body?.toString('utf8') ?? '';
        if (outgoing.method === 'initialize') {
          link.lost(`initialize answered HTTP ${status}${text === '' ? '' : `: ${excerpt(text)}`}`);
          return;
        }
        link.problem(`HTTP ${status} for ${outgoing.method ?? 'a response'}`);
        // A JSON-RPC error in the body answers the request as the server meant; anything else becomes one.
        if (id !== undefined && !this.deliverIfAnswer(text, body, id)) link.answerError(id, `server ${link.name} answered HTTP ${status}`);
      });
      return;
    }
    const type = String(response.headers['content-type'] ?? '');
    if (type.includes('text/event-stream')) {
      if (id === undefined) response.body.resume();
      else this.readAnswerStream(response.body, key, request, id, { value: false }, undefined, 0);
      return;
    }
    readBounded(response.body, link.maxMessageBytes, link.buffered, (body) => {
      if (body === undefined) {
        link.problem(`an answer larger than ${link.maxMessageBytes} bytes was dropped`);
        if (id !== undefined) link.answerError(id, `server ${link.name} sent an answer larger than ${link.maxMessageBytes} bytes`);
        return;
      }
      link.deliver(body, id);
    });
  }

  /** Delivers a body that is a JSON-RPC error answer to `id`, as parsed here; false when it is not one. */
  private deliverIfAnswer(text: string, body: Buffer | undefined, id: JsonRpcId): boolean {
    if (body === undefined) return false;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return false;
    }
    if (!isObject(parsed) || parsed.id !== id || typeof parsed.error !== 'object') return false;
    this.link.deliverMessage(parsed, id);
    return true;
  }

  /**
   * SSE messages of one response stream, each delivered as the stream's request's (or unrelated).
   * The flag it returns turns true once a message without a method came: the request's answer (a
   * result that merely mentions "method" leaves it false, which costs a dropped duplicate at worst).
   */
  private readStream(response: Readable, carriedBy: JsonRpcId | undefined, ended: (lastEventId: string | undefined) => void, onAnswer?: () => void, answered = { value: false }): { value: boolean } {
    const { link } = this;
    const reader = new SseReader(
      link.maxMessageBytes,
      (event) => {
        // An event without data primes a resumable stream (an id to resume from): not a message.
        if (event.event !== 'message' || event.data.length === 0) return;
        const answer = !answered.value && !event.data.includes(METHOD_MEMBER);
        if (answer) answered.value = true;
        link.deliver(event.data, carriedBy);
        if (answer) onAnswer?.();
      },
      (bytes) => link.problem(`an event of ${bytes} bytes (over the bound of one message, or of all this server's at once) was dropped`),
      link.buffered,
    );
    let over = false;
    const end = (): void => {
      if (over) return;
      over = true;
      reader.release();
      ended(reader.lastEventId);
    };
    response.on('data', (chunk: Buffer) => reader.push(chunk));
    response.on('end', end);
    response.on('error', end);
    return answered;
  }

  /**
   * The SSE stream a request's answer comes on (its POST's, or a resumed one). Cut before the answer
   * after an event with an id, it is resumed: a GET with Last-Event-ID, on which the server replays
   * what followed and goes on (transports.mdx, resumability). Without an id, or once resuming stops
   * making progress, the request fails rather than waits for its timeout, and the server is told to
   * stop working on it.
   */
  private readAnswerStream(body: Readable, key: JsonRpcId, exchange: Exchange, id: JsonRpcId, answered: { value: boolean }, resumedFrom: string | undefined, idleResumes: number): void {
    const { link } = this;
    this.readStream(
      body,
      id,
      (lastEventId) => {
        if (answered.value || this.inflight.get(key) !== exchange) return;
        const from = lastEventId ?? resumedFrom;
        // A stream that brought nothing new counts against the bound; one that did starts it again.
        const idle = lastEventId === undefined || lastEventId === resumedFrom ? idleResumes + 1 : 0;
        if (from !== undefined && idle <= MAX_IDLE_RESUMES && link.isOpen()) {
          this.resume(key, id, answered, from, idle);
          return;
        }
        this.inflight.delete(key);
        link.answerError(id, `server ${link.name} closed the stream before answering`);
        this.cancelUpstream(id, 'the stream closed before the answer');
      },
      () => {
        // The answer came: its slot is free again. The server should close the stream now (its
        // socket then serves the next request); one that keeps it open loses it after a while.
        if (this.inflight.get(key) === exchange) this.inflight.delete(key);
        const linger = setTimeout(() => body.destroy(), ANSWERED_STREAM_GRACE_MS);
        linger.unref();
        body.once('close', () => clearTimeout(linger));
      },
      answered,
    );
  }

  private resume(key: JsonRpcId, id: JsonRpcId, answered: { value: boolean }, lastEventId: string, idleResumes: number): void {
    const { link } = this;
    const fail = (reason: string): void => {
      if (this.inflight.get(key) !== exchange) return;
      this.inflight.delete(key);
      link.answerError(id, `server ${link.name} cut the stream before answering, and ${reason}`);
      this.cancelUpstream(id, 'the stream could not be resumed');
    };
    const exchange: Exchange = link.http.request('GET', link.http.url, undefined, {
      response: (response) => {
        if (this.inflight.get(key) !== exchange) {
          response.body.destroy();
          return;
        }
        if (response.statusCode < 200 || response.statusCode >= 300 || !String(response.headers['content-type'] ?? '').includes('text/event-stream')) {
          response.body.resume();
          fail(`resuming it answered HTTP ${response.statusCode}`);
          return;
        }
        this.readAnswerStream(response.body, key, exchange, id, answered, lastEventId, idleResumes);
      },
      error: (error) => fail(`resuming it failed: ${describeError(error)}`),
    }, 0, { 'last-event-id': lastEventId });
    this.inflight.set(key, exchange);
    link.log.debug({ server: link.name, id, lastEventId }, 'resuming a request stream the server cut');
  }

  /** Tells the server a request of ours is given up (its answer could no longer reach anyone). */
  private cancelUpstream(id: JsonRpcId, reason: string): void {
    if (!this.link.isOpen()) return;
    const line = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason } });
    this.post({ line, id: undefined, method: 'notifications/cancelled', trace: undefined });
  }

  /** The stream the server sends unprompted messages on (list_changed, its requests). */
  openStanding(): void {
    const { link } = this;
    if (!link.isOpen()) return;
    let answered = false;
    const resumeFrom = this.standingLastEventId === undefined ? undefined : { 'last-event-id': this.standingLastEventId };
    const request: Exchange = link.http.request('GET', link.http.url, undefined, {
      response: (response) => {
        answered = true;
        const status = response.statusCode;
        if (status === 401 && link.refused(response)) return;
        if ((status === 404 || status === 400) && this.standingWorked && link.http.sessionId !== undefined) {
          // It served this session's stream before: now it does not know the session (restarted).
          response.body.resume();
          link.lost(`the server no longer knows the session (HTTP ${status} for its stream)`);
          return;
        }
        if (status === 405 || (status >= 400 && status < 500 && !this.standingWorked)) {
          // No such stream here (405, or a server that routes only POST): its messages come on request streams.
          response.body.resume();
          link.log.debug({ server: link.name, status }, 'the remote server offers no standing stream; its messages come on request streams');
          return;
        }
        if (status < 200 || status >= 300) {
          response.body.resume();
          this.retryStanding(`stream answered HTTP ${status}`);
          return;
        }
        this.standingWorked = true;
        this.standingFailures = 0;
        this.readStream(response.body, undefined, (lastEventId) => {
          // Reopened from its last event, the server may replay what was sent meanwhile (resumability).
          if (lastEventId !== undefined) this.standingLastEventId = lastEventId;
          if (this.standing === request) this.retryStanding('stream ended');
        });
      },
      error: (error) => {
        if (this.standing !== request) return;
        // Once the stream was open, a reset (an idle timeout on the way) is its end: it is reopened.
        if (answered) this.retryStanding(`stream failed: ${describeError(error)}`);
        else link.lost(`stream failed: ${describeError(error)}`);
      },
    }, 0, resumeFrom);
    this.standing = request;
  }

  private retryStanding(reason: string): void {
    if (!this.link.isOpen()) return;
    this.link.log.debug({ server: this.link.name, reason }, 'reopening the remote server stream');
    clearTimeout(this.standingTimer);
    // Doubling while it keeps failing, so a server answering errors is not asked every second.
    const delay = Math.min(STANDING_RETRY_MAX_MS, STANDING_RETRY_MS * 2 ** this.standingFailures);
    this.standingFailures += 1;
    this.standingTimer = setTimeout(() => this.openStanding(), delay);
    this.standingTimer.unref();
  }

  /** A client that is done with its session says so (transports.mdx, session management). */
  async deleteSession(): Promise<void> {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => request.abort(), DELETE_TIMEOUT_MS);
      const request = this.link.http.request('DELETE', this.link.http.url, undefined, {
        response: (response) => response.body.resume(),
        error: () => undefined,
        done: () => {
          clearTimeout(timer);
          resolve();
        },
      });
    });
  }
}

function traceHeaders(trace: NonNullable<Outgoing['trace']>): Record<string, string> {
  return trace.tracestate === undefined ? { traceparent: trace.traceparent } : { traceparent: trace.traceparent, tracestate: trace.tracestate };
}
