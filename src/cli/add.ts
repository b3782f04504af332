// `switchboard add NAME -- COMMAND ARGS...` / `add NAME --url URL`: one server entry into the config
// file, edited in place (comments and order kept), validated first, then the daemon reloads it.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { UsageError } from './flags.js';
import { parseConfigText, readConfigText, serversOf, withServer, validateConfigText, writeAtomic } from './config-edit.js';
import { RELOAD_HELP, RELOAD_OPTIONS, tellDaemon } from './daemon-reload.js';
import { moveSecrets, secretOnDisk, secretsDirOf, writeSecrets, type MovedSecret } from './import/secrets.js';

export const ADD_OPTIONS = {
  config: { type: 'string', short: 'c' },
  env: { type: 'string', multiple: true },
  url: { type: 'string' },
  header: { type: 'string', multiple: true },
  ...RELOAD_OPTIONS,
} as const;

export const ADD_HELP = `Usage: switchboard add NAME [--env KEY=VALUE ...] [-c FILE] -- COMMAND [ARGS...]
       switchboard add NAME --url URL [--header NAME=VALUE ...] [-c FILE]

Adds the server NAME to the config file (created when there is none) and asks the running
switchboard to reload it, so the server's tools appear without a restart. The file is edited in
place: its comments, key order and indentation stay. The new config is validated as the loader
does before anything is written, and written atomically. A NAME already in the config is refused.

Secrets stay out of the file: a value that looks like one (an --env or --header named *KEY*,
*TOKEN*, *SECRET*, *PASSWORD*, or shaped like a key) is written to a file of its own (mode 0600)
in <config>.secrets/ beside the config, which reads it with \${file:...}. Or write the reference
yourself: --env TOKEN='\${file:secrets/token}' (see docs/configuration.md).

Examples:
  switchboard add fs -- npx -y @modelcontextprotocol/server-filesystem /srv/docs
  switchboard add github --env GITHUB_PERSONAL_ACCESS_TOKEN='\${file:secrets/github}' -- github-mcp-server stdio
  switchboard add docs --url https://docs.example.com/mcp

Options:
  -c, --config FILE      config file (default: ./proxy.config.json)
      --env KEY=VALUE    an environment variable of the server (repeatable)
      --url URL          a remote server (Streamable HTTP or SSE) instead of a command
      --header K=V       a header sent to the remote server (repeatable)
${RELOAD_HELP}`;

/** Names that stay readable as a tool prefix and a JSON key. */
const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

export async function runAdd(args: string[]): Promise<number> {
  const { values, positionals, tokens } = parseArgs({ args, options: ADD_OPTIONS, strict: true, allowPositionals: true, tokens: true });
  const terminator = tokens.find((t) => t.kind === 'option-terminator')?.index;
  const before = terminator === undefined ? positionals : tokens.filter((t) => t.kind === 'positional' && t.index < terminator).map((t) => (t.kind === 'positional' ? t.value : ''));
  const command = terminator === undefined ? [] : args.slice(terminator + 1);
  const [name, extra] = before;
  if (name === undefined) throw new UsageError('add needs a server name; see switchboard add --help');
  if (extra !== undefined) throw new UsageError(`unexpected argument "${extra}" before "--"; see switchboard add --help`);
  if (!NAME.test(name)) throw new UsageError(`a server name is 1 to 64 letters, digits and "_.-", starting with a letter or digit; got "${name}"`);
  const entry = serverEntry(values, command);

  const config = readConfigText(values.config ?? 'proxy.config.json', true);
  const servers = serversOf(parseConfigText(config));
  if (Object.hasOwn(servers, name)) throw new UsageError(`server "${name}" is already in ${config.file}; remove it first or choose another name`);
  // A token typed on the command line still stays out of the config: it goes to a 0600 file, as import does.
  const secretsDir = secretsDirOf(config.file);
  const moved: MovedSecret[] = [];
  moveSecrets(entry, [name], (file) => `\${file:${path.basename(secretsDir)}/${file}}`, moved, (file) => secretOnDisk(secretsDir, file));
  const text = withServer(config.text, name, entry);
  const resolved = validateConfigText(config.file, text);
  const skipped = resolved.skipped.find((s) => s.name === name);
  if (skipped !== undefined) throw new UsageError(`server "${name}" could not be used: ${skipped.reason}; nothing was changed`);
  writeSecrets(secretsDir, moved);
  writeAtomic(config.file, text, config.mode);
  process.stdout.write(`added server ${name} to ${config.file}${config.existed ? '' : ' (a new file)'}\n`);
  if (moved.length > 0) process.stdout.write(`secrets kept out of the config, in ${secretsDir}/ (mode 0600, read with \${file:...}): ${moved.map((m) => m.file).join(', ')}\n`);
  const told = await tellDaemon(config.file, values);
  (told.code === 0 ? process.stdout : process.stderr).write(`${told.code === 0 ? '' : 'switchboard: '}${told.line}\n`);
  return told.code;
}

function serverEntry(values: { env?: string[] | undefined; url?: string | undefined; header?: string[] | undefined }, command: string[]): Record<string, unknown> {
  if (values.url !== undefined) {
    if (command.length > 0) throw new UsageError('give either --url URL or -- COMMAND, not both');
    if (values.env !== undefined) throw new UsageError('--env is for a command; a remote server (--url) takes --header');
    const headers = pairs(values.header, '--header');
    return { url: values.url, ...(Object.keys(headers).length > 0 ? { headers } : {}) };
  }
  if (values.header !== undefined) throw new UsageError('--header is for a remote server (--url)');
  const [executable, ...rest] = command;
  if (executable === undefined || executable === '') throw new UsageError('add needs "-- COMMAND [ARGS...]" or "--url URL"; see switchboard add --help');
  const env = pairs(values.env, '--env');
  return { command: executable, args: rest, ...(Object.keys(env).length > 0 ? { env } : {}) };
}

/** KEY=VALUE flags as an object, in the order given. */
function pairs(flags: readonly string[] | undefined, flag: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of flags ?? []) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new UsageError(`${flag} expects KEY=VALUE, got "${pair.slice(0, 40)}"`);
    const key = pair.slice(0, eq);
    if (Object.hasOwn(out, key)) throw new UsageError(`${flag} ${key} is given twice`);
    out[key] = pair.slice(eq + 1);
  }
  return out;
}
