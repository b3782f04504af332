// `switchboard tools --search QUERY`: what switchboard__find_tools would answer a session of that
// profile, with the scores that ranked it.
import { AGGREGATE_SCOPE, narrowScope } from '../catalog/view.js';
import { resolveViewFilter } from '../session/filter.js';
import type { SwitchboardCore } from '../switchboard.js';
import { findTools, type FoundTool } from '../router/search-tools.js';
import { UsageError } from './flags.js';
import { firstLine, printable, table, terminalWidth } from './render.js';

export interface SearchReport {
  readonly query: string;
  readonly profile: string | undefined;
  readonly tools: ReadonlyArray<FoundTool & { readonly score: number }>;
}

/** Runs the search as find_tools does, on the view of `/mcp?profile=<profile>`. */
export function searchView(core: SwitchboardCore, profile: string | undefined, query: string, limit: number): SearchReport {
  const resolved = resolveViewFilter(undefined, new URLSearchParams(profile === undefined ? {} : { profile }), core.config);
  if (!resolved.ok) throw new UsageError(resolved.error.message);
  const view = core.catalog.current(narrowScope(AGGREGATE_SCOPE, resolved.filter));
  // A tool's best score in any step searched (the whole request, or one of its clauses): find_tools
  // does not show scores to the model.
  const scores = new Map<string, number>();
  const found = findTools(core.catalog, view, { query, limit }, (hit) => scores.set(hit.name, Math.max(scores.get(hit.name) ?? 0, hit.score)));
  return { query, profile, tools: found.map((tool) => ({ ...tool, score: Math.round((scores.get(tool.name) ?? 0) * 100) / 100 })) };
}

export function searchText(report: SearchReport): string {
  const where = report.profile === undefined ? 'every tool' : `profile ${report.profile}`;
  if (report.tools.length === 0) return `no tool of ${where} matches ${JSON.stringify(report.query)}\n`;
  const lines = table(
    [{ header: 'TOOL' }, { header: 'SERVER', max: 16 }, { header: 'SCORE', align: 'right' }, { header: 'DESCRIPTION', fill: true }],
    report.tools.map((tool) => [printable(tool.name), printable(tool.server), tool.score.toFixed(2), firstLine(tool.description)]),
    terminalWidth(),
  );
  return `${lines.join('\n')}\n\n${report.tools.length} best matches of ${where} for ${JSON.stringify(report.query)}\n`;
}

/** `--limit N`: as find_tools' `limit`, 1 to 20. */
export function searchLimit(value: string | undefined): number {
  if (value === undefined) return 5;
  const limit = Number(value);
  if (!Number.isInteger(limit) || limit < 1 || limit > 20) throw new UsageError(`--limit expects a number from 1 to 20, got "${value}"`);
  return limit;
}
