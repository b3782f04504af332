// What a view may show: the predicates and caps a session's filter applies to the catalog, and the
// tool budget. The catalog needs only this shape; session/filter.ts builds it from profiles and queries.

/** A session's view filter as the catalog applies it (implemented by session/filter.ts ViewFilter). */
export interface ViewPolicy {
  /** Canonical: equal keys mean equal views; `all` shows everything. */
  readonly key: string;
  /** How the policy came about, for logs. */
  readonly label: string;
  readonly maxTools: number | undefined;
  readonly maxTokens: number | undefined;
  /**
   * Where a namespaced tool name stands in the budget's order: the index of the first `priority`
   * glob it matches, or Infinity (config order after all prioritized tools).
   */
  priorityOf(name: string): number;
  /** `search`: tools/list shows the search tools and the pinned ones; the rest is found by search. */
  readonly discovery: 'list' | 'search';
  /** A namespaced tool name a search-mode view lists in full (when allowed). */
  isPinned(name: string): boolean;
  allowsServer(server: string): boolean;
  /** `name` is the namespaced name (`fs__read_file`), also where names are served unprefixed. */
  allowsTool(name: string, server: string): boolean;
  allowsPrompt(name: string, server: string): boolean;
  /** A resource URI or a template's `uriTemplate` of `server`. */
  allowsResource(uri: string, server: string): boolean;
}

/** Shows everything: no profile, no query. */
export const SHOW_ALL: ViewPolicy = {
  key: 'all',
  label: 'everything',
  maxTools: undefined,
  maxTokens: undefined,
  priorityOf: () => Infinity,
  discovery: 'list',
  isPinned: () => false,
  allowsServer: () => true,
  allowsTool: () => true,
  allowsPrompt: () => true,
  allowsResource: () => true,
};

/**
 * Whether a view shows a server at all: its prompts, resources, templates, instructions and its
 * own endpoint `/s/<server>/…`. The server rule must admit it, and a server that lists tools must
 * have at least one of them admitted by the tool rule: a view that hides every tool of a server
 * hides the server (a profile narrowed to `fs__read_*` is not meant to show another server's
 * prompts). A server that lists no tools, or has not listed yet (`toolNames` undefined), is
 * judged by the server rule alone. Only the rules count, not the budget: a cap trims a view,
 * it does not say which servers belong in it.
 */
export function showsServer(policy: ViewPolicy, server: string, toolNames: readonly string[] | undefined): boolean {
  if (!policy.allowsServer(server)) return false;
  if (toolNames === undefined || toolNames.length === 0) return true;
  return toolNames.some((name) => policy.allowsTool(name, server));
}

/** One tool of the full catalog, in config order (servers as configured, each server's own order). */
export interface ToolCost {
  readonly name: string;
  readonly server: string;
  /** Estimated model-context tokens of its definition (catalog/token-estimate.ts). */
  readonly tokens: number;
}

export interface BudgetResult {
  /** Names shown, in the order given. */
  readonly kept: readonly string[];
  /** Allowed names the caps left out, in budget order, for one log line per view. */
  readonly leftOut: readonly string[];
  /** Why each was left out: the cap it met (`maxTools 40 reached`, `maxTokens 20000 would be passed`). */
  readonly reasons: ReadonlyMap<string, string>;
  /** Estimated tokens of the kept tools. */
  readonly tokens: number;
}

/**
 * Keeps allowed tools in budget order (the profile's `priority` globs first, then config order)
 * until maxTools or maxTokens would be passed; from the first tool that does not fit on, every
 * allowed tool is left out. A prefix, not a best fit: what a view shows then depends only on
 * order, and a small tool late in the order never displaces an earlier one when a definition grows.
 */
export function applyBudget(policy: ViewPolicy, tools: readonly ToolCost[]): BudgetResult {
  const kept: string[] = [];
  const leftOut: string[] = [];
  const reasons = new Map<string, string>();
  let tokens = 0;
  let stop: string | undefined;
  const allowed = tools.filter((tool) => policy.allowsTool(tool.name, tool.server));
  // A stable sort: within one priority (and for the unprioritized rest), config order stays.
  const ordered = allowed.map((tool, index) => ({ tool, index, rank: policy.priorityOf(tool.name) })).sort((a, b) => a.rank - b.rank || a.index - b.index);
  for (const { tool } of ordered) {
    if (stop === undefined && policy.maxTools !== undefined && kept.length >= policy.maxTools) stop = `maxTools ${policy.maxTools} reached`;
    if (stop === undefined && policy.maxTokens !== undefined && tokens + tool.tokens > policy.maxTokens) {
      stop = `maxTokens ${policy.maxTokens} would be passed (~${tokens} kept, this tool ~${tool.tokens})`;
    }
    if (stop !== undefined) {
      leftOut.push(tool.name);
      reasons.set(tool.name, leftOut.length === 1 ? stop : `after the budget was full (${stop.split(' (')[0]})`);
    } else {
      kept.push(tool.name);
      tokens += tool.tokens;
    }
  }
  return { kept, leftOut, reasons, tokens };
}
