// The search index over the whole catalog, for search-mode views and find_tools: one per catalog,
// never per session, built only once something searches, and rebuilt in the background after lists
// change (tools/list never waits for it). A view is applied as a filter, so no session ever finds a
// tool outside its view.
import type { JsonObject } from '../jsonrpc/messages.js';
import { ToolIndex, type IndexedServer, type IndexedTool } from '../search/tool-index.js';
import { metaTools } from '../search/meta-tools.js';
import type { NamedItem } from './named-items.js';
import type { ViewPolicy } from './view-policy.js';
import type { Route, View, ViewScope } from './view.js';

/** What the index is built from: every server's tools under their aggregate names. */
export interface SearchSource {
  readonly tools: ReadonlyMap<string, readonly NamedItem[]>;
  server(name: string): { readonly alias: string; readonly instructions: string | undefined };
}

/** A search's bounds: how many, one server's tools only, and the request a clause is part of (tool-index.ts). */
export interface SearchOptions {
  readonly limit: number;
  readonly server?: string | undefined;
  readonly context?: string | undefined;
}

export interface SearchHit {
  readonly name: string;
  readonly server: string;
  readonly definition: JsonObject;
  readonly score: number;
}

interface BuiltIndex {
  readonly tools: ToolIndex;
  /** Index key (the aggregate name) to the tool's server and original name. */
  readonly routes: ReadonlyMap<string, Route>;
}

export class CatalogSearch {
  private index: BuiltIndex | undefined;
  private pending = false;
  /** Attached search-mode views: while there are any, the index follows every listing. */
  private searchViews = 0;

  constructor(private readonly source: () => SearchSource) {}

  viewAttached(scope: ViewScope): void {
    if (scope.policy.discovery !== 'search') return;
    this.searchViews += 1;
    if (this.index === undefined) this.schedule();
  }

  viewDetached(scope: ViewScope): void {
    if (scope.policy.discovery === 'search') this.searchViews -= 1;
  }

  /** The lists changed: only once something searches does a catalog need an index. */
  listingsChanged(): void {
    if (this.index !== undefined || this.searchViews > 0) this.schedule();
  }

  /** Builds the index now when a rebuild is due (a search that waited for servers to list must find their tools). */
  refresh(): void {
    if (!this.pending) return;
    this.pending = false;
    this.index = this.build();
  }

  /** The view's best tools for a request in a person's words. */
  search(view: View, query: string, options: SearchOptions): SearchHit[] {
    const index = this.current();
    const inView = (key: string): string | undefined => {
      const route = index.routes.get(key);
      return route === undefined ? undefined : view.toolNames.get(`${route.server}\u0000${route.original}`);
    };
    const hits = index.tools.search(query, { limit: options.limit, server: options.server, context: options.context, allow: (key) => inView(key) !== undefined });
    const out: SearchHit[] = [];
    for (const hit of hits) {
      const name = inView(hit.key);
      const definition = name === undefined ? undefined : view.toolDefinitions.get(name);
      const route = index.routes.get(hit.key);
      if (name === undefined || definition === undefined || route === undefined) continue;
      out.push({ name, server: route.server, definition, score: hit.score });
    }
    return out;
  }

  /**
   * The index as of the last listing; a search before the first build builds it at once. Until a
   * rebuild lands, searches use the previous index, filtered by the current view.
   */
  private current(): BuiltIndex {
    if (this.index === undefined) this.index = this.build();
    return this.index;
  }

  private schedule(): void {
    if (this.pending) return;
    this.pending = true;
    setImmediate(() => {
      // refresh built it meanwhile.
      if (!this.pending) return;
      this.pending = false;
      this.index = this.build();
    }).unref();
  }

  private build(): BuiltIndex {
    const source = this.source();
    const tools: IndexedTool[] = [];
    const routes = new Map<string, Route>();
    const servers = new Map<string, IndexedServer>();
    for (const [server, items] of source.tools) {
      const { alias, instructions } = source.server(server);
      servers.set(server, { name: server, alias, instructions });
      for (const item of items) {
        const definition = item.definition;
        tools.push({
          key: item.emitted,
          server,
          name: item.original,
          title: typeof definition.title === 'string' ? definition.title : undefined,
          description: typeof definition.description === 'string' ? definition.description : undefined,
          inputSchema: definition.inputSchema,
          source: definition,
        });
        routes.set(item.emitted, { server, original: item.original });
      }
    }
    return { tools: ToolIndex.build(tools, servers), routes };
  }
}

/**
 * A search-mode listing: find and call, then the pinned tools the view allows. `namespaced` gives
 * a tool's aggregate name (profiles and pins speak those everywhere). A server not listed yet
 * (`unlisted`: in its first start) is in find_tools' directory as starting; its listing changes the
 * view, so the session hears list_changed when it arrives.
 */
export function searchListing(
  servers: readonly string[],
  tools: readonly JsonObject[],
  routes: ReadonlyMap<string, Route>,
  policy: ViewPolicy,
  namespaced: (server: string, original: string) => string | undefined,
  unlisted: (server: string) => boolean = () => false,
): JsonObject[] {
  const summaries = servers.map((server) => ({ server, toolNames: [] as string[] }));
  const byServer = new Map(summaries.map((summary) => [summary.server, summary.toolNames]));
  const pinned: JsonObject[] = [];
  for (const tool of tools) {
    const route = routes.get(tool.name as string);
    if (route === undefined) continue;
    byServer.get(route.server)?.push(route.original);
    const name = namespaced(route.server, route.original);
    if (name !== undefined && policy.isPinned(name)) pinned.push(tool);
  }
  const shown = summaries.flatMap((summary) => {
    if (summary.toolNames.length > 0) return [{ name: summary.server, toolNames: summary.toolNames }];
    return unlisted(summary.server) ? [{ name: summary.server, toolNames: [], starting: true }] : [];
  });
  return [...metaTools(shown, tools.length), ...pinned];
}
