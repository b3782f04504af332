// The pin file on disk: read (a corrupt file is an error), written atomically (temp file and
// rename), and the temp files of killed writers cleaned up.
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, readdir, rename, unlink, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { isPinFile, type PinFile } from './pin-data.js';

/** $XDG_STATE_HOME/mcp-switchboard/pins.json, or ~/.local/state/mcp-switchboard/pins.json. */
export function defaultPinPath(env: NodeJS.ProcessEnv = process.env): string {
  const base = env['XDG_STATE_HOME'] || join(env['HOME'] || homedir(), '.local', 'state');
  return join(base, 'mcp-switchboard', 'pins.json');
}

/** The file's pins and the digest of its text; undefined when there is no file. Corrupt: an error naming the file. */
export async function readPinFile(path: string): Promise<{ data: PinFile; digest: string } | undefined> {
  await removeStaleTemps(path);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as { code?: unknown }).code === 'ENOENT') return undefined;
    throw err;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    // The path makes the error actionable; a bare JSON.parse message names no file.
    throw new Error(`${path}: not a pin file (invalid JSON: ${(err as Error).message})`);
  }
  if (!isPinFile(parsed)) throw new Error(`${path}: not a pin file (expected {"v":1,"servers":{...}})`);
  return { data: parsed, digest: textDigest(text) };
}

/** Writes a temporary file beside the target and renames it over (atomic on one filesystem); returns the text's digest. */
export async function writePinFile(path: string, data: PinFile): Promise<string> {
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    const text = `${JSON.stringify(data, null, 1)}\n`;
    await writeFile(tmp, text, { mode: 0o600 });
    await rename(tmp, path);
    return textDigest(text);
  } catch (err) {
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
}

/**
 * Temp files of saves that never finished: the writer was killed between write and rename. Named
 * `<pins>.<pid>.<hex>.tmp`; those of a process that no longer exists are removed (never a live
 * writer's, which may be about to rename its file).
 */
async function removeStaleTemps(path: string): Promise<void> {
  const dir = dirname(path);
  const prefix = `${basename(path)}.`;
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(prefix) || !name.endsWith('.tmp')) continue;
    const match = /^(\d+)\.[0-9a-f]+\.tmp$/.exec(name.slice(prefix.length));
    if (match === null || processAlive(Number(match[1]))) continue;
    await unlink(join(dir, name)).catch(() => undefined);
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: unknown }).code === 'EPERM';
  }
}

function textDigest(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
