// JSON parsing whose syntax errors carry line:column. V8's JSON.parse messages sometimes omit the
// position and sometimes quote the source text (which may hold a token), so on failure we re-scan
// the text ourselves to locate and describe the first error. Comments (`//` and `/* */`, as in
// VS Code's and Zed's settings) are accepted: they are blanked to spaces first, so every offset,
// and so every reported position, stays that of the file. Trailing commas are still refused.

export interface JsonSyntaxError {
  readonly line: number;
  readonly column: number;
  readonly problem: string;
}

export type JsonParse = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: JsonSyntaxError };

export function parseJson(text: string): JsonParse {
  // Editors on Windows save a BOM; JSON.parse rejects it though the file is otherwise fine.
  const bom = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const blanked = blankComments(bom);
  if (typeof blanked !== 'string') return { ok: false, error: { ...lineColumn(bom, blanked.offset), problem: blanked.problem } };
  const body = blanked;
  try {
    return { ok: true, value: JSON.parse(body) as unknown };
  } catch {
    const { offset, problem } = locate(body);
    return { ok: false, error: { ...lineColumn(body, offset), problem } };
  }
}

/**
 * The text with each comment replaced by spaces (line breaks inside a block comment kept), or where
 * a block comment is left open. Strings are skipped whole, so `"http://x"` is no comment.
 */
export function blankComments(text: string): string | { readonly offset: number; readonly problem: string } {
  // Most configs have no comment at all: one indexOf, no copy.
  if (!text.includes('/')) return text;
  let out = '';
  let from = 0;
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '"') {
      i++;
      while (i < text.length && text[i] !== '"' && text[i] !== '\n') i += text[i] === '\\' ? 2 : 1;
      i++;
      continue;
    }
    if (c !== '/' || (text[i + 1] !== '/' && text[i + 1] !== '*')) {
      i++;
      continue;
    }
    let end: number;
    if (text[i + 1] === '/') {
      const newline = text.indexOf('\n', i);
      end = newline === -1 ? text.length : newline;
    } else {
      const close = text.indexOf('*/', i + 2);
      if (close === -1) return { offset: i, problem: "unterminated comment: '/*' without '*/'" };
      end = close + 2;
    }
    out += text.slice(from, i) + text.slice(i, end).replace(/[^\r\n]/g, ' ');
    from = end;
    i = end;
  }
  return from === 0 ? text : out + text.slice(from);
}

function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text[i] === '\n') {
      line++;
      start = i + 1;
    }
  }
  return { line, column: offset - start + 1 };
}

class Fail {
  constructor(
    readonly offset: number,
    readonly problem: string,
  ) {}
}

function locate(text: string): { offset: number; problem: string } {
  let i = 0;
  const fail = (problem: string): never => {
    throw new Fail(i, problem);
  };
  const found = (): string => (i >= text.length ? 'end of input' : JSON.stringify(text[i]));
  const ws = (): void => {
    while (i < text.length && ' \t\n\r'.includes(text[i] ?? '')) i++;
  };
  const literal = (word: string): void => {
    if (text.startsWith(word, i)) i += word.length;
    else fail(`unexpected ${found()}`);
  };
  const string = (): void => {
    i++;
    for (;;) {
      const c = text[i];
      if (c === undefined) fail('unterminated string');
      else if (c === '"') return void i++;
      else if (c === '\\') {
        i++;
        const e = text[i] ?? '';
        if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) i += 5;
        else if (e !== '' && '"\\/bfnrt'.includes(e)) i++;
        else fail('invalid escape in string');
      } else if (c < ' ') fail('control character (e.g. a raw newline) in string');
      else i++;
    }
  };
  const number = (): void => {
    const m = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(text.slice(i));
    if (m === null) fail(`unexpected ${found()}`);
    else i += m[0].length;
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') return void i++;
      for (;;) {
        ws();
        if (text[i] === '}') fail("trailing comma before '}'");
        if (text[i] !== '"') fail(`expected a double-quoted property name, found ${found()}`);
        string();
        ws();
        if (text[i] !== ':') fail(`expected ':' after property name, found ${found()}`);
        i++;
        value();
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === '}') return void i++;
        else fail(`expected ',' or '}', found ${found()}`);
      }
    } else if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') return void i++;
      for (;;) {
        value();
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === ']') return void i++;
        else fail(`expected ',' or ']', found ${found()}`);
      }
    } else if (c === '"') string();
    else if (c === 't') literal('true');
    else if (c === 'f') literal('false');
    else if (c === 'n') literal('null');
    else if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) number();
    else fail(text.trim() === '' ? 'file is empty' : `unexpected ${found()}`);
  };
  try {
    value();
    ws();
    if (i < text.length) fail(`unexpected ${found()} after the JSON value`);
  } catch (e) {
    if (e instanceof Fail) return { offset: e.offset, problem: e.problem };
    if (!(e instanceof RangeError)) throw e;
    // Nesting deep enough to overflow this recursive scanner: fall through to the positionless report.
  }
  // JSON.parse rejected what this scanner accepts: report without a position rather than guess.
  return { offset: 0, problem: 'not valid JSON' };
}
