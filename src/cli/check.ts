// `switchboard check`: validates the config, starts every server once, and reports per server and per profile what clients would get.
import { parseArgs } from 'node:util';
import { loadConfigAsServed, pinStoreReport, pinsWhere, stateFilesLine } from './unit-state.js';
import type { SwitchboardConfig } from '../config/types.js';
import type { SwitchboardCore } from '../switchboard.js';
import type { Reviewed } from '../catalog/review.js';
import { PROBE_HELP, PROBE_OPTIONS, timeoutMs } from './flags.js';
import { INTERRUPTED_EXIT, describeFailure, probe, type ServerOutcome } from './probe.js';
import { printable, table, terminalWidth } from './render.js';
import { describeCaps, summarizeView, type Totals, type ViewSummary } from './view-summary.js';
import { FIND_TOOLS } from '../search/meta-tools.js';

export const CHECK_OPTIONS = PROBE_OPTIONS;

export const CHECK_HELP = `Usage: switchboard check [-c FILE] [--json] [--timeout SECS]

Validates the config, starts every enabled server (nothing listens on HTTP), and prints one row
per server: state (ready, or failed and why), tool count, estimated tokens of its tool list and
sanitization findings (how many, how many entities withheld, and whether the server is suspect);
then the withheld entities with their rules, what each profile would see (tools, tokens, tools
its budget leaves out; for a search-mode profile what the model is given, and how many tools
search reaches) and the config's warnings. Every server is stopped before it prints.
It sanitizes against the daemon's pins but writes neither pins nor the sanitization log; its
last line says where the pins are kept (the pin file, or the Redis of state.redis or limits.redis,
shown without its password, and the hash <prefix>pins).
The daemon's own secrets (auth tokens, the OAuth client secret, the TLS key) are not needed:
one this shell cannot read is a warning. The servers' secrets are needed to start them.

Exit codes: 0 all servers ready, 1 a server failed, 2 bad flag or config.

Options:
${PROBE_HELP}`;

interface ServerReport extends ServerOutcome {
  /** What the server contributes to the unfiltered view; undefined when it is not up. */
  readonly totals: Totals | undefined;
  /** Sanitization outcome of its listing; undefined when it was never listed (shown as `-`). */
  readonly review: Reviewed | undefined;
}

interface CheckReport {
  readonly servers: readonly ServerReport[];
  /** The unfiltered view first (profile undefined), then each configured profile in config order. */
  readonly views: readonly ViewSummary[];
}

/** Left-out tools named per profile in the text report; --json lists them all. */
const MAX_LEFT_OUT_SHOWN = 20;

export async function runCheck(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: CHECK_OPTIONS, strict: true, allowPositionals: false });
  const timeout = timeoutMs(values.timeout);
  const { config, unit } = loadConfigAsServed(values.config ?? 'proxy.config.json');
  const result = await probe(config, { timeoutMs: timeout, verbose: values.verbose === true }, (core, outcomes) => inspect(core, outcomes));
  if (result.interrupted) {
    process.stderr.write('switchboard: interrupted; every server was stopped\n');
    return INTERRUPTED_EXIT;
  }
  const report = result.value;
  // The table's REASON column is cut to the terminal; the whole story goes to stderr, as `tools` does.
  for (const s of report.servers) if (s.status === 'failed') process.stderr.write(`switchboard: server ${s.name} failed to start: ${describeFailure(s)}\n`);
  for (const s of report.servers) if (s.status === 'skipped') process.stderr.write(`switchboard: server ${s.name} skipped: ${s.reason ?? 'unusable entry'}\n`);
  // A skipped entry is as unserved as a failed server: `start` would run without it.
  const ok = report.servers.every((server) => server.status !== 'failed' && server.status !== 'skipped');
  process.stdout.write(values.json === true ? `${JSON.stringify({ ...toJson(config, report, ok), state: { pins: pinsWhere(config), pinStore: pinStoreReport(config), log: config.sanitize.log, unit: unit ?? null } }, null, 2)}\n` : `${toText(config, report)}${stateFilesLine(config, unit)}\n`);
  return ok ? 0 : 1;
}

function inspect(core: SwitchboardCore, outcomes: readonly ServerOutcome[]): CheckReport {
  const everything = summarizeView(core, undefined);
  const servers = outcomes.map((outcome) => ({
    ...outcome,
    totals: outcome.status === 'ready' ? (everything.servers.get(outcome.name) ?? { tools: 0, tokens: 0 }) : undefined,
    review: outcome.status === 'ready' ? core.catalog.reviewOf(outcome.name) : undefined,
  }));
  const views = [everything, ...Object.keys(core.config.profiles).map((profile) => summarizeView(core, profile))];
  return { servers, views };
}

/** The PROFILE cell: `(all tools)`, `reader`, `reader (default)`, `agent (default, search)`. */
function profileCell(config: SwitchboardConfig, view: ViewSummary): string {
  if (view.profile === undefined) return '(all tools)';
  const notes = [...(view.profile === config.defaultProfile ? ['default'] : []), ...(view.discovery === 'search' ? ['search'] : [])];
  return notes.length === 0 ? view.profile : `${view.profile} (${notes.join(', ')})`;
}

/** The FINDINGS cell: `0`, `3`, `3 (1 withheld)`, `5 (2 withheld, suspect)`. */
function findingsCell(review: Reviewed | undefined): string {
  if (review === undefined) return '-';
  const notes = [...(review.withheld.length > 0 ? [`${review.withheld.length} withheld`] : []), ...(review.suspect ? ['suspect'] : [])];
  return notes.length === 0 ? String(review.findings) : `${review.findings} (${notes.join(', ')})`;
}

