// Tests that run `switchboard` as a process (the CLI, daemons started as a user would) run it from a
// build of the sources made once per run: under tsx each start spends about a second compiling, and
// ten times that when every core is busy, and the suite starts such processes a few hundred times.
// The build is emitted without type checking (`npm test` type-checks first) into a directory beside
// package.json, which the CLI reads its version from, and is removed when the run ends. A run of the
// unit tests alone starts no CLI and skips it. If the build fails, the tests fall back to tsx.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Files the build script copies beside the compiled modules (package.json "build"). */
const ASSETS = ['ops/status.html', 'sanitize/intent-model.json', 'sanitize/hijack-lexicon.json'];

/** Whether the run was asked for unit tests only (`vitest run test/unit`): no CLI is started then. */
function unitOnly(): boolean {
  const filters = process.argv.slice(2).filter((a) => !a.startsWith('-') && a !== 'run' && a !== 'watch');
  return filters.length > 0 && filters.every((f) => f.replace(/^\.\//, '').startsWith('test/unit'));
}

export default function setup(): (() => void) | undefined {
  if (unitOnly() || process.env['SWITCHBOARD_TEST_CLI'] !== undefined) return undefined;
  const out = path.join(ROOT, `.test-build-${randomBytes(4).toString('hex')}`);
  try {
    execFileSync(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', path.join(ROOT, 'tsconfig.build.json'), '--outDir', out, '--noCheck'], { cwd: ROOT, stdio: 'pipe' });
    for (const asset of ASSETS) fs.copyFileSync(path.join(ROOT, 'src', asset), path.join(out, asset));
    process.env['SWITCHBOARD_TEST_CLI'] = path.join(out, 'cli/main.js');
  } catch (err) {
    const why = err instanceof Error ? err.message.split('\n')[0] : String(err);
    process.stderr.write(`[test] could not build the CLI once for this run (${why}); CLI tests run it under tsx\n`);
    fs.rmSync(out, { recursive: true, force: true });
    return undefined;
  }
  return () => fs.rmSync(out, { recursive: true, force: true });
}
