// What a client sees of the catalog: a view's scope (servers, naming, filter), its lists and routes.
import type { JsonObject } from '../jsonrpc/messages.js';
import type { ListKind, ServerIdentity } from '../upstream/types.js';
import { SHOW_ALL, type ViewPolicy } from './view-policy.js';

/** Which servers a view shows, whether names carry the server prefix, and the session's filter. */
export interface ViewScope {
  /** Cache key; equal keys mean equal views. */
  readonly key: string;
  /** The endpoint's key without the filter: `*` or `s:<server>`; a session belongs to one endpoint. */
  readonly endpoint: string;
  /** Servers shown, or undefined for all enabled servers. */
  readonly servers: ReadonlySet<string> | undefined;
  readonly prefixed: boolean;
  readonly policy: ViewPolicy;
}

export const AGGREGATE_SCOPE: ViewScope = { key: '*', endpoint: '*', servers: undefined, prefixed: true, policy: SHOW_ALL };

/** One server alone, names as the server wrote them (SPEC "Endpoints": /s/<server>/...). */
export function serverScope(server: string): ViewScope {
  const key = `s:${server}`;
  return { key, endpoint: key, servers: new Set([server]), prefixed: false, policy: SHOW_ALL };
}

/** An endpoint's scope narrowed by a session's filter; views are cached per resulting key. */
export function narrowScope(scope: ViewScope, policy: ViewPolicy): ViewScope {
  if (policy.key === SHOW_ALL.key) return scope;
  return { ...scope, key: `${scope.endpoint}|${policy.key}`, policy };
}

export interface Route {
  readonly server: string;
  readonly original: string;
}

export interface View {
  readonly scope: ViewScope;
  readonly servers: readonly string[];
  /** Every tool the view allows (callable), in config order. */
  readonly tools: readonly JsonObject[];
  /**
   * What tools/list shows: `tools` in list mode; in search mode the search tools and the pinned
   * tools (a session adds those it found).
   */
  readonly listedTools: readonly JsonObject[];
  /** Client-facing definitions by client-facing name, for tools a search found. */
  readonly toolDefinitions: ReadonlyMap<string, JsonObject>;
  /** Client-facing name by `server \0 original name`: how an index hit is named in this view. */
  readonly toolNames: ReadonlyMap<string, string>;
  readonly prompts: readonly JsonObject[];
  readonly resources: readonly JsonObject[];
  readonly resourceTemplates: readonly JsonObject[];
  readonly toolRoutes: ReadonlyMap<string, Route>;
  readonly promptRoutes: ReadonlyMap<string, Route>;
  /** Serialized lists, compared to find which lists a change touched. */
  readonly signatures: Readonly<Record<ListKind, string>>;
}

export interface ViewChange {
  readonly scopeKey: string;
  readonly kinds: readonly ListKind[];
}

/**
 * Capabilities a client of this view is offered: what the servers behind it offer (a server not
 * listed yet, `identity` undefined, counts as offering everything).
 */
export function viewCapabilities(view: View, identity: (server: string) => ServerIdentity | undefined): JsonObject {
  const offered = (cap: string) =>
    view.servers.some((name) => {
      const known = identity(name);
      return known === undefined || known.capabilities[cap] !== undefined;
    });
  const subscribe = view.servers.some((name) => {
    const resources = identity(name)?.capabilities.resources;
    return typeof resources === 'object' && resources !== null && (resources as JsonObject).subscribe === true;
  });
  const capabilities: JsonObject = { logging: {}, tools: { listChanged: true } };
  if (offered('prompts')) capabilities.prompts = { listChanged: true };
  if (offered('resources')) capabilities.resources = { listChanged: true, subscribe };
  if (offered('completions')) capabilities.completions = {};
  // Only task-augmented tools/call is relayed; tasks/list would mix sessions' tasks, so it is not offered.
  const tasks = view.servers.some((name) => identity(name)?.capabilities.tasks !== undefined);
  if (tasks) capabilities.tasks = { cancel: {}, requests: { tools: { call: {} } } };
  return capabilities;
}
