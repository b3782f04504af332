// What a stateless-era request (2026-07-28) says about its client in `_meta`: there is no handshake,
// so each request carries its version and capabilities itself (basic/index.mdx, "_meta").
import { ErrorCode, SwitchboardError, isObject, type JsonObject, type JsonRpcMessage, type JsonRpcRequest } from '../jsonrpc/messages.js';
import type { Serialized } from '../wire/result-bytes.js';
import { META_CLIENT_CAPABILITIES, META_CLIENT_INFO, META_LOG_LEVEL, META_PROTOCOL_VERSION } from '../protocol.js';

export interface StatelessContext {
  readonly protocolVersion: string;
  readonly clientCapabilities: JsonObject;
  readonly clientInfo: JsonObject | undefined;
  /** The lowest log level the client wants on this request's stream; none when absent (logging.mdx). */
  readonly logLevel: string | undefined;
}

/** True when a message carries the stateless era's envelope: a request `_meta` with one of its keys. */
export function hasStatelessMeta(message: unknown): boolean {
  if (!isObject(message) || !isObject(message.params)) return false;
  const meta = message.params._meta;
  return isObject(meta) && (META_PROTOCOL_VERSION in meta || META_CLIENT_CAPABILITIES in meta);
}

/** The request's envelope, or a -32602 saying which required field is missing (versioning.mdx: HTTP 400). */
export function statelessContextOf(request: JsonRpcRequest): StatelessContext | SwitchboardError {
  const meta = request.params?._meta;
  if (!isObject(meta)) return new SwitchboardError(ErrorCode.InvalidParams, 'Invalid params: the request has no _meta (2026-07-28 requests carry their version and capabilities there)');
  const version = meta[META_PROTOCOL_VERSION];
  if (typeof version !== 'string' || version === '') return new SwitchboardError(ErrorCode.InvalidParams, `Invalid params: _meta["${META_PROTOCOL_VERSION}"] is required`);
  const capabilities = meta[META_CLIENT_CAPABILITIES];
  if (!isObject(capabilities)) return new SwitchboardError(ErrorCode.InvalidParams, `Invalid params: _meta["${META_CLIENT_CAPABILITIES}"] must be an object`);
  const info = meta[META_CLIENT_INFO];
  const level = meta[META_LOG_LEVEL];
  return { protocolVersion: version, clientCapabilities: capabilities, clientInfo: isObject(info) ? info : undefined, logLevel: typeof level === 'string' ? level : undefined };
}

/**
 * Where a stateless request's answer goes: the HTTP response of the POST that carries it now (a
 * retry with input responses continues a request on a new POST). Owned by the transport.
 */
export interface ReplyStream {
  /** False when it cannot carry the message (ended, or a non-final message to a JSON-only client). */
  send(message: JsonRpcMessage, final: boolean, serialized?: Serialized): boolean;
  /** Ends the reply without an answer. */
  end(): void;
}
