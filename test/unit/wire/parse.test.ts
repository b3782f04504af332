// parseMessageText: one parse for HTTP bodies and WebSocket frames.
import { describe, expect, it } from 'vitest';
import { parseMessageText } from '../../../src/wire/parse.js';
import { RAW_TEXT } from '../../../src/wire/request-splice.js';
import { idJson, type JsonRpcId } from '../../../src/jsonrpc/messages.js';

describe('parseMessageText', () => {
  it('parses a small message as JSON', () => {
    expect(parseMessageText('{"jsonrpc":"2.0","id":1,"method":"ping"}')).toEqual({ jsonrpc: '2.0', id: 1, method: 'ping' });
  });

  it('keeps the text of a large tools/call for splicing', () => {
    const text = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'fx__echo', arguments: { text: 'x'.repeat(4096) } } });
    const parsed = parseMessageText(text) as Record<PropertyKey, unknown>;
    expect(parsed.method).toBe('tools/call');
    expect(parsed[RAW_TEXT]).toBe(text);
  });

  it("keeps an id beyond 2^53 as the client's digits", () => {
    const parsed = parseMessageText('{"jsonrpc":"2.0","id":90071992547409931,"method":"ping"}') as { id: JsonRpcId };
    expect(idJson(parsed.id)).toBe('90071992547409931');
  });

  it('throws on text that is not JSON', () => {
    expect(() => parseMessageText('{"jsonrpc":')).toThrow(SyntaxError);
  });
});
