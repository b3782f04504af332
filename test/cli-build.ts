// Tests that run `switchboard` as a process (the CLI, daemons started as a user would) run it from a
// build of the sources: under tsx each start spends about a second compiling, and ten times that when
// every core is busy, and the suite starts such processes a few hundred times. dist/ is that build
// when it is newer than every source (as after `npm ci`); otherwise one is made for the run, emitted
// without type checking (`npm test` type-checks first) into a directory beside package.json, which
// the CLI reads its version from, with every file of src/ that is not TypeScript beside its modules
// as `npm run build` copies them, and removed when the run ends or is interrupted. A run of the unit
// tests alone starts no CLI and skips all this; so does watch mode, where a build would go stale at
// the first edit (tsx reads the sources at every start). If the build fails, the tests run the CLI
// under tsx. SWITCHBOARD_TEST_CLI set beforehand names the entry point to run instead (a file that
// does not exist means tsx).
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SRC = path.join(ROOT, 'src');
/** Bounds a hung compiler, not a pace: on a busy 2-core machine it takes 10-30 s. */
const BUILD_TIMEOUT_MS = 180_000;

/** Whether the run was asked for unit tests only (`vitest run test/unit`): no CLI is started then. */
function unitOnly(): boolean {
  const filters = process.argv.slice(2).filter((a) => !a.startsWith('-') && a !== 'run' && a !== 'watch');
  return filters.length > 0 && filters.every((f) => f.replace(/^\.\//, '').startsWith('test/unit'));
}

/** Every file under src/ that the compiler does not emit (the status page, the model, the lexicon). */
function copyAssets(dir: string, out: string): void {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const from = path.join(dir, entry.name);
    const to = path.join(out, path.relative(SRC, from));
    if (entry.isDirectory()) copyAssets(from, out);
    else if (!entry.name.endsWith('.ts') && !entry.name.endsWith('.md')) {
      fs.mkdirSync(path.dirname(to), { recursive: true });
      fs.copyFileSync(from, to);
    }
  }
}

/** Newest modification time of the files under a directory, and whether each .ts has its .js in `out`. */
function newestSource(dir: string, out: string): { newest: number; complete: boolean } {
  let newest = 0;
  let complete = true;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const from = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      const inner = newestSource(from, out);
      newest = Math.max(newest, inner.newest);
      complete &&= inner.complete;
      continue;
    }
    newest = Math.max(newest, fs.statSync(from).mtimeMs);
    if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) complete &&= fs.existsSync(path.join(out, path.relative(SRC, from)).replace(/\.ts$/, '.js'));
  }
  return { newest, complete };
}

/**
 * `npm ci` builds dist/ (the "prepare" script), so a fresh clone has a build of exactly these sources:
 * it is used when it is newer than every file under src/ and has a module for each.
 */
function freshDist(): string | undefined {
  const dist = path.join(ROOT, 'dist');
  const entry = path.join(dist, 'cli/main.js');
  if (!fs.existsSync(entry)) return undefined;
  const { newest, complete } = newestSource(SRC, dist);
  return complete && newest < fs.statSync(entry).mtimeMs ? entry : undefined;
}

export default function setup(project: TestProject): (() => void) | undefined {
  if (unitOnly() || project.config.watch || process.env['SWITCHBOARD_TEST_CLI'] !== undefined) return undefined;
  const built = freshDist();
  if (built !== undefined) {
    process.env['SWITCHBOARD_TEST_CLI'] = built;
    return undefined;
  }
  const out = path.join(ROOT, `.test-build-${randomBytes(4).toString('hex')}`);
  const remove = (): void => fs.rmSync(out, { recursive: true, force: true });
  // vitest exits the process on Ctrl-C or SIGTERM without running teardowns.
  process.once('exit', remove);
  try {
    const tsc = path.join(ROOT, 'node_modules/typescript/bin/tsc');
    execFileSync(process.execPath, [tsc, '-p', path.join(ROOT, 'tsconfig.build.json'), '--outDir', out, '--noCheck', '--declaration', 'false', '--sourceMap', 'false'], {
      cwd: ROOT,
      stdio: 'pipe',
      timeout: BUILD_TIMEOUT_MS,
    });
    copyAssets(SRC, out);
    process.env['SWITCHBOARD_TEST_CLI'] = path.join(out, 'cli/main.js');
  } catch (err) {
    const output = err instanceof Error && 'stdout' in err ? String((err as { stdout: unknown }).stdout).trim().split('\n').slice(0, 5).join(' | ') : '';
    const why = err instanceof Error ? err.message.split('\n')[0] : String(err);
    process.stderr.write(`[test] could not build the CLI once for this run (${why}${output ? `: ${output}` : ''}); CLI tests run it under tsx\n`);
    remove();
    return undefined;
  }
  return remove;
}
