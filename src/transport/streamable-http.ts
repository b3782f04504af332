// Streamable HTTP (transports.mdx, 2025-03-26..2025-11-25): POST, GET and DELETE on one MCP endpoint.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../log.js';
import { ErrorCode, classify, errorResponse, type JsonRpcErrorResponse, type JsonRpcRequest } from '../jsonrpc/messages.js';
import type { ViewScope } from '../catalog/view.js';
import type { SwitchboardCore } from '../switchboard.js';
import type { SessionRefusal } from '../session/registry.js';
import type { Session } from '../session/session.js';
import { SUPPORTED_PROTOCOL_VERSIONS, negotiateVersion } from '../protocol.js';
import { HttpChannel, RequestStream } from './http-channel.js';
import { NO_BODY, header, readJsonBody, sendError, sendSessionNotFound } from './http-util.js';
import { parseEventId } from './event-log.js';
import type { AccessControl, Identity } from './access.js';
import { StatelessHttp, isStatelessProbe, isStatelessRequest } from './stateless-http.js';
import { endAtExpiry } from './token-expiry.js';

/** Idle SSE streams get a comment this often, ms: undici cuts a stream silent for 300 s (PROTOCOL.md §12). */
export const KEEPALIVE_MS = 15_000;

export class StreamableHttp {
  private readonly channels = new WeakMap<Session, HttpChannel>();
  private readonly live = new Set<HttpChannel>();
  private readonly keepAliveTimer: NodeJS.Timeout;
  /** The stateless era (2026-07-28) on the same endpoint. */
  private readonly stateless: StatelessHttp;

  constructor(
    private readonly core: SwitchboardCore,
    private readonly access: AccessControl,
    private readonly log: Logger,
  ) {
    this.stateless = new StatelessHttp(core, access, log);
    this.keepAliveTimer = setInterval(() => {
      const now = Date.now();
      for (const channel of this.live) channel.keepAlive(now, KEEPALIVE_MS);
      this.stateless.keepAlive();
    }, KEEPALIVE_MS);
    this.keepAliveTimer.unref();
  }

  /** True while the session holds an open stream; such sessions never expire as idle. */
  isBusy(session: Session): boolean {
    return this.channels.get(session)?.busy ?? false;
  }

  stop(): void {
    clearInterval(this.keepAliveTimer);
  }

  /** `endpoint`: the scope of the URL's endpoint; `identity`: who is asking (already authenticated). */
  handle(req: IncomingMessage, res: ServerResponse, endpoint: ViewScope, identity: Identity): void {
    switch (req.method) {
      case 'POST':
        this.post(req, res, endpoint, identity).catch((error: unknown) => {
          this.log.error({ err: error instanceof Error ? error.message : String(error) }, 'POST handler failed');
          if (!res.headersSent) sendError(res, 500, ErrorCode.InternalError, 'Internal error');
          else res.destroy();
        });
        return;
      case 'GET':
      case 'DELETE':
        if (isStatelessProbe(req)) {
          // The stateless era has no session to delete and no stream to GET (streamable-http.mdx, 2026-07-28).
          res.setHeader('allow', 'POST');
          sendError(res, 405, ErrorCode.InvalidRequest, `Method not allowed: ${req.method} has no use in protocol version 2026-07-28`);
        } else if (req.method === 'GET') this.get(req, res, endpoint, identity);
        else this.delete(req, res, endpoint, identity);
        return;
      default:
        res.setHeader('allow', 'GET, POST, DELETE');
        sendError(res, 405, ErrorCode.InvalidRequest, 'Method not allowed');
    }
  }

