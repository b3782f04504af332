// Hot reload: servers added, removed and changed under connected clients, access changes applied
// to live sessions, and the daemon's SIGHUP / file-watch reload that refuses an invalid config.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { resolveConfig, type RunningSwitchboard } from '../../src/index.js';
import { CLI, ROOT, connect, firstProgress, fixture, freePort, listAllTools, pidOf, processAlive, rawPost, startProxy, textOf, waitFor, CLI_TIMEOUT_MS } from './helpers.js';

const config = (raw: Record<string, unknown>, env: NodeJS.ProcessEnv = process.env) =>
  resolveConfig({ listen: { host: '127.0.0.1', port: 0 }, ...raw }, { file: '<inline>', dir: ROOT }, env);
const prefixes = (tools: Array<{ name: string }>): string[] => [...new Set(tools.map((t) => t.name.split('__')[0] as string))].sort();

describe('reloading a running proxy', () => {
  let proxy: RunningSwitchboard | undefined;
  const clients: Client[] = [];
  afterEach(async () => {
    await Promise.allSettled(clients.splice(0).map((c) => c.close()));
    await proxy?.close();
    proxy = undefined;
  });

  it('adds, removes and restarts servers while a client stays connected and is told', async () => {
    proxy = await startProxy({ mcpServers: { a: fixture('a'), b: fixture('b') } });
    const client = await connect(proxy);
    clients.push(client);
    let changed = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void (changed += 1));
    expect(prefixes(await listAllTools(client))).toEqual(['a', 'b']);
    const pidA = pidOf(await client.callTool({ name: 'a__whoami', arguments: {} }));
    const pidB = pidOf(await client.callTool({ name: 'b__whoami', arguments: {} }));

    const diff = proxy.reload(config({ mcpServers: { a: fixture('a'), c: fixture('c') } }));
    expect(diff.added.map((s) => s.name)).toEqual(['c']);
    expect(diff.removed.map((s) => s.name)).toEqual(['b']);
    expect(diff.unchanged).toEqual(['a']);
    await waitFor(async () => changed > 0 && prefixes(await listAllTools(client)).join() === 'a,c', 15_000, 'a and c listed');
    await waitFor(() => !processAlive(pidB), 15_000, 'b stopped');
    // a was left alone: same child, and the session still calls through it.
    expect(pidOf(await client.callTool({ name: 'a__whoami', arguments: {} }))).toBe(pidA);
    await expect(client.callTool({ name: 'b__echo', arguments: { text: 'x' } })).rejects.toThrow(/Unknown tool/);
    expect(textOf(await client.callTool({ name: 'c__echo', arguments: { text: 'new' } }))).toBe('new');

    // Changing a's definition restarts a alone.
    const restarted = proxy.reload(config({ mcpServers: { a: fixture('a', {}, { FIXTURE_MARK: 'v2' }), c: fixture('c') } }));
    expect(restarted.changed.map((s) => s.name)).toEqual(['a']);
    await waitFor(async () => {
      const result = await client.callTool({ name: 'a__whoami', arguments: {} }).catch(() => undefined);
      return result !== undefined && pidOf(result) !== pidA;
    }, 15_000, 'a restarted with a new child');
    // The old child is stopped once the new one serves (stdin closed, then signals): it goes, in its time.
    await waitFor(() => !processAlive(pidA), 15_000, 'the old child of a stopped');
  });

  it('lets a call in flight on a redefined server finish on the old child, and sends new calls to the new one', async () => {
    proxy = await startProxy({ mcpServers: { a: fixture('a') } });
    const client = await connect(proxy);
    clients.push(client);
    const pidA = pidOf(await client.callTool({ name: 'a__whoami', arguments: {} }));
    // The call is in flight on the old child once its first progress comes back (not after some time).
    const progress = firstProgress();
    const slow = client.callTool({ name: 'a__slow', arguments: { ms: 1600, steps: 4 } }, undefined, { onprogress: progress.onprogress });
    await progress.reached;
    proxy.reload(config({ mcpServers: { a: fixture('a', {}, { FIXTURE_MARK: 'v2' }) } }));
    const fresh = await waitFor(async () => {
      const result = await client.callTool({ name: 'a__whoami', arguments: {} }).catch(() => undefined);
      return result !== undefined && pidOf(result) !== pidA ? result : undefined;
    }, 15_000, 'new child answers');
    expect(pidOf(fresh)).not.toBe(pidA);
    expect(textOf(await slow)).toBe('done');
    await waitFor(() => !processAlive(pidA), 15_000, 'old child stopped once its call was done');
  });

  it('applies changed profiles to live sessions and closes those of removed tokens', async () => {
    const env = { ...process.env, SB_RELOAD_A: 'a'.repeat(24), SB_RELOAD_B: 'b'.repeat(24) };
    const tokens = [
      { name: 'ann', tokenEnv: 'SB_RELOAD_A', profile: 'p' },
      { name: 'ben', tokenEnv: 'SB_RELOAD_B' },
    ];
    const servers = { a: fixture('a'), b: fixture('b') };
    proxy = await startProxy({ mcpServers: servers, profiles: { p: { servers: { allow: ['a', 'b'] } } }, auth: { tokens } }, { env });
    const ann = await connect(proxy, { token: env.SB_RELOAD_A });
    const ben = await connect(proxy, { token: env.SB_RELOAD_B });
    clients.push(ann, ben);
    let annChanged = 0;
    ann.setNotificationHandler(ToolListChangedNotificationSchema, () => void (annChanged += 1));
    expect(prefixes(await listAllTools(ann))).toEqual(['a', 'b']);

    // Profile p now allows server a only, and ben's token is gone.
    proxy.reload(config({ mcpServers: servers, profiles: { p: { servers: { allow: ['a'] } } }, auth: { tokens: [tokens[0]] } }, env));
    await waitFor(() => annChanged > 0, 15_000, 'list_changed for ann');
    expect(prefixes(await listAllTools(ann))).toEqual(['a']);
    await expect(ann.callTool({ name: 'b__echo', arguments: { text: 'x' } })).rejects.toThrow(/Unknown tool/);
    await expect(ben.listTools()).rejects.toThrow();
  });

  it('keeps resource subscriptions on a restarted server and renews them with its new child', async () => {
    const { ResourceUpdatedNotificationSchema } = await import('@modelcontextprotocol/sdk/types.js');
    proxy = await startProxy({ mcpServers: { a: fixture('a') } });
    const subscriber = await connect(proxy);
    clients.push(subscriber);
    const got: string[] = [];
    subscriber.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void got.push(n.params.uri));
    await subscriber.subscribeResource({ uri: 'fixture://a/static' });

    proxy.reload(config({ mcpServers: { a: fixture('a', {}, { FIXTURE_MARK: 'v2' }) } }));
    await waitFor(() => proxy?.core.upstreams.primaryOf('a')?.state === 'ready', 15_000, 'a restarted');
    // The new child was told of the subscription: its update reaches the subscriber.
    await waitFor(async () => {
      await subscriber.callTool({ name: 'a__touch', arguments: { uri: 'fixture://a/static' } });
      return got.length > 0;
    }, 15_000, 'resources/updated from the new child');
    expect(got[0]).toBe('fixture://a/static');
  });

  it('ignores a reload that arrives while the proxy is stopping, so no child outlives it', async () => {
    proxy = await startProxy({ mcpServers: { a: fixture('a') } });
    const closing = proxy.close();
    const diff = proxy.reload(config({ mcpServers: { a: fixture('a'), late: fixture('late') } }));
    expect(diff.added).toEqual([]);
    expect(proxy.core.upstreams.primaryOf('late')).toBeUndefined();
    await closing;
  });
});

