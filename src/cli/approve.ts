// `switchboard approve SERVER [TOOL]`: accepts changed tool definitions of one server by re-pinning them in the pin file.
import { parseArgs } from 'node:util';
import { loadConfig } from '../config/load.js';
import { PinStore, escapeText } from '../sanitize/index.js';
import { pinIdentity } from '../catalog/review.js';
import { UsageError } from './flags.js';

export const APPROVE_OPTIONS = { config: { type: 'string', short: 'c' } } as const;

export const APPROVE_HELP = `Usage: switchboard approve SERVER [TOOL] [-c FILE]

A tool whose definition changed since it was first seen (a possible rug pull) is withheld from
clients until approved. This shows what is waiting for SERVER (each tool and the fields that
changed) and approves all of it, or only TOOL (the name the server uses, without the prefix).
A running switchboard watches the pin file and serves approved tools again by itself.

Exit codes: 0 approved, or nothing was waiting; 1 TOOL has no pending change;
2 bad flag, config or server name.

Options:
  -c, --config FILE   config file (default: ./proxy.config.json)
`;

/** Hashes are shown to this many hex digits: enough to tell two definitions apart by eye. */
const SHORT_HASH = 12;

export async function runApprove(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args, options: APPROVE_OPTIONS, strict: true, allowPositionals: true });
  const [serverName, tool, extra] = positionals;
  if (serverName === undefined) throw new UsageError('approve needs a server name; see switchboard approve --help');
  if (extra !== undefined) throw new UsageError(`unexpected argument "${extra}"; see switchboard approve --help`);
  const config = loadConfig(values.config ?? 'proxy.config.json');
  const server = config.servers.find((s) => s.name === serverName);
  if (server === undefined) {
    const known = config.servers.map((s) => s.name).join(', ') || 'none';
    throw new UsageError(`no server "${serverName}" in ${config.file} (servers: ${known})`);
  }
  const file = config.sanitize.pins;
  const pins = await openPins(file);
  // The identity review.ts pins under: the resolved command line (and the name, when another server shares it).
  const id = pinIdentity(server, config.servers);
  const waiting = pins.pending(id).filter((p) => tool === undefined || p.key === tool);
  const out: string[] = [];
  if (waiting.length === 0) {
    if (tool !== undefined) {
      process.stderr.write(`switchboard: tool ${escapeText(tool)} of server ${server.name} has no pending change to approve (pins: ${file})\n`);
      return 1;
    }
    process.stdout.write(`nothing to approve: no changed tool definitions of server ${server.name} are waiting (pins: ${file})\n`);
    return 0;
  }
  out.push(`waiting for approval in server ${server.name} (pins: ${file}):`);
  const width = Math.max(...waiting.map((p) => escapeText(p.key).length));
  for (const p of waiting) {
    const fields = p.changedFields.length > 0 ? p.changedFields.join(', ') : 'definition';
    out.push(`  ${escapeText(p.key).padEnd(width)}  changed: ${fields}  (${short(p.pinnedSha256)} -> ${short(p.sha256)})`);
  }
  const approved = pins.approve(id, tool);
  const saved = await pins.save();
  if (!saved.ok) throw new Error(`could not write ${file}: ${saved.error.message}`);
  const names = waiting.map((p) => escapeText(p.key)).join(', ');
  out.push(
    `approved ${approved} tool${approved === 1 ? '' : 's'} of server ${server.name}: ${names}`,
    'a running switchboard watches the pin file and serves them again by itself; no restart needed',
  );
  process.stdout.write(`${out.join('\n')}\n`);
  return 0;
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
