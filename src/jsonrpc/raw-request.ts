// Forwarding a large client request as the client's own text with only the routed fields replaced.
//
// A tools/call carrying 64 KiB of arguments costs ~90 µs and a 64 KiB string to JSON.stringify again,
// though the proxy changes three small values in it: the id, the tool or prompt name and the progress
// token. Splicing those into the text the client sent skips the serialization and its garbage.

import { scanMessage } from './message-scan.js';

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
 * (name, uri, task, _meta.progressToken). The arguments stay in the text, which is what the child
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
  if (spans.metaStart !== -1) params._meta = spans.tokenStart === -1 ? {} : { progressToken: valueAt(text, spans.tokenStart, spans.tokenEnd) };
  const request: Record<string, unknown> & RawCarrier = { id: valueAt(text, spans.idStart, spans.idEnd), method, params };
  if (spans.jsonrpcStart !== -1) request.jsonrpc = valueAt(text, spans.jsonrpcStart, spans.jsonrpcEnd);
  request[RAW_TEXT] = text;
  request[RAW_SPANS] = {
    idStart: spans.idStart,
    idEnd: spans.idEnd,
    nameStart: spans.nameStart,
    nameEnd: spans.nameEnd,
    tokenStart: spans.tokenStart,
    tokenEnd: spans.tokenEnd,
  };
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

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;

/** Thrown inside the scanner for text it will not handle; the caller then serializes instead. */
class Unsupported extends Error {}
const UNSUPPORTED = new Unsupported();

/**
 * Finds the spans of `id`, `params.name` and `params._meta.progressToken` in `text`, which must be
 * the exact text the request was parsed from (so it is valid JSON). Undefined when splicing would
 * not be faithful: a line break in the text (it must go out as one NDJSON line), a member that
 * occurs twice (JSON.parse keeps the last one; a splice must not pick the other).
 */
export function findRequestSpans(text: string): RequestSpans | undefined {
  if (text.indexOf('\n') !== -1 || text.indexOf('\r') !== -1) return undefined;
  const spans: RequestSpans = { idStart: -1, idEnd: -1, nameStart: -1, nameEnd: -1, tokenStart: -1, tokenEnd: -1 };
  try {
    const scanner = new Scanner(text);
    scanner.object(LEVEL_TOP, spans);
  } catch (error) {
    if (error === UNSUPPORTED) return undefined;
    throw error;
  }
  return spans.idStart === -1 ? undefined : spans;
}

/** Which object the scanner is in: the members it records differ per level. */
const LEVEL_TOP = 0;
const LEVEL_PARAMS = 1;
const LEVEL_META = 2;

class Scanner {
  private at = 0;
  /** `params` and `_meta` entered already: a second one (JSON.parse keeps the last) is not spliced. */
  private entered = 0;

  constructor(private readonly text: string) {}

  object(level: number, spans: RequestSpans): void {
    this.skipSpace();
    if (this.text.charCodeAt(this.at) !== OPEN_BRACE) throw UNSUPPORTED;
    this.at += 1;
    this.skipSpace();
    if (this.text.charCodeAt(this.at) === CLOSE_BRACE) {
      this.at += 1;
      return;
    }
    for (;;) {
      this.skipSpace();
      const keyStart = this.at;
      this.string();
      const key = this.text.slice(keyStart + 1, this.at - 1);
      // An escaped key may decode to one of ours (`"i\u0064"`): too rare to decode, so not spliced.
      if (key.indexOf('\\') !== -1) throw UNSUPPORTED;
      this.skipSpace();
      if (this.text.charCodeAt(this.at) !== COLON) throw UNSUPPORTED;
      this.at += 1;
      this.skipSpace();
      const valueStart = this.at;
      if (level === LEVEL_TOP && key === 'params' && this.text.charCodeAt(this.at) === OPEN_BRACE) {
        this.enter(1);
        this.object(LEVEL_PARAMS, spans);
      } else if (level === LEVEL_PARAMS && key === '_meta' && this.text.charCodeAt(this.at) === OPEN_BRACE) {
        this.enter(2);
        this.object(LEVEL_META, spans);
      } else {
        this.value();
        if (level === LEVEL_TOP && key === 'id') {
          spans.idStart = firstOnly(spans.idStart, valueStart);
          spans.idEnd = this.at;
        } else if (level === LEVEL_PARAMS && key === 'name') {
          spans.nameStart = firstOnly(spans.nameStart, valueStart);
          spans.nameEnd = this.at;
        } else if (level === LEVEL_META && key === 'progressToken') {
          spans.tokenStart = firstOnly(spans.tokenStart, valueStart);
          spans.tokenEnd = this.at;
        }
      }
      this.skipSpace();
      const next = this.text.charCodeAt(this.at);
      this.at += 1;
      if (next === CLOSE_BRACE) return;
      if (next !== COMMA) throw UNSUPPORTED;
    }
  }

