// Search mode's two tools, answered by the proxy: find_tools searches the session's view (one
// index for the catalog, the view as a filter); call_tool turns into the tools/call it names, so
// enforcement, progress, cancellation and errors are exactly those of tools/call.
import {
  ErrorCode,
  SwitchboardError,
  isObject,
  resultResponse,
  type JsonObject,
  type JsonRpcRequest,
} from '../jsonrpc/messages.js';
import { RAW_SPANS, RAW_TEXT, type RawCarrier } from '../wire/request-splice.js';
import type { Catalog } from '../catalog/catalog.js';
import type { View } from '../catalog/view.js';
import { CALL_TOOL, FIND_TOOLS, MAX_BROWSE, MAX_FIND_LIMIT, MAX_KEYWORDS, MAX_QUERIES } from '../search/meta-tools.js';
import { searchRequest } from '../search/merge.js';
import type { SearchHit } from '../catalog/catalog-search.js';
import type { Session } from '../session/session.js';
import type { ClientRequest } from '../session/client-request.js';
import { NO_PENDING, pendingNote, type PendingServers } from '../search/pending-note.js';
import type { Upstreams } from '../upstream/upstreams.js';

/** Characters of a query searched; a request is a sentence, not a document. */
const MAX_QUERY_CHARS = 1_000;

export interface FoundTool {
  readonly name: string;
  readonly server: string;
  readonly title?: string;
  readonly description?: string;
  /** Absent in a server's listing in brief. */
  readonly inputSchema?: unknown;
}

export function isMetaTool(name: unknown): boolean {
  return name === FIND_TOOLS || name === CALL_TOOL;
}

/**
 * The matches for find_tools' arguments in a view. Needs no session: the stateless era's
 * requests carry their view in who they are and the URL, and search the same way. A long `query`
 * of several steps is searched per step too (search/merge.ts). `onHit` sees every hit of every step
 * searched (the CLI shows the scores the model is not shown).
 */
export function findTools(catalog: Pick<Catalog, 'search'>, view: View, args: unknown, onHit?: (hit: SearchHit) => void): FoundTool[] {
  if (!isObject(args)) throw new SwitchboardError(ErrorCode.InvalidParams, `${FIND_TOOLS} needs arguments {query, keywords?, queries?, limit?, server?}`);
  const { query, keywords, queries, limit, server } = args;
  if (query !== undefined && (typeof query !== 'string' || query.trim() === '')) throw new SwitchboardError(ErrorCode.InvalidParams, `${FIND_TOOLS}: "query" must be a non-empty string`);
  const steps = stringList(queries, 'queries', MAX_QUERIES);
  const extra = stringList(keywords, 'keywords', MAX_KEYWORDS);
  if (limit !== undefined && (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > MAX_FIND_LIMIT)) {
    throw new SwitchboardError(ErrorCode.InvalidParams, `${FIND_TOOLS}: "limit" must be an integer from 1 to ${MAX_FIND_LIMIT}`);
  }
  if (server !== undefined && typeof server !== 'string') throw new SwitchboardError(ErrorCode.InvalidParams, `${FIND_TOOLS}: "server" must be a string`);
  const clip = (text: string): string => text.slice(0, MAX_QUERY_CHARS);
  if (query === undefined && steps.length === 0) {
    if (typeof server === 'string') return browse(view, server);
    throw new SwitchboardError(ErrorCode.InvalidParams, `${FIND_TOOLS}: give "query" (or "queries"), or "server" alone to list its tools`);
  }
  const searcher = {
    search: (text: string, max: number, context?: string): SearchHit[] => {
      const hits = catalog.search(view, text, { limit: max, server, context });
      if (onHit) for (const hit of hits) onHit(hit);
      return hits;
    },
    key: (hit: SearchHit): string => hit.name,
  };
  return searchRequest({ query: typeof query === 'string' ? clip(query) : undefined, queries: steps.map(clip), keywords: extra, limit }, searcher).map(found);
}

/** A server's tools in the view, in brief: the name and the description's first sentence, no schema. */
function browse(view: View, server: string): FoundTool[] {
  const out: FoundTool[] = [];
  for (const [name, route] of view.toolRoutes) {
    if (route.server !== server || out.length >= MAX_BROWSE) continue;
    const definition = view.toolDefinitions.get(name);
    const description = typeof definition?.description === 'string' ? firstSentence(definition.description) : undefined;
    out.push({ name, server, ...(typeof definition?.title === 'string' ? { title: definition.title } : {}), ...(description ? { description } : {}) });
  }
  return out;
}

function firstSentence(text: string): string {
  const line = text.trim().split('\n')[0] ?? '';
  const end = line.search(/[.!?](?:\s|$)/);
  const sentence = end < 0 ? line : line.slice(0, end + 1);
  return sentence.length > 200 ? `${sentence.slice(0, 200)}…` : sentence;
}

function found(hit: SearchHit): FoundTool {
  const { title, description, inputSchema } = hit.definition;
  return {
    name: hit.name,
    server: hit.server,
    ...(typeof title === 'string' ? { title } : {}),
    ...(typeof description === 'string' ? { description } : {}),
    inputSchema: inputSchema ?? { type: 'object' },
  };
}

