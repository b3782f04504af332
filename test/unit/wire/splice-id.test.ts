import { describe, expect, it } from 'vitest';
import { spliceId } from '../../../src/wire/result-splice.js';

describe('spliceId', () => {
  it('swaps our numeric id for the caller id, keeping the rest byte for byte', () => {
    const line = '{"jsonrpc":"2.0","id":42,"result":{"content":[{"type":"text","text":"héllo \\"id\\":42,"}]}}';
    const spliced = String(spliceId(line, 42, 'abc'));
    expect(spliced).toBe(line.replace('"id":42,', '"id":"abc",'));
    expect(JSON.parse(spliced).id).toBe('abc');
    expect(String(spliceId('{"result":{},"jsonrpc":"2.0","id":7}', 7, 9))).toBe('{"result":{},"jsonrpc":"2.0","id":9}');
  });

  it('declines when the token is ambiguous, a longer number, or spaced', () => {
    expect(spliceId('{"jsonrpc":"2.0","id":4,"result":{"item":{"id":4,"x":1}}}', 4, 1)).toBeUndefined();
    expect(spliceId('{"jsonrpc":"2.0","id":123,"result":{}}', 12, 1)).toBeUndefined();
    expect(spliceId('{"jsonrpc": "2.0", "id": 5, "result": {}}', 5, 1)).toBeUndefined();
  });

  it('never rewrites a nested id when the top-level one is spaced', () => {
    // The top-level id is written with a space; the only compact occurrence is inside the result.
    const line = '{"jsonrpc":"2.0","id": 12,"result":{"structuredContent":{"id":12,"name":"row"},"content":[]}}';
    expect(spliceId(line, 12, 1001)).toBeUndefined();
    const inArray = '{"jsonrpc":"2.0","result":{"items":[{"id":12}]},"id" :12}';
    expect(spliceId(inArray, 12, 1001)).toBeUndefined();
    // Braces inside strings do not count as nesting.
    const braces = '{"jsonrpc":"2.0","result":{"text":"}}} {{ \\\" ]"},"id":12}';
    expect(JSON.parse(String(spliceId(braces, 12, 1001)))).toEqual({ ...JSON.parse(braces), id: 1001 });
  });

  it('escapes a string id the way JSON does', () => {
    const spliced = spliceId('{"jsonrpc":"2.0","id":1,"result":{}}', 1, 'quote"and\\back');
    expect(JSON.parse(String(spliced)).id).toBe('quote"and\\back');
  });
});
