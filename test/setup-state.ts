// Every test run gets its own XDG state dir, so pins and the sanitization log of one run (or of the
// developer's own daemon) never leak into another: a tool pinned by an earlier run would otherwise
// read as changed. Daemons spawned by tests inherit it through the environment.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export default function setup(): () => void {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-test-state-'));
  process.env.XDG_STATE_HOME = dir;
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
