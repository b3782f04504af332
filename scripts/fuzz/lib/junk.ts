// Junk for attackers: tagged texts, invalid UTF-8 and JSON, odd values and ids, deep nesting, bad
// JSON-RPC envelopes, Last-Event-IDs and paths, each drawn from the run's Rng.
import type { Rng } from './rng.js';

const UNICODE_SAMPLES = ['é', 'ß', '日本語', '🙂', '👩‍💻', 'עברית', 'Ω', '\u200b', '\u2028', '€', 'ﬀ', '𝔘'];

/** A printable text with some non-ASCII, tagged so a misdelivered answer is recognised. */
export function tagText(rng: Rng, tag: string, maxExtra = 64): string {
  let s = `${tag}:`;
  const n = rng.int(0, maxExtra);
  for (let i = 0; i < n; i++) s += rng.chance(0.15) ? rng.pick(UNICODE_SAMPLES) : String.fromCharCode(rng.int(0x21, 0x7e));
  return s;
}

export const INVALID_UTF8: readonly Buffer[] = [
  [0xff], [0xfe, 0xff], [0xc0, 0xaf], [0xe0, 0x80, 0xaf], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80],
  [0xc3], [0xe2, 0x82], [0x80], [0xbf, 0xbf], [0xf8, 0x88, 0x80, 0x80, 0x80], [0xc3, 0x28],
].map((b) => Buffer.from(b));

export function invalidUtf8(rng: Rng): Buffer {
  return Buffer.concat(Array.from({ length: rng.int(1, 6) }, () => rng.pick(INVALID_UTF8)));
}

/** Arbitrary JSON values, shallow. */
export function junkValue(rng: Rng, depth = 0): unknown {
  const pickers: Array<() => unknown> = [
    () => null,
    () => rng.int(-1e6, 1e6),
    () => rng.next() * 1e300,
    () => -0,
    () => 1.5,
    () => '',
    () => 'x'.repeat(rng.int(0, 200)),
    () => '\u0000\ud800\udfff\u2028',
    () => rng.chance(0.5),
    () => [],
    () => ({}),
    () => '__proto__',
    () => JSON.parse('{"__proto__":{"polluted":true}}') as unknown,
    () => ({ constructor: { prototype: { polluted: true } } }),
    () => (depth < 3 ? [junkValue(rng, depth + 1), junkValue(rng, depth + 1)] : 0),
    () => (depth < 3 ? { [rng.pick(['a', 'name', 'text', 'toString', 'hasOwnProperty'])]: junkValue(rng, depth + 1) } : 0),
  ];
  return rng.pick(pickers)();
}

/** A JSON-RPC id of a type JSON-RPC / MCP forbids (null excepted: it is special). */
export function badId(rng: Rng): unknown {
  return rng.pick<unknown>([true, false, {}, [], [1], { id: 1 }, 1.5, -0.25, 2.000001]);
}

export function deepJson(depth: number, kind: 'array' | 'object'): string {
  return kind === 'array' ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
}

