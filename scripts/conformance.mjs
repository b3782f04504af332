#!/usr/bin/env node
// `npm run conformance`: runs the MCP conformance suite (@modelcontextprotocol/conformance, server
// mode) against the proxy, with test/fixtures/conformance-server.mjs as its only child, served on
// its own endpoint /s/conf/mcp (names unprefixed, as the suite expects). Four runs of two pinned
// suites, each against a fresh proxy, each with its baseline: 0.1.16 (the session era, its active
// suite) with the child spoken to in the session era; 0.2.0-alpha.12 with `--requirements
// 2026-07-28` (the stateless era, at its wire version) with a child of that era alone; and
// 0.2.0-alpha.12 at both requirement sets (2025-11-25, 2026-07-28) with a child of both eras left to
// the era probe (the default config), which must serve clients of either era in their own.
//
// 1. Installs the pinned tools into scripts/conformance/node_modules (`npm ci` there; nothing global,
//    nothing in the root package.json: the `node` package's bin would shadow the system node).
// 2. Builds the proxy if dist/ is missing (or with --build).
// 3. Starts the proxy on a free loopback port with a temporary config, waits for /readyz.
// 4. Runs `conformance server --url http://127.0.0.1:PORT/s/conf/mcp` with Node 22 first on PATH
//    (the suite needs Node >= 22; the proxy itself runs on the system node), with the baseline
//    scripts/conformance/expected-failures.yml.
// 5. Stops the proxy and makes sure no process of the run is left.
// 6. Prints a summary; exit 0 only if every failure is in the baseline and no baseline entry passes.
//
// Usage: npm run conformance [-- [--build] [--verbose] [--era RUN] [conformance server options...]]
//   --build      rebuild the proxy even if dist/ exists
//   --verbose    stream the suite's own output (it is always saved to the results directory)
//   --era        run one run only: session, stateless, dual-session or dual-stateless
//   anything else goes to `conformance server`, e.g. `--scenario ping` or `--suite all` (with --era)
// Results: test-artifacts/conformance/<timestamp>/ (checks.json per scenario, suite.log, proxy.log).
// Env: CONFORMANCE_TIMEOUT_MS (whole suite, default 600000), SWITCHBOARD_LOG_LEVEL (proxy, default debug).

