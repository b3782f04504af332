import { describe, expect, it } from 'vitest';
import { scanMessage, type MessageSpans } from '../../../src/wire/message-scan.js';
import { prng } from '../../prng.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** What JSON.parse finds at each recorded member, to compare with the text at the span. */
function parsedAt(value: Record<string, Json>): Record<string, unknown> {
  const params = value.params as Record<string, Json> | undefined;
  const meta = params?._meta as Record<string, Json> | undefined;
  const result = value.result as Record<string, Json> | undefined;
  return {
    jsonrpc: value.jsonrpc,
    id: value.id,
    method: value.method,
    name: params?.name,
    uri: params?.uri,
    task: params?.task,
    progressToken: meta?.progressToken,
    isError: typeof result === 'object' && result !== null && !Array.isArray(result) ? result.isError : undefined,
  };
}

function spannedAt(text: string, spans: MessageSpans): Record<string, unknown> {
  const at = (start: number, end: number): unknown => (start === -1 ? undefined : JSON.parse(text.slice(start, end)));
  return {
    jsonrpc: at(spans.jsonrpcStart, spans.jsonrpcEnd),
    id: at(spans.idStart, spans.idEnd),
    method: at(spans.methodStart, spans.methodEnd),
    name: at(spans.nameStart, spans.nameEnd),
    uri: at(spans.uriStart, spans.uriEnd),
    task: at(spans.taskStart, spans.taskEnd),
    progressToken: at(spans.tokenStart, spans.tokenEnd),
    isError: at(spans.isErrorStart, spans.isErrorEnd),
  };
}

/** The soundness property: accepted text is valid JSON, and every span holds what JSON.parse found there. */
function checkSound(text: string): boolean {
  const spans = scanMessage(text);
  if (spans === undefined) return false;
  const parsed = JSON.parse(text) as Record<string, Json>;
  expect(typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)).toBe(true);
  expect(spannedAt(text, spans)).toEqual(parsedAt(parsed));
  return true;
}

const TRICKY_STRINGS = ['', 'a', 'id', '"', '\\', '\\"', '}]', '{"id":1}', '\u2028', 'é', '😀', '\u0000', '\t', 'x\ny', '\ud800'];

