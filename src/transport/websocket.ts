// WebSocket at /ws (not a spec transport; PROTOCOL.md §4): subprotocol `mcp`, one JSON-RPC message per text frame, one session per socket.
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket, type RawData } from 'ws';
import type { Logger } from '../log.js';
import { ErrorCode, classify, encode, errorResponse, type JsonRpcMessage } from '../jsonrpc/messages.js';
import type { Serialized } from '../wire/result-bytes.js';
import { parseMessageText } from '../wire/parse.js';
import type { ViewScope } from '../catalog/view.js';
import type { SwitchboardCore } from '../switchboard.js';
import type { Session } from '../session/session.js';
import type { SessionChannel, SessionGrant } from '../session/opening.js';
import { endAtExpiry } from './token-expiry.js';

const LEGACY_VERSION = '2024-11-05';
/** How often sockets are pinged; one without a pong by the next ping is dropped, ms. */
const PING_EVERY_MS = 30_000;
/** Bytes queued on one socket before its reader counts as stuck and the session is closed, bytes. */
const MAX_BUFFERED_BYTES = 16 * 1024 * 1024;

/** Close codes (RFC 6455 §7.4.1). */
const CLOSE_UNSUPPORTED = 1003;
const CLOSE_POLICY = 1008;
const CLOSE_GOING_AWAY = 1001;

class SocketChannel implements SessionChannel {
  constructor(
    private readonly socket: WebSocket,
    private readonly onStuck: () => void,
  ) {}

  deliver(message: JsonRpcMessage, _relatedTo: unknown, serialized?: Serialized): void {
    if (this.socket.readyState !== this.socket.OPEN) return;
    const data = serialized ?? encode(message);
    if (data === undefined) return;
    this.socket.send(String(data));
    if (this.socket.bufferedAmount > MAX_BUFFERED_BYTES) this.onStuck();
  }

  abandon(): void {}

  close(reason: string): void {
    if (this.socket.readyState === this.socket.OPEN) this.socket.close(CLOSE_GOING_AWAY, reason.slice(0, 120));
  }
}

export class WebSocketDoor {
  private readonly server: WebSocketServer;
  private readonly alive = new WeakSet<WebSocket>();
  private readonly pinger: NodeJS.Timeout;

  constructor(
    private readonly core: SwitchboardCore,
    private readonly log: Logger,
  ) {
    this.server = new WebSocketServer({
      noServer: true,
      maxPayload: core.config.limits.maxBodyBytes,
      // Echo `mcp` when offered: the SDK's client fails the handshake otherwise.
      handleProtocols: (protocols) => (protocols.has('mcp') ? 'mcp' : false),
    });
    this.pinger = setInterval(() => this.ping(), PING_EVERY_MS);
    this.pinger.unref();
  }

  /** `scope`: the session's view, already resolved from the identity and the URL query. */
  /** `expiresAt`: when the credential that opened it expires (an access token): the session ends then. */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer, grant: SessionGrant, expiresAt?: number): void {
    this.server.handleUpgrade(req, socket, head, (ws) => {
      this.accept(ws, grant);
      // Frames carry no credentials: the socket ends with the token that opened it.
      endAtExpiry(expiresAt, ws, () => ws.close(CLOSE_POLICY, 'access token expired'));
    });
  }

  stop(): void {
    clearInterval(this.pinger);
    for (const ws of this.server.clients) ws.terminate();
    this.server.close();
  }

  private accept(ws: WebSocket, grant: SessionGrant): void {
    const scope = grant.scope;
    let session: Session | undefined;
    const channel = new SocketChannel(ws, () => {
      this.log.warn({ session: session?.id }, 'WebSocket reader is not keeping up; closing its session');
      ws.close(CLOSE_POLICY, 'not reading');
    });
    const result = this.core.openSession('websocket', grant, channel, LEGACY_VERSION);
    if ('refused' in result) {
      ws.close(CLOSE_GOING_AWAY, result.refused === 'identity' ? 'too many sessions for this token' : 'too many sessions');
      return;
    }
    session = result;
    const opened = session;
    this.alive.add(ws);
    this.log.info({ session: opened.id, scope: scope.endpoint, identity: grant.principal, view: scope.policy.label }, 'WebSocket session opened');
    ws.on('pong', () => this.alive.add(ws));
    ws.on('message', (data, isBinary) => this.onFrame(opened, ws, data, isBinary));
    ws.on('close', () => this.core.closeSession(opened, 'socket closed'));
    ws.on('error', (error) => this.log.debug({ session: opened.id, err: error.message }, 'socket error'));
  }

  private onFrame(session: Session, ws: WebSocket, data: RawData, isBinary: boolean): void {
    if (isBinary) {
      ws.close(CLOSE_UNSUPPORTED, 'binary frames are not MCP messages');
      return;
    }
    let parsed: unknown;
    try {
      const text = data.toString();
      parsed = parseMessageText(text);
    } catch {
      session.deliver(errorResponse(null, ErrorCode.ParseError, 'Parse error: the frame is not valid JSON'), undefined);
      return;
    }
    const message = classify(parsed);
    if (this.core.accept(session, message) || message.kind !== 'invalid') return;
    const reason = Array.isArray(parsed) ? 'batches are not accepted; send one message per frame' : message.reason;
    session.deliver(errorResponse(message.id, ErrorCode.InvalidRequest, `Invalid Request: ${reason}`), undefined);
  }

  /** Drops sockets that did not answer the last ping: a dead peer otherwise holds its session for ever. */
  private ping(): void {
    for (const ws of this.server.clients) {
      if (!this.alive.has(ws)) {
        ws.terminate();
        continue;
      }
      this.alive.delete(ws);
      ws.ping();
    }
  }
}
