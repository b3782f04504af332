// Every server's lists as last fetched, turned into client-facing views with routes back to their owners.
import type { Logger } from '../log.js';
import type { ServerConfig, SwitchboardConfig } from '../config/types.js';
import { tryStringify, type JsonObject } from '../jsonrpc/messages.js';
import type { ListKind, ServerIdentity, ServerLists } from '../upstream/types.js';
import { assignNames, type NamingRule } from './names.js';
import { ResourceOwners, type Ownership } from './resource-owners.js';
import { SHOW_ALL, applyBudget, type ToolCost, type ViewPolicy } from './view-policy.js';
import { ServerVisibility } from './server-visibility.js';
import { estimateToolTokens } from './token-estimate.js';
import type { CatalogReview, Reviewed } from './review.js';
import { ToolIndex, type IndexedServer, type IndexedTool } from '../discovery/tool-index.js';
import { metaTools } from '../discovery/meta-tools.js';

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

interface ServerEntry {
  readonly config: ServerConfig;
  /**
   * The definition the child behind `raw` ran under. A reload that changed a server keeps its last
   * lists until the restarted child lists again; they are still the old child's, so they are
   * reviewed (and pinned: pins are per command line) under the old definition, not the new one.
   */
  listedBy: ServerConfig;
  /** As the child listed them (serializable items only), before sanitization. */
  raw: ServerLists | undefined;
  /** What clients may see: `raw` after sanitization, withheld entities removed. */
  lists: ServerLists | undefined;
  identity: ServerIdentity | undefined;
  /** The server's instructions after sanitization. */
  instructions: string | undefined;
  /** Listing generation: initial, after each list_changed and restart (the log's `listing`). */
  listing: number;
  review: Reviewed | undefined;
}

interface BuiltIndex {
  readonly tools: ToolIndex;
  /** Index key (the aggregate name) to the tool's server and original name. */
  readonly routes: ReadonlyMap<string, Route>;
}

interface NamedItem {
  readonly emitted: string;
  readonly original: string;
  readonly definition: JsonObject;
}

const KINDS: readonly ListKind[] = ['tools', 'prompts', 'resources', 'resourceTemplates'];

export class Catalog {
  private servers = new Map<string, ServerEntry>();
  /** Prefixed names are assigned across all servers at once, so a filtered view names a tool as the full one does. */
  private prefixedTools = new Map<string, NamedItem[]>();
  private prefixedPrompts = new Map<string, NamedItem[]>();
  private readonly views = new Map<string, { view: View; refs: number }>();
  /** Estimated tokens per client-facing definition, computed once per listing (budgets, `tools`, `check`). */
  private readonly tokenCache = new WeakMap<JsonObject, number>();
  private readonly resourceOwners: ResourceOwners;
  /** The search index over every tool (search-mode views); one per catalog, never per session. */
  private index: BuiltIndex | undefined;
  private indexPending = false;
  /** Attached search-mode views: while there are any, the index follows every listing. */
  private searchViews = 0;
  /** Aggregate name by `server \0 original`. */
  private prefixedNames = new Map<string, string>();
  private readonly visibility = new ServerVisibility();

  constructor(
    private config: SwitchboardConfig,
    private readonly log: Logger,
    /** The sanitizer over the whole catalog; undefined shows lists as listed (only for tools that need no policy). */
    private readonly review: CatalogReview | undefined = undefined,
  ) {
    this.resourceOwners = new ResourceOwners(log);
    for (const server of config.servers) if (!server.disabled) this.servers.set(server.name, emptyEntry(server));
  }

  /** Sanitization outcome of a server's last listing (withheld entities, findings, suspect). */
  reviewOf(server: string): Reviewed | undefined {
    return this.servers.get(server)?.review;
  }

  /** Runs the sanitizer again over everything (the pins changed: an approval); returns views that changed. */
  rereview(): ViewChange[] {
    this.applyReview();
    this.rebuildIndexes();
    return this.refreshViews(() => true);
  }

  serverNames(): string[] {
    return [...this.servers.keys()];
  }