import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const TOOLS = join(ROOT, 'scripts', 'conformance');
const SUITE_0_1 = join(TOOLS, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
const SUITE_0_2 = join(TOOLS, 'node_modules', 'conformance-2026-07-28', 'dist', 'index.js');
const REQUIREMENTS = (revision) => join(TOOLS, 'node_modules', 'conformance-2026-07-28', 'requirements', `${revision}.yaml`);
/** The fixture as a server of the 2026-07-28 era alone (it refuses initialize). */
const STATELESS_ONLY = { CONFORMANCE_ERAS: 'stateless' };
/** The runs: a suite (and for 0.2.0 the requirement set it scores) against a child of some era(s). */
const SUITES = [
  {
    era: 'session',
    label: 'session era',
    main: SUITE_0_1,
    baseline: join(TOOLS, 'expected-failures.yml'),
    args: [],
    // The fixture speaks both eras; here the proxy speaks the session era with it (no probe).
    childProtocol: 'session',
  },
  {
    era: 'stateless',
    label: 'stateless era',
    main: SUITE_0_2,
    baseline: join(TOOLS, 'expected-failures-2026-07-28.yml'),
    // The scenarios the revision requires, at its wire version; not-scored ones run and are reported.
    args: ['--requirements', '2026-07-28'],
    requirements: REQUIREMENTS('2026-07-28'),
    // Probed: the fixture answers server/discover and refuses initialize, so the proxy speaks the
    // stateless era with it too.
    childProtocol: 'auto',
    childEnv: STATELESS_ONLY,
  },
  {
    // Session clients of a child of both eras, left to the probe: the proxy initializes it, so they
    // keep resources/subscribe, sampling and elicitation (the stateless era removed them).
    era: 'dual-session',
    label: 'session era, child of both eras',
    main: SUITE_0_2,
    baseline: join(TOOLS, 'expected-failures-2025-11-25.yml'),
    args: ['--requirements', '2025-11-25'],
    requirements: REQUIREMENTS('2025-11-25'),
    childProtocol: 'auto',
  },
  {
    // Stateless clients of the same child: their requests reach it in their era, its own
    // input_required rounds included.
    era: 'dual-stateless',
    label: 'stateless era, child of both eras',
    main: SUITE_0_2,
    baseline: join(TOOLS, 'expected-failures-2026-07-28.yml'),
    args: ['--requirements', '2026-07-28'],
    requirements: REQUIREMENTS('2026-07-28'),
    childProtocol: 'auto',
  },
];
const FIXTURE = join(ROOT, 'test', 'fixtures', 'conformance-server.mjs');
const PROXY_MAIN = join(ROOT, 'dist', 'cli', 'main.js');
const NODE_PKG = join(TOOLS, 'node_modules', 'node');
const NODE22 = join(NODE_PKG, 'bin', process.platform === 'win32' ? 'node.exe' : 'node');
const SERVER = 'conf';
const SUITE_TIMEOUT_MS = Number(process.env.CONFORMANCE_TIMEOUT_MS) || 600_000;

const say = (line) => process.stdout.write(`[conformance] ${line}\n`);

class RunError extends Error {}

// ---------------------------------------------------------------------------------------------
// Arguments

const argv = process.argv.slice(2);
const forceBuild = takeFlag('--build');
const verbose = takeFlag('--verbose');
const onlyEra = takeValue('--era');
const suiteArgs = argv;

function takeValue(flag) {
  const index = argv.indexOf(flag);
  if (index === -1) return undefined;
  const value = argv[index + 1];
  argv.splice(index, 2);
  return value;
}

function takeFlag(flag) {
  const index = argv.indexOf(flag);
  if (index === -1) return false;
  argv.splice(index, 1);
  return true;
}

// ---------------------------------------------------------------------------------------------
// Helpers

function run(command, args, options) {
  const result = spawnSync(command, args, { stdio: 'inherit', ...options });
  if (result.error) throw new RunError(`${command} ${args.join(' ')}: ${result.error.message}`);
  if (result.status !== 0) throw new RunError(`${command} ${args.join(' ')} exited with ${result.status ?? result.signal}`);
}

function nodeVersion(binary) {
  if (!existsSync(binary)) return undefined;
  const result = spawnSync(binary, ['--version'], { encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim() : undefined;
}

/** npm scripts export npm_* variables describing the root project; keep them from the nested npm. */
function cleanEnv(extra = {}) {
  const env = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!/^npm_/i.test(key)) env[key] = value;
  }
  return { ...env, ...extra };
}

function freePort() {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolvePort(port));
    });
  });
}

const sleep = (ms) => new Promise((resolveSleep) => setTimeout(resolveSleep, ms));

// ---------------------------------------------------------------------------------------------
// 1. Tools

function ensureTools() {
  const lock = join(TOOLS, 'package-lock.json');
  const installed = join(TOOLS, 'node_modules', '.package-lock.json');
  const stale = !existsSync(installed) || statSync(installed).mtimeMs < statSync(lock).mtimeMs || SUITES.some((suite) => !existsSync(suite.main));
  if (stale) {
    say('installing pinned tools into scripts/conformance/node_modules (npm ci)');
    // package.json there approves the `node` package's preinstall (allowScripts); it fetches the
    // platform binary (node-<os>-<arch>) and links it to node_modules/node/bin/node.
    run('npm', ['ci', '--no-audit', '--no-fund'], { cwd: TOOLS, env: cleanEnv() });
  }
  let version = nodeVersion(NODE22);
  if (!version?.startsWith('v22.')) {
    // The preinstall did not run (ignore-scripts, or a stricter npm): run it by hand.
    say('node@22 binary missing (install script skipped?): running its installArchSpecificPackage by hand');
    run(process.execPath, ['installArchSpecificPackage.js'], { cwd: NODE_PKG, env: cleanEnv() });
    version = nodeVersion(NODE22);
  }
  if (!version?.startsWith('v22.')) throw new RunError(`no Node 22 at ${NODE22} (got ${version ?? 'nothing'})`);
  for (const suite of SUITES) suite.version = JSON.parse(readFileSync(join(dirname(dirname(suite.main)), 'package.json'), 'utf8')).version;
  return { node22: version };
}

