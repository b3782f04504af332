// A new user's first hour, run as a user would: the daemon as a process on a busy port, on
// another port by flag or environment, with a Cursor-style config holding entries it cannot use,
// and the CLI reading the state of a systemd unit that serves the same config.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { pinIdentity } from '../../src/catalog/review.js';
import { PinStore } from '../../src/sanitize/index.js';
import { CLI, FIXTURE, ROOT, freePort, runCli, waitFor, CLI_TIMEOUT_MS } from './helpers.js';

let dir: string;
const daemons: ChildProcess[] = [];

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-first-run-'));
});
afterEach(async () => {
  await Promise.all(daemons.splice(0).map(stopDaemon));
});
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

function writeConfig(name: string, body: unknown): string {
  const file = path.join(dir, `${name}.json`);
  fs.writeFileSync(file, JSON.stringify(body, null, 2));
  return file;
}

/** A server entry whose child writes `marker` as soon as it runs: proof that a child was started. */
function markingServer(marker: string): Record<string, unknown> {
  return { command: process.execPath, args: ['-e', `require('fs').writeFileSync(${JSON.stringify(marker)}, 'started'); setInterval(() => {}, 1000)`] };
}

const fixtureServer = (name: string) => ({ command: process.execPath, args: [FIXTURE], env: { FIXTURE_NAME: name } });
/** A server that dies on start as under npx: npm's noise on stderr, then its own last words (test/fixtures/failing-server.mjs). */
const failingServer = (env: Record<string, string>) => ({ command: process.execPath, args: [path.join(ROOT, 'test/fixtures/failing-server.mjs')], env });

interface Daemon {
  readonly process: ChildProcess;
  output(): string;
}

function startDaemon(args: readonly string[], env: NodeJS.ProcessEnv = process.env): Daemon {
  let output = '';
  const child = spawn(process.execPath, [...CLI, ...args], {
    cwd: ROOT,
    env: { ...env, SWITCHBOARD_LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  daemons.push(child);
  return { process: child, output: () => output };
}

async function stopDaemon(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 15_000))]);
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

function exitOf(child: ChildProcess, timeoutMs: number): Promise<number | string | undefined> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return Promise.race([
    new Promise<number | string>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? -1))),
    new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), timeoutMs)),
  ]);
}

async function healthy(port: number): Promise<boolean> {
  const reply = await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => undefined);
  return reply?.status === 200;
}

describe('switchboard start', () => {
  it('exits non-zero at once on a busy port, before starting any server', async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as net.AddressInfo).port;
    try {
      const marker = path.join(dir, 'busy-marker');
      const file = writeConfig('busy', { listen: { port }, mcpServers: { marking: markingServer(marker) } });
      const daemon = startDaemon(['start', '-c', file]);
      const code = await exitOf(daemon.process, 15_000);
      expect(code, daemon.output()).toBe(1);
      expect(daemon.output()).toContain(`127.0.0.1:${port} is already in use`);
      // One line, no stack trace.
      expect(daemon.output().trim().split('\n').filter((line) => line.startsWith('switchboard:'))).toHaveLength(1);
      expect(daemon.output()).not.toMatch(/\n\s+at /);
      expect(fs.existsSync(marker)).toBe(false);
    } finally {
      blocker.close();
    }
  });

  it('serves a Claude Desktop file unchanged on the port of --port, or of SWITCHBOARD_PORT', async () => {
    const file = writeConfig('desktop', { mcpServers: { fx: fixtureServer('fx') } });
    const [byFlag, byEnv] = [await freePort(), await freePort()];
    startDaemon(['start', '-c', file, '--port', String(byFlag), '--host', '127.0.0.1']);
    startDaemon(['start', '-c', file], { ...process.env, SWITCHBOARD_PORT: String(byEnv), SWITCHBOARD_HOST: '127.0.0.1' });
    await waitFor(() => healthy(byFlag), 20_000, 'the daemon on --port');
    await waitFor(() => healthy(byEnv), 20_000, 'the daemon on SWITCHBOARD_PORT');
    // The flag wins over the environment.
    const flagWins = await freePort();
    startDaemon(['start', '-c', file, '--port', String(flagWins)], { ...process.env, SWITCHBOARD_PORT: String(byEnv) });
    await waitFor(() => healthy(flagWins), 20_000, 'the daemon on --port despite SWITCHBOARD_PORT');
  }, 60_000);

  it('refuses a bad --port as a usage error', async () => {
    const file = writeConfig('desktop2', { mcpServers: { fx: fixtureServer('fx') } });
    const outcome = await runCli(['start', '-c', file, '--port', 'eighty']);
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toBe('switchboard: --port expects a port number from 0 to 65535, got "eighty"\n');
  });

  it('skips a remote entry and a server that is not installed, with their reasons, and serves the rest; --strict refuses the file', async () => {
    const port = await freePort();
    const file = writeConfig('cursor', {
      listen: { port },
      mcpServers: {
        fx: fixtureServer('fx'),
        linear: { url: 'mcp.linear.example/sse' },
        notion: { command: 'notion-mcp-server-not-installed' },
      },
    });
    const daemon = startDaemon(['start', '-c', file]);
    await waitFor(async () => (await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined))?.status === 200, CLI_TIMEOUT_MS, 'ready with the usable server');
    expect(daemon.output()).toContain('switchboard: server linear skipped: $.mcpServers.linear.url: expected an absolute http or https URL');
    expect(daemon.output()).toContain('switchboard: server notion skipped: $.mcpServers.notion.command: command "notion-mcp-server-not-installed" not found');

    const strict = await runCli(['start', '--strict', '-c', file]);
    expect(strict.code).toBe(2);
    expect(strict.stderr.trim().split('\n')).toHaveLength(1);
    expect(strict.stderr).toContain('$.mcpServers.linear.url');

    const check = await runCli(['check', '-c', file]);
    expect(check.code).toBe(1);
    expect(check.stdout).toMatch(/^fx\s+ready/m);
    expect(check.stdout).toMatch(/^linear\s+skipped\s+-\s+-\s+-\s+\$\.mcpServers\.linear\.url: expected an absolute/m);
    expect(check.stdout).toContain('2 skipped (linear, notion;');
    expect(check.stderr).toContain('switchboard: server notion skipped:');
  }, 60_000);
});

