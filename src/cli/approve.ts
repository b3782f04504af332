// `switchboard approve SERVER [TOOL]`: shows what changed in a server's withheld tool definitions and accepts them by re-pinning;
// a named tool withheld for its own text has its findings accepted (approve-findings.ts).
import { parseArgs } from 'node:util';
import { PinStore, escapeText, type PendingChange } from '../sanitize/index.js';
import type { ServerConfig } from '../config/types.js';
import { pinIdentity } from '../catalog/review.js';
import { findingLines, keyFor, listAcceptances, logDecision, operatorName, unacceptable, type ApproveTarget } from './approve-findings.js';
import { definitionDiff } from './definition-diff.js';
import { UsageError } from './flags.js';
import { loadConfigAsServed, stateFilesLine } from './unit-state.js';

export const APPROVE_OPTIONS = {
  config: { type: 'string', short: 'c' },
  'dry-run': { type: 'boolean' },
  list: { type: 'boolean' },
  revoke: { type: 'boolean' },
} as const;

export const APPROVE_HELP = `Usage: switchboard approve SERVER [TOOL] [-c FILE] [--dry-run]
       switchboard approve --list [SERVER] [-c FILE]
       switchboard approve --revoke SERVER TOOL [-c FILE]

A tool whose definition changed since it was first seen (a possible rug pull) is withheld from
clients until approved. This shows what is waiting for SERVER (each tool, the fields that
changed and a line diff of the definition) and approves all of it, or only TOOL (the name the
server uses, without the prefix; prompt:NAME, resource:URI, resourceTemplate:TEMPLATE for the
other kinds, or just the name or URI). A running switchboard watches the pin file and serves
approved tools again by itself.

A tool the sanitizer withholds for its own text (a finding such as exfil-parameter that you
judge a false positive) is served once you name it: approve SERVER TOOL shows its findings and
accepts them for this definition only (its sha256). Any change of the definition is judged
again; so is a new rule withholding it. homoglyph-name and oversize cannot be accepted.
Acceptances and revocations are recorded in the sanitization log with who and when.
--list shows the acceptances; --revoke withdraws one (the tool is withheld again).

The pin file is the running service's: when a systemd unit serves this config, its state
directory is used (the first line says which files are read).

Exit codes: 0 approved or accepted, nothing was waiting, or --dry-run; 1 TOOL has nothing to
approve or accept (or no acceptance to revoke); 2 bad flag, config or server name.

Options:
  -c, --config FILE   config file (default: ./proxy.config.json)
      --dry-run       show what is waiting and what changed; approve nothing
      --list          list accepted findings (of SERVER, or all)
      --revoke        withdraw the acceptance of TOOL's findings
`;

/** Hashes are shown to this many hex digits: enough to tell two definitions apart by eye. */
const SHORT_HASH = 12;

export async function runApprove(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args, options: APPROVE_OPTIONS, strict: true, allowPositionals: true });
  const [serverName, tool, extra] = positionals;
  if (values.list === true) {
    if (tool !== undefined) throw new UsageError(`unexpected argument "${tool}"; see switchboard approve --help`);
    const { config, unit } = loadConfigAsServed(values.config ?? 'proxy.config.json', { secrets: 'none' });
    if (serverName !== undefined) findServer(config, serverName);
    const pins = await openPins(config.sanitize.pins);
    const ids = new Map(config.servers.map((s) => [s.name, pinIdentity(s, config.servers)]));
    process.stdout.write(`${[stateFilesLine(config, unit), ...listAcceptances(pins, serverName, ids)].join('\n')}\n`);
    return 0;
  }
  if (serverName === undefined) throw new UsageError('approve needs a server name; see switchboard approve --help');
  if (extra !== undefined) throw new UsageError(`unexpected argument "${extra}"; see switchboard approve --help`);
  if (values.revoke === true && tool === undefined) throw new UsageError('--revoke needs a server and a tool; see switchboard approve --help');
  const { config, unit } = loadConfigAsServed(values.config ?? 'proxy.config.json', { secrets: 'none' });
  const server = findServer(config, serverName);
  const dryRun = values['dry-run'] === true;
  const file = config.sanitize.pins;
  const pins = await openPins(file);
  const out: string[] = [stateFilesLine(config, unit)];
  // The identity review.ts pins under: the resolved command line (and the name, when another server shares it).
  const id = pinIdentity(server, config.servers);
  const target: ApproveTarget = { config, server, id, pins };
  const key = tool === undefined ? undefined : keyFor(tool, (k) => pins.pending(id).some((p) => p.key === k) || pins.withheld(id).some((w) => w.key === k) || pins.acceptance(id, k) !== undefined);
  if (values.revoke === true) return revoke(target, key as string, out);
  const waiting = pins.pending(id).filter((p) => key === undefined || p.key === key);
  const withheld = pins.withheld(id).filter((w) => key === undefined || w.key === key);
  if (waiting.length === 0 && key !== undefined && withheld.length > 0) return accept(target, key, withheld[0]!.sha256, withheld[0]!.rules, dryRun, out);
  if (waiting.length === 0) {
    if (tool !== undefined) {
      process.stdout.write(`${out.join('\n')}\n`);
      process.stderr.write(`switchboard: tool ${escapeText(tool)} of server ${server.name} has no pending change to approve\n`);
      return 1;
    }
    out.push(`nothing to approve: no changed tool definitions of server ${server.name} are waiting`);
    out.push(...findingHint(withheld.filter((w) => w.accepted?.sha256 !== w.sha256), server.name));
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
  const approved = pins.approve(id, key);
  // A named tool whose changed definition other rules withhold: naming it accepts those findings too.
  const accepted = key === undefined ? [] : stillWithheld.filter((p) => unacceptable(p.blockedBy).length === 0);
  const by = operatorName();
  for (const p of accepted) pins.accept(id, p.key, { sha256: p.sha256, rules: p.blockedBy, acceptedAt: new Date().toISOString(), by });
  const saved = await pins.save();
  if (!saved.ok) throw new Error(`could not write ${file}: ${saved.error.message}`);
  const names = waiting.map((p) => escapeText(p.key)).join(', ');
  out.push(`approved ${approved} tool${approved === 1 ? '' : 's'} of server ${server.name}: ${names}`);
  if (served.length > 0) {
    const which = stillWithheld.length === 0 ? 'them' : served.map((p) => escapeText(p.key)).join(', ');
    out.push(`a running switchboard watches the pin file and serves ${which} again by itself; no restart needed`);
  }
  for (const p of accepted) {
    const acceptance = pins.acceptance(id, p.key);
    if (acceptance !== undefined) await logDecision(target, p.key, 'operator-accept', acceptance);
    out.push(`accepted the findings ${p.blockedBy.join(', ')} of ${escapeText(p.key)} for this definition only (${short(p.sha256)}); a running switchboard serves it by itself`);
  }
  out.push(...withheldLines(stillWithheld.filter((p) => !accepted.includes(p)), 'still withheld'));
  process.stdout.write(`${out.join('\n')}\n`);
  return 0;
}