// ---------------------------------------------------------------------------------------------
// 3. Proxy

/** The fixture gets this marker argument (it ignores argv) so leftovers can be found by it. */
let marker;

async function startProxy(workDir, resultsDir, childProtocol, childEnv) {
  const port = await freePort();
  marker = `--conformance-run=${workDir}`;
  const config = {
    listen: { host: '127.0.0.1', port },
    mcpServers: { [SERVER]: { command: process.execPath, args: [FIXTURE, marker], protocol: childProtocol, ...(childEnv === undefined ? {} : { env: childEnv }) } },
  };
  const configFile = join(workDir, 'config.json');
  writeFileSync(configFile, JSON.stringify(config, null, 2));
  const logFile = join(resultsDir, 'proxy.log');
  const logStream = createWriteStream(logFile);
  await new Promise((ready) => logStream.on('open', ready));
  const proxy = spawn(process.execPath, [PROXY_MAIN, 'start', '-c', configFile], {
    cwd: ROOT,
    // Its own process group, so a last-resort kill reaches everything it started in that group.
    detached: true,
    stdio: ['ignore', logStream, logStream],
    // Pins and the sanitization log stay in the run's work dir, never the user's state dir.
    env: cleanEnv({ SWITCHBOARD_LOG_LEVEL: process.env.SWITCHBOARD_LOG_LEVEL ?? 'debug', XDG_STATE_HOME: workDir }),
  });
  const exited = new Promise((resolveExit) => proxy.on('exit', (code, signal) => resolveExit({ code, signal })));
  let exitInfo;
  void exited.then((info) => (exitInfo = info));
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 20_000;
  let last = 'no answer';
  while (Date.now() < deadline) {
    if (exitInfo) break;
    try {
      const response = await fetch(`${base}/readyz`, { signal: AbortSignal.timeout(1000) });
      last = `${response.status} ${(await response.text()).slice(0, 300)}`;
      if (response.status === 200) return { proxy, exited, port, base, logFile, logStream };
    } catch (error) {
      last = error.cause?.code ?? error.message;
    }
    await sleep(100);
  }
  const handle = { proxy, exited, logFile, logStream };
  await stopProxy(handle);
  throw new RunError(
    exitInfo
      ? `proxy exited early (${exitInfo.code ?? exitInfo.signal}); see ${logFile}`
      : `proxy not ready after 20 s (last /readyz: ${last}); see ${logFile}`,
  );
}

/** SIGTERM (graceful: the proxy stops its children), then SIGKILL to the group after 5 s. */
async function stopProxy(handle) {
  if (!handle || handle.stopped) return;
  handle.stopped = true;
  const { proxy, exited } = handle;
  if (proxy.exitCode === null && proxy.signalCode === null) {
    proxy.kill('SIGTERM');
    const result = await Promise.race([exited, sleep(5000).then(() => undefined)]);
    if (result === undefined) {
      say('proxy did not stop within 5 s of SIGTERM: killing its process group');
      killGroup(proxy.pid, 'SIGKILL');
      await exited;
    }
  }
  // Anything still in its group (it is the leader) is a leak.
  killGroup(proxy.pid, 'SIGKILL');
  await new Promise((done) => handle.logStream.end(done));
}

function killGroup(pgid, signal) {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false; // ESRCH: the group is empty
  }
}

