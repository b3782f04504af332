// A child's answer forwarded as the child wrote it, with only the id replaced: as text (spliceId)
// or as pooled bytes (spliceResultBytes) for large results that are scanned, never parsed.
import { idJson, type JsonRpcId } from '../jsonrpc/messages.js';
import type { BufferPool } from './buffer-pool.js';
import type { MessageSpans } from './message-scan.js';
import { ResultBytes } from './result-bytes.js';

/**
 * The child's line with our id replaced by the caller's, or undefined when that cannot be done
 * safely: the token `"id":<ours>` must occur exactly once, followed by `,` or `}`, and stand in the
 * top-level object. Uniqueness alone is not enough: a child may write the top-level id as
 * `"id": 12` and carry a compact `"id":12` inside its result, which must stay as it is.
 */
export function spliceId(line: string, upstreamId: number, downstreamId: JsonRpcId): string | undefined {
  const token = `"id":${upstreamId}`;
  const at = line.indexOf(token);
  if (at === -1) return undefined;
  const after = line.charCodeAt(at + token.length);
  if (after !== 0x2c /* , */ && after !== 0x7d /* } */) return undefined;
  if (line.indexOf(token, at + token.length) !== -1) return undefined;
  if (!atTopLevel(line, at)) return undefined;
  return `${line.slice(0, at)}"id":${idJson(downstreamId)}${line.slice(at + token.length)}`;
}

/**
 * Whether offset `at` of a JSON object's text is a member name of the outermost object: outside
 * strings, one brace deep. A walk over the text before it, without allocating.
 */
export function atTopLevel(text: string, at: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < at; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b /* { */ || c === 0x5b /* [ */) depth++;
    else if (c === 0x7d /* } */ || c === 0x5d /* ] */) depth--;
  }
  return depth === 1 && !inString;
}

/** The value of a span that holds a plain non-negative integer (the ids we mint), else -1. */
export function mintedIdAt(text: string, start: number, end: number): number {
  if (end - start > 15 || end === start) return -1;
  let value = 0;
  for (let i = start; i < end; i++) {
    const digit = text.charCodeAt(i) - 0x30;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}

/**
 * The line's bytes with the id span of `spans` (character offsets into `line`, ASCII digits)
 * replaced by `id`, in a buffer from `pool`; `bytes[start, end)` is the line as the child sent it.
 */
export function spliceResultBytes(pool: BufferPool, line: string, spans: Pick<MessageSpans, 'idStart' | 'idEnd'>, id: string, bytes: Buffer, start: number, end: number): ResultBytes {
  const headBytes = Buffer.byteLength(line.slice(0, spans.idStart));
  const idBytes = Buffer.byteLength(id);
  const tailStart = start + headBytes + (spans.idEnd - spans.idStart);
  const length = headBytes + idBytes + (end - tailStart);
  const buffer = pool.take(length);
  bytes.copy(buffer, 0, start, start + headBytes);
  buffer.write(id, headBytes);
  bytes.copy(buffer, headBytes + idBytes, tailStart, end);
  return new ResultBytes(buffer.subarray(0, length), () => pool.give(buffer));
}
