// What a session of one profile sees of the catalog: its tools with estimated tokens, per-server totals, and what the budget left out.
import type { JsonObject } from '../jsonrpc/messages.js';
import { AGGREGATE_SCOPE, narrowScope, type View } from '../catalog/catalog.js';
import { applyBudget, type ToolCost } from '../catalog/view-policy.js';
import type { SwitchboardConfig } from '../config/types.js';
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
  /** In the order clients get them: servers as configured, each server's own order. */
  readonly tools: readonly ToolRow[];
  /** Every server the view shows, in config order, with what it contributes. */
  readonly servers: ReadonlyMap<string, Totals>;
  readonly total: Totals;
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
  const tools = rows(core, view);
  const servers = new Map<string, Totals>(view.servers.map((server) => [server, { tools: 0, tokens: 0 }]));
  for (const tool of tools) {
    const sum = servers.get(tool.server) ?? { tools: 0, tokens: 0 };
    servers.set(tool.server, { tools: sum.tools + 1, tokens: sum.tokens + tool.tokens });
  }
  // The catalog applies the budget without saying what it dropped; the same prefix rule over the
  // full list, in the same order, names it.
  const costs: ToolCost[] = rows(core, core.catalog.current(AGGREGATE_SCOPE));
  const { leftOut, reasons } = applyBudget(filter, costs);
  return {
    profile,
    maxTools: filter.maxTools,
    maxTokens: filter.maxTokens,
    tools,
    servers,
    total: { tools: tools.length, tokens: tools.reduce((sum, tool) => sum + tool.tokens, 0) },
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

function rows(core: SwitchboardCore, view: View): ToolRow[] {
  return view.tools.flatMap((definition: JsonObject) => {
    const name = definition.name;
    const route = typeof name === 'string' ? view.toolRoutes.get(name) : undefined;
    if (typeof name !== 'string' || route === undefined) return [];
    const description = typeof definition.description === 'string' ? definition.description : undefined;
    return [{ name, server: route.server, original: route.original, tokens: core.catalog.tokensOf(definition), description }];
  });
}