describe('the CLI reads the state of the service that serves the config', () => {
  it('approve, check and audit find the pins and log of a unit with its own XDG_STATE_HOME, and say which files they read', async () => {
    // A shell whose home and state directory are not the unit's.
    const home = path.join(dir, 'home');
    const unitState = path.join(dir, 'var-lib');
    const configHome = path.join(dir, 'xdg-config');
    fs.mkdirSync(path.join(configHome, 'systemd', 'user'), { recursive: true });
    fs.mkdirSync(home, { recursive: true });
    const file = writeConfig('served', { mcpServers: { fx: fixtureServer('fx') } });
    fs.writeFileSync(
      path.join(configHome, 'systemd', 'user', 'mcp-switchboard.service'),
      [
        '[Service]',
        `ExecStart=${process.execPath} --max-semi-space-size=8 /opt/switchboard/dist/cli/main.js start -c ${file}`,
        'Environment=PATH=/usr/bin:/bin',
        `Environment=XDG_STATE_HOME=${unitState}`,
        '',
      ].join('\n'),
    );
    const env = { ...process.env, HOME: home, XDG_CONFIG_HOME: configHome, XDG_STATE_HOME: '' };
    const pinsFile = path.join(unitState, 'mcp-switchboard', 'pins.json');
    const logFile = path.join(unitState, 'mcp-switchboard', 'sanitize.jsonl');

    // What the service saw: a tool pinned, then changed (withheld until approved).
    const config = loadConfig(file, { ...env, XDG_STATE_HOME: unitState });
    expect(config.sanitize.pins).toBe(pinsFile);
    const pins = await PinStore.open(pinsFile);
    const id = pinIdentity(config.servers[0]!, config.servers);
    pins.checkEntity(id, 'echo', { name: 'echo', description: 'Echoes.' }, 'fx');
    pins.checkEntity(id, 'echo', { name: 'echo', description: 'Echoes, now louder.' }, 'fx');
    expect((await pins.save()).ok).toBe(true);
    fs.writeFileSync(logFile, `${JSON.stringify({ time: new Date().toISOString(), server: 'fx', tool: 'echo', rule: 'rug-pull', action: 'block', severity: 'high', field: '', key: 'k1' })}\n`);

    const approve = await runCli(['approve', 'fx', '--dry-run', '-c', file], CLI_TIMEOUT_MS, env);
    expect(approve.code, approve.stderr).toBe(0);
    const unit = path.join(configHome, 'systemd', 'user', 'mcp-switchboard.service');
    expect(approve.stdout.split('\n')[0]).toBe(`pins: ${pinsFile}, log: ${logFile} (the state of ${unit})`);
    expect(approve.stdout).toMatch(/echo\s+changed: description/);
    expect(approve.stdout).toContain('+  "description": "Echoes, now louder.",');

    const audit = await runCli(['audit', '-c', file], CLI_TIMEOUT_MS, env);
    expect(audit.code).toBe(0);
    expect(audit.stdout).toContain(`${logFile}: 1 finding`);
    expect(audit.stderr).toContain(`reading the log of ${unit}`);

    const check = await runCli(['check', '-c', file, '--json'], 30_000, env);
    expect(JSON.parse(check.stdout)).toMatchObject({ state: { pins: pinsFile, pinStore: { kind: 'file', file: pinsFile }, log: logFile, unit } });

    // Without the unit, the shell's own state directory: nothing is waiting there.
    fs.rmSync(unit);
    const own = await runCli(['approve', 'fx', '-c', file], CLI_TIMEOUT_MS, env);
    expect(own.stdout).toContain(`pins: ${path.join(home, '.local', 'state', 'mcp-switchboard', 'pins.json')}`);
    expect(own.stdout).toContain('nothing to approve');
  }, 60_000);
});

