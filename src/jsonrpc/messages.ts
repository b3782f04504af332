// JSON-RPC 2.0 message shapes, guards and error codes; the one place raw JSON becomes typed.
import { exactNumberIdText, isExactNumberId } from './exact-id.js';

export type JsonRpcId = string | number;
export type JsonObject = { [key: string]: unknown };

export interface JsonRpcRequest {
  jsonrpc: '2.0';
  id: JsonRpcId;
  method: string;
  params?: JsonObject;
}
export interface JsonRpcNotification {
  jsonrpc: '2.0';
  method: string;
  params?: JsonObject;
}
export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}
export interface JsonRpcResultResponse {
  jsonrpc: '2.0';
  id: JsonRpcId;
  result: JsonObject;
}
export interface JsonRpcErrorResponse {
  jsonrpc: '2.0';
  id: JsonRpcId | null;
  error: JsonRpcErrorObject;
}
export type JsonRpcResponse = JsonRpcResultResponse | JsonRpcErrorResponse;
export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;

/** Standard codes (JSON-RPC 2.0 §5.1) and the MCP ones we emit. */
export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  // -32099..-32000 are implementation-defined; these two match the SDK's meaning so clients map them well.
  /** The server behind the call exited, failed to start or was stopped. */
  ConnectionClosed: -32000,
  /** The server did not answer within its `timeoutMs`. */
  RequestTimeout: -32001,
  /** MCP (legacy) resource not found, server/resources.mdx. */
  ResourceNotFound: -32002,
  /** A queue or size bound was hit; the request was refused rather than buffered without limit. */
  Overloaded: -32003,
  /** A rate limit of the proxy (limits.identity, profiles, tools) refused the request; data: {limit, retryAfterSeconds}. HTTP 429. */
  RateLimited: -32029,
  // The stateless era's own codes (2026-07-28, basic/index.mdx "Error Codes"); each is HTTP 400.
  /** A request header disagrees with the body, or a required one is missing. */
  HeaderMismatch: -32020,
  /** Serving the request needs a client capability the request did not declare; data: {requiredCapabilities}. */
  MissingRequiredClientCapability: -32021,
  /** The request's protocol version is not one we serve; data: {supported, requested}. */
  UnsupportedProtocolVersion: -32022,
} as const;

/** A failure that has a JSON-RPC code; transports map it to an HTTP status, nothing else does. */
export class SwitchboardError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'SwitchboardError';
  }
  toJsonRpc(): JsonRpcErrorObject {
    return this.data === undefined ? { code: this.code, message: this.message } : { code: this.code, message: this.message, data: this.data };
  }
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isValidId(value: unknown): value is JsonRpcId {
  return typeof value === 'string' || (typeof value === 'number' && Number.isInteger(value));
}

export type Classified =
  | { kind: 'request'; message: JsonRpcRequest }
  | { kind: 'notification'; message: JsonRpcNotification }
  | { kind: 'response'; message: JsonRpcResponse }
  | { kind: 'invalid'; id: JsonRpcId | null; reason: string };

/** Sorts a parsed value into one of the four JSON-RPC shapes, reading only the envelope. */
export function classify(value: unknown): Classified {
  if (!isObject(value)) return { kind: 'invalid', id: null, reason: 'a JSON-RPC message must be an object' };
  const id = value.id;
  const hasId = id !== undefined;
  if (value.jsonrpc !== '2.0') return { kind: 'invalid', id: isValidId(id) ? id : null, reason: 'jsonrpc must be "2.0"' };
  if (hasId && !isValidId(id) && !(id === null && 'error' in value)) {
    return { kind: 'invalid', id: null, reason: 'id must be a string or an integer' };
  }
  const params = value.params;
  if (typeof value.method === 'string') {
    if (params !== undefined && !isObject(params)) {
      return { kind: 'invalid', id: hasId && isValidId(id) ? id : null, reason: 'params must be an object' };
    }
    if (hasId) return { kind: 'request', message: value as unknown as JsonRpcRequest };
    return { kind: 'notification', message: value as unknown as JsonRpcNotification };
  }
  if (value.method !== undefined) return { kind: 'invalid', id: isValidId(id) ? id : null, reason: 'method must be a string' };
  if (hasId && ('result' in value || 'error' in value)) {
    if ('error' in value && !(isObject(value.error) && typeof value.error.code === 'number')) {
      return { kind: 'invalid', id: isValidId(id) ? id : null, reason: 'error must be an object with a numeric code' };
    }
    return { kind: 'response', message: value as unknown as JsonRpcResponse };
  }
  return { kind: 'invalid', id: isValidId(id) ? id : null, reason: 'not a request, notification or response' };
}

/** An id as JSON text, for splicing it into a message already encoded. */
export function idJson(id: JsonRpcId): string {
  if (typeof id === 'number') return String(id);
  return isExactNumberId(id) ? exactNumberIdText(id) : JSON.stringify(id);
}

export function errorResponse(id: JsonRpcId | null, code: number, message: string, data?: unknown): JsonRpcErrorResponse {
  return { jsonrpc: '2.0', id, error: data === undefined ? { code, message } : { code, message, data } };
}

export function resultResponse(id: JsonRpcId, result: JsonObject): JsonRpcResultResponse {
  return { jsonrpc: '2.0', id, result };
}

/** A message that ends the request it relates to: a response, not a request or notification. */
export function isResponse(message: JsonRpcMessage): boolean {
  return (message as { method?: unknown }).method === undefined;
}

/**
 * Serializes a message for the wire. A value nested too deeply to serialize (a hostile or broken
 * child) must not take the proxy down: a response becomes an error response for the same id, any
 * other message is dropped (undefined).
 */
export function encode(message: JsonRpcMessage): string | undefined {
  try {
    const id = (message as { id?: unknown }).id;
    if (isExactNumberId(id)) return encodeWithExactId(message, id);
    return JSON.stringify(message);
  } catch {
    const { id, method } = message as { id?: JsonRpcId | null; method?: unknown };
    if (method !== undefined || id === undefined) return undefined;
    return JSON.stringify(errorResponse(id, ErrorCode.InternalError, 'the server answered with a value too deeply nested to forward'));
  }
}

/** The message with its id written as the client's digits: jsonrpc and id first, then the rest as JSON.stringify writes them. */
function encodeWithExactId(message: JsonRpcMessage, id: string): string {
  const { jsonrpc: _jsonrpc, id: _id, ...rest } = message as unknown as Record<string, unknown>;
  const tail = JSON.stringify(rest);
  return `{"jsonrpc":"2.0","id":${exactNumberIdText(id)}${tail === '{}' ? '' : `,${tail.slice(1, -1)}`}}`;
}

/** JSON.stringify that answers undefined instead of throwing (cycles, absurd nesting). */
export function tryStringify(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}
