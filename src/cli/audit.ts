// `switchboard audit`: what the sanitizer found, per server and rule, from its log (current and rotated files).
import { parseArgs } from 'node:util';
import { loadConfigAsServed } from './unit-state.js';
import { ACTIONS, logFiles, parseSince, readEntries, summarize, type ServerSummary } from './audit-summary.js';
import { table, terminalWidth } from './render.js';

export const AUDIT_OPTIONS = {
  config: { type: 'string', short: 'c' },
  since: { type: 'string' },
  json: { type: 'boolean' },
  log: { type: 'string', multiple: true },
} as const;

/** Rotated files looked for beside each --log file (the config's logKeep is not known for those). */
const LOG_KEEP_SEARCHED = 20;

export const AUDIT_HELP = `Usage: switchboard audit [--since DURATION] [--json] [-c FILE | --log FILE ...]

Summarizes the sanitization log (sanitize.log of the config, with its rotated files): per
server and rule, how many findings were stripped, neutralized, flagged or blocked; the tools
withheld, with the rules that withheld them; and suspect servers (two or more entities
withheld, or a hidden channel that decodes to an instruction). The log is history: a tool
approved since still shows here; switchboard check shows the current state.

Several instances behind one balancer each keep their own log, every record naming its instance:
give each log with --log (repeatable) to read them together, each finding counted once.

Options:
  -c, --config FILE   config file (default: ./proxy.config.json)
      --log FILE      a sanitization log to read instead of the config's (repeatable)
      --since D       only findings of the last D: 30m, 24h, 7d, 2w
      --json          print one JSON object instead of tables
`;

interface Report {
  readonly log: string;
  readonly files: readonly string[];
  readonly since: string | undefined;
  /** Start of the window, ISO, or undefined for the whole log. */
  readonly from: string | undefined;
  readonly records: number;
  /** Lines that were not records (a torn last line, foreign text). */
  readonly skipped: number;
  /** Records before the window. */
  readonly older: number;
  readonly servers: readonly ServerSummary[];
  /** The instances named by the records counted (a finding in several logs counts once, under the first). */
  readonly instances: readonly string[];
}

export async function runAudit(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: AUDIT_OPTIONS, strict: true, allowPositionals: false });
  // The duration is checked before the config is read: a typo is the first thing to report.
  const windowMs = values.since === undefined ? undefined : parseSince(values.since);
  let log: string;
  let files: string[];
  if (values.log !== undefined && values.log.length > 0) {
    log = values.log.join(', ');
    files = (await Promise.all(values.log.map((file) => logFiles(file, LOG_KEEP_SEARCHED)))).flat();
  } else {
    const { config, unit } = loadConfigAsServed(values.config ?? 'proxy.config.json', { secrets: 'none' });
    // The daemon's log, not this shell's: a unit serving this config names its state directory.
    if (unit !== undefined && values.json !== true) process.stderr.write(`switchboard: reading the log of ${unit}\n`);
    log = config.sanitize.log;
    files = await logFiles(log, config.sanitize.logKeep);
  }
  if (files.length === 0) {
    process.stdout.write(values.json === true ? `${JSON.stringify({ log, files: [], records: 0, servers: [] }, null, 2)}\n` : `no sanitization log at ${log} yet\n`);
    return 0;
  }
  const { entries, skipped } = await readEntries(files);
  const cutoff = windowMs === undefined ? undefined : Date.now() - windowMs;
  const inWindow = cutoff === undefined ? entries : entries.filter((e) => e.at >= cutoff);
  const report: Report = {
    log,
    files,
    since: values.since,
    from: cutoff === undefined ? undefined : new Date(cutoff).toISOString(),
    records: inWindow.length,
    skipped,
    older: entries.length - inWindow.length,
    servers: summarize(inWindow),
    instances: [...new Set(inWindow.flatMap((e) => (e.instance === undefined ? [] : [e.instance])))].sort(),
  };
  process.stdout.write(values.json === true ? `${JSON.stringify(toJson(report), null, 2)}\n` : toText(report));
  return 0;
}

function toJson(report: Report): object {
  return {
    log: report.log,
    files: report.files,
    since: report.since ?? null,
    from: report.from ?? null,
    records: report.records,
    older: report.older,
    skipped: report.skipped,
    servers: report.servers,
    instances: report.instances,
  };
}

function toText(report: Report): string {
  const width = terminalWidth();
  const rotated = report.files.length - (report.files.includes(report.log) ? 1 : 0);
  const window = report.since === undefined ? '' : `, last ${report.since}`;
  const lines = [
    `${report.log}${rotated > 0 ? ` (+${rotated} rotated)` : ''}: ${report.records} finding${report.records === 1 ? '' : 's'}${window}` +
      (report.skipped > 0 ? `; ${report.skipped} unreadable line${report.skipped === 1 ? '' : 's'} skipped` : ''),
  ];
  if (report.instances.length > 1) lines.push(`instances: ${report.instances.join(', ')}`);
  if (report.servers.length === 0) {
    lines.push(report.older > 0 ? `no findings in the last ${report.since} (${report.older} older)` : 'no findings');
    return `${lines.join('\n')}\n`;
  }
  lines.push(
    '',
    ...table(
      [
        // 16 + 28 + 5 + 10 + 4 + 5 + 20 and six gaps: exactly 100 columns at most.
        { header: 'SERVER', max: 16 },
        { header: 'RULE', max: 28 },
        ...ACTIONS.map((action) => ({ header: action.toUpperCase(), align: 'right' as const })),
        { header: 'NEWEST' },
      ],
      report.servers.flatMap((s) => s.rules.map((r) => [s.server, r.rule, ...ACTIONS.map((a) => String(r.actions[a])), shortTime(r.newest)])),
      width,
    ),
  );
  const withheld = report.servers.flatMap((s) => s.withheld.map((w) => ({ server: s.server, ...w })));
  if (withheld.length > 0) {
    lines.push(
      '',
      `withheld when listed (${withheld.length}; switchboard check shows what is withheld now):`,
      ...table(
        [{ header: 'SERVER', max: 16 }, { header: 'ENTITY' }, { header: 'NAME', max: 32 }, { header: 'RULES', fill: true }],
        withheld.map((w) => [w.server, w.entity, w.name || '-', w.rules.join(', ')]),
        width - 2,
      ).map((line) => `  ${line}`),
    );
  }
  const suspect = report.servers.filter((s) => s.suspect);
  if (suspect.length > 0) {
    lines.push('', 'suspect servers (review them; nothing is disabled automatically):');
    for (const s of suspect) lines.push(`  ${s.server}: ${s.suspectReasons.join('; ')}`);
  }
  return `${lines.join('\n')}\n`;
}

/** `2026-11-21 10:02:03Z`: seconds are enough to read, and it keeps the table narrow. */
function shortTime(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}Z`;
}