describe('monitoring access', () => {
  it('check warns when no token can read /metrics and /status.json', async () => {
    const file = writeConfig('team', {
      mcpServers: { fx: fixtureServer('fx') },
      profiles: { reader: {} },
      defaultProfile: 'reader',
      auth: { tokens: [{ name: 'alice', tokenEnv: 'SB_FIRST_RUN_ALICE' }] },
    });
    const env = { ...process.env, SB_FIRST_RUN_ALICE: 'alice-0123456789abcdef0123' };
    const check = await runCli(['check', '-c', file], 30_000, env);
    expect(check.code).toBe(0);
    expect(check.stdout).toContain('no token can read /metrics, /status.json');
  });
});

describe('a failed server’s reason', () => {
  it('quotes the server’s own last stderr line, also when it arrives after the exit and without a newline', async () => {
    // As npx does: a warning first; then the server's own last words, behind a blob larger than a pipe buffer.
    // Written synchronously: process.stderr.write before process.exit may never reach a pipe.
    const script = [
      "const fs = require('fs'); fs.writeSync(2, 'npm warn exec The following package was not found and will be installed\\n');",
      "setTimeout(() => { fs.writeSync(2, 'x'.repeat(300000) + '\\nError: GITHUB_PERSONAL_ACCESS_TOKEN is not set'); process.exit(1); }, 100);",
    ].join(' ');
    const file = writeConfig('failing', { mcpServers: { gh: { command: process.execPath, args: ['-e', script] } } });
    for (let attempt = 0; attempt < 3; attempt++) {
      const check = await runCli(['check', '-c', file, '--json', '--timeout', '10']);
      expect(check.code).toBe(1);
      const report = JSON.parse(check.stdout) as { servers: Array<{ name: string; stderr: string | null }> };
      expect(report.servers[0]?.stderr).toBe('Error: GITHUB_PERSONAL_ACCESS_TOKEN is not set');
      expect(check.stderr).toContain('its stderr said: Error: GITHUB_PERSONAL_ACCESS_TOKEN is not set');
    }
  }, 60_000);

  it('quotes the last line of a burst longer than the log takes in a second', async () => {
    // 120 lines at once: the log keeps 50 a second per child; the reason must not be one of those.
    const file = writeConfig('burst', { mcpServers: { gh: failingServer({ FAIL_NOISE_LINES: '120' }) } });
    const check = await runCli(['check', '-c', file, '--json', '--timeout', '10']);
    expect(check.code).toBe(1);
    const report = JSON.parse(check.stdout) as { servers: Array<{ name: string; stderr: string | null }> };
    expect(report.servers[0]?.stderr).toBe('Error: API_KEY is not set');
  });

  it('quotes the error a Node server died of, not the stack frames and "Node.js v…" after it', async () => {
    const file = writeConfig('thrown', { mcpServers: { gh: failingServer({ FAIL_THROW: '1' }) } });
    const check = await runCli(['check', '-c', file, '--timeout', '10']);
    expect(check.code).toBe(1);
    expect(check.stderr).toContain('its stderr said: Error: API_KEY is not set\n');
  });
});