/** Processes whose command line carries this run's marker (Linux /proc only). */
function leftoverPids() {
  if (!marker || !existsSync('/proc/self/cmdline')) return [];
  const pids = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').includes(marker)) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

async function reapLeftovers() {
  // The proxy may still be closing a child's stdin when it exits; give stragglers a moment.
  for (let i = 0; i < 20 && leftoverPids().length > 0; i += 1) await sleep(100);
  const pids = leftoverPids();
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  return pids;
}

// ---------------------------------------------------------------------------------------------
// 4. Suite

/** The running suite, killed if this script is interrupted. */
let suiteProcess;

function runSuite(suite, { base, resultsDir }) {
  const url = `${base}/s/${SERVER}/mcp`;
  const args = [suite.main, 'server', '--url', url, '-o', resultsDir, '--expected-failures', suite.baseline, ...suite.args, ...suiteArgs];
  say(`running: conformance ${args.slice(1).join(' ')}`);
  const logFile = join(resultsDir, 'suite.log');
  const log = createWriteStream(logFile);
  // Node 22 first on PATH for this command only.
  const env = cleanEnv({ PATH: `${dirname(NODE22)}${delimiter}${process.env.PATH ?? ''}`, FORCE_COLOR: '0', NO_COLOR: '1' });
  const child = spawn(NODE22, args, { cwd: resultsDir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  suiteProcess = child;
  let output = '';
  for (const stream of [child.stdout, child.stderr]) {
    stream.on('data', (chunk) => {
      output += chunk;
      log.write(chunk);
      if (verbose) process.stdout.write(chunk);
    });
  }
  return new Promise((resolveSuite) => {
    const timer = setTimeout(() => {
      say(`suite still running after ${SUITE_TIMEOUT_MS} ms: killing it`);
      child.kill('SIGKILL');
    }, SUITE_TIMEOUT_MS);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      log.end();
      resolveSuite({ code: code ?? 1, signal, output, logFile, url });
    });
  });
}

// ---------------------------------------------------------------------------------------------
// 6. Summary (from the checks.json files, with the suite's own rules)

const TIMESTAMP = /-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$/;

/** The `- name` lines under `server:` of a YAML file (a baseline, a requirement set); the suite parses them fully. */
function serverList(file) {
  const names = [];
  let inServer = false;
  for (const raw of readFileSync(file, 'utf8').split('\n')) {
    const line = raw.replace(/#.*$/, '').trimEnd();
    if (line.trim() === '') continue;
    if (/^\S/.test(line)) inServer = /^server:\s*(\[\s*\])?$/.test(line);
    else if (inServer) {
      const match = /^\s*-\s*(\S+)\s*$/.exec(line);
      if (match) names.push(match[1].replace(/^['"]|['"]$/g, ''));
    }
  }
  return names;
}

function summarize(resultsDir) {
  const scenarios = [];
  for (const entry of readdirSync(resultsDir).sort()) {
    if (!entry.startsWith('server-') || !TIMESTAMP.test(entry)) continue;
    const file = join(resultsDir, entry, 'checks.json');
    if (!existsSync(file)) continue;
    const checks = JSON.parse(readFileSync(file, 'utf8'));
    scenarios.push({ name: entry.slice('server-'.length).replace(TIMESTAMP, ''), checks });
  }
  return scenarios;
}

function report(suite, scenarios) {
  const baseline = new Set(serverList(suite.baseline));
  // A requirement set scores only the scenarios it lists; the others are run and reported.
  const scored = suite.requirements === undefined ? undefined : new Set(serverList(suite.requirements));
  const notScored = scored === undefined ? [] : scenarios.filter((s) => !scored.has(s.name));
  if (scored !== undefined) scenarios = scenarios.filter((s) => scored.has(s.name));
  const count = (checks, status) => checks.filter((check) => check.status === status).length;
  let passedChecks = 0;
  let failedChecks = 0;
  let warningChecks = 0;
  const failedScenarios = [];
  for (const { name, checks } of scenarios) {
    passedChecks += count(checks, 'SUCCESS');
    failedChecks += count(checks, 'FAILURE');
    warningChecks += count(checks, 'WARNING');
    // The suite's baseline rule: a FAILURE or a WARNING fails the scenario.
    if (checks.some((check) => check.status === 'FAILURE' || check.status === 'WARNING')) failedScenarios.push(name);
  }
  const unexpected = failedScenarios.filter((name) => !baseline.has(name));
  const expected = failedScenarios.filter((name) => baseline.has(name));
  const stale = scenarios.map((s) => s.name).filter((name) => baseline.has(name) && !failedScenarios.includes(name));

  say(`suite @modelcontextprotocol/conformance ${suite.version} (${suite.label})`);
  say(
    `scenarios: ${scenarios.length - failedScenarios.length} passed, ${failedScenarios.length} failed ` +
      `(${expected.length} expected by the baseline) of ${scenarios.length}`,
  );
  say(`checks: ${passedChecks} passed, ${failedChecks} failed, ${warningChecks} warnings`);
  for (const { name, checks } of scenarios) {
    if (!failedScenarios.includes(name)) continue;
    say(`${baseline.has(name) ? 'EXPECTED FAILURE' : 'FAILED'} ${name}`);
    for (const check of checks) {
      if (check.status !== 'FAILURE' && check.status !== 'WARNING') continue;
      say(`    ${check.status} ${check.id}: ${check.errorMessage ?? check.description}`);
    }
  }
  for (const name of stale) say(`STALE baseline entry (now passes, remove it): ${name}`);
  if (notScored.length > 0) {
    const failing = notScored.filter(({ checks }) => checks.some((check) => check.status === 'FAILURE' || check.status === 'WARNING'));
    say(`not scored by the requirement set: ${notScored.length - failing.length} of ${notScored.length} passed; failing: ${failing.map((s) => s.name).join(', ') || 'none'}`);
  }
  return { unexpected, stale };
}

// ---------------------------------------------------------------------------------------------
// Main

async function main() {
  if (suiteArgs.includes('--url')) throw new RunError('--url is chosen by this script (the proxy\'s /s/conf/mcp)');
  if (onlyEra !== undefined && !SUITES.some((suite) => suite.era === onlyEra)) throw new RunError(`--era takes ${SUITES.map((suite) => suite.era).join(' or ')}`);
  const { node22 } = ensureTools();
  const suites = SUITES.filter((suite) => onlyEra === undefined || suite.era === onlyEra);
  say(`tools: ${suites.map((suite) => `conformance ${suite.version} (${suite.label})`).join(', ')}, node ${node22} (suites only; proxy on ${process.version})`);
  if (forceBuild || !existsSync(PROXY_MAIN)) {
    say('building the proxy (npm run build)');
    run('npm', ['run', 'build'], { cwd: ROOT });
  }
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  let ok = true;
  for (const suite of suites) ok = (await runOne(suite, join(ROOT, 'test-artifacts', 'conformance', stamp, suite.era))) && ok;
  say(ok ? 'OK: no unexpected failures' : 'FAILED: unexpected failures or stale baseline entries');
  return ok ? 0 : 1;
}

/** One suite against a fresh proxy (the fixture's state, dynamic tools and all, does not carry over). */
async function runOne(suite, resultsDir) {
  mkdirSync(resultsDir, { recursive: true });
  const workDir = mkdtempSync(join(tmpdir(), 'switchboard-conformance-'));

  let handle;
  let outcome;
  const interrupted = async (signal) => {
    say(`${signal}: stopping`);
    if (suiteProcess && suiteProcess.exitCode === null) suiteProcess.kill('SIGKILL');
    await stopProxy(handle);
    await reapLeftovers();
    rmSync(workDir, { recursive: true, force: true });
    process.exit(130);
  };
  const onInt = () => void interrupted('SIGINT');
  const onTerm = () => void interrupted('SIGTERM');
  process.once('SIGINT', onInt);
  process.once('SIGTERM', onTerm);

  try {
    handle = await startProxy(workDir, resultsDir, suite.childProtocol, suite.childEnv);
    say(`proxy pid ${handle.proxy.pid} ready on ${handle.base}`);
    outcome = await runSuite(suite, { base: handle.base, resultsDir });
  } finally {
    process.off('SIGINT', onInt);
    process.off('SIGTERM', onTerm);
    await stopProxy(handle);
    const leftovers = await reapLeftovers();
    if (leftovers.length > 0) say(`WARNING: processes left after the proxy stopped (killed): ${leftovers.join(', ')}`);
    rmSync(workDir, { recursive: true, force: true });
  }

  const scenarios = summarize(resultsDir);
  if (scenarios.length === 0) {
    process.stdout.write(outcome.output.slice(-4000));
    throw new RunError(`the suite produced no results (exit ${outcome.code}); see ${outcome.logFile}`);
  }
  const { unexpected, stale } = report(suite, scenarios);
  say(`results: ${resultsDir}`);
  const ok = outcome.code === 0 && unexpected.length === 0 && stale.length === 0;
  if (!ok && outcome.code !== 0 && unexpected.length === 0 && stale.length === 0) {
    say(`the suite exited with ${outcome.code ?? outcome.signal}; see ${outcome.logFile}`);
  }
  return ok;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`[conformance] ${error instanceof RunError ? error.message : (error?.stack ?? error)}\n`);
    process.exit(2);
  },
);