/** An entity as check names it: a tool by its own name, anything else with its kind. */
function entityLabel(entity: string, name: string): string {
  return printable(entity === 'tool' ? name : entity === 'instructions' ? 'instructions' : `${entity} ${name}`);
}

function toJson(config: SwitchboardConfig, report: CheckReport, ok: boolean): object {
  return {
    ok,
    config: config.file,
    servers: report.servers.map((server) => ({
      name: server.name,
      state: server.status,
      reason: server.reason ?? null,
      stderr: server.stderr ?? null,
      restarts: server.restarts,
      tools: server.totals?.tools ?? null,
      tokens: server.totals?.tokens ?? null,
      findings: server.review?.findings ?? null,
      withheld: server.review?.withheld.map((w) => ({ entity: w.entity, name: w.name, rules: w.rules })) ?? [],
      suspect: server.review?.suspect ?? false,
    })),
    profiles: report.views.map((view) => ({
      name: view.profile ?? null,
      default: view.profile !== undefined && view.profile === config.defaultProfile,
      discovery: view.discovery,
      // What tools/list gives the model (search mode: the search tools and pinned ones) …
      tools: view.total.tools,
      tokens: view.total.tokens,
      // … and every tool a session can call (search mode: through find_tools).
      reachable: view.reachable,
      leftOut: view.leftOut.length,
      leftOutTools: view.leftOut.map((name) => ({ name, reason: view.leftOutReasons.get(name) ?? null })),
      maxTools: view.maxTools ?? null,
      maxTokens: view.maxTokens ?? null,
    })),
    warnings: config.warnings,
  };
}

function toText(config: SwitchboardConfig, report: CheckReport): string {
  const width = terminalWidth();
  const dash = (value: number | undefined) => (value === undefined ? '-' : String(value));
  const lines = table(
    [
      { header: 'SERVER', max: 24 },
      { header: 'STATE' },
      { header: 'TOOLS', align: 'right' },
      { header: '~TOKENS', align: 'right' },
      { header: 'FINDINGS', align: 'right' },
      { header: 'REASON', fill: true },
    ],
    report.servers.map((s) => [
      s.name,
      s.status,
      dash(s.totals?.tools),
      dash(s.totals?.tokens),
      findingsCell(s.review),
      s.reason ?? '',
    ]),
    width,
  );
  const withheld = report.servers.flatMap((s) => (s.review?.withheld ?? []).map((w) => ({ server: s.name, ...w })));
  if (withheld.length > 0) {
    lines.push(
      '',
      `withheld by the sanitizer, not served to clients (${withheld.length}; details: switchboard audit):`,
      ...table(
        [{ header: 'SERVER', max: 24 }, { header: 'NAME', max: 40 }, { header: 'RULES', fill: true }],
        withheld.map((w) => [w.server, entityLabel(w.entity, w.name), w.rules.join(', ')]),
        width - 2,
      ).map((line) => `  ${line}`),
    );
  }
  const suspect = report.servers.filter((s) => s.review?.suspect === true).map((s) => s.name);
  if (suspect.length > 0) lines.push(`suspect (2+ entities withheld or a hidden instruction; review before use): ${suspect.join(', ')}`);
  lines.push(
    '',
    ...table(
      [{ header: 'PROFILE', max: 32 }, { header: 'TOOLS', align: 'right' }, { header: '~TOKENS', align: 'right' }, { header: 'LEFT OUT', align: 'right' }, { header: 'CAPS', fill: true }],
      report.views.map((view) => [
        profileCell(config, view),
        String(view.total.tools),
        String(view.total.tokens),
        String(view.leftOut.length),
        describeCaps(view) ?? '-',
      ]),
      width,
    ),
  );
  const searching = report.views.filter((view) => view.discovery === 'search');
  if (searching.length > 0) lines.push('');
  for (const view of searching) {
    lines.push(
      `profile ${view.profile ?? '(none)'} is in search mode: the model is given ${view.total.tools} tools (~${view.total.tokens} tokens); ` +
        `${FIND_TOOLS} reaches ${view.reachable.tools} tools (~${view.reachable.tokens} tokens)`,
    );
  }
  for (const view of report.views) {
    if (view.leftOut.length === 0) continue;
    const first = view.leftOut[0] as string;
    lines.push(
      '',
      `left out of profile ${view.profile ?? '(none)'} by its budget (${view.leftOut.length}; ${view.leftOutReasons.get(first) ?? 'budget'}; order: priority globs, then config):`,
      ...view.leftOut.slice(0, MAX_LEFT_OUT_SHOWN).map((name) => `  ${printable(name)}`),
      ...(view.leftOut.length > MAX_LEFT_OUT_SHOWN ? [`  … and ${view.leftOut.length - MAX_LEFT_OUT_SHOWN} more (--json lists all)`] : []),
    );
  }
  if (config.warnings.length > 0) lines.push('', `config warnings (${config.warnings.length}):`, ...config.warnings.map((w) => `  ${w}`));
  const count = (status: ServerOutcome['status']) => report.servers.filter((s) => s.status === status);
  const failed = count('failed');
  const disabled = count('disabled').length;
  const skipped = count('skipped');
  lines.push(
    '',
    `${report.servers.length} server${report.servers.length === 1 ? '' : 's'}: ${count('ready').length} ready, ${failed.length} failed${disabled > 0 ? `, ${disabled} disabled` : ''}` +
      (failed.length > 0 ? ` (${failed.map((s) => s.name).join(', ')})` : '') +
      (skipped.length > 0 ? `, ${skipped.length} skipped (${skipped.map((s) => s.name).join(', ')}; start serves the rest, --strict refuses the file)` : ''),
  );
  return `${lines.join('\n')}\n`;
}
