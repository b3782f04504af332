// `switchboard service install|uninstall` run as processes against a temporary HOME, and `start` notifying systemd.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { UNIT_MARKER } from '../../src/ops/systemd.js';
import { parseUnit } from '../unit/ops/systemd-ini.js';
import { CLI, CLI_ENTRY, FIXTURE, ROOT, CLI_TIMEOUT_MS, cliArgsFor } from './helpers.js';

const ENTRY = path.join(ROOT, 'dist/cli/main.js');
/** `systemd-analyze verify` when this machine has it; otherwise the tests parse the unit themselves. */
const ANALYZE = hasCommand('systemd-analyze');
const CHECK = ANALYZE ? 'systemd-analyze verify' : 'structural check: systemd-analyze not installed';
const IS_ROOT = process.getuid?.() === 0;
const SETPRIV = hasCommand('setpriv');

function hasCommand(name: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

interface Outcome {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

let tmp: string;
let home: string;
let xdgConfig: string;
let configDir: string;
let config: string;
let other: string;
let unitFile: string;
let env: NodeJS.ProcessEnv;

/** Runs `command` (program first) from the checkout and collects how it ended. */
function run(command: readonly string[], runEnv: NodeJS.ProcessEnv): Promise<Outcome> {
  const [file, ...argv] = command as [string, ...string[]];
  return new Promise((resolve) => {
    execFile(file, argv, { cwd: ROOT, env: runEnv, timeout: CLI_TIMEOUT_MS }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
      resolve({ code, stdout, stderr });
    });
  });
}

/** Runs the CLI as this user. */
function cli(args: string[], extraEnv: NodeJS.ProcessEnv = {}): Promise<Outcome> {
  return run([process.execPath, ...CLI, ...args], { ...env, ...extraEnv });
}

const NOBODY = ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups', '--'];

/**
 * The command line that runs `switchboard ARGS` as a user other than root, or why this machine
 * cannot. Not root: as is. Root: as nobody (65534) through setpriv. nobody must be able to read the
 * checkout, which a clone under /root or in a 0700 temporary directory denies; then the checkout is
 * bind-mounted at a directory everyone may enter, in a mount namespace of that one command (nothing
 * else sees the mount, and it goes when the command exits), and nobody runs the CLI from there.
 */
async function nonRootCommand(args: string[]): Promise<string[] | string> {
  if (!IS_ROOT) return [process.execPath, ...CLI, ...args];
  if (!SETPRIV) return 'running as root, and setpriv (util-linux) is not installed to drop to an unprivileged user';
  const needs = [CLI_ENTRY, path.join(ROOT, 'node_modules/tsx/package.json')];
  const readable = await run([...NOBODY, 'sh', '-c', 'test -r "$1" && test -r "$2"', 'sh', ...needs], env);
  if (readable.code === 0) return [...NOBODY, process.execPath, ...CLI, ...args];
  const view = path.join(tmp, 'checkout-for-nobody');
  fs.mkdirSync(view, { recursive: true });
  // The test's own temporary directory is 0700 too; the view's parents must let nobody through.
  fs.chmodSync(tmp, 0o755);
  fs.chmodSync(view, 0o755);
  const mounted = ['unshare', '--mount', '--propagation', 'private', 'sh', '-c', 'mount --bind "$1" "$2" && cd "$2" && shift 2 && exec "$@"', 'sh', ROOT, view];
  const inView = path.relative(ROOT, CLI_ENTRY);
  const probe = await run([...mounted, ...NOBODY, 'sh', '-c', 'test -r "$1" && test -r node_modules/tsx/package.json', 'sh', inView], env);
  if (probe.code !== 0) {
    return `nobody (uid 65534) cannot read ${ROOT}, and no private mount namespace could lend it the checkout: ${probe.stderr.trim() || `exit ${probe.code}`}`;
  }
  return [...mounted, ...NOBODY, process.execPath, ...cliArgsFor(path.join(view, inView)), ...args];
}

/** Checks a written unit the strictest way this machine allows (the test's name says which). */
async function verified(file: string, scope: 'user' | 'system'): Promise<void> {
  if (!ANALYZE) {
    const unit = parseUnit(fs.readFileSync(file, 'utf8'));
    expect([...unit.keys()]).toEqual(['Unit', 'Service', 'Install']);
    const service = unit.get('Service')!;
    for (const key of ['Type', 'ExecStart', 'Restart', 'RestartSec', 'KillMode', 'TimeoutStopSec', 'NoNewPrivileges']) expect([key, service.has(key)]).toEqual([key, true]);
    expect(service.get('ExecStart')![0]!.startsWith('/')).toBe(true);
    expect(unit.get('Install')!.get('WantedBy')).toEqual([scope === 'user' ? 'default.target' : 'multi-user.target']);
    return;
  }
  const runtime = fs.mkdtempSync(path.join(tmp, 'runtime-'));
  const args = [...(scope === 'user' ? ['--user'] : []), 'verify', file];
  const { code, stderr } = await new Promise<Outcome>((resolve) => {
    execFile('systemd-analyze', args, { env: { ...env, XDG_RUNTIME_DIR: runtime } }, (error, stdout, err) => {
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stdout, stderr: err });
    });
  });
  // Unknown keys and bad values are only warnings to systemd; a unit we write must have none.
  expect(stderr).toBe('');
  expect(code).toBe(0);
}

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-service-'));
  home = path.join(tmp, 'home');
  xdgConfig = path.join(tmp, 'xdg config');
  // Spaces and `%` in the path: the unit must quote and escape them.
  configDir = path.join(tmp, 'team %i config');
  fs.mkdirSync(home);
  fs.mkdirSync(configDir);
  const server = { command: process.execPath, args: [FIXTURE], env: { FIXTURE_NAME: 'alpha' } };
  config = path.join(configDir, 'proxy.config.json');
  fs.writeFileSync(config, JSON.stringify({ listen: { host: '127.0.0.1', port: 0 }, mcpServers: { alpha: server } }));
  other = path.join(configDir, 'other.json');
  fs.writeFileSync(other, JSON.stringify({ mcpServers: { beta: server }, limits: { shutdownGraceMs: 30_000 } }));
  unitFile = path.join(xdgConfig, 'systemd/user/mcp-switchboard.service');
  env = { ...process.env, HOME: home, XDG_CONFIG_HOME: xdgConfig };
  delete env.XDG_STATE_HOME;
  delete env.NOTIFY_SOCKET;
});

afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

// Each test runs the CLI up to four times in a row: room for a busy machine.
describe('switchboard service', { timeout: 4 * CLI_TIMEOUT_MS }, () => {
  it('install --user --dry-run prints the unit and writes nothing', async () => {
    const { code, stdout } = await cli(['service', 'install', '--user', '-c', config, '--dry-run']);
    expect(code).toBe(0);
    expect(stdout.startsWith(`${UNIT_MARKER}\n`)).toBe(true);
    const service = parseUnit(stdout).get('Service')!;
    expect(service.get('ExecStart')).toEqual([`${process.execPath} --max-semi-space-size=8 ${ENTRY} start -c "${config.replace('%', '%%')}"`]);
    expect(fs.existsSync(xdgConfig)).toBe(false);
    expect(fs.existsSync(path.join(home, '.local'))).toBe(false);
  });

  it(`install --user writes the unit, makes the state dir and names the next commands (${CHECK})`, async () => {
    expect(fs.existsSync(ENTRY), `${ENTRY} is missing: npm run build`).toBe(true);
    const { code, stdout, stderr } = await cli(['service', 'install', '--user', '-c', config]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toContain(`Wrote ${unitFile}`);
    for (const next of [
      'systemctl --user daemon-reload',
      'systemctl --user enable --now mcp-switchboard',
      'journalctl --user -u mcp-switchboard -f',
      'loginctl enable-linger $USER',
    ]) {
      expect(stdout).toContain(next);
    }
    expect(fs.statSync(path.join(home, '.local/state/mcp-switchboard')).isDirectory()).toBe(true);
    const service = parseUnit(fs.readFileSync(unitFile, 'utf8')).get('Service')!;
    expect(service.get('Environment')).toContain(`XDG_STATE_HOME=${path.join(home, '.local/state')}`);
    await verified(unitFile, 'user');
  });

  it('installing the same unit again changes nothing; a different one is refused without --force', async () => {
    const before = fs.readFileSync(unitFile, 'utf8');
    const same = await cli(['service', 'install', '--user', '-c', config]);
    expect(same.code).toBe(0);
    expect(same.stdout).toContain(`Unchanged: ${unitFile}`);

    const refused = await cli(['service', 'install', '--user', '-c', other]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^switchboard: .*already exists and differs.*--force.*\n$/);
    expect(refused.stderr.split('\n')).toHaveLength(2);
    expect(fs.readFileSync(unitFile, 'utf8')).toBe(before);

    const forced = await cli(['service', 'install', '--user', '-c', other, '--force']);
    expect(forced.code).toBe(0);
    expect(forced.stdout).toContain(`Replaced ${unitFile}`);
    expect(forced.stdout).toContain('systemctl --user restart mcp-switchboard');
    // limits.shutdownGraceMs of 30 s: systemd must wait longer before SIGKILL.
    expect(Number(parseUnit(fs.readFileSync(unitFile, 'utf8')).get('Service')!.get('TimeoutStopSec')![0])).toBeGreaterThan(34);
  });

  it('uninstall --user refuses while the unit is enabled, then removes it and names daemon-reload', async () => {
    const wants = path.join(xdgConfig, 'systemd/user/default.target.wants');
    fs.mkdirSync(wants, { recursive: true });
    fs.symlinkSync(unitFile, path.join(wants, 'mcp-switchboard.service'));
    const refused = await cli(['service', 'uninstall', '--user']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe('switchboard: mcp-switchboard is still enabled: run "systemctl --user disable --now mcp-switchboard" first, then uninstall again\n');
    expect(fs.existsSync(unitFile)).toBe(true);
    fs.rmSync(path.join(wants, 'mcp-switchboard.service'));

    const { code, stdout, stderr } = await cli(['service', 'uninstall', '--user']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toContain(`Removed ${unitFile}`);
    expect(stdout).toContain('systemctl --user daemon-reload');
    expect(fs.existsSync(unitFile)).toBe(false);

    const again = await cli(['service', 'uninstall', '--user']);
    expect(again.code).toBe(2);
    expect(again.stderr).toBe(`switchboard: no unit mcp-switchboard.service at ${unitFile}: nothing to uninstall\n`);
  });

  it('uninstall leaves a unit it did not write alone', async () => {
    const foreign = path.join(xdgConfig, 'systemd/user/sshd-tunnel.service');
    fs.writeFileSync(foreign, '[Service]\nExecStart=/bin/true\n');
    const { code, stderr } = await cli(['service', 'uninstall', '--user', '--name', 'sshd-tunnel']);
    expect(code).toBe(2);
    expect(stderr).toContain('was not written by "switchboard service install"');
    expect(fs.existsSync(foreign)).toBe(true);
  });

  it('a bad config, flag, name or action: one line on stderr, exit 2, nothing written', async () => {
    const broken = path.join(tmp, 'broken.json');
    fs.writeFileSync(broken, '{"mcpServers": {"x": {"command": 42}}}');
    const cases: string[][] = [
      ['service', 'install', '--user', '-c', broken],
      ['service', 'install', '--user', '-c', path.join(tmp, 'missing.json')],
      ['service', 'install', '--user', '-c', config, '--bogus'],
      ['service', 'install', '--user', '-c', config, '--name', '../escape'],
      ['service', 'frobnicate'],
      ['service'],
      ['service', 'uninstall', '--user', '-c', config],
    ];
    const outcomes = await Promise.all(cases.map((args) => cli(args)));
    outcomes.forEach(({ code, stderr }, i) => {
      const args = cases[i]!.join(' ');
      expect([args, code]).toEqual([args, 2]);
      expect([args, stderr]).toEqual([args, expect.stringMatching(/^switchboard: [^\n]+\n$/)]);
    });
    expect(fs.readdirSync(path.join(xdgConfig, 'systemd/user')).filter((f) => f.startsWith('mcp-switchboard'))).toEqual([]);
  });

  // Run as root, the test drops to nobody to see what everyone else sees (nonRootCommand says how).
  it('a system unit needs root: one line pointing at sudo or --user, for install and uninstall', async (ctx) => {
    for (const action of ['install', 'uninstall']) {
      const command = await nonRootCommand(['service', action]);
      if (typeof command === 'string') return ctx.skip(command);
      const { code, stderr } = await run(command, env);
      expect({ action, code, stderr }).toEqual({
        action,
        code: 2,
        stderr: expect.stringMatching(/^switchboard: (installing|removing) a system unit in \/etc\/systemd\/system needs root.*--user[^\n]*\n$/),
      });
    }
  });

  it(`install --dry-run of a system unit prints one that passes (${CHECK})`, async () => {
    const { code, stdout } = await cli(['service', 'install', '-c', config, '--dry-run', '--name', 'sb-dry']);
    expect(code).toBe(0);
    const file = path.join(tmp, 'sb-dry.service');
    fs.writeFileSync(file, stdout);
    const service = parseUnit(stdout).get('Service')!;
    expect(service.get('StateDirectory')).toEqual(['mcp-switchboard']);
    expect(service.get('ProtectHome')).toEqual(['read-only']);
    await verified(file, 'system');
    expect(fs.existsSync('/etc/systemd/system/sb-dry.service')).toBe(false);
  });
});

describe('switchboard start under systemd (NOTIFY_SOCKET set, fake systemd-notify)', { timeout: 2 * CLI_TIMEOUT_MS }, () => {
  it('sends READY=1 once its servers started and STOPPING=1 on SIGTERM, then exits 0', async () => {
    const bin = path.join(tmp, 'bin');
    const record = path.join(tmp, 'notify.txt');
    fs.mkdirSync(bin, { recursive: true });
    fs.writeFileSync(path.join(bin, 'systemd-notify'), `#!/bin/sh\necho "$*" >> "${record}"\n`, { mode: 0o755 });
    const child = spawn(process.execPath, [...CLI, 'start', '-c', config], {
      cwd: ROOT,
      env: { ...env, NOTIFY_SOCKET: '/run/fake/notify', PATH: `${bin}${path.delimiter}${env.PATH ?? ''}`, SWITCHBOARD_LOG_LEVEL: 'silent' },
      stdio: 'ignore',
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const lines = () => (fs.existsSync(record) ? fs.readFileSync(record, 'utf8').trimEnd().split('\n') : []);
    await expect.poll(lines, { timeout: CLI_TIMEOUT_MS }).toEqual([expect.stringMatching(/^--ready --status=listening on http:\/\/127\.0\.0\.1:\d+\/mcp; 1 of 1 servers ready$/)]);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    await expect.poll(lines).toHaveLength(2);
    expect(lines()[1]).toMatch(/^STOPPING=1 /);
  });
});
