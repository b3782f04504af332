// `switchboard tools`: the aggregated tool list one profile's sessions get, with estimated tokens, from servers started just to list them.
import { parseArgs } from 'node:util';
import { loadConfigAsServed } from './unit-state.js';
import { PROBE_HELP, PROBE_OPTIONS, UsageError, timeoutMs } from './flags.js';
import { searchLimit, searchText, searchView } from './tools-search.js';
import type { SwitchboardConfig } from '../config/types.js';
import { INTERRUPTED_EXIT, describeFailure, probe, type ServerOutcome } from './probe.js';
import { firstLine, printable, table, terminalWidth, truncate } from './render.js';
import { checkProfile, describeCaps, summarizeView, type ViewSummary } from './view-summary.js';
import type { SwitchboardCore } from '../switchboard.js';
import { FIND_TOOLS } from '../search/meta-tools.js';

export const TOOLS_OPTIONS = { ...PROBE_OPTIONS, profile: { type: 'string' }, search: { type: 'string' }, limit: { type: 'string' } } as const;

export const TOOLS_HELP = `Usage: switchboard tools [-c FILE] [--profile P] [--search QUERY [--limit N]] [--json] [--timeout SECS]

Starts every enabled server (nothing listens on HTTP), prints the tools a session of that
profile gets, each with its server and estimated tokens, the totals per server, and the tools
the profile's maxTools/maxTokens budget left out, and the tools the sanitizer withheld; then
stops every server. Tools are shown sanitized, as clients get them. For a search-mode profile
the list is what the model is given (the search tools and pinned tools) and the per-server
totals are what switchboard__find_tools can reach.
Without --profile: every tool; no profile is applied, not even defaultProfile.

Exit codes: 0 all servers started, 1 a server failed (named on stderr), 2 bad flag or config.

With --search QUERY: what switchboard__find_tools answers a search-mode session of that
profile for QUERY (the best matches, with the scores that ranked them) instead of the list.

Options:
      --profile P     the view of profile P (as on /mcp?profile=P)
      --search QUERY  search the view as find_tools does
      --limit N       matches shown with --search (default 5, at most 20)
${PROBE_HELP}`;

export async function runTools(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: TOOLS_OPTIONS, strict: true, allowPositionals: false });
  const timeout = timeoutMs(values.timeout);
  const { config } = loadConfigAsServed(values.config ?? 'proxy.config.json');
  checkProfile(config, values.profile);
  if (values.search !== undefined) return runSearch(config, values.profile, values.search, searchLimit(values.limit), { timeout, verbose: values.verbose === true, json: values.json === true });
  if (values.limit !== undefined) throw new UsageError('--limit goes with --search');
  const result = await probe(config, { timeoutMs: timeout, verbose: values.verbose === true }, (core) => {
    const summary = summarizeView(core, values.profile);
    return { summary, withheld: withheldTools(core, [...summary.servers.keys()]) };
  });
  if (result.interrupted) {
    process.stderr.write('switchboard: interrupted; every server was stopped\n');
    return INTERRUPTED_EXIT;
  }
  const failed = result.outcomes.filter((outcome) => outcome.status === 'failed' || outcome.status === 'skipped');
  for (const outcome of failed) {
    process.stderr.write(`switchboard: server ${outcome.name} ${outcome.status === 'skipped' ? 'skipped' : 'failed to start'}: ${describeFailure(outcome)}\n`);
  }
  const failedNames = new Set(failed.map((outcome) => outcome.name));
  const { summary, withheld } = result.value;
  const output =
    values.json === true
      ? `${JSON.stringify({ ...toJson(summary, failed, failedNames), withheld }, null, 2)}\n`
      : toText(summary, failedNames) + withheldText(withheld);
  process.stdout.write(output);
  return failed.length > 0 ? 1 : 0;
}

function toJson(summary: ViewSummary, failed: readonly ServerOutcome[], failedNames: ReadonlySet<string>): object {
  return {
    profile: summary.profile ?? null,
    discovery: summary.discovery,
    budget: { maxTools: summary.maxTools ?? null, maxTokens: summary.maxTokens ?? null, leftOut: summary.leftOut },
    // What tools/list gives the model; in search mode the search tools and pinned ones.
    tools: summary.tools.map((tool) => ({ ...tool, description: tool.description ?? null })),
    // Per server, the tools a session can call (in search mode: reach through find_tools).
    servers: [...summary.servers]
      .filter(([name]) => !failedNames.has(name))
      .map(([name, totals]) => ({ name, tools: totals.tools, tokens: totals.tokens })),
    total: summary.total,
    reachable: summary.reachable,
    failed: failed.map((outcome) => ({ server: outcome.name, reason: outcome.reason ?? null, stderr: outcome.stderr ?? null })),
  };
}

