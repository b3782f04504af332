import { describe, expect, it } from 'vitest';
import { RAW_SPANS, RAW_TEXT, findRequestSpans, routedRequest, spliceRequestLine, type RequestSpans } from '../../../src/wire/request-splice.js';

/** What the proxy would send: the parsed request with the three fields rewritten, for comparison. */
function viaObject(text: string, id: number, name: string | undefined, token: number | undefined): unknown {
  const value = JSON.parse(text) as { id: unknown; params?: { name?: unknown; _meta?: { progressToken?: unknown } } };
  value.id = id;
  if (name !== undefined && value.params !== undefined && 'name' in value.params) value.params.name = name;
  if (token !== undefined && value.params?._meta !== undefined) value.params._meta.progressToken = token;
  return value;
}

function spliced(text: string, id: number, name: string | undefined, token: number | undefined, spans: RequestSpans | undefined = findRequestSpans(text)): unknown {
  if (spans === undefined) throw new Error('not spliceable');
  const line = spliceRequestLine(text, spans, String(id), name === undefined ? undefined : JSON.stringify(name), token === undefined ? undefined : String(token));
  // Into a larger, dirty buffer, as a reused one would be: only the first `bytes` are the line.
  const target = Buffer.alloc(line.bytes + 64, 0x7b);
  line.writeTo(target);
  const decoded = target.subarray(0, line.bytes).toString();
  expect(decoded.endsWith('\n') && decoded.indexOf('\n') === decoded.length - 1).toBe(true);
  return JSON.parse(decoded);
}

describe('splicing the routed fields into a request text', () => {
  it('replaces id, name and progress token wherever the members sit, in any order and spacing', () => {
    const texts = [
      '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"fs__read","arguments":{"path":"/x"},"_meta":{"progressToken":"p1"}}}',
      '{ "params" : { "_meta" : { "progressToken" : 3 } , "arguments" : { "id" : 99, "name" : "inner" } , "name" : "fs__read" } , "method" : "tools/call" , "id" : "abc" , "jsonrpc" : "2.0" }',
      ' {"method":"tools/call","jsonrpc":"2.0","params":{"name":"a\\"b\\\\","arguments":{"s":"}]{[\\"\\\\"}},"id":-1.5e3}',
    ];
    for (const text of texts) {
      expect(spliced(text, 42, 'read', 42)).toEqual(viaObject(text, 42, 'read', 42));
    }
  });

  it('leaves nested members named id, name or progressToken alone', () => {
    const text = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{"id":2,"name":"n","_meta":{"progressToken":5},"params":{"name":"x"}}}}';
    const out = spliced(text, 9, 'orig', undefined) as { params: { arguments: unknown } };
    expect(out).toEqual(viaObject(text, 9, 'orig', undefined));
    expect(out.params.arguments).toEqual({ id: 2, name: 'n', _meta: { progressToken: 5 }, params: { name: 'x' } });
  });

  it('handles long strings full of escaped quotes and brackets', () => {
    const payload = '\\"{['.repeat(20_000) + '\\\\';
    const text = `{"jsonrpc":"2.0","id":"k","method":"tools/call","params":{"arguments":{"text":"${payload}"},"name":"echo__echo"}}`;
    expect(spliced(text, 3, 'echo', undefined)).toEqual(viaObject(text, 3, 'echo', undefined));
  });

  it('refuses text it cannot splice faithfully', () => {
    // Line breaks would split the NDJSON line; duplicated members are resolved by JSON.parse as the last one.
    expect(findRequestSpans('{"jsonrpc":"2.0",\n"id":1,"method":"m"}')).toBeUndefined();
    // Any control character, even tab as whitespace: such text is rare and left to JSON.stringify.
    expect(findRequestSpans('\t{"jsonrpc":"2.0","id":1,"method":"m"}')).toBeUndefined();
    expect(findRequestSpans('{"jsonrpc":"2.0","id":1,"method":"m","id":2}')).toBeUndefined();
    expect(findRequestSpans('{"id":1,"params":{"name":"a"},"params":{"arguments":{}}}')).toBeUndefined();
    expect(findRequestSpans('{"id":1,"params":{"name":"a","name":"b"}}')).toBeUndefined();
    expect(findRequestSpans('{"id":1,"params":{"_meta":{"progressToken":1},"_meta":{}}}')).toBeUndefined();
    // An escaped key could decode to "id".
    expect(findRequestSpans('{"i\\u0064":1,"id":2}')).toBeUndefined();
    expect(findRequestSpans('{"method":"m"}')).toBeUndefined();
  });

  it('agrees with JSON.parse on random requests', () => {
    let seed = 12345;
    const random = (): number => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed / 0x7fffffff;
    };
    const pick = <T>(items: T[]): T => items[Math.floor(random() * items.length)] as T;
    const leaf = (): unknown => pick<() => unknown>([() => 'x"}]\\'.repeat(Math.floor(random() * 4)), () => random() * 1e6 - 5e5, () => null, () => true, () => []])();
    const value = (depth: number): unknown => {
      if (depth > 3 || random() < 0.4) return leaf();
      if (random() < 0.5) return Array.from({ length: Math.floor(random() * 4) }, () => value(depth + 1));
      const object: Record<string, unknown> = {};
      for (let i = 0; i < random() * 4; i++) object[pick(['id', 'name', 'params', '_meta', 'progressToken', 'k'])] = value(depth + 1);
      return object;
    };
    for (let i = 0; i < 500; i++) {
      const params: Record<string, unknown> = { name: 'srv__tool', arguments: value(0) };
      if (random() < 0.5) params._meta = { progressToken: pick(['t', 1]), other: value(2) };
      const request = { jsonrpc: '2.0', id: pick<string | number>(['a', 1, 0]), method: 'tools/call', params };
      const spacing = random() < 0.5 ? undefined : ' ';
      const text = JSON.stringify(request, null, spacing).replace(/\n/g, ' ');
      const token = params._meta === undefined ? undefined : 77;
      expect(spliced(text, 77, 'tool', token)).toEqual(viaObject(text, 77, 'tool', token));
    }
  });
});

