// A client message's text to the value the core reads: a large routed request is built from a
// scan (its text kept for splicing), anything else parsed; ids beyond 2^53 keep their digits.
import { keepExactId } from '../jsonrpc/exact-id.js';
import { keepRawText, routedRequest } from './request-splice.js';

/** Throws a SyntaxError when the text is not JSON. */
export function parseMessageText(text: string): unknown {
  const parsed: unknown = routedRequest(text) ?? JSON.parse(text);
  keepRawText(parsed, text);
  keepExactId(parsed, text);
  return parsed;
}
