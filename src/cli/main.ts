#!/usr/bin/env node
// The `switchboard` command: parses flags, runs a subcommand, turns user errors into one line and exit 2.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ConfigError, parsePort, type LoadOptions } from '../config/load.js';
import { SWITCHBOARD_VERSION } from '../protocol.js';
import { APPROVE_HELP, APPROVE_OPTIONS, runApprove } from './approve.js';
import { AUDIT_HELP, AUDIT_OPTIONS, runAudit } from './audit.js';
import { CHECK_HELP, CHECK_OPTIONS, runCheck } from './check.js';
import { UsageError } from './flags.js';
import { SERVICE_HELP, SERVICE_OPTIONS, runService } from './service.js';
import { runStart } from './start.js';
import { RESTART_HELP, RESTART_OPTIONS, runRestart } from './restart.js';
import { LOGIN_HELP, LOGIN_OPTIONS, runLogin } from './login.js';
import { TOOLS_HELP, TOOLS_OPTIONS, runTools } from './tools.js';
import { ADD_HELP, ADD_OPTIONS, runAdd } from './add.js';
import { REMOVE_HELP, REMOVE_OPTIONS, runRemove } from './remove.js';
import { IMPORT_HELP, IMPORT_OPTIONS, runImport } from './import.js';
import { CONNECT_HELP, CONNECT_OPTIONS, runConnect } from './connect.js';

const MAIN_HELP = `Usage: switchboard [command] [options]

Serve many stdio MCP servers, aggregated, as one MCP server over HTTP.

Commands:
  start        run the proxy in the foreground (default)
  check        start every server once; report state, tools and tokens per server and profile
  tools        list the tools a profile sees, with estimated tokens
  service      install or uninstall a systemd unit that runs start
  audit        summarize the sanitization log per server and rule
  approve      accept changed tool definitions of a server (re-pin them)
  restart      ask the running daemon for a fresh child of one server
  login        sign the proxy in to a remote server that wants OAuth (once, in a browser)
  add          add a server to the config (a command, or a --url) and reload the running daemon
  remove       remove a server from the config and reload the running daemon
  import       bring the MCP servers of your clients (Claude, Cursor, VS Code, ...) into the config
  connect      point a client at the switchboard (a backup is kept; --undo puts it back)

Options:
  -c, --config FILE   config file (default: ./proxy.config.json)
  -h, --help          show help for a command
  -v, --version       print the version
`;

const START_HELP = `Usage: switchboard start [-c FILE] [--host HOST] [--port PORT] [--strict]

Runs the proxy in the foreground. Logs are JSON lines on stdout (pretty on a terminal).
SIGTERM or SIGINT stops it gracefully; SIGHUP reloads the config.

A server entry that cannot be used (a command that is not installed, a "url" that is not one, a
bad field) is skipped with its reason and the other servers start; --strict refuses the file.

Options:
  -c, --config FILE   config file (default: ./proxy.config.json)
      --host HOST     listen on HOST instead of listen.host (env SWITCHBOARD_HOST)
      --port PORT     listen on PORT instead of listen.port (env SWITCHBOARD_PORT; 0: any free port)
      --strict        refuse the whole config when one server entry is unusable
`;

const START_OPTIONS = {
  config: { type: 'string', short: 'c' },
  host: { type: 'string' },
  port: { type: 'string' },
  strict: { type: 'boolean' },
} as const;
const GLOBAL_OPTIONS = { help: { type: 'boolean', short: 'h' }, version: { type: 'boolean', short: 'v' } } as const;

interface Command {
  readonly help: string;
  /** The flags it accepts; any other flag is refused before it runs. */
  readonly options: NonNullable<ParseArgsConfig['options']>;
  /** Takes words after its name (`service install`, `approve SERVER TOOL`); other commands refuse any. */
  readonly subcommands?: boolean;
  /** Runs with the arguments minus the command's name; resolves to the exit code. */
  run(args: string[]): Promise<number>;
}

