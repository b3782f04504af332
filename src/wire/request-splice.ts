// Forwarding a large client request as the client's own text with only the routed fields replaced.
//
// A tools/call carrying 64 KiB of arguments costs ~90 µs and a 64 KiB string to JSON.stringify again,
// though the proxy changes three small values in it: the id, the tool or prompt name and the progress
// token. Splicing those into the text the client sent skips the serialization and its garbage.

import { isObject, type JsonObject, type JsonRpcRequest } from '../jsonrpc/messages.js';
import { scanMessage, type MessageSpans } from './message-scan.js';

/** Requests whose text is kept for splicing; smaller ones serialize as fast as they scan, bytes. */
export const RAW_MIN_CHARS = 1024;

/** Where the raw text rides on a parsed request: a symbol, so JSON.stringify never sees it. */
export const RAW_TEXT: unique symbol = Symbol('raw request text');
/**
 * The spans found when a request was built from a scan of its text (routedRequest). Such a request
 * holds only the members the router reads, so it must go out spliced, never serialized.
 */
export const RAW_SPANS: unique symbol = Symbol('raw request spans');

export interface RawCarrier {
  [RAW_TEXT]?: string;
  [RAW_SPANS]?: RequestSpans;
}

/** Methods whose only rewrites before forwarding are the id, `params.name` and the progress token. */
export const SPLICEABLE: ReadonlySet<string> = new Set(['tools/call', 'prompts/get', 'resources/read']);

/** Remembers the text a request was parsed from, when it is worth splicing later. */
export function keepRawText(parsed: unknown, text: string): void {
  if (text.length >= RAW_MIN_CHARS && typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
    (parsed as RawCarrier)[RAW_TEXT] ??= text;
  }
}

/**
 * A large tools/call, prompts/get or resources/read as the router sees it, built from a validating
 * scan of its text rather than a parse: jsonrpc, id, method and the params members routing reads
 * (name, uri, task, _meta). The arguments stay in the text, which is what the child
 * receives, so a 64 KiB payload is never copied onto the heap. Undefined for anything else (the
 * caller parses as usual), including text the scan refuses.
 */
export function routedRequest(text: string): (Record<string, unknown> & RawCarrier) | undefined {
  if (text.length < RAW_MIN_CHARS) return undefined;
  const spans = scanMessage(text);
  if (spans === undefined || spans.methodStart === -1 || spans.idStart === -1 || spans.paramsStart === -1) return undefined;
  const method: unknown = valueAt(text, spans.methodStart, spans.methodEnd);
  if (typeof method !== 'string' || !SPLICEABLE.has(method)) return undefined;
  const params: Record<string, unknown> = {};
  if (spans.nameStart !== -1) params.name = valueAt(text, spans.nameStart, spans.nameEnd);
  if (spans.uriStart !== -1) params.uri = valueAt(text, spans.uriStart, spans.uriEnd);
  if (spans.taskStart !== -1) params.task = valueAt(text, spans.taskStart, spans.taskEnd);
  // The whole _meta (small): a stateless-era request carries its version and capabilities there.
  if (spans.metaStart !== -1) params._meta = valueAt(text, spans.metaStart, spans.metaEnd);
  const request: Record<string, unknown> & RawCarrier = { id: valueAt(text, spans.idStart, spans.idEnd), method, params };
  if (spans.jsonrpcStart !== -1) request.jsonrpc = valueAt(text, spans.jsonrpcStart, spans.jsonrpcEnd);
  request[RAW_TEXT] = text;
  request[RAW_SPANS] = requestSpans(spans);
  return request;
}

function valueAt(text: string, start: number, end: number): unknown {
  return JSON.parse(text.slice(start, end));
}

/** The [start, end) offsets of the values the proxy rewrites in a request's text. */
export interface RequestSpans {
  idStart: number;
  idEnd: number;
  /** -1 when absent. */
  nameStart: number;
  nameEnd: number;
  tokenStart: number;
  tokenEnd: number;
}

/**
 * The spans of `id`, `params.name` and `params._meta.progressToken` in a request's text, from the
 * same validating scan routedRequest uses. Undefined when splicing would not be faithful: whatever
 * the scan refuses (a line break, which would split the NDJSON line; a routed member that occurs
 * twice, where JSON.parse keeps the last one and a splice must not pick the other), or no id.
 */