function findServer(config: { readonly servers: readonly ServerConfig[]; readonly file: string }, name: string): ServerConfig {
  const server = config.servers.find((s) => s.name === name);
  if (server !== undefined) return server;
  const known = config.servers.map((s) => s.name).join(', ') || 'none';
  throw new UsageError(`no server "${name}" in ${config.file} (servers: ${known})`);
}

/** Accepts the findings that withhold one pinned definition, after showing them. */
async function accept(target: ApproveTarget, key: string, sha: string, rules: readonly string[], dryRun: boolean, out: string[]): Promise<number> {
  const { pins, id, server, config } = target;
  const current = pins.acceptance(id, key);
  out.push(`withheld by the sanitizer in server ${server.name}: ${escapeText(key)} (${short(sha)}), rules: ${rules.join(', ')}`);
  const findings = await findingLines(config, id, key, sha);
  out.push(...(findings.length > 0 ? findings : ['(no finding of this definition in the sanitization log; switchboard check shows it)']).map((line) => `  ${line}`));
  const refused = unacceptable(rules);
  if (refused.length > 0) {
    process.stdout.write(`${out.join('\n')}\n`);
    process.stderr.write(`switchboard: ${refused.join(', ')} cannot be accepted; the server must change ${escapeText(key)}\n`);
    return 1;
  }
  if (current?.sha256 === sha && rules.every((rule) => current.rules.includes(rule))) {
    out.push(`already accepted by ${current.by} at ${current.acceptedAt}`);
    process.stdout.write(`${out.join('\n')}\n`);
    return 0;
  }
  if (dryRun) {
    out.push('dry run: nothing accepted; run without --dry-run to serve this definition as it is');
    process.stdout.write(`${out.join('\n')}\n`);
    return 0;
  }
  const acceptance = { sha256: sha, rules, acceptedAt: new Date().toISOString(), by: operatorName() };
  pins.accept(id, key, acceptance);
  const saved = await pins.save();
  if (!saved.ok) throw new Error(`could not write ${pins.path}: ${saved.error.message}`);
  await logDecision(target, key, 'operator-accept', acceptance);
  out.push(`accepted the findings of ${escapeText(key)} for this definition only (${short(sha)}); any change of it is judged again`);
  out.push('a running switchboard watches the pin file and serves it by itself; no restart needed');
  process.stdout.write(`${out.join('\n')}\n`);
  return 0;
}

async function revoke(target: ApproveTarget, key: string, out: string[]): Promise<number> {
  const { pins, id, server } = target;
  const acceptance = pins.acceptance(id, key);
  if (acceptance === undefined || !pins.revoke(id, key)) {
    process.stdout.write(`${out.join('\n')}\n`);
    process.stderr.write(`switchboard: ${escapeText(key)} of server ${server.name} has no accepted findings to revoke\n`);
    return 1;
  }
  const saved = await pins.save();
  if (!saved.ok) throw new Error(`could not write ${pins.path}: ${saved.error.message}`);
  await logDecision(target, key, 'operator-revoke', acceptance);
  out.push(`revoked the acceptance of ${escapeText(key)} (${acceptance.rules.join(', ')}, by ${acceptance.by}); a running switchboard withholds it again`);
  process.stdout.write(`${out.join('\n')}\n`);
  return 0;
}

/** Entities withheld for their own text: named, so the operator knows approve can accept them one by one. */
function findingHint(withheld: readonly { key: string; rules: readonly string[] }[], server: string): string[] {
  if (withheld.length === 0) return [];
  return [
    `withheld by sanitizer findings (name one to see and accept its findings: switchboard approve ${server} TOOL):`,
    ...withheld.map((w) => `  ${escapeText(w.key)}  ${w.rules.join(', ')}`),
  ];
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