describe('the daemon reloads its config file', () => {
  let daemon: ChildProcess | undefined;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-reload-'));
  afterAll(async () => {
    if (daemon !== undefined && daemon.exitCode === null) {
      const exited = new Promise((resolve) => daemon?.once('exit', resolve));
      daemon.kill('SIGTERM');
      await exited;
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('on a file change and on SIGHUP, and keeps running on an invalid file', async () => {
    const file = path.join(dir, 'proxy.config.json');
    const port = await freePort();
    const write = (servers: Record<string, unknown>) => fs.writeFileSync(file, JSON.stringify({ listen: { host: '127.0.0.1', port }, mcpServers: servers }));
    write({ a: fixture('a') });
    let output = '';
    daemon = spawn(process.execPath, [...CLI, 'start', '-c', file], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    daemon.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    daemon.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const url = `http://127.0.0.1:${port}`;
    await waitFor(async () => (await fetch(`${url}/readyz`).catch(() => undefined))?.status === 200, CLI_TIMEOUT_MS, 'daemon ready');
    const running = { url } as RunningSwitchboard;
    const client = await connect(running);
    let changed = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void (changed += 1));

    // Broken JSON: refused with its reason, the old config keeps serving.
    fs.writeFileSync(file, '{"mcpServers": {');
    await waitFor(() => output.includes('config reload refused'), 15_000, 'refusal logged');
    expect(textOf(await client.callTool({ name: 'a__echo', arguments: { text: 'still' } }))).toBe('still');

    // A valid change is picked up by the file watch.
    write({ a: fixture('a'), b: fixture('b') });
    await waitFor(async () => changed > 0 && prefixes(await listAllTools(client)).join() === 'a,b', 10_000, 'b added by file watch');

    // SIGHUP reloads too (here: b removed).
    write({ a: fixture('a') });
    daemon.kill('SIGHUP');
    await waitFor(async () => prefixes(await listAllTools(client)).join() === 'a', 10_000, 'b removed after SIGHUP');
    expect(daemon.exitCode).toBeNull();
    expect((await rawPost(running, { jsonrpc: '2.0', id: 1, method: 'ping' })).status).toBe(400); // no session: 400, daemon alive
    await client.close();
  });
});

describe('the daemon reloads a token file', () => {
  let daemon: ChildProcess | undefined;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-token-reload-'));
  afterAll(async () => {
    if (daemon !== undefined && daemon.exitCode === null) {
      const exited = new Promise((resolve) => daemon?.once('exit', resolve));
      daemon.kill('SIGTERM');
      await exited;
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('when the file changes, without SIGHUP: the new token is accepted and the old one refused', async () => {
    const OLD = 'old-team-token-0123456789abcdef';
    const NEW = 'new-team-token-fedcba9876543210';
    const tokenFile = path.join(dir, 'team.token');
    fs.writeFileSync(tokenFile, `${OLD}\n`, { mode: 0o600 });
    const file = path.join(dir, 'proxy.config.json');
    const port = await freePort();
    fs.writeFileSync(file, JSON.stringify({ listen: { host: '127.0.0.1', port }, mcpServers: { a: fixture('a') }, auth: { tokens: [{ name: 'team', tokenFile: 'team.token' }] } }));
    let output = '';
    daemon = spawn(process.execPath, [...CLI, 'start', '-c', file], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    daemon.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    daemon.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const url = `http://127.0.0.1:${port}`;
    const running = { url } as RunningSwitchboard;
    await waitFor(async () => (await fetch(`${url}/readyz`).catch(() => undefined))?.status === 200, 20_000, 'daemon ready');
    const before = await connect(running, { token: OLD });
    expect(textOf(await before.callTool({ name: 'a__echo', arguments: { text: 'old' } }))).toBe('old');
    await before.close();

    // Rewritten in place, as `echo NEW > team.token` does.
    fs.writeFileSync(tokenFile, `${NEW}\n`);
    await waitFor(() => /"reason":"token file changed".*"msg":"reloading config"/.test(output), 10_000, 'the token file reload logged');

    const after = await connect(running, { token: NEW });
    expect(textOf(await after.callTool({ name: 'a__echo', arguments: { text: 'new' } }))).toBe('new');
    await after.close();
    const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'old', version: '1' } } };
    expect((await rawPost(running, initialize, { headers: { authorization: `Bearer ${OLD}` } })).status).toBe(401);
    expect(output).not.toContain(NEW);
    expect(output).not.toContain(OLD);
  });
});