  private enter(bit: number): void {
    if ((this.entered & bit) !== 0) throw UNSUPPORTED;
    this.entered |= bit;
  }

  private value(): void {
    const c = this.text.charCodeAt(this.at);
    if (c === QUOTE) this.string();
    else if (c === OPEN_BRACE || c === OPEN_BRACKET) this.nested();
    else this.scalar();
  }

  /** Skips an object or array without looking at keys: brackets only count outside strings. */
  private nested(): void {
    let depth = 0;
    const text = this.text;
    for (;;) {
      const c = text.charCodeAt(this.at);
      if (c === QUOTE) {
        this.string();
        continue;
      }
      this.at += 1;
      if (c === OPEN_BRACE || c === OPEN_BRACKET) depth += 1;
      else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
        depth -= 1;
        if (depth === 0) return;
      } else if (Number.isNaN(c)) throw UNSUPPORTED;
    }
  }

  /** Skips a string with the native search for the closing quote; long strings cost one scan. */
  private string(): void {
    const text = this.text;
    if (text.charCodeAt(this.at) !== QUOTE) throw UNSUPPORTED;
    let from = this.at + 1;
    for (;;) {
      const quote = text.indexOf('"', from);
      if (quote === -1) throw UNSUPPORTED;
      let backslashes = 0;
      while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes += 1;
      if (backslashes % 2 === 0) {
        this.at = quote + 1;
        return;
      }
      from = quote + 1;
    }
  }

  /** Numbers, true, false, null: everything up to the next delimiter. */
  private scalar(): void {
    const text = this.text;
    const start = this.at;
    for (;;) {
      const c = text.charCodeAt(this.at);
      if (c === COMMA || c === CLOSE_BRACE || c === CLOSE_BRACKET || c <= 0x20 || Number.isNaN(c)) break;
      this.at += 1;
    }
    if (this.at === start) throw UNSUPPORTED;
  }

  private skipSpace(): void {
    const text = this.text;
    for (;;) {
      const c = text.charCodeAt(this.at);
      if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return;
      this.at += 1;
    }
  }
}

/** A member seen twice makes the splice ambiguous. */
function firstOnly(previous: number, start: number): number {
  if (previous !== -1) throw UNSUPPORTED;
  return start;
}

/**
 * The request as one NDJSON line (newline included): the text with its id, name and progress token
 * replaced by the given JSON texts (a replacement is skipped when its span is absent). Its length
 * is known before it is encoded, so the bytes can go straight into a buffer the writer reuses; V8
 * keeps slices of a flat string as views, so no joined copy of the text is ever made.
 */
export class SplicedLine {
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

export function spliceRequestLine(text: string, spans: RequestSpans, idJson: string, nameJson: string | undefined, tokenJson: string | undefined): SplicedLine {
  const edits: Array<[number, number, string]> = [[spans.idStart, spans.idEnd, idJson]];
  if (nameJson !== undefined && spans.nameStart !== -1) edits.push([spans.nameStart, spans.nameEnd, nameJson]);
  if (tokenJson !== undefined && spans.tokenStart !== -1) edits.push([spans.tokenStart, spans.tokenEnd, tokenJson]);
  edits.sort((a, b) => a[0] - b[0]);
  let bytes = Buffer.byteLength(text) + 1;
  for (const [start, end, replacement] of edits) bytes += Buffer.byteLength(replacement) - Buffer.byteLength(text.slice(start, end));
  return new SplicedLine(text, edits, bytes);
}