  private async post(req: IncomingMessage, res: ServerResponse, endpoint: ViewScope, identity: Identity): Promise<void> {
    // Media types are case-insensitive (RFC 9110 §8.3.1).
    const contentType = (header(req, 'content-type') ?? '').toLowerCase();
    if (!contentType.includes('application/json')) {
      sendError(res, 415, ErrorCode.InvalidRequest, 'Content-Type must be application/json');
      return;
    }
    const accept = (header(req, 'accept') ?? '').toLowerCase();
    const acceptsSse = accept.includes('text/event-stream');
    const acceptsJson = accept === '' || accept.includes('application/json') || accept.includes('*/*');
    if (!acceptsSse && !acceptsJson) {
      sendError(res, 406, ErrorCode.InvalidRequest, 'Accept must include application/json and text/event-stream');
      return;
    }
    const parsed = await readJsonBody(req, res, this.core.config.limits.maxBodyBytes);
    if (parsed === NO_BODY) return;
    if (!Array.isArray(parsed) && header(req, 'mcp-session-id') === undefined && isStatelessRequest(req, parsed)) {
      this.stateless.post(req, res, endpoint, identity, parsed, acceptsSse);
      return;
    }
    if (Array.isArray(parsed)) {
      const session = this.sessionOf(req, res, endpoint, identity);
      if (session !== undefined) this.batch(session, parsed, res);
      return;
    }
    const message = classify(parsed);
    if (message.kind === 'invalid') {
      sendError(res, 400, ErrorCode.InvalidRequest, `Invalid Request: ${message.reason}`, message.id);
      return;
    }
    if (message.kind === 'request' && message.message.method === 'initialize') {
      this.initialize(req, res, endpoint, identity, message.message, acceptsSse);
      return;
    }
    const session = this.sessionOf(req, res, endpoint, identity);
    if (session === undefined) return;
    const channel = this.channels.get(session) as HttpChannel;
    if (message.kind !== 'request') {
      res.writeHead(202).end();
      this.core.accept(session, message);
      return;
    }
    const request = message.message;
    if (channel.requests.has(request.id)) {
      sendError(res, 400, ErrorCode.InvalidRequest, 'a request with this id is still in flight in this session', request.id);
      return;
    }
    this.track(channel, request, res, acceptsSse);
    this.core.accept(session, message);
  }

  /**
   * A JSON-RPC batch: accepted from 2025-03-26 sessions only (batching existed in that version alone,
   * basic/index.mdx), answered on one SSE stream carrying every response; never sent by us.
   */
  private batch(session: Session, items: unknown[], res: ServerResponse): void {
    if (session.protocolVersion !== '2025-03-26') {
      sendError(res, 400, ErrorCode.InvalidRequest, `JSON-RPC batches are not part of protocol version ${session.protocolVersion}; send one message per POST`);
      return;
    }
    if (items.length === 0) {
      sendError(res, 400, ErrorCode.InvalidRequest, 'Invalid Request: empty batch');
      return;
    }
    const channel = this.channels.get(session) as HttpChannel;
    const requests: JsonRpcRequest[] = [];
    const refusals: JsonRpcErrorResponse[] = [];
    const others: Array<() => void> = [];
    for (const item of items) {
      const message = classify(item);
      if (message.kind === 'invalid') refusals.push(errorResponse(message.id, ErrorCode.InvalidRequest, `Invalid Request: ${message.reason}`));
      else if (message.kind === 'notification' || message.kind === 'response') others.push(() => this.core.accept(session, message));
      else if (message.message.method === 'initialize') refusals.push(errorResponse(message.message.id, ErrorCode.InvalidRequest, 'initialize must not be part of a batch'));
      else if (channel.requests.has(message.message.id) || requests.some((r) => r.id === message.message.id)) {
        refusals.push(errorResponse(message.message.id, ErrorCode.InvalidRequest, 'a request with this id is still in flight in this session'));
      } else requests.push(message.message);
    }
    for (const handle of others) handle();
    if (requests.length === 0 && refusals.length === 0) {
      res.writeHead(202).end();
      return;
    }
    const stream = new RequestStream(channel.newStreamId(), res, true, channel, requests.length + refusals.length);
    for (const refusal of refusals) stream.send(refusal, true);
    for (const request of requests) channel.requests.set(request.id, stream);
    res.on('close', () => {
      for (const request of requests) channel.detach(request.id, stream, res);
    });
    for (const request of requests) this.core.accept(session, { kind: 'request', message: request });
  }

  private initialize(req: IncomingMessage, res: ServerResponse, endpoint: ViewScope, identity: Identity, request: JsonRpcRequest, acceptsSse: boolean): void {
    const access = this.access.grant(endpoint, identity, req.url);
    if (!access.ok) {
      sendError(res, access.status, ErrorCode.InvalidRequest, access.message, request.id);
      return;
    }
    const scope = access.grant.scope;
    const version = negotiateVersion(request.params?.protocolVersion);
    let opened: Session | undefined;
    const channel: HttpChannel = new HttpChannel(
      this.log,
      () => opened?.protocolVersion ?? version,
      () => this.live.delete(channel),
    );
    const session = this.core.openSession('streamable-http', access.grant, channel, version);
    if ('refused' in session) {
      const [status, message] = refusalReply(session);
      sendError(res, status, ErrorCode.Overloaded, message, request.id);
      return;
    }
    opened = session;
    this.channels.set(session, channel);
    this.live.add(channel);
    res.setHeader('mcp-session-id', session.id);
    this.log.info(
      { session: session.id, scope: scope.endpoint, identity: identity.name, view: scope.policy.label, client: request.params?.clientInfo, protocolVersion: version },
      'session opened',
    );
    this.track(channel, request, res, acceptsSse);
    this.core.accept(session, { kind: 'request', message: request });
  }

