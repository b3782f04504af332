import { describe, expect, it } from 'vitest';
import { spliceId } from '../../src/upstream/connection.js';

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

  it('escapes a string id the way JSON does', () => {
    const spliced = spliceId('{"jsonrpc":"2.0","id":1,"result":{}}', 1, 'quote"and\\back');
    expect(JSON.parse(String(spliced)).id).toBe('quote"and\\back');
  });
});
