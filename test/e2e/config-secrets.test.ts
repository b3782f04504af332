// A secret read from a file with `${file:PATH}` (or systemd's credential, `${credential:NAME}`) reaches
// the child's environment and nothing else: no log line of the daemon (at debug), no `check` output, no /status.json.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunningSwitchboard } from '../../src/index.js';
import { CLI, CLI_TIMEOUT_MS, FIXTURE, ROOT, connect, freePort, removeScratch, runCli, textOf, waitFor } from './helpers.js';

const SECRET = 'ghp_Zx8Qw3Er5Ty7Ui9Op1As3Df5Gh7Jk9Lz2Xc';

describe('${file:} secrets', () => {
  let daemon: ChildProcess | undefined;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-config-secrets-'));
  afterAll(async () => {
    if (daemon !== undefined && daemon.exitCode === null) {
      const exited = new Promise((resolve) => daemon?.once('exit', resolve));
      daemon.kill('SIGTERM');
      await exited;
    }
    removeScratch(dir);
  });

  it('reach the child and appear in no log line, check output or status', async () => {
    fs.mkdirSync(path.join(dir, 'secrets'), { mode: 0o700 });
    fs.writeFileSync(path.join(dir, 'secrets', 'github'), `${SECRET}\n`, { mode: 0o600 });
    const port = await freePort();
    const file = path.join(dir, 'proxy.config.json');
    const config = {
      listen: { host: '127.0.0.1', port },
      sanitize: { log: path.join(dir, 'sanitize.jsonl'), pins: path.join(dir, 'pins.json') },
      mcpServers: {
        gh: { command: process.execPath, args: [FIXTURE], env: { FIXTURE_NAME: 'gh', FIXTURE_REPORT_ENV: 'GITHUB_TOKEN', GITHUB_TOKEN: '${file:secrets/github}' } },
      },
    };
    fs.writeFileSync(file, JSON.stringify(config, null, 2));

    let output = '';
    daemon = spawn(process.execPath, [...CLI, 'start', '-c', file], {
      cwd: ROOT,
      env: { ...process.env, SWITCHBOARD_LOG_LEVEL: 'debug' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    daemon.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    daemon.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const url = `http://127.0.0.1:${port}`;
    await waitFor(async () => (await fetch(`${url}/readyz`).catch(() => undefined))?.status === 200, CLI_TIMEOUT_MS, 'daemon ready');

    const client = await connect({ url } as RunningSwitchboard);
    expect(textOf(await client.callTool({ name: 'gh__report_env', arguments: {} }))).toBe(SECRET);
    await client.close();
    const status = await (await fetch(`${url}/status.json`)).text();
    expect(status).toContain('"gh"');
    expect(status).not.toContain(SECRET);

    const check = await runCli(['check', '-c', file, '--verbose']);
    const checkJson = await runCli(['check', '--json', '-c', file]);
    expect(check.code).toBe(0);
    expect(checkJson.code).toBe(0);
    for (const text of [check.stdout, check.stderr, checkJson.stdout, checkJson.stderr]) expect(text).not.toContain(SECRET);

    // A rotated secret file is watched like a token file: the server is restarted with the new value.
    const ROTATED = 'ghp_N3wR0t4t3dT0k3nV4lu3F0rT3st1ng0nly';
    fs.writeFileSync(path.join(dir, 'secrets', 'github'), `${ROTATED}\n`, { mode: 0o600 });
    await waitFor(() => output.includes('secret file changed'), 15_000, 'reload on the secret file');
    await waitFor(
      async () => {
        const again = await connect({ url } as RunningSwitchboard);
        try {
          return textOf(await again.callTool({ name: 'gh__report_env', arguments: {} })) === ROTATED ? true : undefined;
        } catch {
          return undefined;
        } finally {
          await again.close();
        }
      },
      20_000,
      'the child restarted with the rotated secret',
    );

    // Every line the daemon wrote, debug included, through reloads too.
    daemon.kill('SIGHUP');
    await waitFor(() => output.includes('"reason":"SIGHUP"'), 15_000, 'reload logged');
    expect(output).toContain('"component"');
    expect(output).not.toContain(SECRET);
    expect(output).not.toContain(ROTATED);
  }, 180_000);

  it('a missing one stops start with one line naming the key and the server', async () => {
    const file = path.join(dir, 'missing.config.json');
    fs.writeFileSync(file, JSON.stringify({ mcpServers: { gh: { command: process.execPath, args: [FIXTURE], env: { GITHUB_TOKEN: '${file:secrets/nowhere}' } } } }));
    const start = await runCli(['start', '-c', file, '--port', '0']);
    expect(start.code).toBe(2);
    expect(start.stderr.trim().split('\n')).toEqual([`switchboard: ${file}: $.mcpServers.gh.env.GITHUB_TOKEN: secret file ${path.join(dir, 'secrets', 'nowhere')}: no such file`]);
  }, 180_000);

  it('service install --credential writes LoadCredential= and checks the config with it', async () => {
    const credential = path.join(dir, 'secrets', 'github');
    const file = path.join(dir, 'credential.config.json');
    fs.writeFileSync(file, JSON.stringify({ mcpServers: { gh: { command: process.execPath, args: [FIXTURE], env: { GITHUB_TOKEN: '${credential:github}' } } } }));
    const shell: NodeJS.ProcessEnv = { ...process.env };
    delete shell['CREDENTIALS_DIRECTORY'];
    const missing = await runCli(['service', 'install', '--user', '--dry-run', '-c', file], undefined, shell);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe('switchboard: the config reads ${credential:github}: pass --credential github=PATH (the file holding it)\n');
    const unit = await runCli(['service', 'install', '--user', '--dry-run', '-c', file, '--credential', `github=${credential}`], undefined, shell);
    expect(unit.code).toBe(0);
    expect(unit.stdout).toContain(`\nLoadCredential=github:${credential}\n`);
    expect(unit.stdout + unit.stderr).not.toContain(SECRET);

    // The service starts as systemd starts it for LoadCredential=: the file in $CREDENTIALS_DIRECTORY.
    const credentials = path.join(dir, 'run-credentials');
    fs.mkdirSync(credentials, { mode: 0o700 });
    fs.writeFileSync(path.join(credentials, 'github'), `${SECRET}\n`, { mode: 0o400 });
    const port = await freePort();
    fs.writeFileSync(file, JSON.stringify({
      listen: { host: '127.0.0.1', port },
      sanitize: { log: path.join(dir, 'credential-sanitize.jsonl'), pins: path.join(dir, 'credential-pins.json') },
      mcpServers: { gh: { command: process.execPath, args: [FIXTURE], env: { FIXTURE_NAME: 'gh', FIXTURE_REPORT_ENV: 'GITHUB_TOKEN', GITHUB_TOKEN: '${credential:github}' } } },
    }));
    let output = '';
    const service = spawn(process.execPath, [...CLI, 'start', '-c', file], {
      cwd: ROOT,
      env: { ...shell, CREDENTIALS_DIRECTORY: credentials, SWITCHBOARD_LOG_LEVEL: 'debug' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    service.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    service.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise((resolve) => service.once('exit', resolve));
    try {
      const url = `http://127.0.0.1:${port}`;
      await waitFor(async () => (await fetch(`${url}/readyz`).catch(() => undefined))?.status === 200, CLI_TIMEOUT_MS, 'service ready');
      const client = await connect({ url } as RunningSwitchboard);
      expect(textOf(await client.callTool({ name: 'gh__report_env', arguments: {} }))).toBe(SECRET);
      await client.close();
    } finally {
      service.kill('SIGTERM');
      await exited;
    }
    expect(output).toContain('"component"');
    expect(output).not.toContain(SECRET);
  }, 180_000);
});
