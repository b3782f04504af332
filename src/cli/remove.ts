// `switchboard remove NAME`: one server entry out of the config file, edited in place (comments and
// order kept), validated first, then the daemon reloads it and stops that server.
import { parseArgs } from 'node:util';
import { UsageError } from './flags.js';
import { parseConfigText, readConfigText, serversOf, withoutServer, validateConfigText, writeAtomic } from './config-edit.js';
import { RELOAD_HELP, RELOAD_OPTIONS, tellDaemon } from './daemon-reload.js';

export const REMOVE_OPTIONS = {
  config: { type: 'string', short: 'c' },
  ...RELOAD_OPTIONS,
} as const;

export const REMOVE_HELP = `Usage: switchboard remove NAME [-c FILE]

Removes the server NAME from the config file and asks the running switchboard to reload it, which
stops that server and takes its tools from every session's list. The rest of the file, comments
included, stays as it was. A NAME not in the config is refused; so is removing the last server.

Options:
  -c, --config FILE      config file (default: ./proxy.config.json)
${RELOAD_HELP}`;

export async function runRemove(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args, options: REMOVE_OPTIONS, strict: true, allowPositionals: true });
  const [name, extra] = positionals;
  if (name === undefined) throw new UsageError('remove needs a server name; see switchboard remove --help');
  if (extra !== undefined) throw new UsageError(`unexpected argument "${extra}"; see switchboard remove --help`);
  const config = readConfigText(values.config ?? 'proxy.config.json', false);
  const servers = Object.keys(serversOf(parseConfigText(config)));
  if (!servers.includes(name)) {
    throw new UsageError(`no server "${name}" in ${config.file}${servers.length > 0 ? ` (it has ${servers.slice(0, 10).join(', ')}${servers.length > 10 ? ', ...' : ''})` : ''}`);
  }
  if (servers.length === 1) throw new UsageError(`"${name}" is the last server in ${config.file}; a config needs at least one (nothing was changed)`);
  const text = withoutServer(config.text, name);
  validateConfigText(config.file, text);
  writeAtomic(config.file, text, config.mode);
  process.stdout.write(`removed server ${name} from ${config.file}\n`);
  const told = await tellDaemon(config.file, values);
  (told.code === 0 ? process.stdout : process.stderr).write(`${told.code === 0 ? '' : 'switchboard: '}${told.line}\n`);
  return told.code;
}
