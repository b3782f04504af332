// `switchboard approve SERVER [TOOL]`: shows what changed in a server's withheld tool definitions and accepts them by re-pinning;
// a named tool withheld for its own text has its findings accepted (approve-findings.ts).
import { parseArgs } from 'node:util';
import { PinStore, escapeText, type PendingChange } from '../sanitize/index.js';
import type { ServerConfig, SwitchboardConfig } from '../config/types.js';
import { pinIdentity } from '../catalog/review.js';
import { FilePinKeeper, type PinKeeper } from '../catalog/pin-keeper.js';
import { RedisPinKeeper } from '../catalog/pin-redis.js';
import { silentLogger } from '../log.js';
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
approved tools again by itself; with pins shared through Redis (state.redis or limits.redis)
the approval is written there and every running instance serves it at once.

A tool the sanitizer withholds for its own text (a finding such as exfil-parameter that you
judge a false positive) is served once you name it: approve SERVER TOOL shows its findings and
accepts them for this definition only (its sha256). Any change of the definition is judged
again; so is a new rule withholding it. homoglyph-name and oversize cannot be accepted.
Acceptances and revocations are recorded in the sanitization log with who and when.
--list shows the acceptances; --revoke withdraws one (the tool is withheld again).

The pin file is the running service's: when a systemd unit serves this config, its state
directory is used (the first line says which files, or which Redis, are read).

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
    const keeper = await openPins(config, false);
    try {
      const ids = new Map(config.servers.map((s) => [s.name, pinIdentity(s, config.servers)]));
      process.stdout.write(`${[stateFilesLine(config, unit), ...listAcceptances(keeper.pins, serverName, ids)].join('\n')}\n`);
    } finally {
      await keeper.close();
    }
    return 0;
  }
  if (serverName === undefined) throw new UsageError('approve needs a server name; see switchboard approve --help');
  if (extra !== undefined) throw new UsageError(`unexpected argument "${extra}"; see switchboard approve --help`);
  if (values.revoke === true && tool === undefined) throw new UsageError('--revoke needs a server and a tool; see switchboard approve --help');
  const { config, unit } = loadConfigAsServed(values.config ?? 'proxy.config.json', { secrets: 'none' });
  const server = findServer(config, serverName);
  const dryRun = values['dry-run'] === true;
  const keeper = await openPins(config, !dryRun);
  try {
    return await decide(config, server, keeper, { tool, dryRun, revoke: values.revoke === true }, [stateFilesLine(config, unit)]);
  } finally {
    await keeper.close();
  }
}

/** What approve does with the pins open: approve, accept or revoke, and say so. */
async function decide(
  config: SwitchboardConfig,
  server: ServerConfig,
  keeper: PinKeeper,
  asked: { readonly tool: string | undefined; readonly dryRun: boolean; readonly revoke: boolean },
  out: string[],
): Promise<number> {
  const { tool, dryRun } = asked;
  const pins = keeper.pins;
  const followers = followersOf(config);
  // The identity review.ts pins under: the resolved command line (and the name, when another server shares it).
  const id = pinIdentity(server, config.servers);
  const target: ApproveTarget = { config, server, id, pins };
  const save = async (): Promise<void> => {
    const saved = await keeper.save();
    if (!saved.ok) throw new Error(`could not write ${keeper.where}: ${saved.error.message}`);
  };
  const key = tool === undefined ? undefined : keyFor(tool, (k) => pins.pending(id).some((p) => p.key === k) || pins.withheld(id).some((w) => w.key === k) || pins.acceptance(id, k) !== undefined);
  if (asked.revoke) return revoke(target, key as string, save, out);
  const waiting = pins.pending(id).filter((p) => key === undefined || p.key === key);
  const withheld = pins.withheld(id).filter((w) => key === undefined || w.key === key);
  if (waiting.length === 0 && key !== undefined && withheld.length > 0) return accept(target, key, withheld[0]!.sha256, withheld[0]!.rules, dryRun, { save, followers }, out);
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
  await save();
  const names = waiting.map((p) => escapeText(p.key)).join(', ');
  out.push(`approved ${approved} tool${approved === 1 ? '' : 's'} of server ${server.name}: ${names}`);
  if (served.length > 0) {
    const which = stillWithheld.length === 0 ? 'them' : served.map((p) => escapeText(p.key)).join(', ');
    out.push(`${followers} serves ${which} again by itself; no restart needed`);
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
async function accept(
  target: ApproveTarget,
  key: string,
  sha: string,
  rules: readonly string[],
  dryRun: boolean,
  how: { readonly save: () => Promise<void>; readonly followers: string },
  out: string[],
): Promise<number> {
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
  await how.save();
  await logDecision(target, key, 'operator-accept', acceptance);
  out.push(`accepted the findings of ${escapeText(key)} for this definition only (${short(sha)}); any change of it is judged again`);
  out.push(`${how.followers} serves it by itself; no restart needed`);
  process.stdout.write(`${out.join('\n')}\n`);
  return 0;
}

async function revoke(target: ApproveTarget, key: string, save: () => Promise<void>, out: string[]): Promise<number> {
  const { pins, id, server } = target;
  const acceptance = pins.acceptance(id, key);
  if (acceptance === undefined || !pins.revoke(id, key)) {
    process.stdout.write(`${out.join('\n')}\n`);
    process.stderr.write(`switchboard: ${escapeText(key)} of server ${server.name} has no accepted findings to revoke\n`);
    return 1;
  }
  await save();
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

/**
 * The pins the running service uses: its pin file, or the Redis it shares them through (whose
 * announcement makes every instance serve an approval at once). A corrupt file or an unreachable
 * Redis is one line naming it. `writable` false reads only (--list, --dry-run).
 */
async function openPins(config: SwitchboardConfig, writable: boolean): Promise<PinKeeper> {
  const redis = config.state.redis;
  if (redis !== undefined) {
    return RedisPinKeeper.open({ redis, file: config.sanitize.pins, instance: config.instance, writable, subscribe: false }, silentLogger());
  }
  const file = config.sanitize.pins;
  try {
    return new FilePinKeeper(await PinStore.open(file), silentLogger());
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(message.startsWith(file) ? message : `${file}: ${message}`);
  }
}

/** Who picks an approval up: the daemon watching its file, or every instance sharing the Redis. */
function followersOf(config: SwitchboardConfig): string {
  return config.state.redis === undefined ? 'a running switchboard watches the pin file and' : 'every running switchboard sharing these pins';
}

function short(hash: string): string {
  return `${hash.slice(0, 'sha256:'.length + SHORT_HASH)}…`;
}
