// `switchboard import`: the MCP servers of every client installed for this user, merged into the
// config (one server per command or URL), secrets moved to files beside it, what stays behind named.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createTwoFilesPatch } from 'diff';
import { ConfigError } from '../config/load.js';
import { collect, origin } from './import/collect.js';
import { shown } from './import/locations.js';
import { CLIENT_NAMES } from './import/normalize.js';
import { plan } from './import/merge.js';
import { secretsDirOf, writeSecrets } from './import/secrets.js';
import { CLIENT_IDS } from './import/types.js';
import { parseConfigText, readConfigText, serversOf, validateConfigText, withServer, writeAtomic } from './config-edit.js';
import { RELOAD_HELP, RELOAD_OPTIONS, tellDaemon } from './daemon-reload.js';
import { printable } from './render.js';
import { UsageError } from './flags.js';

export const IMPORT_OPTIONS = {
  config: { type: 'string', short: 'c' },
  from: { type: 'string', multiple: true },
  file: { type: 'string', multiple: true },
  'dry-run': { type: 'boolean' },
  project: { type: 'string' },
  ...RELOAD_OPTIONS,
} as const;

export const IMPORT_HELP = `Usage: switchboard import [--from CLIENT ...] [--file PATH ...] [--dry-run] [-c FILE]

Finds the MCP servers configured in your clients and adds them to the config file (created when
there is none), in place: its comments and order stay. Clients: ${CLIENT_IDS.join(', ')}.
Their user-level files are read from HOME (and XDG_CONFIG_HOME, ~/Library/Application Support),
their project-level files (.mcp.json, .cursor/, .vscode/, .zed/, .gemini/) from --project.

One server per command, arguments and environment (or URL): a server found in several clients,
or already in the config, is added once. A name taken by another server gets the client's name
as a suffix (github-cursor). Secrets (values of *KEY*, *TOKEN*, *SECRET*, *PASSWORD* variables and
headers, and values shaped like keys: sk-..., ghp_..., xoxb-..., long random strings) never enter
the config: each goes to a file (mode 0600) in FILE's folder under <name>.secrets/, and the config
reads it with \${file:...}. What cannot be carried (client-only settings, values the client asks
for when it starts the server) is listed with why. Then a running switchboard reloads.

Options:
  -c, --config FILE      config file (default: ./proxy.config.json)
      --from CLIENT      only this client's files (repeatable)
      --file PATH        read this file instead of looking (repeatable; its format from --from or its name)
      --project DIR      where project-level files are looked for (default: the current folder)
      --dry-run          print what would change, as a diff of the config; write nothing
${RELOAD_HELP}`;

export async function runImport(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args, options: IMPORT_OPTIONS, strict: true, allowPositionals: true });
  if (positionals[0] !== undefined) throw new UsageError(`unexpected argument "${positionals[0]}"; see switchboard import --help`);
  const config = readConfigText(values.config ?? 'proxy.config.json', true);
  const existing = serversOf(parseConfigText(config));
  const configDir = path.dirname(config.file);
  const secretsDir = secretsDirOf(config.file);
  const relativeSecrets = path.relative(configDir, secretsDir).split(path.sep).join('/');
  const home = process.env['HOME'] ?? '';
  const found = collect({
    from: values.from ?? [],
    files: values.file ?? [],
    project: values.project ?? process.cwd(),
    env: process.env,
    promptRef: (file) => `\${file:${relativeSecrets}/${file}}`,
  });
  const merge = plan(found.carried, existing, configDir, secretsDir);

  const out: string[] = [];
  const total = found.read.reduce((n, r) => n + r.count, 0);
  out.push(`Found ${total} server${total === 1 ? '' : 's'} in ${found.read.length} file${found.read.length === 1 ? '' : 's'}${found.read.length > 0 ? ':' : '.'}`);
  for (const r of found.read) out.push(`  ${shown(r.source.file, home)} (${CLIENT_NAMES[r.source.client]}): ${r.count}`);
  for (const p of found.problems) out.push(`Skipped ${shown(p.source.file, home)} (${CLIENT_NAMES[p.source.client]}): ${p.problem}`);
  if (merge.added.length > 0) out.push('Added:');
  for (const a of merge.added) {
    const renamed = a.name !== a.from[0]?.found.name ? `, renamed: "${a.from[0]?.found.name ?? ''}" is another server's name` : '';
    out.push(`  ${a.name}  from ${a.from.map((s) => origin(s.found)).join(', ')}${renamed}`);
  }
  for (const p of merge.present) out.push(`Already in the config as ${p.as}: ${origin(p.server.found)}`);
  if (merge.secrets.length > 0) out.push(`Secrets moved out of the config into ${shown(secretsDir, home)}/ (mode 0600, read with \${file:...}): ${merge.secrets.map((s) => s.file).join(', ')}`);
  const notCarried = [
    ...found.left.map((l) => `  ${origin(l.found)}: not imported: ${l.reason}`),
    ...merge.added.flatMap((a) => a.from.flatMap((s) => s.notes.map((n) => `  ${origin(s.found)}: ${n}`))),
  ];
  if (notCarried.length > 0) out.push('Not carried:', ...notCarried);
  const prompts = merge.added.flatMap((a) => a.from.slice(0, 1).flatMap((s) => s.prompts.map((p) => ({ server: a.name, ...p }))));
  for (const p of prompts) {
    const file = /\$\{file:([^}]*)\}/.exec(p.ref)?.[1] ?? '';
    out.push(`To do: server ${p.server} needs ${p.at.join('.')}: ${p.why}; write it to ${shown(path.resolve(configDir, file), home)} (chmod 600)`);
  }

  let text = config.text;
  for (const a of merge.added) text = withServer(text, a.name, a.entry);
  if (merge.added.length > 0) {
    let resolved;
    try {
      resolved = validateConfigText(config.file, text);
    } catch (error) {
      if (error instanceof ConfigError) throw new ConfigError(config.file, [...error.problems, { path: '', problem: 'nothing was imported' }]);
      throw error;
    }
    for (const s of resolved.skipped) if (merge.added.some((a) => a.name === s.name)) out.push(`Warning: ${s.name} will be skipped when the switchboard starts: ${printable(s.reason)}`);
  }
  if (values['dry-run'] === true) {
    out.push('', merge.added.length === 0 ? 'Nothing to change (--dry-run).' : `--dry-run: nothing written. ${config.file} would change so:`);
    process.stdout.write(`${out.join('\n')}\n`);
    if (merge.added.length > 0) process.stdout.write(createTwoFilesPatch(config.file, config.file, config.existed ? config.text : '', text, '', ''));
    return 0;
  }
  if (merge.added.length === 0) {
    out.push('Nothing to add.');
    process.stdout.write(`${out.join('\n')}\n`);
    return 0;
  }
  // Secrets first: the config must never name a file that is not there yet.
  writeSecrets(secretsDir, merge.secrets);
  writeAtomic(config.file, text, config.mode);
  out.push(`Wrote ${config.file}: ${merge.added.length} server${merge.added.length === 1 ? '' : 's'} added.`);
  process.stdout.write(`${out.join('\n')}\n`);
  const told = await tellDaemon(config.file, values);
  (told.code === 0 ? process.stdout : process.stderr).write(`${told.code === 0 ? '' : 'switchboard: '}${told.line}\n`);
  return told.code;
}