  hasServer(name: string): boolean {
    return this.servers.has(name);
  }

  identity(server: string): ServerIdentity | undefined {
    return this.servers.get(server)?.identity;
  }

  /** Records a server's fresh lists; returns each attached view whose lists changed, and how. */
  update(server: string, lists: ServerLists, identity: ServerIdentity | undefined): ViewChange[] {
    return this.updateMany([{ server, lists, identity }]);
  }

  /**
   * Records several servers' fresh lists at once: one review of the catalog for all of them (a
   * start-up of many servers would otherwise review everything once per server).
   */
  updateMany(listings: ReadonlyArray<{ readonly server: string; readonly lists: ServerLists; readonly identity: ServerIdentity | undefined }>): ViewChange[] {
    let recorded = false;
    for (const { server, lists, identity } of listings) {
      const entry = this.servers.get(server);
      if (entry === undefined) continue;
      entry.raw = this.serializable(server, lists);
      entry.listedBy = entry.config;
      entry.identity = identity;
      entry.listing += 1;
      recorded = true;
    }
    if (!recorded) return [];
    // One server's names can change another's verdicts (cross-server rules), so all are reviewed.
    this.applyReview();
    this.rebuildIndexes();
    return this.refreshViews(() => true);
  }

  private applyReview(): void {
    const listed = [...this.servers.values()].filter((entry) => entry.raw !== undefined);
    if (this.review === undefined) {
      for (const entry of listed) [entry.lists, entry.instructions] = [entry.raw, entry.identity?.instructions];
      return;
    }
    const reviewed = this.review.run(
      listed.map((entry) => ({ config: entry.listedBy, lists: entry.raw as ServerLists, instructions: entry.identity?.instructions, listing: entry.listing })),
      this.config.servers,
    );
    for (const entry of listed) {
      const outcome = reviewed.get(entry.config.name);
      entry.review = outcome;
      entry.lists = outcome?.lists;
      entry.instructions = outcome?.instructions;
    }
  }

  /**
   * Takes a reloaded config: servers added (not listed yet), removed (gone from every view at
   * once) or changed (their last lists stay until the restarted child lists again), and the
   * namespace rules. Returns each attached view whose lists changed.
   */
  reconfigure(config: SwitchboardConfig): ViewChange[] {
    this.config = config;
    const next = new Map<string, ServerEntry>();
    for (const server of config.servers) {
      if (server.disabled) continue;
      const known = this.servers.get(server.name);
      next.set(server.name, known === undefined ? emptyEntry(server) : { ...known, config: server });
    }
    this.servers = next;
    this.applyReview();
    this.rebuildIndexes();
    return this.refreshViews(() => true);
  }

  /** Moves one session's hold from one view to another; returns the list kinds that differ between them. */
  reattach(from: ViewScope, to: ViewScope): ListKind[] {
    const before = this.current(from);
    const after = this.attach(to);
    this.detach(from);
    return KINDS.filter((kind) => before.signatures[kind] !== after.signatures[kind]);
  }

  private refreshViews(affected: (scope: ViewScope) => boolean): ViewChange[] {
    const changes: ViewChange[] = [];
    for (const [key, held] of this.views) {
      if (!affected(held.view.scope)) continue;
      const next = this.build(held.view.scope);
      const kinds = KINDS.filter((kind) => next.signatures[kind] !== held.view.signatures[kind]);
      held.view = next;
      if (kinds.length > 0) changes.push({ scopeKey: key, kinds });
    }
    return changes;
  }

  /** The view for a scope, kept up to date until every `attach` has its `detach`. */
  attach(scope: ViewScope): View {
    const held = this.views.get(scope.key);
    if (held !== undefined) {
      held.refs += 1;
      return held.view;
    }
    const view = this.build(scope);
    this.views.set(scope.key, { view, refs: 1 });
    if (scope.policy.discovery === 'search') {
      this.searchViews += 1;
      if (this.index === undefined) this.scheduleIndex();
    }
    return view;
  }

