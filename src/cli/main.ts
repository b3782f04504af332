#!/usr/bin/env node
// The `switchboard` command: parses flags, runs a subcommand, turns user errors into one line and exit 2.
import { parseArgs } from 'node:util';
import { ConfigError } from '../config/load.js';
import { SWITCHBOARD_VERSION } from '../protocol.js';
import { runStart } from './start.js';

const HELP: Record<string, string> = {
  main: `Usage: switchboard [command] [options]

Serve many stdio MCP servers, aggregated, as one MCP server over HTTP.

Commands:
  start        run the proxy in the foreground (default)

Options:
  -c, --config FILE   config file (default: ./proxy.config.json)
  -h, --help          show help for a command
  -v, --version       print the version
`,
  start: `Usage: switchboard start [-c FILE]

Runs the proxy in the foreground. Logs are JSON lines on stdout (pretty on a terminal).
SIGTERM or SIGINT stops it gracefully.

Options:
  -c, --config FILE   config file (default: ./proxy.config.json)
`,
};

/** A mistake of the user's: printed as one line, exit code 2, no stack. */
export class UsageError extends Error {
  readonly exitCode = 2;
}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      config: { type: 'string', short: 'c' },
      help: { type: 'boolean', short: 'h' },
      version: { type: 'boolean', short: 'v' },
    },
  });
  if (values.version) {
    process.stdout.write(`${SWITCHBOARD_VERSION}\n`);
    return 0;
  }
  const command = positionals[0] ?? 'start';
  if (positionals.length > 1) throw new UsageError(`unexpected argument "${positionals[1]}"; see switchboard ${command} --help`);
  const help = HELP[command];
  if (help === undefined) throw new UsageError(`unknown command "${command}"; see switchboard --help`);
  if (values.help) {
    process.stdout.write(positionals[0] === undefined ? HELP.main ?? '' : help);
    return 0;
  }
  return runStart(values.config ?? 'proxy.config.json');
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

function isParseArgsError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS');
}