function stringList(value: unknown, field: string, max: number): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.length > max || !value.every((item) => typeof item === 'string' && item.trim() !== '')) {
    throw new SwitchboardError(ErrorCode.InvalidParams, `${FIND_TOOLS}: "${field}" must be an array of at most ${max} non-empty strings`);
  }
  return value as string[];
}

/**
 * find_tools' result: structured, and the same JSON as text for clients that show only text
 * (tools.mdx "Structured Content"), then at most one line: nothing matched, and which servers
 * were not searched (still starting) or are down.
 */
export function findToolsResult(found: readonly FoundTool[], pending: PendingServers = NO_PENDING): JsonObject {
  const structuredContent: JsonObject = { tools: found };
  if (pending.starting.length > 0) structuredContent.starting = pending.starting;
  if (pending.down.length > 0) structuredContent.down = pending.down.map((server) => server.name);
  const note = pendingNote(pending);
  const lines = [JSON.stringify(structuredContent)];
  if (found.length === 0) lines.push(`No tool matched${note === undefined ? '; try other words, or no server offers this.' : '.'}${note === undefined ? '' : ` ${note}`}`);
  else if (note !== undefined) lines.push(note);
  return { content: [{ type: 'text', text: lines.join('\n') }], structuredContent };
}

/**
 * The view's servers a search cannot fully answer for now: in their first start (the catalog has
 * none of their tools yet) or down. A server restarting with its lists known is neither: its
 * tools are searched, and calls to them wait for it as any call does.
 */
export function pendingServers(view: View, upstreams: Upstreams): PendingServers {
  let starting: string[] | undefined;
  let down: Array<{ name: string; reason: string | undefined }> | undefined;
  for (const server of view.servers) {
    const handle = upstreams.primaryOf(server);
    if (handle === undefined || handle.state === 'stopped') continue;
    if (handle.isDown) (down ??= []).push({ name: server, reason: handle.lastError });
    else if (!handle.listsKnown) (starting ??= []).push(server);
  }
  return starting === undefined && down === undefined ? NO_PENDING : { starting: starting ?? [], down: down ?? [] };
}

/**
 * Answers find_tools for a session at once, from the servers that are up (it never waits for a
 * start: a model's tool call must not hang for a slow server); `pending` names the others. The
 * tools found join its list (bounded), and it is told so with tools/list_changed, after the
 * answer, so a client that refreshes can call them directly.
 */
export function answerFindTools(catalog: Catalog, session: Session, request: ClientRequest, view: View, pending: PendingServers): void {
  const found = findTools(catalog, view, request.message.params?.arguments);
  session.reply(request, resultResponse(request.id, findToolsResult(found, pending)));
  if (session.found.add(found.map((tool) => tool.name)) && session.initialized) {
    session.deliver({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' }, undefined);
  }
}

/**
 * Rewrites a call_tool request into the tools/call it stands for: the named tool, its arguments,
 * and the caller's `_meta` (progress token) and `task`. A large request that arrived as text to
 * splice is parsed now: its text names call_tool, and its arguments are nested one level deeper.
 */
export function unwrapCallTool(request: JsonRpcRequest & RawCarrier): void {
  let params = request.params;
  const raw = request[RAW_TEXT];
  if (raw !== undefined) {
    const parsed = JSON.parse(raw) as { params?: unknown };
    params = isObject(parsed.params) ? parsed.params : undefined;
    delete request[RAW_TEXT];
    delete request[RAW_SPANS];
  }
  const args = params?.arguments;
  if (!isObject(args) || typeof args.name !== 'string') throw new SwitchboardError(ErrorCode.InvalidParams, `${CALL_TOOL} needs arguments {name, arguments?}`);
  if (isMetaTool(args.name)) throw new SwitchboardError(ErrorCode.InvalidParams, `${CALL_TOOL} calls the tools ${FIND_TOOLS} finds, not itself`);
  if (args.arguments !== undefined && !isObject(args.arguments)) throw new SwitchboardError(ErrorCode.InvalidParams, `${CALL_TOOL}: "arguments" must be an object`);
  const inner: JsonObject = { name: args.name, arguments: args.arguments ?? {} };
  if (params?._meta !== undefined) inner._meta = params._meta;
  if (params?.task !== undefined) inner.task = params.task;
  request.params = inner;
}

/** What tools/list shows a session: the view's listing, then (search mode) the tools it found that the view still has. */
export function listedTools(session: Session, view: View): readonly JsonObject[] {
  if (view.scope.policy.discovery !== 'search' || session.found.size === 0) return view.listedTools;
  const cached = listings.get(session);
  if (cached !== undefined && cached.view === view && cached.version === session.found.version) return cached.items;
  const items = [...view.listedTools];
  const listed = new Set(items.map((tool) => tool.name));
  for (const name of session.found.list()) {
    const definition = view.toolDefinitions.get(name);
    if (definition !== undefined && !listed.has(name)) items.push(definition);
  }
  listings.set(session, { view, version: session.found.version, items });
  return items;
}

/** A session's last listing, reused while neither its view nor its found tools changed (pages are cached per array). */
const listings = new WeakMap<Session, { readonly view: View; readonly version: number; readonly items: readonly JsonObject[] }>();