  detach(scope: ViewScope): void {
    const held = this.views.get(scope.key);
    if (held === undefined) return;
    held.refs -= 1;
    if (held.refs > 0) return;
    this.views.delete(scope.key);
    if (scope.policy.discovery === 'search') this.searchViews -= 1;
  }

  /** The current view of an attached scope (a session reads this on every list and call). */
  current(scope: ViewScope): View {
    return this.views.get(scope.key)?.view ?? this.build(scope);
  }

  /**
   * The server that owns a URI within a view (resource-owners.ts); undefined for a URI no server
   * owns, one outside the view's resource rules, or one the sanitizer withheld.
   */
  resourceOwner(view: View, uri: string): string | undefined {
    const owner = this.ownership(view, uri);
    return owner !== undefined && 'server' in owner ? owner.server : undefined;
  }

  /** True when a URI of the view is a resource the sanitizer withheld, or lies under a withheld template. */
  withheldResource(view: View, uri: string): boolean {
    const owner = this.ownership(view, uri);
    return owner !== undefined && 'withheldBy' in owner;
  }

  private ownership(view: View, uri: string): Ownership {
    const owner = this.resourceOwners.owner(view.servers, uri, (name) => this.servers.get(name)?.identity?.capabilities.resources !== undefined);
    if (owner === undefined) return undefined;
    // A URI outside the view's resource rules is unknown to it, like one no server owns.
    return view.scope.policy.allowsResource(uri, 'server' in owner ? owner.server : owner.withheldBy) ? owner : undefined;
  }

  /** Capabilities a client of this view is offered: what the servers behind it offer (unknown counts as offered). */
  capabilities(view: View): JsonObject {
    const offered = (cap: string) =>
      view.servers.some((name) => {
        const identity = this.servers.get(name)?.identity;
        return identity === undefined || identity.capabilities[cap] !== undefined;
      });
    const subscribe = view.servers.some((name) => {
      const resources = this.servers.get(name)?.identity?.capabilities.resources;
      return typeof resources === 'object' && resources !== null && (resources as JsonObject).subscribe === true;
    });
    const capabilities: JsonObject = { logging: {}, tools: { listChanged: true } };
    if (offered('prompts')) capabilities.prompts = { listChanged: true };
    if (offered('resources')) capabilities.resources = { listChanged: true, subscribe };
    if (offered('completions')) capabilities.completions = {};
    // Only task-augmented tools/call is relayed; tasks/list would mix sessions' tasks, so it is not offered.
    const tasks = view.servers.some((name) => this.servers.get(name)?.identity?.capabilities.tasks !== undefined);
    if (tasks) capabilities.tasks = { cancel: {}, requests: { tools: { call: {} } } };
    return capabilities;
  }

  /** The servers' own instructions, each under its name, so the model knows which server said what. */
  instructions(view: View): string | undefined {
    const parts: string[] = [];
    for (const name of view.servers) {
      const text = this.servers.get(name)?.instructions;
      if (text === undefined || text.trim() === '') continue;
      parts.push(view.scope.prefixed ? `## ${name}\n${text}` : text);
    }
    return parts.length === 0 ? undefined : parts.join('\n\n');
  }

  /**
   * Whether a view shows `server` at all (view-policy.ts showsServer), judged on the tools it last
   * listed: a view whose tool rule admits none of them shows none of its prompts and resources,
   * and its `/s/<server>/…` endpoint is unknown to it.
   */
  shows(policy: ViewPolicy, server: string): boolean {
    return this.servers.has(server) && this.visibility.shows(policy, server);
  }