  private track(channel: HttpChannel, request: JsonRpcRequest, res: ServerResponse, acceptsSse: boolean): void {
    const id = request.id;
    const stream = new RequestStream(channel.newStreamId(), res, acceptsSse, channel);
    channel.requests.set(id, stream);
    // Disconnecting is not cancelling (transports.mdx): the stream waits to be resumed, or its answer is dropped.
    res.on('close', () => channel.detach(id, stream, res));
  }

  private get(req: IncomingMessage, res: ServerResponse, endpoint: ViewScope, identity: Identity): void {
    if (!(header(req, 'accept') ?? '').toLowerCase().includes('text/event-stream')) {
      sendError(res, 406, ErrorCode.InvalidRequest, 'Accept must include text/event-stream');
      return;
    }
    const session = this.sessionOf(req, res, endpoint, identity);
    if (session === undefined) return;
    // A standing stream carries no credentials after this request: it ends with the token that
    // opened it (the session stays), and the client reconnects with a fresh one and Last-Event-ID.
    endAtExpiry(identity.expiresAt, res, () => res.end());
    const channel = this.channels.get(session) as HttpChannel;
    const lastEventId = header(req, 'last-event-id');
    if (lastEventId !== undefined) {
      // Resumption (transports.mdx): replay what that stream missed, on that stream only.
      const resumed = parseEventId(lastEventId);
      if (resumed === undefined) {
        sendError(res, 400, ErrorCode.InvalidRequest, 'Bad Request: unknown Last-Event-ID');
        return;
      }
      if (resumed.stream === 'g') channel.attachGetStream(res, resumed.seq);
      else if (!channel.resumeRequestStream(resumed.stream, res, resumed.seq)) {
        sendError(res, 404, ErrorCode.InvalidRequest, 'Nothing to resume for this Last-Event-ID');
      }
      return;
    }
    if (channel.getStream !== undefined && !channel.getStream.destroyed) {
      sendError(res, 409, ErrorCode.InvalidRequest, 'Conflict: this session already has a GET stream open');
      return;
    }
    channel.attachGetStream(res);
  }

  private delete(req: IncomingMessage, res: ServerResponse, endpoint: ViewScope, identity: Identity): void {
    const session = this.sessionOf(req, res, endpoint, identity);
    if (session === undefined) return;
    this.log.info({ session: session.id }, 'session closed by client');
    this.core.closeSession(session, 'deleted by client');
    res.writeHead(200).end();
  }

  /** The request's session, or undefined after answering 400 (no id), 404 (unknown) or 400 (bad version). */
  private sessionOf(req: IncomingMessage, res: ServerResponse, endpoint: ViewScope, identity: Identity): Session | undefined {
    const id = header(req, 'mcp-session-id');
    if (id === undefined || id === '') {
      sendError(res, 400, ErrorCode.InvalidRequest, 'Bad Request: Mcp-Session-Id header is required');
      return undefined;
    }
    const session = this.core.session(id);
    // A session opened on another endpoint, or by another identity, is as unknown here as a made-up one.
    if (session === undefined || session.transport !== 'streamable-http' || session.scope.endpoint !== endpoint.endpoint || !this.access.owns(session, identity)) {
      sendSessionNotFound(res, this.core.sessions.foreignInstance(id), this.core.config.instance);
      return undefined;
    }
    const version = header(req, 'mcp-protocol-version');
    if (version !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
      sendError(res, 400, ErrorCode.InvalidRequest, `Bad Request: unsupported MCP-Protocol-Version ${version}`);
      return undefined;
    }
    return session;
  }
}

/**
 * 429 when this identity holds its share of sessions (its own clients must end some), 503 when the
 * proxy holds its total; either way every one of them is busy, or an idle one would have made room.
 */
export function refusalReply(refusal: SessionRefusal): [status: number, message: string] {
  return refusal.refused === 'identity'
    ? [429, 'Too many sessions for this token; end some (DELETE) or try again later']
    : [503, 'Too many sessions; try again later'];
}
