// A server's lists as it gives them: every kind it declares, each followed page by page to its end.
import { ErrorCode, SwitchboardError, isObject, type JsonObject } from '../jsonrpc/messages.js';
import type { UpstreamConnection } from './connection.js';
import type { ListKind, ServerLists } from './types.js';

/** Pages followed per list before we call the server broken (a cursor loop), pages. */
const MAX_LIST_PAGES = 1_000;

/** Every list the server declares a capability for. */
export async function fetchAllLists(connection: UpstreamConnection, server: string): Promise<ServerLists> {
  const caps = connection.identity?.capabilities ?? {};
  const [tools, prompts, resources, resourceTemplates] = await Promise.all([
    caps.tools ? fetchList(connection, server, 'tools') : [],
    caps.prompts ? fetchList(connection, server, 'prompts') : [],
    caps.resources ? fetchList(connection, server, 'resources') : [],
    caps.resources ? fetchList(connection, server, 'resourceTemplates') : [],
  ]);
  return { tools, prompts, resources, resourceTemplates };
}

/** Follows `nextCursor` to the end (pagination.mdx); an error on a page fails the whole list. */
export async function fetchList(connection: UpstreamConnection, server: string, kind: ListKind): Promise<Record<string, unknown>[]> {
  const method = kind === 'resourceTemplates' ? 'resources/templates/list' : `${kind}/list`;
  const items: Record<string, unknown>[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_LIST_PAGES; page++) {
    let result: JsonObject;
    try {
      result = await connection.request(method, cursor === undefined ? {} : { cursor });
    } catch (error) {
      // Servers that declare `resources` but not templates answer -32601; an empty list is the truth then.
      if (error instanceof SwitchboardError && error.code === ErrorCode.MethodNotFound) return items;
      throw error;
    }
    const list = result[kind];
    if (Array.isArray(list)) for (const item of list) if (isObject(item)) items.push(item);
    cursor = typeof result.nextCursor === 'string' && result.nextCursor !== '' ? result.nextCursor : undefined;
    if (cursor === undefined) return items;
  }
  throw new SwitchboardError(ErrorCode.InternalError, `server ${server} paginated ${method} past ${MAX_LIST_PAGES} pages`);
}