  private rebuildIndexes(): void {
    const { separator, maxLength } = this.config.namespace;
    const takenTools = new Set<string>();
    const takenPrompts = new Set<string>();
    this.prefixedTools = new Map();
    this.prefixedPrompts = new Map();
    const prefixes = [...this.servers.values()].map((entry) => entry.config.alias + separator);
    for (const [name, entry] of this.servers) {
      const prefix = entry.config.alias + separator;
      const foreign = prefixes.filter((other) => other !== prefix && other.startsWith(prefix));
      const rule: NamingRule = { prefix, maxLength, ...(foreign.length > 0 ? { foreign: { prefixes: foreign, separator } } : {}) };
      const lists = entry.lists;
      if (lists === undefined) continue;
      this.prefixedTools.set(name, this.nameItems(name, rule, visibleTools(lists.tools, entry.identity), takenTools));
      this.prefixedPrompts.set(name, this.nameItems(name, rule, lists.prompts, takenPrompts));
    }
    const sources = [...this.servers].flatMap(([name, entry]) => (entry.lists === undefined ? [] : [{ name, lists: entry.lists, withheld: entry.review?.withheld ?? [] }]));
    this.resourceOwners.rebuild(sources);
    this.prefixedNames = new Map();
    for (const [server, items] of this.prefixedTools) for (const item of items) this.prefixedNames.set(`${server}\u0000${item.original}`, item.emitted);
    this.visibility.relist(
      [...this.servers].flatMap(([server, entry]) =>
        entry.raw === undefined
          ? []
          : [{ server, prefix: entry.config.alias + separator, listed: entry.raw.tools.flatMap((t) => (typeof t.name === 'string' ? [t.name] : [])), served: this.prefixedTools.get(server) ?? [] }],
      ),
    );
    // Only once something searches: a catalog nobody searches needs no index.
    if (this.index !== undefined || this.searchViews > 0) this.scheduleIndex();
  }

  /** Items too deeply nested to serialize would break every list they are in; they are left out, loudly. */
  private serializable(server: string, lists: ServerLists): ServerLists {
    const keep = (kind: ListKind) =>
      lists[kind].filter((item) => {
        if (tryStringify(item) !== undefined) return true;
        this.log.warn({ server, kind, name: item.name ?? item.uri }, 'left out of the catalog: cannot be serialized');
        return false;
      });
    return { tools: keep('tools'), prompts: keep('prompts'), resources: keep('resources'), resourceTemplates: keep('resourceTemplates') };
  }

  private nameItems(server: string, rule: NamingRule, items: readonly JsonObject[], taken: Set<string>): NamedItem[] {
    const byOriginal = new Map<string, JsonObject>();
    for (const item of items) if (typeof item.name === 'string' && !byOriginal.has(item.name)) byOriginal.set(item.name, item);
    const originals = items.flatMap((item) => (typeof item.name === 'string' ? [item.name] : []));
    const names = assignNames(rule, originals, taken, (original, reason) =>
      this.log.warn({ server, name: original, reason }, 'left out of the catalog'),
    );
    const named: NamedItem[] = [];
    for (const [emitted, original] of names) {
      const definition = byOriginal.get(original) as JsonObject;
      named.push({ emitted, original, definition: clientDefinition(definition, emitted, original, rule) });
    }
    return named;
  }

  /** Estimated model-context tokens of a client-facing tool definition, cached per definition. */
  tokensOf(definition: JsonObject): number {
    let tokens = this.tokenCache.get(definition);
    if (tokens === undefined) this.tokenCache.set(definition, (tokens = estimateToolTokens(definition)));
    return tokens;
  }

