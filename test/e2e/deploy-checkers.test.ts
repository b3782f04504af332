// HAProxy and nginx accept the deployment configs as shipped, checked by their own programs
// (Debian's packages; README: npm test). The other deployment files: test/unit/deploy/.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './helpers.js';

const binary = (...candidates: string[]): string => {
  const found = candidates.find((candidate) => fs.existsSync(candidate));
  if (found === undefined) throw new Error(`${path.basename(candidates[0] ?? '')} is not installed (README: test prerequisites)`);
  return found;
};

describe('deploy/ by its checkers', () => {
  it('haproxy accepts deploy/haproxy/switchboard.cfg', () => {
    const run = spawnSync(binary('/usr/sbin/haproxy', '/usr/bin/haproxy'), ['-c', '-f', path.join(ROOT, 'deploy/haproxy/switchboard.cfg')], { encoding: 'utf8' });
    expect(run.status, run.stderr + run.stdout).toBe(0);
  });

  it('nginx accepts deploy/nginx/switchboard.conf inside an http block', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-nginx-t-'));
    try {
      const main = path.join(dir, 'nginx.conf');
      fs.writeFileSync(main, `pid ${dir}/nginx.pid;\nerror_log ${dir}/error.log;\nevents {}\nhttp {\n  include ${path.join(ROOT, 'deploy/nginx/switchboard.conf')};\n}\n`);
      const run = spawnSync(binary('/usr/sbin/nginx', '/usr/bin/nginx'), ['-t', '-p', dir, '-c', main], { encoding: 'utf8' });
      expect(run.status, run.stderr).toBe(0);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
