// Legacy HTTP+SSE (2024-11-05, transports.mdx#http-with-sse): GET opens the session stream, POSTs carry client messages.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../log.js';
import { ErrorCode, classify, encode, errorResponse, type JsonRpcMessage } from '../jsonrpc/messages.js';
import type { Serialized } from '../wire/result-bytes.js';
import type { ViewScope } from '../catalog/view.js';
import type { AccessControl, Identity } from './access.js';
import type { SwitchboardCore } from '../switchboard.js';
import type { Session } from '../session/session.js';
import type { SessionChannel } from '../session/opening.js';
import { refusalReply } from './streamable-http.js';
import { endAtExpiry } from './token-expiry.js';
import { NO_BODY, SSE_HEADERS, readJsonBody, sendError, sendSessionNotFound, sendText } from './http-util.js';

/** The version a legacy SSE client speaks until its initialize says otherwise. */
const LEGACY_VERSION = '2024-11-05';
/** Bytes queued on one SSE connection before its reader counts as stuck and the session is closed, bytes. */
const MAX_QUEUED_BYTES = 16 * 1024 * 1024;

class SseChannel implements SessionChannel {
  constructor(
    private readonly res: ServerResponse,
    private readonly onStuck: () => void,
    private readonly onClosed: () => void,
  ) {}

  deliver(message: JsonRpcMessage, _relatedTo: unknown, serialized?: Serialized): void {
    if (this.res.destroyed || this.res.writableEnded) return;
    const data = serialized ?? encode(message);
    if (data === undefined) return;
    this.res.write(`event: message\ndata: ${String(data)}\n\n`);
    if (this.res.writableLength > MAX_QUEUED_BYTES) this.onStuck();
  }

  /** Nothing to end: every message of the session shares the one stream. */
  abandon(): void {}

  close(): void {
    this.onClosed();
    if (!this.res.writableEnded) this.res.end();
  }

  keepAlive(): void {
    if (!this.res.destroyed && !this.res.writableEnded) this.res.write(': keepalive\n\n');
  }
}

export class LegacySse {
  private readonly live = new Set<SseChannel>();

  constructor(
    private readonly core: SwitchboardCore,
    private readonly access: AccessControl,
    private readonly log: Logger,
  ) {}

  keepAlive(): void {
    for (const channel of this.live) channel.keepAlive();
  }

  /** GET <base>/sse: opens a session and tells the client where to POST (the `endpoint` event). */
  open(req: IncomingMessage, res: ServerResponse, endpoint: ViewScope, identity: Identity, messagesPath: string): void {
    if (req.method !== 'GET') {
      // A client trying Streamable HTTP first must see 404/405 to fall back to SSE (transports.mdx, backwards compatibility).
      res.setHeader('allow', 'GET');
      sendText(res, req.method === 'POST' ? 404 : 405, 'This is the legacy SSE endpoint: GET it, then POST to the endpoint it names\n');
      return;
    }
    const access = this.access.grant(endpoint, identity, req.url);
    if (!access.ok) {
      sendError(res, access.status, ErrorCode.InvalidRequest, access.message);
      return;
    }
    const scope = access.grant.scope;
    let session: Session | undefined;
    const channel: SseChannel = new SseChannel(res, () => {
      this.log.warn({ session: session?.id }, 'SSE reader is not keeping up; closing its session');
      if (session !== undefined) this.core.closeSession(session, 'client not reading');
    }, () => this.live.delete(channel));
    const result = this.core.openSession('sse', access.grant, channel, LEGACY_VERSION);
    if ('refused' in result) {
      const [status, message] = refusalReply(result);
      sendError(res, status, ErrorCode.Overloaded, message);
      return;
    }
    session = result;
    const opened = session;
    this.live.add(channel);
    res.writeHead(200, SSE_HEADERS);
    // Relative, so it resolves against whatever host and scheme the client reached us by.
    res.write(`event: endpoint\ndata: ${messagesPath}?sessionId=${encodeURIComponent(opened.id)}\n\n`);
    this.log.info({ session: opened.id, scope: scope.endpoint, identity: identity.name, view: scope.policy.label }, 'SSE session opened');
    res.on('close', () => {
      this.live.delete(channel);
      this.core.closeSession(opened, 'SSE stream closed');
    });
    // The stream is the session, and carries no credentials after this request: both end with the
    // token that opened them, and the client opens a new one with a fresh token.
    endAtExpiry(identity.expiresAt, res, () => {
      this.log.info({ session: opened.id }, 'SSE session closed: its access token expired');
      res.end();
    });
  }

  /** POST <base>/messages?sessionId=: one client message (or a batch); answers come on the SSE stream. */
  async post(req: IncomingMessage, res: ServerResponse, endpoint: ViewScope, identity: Identity, query: URLSearchParams): Promise<void> {
    if (req.method !== 'POST') {
      res.setHeader('allow', 'POST');
      sendError(res, 405, ErrorCode.InvalidRequest, 'Method not allowed');
      return;
    }
    const id = query.get('sessionId');
    if (id === null || id === '') {
      sendError(res, 400, ErrorCode.InvalidRequest, 'Bad Request: sessionId query parameter is required');
      return;
    }
    const session = this.core.session(id);
    if (session === undefined || session.transport !== 'sse' || session.scope.endpoint !== endpoint.endpoint || !this.access.owns(session, identity)) {
      sendSessionNotFound(res, this.core.sessions.foreignInstance(id), this.core.config.instance);
      return;
    }
    const parsed = await readJsonBody(req, res, this.core.config.limits.maxBodyBytes);
    if (parsed === NO_BODY) return;
    if (!Array.isArray(parsed)) {
      const single = classify(parsed);
      if (single.kind === 'invalid') {
        sendError(res, 400, ErrorCode.InvalidRequest, `Invalid Request: ${single.reason}`, single.id);
        return;
      }
    }
    const items = Array.isArray(parsed) ? parsed : [parsed];
    if (items.length === 0) {
      sendError(res, 400, ErrorCode.InvalidRequest, 'Invalid Request: empty batch');
      return;
    }
    res.writeHead(202, { 'content-type': 'text/plain; charset=utf-8' }).end('Accepted');
    for (const item of items) {
      const message = classify(item);
      if (!this.core.accept(session, message) && message.kind === 'invalid') {
        session.deliver(errorResponse(message.id, ErrorCode.InvalidRequest, `Invalid Request: ${message.reason}`), undefined);
      }
    }
  }
}
