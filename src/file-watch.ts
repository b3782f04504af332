// Watching one file for changes made by other processes (an editor, `switchboard approve`).
import fs from 'node:fs';
import path from 'node:path';

/**
 * Watches the file's directory, not the file: an editor or writer that saves by renaming a new file
 * over the old one would leave a watch on the file itself pointing at a deleted inode. Calls
 * `changed` on every event that may concern the file (callers debounce); the watcher does not keep
 * the process alive. Throws when the directory cannot be watched: the caller says what still works.
 */
export function watchFile(file: string, changed: () => void, failed: (error: Error) => void): fs.FSWatcher {
  const base = path.basename(file);
  const watcher = fs.watch(path.dirname(file), (_event, name) => {
    if (name === null || name === base) changed();
  });
  watcher.on('error', failed);
  watcher.unref();
  return watcher;
}
