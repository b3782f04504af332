import { describe, expect, it } from 'vitest';
import { isExactNumberId, keepExactId, topLevelIdText } from '../../../src/jsonrpc/exact-id.js';
import { encode, idJson, type JsonRpcMessage } from '../../../src/jsonrpc/messages.js';

describe('exact ids', () => {
  it('finds the top-level id literal only, past strings and nested ids', () => {
    expect(topLevelIdText('{"jsonrpc":"2.0","id":12345678901234567890,"method":"ping"}')).toBe('12345678901234567890');
    expect(topLevelIdText('{"params":{"id":1,"x":"\\"id\\":2"},"id" : 12345678901234567891}')).toBe('12345678901234567891');
    expect(topLevelIdText('{"params":{"id":1}}')).toBeUndefined();
    expect(topLevelIdText('{"id":"text"}')).toBeUndefined();
  });

  it('keeps an unsafe integer id as its digits and serializes it back unchanged; safe ids are left alone', () => {
    const text = '{"jsonrpc":"2.0","id":12345678901234567890,"method":"ping","params":{"id":5}}';
    const parsed = JSON.parse(text) as JsonRpcMessage & { id: unknown };
    keepExactId(parsed, text);
    expect(isExactNumberId(parsed.id)).toBe(true);
    expect(encode({ jsonrpc: '2.0', id: parsed.id as string, result: { id: 5 } })).toBe('{"jsonrpc":"2.0","id":12345678901234567890,"result":{"id":5}}');
    expect(encode({ jsonrpc: '2.0', id: parsed.id as string, error: { code: -32601, message: 'x' } })).toBe(
      '{"jsonrpc":"2.0","id":12345678901234567890,"error":{"code":-32601,"message":"x"}}',
    );
    expect(idJson(parsed.id as string)).toBe('12345678901234567890');
    const safe = { jsonrpc: '2.0', id: 42, method: 'ping' };
    keepExactId(safe, JSON.stringify(safe));
    expect(safe.id).toBe(42);
  });
});