describe('a large request built from a scan of its text', () => {
  const big = 'x'.repeat(2000);

  it('holds what the router reads, as JSON.parse would give it, and splices to what serializing the parsed request gives', () => {
    const texts = [
      `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"fs__réad","arguments":{"text":"${big}","name":"inner"},"_meta":{"progressToken":"p1","x":1}}}`,
      `{ "params" : { "task" : { "ttl" : 1000 } , "arguments" : { "t" : "${big}" } , "name" : "a\\"b" } , "method" : "prompts/get" , "id" : "abc" , "jsonrpc" : "2.0" }`,
      `{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"file:///日本/${big}","_meta":{}}}`,
      `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"a","arguments":{"t":"${big}"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"x":{"y":[1,2]}},"progressToken":9}}}`,
    ];
    for (const text of texts) {
      const request = routedRequest(text);
      expect(request).toBeDefined();
      const parsed = JSON.parse(text) as { id: unknown; method: unknown; params: Record<string, unknown> & { _meta?: Record<string, unknown> } };
      const params = request?.params as Record<string, unknown>;
      expect(request?.id).toEqual(parsed.id);
      expect(request?.method).toEqual(parsed.method);
      expect(params.name).toEqual(parsed.params.name);
      expect(params.uri).toEqual(parsed.params.uri);
      expect(params.task).toEqual(parsed.params.task);
      // The whole _meta, not only the progress token: a stateless-era request's version and capabilities ride there.
      expect(params._meta).toEqual(parsed.params._meta);
      expect(params.arguments).toBeUndefined();
      expect(request?.[RAW_TEXT]).toBe(text);
      const token = parsed.params._meta?.progressToken === undefined ? undefined : 5;
      const name = typeof parsed.params.name === 'string' ? 'orig' : undefined;
      expect(spliced(text, 5, name, token, request?.[RAW_SPANS])).toEqual(viaObject(text, 5, name, token));
    }
  });

  it('is not built for small, unroutable, other-method or refused text (those are parsed as before)', () => {
    expect(routedRequest('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a"}}')).toBeUndefined();
    expect(routedRequest(`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"cursor":"${big}"}}`)).toBeUndefined();
    expect(routedRequest(`{"jsonrpc":"2.0","method":"tools/call","params":{"name":"${big}"}}`)).toBeUndefined();
    expect(routedRequest(`{"jsonrpc":"2.0","id":1,"method":"tools/call"}${' '.repeat(2000)}`)).toBeUndefined();
    expect(routedRequest(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a","arguments":{"t":"${big}\\u00"}}}`)).toBeUndefined();
    expect(routedRequest(`{"jsonrpc":"2.0","id":1,\t"method":"tools/call","params":{"name":"a","arguments":{"t":"${big}"}}}`)).toBeUndefined();
    expect(routedRequest(`[{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"${big}"}}]`)).toBeUndefined();
  });
});