/** Text that is not JSON at all, or broken JSON. */
export function invalidJson(rng: Rng): Buffer {
  const valid = JSON.stringify({ jsonrpc: '2.0', id: rng.int(1, 1e6), method: 'tools/call', params: { name: 'fx__echo', arguments: { text: 'x' } } });
  const pickers: Array<() => Buffer | string> = [
    () => '',
    () => ' ',
    () => '{',
    () => '}',
    () => '[',
    () => valid.slice(0, rng.int(1, valid.length - 1)),
    () => valid + '}',
    () => valid + ',' + valid,
    () => valid.replace(/"/g, "'"),
    () => '{"jsonrpc":"2.0","id":1,"method":"ping",}',
    () => '{"jsonrpc":"2.0" "id":1}',
    () => 'NaN',
    () => '{"id":NaN,"jsonrpc":"2.0","method":"ping"}',
    () => '{"id":Infinity,"jsonrpc":"2.0","method":"ping"}',
    () => "{'jsonrpc':'2.0'}",
    () => '{"jsonrpc":"2.0","method":"ping","id":1}\n{"jsonrpc":"2.0","method":"ping","id":2}',
    () => 'undefined',
    () => '\u0000',
    () => '\ufeff' + valid, // a byte-order mark
    () => '/* comment */ ' + valid,
    () => rng.bytes(rng.int(1, 512)),
    () => Buffer.concat([invalidUtf8(rng), Buffer.from(valid)]),
    () => '"unterminated',
    () => '{"a":' + '1'.repeat(rng.int(400, 5000)),
    () => '0x10',
    () => '01',
  ];
  const out = rng.pick(pickers)();
  return typeof out === 'string' ? Buffer.from(out) : out;
}

/** Not a JSON array, valid JSON, but breaking the JSON-RPC / MCP envelope; with the code the spec calls for. */
export function badEnvelope(rng: Rng, id: number): { body: unknown; code: number | number[] | undefined } {
  const pickers: Array<() => { body: unknown; code: number | number[] | undefined }> = [
    () => ({ body: null, code: -32600 }),
    () => ({ body: 42, code: -32600 }),
    () => ({ body: 'a string', code: -32600 }),
    () => ({ body: true, code: -32600 }),
    () => ({ body: {}, code: -32600 }),
    () => ({ body: { id, method: 'ping' }, code: -32600 }),
    () => ({ body: { jsonrpc: '1.0', id, method: 'ping' }, code: -32600 }),
    () => ({ body: { jsonrpc: 2.0, id, method: 'ping' }, code: -32600 }),
    () => ({ body: { jsonrpc: '2.0', id: badId(rng), method: 'ping' }, code: -32600 }),
    () => ({ body: { jsonrpc: '2.0', id, method: rng.pick<unknown>([42, null, {}, [], true]) }, code: -32600 }),
    () => ({ body: { jsonrpc: '2.0', id, method: 'tools/call', params: rng.pick<unknown>(['x', 42, true, null]) }, code: -32600 }),
    () => ({ body: { jsonrpc: '2.0', id, method: 'tools/call', params: [1, 2] }, code: [-32600, -32602] }),
    () => ({ body: { jsonrpc: '2.0', id }, code: -32600 }),
    () => ({ body: { jsonrpc: '2.0', id, error: 'not an object' }, code: -32600 }),
    () => ({ body: { jsonrpc: '2.0', id, error: { code: 'x', message: 'y' } }, code: -32600 }),
    () => ({ body: { jsonrpc: '2.0', result: {} }, code: -32600 }),
    () => ({ body: { jsonrpc: '2.0', id: badId(rng), result: {} }, code: -32600 }),
  ];
  return rng.pick(pickers)();
}

/** Plausible, hostile or malformed Last-Event-ID values; `streams` is how many request streams the session opened. */
export function lastEventId(rng: Rng, streams: number): string {
  const pickers: Array<() => string> = [
    () => `r${Math.max(1, streams + rng.int(-2, 1))}_${rng.int(0, 3)}`,
    () => `r${Math.max(1, streams + rng.int(-2, 1))}_${rng.int(0, 3)}`,
    () => `g_${rng.int(0, 20)}`,
    () => `r${rng.int(0, 1e6)}_${rng.int(0, 1e15)}`,
    () => `g_${'9'.repeat(15)}`,
    () => 'g_-1',
    () => 'r1_1e3',
    () => rng.hex(rng.int(1, 64)),
    () => '',
    () => '../../etc/passwd',
    () => 'x'.repeat(rng.int(100, 8000)),
    () => 'r' + '1'.repeat(400) + '_1',
  ];
  return rng.pick(pickers)();
}

/** A path with odd escapes, segments and lengths; sometimes one that routes. */
export function randomPath(rng: Rng): string {
  const endpoints = ['/mcp', '/sse', '/messages', '/ws', '/s/fx/mcp', '/s/garbage/sse', '/s/fx/messages', '/healthz', '/readyz', '/metrics'];
  const pickers: Array<() => string> = [
    () => rng.pick(endpoints),
    () => rng.pick(endpoints) + '?' + rng.pick(['sessionId=%zz', 'sessionId=', 'a=%', 'profile=../../x', 'tools=*,%00', 'x='.repeat(50), '%E0%A4%A']),
    () => `/s/${rng.pick(['%zz', '%', '%E0%A4%A', '%00', '%2e%2e', '..', 'fx%2F..', '__proto__', 'constructor', 'FX', 'fx%20', '%66%78', 'nope'])}/${rng.pick(['mcp', 'sse', 'ws', 'messages'])}`,
    () => rng.pick(['//mcp', '/mcp/', '/MCP', '/mcp;x', '/mcp%00', '/./mcp', '/a/../mcp', '/s//mcp', '/s/fx//mcp', '/s/fx/mcp/extra', '/%2Fmcp', '/mcp%2F', '/s/fx/../../mcp']),
    () => '/' + Array.from({ length: rng.int(1, 8) }, () => rng.pick(['%', '%%', '%g0', '%ff', '%c3%28', 'a', '..', '.', '~', '@', ':', ';', '='])).join(''),
    () => '/' + encodeURIComponent(rng.bytes(rng.int(1, 40)).toString('latin1')),
    () => '*',
  ];
  return rng.pick(pickers)();
}
