// The stateless era (2026-07-28) on the Streamable HTTP endpoint: one POST per request, no session.
// Owns what is HTTP about it (basic/transports/streamable-http.mdx): the headers that must agree
// with the body, the status codes, and the reply as one JSON body or one SSE stream.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../log.js';
import { ErrorCode, encode, idJson, isObject, type JsonRpcId, type JsonRpcMessage, type JsonRpcRequest } from '../jsonrpc/messages.js';
import { ResultBytes, type Serialized } from '../wire/result-bytes.js';
import type { ViewScope } from '../catalog/view.js';
import type { SwitchboardCore } from '../switchboard.js';
import { hasStatelessMeta, statelessContextOf, type StatelessContext, type ReplyStream } from '../stateless/context.js';
import { STATELESS_PROTOCOL_VERSIONS, SUPPORTED_PROTOCOL_VERSIONS } from '../protocol.js';
import { SSE_HEADERS, header, replyHead } from './http-util.js';
import type { AccessControl, Identity } from './access.js';

/** Methods whose `Mcp-Name` header must repeat a member of params (streamable-http.mdx, "Request Metadata"). */
const NAMED_BY: ReadonlyMap<string, 'name' | 'uri'> = new Map([
  ['tools/call', 'name'],
  ['prompts/get', 'name'],
  ['resources/read', 'uri'],
]);

/** Bytes queued on one streaming reply before the reader counts as gone (as on the session era's streams). */
const MAX_QUEUED_BYTES = 8 * 1024 * 1024;

/** Header values may carry only visible ASCII and tabs; anything else comes base64-encoded in this form. */
const BASE64_VALUE = /^=\?base64\?([A-Za-z0-9+/]*={0,2})\?=$/;

/**
 * True when a POST without a session speaks the stateless era: it carries the era's `_meta`, or a
 * protocol version header that is not one of the session era's (basic/versioning.mdx: a request
 * with the stateless envelope is served statelessly; initialize selects the session era).
 */
export function isStatelessRequest(req: IncomingMessage, body: unknown): boolean {
  if (hasStatelessMeta(body)) return true;
  const version = header(req, 'mcp-protocol-version')?.trim();
  return version !== undefined && version !== '' && !SUPPORTED_PROTOCOL_VERSIONS.includes(version);
}

/** A GET or DELETE that names the stateless era: it has no streams or sessions to offer (405). */
export function isStatelessProbe(req: IncomingMessage): boolean {
  const version = header(req, 'mcp-protocol-version')?.trim();
  return header(req, 'mcp-session-id') === undefined && version !== undefined && STATELESS_PROTOCOL_VERSIONS.includes(version);
}

/** The HTTP status of a reply that is one JSON body: the era's error codes have their own (streamable-http.mdx). */
function statusOf(message: JsonRpcMessage): number {
  const code = (message as { error?: { code?: unknown } }).error?.code;
  if (code === ErrorCode.MethodNotFound) return 404;
  if (code === ErrorCode.HeaderMismatch || code === ErrorCode.MissingRequiredClientCapability || code === ErrorCode.UnsupportedProtocolVersion) return 400;
  return 200;
}

/**
 * One POST's reply: a single JSON body when the answer comes alone, else an SSE stream (progress and
 * log lines first, the answer last). No event ids: the era has no resumption.
 */
class StatelessReply implements ReplyStream {
  private mode: 'undecided' | 'sse' | 'done' = 'undecided';
  /** What the core gave to call when the client goes before the answer. */
  gone: (() => void) | undefined;

  constructor(
    private readonly res: ServerResponse,
    private readonly acceptsSse: boolean,
    /** The transport's streaming replies, which this one joins once it streams. */
    private readonly streaming: Set<StatelessReply>,
  ) {}

  /** The POST's connection closed: the end of a stream, or the client leaving before the answer (cancellation). */
  readonly onClose = (): void => {
    this.streaming.delete(this);
    if (this.mode !== 'done') this.gone?.();
  };

  get finished(): boolean {
    return this.mode === 'done';
  }

  send(message: JsonRpcMessage, final: boolean, serialized?: Serialized): boolean {
    if (this.mode === 'done' || this.res.destroyed) return false;
    if (this.mode === 'undecided') {
      if (final) {
        this.mode = 'done';
        const body = serialized ?? encode(message) ?? '';
        if (body instanceof ResultBytes) {
          this.res.writeHead(statusOf(message), { 'content-type': 'application/json', 'content-length': body.byteLength });
          this.res.end(body.bytes, () => body.release());
        } else {
          this.res.writeHead(...replyHead(message, statusOf(message), { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }));
          this.res.end(body);
        }
        return true;
      }
      if (!this.acceptsSse) return false;
      this.mode = 'sse';
      this.res.writeHead(200, SSE_HEADERS);
      this.streaming.add(this);
    }
    // A reader this far behind loses the request (closing cancels it) rather than growing our memory.
    if (this.res.writableLength > MAX_QUEUED_BYTES) {
      this.res.destroy();
      return false;
    }
    const data = String(serialized ?? encode(message) ?? '');
    this.res.write(`event: message\ndata: ${data}\n\n`);
    if (final) {
      this.mode = 'done';
      this.res.end();
    }
    return true;
  }

  end(): void {
    if (this.mode === 'done') return;
    const undecided = this.mode === 'undecided';
    this.mode = 'done';
    if (this.res.destroyed) return;
    if (undecided) this.res.writeHead(204);
    this.res.end();
  }