function toText(summary: ViewSummary, failedNames: ReadonlySet<string>): string {
  const width = terminalWidth();
  const lines: string[] = [];
  const view = summary.profile === undefined ? 'no profile (every tool)' : `profile ${summary.profile}${budgetNote(summary)}`;
  const search = summary.discovery === 'search';
  if (summary.tools.length === 0) lines.push(`${view}: no tools`);
  else {
    lines.push(
      ...table(
        [{ header: 'TOOL' }, { header: 'SERVER', max: 16 }, { header: '~TOKENS', align: 'right' }, { header: 'DESCRIPTION', fill: true }],
        summary.tools.map((tool) => [tool.name, tool.server, String(tool.tokens), firstLine(tool.description)]),
        width,
      ),
    );
    const servers = [...summary.servers].filter(([name]) => !failedNames.has(name));
    lines.push(
      '',
      ...table(
        [{ header: 'SERVER', max: 32 }, { header: 'TOOLS', align: 'right' }, { header: '~TOKENS', align: 'right' }],
        [
          ...servers.map(([name, t]) => [name, String(t.tools), String(t.tokens)]),
          [search ? 'reachable by search' : 'total', String(summary.reachable.tools), String(summary.reachable.tokens)],
        ],
        width,
      ),
      '',
      search
        ? `${view}, search mode: the model is given ${summary.total.tools} tools, ~${summary.total.tokens} tokens; ` +
            `${FIND_TOOLS} reaches ${summary.reachable.tools} tools (~${summary.reachable.tokens} tokens)`
        : `${view}: ${summary.total.tools} tools, ~${summary.total.tokens} tokens`,
    );
  }
  if (summary.leftOut.length > 0) {
    lines.push(`left out by the budget (${summary.leftOut.length}):`, ...wrap(summary.leftOut, width, '  '));
  }
  return `${lines.join('\n')}\n`;
}

interface WithheldTool {
  readonly server: string;
  /** The name the server uses (clients never see it). */
  readonly name: string;
  readonly rules: readonly string[];
}

/** Tools of these servers that the sanitizer keeps from every client (withheld tools are in no view). */
function withheldTools(core: SwitchboardCore, servers: readonly string[]): WithheldTool[] {
  return servers.flatMap((server) =>
    (core.catalog.reviewOf(server)?.withheld ?? []).filter((w) => w.entity === 'tool').map((w) => ({ server, name: w.name, rules: w.rules })),
  );
}

function withheldText(withheld: readonly WithheldTool[]): string {
  if (withheld.length === 0) return '';
  const lines = [`withheld by the sanitizer (${withheld.length}; see switchboard check and audit):`];
  for (const w of withheld) lines.push(truncate(`  ${printable(w.server)}: ${printable(w.name)} (${w.rules.join(', ')})`, terminalWidth()));
  return `${lines.join('\n')}\n`;
}

function budgetNote(summary: ViewSummary): string {
  const caps = describeCaps(summary);
  return caps === undefined ? '' : ` (${caps})`;
}

/** Names joined by commas into lines of at most `width` characters. */
function wrap(names: readonly string[], width: number, indent: string): string[] {
  const lines: string[] = [];
  let line = indent;
  for (const [i, name] of names.entries()) {
    const piece = i < names.length - 1 ? `${name}, ` : name;
    if (line !== indent && line.length + piece.trimEnd().length > width) {
      lines.push(line.trimEnd());
      line = indent;
    }
    line += piece;
  }
  lines.push(line.trimEnd());
  return lines;
}

async function runSearch(config: SwitchboardConfig, profile: string | undefined, query: string, limit: number, options: { timeout: number; verbose: boolean; json: boolean }): Promise<number> {
  if (query.trim() === '') throw new UsageError('--search needs words to search for');
  const result = await probe(config, { timeoutMs: options.timeout, verbose: options.verbose }, (core) => searchView(core, profile, query, limit));
  if (result.interrupted) {
    process.stderr.write('switchboard: interrupted; every server was stopped\n');
    return INTERRUPTED_EXIT;
  }
  const failed = result.outcomes.filter((outcome) => outcome.status === 'failed' || outcome.status === 'skipped');
  for (const outcome of failed) process.stderr.write(`switchboard: server ${outcome.name} ${outcome.status === 'skipped' ? 'skipped' : 'failed to start'}: ${describeFailure(outcome)}\n`);
  process.stdout.write(options.json ? `${JSON.stringify(result.value, null, 2)}\n` : searchText(result.value));
  return failed.length > 0 ? 1 : 0;
}
