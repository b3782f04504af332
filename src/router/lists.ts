// Paginating catalog lists to clients with opaque cursors (server/utilities/pagination.mdx).
import { ErrorCode, SwitchboardError, type JsonObject } from '../jsonrpc/messages.js';

/** Cursors encode the offset; opaque to clients, and rejected with -32602 when not ours. */
export function encodeCursor(offset: number): string {
  return Buffer.from(`o:${offset}`).toString('base64url');
}

export function decodeCursor(cursor: unknown): number {
  if (cursor === undefined) return 0;
  if (typeof cursor === 'string') {
    const text = Buffer.from(cursor, 'base64url').toString('utf8');
    const match = /^o:(\d{1,9})$/.exec(text);
    if (match !== null) return Number(match[1]);
  }
  throw new SwitchboardError(ErrorCode.InvalidParams, 'Invalid cursor');
}

/** One page of `items` under `key`, with `nextCursor` when more remain. */
export function page(key: string, items: readonly JsonObject[], cursor: unknown, pageSize: number): JsonObject {
  const offset = decodeCursor(cursor);
  if (offset > items.length) throw new SwitchboardError(ErrorCode.InvalidParams, 'Invalid cursor');
  if (offset === 0 && items.length <= pageSize) return { [key]: items };
  const end = offset + pageSize;
  const result: JsonObject = { [key]: items.slice(offset, end) };
  if (end < items.length) result.nextCursor = encodeCursor(end);
  return result;
}