  private build(scope: ViewScope): View {
    const policy = scope.policy;
    const servers = [...this.servers.keys()].filter((name) => (scope.servers === undefined || scope.servers.has(name)) && this.shows(policy, name));
    const tools: JsonObject[] = [];
    const prompts: JsonObject[] = [];
    const resources: JsonObject[] = [];
    const resourceTemplates: JsonObject[] = [];
    const toolRoutes = new Map<string, Route>();
    const toolNames = new Map<string, string>();
    const promptRoutes = new Map<string, Route>();
    const allowed = policy === SHOW_ALL ? undefined : this.allowedTools(servers, policy, scope);
    for (const server of servers) {
      const entry = this.servers.get(server);
      if (entry?.lists === undefined) continue;
      const prefixedTools = this.prefixedTools.get(server) ?? [];
      const prefixedPrompts = this.prefixedPrompts.get(server) ?? [];
      const [namedTools, namedPrompts] = scope.prefixed
        ? [prefixedTools, prefixedPrompts]
        : [
            this.nameItems(server, { prefix: '', maxLength: this.config.namespace.maxLength }, visibleTools(entry.lists.tools, entry.identity), new Set()),
            this.nameItems(server, { prefix: '', maxLength: this.config.namespace.maxLength }, entry.lists.prompts, new Set()),
          ];
      // Filters speak namespaced names everywhere, so one profile means the same on /mcp and /s/<server>/mcp.
      const toolName = scope.prefixed ? undefined : namespacedNames(prefixedTools);
      const promptName = scope.prefixed ? undefined : namespacedNames(prefixedPrompts);
      for (const item of namedTools) {
        if (allowed !== undefined && !allowed.has(toolName?.get(item.original) ?? item.emitted)) continue;
        tools.push(item.definition);
        toolRoutes.set(item.emitted, { server, original: item.original });
        toolNames.set(`${server}\u0000${item.original}`, item.emitted);
      }
      for (const item of namedPrompts) {
        if (policy !== SHOW_ALL && !policy.allowsPrompt(promptName?.get(item.original) ?? item.emitted, server)) continue;
        prompts.push(item.definition);
        promptRoutes.set(item.emitted, { server, original: item.original });
      }
      if (policy === SHOW_ALL) {
        resources.push(...entry.lists.resources);
        resourceTemplates.push(...entry.lists.resourceTemplates);
      } else {
        for (const resource of entry.lists.resources) if (typeof resource.uri === 'string' && policy.allowsResource(resource.uri, server)) resources.push(resource);
        for (const template of entry.lists.resourceTemplates) {
          if (typeof template.uriTemplate === 'string' && policy.allowsResource(template.uriTemplate, server)) resourceTemplates.push(template);
        }
      }
    }
    const search = policy.discovery === 'search';
    const toolDefinitions = new Map<string, JsonObject>();
    for (const tool of tools) toolDefinitions.set(tool.name as string, tool);
    const listedTools = search ? this.searchListing(servers, tools, toolRoutes, policy) : tools;
    const signatures = {
      tools: JSON.stringify(listedTools),
      prompts: JSON.stringify(prompts),
      resources: JSON.stringify(resources),
      resourceTemplates: JSON.stringify(resourceTemplates),
    };
    return { scope, servers, tools, listedTools, toolDefinitions, toolNames, prompts, resources, resourceTemplates, toolRoutes, promptRoutes, signatures };
  }

  /** A search-mode listing: find and call, then the pinned tools the view allows. */
  private searchListing(servers: readonly string[], tools: readonly JsonObject[], routes: ReadonlyMap<string, Route>, policy: ViewPolicy): JsonObject[] {
    const summaries = servers.map((server) => ({ server, toolNames: [] as string[] }));
    const byServer = new Map(summaries.map((summary) => [summary.server, summary.toolNames]));
    const pinned: JsonObject[] = [];
    for (const tool of tools) {
      const route = routes.get(tool.name as string);
      if (route === undefined) continue;
      byServer.get(route.server)?.push(route.original);
      const namespaced = this.namespacedName(route.server, route.original);
      if (namespaced !== undefined && policy.isPinned(namespaced)) pinned.push(tool);
    }
    const shown = summaries.filter((summary) => summary.toolNames.length > 0).map((summary) => ({ name: summary.server, toolNames: summary.toolNames }));
    return [...metaTools(shown, tools.length), ...pinned];
  }

  /** The aggregate endpoint's name of a server's tool (profiles and pins speak these everywhere). */
  private namespacedName(server: string, original: string): string | undefined {
    return this.prefixedNames.get(`${server}\u0000${original}`);
  }