export function findRequestSpans(text: string): RequestSpans | undefined {
  const spans = scanMessage(text);
  return spans === undefined || spans.idStart === -1 ? undefined : requestSpans(spans);
}

function requestSpans(spans: MessageSpans): RequestSpans {
  return {
    idStart: spans.idStart,
    idEnd: spans.idEnd,
    nameStart: spans.nameStart,
    nameEnd: spans.nameEnd,
    tokenStart: spans.tokenStart,
    tokenEnd: spans.tokenEnd,
  };
}

/**
 * The request as one NDJSON line (newline included): the text with its id, name and progress token
 * replaced by the given JSON texts (a replacement is skipped when its span is absent). Its length
 * is known before it is encoded, so the bytes can go straight into a buffer the writer reuses; V8
 * keeps slices of a flat string as views, so no joined copy of the text is ever made.
 */
export class RequestLine {
  constructor(
    private readonly text: string,
    /** [start, end, replacement], in text order. */
    private readonly edits: ReadonlyArray<readonly [number, number, string]>,
    /** UTF-8 length of the line, newline included. */
    readonly bytes: number,
  ) {}

  /** Encodes the line into `target` (at least `bytes` long) from offset 0. */
  writeTo(target: Buffer): void {
    const text = this.text;
    let from = 0;
    let at = 0;
    for (const [start, end, replacement] of this.edits) {
      at += target.write(text.slice(from, start), at);
      at += target.write(replacement, at);
      from = end;
    }
    at += target.write(text.slice(from), at);
    target[at] = 0x0a;
  }
}

export function spliceRequestLine(text: string, spans: RequestSpans, idJson: string, nameJson: string | undefined, tokenJson: string | undefined): RequestLine {
  const edits: Array<[number, number, string]> = [[spans.idStart, spans.idEnd, idJson]];
  if (nameJson !== undefined && spans.nameStart !== -1) edits.push([spans.nameStart, spans.nameEnd, nameJson]);
  if (tokenJson !== undefined && spans.tokenStart !== -1) edits.push([spans.tokenStart, spans.tokenEnd, tokenJson]);
  edits.sort((a, b) => a[0] - b[0]);
  let bytes = Buffer.byteLength(text) + 1;
  for (const [start, end, replacement] of edits) bytes += Buffer.byteLength(replacement) - Buffer.byteLength(text.slice(start, end));
  return new RequestLine(text, edits, bytes);
}

/**
 * The request as the client wrote it with our id, the child's name and our progress token spliced
 * in, as an encoded line; undefined to serialize instead (small, not from one text, or not safely
 * spliceable). A request built from a scan (RAW_SPANS) always splices.
 */
export function splicedRequestLine(request: JsonRpcRequest & RawCarrier, upstreamId: number, tokenRewritten: boolean): RequestLine | undefined {
  const text = request[RAW_TEXT];
  if (text === undefined || !SPLICEABLE.has(request.method)) return undefined;
  const spans = request[RAW_SPANS] ?? findRequestSpans(text);
  if (spans === undefined || (tokenRewritten && spans.tokenStart === -1)) return undefined;
  const name = request.params?.name;
  const id = String(upstreamId);
  return spliceRequestLine(text, spans, id, typeof name === 'string' ? JSON.stringify(name) : undefined, tokenRewritten ? id : undefined);
}

/**
 * A request kept as text to splice, made whole so its params can be edited (the stateless envelope,
 * trace context): parsed once, with what routing changed (the tool's or prompt's name, `_meta`) laid
 * over the client's text. It goes out serialized from then on. A request never kept as text is left as it is.
 */
export function spliceNoMore(request: JsonRpcRequest & RawCarrier): void {
  const raw = request[RAW_TEXT];
  if (raw === undefined) return;
  const whole = JSON.parse(raw) as { params?: unknown };
  const full: JsonObject = isObject(whole.params) ? whole.params : {};
  const routed = request.params ?? {};
  if (routed.name !== undefined) full.name = routed.name;
  if (isObject(routed._meta)) full._meta = { ...(isObject(full._meta) ? full._meta : {}), ...routed._meta };
  request.params = full;
  delete request[RAW_TEXT];
  delete request[RAW_SPANS];
}
