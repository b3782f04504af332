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

/** The page of `items` at `offset` under `key`, with `nextCursor` when more remain. */
function pageAt(key: string, items: readonly JsonObject[], offset: number, pageSize: number): JsonObject {
  if (offset > items.length) throw new SwitchboardError(ErrorCode.InvalidParams, 'Invalid cursor');
  if (offset === 0 && items.length <= pageSize) return { [key]: items };
  const end = offset + pageSize;
  const result: JsonObject = { [key]: items.slice(offset, end) };
  if (end < items.length) result.nextCursor = encodeCursor(end);
  return result;
}

/**
 * Serialized pages per list: a view's lists are fixed until the catalog replaces the view (a new
 * array), so a page is serialized once per view rather than per request; a 1,000-tool page (the
 * default limits.pageSize) is ~600 KB of JSON. Weakly keyed: a replaced view's pages go with it.
 */
const serializedPages = new WeakMap<readonly JsonObject[], Map<number, string>>();

/**
 * One page of `items` under `key` for `cursor`, and its JSON text, cached per list and offset. Only offsets
 * we hand out (multiples of the page size) are cached, so a client forging cursors cannot grow it.
 */
export function pageText(key: string, items: readonly JsonObject[], cursor: unknown, pageSize: number): { result: JsonObject; text: string } {
  const offset = decodeCursor(cursor);
  const result = pageAt(key, items, offset, pageSize);
  if (offset % pageSize !== 0) return { result, text: JSON.stringify(result) };
  let pages = serializedPages.get(items);
  if (pages === undefined) serializedPages.set(items, (pages = new Map()));
  let text = pages.get(offset);
  if (text === undefined) pages.set(offset, (text = JSON.stringify(result)));
  return { result, text };
}
