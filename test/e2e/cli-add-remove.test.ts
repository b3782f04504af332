// `switchboard add` and `remove` against a running daemon: the new server's tools reach a connected
// client without a restart (announced by list_changed), removal takes them away, and the config
// file keeps its comments and order.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunningSwitchboard } from '../../src/index.js';
import { CLI, CLI_TIMEOUT_MS, FIXTURE, ROOT, connect, freePort, listAllTools, removeScratch, runCli, waitFor } from './helpers.js';

describe('add and remove', () => {
  let daemon: ChildProcess | undefined;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-add-remove-'));
  afterAll(async () => {
    if (daemon !== undefined && daemon.exitCode === null) {
      const exited = new Promise((resolve) => daemon?.once('exit', resolve));
      daemon.kill('SIGTERM');
      await exited;
    }
    removeScratch(dir);
  });

  it('reach the running daemon, and the file keeps its comments and order', async () => {
    const port = await freePort();
    const file = path.join(dir, 'proxy.config.json');
    const original = `// the team's switchboard
{
  "listen": { "host": "127.0.0.1", "port": ${port} },
  /* servers, most used first */
  "mcpServers": {
    "first": { "command": ${JSON.stringify(process.execPath)}, "args": [${JSON.stringify(FIXTURE)}], "env": { "FIXTURE_NAME": "first" } } // keep
  },
  "sanitize": { "log": ${JSON.stringify(path.join(dir, 'sanitize.jsonl'))}, "pins": ${JSON.stringify(path.join(dir, 'pins.json'))} }
}
`;
    fs.writeFileSync(file, original);
    let output = '';
    daemon = spawn(process.execPath, [...CLI, 'start', '-c', file], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    daemon.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    daemon.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const url = `http://127.0.0.1:${port}`;
    await waitFor(async () => (await fetch(`${url}/readyz`).catch(() => undefined))?.status === 200, CLI_TIMEOUT_MS, 'daemon ready');
    const client = await connect({ url } as RunningSwitchboard);
    let changed = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void (changed += 1));
    const names = async () => (await listAllTools(client)).map((t) => t.name);
    expect(await names()).toContain('first__echo');

    const add = await runCli(['add', 'second', '-c', file, '--env', 'FIXTURE_NAME=second', '--', process.execPath, FIXTURE]);
    expect(add.stderr).toBe('');
    expect(add.stdout).toBe(`added server second to ${file}\nthe switchboard on 127.0.0.1:${port} reloaded the config\n`);
    await waitFor(() => changed > 0, 15_000, 'tools/list_changed after add');
    await waitFor(async () => ((await names()).includes('second__echo') ? true : undefined), 15_000, 'second__echo listed');

    const text = fs.readFileSync(file, 'utf8');
    expect(text.startsWith(original.slice(0, original.indexOf('} // keep')))).toBe(true);
    expect(text).toContain('} }, // keep\n    "second": {\n');
    expect(text.indexOf('"first"')).toBeLessThan(text.indexOf('"second"'));
    expect(text).toContain('/* servers, most used first */');

    const clash = await runCli(['add', 'second', '-c', file, '--', process.execPath, FIXTURE]);
    expect(clash.code).toBe(2);
    expect(clash.stderr).toBe(`switchboard: server "second" is already in ${file}; remove it first or choose another name\n`);

    const before = changed;
    const remove = await runCli(['remove', 'second', '-c', file]);
    expect(remove.code).toBe(0);
    expect(remove.stdout).toContain('removed server second');
    await waitFor(() => changed > before, 15_000, 'tools/list_changed after remove');
    await waitFor(async () => (!(await names()).includes('second__echo') ? true : undefined), 15_000, 'second__echo gone');
    expect(fs.readFileSync(file, 'utf8')).toBe(original);

    const unknown = await runCli(['remove', 'nope', '-c', file]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe(`switchboard: no server "nope" in ${file} (it has first)\n`);
    await client.close();
    expect(output).not.toContain('config reload refused');
  }, 180_000);

  it('without a daemon, says so in one line and succeeds', async () => {
    const port = await freePort();
    const file = path.join(dir, 'idle.config.json');
    fs.writeFileSync(file, JSON.stringify({ listen: { host: '127.0.0.1', port }, mcpServers: { a: { command: process.execPath, args: [FIXTURE] } } }, null, 2));
    const token = 'q8Zr2Lm5Xv9Tn3Kp7Wd1Hs6Fj4Bc0Ga';
    const add = await runCli(['add', 'docs', '-c', file, '--url', 'http://127.0.0.1:9/mcp', '--header', `Authorization=Bearer ${token}`]);
    expect(add.code).toBe(0);
    const secrets = path.join(dir, 'idle.config.secrets');
    expect(add.stdout).toBe(
      `added server docs to ${file}\nsecrets kept out of the config, in ${secrets}/ (mode 0600, read with \${file:...}): docs-headers-Authorization\n` +
        `no switchboard is running on 127.0.0.1:${port}; the change takes effect when it starts\n`,
    );
    expect(fs.readFileSync(file, 'utf8')).not.toContain(token);
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toMatchObject({ mcpServers: { a: {}, docs: { url: 'http://127.0.0.1:9/mcp', headers: { Authorization: 'Bearer ${file:idle.config.secrets/docs-headers-Authorization}' } } } });
    expect(fs.readFileSync(path.join(secrets, 'docs-headers-Authorization'), 'utf8')).toBe(`${token}\n`);
    expect(fs.statSync(path.join(secrets, 'docs-headers-Authorization')).mode & 0o777).toBe(0o600);
    const bad = await runCli(['add', 'broken', '-c', file, '--', 'no-such-command-anywhere']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^switchboard: server "broken" could not be used: .*command "no-such-command-anywhere" not found.*; nothing was changed\n$/);
    expect(fs.readFileSync(file, 'utf8')).not.toContain('broken');
  }, 180_000);

  it('with auth on, the reload needs an admin token', async () => {
    const port = await freePort();
    const file = path.join(dir, 'auth.config.json');
    const token = 'admin-token-0123456789abcdef0123';
    fs.writeFileSync(
      file,
      JSON.stringify({
        listen: { host: '127.0.0.1', port },
        auth: { tokens: [{ name: 'ops', tokenEnv: 'SB_ADMIN_TOKEN', admin: true }] },
        sanitize: { log: path.join(dir, 'auth-sanitize.jsonl'), pins: path.join(dir, 'auth-pins.json') },
        mcpServers: { a: { command: process.execPath, args: [FIXTURE] } },
      }),
    );
    const env: NodeJS.ProcessEnv = { ...process.env, SB_ADMIN_TOKEN: token };
    delete env['SWITCHBOARD_TOKEN'];
    const authDaemon = spawn(process.execPath, [...CLI, 'start', '-c', file], { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'ignore'] });
    try {
      await waitFor(async () => (await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => undefined))?.status === 200, CLI_TIMEOUT_MS, 'daemon listening');
      const without = await runCli(['add', 'b', '-c', file, '--', process.execPath, FIXTURE], undefined, env);
      expect(without.code).toBe(0);
      expect(without.stdout).toContain(`the switchboard on 127.0.0.1:${port} wants an admin token to reload (SWITCHBOARD_TOKEN or --token-file)`);
      const withToken = await runCli(['remove', 'b', '-c', file], undefined, { ...env, SWITCHBOARD_TOKEN: token });
      expect(withToken.code).toBe(0);
      expect(withToken.stdout).toContain(`the switchboard on 127.0.0.1:${port} reloaded the config`);
    } finally {
      const exited = new Promise((resolve) => authDaemon.once('exit', resolve));
      authDaemon.kill('SIGTERM');
      await exited;
    }
  }, 180_000);
});
