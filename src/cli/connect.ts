// `switchboard connect CLIENT`: points a client at the switchboard (the docs/clients/ snippets with
// the real address), in place of the servers the switchboard now serves for it; `--undo` puts the
// client's file back byte for byte from the backup left beside it.
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config/load.js';
import { isPlainObject } from '../config/validate.js';
import { UsageError } from './flags.js';
import { daemonUrl } from './restart.js';
import { backupAndWrite, restore } from './connect/backup.js';
import { connectedText } from './connect/edit.js';
import { ENTRY_NAME, TOKEN_VARIABLE, targetFile, targetFor } from './connect/targets.js';
import { clientIds } from './import/collect.js';
import { readSource } from './import/formats.js';
import { shown } from './import/locations.js';
import { identities } from './import/merge.js';
import { CLIENT_NAMES, identity, normalize } from './import/normalize.js';
import { serversOf, parseConfigText, readConfigText } from './config-edit.js';

export const CONNECT_OPTIONS = {
  config: { type: 'string', short: 'c' },
  profile: { type: 'string' },
  daemon: { type: 'string' },
  keep: { type: 'boolean' },
  undo: { type: 'boolean' },
  force: { type: 'boolean' },
} as const;

export const CONNECT_HELP = `Usage: switchboard connect CLIENT [-c FILE] [--profile P] [--daemon URL] [--keep]
       switchboard connect CLIENT --undo [--force]

Points CLIENT (claude-desktop, claude-code, cursor, vscode, windsurf, codex, zed, gemini) at the
switchboard: its user-level config gets a "${ENTRY_NAME}" server with the switchboard's address
(from the config's "listen", or --daemon), and loses the servers the switchboard's config already
has (run "switchboard import" first), so each tool is offered once. --keep leaves them.

With auth on, the token is read from where the client reads secrets (${TOKEN_VARIABLE} in its
environment, VS Code's prompt), never written into the file; the command says what to set.

The file is left alone if it cannot be parsed. Before it is changed, a copy is kept beside it
(FILE.switchboard-backup-TIME-...), and the new text is written atomically. --undo puts the newest
copy back byte for byte, unless the file was changed since (then --force).

Options:
  -c, --config FILE   the switchboard's config (default: ./proxy.config.json)
      --profile P     the client sees profile P (?profile=P on the URL)
      --daemon URL    the switchboard's base URL instead of the config's "listen"
      --keep          keep the client's own servers beside the switchboard
      --undo          restore the client's file from the newest backup
      --force         with --undo: restore even though the file changed since connect
`;

export async function runConnect(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args, options: CONNECT_OPTIONS, strict: true, allowPositionals: true });
  const [name, extra] = positionals;
  if (name === undefined) throw new UsageError('connect needs a client name; see switchboard connect --help');
  if (extra !== undefined) throw new UsageError(`unexpected argument "${extra}"; see switchboard connect --help`);
  const lines = connectClient({ client: name, env: process.env, ...values });
  process.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}

export interface ConnectOptions {
  readonly client: string;
  readonly env: NodeJS.ProcessEnv;
  readonly config?: string | undefined;
  readonly profile?: string | undefined;
  readonly daemon?: string | undefined;
  readonly keep?: boolean | undefined;
  readonly undo?: boolean | undefined;
  readonly force?: boolean | undefined;
}

/** Does the work; returns the lines to print. User errors throw UsageError or ConfigError. */
export function connectClient(options: ConnectOptions): string[] {
  const [client] = clientIds([options.client]);
  if (client === undefined) throw new UsageError('connect needs a client name');
  const home = options.env['HOME'] ?? '';
  if (home === '') throw new UsageError('HOME is not set: cannot find the client\'s config');
  const source = targetFile(client, options.env, (file) => fs.existsSync(file));
  const where = shown(source.file, home);
  if (options.undo === true) {
    const backup = restore(source.file, options.force === true);
    return [`Restored ${where} from ${path.basename(backup)}.`];
  }
  if (options.force === true) throw new UsageError('--force goes with --undo');

  const configFile = options.config ?? 'proxy.config.json';
  const config = loadConfig(configFile, options.env, { secrets: 'none' });
  if (options.profile !== undefined && config.profiles[options.profile] === undefined) {
    throw new UsageError(`no profile "${options.profile}" in ${config.file} (it has ${Object.keys(config.profiles).join(', ') || 'none'})`);
  }
  const base = options.daemon ?? daemonUrl(config.file, options.env);
  let url: string;
  try {
    const u = new URL('/mcp', base);
    if (options.profile !== undefined) u.searchParams.set('profile', options.profile);
    url = u.href;
  } catch {
    throw new UsageError(`--daemon expects a URL like http://127.0.0.1:8808, got "${base}"`);
  }
  // As written: a token whose secret is not readable here still turns auth on for the daemon.
  const written = parseConfigText(readConfigText(config.file, false));
  const writtenAuth = isPlainObject(written['auth']) ? written['auth'] : {};
  const tokens = writtenAuth['tokens'];
  const auth = (Array.isArray(tokens) && tokens.length > 0) || writtenAuth['oauth'] !== undefined;
  const target = targetFor(source, url, auth);

  let before: Buffer | undefined;
  try {
    before = fs.readFileSync(source.file);
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'ENOENT') throw new UsageError(`cannot read ${source.file}: ${String((error as { code?: unknown }).code)}`);
  }
  const found = before === undefined ? [] : readSource(source);
  if (found !== undefined && !Array.isArray(found)) throw new UsageError(`${source.file} cannot be parsed (${found.problem}); it is left as it is`);
  const own = (found ?? []).filter((f) => f.source.project === undefined && f.name !== ENTRY_NAME);
  const served = identities(serversOf(written), config.dir);
  const moved: string[] = [];
  const kept: string[] = [];
  for (const f of own) {
    const made = normalize(f, () => '');
    if (options.keep !== true && made.ok && served.has(identity(made.server.entry))) moved.push(f.name);
    else kept.push(f.name);
  }
  const beforeText = before?.toString('utf8') ?? '';
  const edited = connectedText(beforeText, target, moved);
  if (!edited.ok) throw new UsageError(`${source.file} is left as it is: ${edited.problem}`);
  if (before !== undefined && edited.text === beforeText) return [`${CLIENT_NAMES[client]} already uses the switchboard at ${url} (${where} unchanged).`];
  const backup = backupAndWrite(source.file, before, edited.text);

  const lines = [`${CLIENT_NAMES[client]} now uses the switchboard at ${url}: ${where}${before === undefined ? ' (a new file)' : ''}; the old file is kept as ${path.basename(backup)}.`];
  if (moved.length > 0) lines.push(`Served by the switchboard now, so taken out of ${where}: ${moved.join(', ')}.`);
  if (kept.length > 0) lines.push(`Kept in ${where}${options.keep === true ? '' : ' (not in the switchboard\'s config; "switchboard import" brings them)'}: ${kept.join(', ')}.`);
  if (auth) lines.push(target.note !== undefined ? `To do: ${target.note} in ${where}.` : client === 'vscode' ? 'VS Code asks for the token once and keeps it.' : `Set ${TOKEN_VARIABLE} to your token in the environment ${CLIENT_NAMES[client]} starts with.`);
  lines.push(`Restart ${CLIENT_NAMES[client]} to pick it up; "switchboard connect ${client} --undo" puts the old file back.`);
  return lines;
}
