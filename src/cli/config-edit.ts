// Editing the config file in place for `add`, `remove` and `import`: edits that keep its comments,
// key order and indentation (jsonc-edit.ts); the result is validated by the loader before an atomic write.
import fs from 'node:fs';
import path from 'node:path';
import { ConfigError, resolveConfig } from '../config/load.js';
import { parseJson } from '../config/json.js';
import type { SwitchboardConfig } from '../config/types.js';
import { isPlainObject } from '../config/validate.js';
import { insertProperty, objectAt, removeProperty } from './jsonc-edit.js';

/** What a fresh config holds when `add` or `import` finds no file: the Claude Desktop shape. */
const NEW_CONFIG = '{\n  "mcpServers": {}\n}\n';

export interface ConfigText {
  /** Absolute path. */
  readonly file: string;
  readonly text: string;
  /** False when the file was not there and `text` is a fresh config. */
  readonly existed: boolean;
  /** The file's permission bits, kept by the rewrite (a config holding secrets may be 0600). */
  readonly mode: number;
}

/** The config's text, or a fresh one when `create` and there is no file. Unreadable is a ConfigError. */
export function readConfigText(file: string, create: boolean): ConfigText {
  const abs = path.resolve(file);
  try {
    return { file: abs, text: fs.readFileSync(abs, 'utf8'), existed: true, mode: fs.statSync(abs).mode & 0o777 };
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'ENOENT' && create) return { file: abs, text: NEW_CONFIG, existed: false, mode: 0o644 };
    throw new ConfigError(abs, [{ path: '', problem: `cannot read config file: ${code === 'ENOENT' ? 'no such file' : String(code)}` }]);
  }
}

/** The parsed config, refused with the loader's exact position when it is not JSON (with comments). */
export function parseConfigText(config: ConfigText): Record<string, unknown> {
  const parsed = parseJson(config.text);
  if (!parsed.ok) {
    const { line, column, problem } = parsed.error;
    throw new ConfigError(config.file, [{ path: `line ${line}, column ${column}`, problem: `invalid JSON: ${problem}; nothing was changed` }]);
  }
  if (!isPlainObject(parsed.value)) throw new ConfigError(config.file, [{ path: '', problem: 'expected a JSON object with "mcpServers"; nothing was changed' }]);
  return parsed.value;
}

/** The server entries as written (an absent or malformed `mcpServers` reads as none). */
export function serversOf(parsed: Record<string, unknown>): Record<string, unknown> {
  const servers = parsed['mcpServers'];
  return isPlainObject(servers) ? servers : {};
}

/** The text with server `name` added as the last entry of `mcpServers` (created when missing). */
export function withServer(text: string, name: string, entry: unknown): string {
  const servers = objectAt(text, ['mcpServers']);
  if (servers !== undefined) return insertProperty(text, servers, name, entry);
  const root = objectAt(text, []);
  if (root === undefined) throw new Error('the config is not a JSON object');
  return insertProperty(text, root, 'mcpServers', { [name]: entry });
}

/** The text without server `name`; the rest byte for byte as it was. */
export function withoutServer(text: string, name: string): string {
  const servers = objectAt(text, ['mcpServers']);
  return servers === undefined ? text : removeProperty(text, servers, name);
}

/**
 * The loader's verdict on the new text, as `check` would give it but starting nothing: secrets that
 * are not available here are warnings (the daemon may have them). Throws the ConfigError.
 */
export function validateConfigText(file: string, text: string, env: NodeJS.ProcessEnv = process.env): SwitchboardConfig {
  const parsed = parseJson(text);
  if (!parsed.ok) {
    const { line, column, problem } = parsed.error;
    throw new ConfigError(file, [{ path: `line ${line}, column ${column}`, problem: `invalid JSON: ${problem}` }]);
  }
  return resolveConfig(parsed.value, { file, dir: path.dirname(file) }, env, { secrets: 'none' });
}

/**
 * Writes by temp file and rename in the same folder: a daemon watching the file, or a crash midway,
 * never sees half a config. The temp file has the final mode before it holds a byte.
 */
export function writeAtomic(link: string, text: string | Uint8Array, mode: number): void {
  // A config kept in a dotfiles repository is often a symlink: write where it points, keep the link.
  let file = link;
  try {
    file = fs.realpathSync(link);
  } catch {
    // Not there yet: written where named.
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  try {
    const fd = fs.openSync(tmp, 'w', mode);
    try {
      fs.writeFileSync(fd, text);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.chmodSync(tmp, mode);
    fs.renameSync(tmp, file);
  } catch (error) {
    fs.rmSync(tmp, { force: true });
    throw error;
  }
}
