// watchFile follows a file through its directory: a save by rename (as editors and the pin store
// do) is seen, and events for other files in the directory are not.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { watchFile } from '../../src/file-watch.js';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-file-watch-'));
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

const settle = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor(check: () => boolean, what: string): Promise<void> {
  for (const deadline = Date.now() + 15_000; !check(); ) {
    if (Date.now() > deadline) throw new Error(`${what} not seen within 15 s`);
    await settle(20);
  }
}

describe('watchFile', () => {
  it('sees a save by rename of the file, and not a change to another file beside it', async () => {
    const file = path.join(dir, 'config.json');
    fs.writeFileSync(file, '{}');
    let events = 0;
    const watcher = watchFile(file, () => void (events += 1), () => undefined);
    // A plain watch of the same directory: on Linux (inotify, where this suite runs) the process's
    // watches of one directory hear each change in the same turn, so once it has heard other.json,
    // watchFile has heard it too.
    const heard: string[] = [];
    const witness = fs.watch(dir, (_event, name) => void heard.push(String(name)));
    try {
      fs.writeFileSync(path.join(dir, 'other.json'), '{}');
      await waitFor(() => heard.includes('other.json'), 'the change to other.json');
      expect(events).toBe(0);
      const temp = path.join(dir, 'config.json.tmp');
      fs.writeFileSync(temp, '{"a":1}');
      fs.renameSync(temp, file);
      await waitFor(() => events > 0, 'the rename');
    } finally {
      witness.close();
      watcher.close();
    }
  });

  it('throws when the directory cannot be watched, so the caller can say what still works', () => {
    expect(() => watchFile(path.join(dir, 'missing', 'config.json'), () => undefined, () => undefined)).toThrow();
  });
});