const COMMANDS = new Map<string, Command>([
  [
    'start',
    {
      help: START_HELP,
      options: START_OPTIONS,
      run: async (args) => {
        const { values } = parseArgs({ args, options: START_OPTIONS, strict: true });
        return runStart(values.config ?? 'proxy.config.json', startOptions(values));
      },
    },
  ],
  ['check', { help: CHECK_HELP, options: CHECK_OPTIONS, run: runCheck }],
  ['tools', { help: TOOLS_HELP, options: TOOLS_OPTIONS, run: runTools }],
  ['service', { help: SERVICE_HELP, options: SERVICE_OPTIONS, run: runService, subcommands: true }],
  ['audit', { help: AUDIT_HELP, options: AUDIT_OPTIONS, run: runAudit }],
  ['approve', { help: APPROVE_HELP, options: APPROVE_OPTIONS, run: runApprove, subcommands: true }],
  ['restart', { help: RESTART_HELP, options: RESTART_OPTIONS, run: runRestart, subcommands: true }],
  ['login', { help: LOGIN_HELP, options: LOGIN_OPTIONS, run: runLogin, subcommands: true }],
  ['add', { help: ADD_HELP, options: ADD_OPTIONS, run: runAdd, subcommands: true }],
  ['remove', { help: REMOVE_HELP, options: REMOVE_OPTIONS, run: runRemove, subcommands: true }],
  ['import', { help: IMPORT_HELP, options: IMPORT_OPTIONS, run: runImport }],
  ['connect', { help: CONNECT_HELP, options: CONNECT_OPTIONS, run: runConnect, subcommands: true }],
]);

async function main(argv: string[]): Promise<number> {
  // One pass over every command's flags finds the command wherever it stands (`-c FILE check`
  // works too) without mistaking a flag's value for it; the command then parses its own flags.
  const { values, positionals, tokens } = parseArgs({
    args: argv,
    allowPositionals: true,
    tokens: true,
    options: { ...START_OPTIONS, ...TOOLS_OPTIONS, ...CHECK_OPTIONS, ...SERVICE_OPTIONS, ...AUDIT_OPTIONS, ...APPROVE_OPTIONS, ...RESTART_OPTIONS, ...LOGIN_OPTIONS, ...ADD_OPTIONS, ...REMOVE_OPTIONS, ...IMPORT_OPTIONS, ...CONNECT_OPTIONS, ...GLOBAL_OPTIONS },
  });
  if (values.version) {
    process.stdout.write(`${SWITCHBOARD_VERSION}\n`);
    return 0;
  }
  const name = positionals[0] ?? 'start';
  const command = COMMANDS.get(name);
  if (positionals.length > 1 && command?.subcommands !== true) throw new UsageError(`unexpected argument "${positionals[1]}"; see switchboard ${name} --help`);
  if (command === undefined) throw new UsageError(`unknown command "${name}"; see switchboard --help`);
  if (values.help) {
    process.stdout.write(positionals[0] === undefined ? MAIN_HELP : command.help);
    return 0;
  }
  let commandIndex = -1;
  for (const token of tokens) {
    if (token.kind === 'positional' && commandIndex === -1) commandIndex = token.index;
    if (token.kind === 'option' && !Object.hasOwn(command.options, token.name)) {
      throw new UsageError(`${token.rawName} is not an option of "${name}"; see switchboard ${name} --help`);
    }
  }
  return command.run(argv.filter((_, i) => i !== commandIndex));
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code !== 0) process.exitCode = code;
  },
  (error: unknown) => {
    const userError = error instanceof ConfigError || error instanceof UsageError || isParseArgsError(error);
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`switchboard: ${message.split('\n')[0]}\n`);
    process.exitCode = userError ? 2 : 1;
  },
);

function startOptions(values: { host?: string | undefined; port?: string | undefined; strict?: boolean | undefined }): LoadOptions {
  let port: number | undefined;
  if (values.port !== undefined) {
    port = parsePort(values.port);
    if (port === undefined) throw new UsageError(`--port expects a port number from 0 to 65535, got "${values.port}"`);
  }
  if (values.host !== undefined && values.host.trim() === '') throw new UsageError('--host expects a host name or address');
  return { listen: { host: values.host, port }, strict: values.strict === true };
}

function isParseArgsError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS');
}
