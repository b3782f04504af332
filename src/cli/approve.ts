// `switchboard approve SERVER [TOOL]`: shows what changed in a server's withheld tool definitions and accepts them by re-pinning.
import { parseArgs } from 'node:util';
import { PinStore, escapeText, type PendingChange } from '../sanitize/index.js';
import { pinIdentity } from '../catalog/review.js';
import { definitionDiff } from './definition-diff.js';
import { UsageError } from './flags.js';
import { loadConfigAsServed, stateFilesLine } from './unit-state.js';

export const APPROVE_OPTIONS = { config: { type: 'string', short: 'c' }, 'dry-run': { type: 'boolean' } } as const;

export const APPROVE_HELP = `Usage: switchboard approve SERVER [TOOL] [-c FILE] [--dry-run]

A tool whose definition changed since it was first seen (a possible rug pull) is withheld from
clients until approved. This shows what is waiting for SERVER (each tool, the fields that
changed and a line diff of the definition) and approves all of it, or only TOOL (the name the
server uses, without the prefix). A running switchboard watches the pin file and serves
approved tools again by itself, unless another sanitizer rule withholds them too (then this
says which rules; see switchboard audit).

The pin file is the running service's: when a systemd unit serves this config, its state
directory is used (the first line says which files are read).

Exit codes: 0 approved, nothing was waiting, or --dry-run; 1 TOOL has no pending change;
2 bad flag, config or server name.

Options:
  -c, --config FILE   config file (default: ./proxy.config.json)
      --dry-run       show what is waiting and what changed; approve nothing
`;

/** Hashes are shown to this many hex digits: enough to tell two definitions apart by eye. */
const SHORT_HASH = 12;

export async function runApprove(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args, options: APPROVE_OPTIONS, strict: true, allowPositionals: true });
  const [serverName, tool, extra] = positionals;
  if (serverName === undefined) throw new UsageError('approve needs a server name; see switchboard approve --help');
  if (extra !== undefined) throw new UsageError(`unexpected argument "${extra}"; see switchboard approve --help`);
  const { config, unit } = loadConfigAsServed(values.config ?? 'proxy.config.json', { secrets: 'none' });
  const server = config.servers.find((s) => s.name === serverName);
  if (server === undefined) {
    const known = config.servers.map((s) => s.name).join(', ') || 'none';
    throw new UsageError(`no server "${serverName}" in ${config.file} (servers: ${known})`);
  }
  const dryRun = values['dry-run'] === true;
  const file = config.sanitize.pins;
  const pins = await openPins(file);
  const out: string[] = [stateFilesLine(config, unit)];
  // The identity review.ts pins under: the resolved command line (and the name, when another server shares it).
  const id = pinIdentity(server, config.servers);
  const waiting = pins.pending(id).filter((p) => tool === undefined || p.key === tool);
  if (waiting.length === 0) {
    if (tool !== undefined) {
      process.stdout.write(`${out.join('\n')}\n`);
      process.stderr.write(`switchboard: tool ${escapeText(tool)} of server ${server.name} has no pending change to approve\n`);
      return 1;
    }
    out.push(`nothing to approve: no changed tool definitions of server ${server.name} are waiting`);
    process.stdout.write(`${out.join('\n')}\n`);
    return 0;
  }
  out.push(`waiting for approval in server ${server.name}:`);
  const width = Math.max(...waiting.map((p) => escapeText(p.key).length));
  for (const p of waiting) {
    const fields = p.changedFields.length > 0 ? p.changedFields.join(', ') : 'definition';
    out.push(`  ${escapeText(p.key).padEnd(width)}  changed: ${fields}  (${short(p.pinnedSha256)} -> ${short(p.sha256)})`);
    out.push(...definitionDiff(p.before, p.after).map((line) => `      ${line}`));
  }
  const stillWithheld = waiting.filter((p) => p.blockedBy.length > 0);
  const served = waiting.filter((p) => p.blockedBy.length === 0);
  if (dryRun) {
    out.push(`dry run: nothing approved; run without --dry-run to approve ${waiting.length === 1 ? 'it' : 'them'}`);
    out.push(...withheldLines(stillWithheld, 'would stay withheld after approval'));
    process.stdout.write(`${out.join('\n')}\n`);
    return 0;
  }
  const approved = pins.approve(id, tool);
  const saved = await pins.save();
  if (!saved.ok) throw new Error(`could not write ${file}: ${saved.error.message}`);
  const names = waiting.map((p) => escapeText(p.key)).join(', ');
  out.push(`approved ${approved} tool${approved === 1 ? '' : 's'} of server ${server.name}: ${names}`);
  if (served.length > 0) {
    const which = stillWithheld.length === 0 ? 'them' : served.map((p) => escapeText(p.key)).join(', ');
    out.push(`a running switchboard watches the pin file and serves ${which} again by itself; no restart needed`);
  }
  out.push(...withheldLines(stillWithheld, 'still withheld'));
  process.stdout.write(`${out.join('\n')}\n`);
  return 0;
}

/** Tools another rule withholds whatever the pin says, each with those rules. */
function withheldLines(changes: readonly PendingChange[], what: string): string[] {
  if (changes.length === 0) return [];
  return [
    `${what} by other sanitizer rules (their text itself is the problem; switchboard audit shows the findings):`,
    ...changes.map((p) => `  ${escapeText(p.key)}  ${p.blockedBy.join(', ')}`),
  ];
}

/** The pin store, with a corrupt file reported as one line naming it. */
async function openPins(file: string): Promise<PinStore> {
  try {
    return await PinStore.open(file);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(message.startsWith(file) ? message : `${file}: ${message}`);
  }
}

function short(hash: string): string {
  return `${hash.slice(0, 'sha256:'.length + SHORT_HASH)}…`;
}