function generator(seed: number) {
  const random = prng(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const str = (): string => (random() < 0.5 ? pick(TRICKY_STRINGS) : random().toString(36).slice(2, 2 + Math.floor(random() * 10)));
  const num = (): number => pick([0, -0, 1, -1, 42, 1.5, -2.25e-7, 1e21, 123456789012, Number.MAX_SAFE_INTEGER]);
  const value = (depth: number): Json => {
    const r = random();
    if (depth > 3 || r < 0.3) return pick<Json>([null, true, false, num(), str()]);
    if (r < 0.55) return Array.from({ length: Math.floor(random() * 4) }, () => value(depth + 1));
    const out: Record<string, Json> = {};
    for (let i = Math.floor(random() * 4); i > 0; i -= 1) out[pick(['id', 'name', 'text', 'isError', '_meta', 'a', str()])] = value(depth + 1);
    return out;
  };
  const message = (): Record<string, Json> => {
    const out: Record<string, Json> = { jsonrpc: pick(['2.0', '1.0']) };
    if (random() < 0.9) out.id = pick<Json>([1, 0, 77, 'abc', 'q"\\', null, 1.5]);
    if (random() < 0.6) {
      out.method = pick(['tools/call', 'prompts/get', 'resources/read', 'ping']);
      const params: Record<string, Json> = { arguments: value(1) };
      if (random() < 0.7) params.name = str();
      if (random() < 0.3) params.uri = str();
      if (random() < 0.2) params.task = { ttl: num() };
      if (random() < 0.5) params._meta = random() < 0.7 ? { progressToken: pick<Json>([1, 'tok', str()]), other: value(2) } : {};
      out.params = params;
    } else {
      out.result = random() < 0.8 ? { content: [{ type: 'text', text: str() }], isError: pick<Json>([true, false, 'yes', null]) } : (value(1) as Json);
    }
    return out;
  };
  /** A random edit: what the scanner must refuse whenever JSON.parse does. */
  const mutate = (text: string): string => {
    const at = Math.floor(random() * (text.length + 1));
    const piece = pick(['"', '\\', '{', '}', '[', ']', ',', ':', ' ', '0', '-', '.', 'e', 'u', 'tru', '\\u12', '\\x', '\n', '\t', '\u0001', '"id":2,']);
    switch (Math.floor(random() * 3)) {
      case 0:
        return text.slice(0, at) + piece + text.slice(at);
      case 1:
        return text.slice(0, at) + text.slice(at + 1 + Math.floor(random() * 3));
      default:
        return text.slice(0, at) + piece + text.slice(at + 1);
    }
  };
  return { message, mutate, random };
}

describe('scanning a message without parsing it', () => {
  it('accepts what JSON.stringify writes and finds each routed member where JSON.parse does', () => {
    const { message, random } = generator(1);
    let accepted = 0;
    for (let i = 0; i < 3000; i += 1) {
      const value = message();
      const text = random() < 0.5 ? JSON.stringify(value) : JSON.stringify(value, null, 1).replace(/\n/g, ' ');
      if (checkSound(text)) accepted += 1;
    }
    // Refusals are only the strings holding control characters.
    expect(accepted).toBeGreaterThan(2000);
  });

  it('never accepts text JSON.parse rejects, and stays sound on what it accepts (random edits)', () => {
    const { message, mutate } = generator(2);
    let rejectedByParse = 0;
    for (let i = 0; i < 6000; i += 1) {
      let text = JSON.stringify(message());
      for (let edits = 1 + (i % 3); edits > 0; edits -= 1) text = mutate(text);
      let valid = true;
      try {
        JSON.parse(text);
      } catch {
        valid = false;
      }
      if (!valid) {
        rejectedByParse += 1;
        expect(scanMessage(text), text).toBeUndefined();
      } else if (typeof JSON.parse(text) === 'object' && JSON.parse(text) !== null && !Array.isArray(JSON.parse(text))) {
        try {
          checkSound(text);
        } catch (error) {
          throw new Error(`unsound on ${JSON.stringify(text)}: ${String(error)}`);
        }
      }
    }
    expect(rejectedByParse).toBeGreaterThan(1000);
  });

  it('refuses malformed scalars, escapes and structure', () => {
    const bad = [
      '{"id":01}', '{"id":1.}', '{"id":.5}', '{"id":+1}', '{"id":-}', '{"id":1e}', '{"id":1e+}', '{"id":0x1}',
      '{"a":"\\x"}', '{"a":"\\u12G4"}', '{"a":"\\u123"}', '{"a":"abc}', '{"a":tru}', '{"a":nul}', '{"a":True}',
      '{"a":1,}', '{"a":[1,]}', '{,"a":1}', '{"a" 1}', '{"a":1}x', '{"a":1}{}', '[1]', '"s"', '', '{', '{"a":[}',
      '{"a":undefined}', "{'a':1}", '{a:1}', '{"a":"\u0001"}', '{"a":NaN}',
    ];
    for (const text of bad) expect(scanMessage(text), text).toBeUndefined();
  });

  it('refuses what it could not splice faithfully: repeated or escaped routed names, control whitespace', () => {
    expect(scanMessage('{"id":1,"id":2}')).toBeUndefined();
    expect(scanMessage('{"params":{"name":"a","name":"b"}}')).toBeUndefined();
    expect(scanMessage('{"params":{"_meta":{"progressToken":1,"progressToken":2}}}')).toBeUndefined();
    expect(scanMessage('{"params":{},"params":{}}')).toBeUndefined();
    expect(scanMessage('{"i\\u0064":1}')).toBeUndefined();
    expect(scanMessage('{"id":1,\n"method":"m"}')).toBeUndefined();
    expect(scanMessage('{"params":5}')).toBeUndefined();

    // Untracked objects may repeat names: the receiver reads the same text the client wrote.
    expect(scanMessage('{"id":1,"params":{"arguments":{"x":1,"x":2}}}')?.idStart).toBe(6);
    // An escaped name in an untracked object is fine, and an escaped value anywhere.
    expect(scanMessage('{"id":"\\u0041","params":{"arguments":{"\\u0069d":1}}}')).toBeDefined();
  });

  it('scans values nested 20,000 deep without recursion, and still refuses them malformed', () => {
    const deep = `${'[{"k":'.repeat(20_000)}1${'}]'.repeat(20_000)}`;
    expect(checkSound(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"n","arguments":{"d":${deep}}}}`)).toBe(true);
    expect(scanMessage(`{"id":1,"params":{"arguments":${deep.slice(0, -1)}}}`)).toBeUndefined();
    expect(scanMessage(`{"id":1,"params":{"arguments":${deep.replace('1}', '1,}')}}}`)).toBeUndefined();
    expect(scanMessage(`{"id":1,"params":{"arguments":${deep.replace('{"k":1', '{"k"1')}}}`)).toBeUndefined();
  });

  it('scans a 64 KiB string full of escapes in one pass', () => {
    const payload = '\\"{['.repeat(16_000) + '\\\\';
    const text = `{"jsonrpc":"2.0","id":"k","method":"tools/call","params":{"arguments":{"text":"${payload}"},"name":"echo__echo"}}`;
    expect(checkSound(text)).toBe(true);
  });
});
