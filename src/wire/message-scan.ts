// A validating scan of one JSON-RPC message's text that records where the members the proxy routes
// by are, without building the message. Large calls and results are forwarded as text (ids spliced),
// so parsing them would only copy their payload onto the heap for the garbage collector.
//
// The scan is sound, not complete: whatever it accepts, JSON.parse accepts with the same values at
// the recorded spans; anything unusual (a control character, even as whitespace; an escaped or
// repeated member name where we route) is refused, and the caller parses as before.

/** Spans are [start, end) offsets into the text; -1 when the member is absent. */
export class MessageSpans {
  jsonrpcStart = -1;
  jsonrpcEnd = -1;
  idStart = -1;
  idEnd = -1;
  methodStart = -1;
  methodEnd = -1;
  paramsStart = -1;
  resultStart = -1;
  errorStart = -1;
  /** `params.name` */
  nameStart = -1;
  nameEnd = -1;
  /** `params.uri` */
  uriStart = -1;
  uriEnd = -1;
  /** `params.task` */
  taskStart = -1;
  taskEnd = -1;
  /** `params._meta`, the whole object */
  metaStart = -1;
  metaEnd = -1;
  /** `params._meta.progressToken` */
  tokenStart = -1;
  tokenEnd = -1;
  /** `result.isError` */
  isErrorStart = -1;
  isErrorEnd = -1;
}

/** The objects whose members are recorded; everything else is validated and skipped. */
const TOP = 0;
const PARAMS = 1;
const META = 2;
const RESULT = 3;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;
const SPACE = 0x20;
const MINUS = 0x2d;
const PLUS = 0x2b;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;

/**
 * Any control character: raw ones are invalid inside JSON strings, and tab, CR and LF between
 * tokens are rare enough in large messages to leave to JSON.parse. One native pass, no allocation.
 */
const CONTROL_FREE = /^[^\u0000-\u001f]*$/;

/** Thrown inside the scan; the message is then handled by JSON.parse. */
class Refused extends Error {}
const REFUSED = new Refused();

function isDigit(c: number): boolean {
  return c >= ZERO && c <= NINE;
}

function isHex(c: number): boolean {
  return (c >= ZERO && c <= NINE) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}

/** `"`, `\`, `/`, b, f, n, r, t: the single-character escapes JSON allows. */
function isShortEscape(c: number): boolean {
  return c === QUOTE || c === BACKSLASH || c === 0x2f || c === 0x62 || c === 0x66 || c === 0x6e || c === 0x72 || c === 0x74;
}

/** Scans `text` as one JSON object; the spans of the routed members, or undefined when refused. */
export function scanMessage(text: string): MessageSpans | undefined {
  if (!CONTROL_FREE.test(text)) return undefined;
  const spans = new MessageSpans();
  try {
    const scanner = new Scanner(text, spans);
    scanner.skipSpace();
    if (text.charCodeAt(scanner.at) !== OPEN_BRACE) return undefined;
    scanner.object(TOP);
    scanner.skipSpace();
    if (scanner.at !== text.length) return undefined;
  } catch (error) {
    if (error === REFUSED) return undefined;
    throw error;
  }
  return spans;
}

class Scanner {
  at = 0;
  /** Where the last member name scanned ended (its closing quote). */
  keyEnd = 0;
  /** The next backslash at or after the last string position searched from; -1 when none is left. */
  private backslash: number;

  constructor(
    private readonly text: string,
    private readonly spans: MessageSpans,
  ) {
    this.backslash = text.indexOf('\\');
  }

  skipSpace(): void {
    while (this.text.charCodeAt(this.at) === SPACE) this.at += 1;
  }

  /** An object whose members are recorded (the message, its params, _meta or result). */
  object(level: number): void {
    const text = this.text;
    this.at += 1;
    this.skipSpace();
    if (text.charCodeAt(this.at) === CLOSE_BRACE) {
      this.at += 1;
      return;
    }
    for (;;) {
      this.skipSpace();
      const keyStart = this.at + 1;
      // An escaped name may decode to one we route by (`"i\u0064"`): rare enough not to decode.
      if (this.key()) throw REFUSED;
      this.member(level, keyStart, this.keyEnd);
      this.skipSpace();
      const next = text.charCodeAt(this.at);
      this.at += 1;
      if (next === CLOSE_BRACE) return;
      if (next !== COMMA) throw REFUSED;
    }
  }

  /** A member of a tracked object: its value is scanned, and its span kept when it is one we route by. */
  private member(level: number, keyStart: number, keyEnd: number): void {
    const text = this.text;
    const key = text.slice(keyStart, keyEnd);
    const spans = this.spans;
    const start = this.at;
    const c = text.charCodeAt(start);
    if (level === TOP && key === 'params') {
      if (c !== OPEN_BRACE || spans.paramsStart !== -1) throw REFUSED;
      spans.paramsStart = start;
      this.object(PARAMS);
      return;
    }
    if (level === TOP && key === 'result' && c === OPEN_BRACE) {
      if (spans.resultStart !== -1) throw REFUSED;
      spans.resultStart = start;
      this.object(RESULT);
      return;
    }
    if (level === PARAMS && key === '_meta') {
      if (c !== OPEN_BRACE || spans.metaStart !== -1) throw REFUSED;
      spans.metaStart = start;
      this.object(META);
      spans.metaEnd = this.at;
      return;
    }
    this.value();
    const end = this.at;
    if (level === TOP) {
      if (key === 'jsonrpc') [spans.jsonrpcStart, spans.jsonrpcEnd] = once(spans.jsonrpcStart, start, end);
      else if (key === 'id') [spans.idStart, spans.idEnd] = once(spans.idStart, start, end);
      else if (key === 'method') [spans.methodStart, spans.methodEnd] = once(spans.methodStart, start, end);
      else if (key === 'result') spans.resultStart = once(spans.resultStart, start, end)[0];
      else if (key === 'error') spans.errorStart = once(spans.errorStart, start, end)[0];
    } else if (level === PARAMS) {
      if (key === 'name') [spans.nameStart, spans.nameEnd] = once(spans.nameStart, start, end);
      else if (key === 'uri') [spans.uriStart, spans.uriEnd] = once(spans.uriStart, start, end);
      else if (key === 'task') [spans.taskStart, spans.taskEnd] = once(spans.taskStart, start, end);
    } else if (level === META) {
      if (key === 'progressToken') [spans.tokenStart, spans.tokenEnd] = once(spans.tokenStart, start, end);
    } else if (key === 'isError') {
      [spans.isErrorStart, spans.isErrorEnd] = once(spans.isErrorStart, start, end);
    }
  }