  /**
   * The view's best tools for a request in a person's words: one index over the whole catalog,
   * the view applied as a filter, so no session ever finds a tool outside its view.
   */
  search(view: View, query: string, options: { readonly limit: number; readonly server?: string | undefined }): Array<{ readonly name: string; readonly server: string; readonly definition: JsonObject; readonly score: number }> {
    const index = this.searchIndex();
    const inView = (key: string): string | undefined => {
      const route = index.routes.get(key);
      return route === undefined ? undefined : view.toolNames.get(`${route.server}\u0000${route.original}`);
    };
    const hits = index.tools.search(query, { limit: options.limit, server: options.server, allow: (key) => inView(key) !== undefined });
    const out: Array<{ name: string; server: string; definition: JsonObject; score: number }> = [];
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
   * The index as of the last listing. Rebuilt in the background after lists change (tools/list
   * never waits for it); a search before the first build builds it at once. Until a rebuild
   * lands, searches use the previous index, filtered by the current view.
   */
  private searchIndex(): BuiltIndex {
    if (this.index === undefined) this.index = this.buildIndex();
    return this.index;
  }

  /** Builds the index now when a rebuild is due (a search that waited for servers to list must find their tools). */
  refreshIndex(): void {
    if (!this.indexPending) return;
    this.indexPending = false;
    this.index = this.buildIndex();
  }

  private scheduleIndex(): void {
    if (this.indexPending) return;
    this.indexPending = true;
    setImmediate(() => {
      // refreshIndex built it meanwhile.
      if (!this.indexPending) return;
      this.indexPending = false;
      this.index = this.buildIndex();
    }).unref();
  }

  private buildIndex(): BuiltIndex {
    const tools: IndexedTool[] = [];
    const routes = new Map<string, Route>();
    const servers = new Map<string, IndexedServer>();
    for (const [server, items] of this.prefixedTools) {
      const entry = this.servers.get(server);
      servers.set(server, { name: server, alias: entry?.config.alias ?? server, instructions: entry?.instructions });
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

  /** Namespaced names of the tools a policy lets through, after its tool budget (config order). */
  private allowedTools(servers: readonly string[], policy: ViewPolicy, scope: ViewScope): Set<string> {
    const costs: ToolCost[] = [];
    for (const server of servers) {
      for (const item of this.prefixedTools.get(server) ?? []) costs.push({ name: item.emitted, server, tokens: this.tokensOf(item.definition) });
    }
    const budget = applyBudget(policy, costs);
    if (budget.leftOut.length > 0) {
      this.log.info(
        // Named, but bounded: a view of thousands of tools must not make a log line of thousands of names.
        { view: scope.key, policy: policy.label, kept: budget.kept.length, tokens: budget.tokens, leftOutCount: budget.leftOut.length, leftOut: budget.leftOut.slice(0, 50), reason: budget.reasons.get(budget.leftOut[0] ?? '') },
        'tool budget reached: tools left out of a view',
      );
    }
    return new Set(budget.kept);
  }
}

function emptyEntry(config: ServerConfig): ServerEntry {
  return { config, listedBy: config, raw: undefined, lists: undefined, identity: undefined, instructions: undefined, listing: 0, review: undefined };
}

function namespacedNames(items: readonly NamedItem[]): Map<string, string> {
  return new Map(items.map((item) => [item.original, item.emitted]));
}

/**
 * Tools a client can call through us. A task-only tool of a server that does not declare `tasks`
 * could never be called (tasks.mdx: clients MUST NOT task-augment without the capability): hidden.
 */
function visibleTools(tools: readonly JsonObject[], identity: ServerIdentity | undefined): readonly JsonObject[] {
  if (identity?.capabilities.tasks !== undefined) return tools;
  return tools.filter((tool) => {
    const execution = tool.execution;
    return !(typeof execution === 'object' && execution !== null && (execution as JsonObject).taskSupport === 'required');
  });
}

/**
 * The definition a client sees: the server's JSON with only `name` replaced (schemas, `_meta`,
 * annotations and icons untouched). When the name was more than prefixed, the original stays
 * readable in `title` unless the server set one.
 */
function clientDefinition(definition: JsonObject, emitted: string, original: string, rule: NamingRule): JsonObject {
  if (emitted === original) return definition;
  const renamed: JsonObject = { ...definition, name: emitted };
  if (emitted !== rule.prefix + original && renamed.title === undefined) renamed.title = original;
  return renamed;
}
