// Results and errors as the stateless era (2026-07-28) writes them: every result says its
// `resultType`, cacheable ones carry `ttlMs`/`cacheScope` (server/utilities/caching.mdx), and the
// legacy resource-not-found code becomes -32602 (server/resources.mdx "Error Handling").
import { ErrorCode, encode, idJson, isObject, type JsonObject, type JsonRpcId, type JsonRpcResponse } from '../jsonrpc/messages.js';
import { scanMessage } from '../wire/message-scan.js';
import { atTopLevel } from '../wire/result-splice.js';
import type { Serialized } from '../wire/result-bytes.js';

/** Results that MUST carry cache hints (caching.mdx; the schema's CacheableResult). */
const CACHEABLE: ReadonlySet<string> = new Set(['server/discover', 'tools/list', 'prompts/list', 'resources/list', 'resources/templates/list', 'resources/read']);

export type CacheScope = 'public' | 'private';

/**
 * How long a client may keep a result, ms. Zero: the proxy cannot know when a child's lists or a
 * resource change next (it learns of it after the fact, through list_changed, which stateless-era clients
 * get from subscriptions/listen), so any longer promise could be false.
 */
const TTL_MS = 0;

/** The members stamped at the start of a result object, as JSON text (no braces). */
function stampText(method: string, cacheScope: CacheScope): string {
  return CACHEABLE.has(method) ? `"resultType":"complete","ttlMs":${TTL_MS},"cacheScope":"${cacheScope}"` : '"resultType":"complete"';
}

/**
 * The final answer to a stateless request, as text, under `id` (the id of the POST it answers now,
 * which differs from the first one after input_required rounds; `textId` is the one `serialized`
 * carries). A child's result forwarded as text is stamped in place; anything else is rebuilt from
 * the object (never mutated: lists are shared).
 */
export function statelessAnswer(message: JsonRpcResponse, serialized: Serialized | undefined, id: JsonRpcId, textId: JsonRpcId, method: string, cacheScope: CacheScope): string {
  if ('error' in message) {
    const error = message.error;
    if (error.code === ErrorCode.ResourceNotFound) {
      return encodeOrFail({ jsonrpc: '2.0', id, error: { ...error, code: ErrorCode.InvalidParams } }, id);
    }
    return encodeOrFail({ jsonrpc: '2.0', id, error }, id);
  }
  let result = isObject(message.result) ? message.result : {};
  if (serialized !== undefined) {
    const text = String(serialized);
    const stamped = stampSerialized(text, id, textId, method, cacheScope);
    if (stamped !== undefined) return stamped;
    // `message` may be a stand-in for a result forwarded as text: the text is the result.
    const parsed = JSON.parse(text) as { result?: unknown };
    result = isObject(parsed.result) ? parsed.result : {};
  }
  // Only complete results carry cache hints; input_required ones are never cached (caching.mdx).
  const complete = result.resultType === undefined || result.resultType === 'complete';
  if (typeof result.resultType === 'string' && (!complete || !CACHEABLE.has(method) || 'ttlMs' in result)) {
    // A child that calls its answer public cannot know the proxy filtered it for an identity.
    if (cacheScope === 'private' && result.cacheScope === 'public') result = { ...result, cacheScope };
    return encodeOrFail({ jsonrpc: '2.0', id, result }, id);
  }
  const stamped: JsonObject = { resultType: 'complete', ...result };
  if (CACHEABLE.has(method)) {
    stamped.ttlMs = TTL_MS;
    stamped.cacheScope = cacheScope;
  }
  return encodeOrFail({ jsonrpc: '2.0', id, result: stamped }, id);
}

/** Inserts the stamp after the result's opening brace and puts `id` in; undefined when the text is not a plain result. */
function stampSerialized(text: string, id: JsonRpcId, textId: JsonRpcId, method: string, cacheScope: CacheScope): string | undefined {
  // A child that already speaks the stateless era stamps its own results (the object path keeps
  // them); the text may also just mention the name, which costs a parse, never a wrong answer.
  if (text.includes('"resultType"')) return undefined;
  const stamp = stampText(method, cacheScope);
  if (id === textId) {
    // The usual answer (no input rounds) is already under its id: finding the result is enough,
    // and in a child's compact line it follows a short prefix, so no scan of the whole text.
    const at = text.indexOf(RESULT_OBJECT);
    if (at !== -1 && atTopLevel(text, at)) return withStamp(text, at + RESULT_OBJECT.length, stamp);
  }
  const spans = scanMessage(text);
  if (spans === undefined || spans.resultStart === -1 || spans.idStart === -1 || text.charCodeAt(spans.resultStart) !== 0x7b) return undefined;
  const stamped = withStamp(text, spans.resultStart + 1, stamp);
  const grew = stamped.length - text.length;
  // The id comes before or after the result in the text; splice whichever is later first.
  if (spans.idStart > spans.resultStart) return stamped.slice(0, spans.idStart + grew) + idJson(id) + stamped.slice(spans.idEnd + grew);
  return stamped.slice(0, spans.idStart) + idJson(id) + stamped.slice(spans.idEnd);
}

const RESULT_OBJECT = '"result":{';

/** `text` with the stamp's members first in the object whose brace ends before `inside`. */
function withStamp(text: string, inside: number, stamp: string): string {
  let after = inside;
  while (after < text.length && (text.charCodeAt(after) === 0x20 || text.charCodeAt(after) === 0x0a || text.charCodeAt(after) === 0x0d || text.charCodeAt(after) === 0x09)) after += 1;
  const empty = text.charCodeAt(after) === 0x7d;
  return text.slice(0, inside) + stamp + (empty ? '' : ',') + text.slice(inside);
}

function encodeOrFail(message: JsonRpcResponse, id: JsonRpcId): string {
  return encode(message) ?? `{"jsonrpc":"2.0","id":${idJson(id)},"error":{"code":${ErrorCode.InternalError},"message":"the result could not be encoded"}}`;
}
