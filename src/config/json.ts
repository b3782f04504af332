// JSON parsing whose syntax errors carry line:column. V8's JSON.parse messages sometimes omit the
// position and sometimes quote the source text (which may hold a token), so on failure we re-scan
// the text ourselves to locate and describe the first error.

export interface JsonSyntaxError {
  readonly line: number;
  readonly column: number;
  readonly problem: string;
}

export type JsonParse = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: JsonSyntaxError };

export function parseJson(text: string): JsonParse {
  // Editors on Windows save a BOM; JSON.parse rejects it though the file is otherwise fine.
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    return { ok: true, value: JSON.parse(body) as unknown };
  } catch {
    const { offset, problem } = locate(body);
    return { ok: false, error: { ...lineColumn(body, offset), problem } };
  }
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
    if (text[i] === '/' && (text[i + 1] === '/' || text[i + 1] === '*')) throw new Fail(i, 'comments are not allowed in JSON');
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