  private value(): void {
    const c = this.text.charCodeAt(this.at);
    if (c === OPEN_BRACE || c === OPEN_BRACKET) this.nested();
    else this.scalar();
  }

  private scalar(): void {
    const c = this.text.charCodeAt(this.at);
    if (c === QUOTE) this.string();
    else if (c === MINUS || isDigit(c)) this.number();
    else this.literal();
  }

  /**
   * An object or array nothing is recorded in, at any depth: a stack of the brackets still open
   * instead of recursion, so a hostile 20,000-deep value cannot overflow the call stack.
   */
  private nested(): void {
    const text = this.text;
    const open: number[] = [];
    for (;;) {
      // At the start of a value.
      const c = text.charCodeAt(this.at);
      if (c === OPEN_BRACE || c === OPEN_BRACKET) {
        const close = c === OPEN_BRACE ? CLOSE_BRACE : CLOSE_BRACKET;
        this.at += 1;
        this.skipSpace();
        if (text.charCodeAt(this.at) !== close) {
          open.push(close);
          if (close === CLOSE_BRACE) this.key();
          continue;
        }
        this.at += 1;
      } else {
        this.scalar();
      }
      // After a value: close what ends here, then move on to the next element or member.
      for (;;) {
        if (open.length === 0) return;
        this.skipSpace();
        const close = open[open.length - 1];
        const next = text.charCodeAt(this.at);
        this.at += 1;
        if (next === close) {
          open.pop();
          continue;
        }
        if (next !== COMMA) throw REFUSED;
        this.skipSpace();
        if (close === CLOSE_BRACE) this.key();
        break;
      }
    }
  }

  /**
   * A member name and its colon, leaving the scan at the value; `keyEnd` is where the name ended.
   * True when the name has escapes.
   */
  private key(): boolean {
    const text = this.text;
    if (text.charCodeAt(this.at) !== QUOTE) throw REFUSED;
    const escaped = this.string();
    this.keyEnd = this.at - 1;
    this.skipSpace();
    if (text.charCodeAt(this.at) !== COLON) throw REFUSED;
    this.at += 1;
    this.skipSpace();
    return escaped;
  }

  /**
   * A string from its opening quote. The closing quote and the escapes are found with native
   * searches, so a 64 KiB string costs two scans; the control characters were ruled out up front.
   * True when the string has escapes.
   */
  private string(): boolean {
    const text = this.text;
    const opening = this.at;
    let from = opening + 1;
    for (;;) {
      const quote = text.indexOf('"', from);
      if (quote === -1) throw REFUSED;
      if (this.backslash !== -1 && this.backslash < from) this.backslash = text.indexOf('\\', from);
      const escape = this.backslash;
      if (escape === -1 || escape > quote) {
        this.at = quote + 1;
        return from !== opening + 1;
      }
      const kind = text.charCodeAt(escape + 1);
      if (kind === 0x75 /* u */) {
        if (!isHex(text.charCodeAt(escape + 2)) || !isHex(text.charCodeAt(escape + 3)) || !isHex(text.charCodeAt(escape + 4)) || !isHex(text.charCodeAt(escape + 5))) {
          throw REFUSED;
        }
        from = escape + 6;
      } else if (isShortEscape(kind)) {
        from = escape + 2;
      } else {
        throw REFUSED;
      }
    }
  }

  private number(): void {
    const text = this.text;
    let at = this.at;
    if (text.charCodeAt(at) === MINUS) at += 1;
    const first = text.charCodeAt(at);
    if (first === ZERO) at += 1;
    else if (isDigit(first)) while (isDigit(text.charCodeAt(at))) at += 1;
    else throw REFUSED;
    if (text.charCodeAt(at) === DOT) {
      at += 1;
      if (!isDigit(text.charCodeAt(at))) throw REFUSED;
      while (isDigit(text.charCodeAt(at))) at += 1;
    }
    const e = text.charCodeAt(at);
    if (e === 0x65 || e === 0x45) {
      at += 1;
      const sign = text.charCodeAt(at);
      if (sign === PLUS || sign === MINUS) at += 1;
      if (!isDigit(text.charCodeAt(at))) throw REFUSED;
      while (isDigit(text.charCodeAt(at))) at += 1;
    }
    this.at = at;
  }

  private literal(): void {
    const text = this.text;
    for (const word of LITERALS) {
      if (text.startsWith(word, this.at)) {
        this.at += word.length;
        return;
      }
    }
    throw REFUSED;
  }
}

const LITERALS = ['true', 'false', 'null'] as const;

/** A routed member's span, unless it was seen before: JSON.parse keeps the last, a splice could pick the other. */
function once(previous: number, start: number, end: number): [number, number] {
  if (previous !== -1) throw REFUSED;
  return [start, end];
}
