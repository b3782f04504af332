// Every server's lists as last fetched, turned into client-facing views with routes back to their owners.
import type { Logger } from '../log.js';
import type { ServerConfig, SwitchboardConfig } from '../config/types.js';
import { tryStringify, type JsonObject } from '../jsonrpc/messages.js';
import type { ListKind, ServerIdentity, ServerLists } from '../upstream/types.js';
import type { NamingRule } from './names.js';
import { nameItems, namespacedNames, visibleTools, type NamedItem } from './named-items.js';
import { ResourceOwners, type Ownership } from './resource-owners.js';
import { SHOW_ALL, applyBudget, type ToolCost, type ViewPolicy } from './view-policy.js';
import { ServerVisibility } from './server-visibility.js';
import { estimateToolTokens } from './token-estimate.js';
import type { CatalogReview, Reviewed } from './review.js';
import { CatalogSearch, searchListing, type SearchHit, type SearchOptions } from './catalog-search.js';
import { viewCapabilities, type Route, type View, type ViewChange, type ViewScope } from './view.js';

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
  private readonly searchIndex = new CatalogSearch(() => ({
    tools: this.prefixedTools,
    server: (name) => {
      const entry = this.servers.get(name);
      return { alias: entry?.config.alias ?? name, instructions: entry?.instructions };
    },
  }));
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

  /** How many listings of `server` the catalog took in (0 before its first): grows with each list_changed and restart. */
  listingOf(server: string): number {
    return this.servers.get(server)?.listing ?? 0;
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
    this.searchIndex.viewAttached(scope);
    return view;
  }

  detach(scope: ViewScope): void {
    const held = this.views.get(scope.key);
    if (held === undefined) return;
    held.refs -= 1;
    if (held.refs > 0) return;
    this.views.delete(scope.key);
    this.searchIndex.viewDetached(scope);
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

  /** Capabilities a client of this view is offered (view.ts viewCapabilities). */
  capabilities(view: View): JsonObject {
    return viewCapabilities(view, (name) => this.servers.get(name)?.identity);
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
      this.prefixedTools.set(name, nameItems(this.log, name, rule, visibleTools(lists.tools, entry.identity), takenTools));
      this.prefixedPrompts.set(name, nameItems(this.log, name, rule, lists.prompts, takenPrompts));
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
    this.searchIndex.listingsChanged();
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
            nameItems(this.log, server, { prefix: '', maxLength: this.config.namespace.maxLength }, visibleTools(entry.lists.tools, entry.identity), new Set()),
            nameItems(this.log, server, { prefix: '', maxLength: this.config.namespace.maxLength }, entry.lists.prompts, new Set()),
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
    const unlisted = (server: string): boolean => this.servers.get(server)?.raw === undefined;
    const listedTools = search ? searchListing(servers, tools, toolRoutes, policy, (server, original) => this.prefixedNames.get(`${server}\u0000${original}`), unlisted) : tools;
    const signatures = {
      tools: JSON.stringify(listedTools),
      prompts: JSON.stringify(prompts),
      resources: JSON.stringify(resources),
      resourceTemplates: JSON.stringify(resourceTemplates),
    };
    return { scope, servers, tools, listedTools, toolDefinitions, toolNames, prompts, resources, resourceTemplates, toolRoutes, promptRoutes, signatures };
  }

  /** The view's best tools for a request in a person's words (catalog-search.ts). */
  search(view: View, query: string, options: SearchOptions): SearchHit[] {
    return this.searchIndex.search(view, query, options);
  }

  /** Builds the search index now when a rebuild is due (a search that waited for servers to list must find their tools). */
  refreshIndex(): void {
    this.searchIndex.refresh();
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

