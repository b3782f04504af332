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
  discovery: 'list',
  isPinned: () => false,
  allowsServer: () => true,
  allowsTool: () => true,
  allowsPrompt: () => true,
  allowsResource: () => true,
};

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
  /** Allowed names the caps left out, in the order given, for one log line per view. */
  readonly leftOut: readonly string[];
  /** Estimated tokens of the kept tools. */
  readonly tokens: number;
}

/**
 * Keeps allowed tools in the order given until maxTools or maxTokens would be passed; from the
 * first tool that does not fit on, every allowed tool is left out. A prefix, not a best fit: what
 * a view shows then depends only on order, and a small tool late in the config never displaces
 * an earlier one when a definition grows.
 */
export function applyBudget(policy: ViewPolicy, tools: readonly ToolCost[]): BudgetResult {
  const kept: string[] = [];
  const leftOut: string[] = [];
  let tokens = 0;
  for (const tool of tools) {
    if (!policy.allowsTool(tool.name, tool.server)) continue;
    const full =
      leftOut.length > 0 ||
      (policy.maxTools !== undefined && kept.length >= policy.maxTools) ||
      (policy.maxTokens !== undefined && tokens + tool.tokens > policy.maxTokens);
    if (full) leftOut.push(tool.name);
    else {
      kept.push(tool.name);
      tokens += tool.tokens;
    }
  }
  return { kept, leftOut, tokens };
}
