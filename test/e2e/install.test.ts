// The package installs as a command the usual way: packed (prepack builds it), installed globally
// into a prefix of its own, and `switchboard` runs from that prefix's bin directory.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from './helpers.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-install-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const npm = (args: string[], cwd = ROOT): string =>
  execFileSync('npm', args, { cwd, encoding: 'utf8', timeout: 150_000, env: { ...process.env, npm_config_loglevel: 'error', npm_config_fund: 'false', npm_config_audit: 'false' } });

describe('installing the package', () => {
  it('packs the built CLI, the status page, the policy and the licence, and runs as switchboard after npm install -g', () => {
    const packed = JSON.parse(npm(['pack', '--json', '--pack-destination', dir])) as Array<{ filename: string; files: Array<{ path: string }> }>;
    const files = new Set(packed[0]?.files.map((file) => file.path));
    for (const file of ['dist/cli/main.js', 'dist/index.js', 'dist/ops/status.html', 'docs/SANITIZE.md', 'README.md', 'LICENSE', 'package.json']) expect(files).toContain(file);
    expect([...files].some((file) => file.startsWith('src/') || file.startsWith('test/'))).toBe(false);
    const tarball = path.join(dir, packed[0]!.filename);
    const prefix = path.join(dir, 'global');
    npm(['install', '--global', '--prefix', prefix, '--prefer-offline', tarball], dir);
    const bin = path.join(prefix, 'bin', 'switchboard');
    const version = execFileSync(bin, ['--version'], { encoding: 'utf8', timeout: 20_000 }).trim();
    expect(version).toBe(JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version);
    expect(execFileSync(bin, ['tools', '--help'], { encoding: 'utf8', timeout: 20_000 })).toContain('--search QUERY');
  }, 180_000);
});
