// The timestamped backup `connect` leaves beside a client's file, and `--undo` putting it back byte
// for byte. The backup's name carries a digest of what connect wrote, so undo can tell whether the
// file was changed since (the client, or its user) and refuses to throw that away.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { UsageError } from '../flags.js';
import { writeAtomic } from '../config-edit.js';

const MARK = '.switchboard-backup-';
/** A backup of a file that did not exist: undo removes the file. */
const ABSENT = '.absent';

export function digest(text: string | Buffer): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 12);
}

/** `20261127T004512Z`: sorts as it reads. */
function stamp(now: Date): string {
  return now.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
}

/** Writes the backup of `file` (or marks it absent), then the new text atomically; returns the backup's path. */
export function backupAndWrite(file: string, before: Buffer | undefined, after: string, now = new Date()): string {
  const backup = `${file}${MARK}${stamp(now)}-${digest(after)}${before === undefined ? ABSENT : ''}`;
  const mode = before === undefined ? 0o600 : fs.statSync(file).mode & 0o777;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(backup, before ?? '', { mode, flag: 'wx' });
  fs.chmodSync(backup, mode);
  writeAtomic(file, after, mode);
  return backup;
}

/** The newest backup beside `file`, or undefined. */
export function latestBackup(file: string): string | undefined {
  const dir = path.dirname(file);
  const prefix = `${path.basename(file)}${MARK}`;
  let names: string[];
  try {
    names = fs.readdirSync(dir).filter((n) => n.startsWith(prefix));
  } catch {
    return undefined;
  }
  const newest = names.sort().at(-1);
  return newest === undefined ? undefined : path.join(dir, newest);
}

/** Puts the newest backup back (removing the file if it did not exist before) and deletes the backup. */
export function restore(file: string, force: boolean): string {
  const backup = latestBackup(file);
  if (backup === undefined) throw new UsageError(`no backup of ${file} from "switchboard connect" to restore`);
  const wrote = /-([0-9a-f]{12})(\.absent)?$/.exec(backup)?.[1];
  let current: Buffer | undefined;
  try {
    current = fs.readFileSync(file);
  } catch {
    current = undefined;
  }
  if (!force && current !== undefined && wrote !== undefined && digest(current) !== wrote) {
    throw new UsageError(`${file} changed after "switchboard connect"; restoring ${backup} would lose that: pass --force, or copy it back by hand`);
  }
  if (backup.endsWith(ABSENT)) fs.rmSync(file, { force: true });
  else writeAtomic(file, fs.readFileSync(backup), fs.statSync(backup).mode & 0o777);
  fs.rmSync(backup);
  return backup;
}
