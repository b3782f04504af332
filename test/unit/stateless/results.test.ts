// Results as the stateless era writes them: resultType always, cache hints where the schema wants
// them, the id of the POST it answers now, and the legacy resource-not-found code mapped.
import { describe, expect, it } from 'vitest';
import { statelessAnswer } from '../../../src/stateless/results.js';
import type { JsonRpcResponse } from '../../../src/jsonrpc/messages.js';

const parse = (text: string): { id?: unknown; result?: Record<string, unknown>; error?: { code: number; data?: unknown }; error_detail?: unknown } => JSON.parse(text);

describe('statelessAnswer', () => {
  it('stamps an object result without touching it (lists are shared)', () => {
    const result = { tools: [] };
    const text = statelessAnswer({ jsonrpc: '2.0', id: 1, result }, undefined, 9, 1, 'tools/list', 'private');
    expect(parse(text)).toEqual({ jsonrpc: '2.0', id: 9, result: { resultType: 'complete', tools: [], ttlMs: 0, cacheScope: 'private' } });
    expect(result).toEqual({ tools: [] });
  });

  it('gives a non-cacheable result its resultType only', () => {
    const text = statelessAnswer({ jsonrpc: '2.0', id: 1, result: { content: [] } }, undefined, 1, 1, 'tools/call', 'public');
    expect(parse(text).result).toEqual({ resultType: 'complete', content: [] });
  });

  it('stamps a result forwarded as text in place, wherever its id and result are, empty or not', () => {
    const standIn: JsonRpcResponse = { jsonrpc: '2.0', id: 1, result: {} };
    const idFirst = '{"jsonrpc":"2.0","id":17,"result":{"content":[{"type":"text","text":"x"}]}}';
    expect(parse(statelessAnswer(standIn, idFirst, 'new', 17, 'tools/call', 'public'))).toEqual({ jsonrpc: '2.0', id: 'new', result: { resultType: 'complete', content: [{ type: 'text', text: 'x' }] } });
    const idLast = '{"jsonrpc":"2.0", "result": { } ,"id":17}';
    expect(parse(statelessAnswer(standIn, idLast, 3, 17, 'resources/read', 'public'))).toEqual({ jsonrpc: '2.0', id: 3, result: { resultType: 'complete', ttlMs: 0, cacheScope: 'public' } });
  });

  it('stamps the top-level result of a text already under its id, not a result named inside a string or a nested object', () => {
    const standIn: JsonRpcResponse = { jsonrpc: '2.0', id: 1, result: {} };
    const plain = '{"jsonrpc":"2.0","id":4,"result":{"content":[]}}';
    expect(statelessAnswer(standIn, plain, 4, 4, 'tools/call', 'public')).toBe('{"jsonrpc":"2.0","id":4,"result":{"resultType":"complete","content":[]}}');
    const decoyId = '{"jsonrpc":"2.0","id":"\\"result\\":{","result":{"content":[{"result":{}}]}}';
    const id = parse(decoyId).id as string;
    expect(parse(statelessAnswer(standIn, decoyId, id, id, 'tools/call', 'public'))).toEqual({ jsonrpc: '2.0', id, result: { resultType: 'complete', content: [{ result: {} }] } });
    const nestedFirst = '{"jsonrpc":"2.0","error_detail":{"result":{}},"id":4,"result":{}}';
    expect(parse(statelessAnswer(standIn, nestedFirst, 4, 4, 'prompts/list', 'private')).result).toEqual({ resultType: 'complete', ttlMs: 0, cacheScope: 'private' });
    expect(parse(statelessAnswer(standIn, nestedFirst, 4, 4, 'prompts/list', 'private')).error_detail).toEqual({ result: {} });
  });

  it('keeps the resultType of a child that speaks the era, input_required included', () => {
    const text = '{"jsonrpc":"2.0","id":5,"result":{"resultType":"input_required","inputRequests":{"k":{"method":"roots/list"}},"requestState":"s"}}';
    const answer = parse(statelessAnswer({ jsonrpc: '2.0', id: 5, result: {} }, text, 6, 5, 'tools/call', 'public'));
    expect(answer.id).toBe(6);
    expect(answer.result).toEqual({ resultType: 'input_required', inputRequests: { k: { method: 'roots/list' } }, requestState: 's' });
  });

  it('answers a missing resource with -32602, its data kept, under the current id', () => {
    const error = statelessAnswer({ jsonrpc: '2.0', id: 1, error: { code: -32002, message: 'Resource not found', data: { uri: 'x://y' } } }, undefined, 2, 1, 'resources/read', 'public');
    expect(parse(error)).toEqual({ jsonrpc: '2.0', id: 2, error: { code: -32602, message: 'Resource not found', data: { uri: 'x://y' } } });
  });
});