describe('what the operator sees of failures', () => {
  it('status.json and /readyz show skipped entries with their reason, a failing server’s stderr, and a refused reload until one succeeds', async () => {
    const port = await freePort();
    const failing = "const fs = require('fs'); fs.writeSync(2, 'loading config\\nError: API_KEY is not set\\n'); process.exit(1);";
    const body = {
      listen: { port },
      mcpServers: {
        fx: fixtureServer('fx'),
        remote: { url: 'tools.example/mcp' },
        bad: { command: process.execPath, args: ['-e', failing], restart: { initialDelayMs: 200, maxDelayMs: 400 } },
      },
    };
    const file = writeConfig('operator', body);
    const daemon = startDaemon(['start', '-c', file]);
    const status = async () => (await (await fetch(`http://127.0.0.1:${port}/status.json`)).json()) as {
      servers: Array<{ name: string; state: string; lastError: string | null; stderr: string[] }>;
      reloadError: { time: string; message: string } | null;
    };
    await waitFor(async () => (await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => undefined))?.status === 200, CLI_TIMEOUT_MS, 'the daemon');
    const seen = await waitFor(async () => {
      const report = await status();
      return report.servers.find((s) => s.name === 'bad' && s.stderr.length > 0) ? report : undefined;
    }, 15_000, 'the failing server with its stderr');
    expect(seen.servers.find((s) => s.name === 'remote')).toMatchObject({ state: 'skipped', lastError: expect.stringContaining('expected an absolute http or https URL') });
    expect(seen.servers.find((s) => s.name === 'bad')?.stderr).toEqual(['loading config', 'Error: API_KEY is not set']);
    expect(seen.reloadError).toBeNull();
    const ready = (await (await fetch(`http://127.0.0.1:${port}/readyz`)).json()) as { servers: Record<string, { state: string; stderr?: string[] }> };
    expect(ready.servers.remote?.state).toBe('skipped');
    expect(ready.servers.bad?.stderr).toContain('Error: API_KEY is not set');

    // A broken edit is refused and shown; fixing the file clears it.
    fs.writeFileSync(file, '{ "mcpServers": ');
    const refused = await waitFor(async () => (await status()).reloadError, 10_000, 'the refused reload');
    expect(refused.message).toContain('invalid JSON');
    const fixed = JSON.stringify({ ...body, mcpServers: { fx: body.mcpServers.fx } }, null, 2);
    fs.writeFileSync(file, fixed);
    await waitFor(async () => (await status()).reloadError === null, 10_000, 'the reload error cleared');
    // An editor's undo: the broken edit again, then the very text that is running.
    fs.writeFileSync(file, '{ "mcpServers": ');
    await waitFor(async () => (await status()).reloadError, 10_000, 'the second refused reload');
    fs.writeFileSync(file, fixed);
    await waitFor(async () => (await status()).reloadError === null, 10_000, 'the reload error cleared by the running text put back');
    expect(daemon.process.exitCode).toBeNull();
  }, 60_000);
});

