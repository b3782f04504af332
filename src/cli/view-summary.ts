// What a session of one profile sees of the catalog: its tools with estimated tokens, per-server totals, and what the budget left out.
import type { JsonObject } from '../jsonrpc/messages.js';
import { AGGREGATE_SCOPE, narrowScope, type View } from '../catalog/view.js';
import { applyBudget, type ToolCost } from '../catalog/view-policy.js';
import type { SwitchboardConfig } from '../config/types.js';
import { RESERVED_ALIAS } from '../config/schema.js';
import { isMetaTool } from '../router/search-tools.js';
import { resolveViewFilter } from '../session/filter.js';
import type { SwitchboardCore } from '../switchboard.js';
import { UsageError } from './flags.js';

export interface ToolRow {
  /** The name a client calls it by (`alias__name`). */
  readonly name: string;
  readonly server: string;
  /** The name the server itself uses. */
  readonly original: string;
  /** Estimated model-context tokens of the definition a client gets (catalog/token-estimate.ts). */
  readonly tokens: number;
  readonly description: string | undefined;
}

export interface Totals {
  readonly tools: number;
  readonly tokens: number;
}

export interface ViewSummary {
  /** The profile, or undefined for the unfiltered view (no profile, no query). */
  readonly profile: string | undefined;
  readonly maxTools: number | undefined;
  readonly maxTokens: number | undefined;
  /** `search`: the model is given the search tools (and pinned ones), the rest is found by search. */
  readonly discovery: 'list' | 'search';
  /**
   * What tools/list gives the model, in its order: in list mode every tool of the view (servers as
   * configured, each server's own order); in search mode switchboard__find_tools and
   * switchboard__call_tool (server `switchboard`), then the pinned tools.
   */
  readonly tools: readonly ToolRow[];
  /** Of `tools`: what the model's context pays for the list. */
  readonly total: Totals;
  /** Every server the view shows, in config order, with the tools of it a session can call. */
  readonly servers: ReadonlyMap<string, Totals>;
  /** Every tool a session can call: `total` in list mode; in search mode, what find_tools can reach. */
  readonly reachable: Totals;
  /** Tools the profile allows but its maxTools/maxTokens budget left out, in budget order. */
  readonly leftOut: readonly string[];
  /** Why each was left out (the cap it met). */
  readonly leftOutReasons: ReadonlyMap<string, string>;
}

/** Refuses an unknown profile before any server is started: a one-line user error naming what exists. */
export function checkProfile(config: SwitchboardConfig, profile: string | undefined): void {
  if (profile === undefined || config.profiles[profile] !== undefined) return;
  const known = Object.keys(config.profiles);
  const hint = known.length === 0 ? 'no profiles are configured' : `configured: ${known.join(', ')}`;
  throw new UsageError(`unknown profile "${profile}" in ${config.file} (${hint})`);
}

/** The view as a session on `/mcp?profile=<profile>` would get it, built the way the router builds it. */
export function summarizeView(core: SwitchboardCore, profile: string | undefined): ViewSummary {
  const resolved = resolveViewFilter(undefined, new URLSearchParams(profile === undefined ? {} : { profile }), core.config);
  if (!resolved.ok) throw new UsageError(resolved.error.message);
  const filter = resolved.filter;
  const view = core.catalog.current(narrowScope(AGGREGATE_SCOPE, filter));
  const callable = rows(core, view, view.tools);
  const servers = new Map<string, Totals>(view.servers.map((server) => [server, { tools: 0, tokens: 0 }]));
  for (const tool of callable) {
    const sum = servers.get(tool.server) ?? { tools: 0, tokens: 0 };
    servers.set(tool.server, { tools: sum.tools + 1, tokens: sum.tokens + tool.tokens });
  }
  // A search-mode session is listed view.listedTools, not view.tools: that is what costs context.
  const tools = view.listedTools === view.tools ? callable : rows(core, view, view.listedTools);
  // The catalog applies the budget without saying what it dropped; the same prefix rule over the
  // full list, in the same order, names it.
  const everything = core.catalog.current(AGGREGATE_SCOPE);
  const costs: ToolCost[] = rows(core, everything, everything.tools);
  const { leftOut, reasons } = applyBudget(filter, costs);
  return {
    profile,
    maxTools: filter.maxTools,
    maxTokens: filter.maxTokens,
    discovery: filter.discovery,
    tools,
    total: totalOf(tools),
    servers,
    reachable: totalOf(callable),
    leftOut,
    leftOutReasons: reasons,
  };
}

/** `maxTools 3, maxTokens 2000`, or undefined when the view has no budget. */
export function describeCaps(view: ViewSummary): string | undefined {
  const parts = [
    ...(view.maxTools === undefined ? [] : [`maxTools ${view.maxTools}`]),
    ...(view.maxTokens === undefined ? [] : [`maxTokens ${view.maxTokens}`]),
  ];
  return parts.length === 0 ? undefined : parts.join(', ');
}

const totalOf = (tools: readonly ToolRow[]): Totals => ({ tools: tools.length, tokens: tools.reduce((sum, tool) => sum + tool.tokens, 0) });

/** Rows of `definitions` (a view's tools or its listing); the search tools are the proxy's own. */
function rows(core: SwitchboardCore, view: View, definitions: readonly JsonObject[]): ToolRow[] {
  return definitions.flatMap((definition: JsonObject) => {
    const name = definition.name;
    if (typeof name !== 'string') return [];
    // find_tools and call_tool are named `switchboard__…` whatever namespace.separator is.
    const route = isMetaTool(name) ? { server: RESERVED_ALIAS, original: name.slice(`${RESERVED_ALIAS}__`.length) } : view.toolRoutes.get(name);
    if (route === undefined) return [];
    const description = typeof definition.description === 'string' ? definition.description : undefined;
    return [{ name, server: route.server, original: route.original, tokens: core.catalog.tokensOf(definition), description }];
  });
}
