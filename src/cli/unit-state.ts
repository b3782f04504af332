// Where an installed service keeps its state: the CLI run from a shell must read the same pins and
// sanitization log as the daemon its unit runs, whose XDG_STATE_HOME (/var/lib for a system unit)
// is not the shell's (~/.local/state).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig, type LoadOptions } from '../config/load.js';
import type { SwitchboardConfig } from '../config/types.js';
import { describePinStore, redisUrlForLog } from '../config/state.js';
import { unitDir } from '../ops/systemd.js';

/** The environment to load the config with, and the unit it came from when one serves this config. */
export interface StateEnvironment {
  readonly env: NodeJS.ProcessEnv;
  /** Absolute path of the unit file whose daemon serves this config, if one was found. */
  readonly unit: string | undefined;
}

/** Unit files read at most per directory: /etc/systemd/system holds dozens, never thousands. */
const MAX_UNITS = 500;
/** Bytes; a unit file is a few KiB, anything larger is not ours. */
const MAX_UNIT_BYTES = 256 * 1024;

/**
 * The environment the daemon of `configFile` sees for its state: when a unit in the user's or the
 * system's unit directory runs `switchboard start -c <that file>`, its XDG_STATE_HOME replaces
 * the shell's. A config that names `sanitize.pins`/`sanitize.log` needs none of this:
 * those paths are the same for everyone.
 */
export function stateEnvironment(configFile: string, env: NodeJS.ProcessEnv = process.env): StateEnvironment {
  const config = path.resolve(configFile);
  const home = env['HOME'] || os.homedir();
  for (const dir of [unitDir('user', env, home), unitDir('system', env, home)]) {
    for (const file of unitFiles(dir)) {
      const unit = readUnit(file);
      if (unit === undefined || unit.config !== config) continue;
      const stateHome = unit.env['XDG_STATE_HOME'];
      // Units this package writes always set it; a hand-written one without it uses its user's home.
      if (stateHome === undefined || !path.isAbsolute(stateHome)) continue;
      return { env: { ...env, XDG_STATE_HOME: stateHome }, unit: file };
    }
  }
  return { env, unit: undefined };
}

function unitFiles(dir: string): string[] {
  try {
    return fs
      .readdirSync(dir)
      .filter((name) => name.endsWith('.service'))
      .sort()
      .slice(0, MAX_UNITS)
      .map((name) => path.join(dir, name));
  } catch {
    return [];
  }
}

interface ServedUnit {
  /** The absolute config path after `start -c`. */
  readonly config: string;
  readonly env: Readonly<Record<string, string>>;
}

/** A unit that runs `switchboard start -c FILE`, with its Environment= settings; else undefined. */
export function readUnit(file: string): ServedUnit | undefined {
  let text: string;
  try {
    if (fs.statSync(file).size > MAX_UNIT_BYTES) return undefined;
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  return parseUnit(text);
}

export function parseUnit(text: string): ServedUnit | undefined {
  let config: string | undefined;
  const env: Record<string, string> = {};
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('ExecStart=')) {
      const words = unitWords(line.slice('ExecStart='.length));
      const start = words.indexOf('start');
      const flag = words.indexOf('-c', start);
      const value = flag === -1 ? undefined : words[flag + 1];
      if (start !== -1 && value !== undefined && path.isAbsolute(value)) config = path.normalize(value);
    } else if (line.startsWith('Environment=')) {
      for (const word of unitWords(line.slice('Environment='.length))) {
        const eq = word.indexOf('=');
        if (eq > 0) env[word.slice(0, eq)] = word.slice(eq + 1);
      }
    }
  }
  return config === undefined ? undefined : { config, env };
}

/**
 * The words of a unit setting (systemd.syntax "Quoting"): whitespace-separated, double or single
 * quotes group, a backslash escapes the next character; `%%` and `$$` stand for `%` and `$`.
 */
export function unitWords(value: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: string | undefined;
  for (let i = 0; i < value.length; i += 1) {
    const c = value[i]!;
    if (c === '\\' && i + 1 < value.length) {
      word += value[i + 1];
      inWord = true;
      i += 1;
    } else if (quote !== undefined) {
      if (c === quote) quote = undefined;
      else word += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      inWord = true;
    } else if (c === ' ' || c === '\t') {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (inWord) words.push(word);
  return words.map((w) => w.replaceAll('%%', '%').replaceAll('$$', '$'));
}

/**
 * `loadConfig` for the commands that read the daemon's state (approve, audit, check, tools). None
 * of them serves a client, so the daemon's own secrets are not required (`options.secrets`, by
 * default `servers`): under systemd they live in the service's environment, not the operator's shell.
 */
export function loadConfigAsServed(file: string, options: LoadOptions = {}): { readonly config: SwitchboardConfig; readonly unit: string | undefined } {
  const state = stateEnvironment(file);
  return { config: loadConfig(file, state.env, { secrets: 'servers', ...options }), unit: state.unit };
}

/** One line naming the state files a command reads, and the unit they were found through. */
export function stateFilesLine(config: SwitchboardConfig, unit: string | undefined): string {
  const source = unit === undefined ? '' : ` (the state of ${unit})`;
  return `pins: ${pinsWhere(config)}, log: ${config.sanitize.log}${source}`;
}

/** Where the pins are kept, as a line names it: the pin file, or the Redis without its credentials. */
export function pinsWhere(config: SwitchboardConfig): string {
  return config.state.redis === undefined ? config.sanitize.pins : describePinStore(config.state.redis);
}

/** Where the pins are kept, for --json: a script must not read a pin file that is only Redis's seed. */
export type PinStoreReport =
  | { readonly kind: 'file'; readonly file: string }
  | {
      readonly kind: 'redis';
      /** Without user and password (redisUrlForLog): --json output is pasted into tickets. */
      readonly url: string;
      readonly prefix: string;
      readonly key: string;
      readonly from: 'state.redis' | 'limits.redis';
      /** Seeds an empty Redis once; judged by only while Redis holds no pins. */
      readonly file: string;
    };

export function pinStoreReport(config: SwitchboardConfig): PinStoreReport {
  const redis = config.state.redis;
  if (redis === undefined) return { kind: 'file', file: config.sanitize.pins };
  return { kind: 'redis', url: redisUrlForLog(redis.url), prefix: redis.prefix, key: `${redis.prefix}pins`, from: redis.from, file: config.sanitize.pins };
}