describe('switchboard restart', () => {
  it('gives a server a fresh child through the running daemon, for admin tokens only, found from the config alone', async () => {
    const port = await freePort();
    const admin = 'restart-admin-token-0123456789';
    const reader = 'restart-reader-token-012345678';
    // As under systemd: the daemon's environment has the token and server variables, the operator's shell has none of them.
    const file = writeConfig('restart', {
      listen: { port: 1 },
      mcpServers: {
        fx: { ...fixtureServer('fx'), env: { FIXTURE_NAME: 'fx', SECRET: '${SB_RESTART_SECRET}' } },
        remote: { url: 'tools.example/mcp' },
      },
      profiles: { reader: {} },
      defaultProfile: 'reader',
      auth: { tokens: [{ name: 'ops', tokenEnv: 'SB_RESTART_ADMIN', profile: null }, { name: 'reader', tokenEnv: 'SB_RESTART_READER' }] },
    });
    const daemonEnv = { ...process.env, SB_RESTART_ADMIN: admin, SB_RESTART_READER: reader, SB_RESTART_SECRET: 'x', SWITCHBOARD_PORT: String(port) };
    startDaemon(['start', '-c', file], daemonEnv);
    await waitFor(async () => (await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined))?.status === 200, CLI_TIMEOUT_MS, 'the daemon ready');
    const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
    const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
    const client = new Client({ name: 'restart', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), { requestInit: { headers: { authorization: `Bearer ${admin}` } } }));
    const pid = async () => Number(/pid (\d+)/.exec(JSON.stringify(await client.callTool({ name: 'fx__whoami', arguments: {} })))?.[1]);
    const before = await pid();
    const shell: NodeJS.ProcessEnv = { ...process.env, SWITCHBOARD_PORT: String(port) };
    delete shell.SWITCHBOARD_TOKEN;

    const refused = await runCli(['restart', 'fx', '-c', file], CLI_TIMEOUT_MS, { ...shell, SWITCHBOARD_TOKEN: reader });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^switchboard: the daemon refused: Forbidden: \/admin\/restart needs an admin token.*\n$/);
    const anonymous = await runCli(['restart', 'fx', '-c', file], CLI_TIMEOUT_MS, shell);
    expect(anonymous.code).toBe(1);
    expect(anonymous.stderr).toContain('set SWITCHBOARD_TOKEN or --token-file');
    expect(await pid()).toBe(before);

    // A call in flight on the old child finishes there; the answer comes once the fresh child is ready.
    const inFlight = client.callTool({ name: 'fx__slow', arguments: { ms: 1500, steps: 1 } });
    const tokenFile = path.join(dir, 'admin-token');
    fs.writeFileSync(tokenFile, `${admin}\n`);
    const restarted = await runCli(['restart', 'fx', '-c', file, '--token-file', tokenFile], 40_000, shell);
    expect(restarted.code, restarted.stderr).toBe(0);
    expect(restarted.stdout).toMatch(/^server fx restarted: ready, pid (\d+)\n$/);
    const fresh = Number(/pid (\d+)/.exec(restarted.stdout)?.[1]);
    expect(fresh).not.toBe(before);
    expect(JSON.stringify(await inFlight)).toContain('done');
    expect(await pid()).toBe(fresh);

    const unknown = await runCli(['restart', 'nosuch', '-c', file], CLI_TIMEOUT_MS, { ...shell, SWITCHBOARD_TOKEN: admin });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe('switchboard: the daemon refused: no server "nosuch" in the config\n');
    const skipped = await runCli(['restart', 'remote', '-c', file], CLI_TIMEOUT_MS, { ...shell, SWITCHBOARD_TOKEN: admin });
    expect(skipped.code).toBe(1);
    expect(skipped.stderr).toMatch(/^switchboard: the daemon refused: server "remote" is not running: its config entry was skipped \(.*expected an absolute http or https URL/);

    // A web page of another origin cannot restart anything, and the route changes nothing on GET.
    const foreign = await fetch(`http://127.0.0.1:${port}/admin/restart?server=fx`, { method: 'POST', headers: { authorization: `Bearer ${admin}`, origin: 'https://evil.example' } });
    expect(foreign.status).toBe(403);
    expect((await fetch(`http://127.0.0.1:${port}/admin/restart?server=fx`, { headers: { authorization: `Bearer ${admin}` } })).status).toBe(405);
    expect(await pid()).toBe(fresh);

    const freeOne = await freePort();
    const nobody = await runCli(['restart', 'fx', '--url', `http://127.0.0.1:${freeOne}`], CLI_TIMEOUT_MS, shell);
    expect(nobody.code).toBe(1);
    expect(nobody.stderr).toBe(`switchboard: no switchboard is listening on 127.0.0.1:${freeOne} (start it, or give --url or -c with its config)\n`);
    await client.close();
  }, 120_000);

  it('says when the fresh child failed to start, with its last stderr line', async () => {
    const port = await freePort();
    const marker = path.join(dir, 'fail-next');
    // Starts fine the first time; once the marker exists it dies saying why.
    const script = `const fs = require('fs'); if (fs.existsSync(${JSON.stringify(marker)})) { fs.writeSync(2, 'npm warn noise\\nError: the database is locked\\n'); process.exit(1); } import(${JSON.stringify(FIXTURE)});`;
    const file = writeConfig('restart-fails', { listen: { port }, mcpServers: { db: { command: process.execPath, args: ['-e', script], restart: { initialDelayMs: 5000, maxDelayMs: 5000 } } } });
    startDaemon(['start', '-c', file]);
    await waitFor(async () => (await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined))?.status === 200, CLI_TIMEOUT_MS, 'the daemon ready');
    fs.writeFileSync(marker, '');
    const shell: NodeJS.ProcessEnv = { ...process.env };
    delete shell.SWITCHBOARD_TOKEN;
    const restarted = await runCli(['restart', 'db', '-c', file], 40_000, shell);
    expect(restarted.code).toBe(1);
    expect(restarted.stderr).toBe('switchboard: server db restarted but is not up: exited with code 1; its stderr said: Error: the database is locked\n');
  }, 60_000);
});
