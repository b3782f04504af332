// The package installs as a command the usual way: packed (which builds it from the sources),
// installed globally into a prefix of its own, and `switchboard` runs from that prefix's bin
// directory: --version, check against a real server, and the daemon serving its status page.
// The package is packed from a copy of its sources, so the build never rewrites this checkout's
// dist/ while other test files run it.
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { ECHO, ROOT, describeRun, freePort, removeScratch, runBounded, waitFor } from './helpers.js';

/**
 * One build (~15 s on a quiet 2-core machine, several times that when every core is busy), an
 * install from npm's cache (~10 s), four runs. The bounds are for a machine that hangs, not a slow one.
 */
const PACK_TIMEOUT_MS = 180_000;
const INSTALL_TIMEOUT_MS = 120_000;
const TEST_TIMEOUT_MS = PACK_TIMEOUT_MS + INSTALL_TIMEOUT_MS + 60_000;

const run = promisify(execFile);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-install-'));
afterAll(() => removeScratch(dir));

const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string; bin: Record<string, string>; files: string[] };

/** npm's stdout; a failure or a timeout throws with npm's stderr, once npm and its build are gone. */
async function npm(args: string[], cwd: string, timeoutMs: number): Promise<string> {
  const env = { ...process.env, npm_config_loglevel: 'error', npm_config_fund: 'false', npm_config_audit: 'false', npm_config_update_notifier: 'false' };
  const result = await runBounded('npm', args, { cwd, env, timeoutMs });
  if (result.code !== 0) throw new Error(describeRun(`npm ${args[0]}`, result, timeoutMs));
  return result.stdout;
}

/** What `npm pack` needs of the checkout: the published files (dist is built) and the build's inputs. */
function copySources(to: string): void {
  for (const entry of [...pkg.files.filter((file) => file !== 'dist'), 'src', 'package.json', 'tsconfig.json', 'tsconfig.build.json']) {
    fs.cpSync(path.join(ROOT, entry), path.join(to, entry), { recursive: true });
  }
  // The build's compiler and type packages; nothing under node_modules is packed.
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(to, 'node_modules'), 'dir');
}

describe('installing the package', () => {
  it(
    'packs the built CLI, the status page, the manual (README and docs/, which it links to) and the licence, and runs as switchboard after npm install -g',
    async () => {
      const source = path.join(dir, 'source');
      const out = path.join(dir, 'out');
      fs.mkdirSync(out, { recursive: true });
      copySources(source);

      const packed = JSON.parse(await npm(['pack', '--json', '--pack-destination', out], source, PACK_TIMEOUT_MS)) as Array<{ filename: string; files: Array<{ path: string }> }>;
      const files = new Set(packed[0]?.files.map((file) => file.path));
      for (const file of ['dist/cli/main.js', 'dist/index.js', 'dist/ops/status.html', 'dist/sanitize/intent-model.json', 'dist/sanitize/hijack-lexicon.json', 'docs/SANITIZE.md', 'docs/configuration.md', 'docs/ARCHITECTURE.md', 'docs/clients/cursor.mcp.json', 'README.md', 'LICENSE', 'package.json']) expect(files).toContain(file);
      expect([...files].filter((file) => file.startsWith('src/') || file.startsWith('test/'))).toEqual([]);
      expect(Object.values(pkg.bin).every((bin) => files.has(bin))).toBe(true);

      const prefix = path.join(dir, 'global');
      await npm(['install', '--global', '--prefix', prefix, '--prefer-offline', path.join(out, packed[0]!.filename)], dir, INSTALL_TIMEOUT_MS);
      const installed = path.join(prefix, 'lib/node_modules/mcp-switchboard');
      const main = path.join(installed, 'dist/cli/main.js');
      expect(fs.readFileSync(main, 'utf8').split('\n')[0]).toBe('#!/usr/bin/env node');
      expect(fs.statSync(main).mode & 0o111).not.toBe(0);

      // Run by name from the prefix's bin, as a shell finds it on PATH.
      const env = { ...process.env, PATH: `${path.join(prefix, 'bin')}${path.delimiter}${process.env.PATH ?? ''}` };
      const switchboard = (args: string[]) => run('switchboard', args, { cwd: dir, env, timeout: 60_000 });
      expect((await switchboard(['--version'])).stdout.trim()).toBe(pkg.version);
      expect((await switchboard(['check', '--help'])).stdout).toMatch(/^Usage: switchboard check /);

      const config = path.join(dir, 'proxy.config.json');
      fs.writeFileSync(config, JSON.stringify({ mcpServers: { echo: { command: process.execPath, args: [ECHO] } } }));
      const check = await switchboard(['check', '-c', config]);
      expect(check.stdout).toMatch(/^echo\s+ready\s+1\s/m);

      // The daemon finds its status page beside its own module in the installed package.
      const port = await freePort();
      const daemon = spawn('switchboard', ['start', '-c', config, '--port', String(port)], { cwd: dir, env, stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      daemon.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      try {
        await waitFor(async () => (await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined))?.status === 200, 60_000, 'the installed daemon ready');
        const page = await fetch(`http://127.0.0.1:${port}/`);
        expect(page.status, stderr).toBe(200);
        expect(await page.text()).toContain('</html>');
      } finally {
        if (daemon.exitCode === null && daemon.signalCode === null) {
          const exited = new Promise((resolve) => daemon.once('exit', resolve));
          daemon.kill('SIGTERM');
          await exited;
        }
      }
    },
    TEST_TIMEOUT_MS,
  );
});