  keepAlive(): void {
    if (this.mode === 'sse' && !this.res.destroyed) this.res.write(': keepalive\n\n');
  }
}

export class StatelessHttp {
  /** Replies streaming now (long calls, listens): kept alive with comments, as idle streams get cut. */
  private readonly streaming = new Set<StatelessReply>();

  constructor(
    private readonly core: SwitchboardCore,
    private readonly access: AccessControl,
    private readonly log: Logger,
  ) {}

  keepAlive(): void {
    for (const reply of this.streaming) reply.keepAlive();
  }

  /** A POST judged stateless (isStatelessRequest), its body parsed. */
  post(req: IncomingMessage, res: ServerResponse, endpoint: ViewScope, identity: Identity, body: unknown, acceptsSse: boolean): void {
    const id = isObject(body) && (typeof body.id === 'string' || typeof body.id === 'number') ? body.id : null;
    if (!isObject(body) || typeof body.method !== 'string' || body.jsonrpc !== '2.0') {
      refuse(res, id, 400, ErrorCode.InvalidRequest, 'Invalid Request: a 2026-07-28 POST carries one request or notification');
      return;
    }
    if (id === null) {
      // Notifications: the era sends none over HTTP; cancellation is closing the request's stream.
      res.writeHead(202).end();
      return;
    }
    const request = body as unknown as JsonRpcRequest;
    const context = this.check(req, request);
    if (!('protocolVersion' in context)) {
      refuse(res, id, 400, context.code, context.message, context.data);
      return;
    }
    const access = this.access.grant(endpoint, identity, req.url);
    if (!access.ok) {
      refuse(res, id, access.status, ErrorCode.InvalidRequest, access.message);
      return;
    }
    const reply = new StatelessReply(res, acceptsSse, this.streaming);
    reply.gone = this.core.acceptStateless(access.grant, request, context, reply);
    res.on('close', reply.onClose);
  }

  /** The era's checks, in the order the suite's validation needs them: the request's context when it passes. */
  private check(req: IncomingMessage, request: JsonRpcRequest): StatelessContext | { code: number; message: string; data?: unknown } {
    const headerVersion = header(req, 'mcp-protocol-version')?.trim();
    if (headerVersion === undefined || headerVersion === '') return { code: ErrorCode.HeaderMismatch, message: 'Bad Request: the MCP-Protocol-Version header is required' };
    const context = statelessContextOf(request);
    if (!('protocolVersion' in context)) return { code: context.code, message: context.message };
    if (headerVersion !== context.protocolVersion) {
      return { code: ErrorCode.HeaderMismatch, message: `Bad Request: MCP-Protocol-Version ${headerVersion} does not match the request's _meta version ${context.protocolVersion}` };
    }
    if (!STATELESS_PROTOCOL_VERSIONS.includes(context.protocolVersion)) {
      return {
        code: ErrorCode.UnsupportedProtocolVersion,
        message: `Unsupported protocol version: ${context.protocolVersion}`,
        data: { supported: [...STATELESS_PROTOCOL_VERSIONS], requested: context.protocolVersion },
      };
    }
    const mismatch = headerMismatch(req, request);
    return mismatch === undefined ? context : { code: ErrorCode.HeaderMismatch, message: `Bad Request: ${mismatch}` };
  }
}

/** A JSON-RPC error as the whole reply, echoing the request's id when it had one. */
function refuse(res: ServerResponse, id: JsonRpcId | null, status: number, code: number, message: string, data?: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(`{"jsonrpc":"2.0","id":${id === null ? 'null' : idJson(id)},"error":${JSON.stringify(data === undefined ? { code, message } : { code, message, data })}}`);
}

/** Why the request headers disagree with the body, or undefined when they agree. */
function headerMismatch(req: IncomingMessage, request: JsonRpcRequest): string | undefined {
  const method = header(req, 'mcp-method')?.trim();
  if (method === undefined) return 'the Mcp-Method header is required';
  if (method !== request.method) return `Mcp-Method ${JSON.stringify(method)} does not match the request's method`;
  const member = NAMED_BY.get(request.method);
  if (member === undefined) return undefined;
  const expected = request.params?.[member];
  const raw = header(req, 'mcp-name');
  if (raw === undefined) return typeof expected === 'string' ? 'the Mcp-Name header is required for this method' : undefined;
  const value = decodeHeaderValue(raw.trim());
  if (value === undefined) return 'Mcp-Name is not a valid header value';
  if (value !== expected) return `Mcp-Name does not match the request's ${member}`;
  return undefined;
}

/** A header value as sent (visible ASCII) or decoded from `=?base64?…?=`; undefined when malformed. */
export function decodeHeaderValue(value: string): string | undefined {
  if (!isVisibleAscii(value)) return undefined;
  if (!value.startsWith('=?base64?') || !value.endsWith('?=')) return value;
  const match = BASE64_VALUE.exec(value);
  const encoded = match?.[1];
  if (encoded === undefined || encoded.length % 4 !== 0) return undefined;
  const decoded = Buffer.from(encoded, 'base64');
  // Strict: the bytes must encode back to the same text, and be UTF-8.
  if (decoded.toString('base64') !== encoded) return undefined;
  const text = decoded.toString('utf8');
  return Buffer.from(text, 'utf8').equals(decoded) ? text : undefined;
}

/** Visible ASCII and tabs only. A loop, not a regular expression: it runs on every stateless call's Mcp-Name. */
function isVisibleAscii(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if ((c < 0x20 && c !== 0x09) || c > 0x7e) return false;
  }
  return true;
}
