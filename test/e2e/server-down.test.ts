// A server known to be down answers at once: a remote server whose host refuses connections, and a
// child that cannot start again after a crash, fail calls with the reason instead of holding them
// for `timeoutMs` (60 s by default); /status.json marks remote servers with their URL, secrets cut.
import { afterAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RunningSwitchboard } from '../../src/index.js';
import { FIXTURE, ROOT, connect, startProxy, textOf, waitFor } from './helpers.js';

const REMOTE_FIXTURE = path.join(ROOT, 'test/fixtures/remote-fixture.mjs');

interface ServerRow {
  name: string;
  kind: string;
  url: string | null;
  state: string;
  lastError: string | null;
  down: boolean;
}

async function serverRow(proxy: RunningSwitchboard, name: string): Promise<ServerRow | undefined> {
  const status = (await (await fetch(`${proxy.url}/status.json`)).json()) as { servers: ServerRow[] };
  return status.servers.find((s) => s.name === name);
}

/** A call's outcome and how long it took; the SDK's own timeout (15 s) stands for "it hung". */
async function timedCall(client: Client, name: string): Promise<{ text: string; ms: number }> {
  const started = Date.now();
  const text = await client.callTool({ name, arguments: { text: 'anyone?' } }, undefined, { timeout: 15_000 }).then(
    (result) => `${result.isError === true ? 'tool error: ' : ''}${textOf(result)}`,
    (error: unknown) => String(error),
  );
  return { text, ms: Date.now() - started };
}

describe('a server known to be down', () => {
  let proxy: RunningSwitchboard | undefined;
  let remote: ChildProcess | undefined;
  const clients: Client[] = [];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-down-'));
  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    await proxy?.close();
    if (remote !== undefined && remote.exitCode === null && remote.signalCode === null) remote.kill('SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('fails a call to a remote server whose host refuses connections at once, naming the reason; status shows it remote, its URL without secrets', async () => {
    const child = spawn(process.execPath, [REMOTE_FIXTURE], { env: { ...process.env, PORT: '0' }, stdio: ['ignore', 'ignore', 'pipe'] });
    remote = child;
    let said = '';
    child.stderr?.on('data', (chunk: Buffer) => (said += chunk.toString()));
    const port = Number((await waitFor(() => /listening (\d+)/.exec(said), 15_000, 'the remote fixture listening'))[1]);
    // Default timeoutMs (60 s) and restart backoff: only the proxy knowing it is down makes the call quick.
    proxy = await startProxy({ mcpServers: { rem: { url: `http://probe:pw-secret-1@127.0.0.1:${port}/mcp?key=query-secret-2` } } });
    const status = await serverRow(proxy, 'rem');
    expect(status).toMatchObject({ kind: 'remote', url: `http://127.0.0.1:${port}/mcp?key=…`, state: 'ready', down: false });
    expect(JSON.stringify(status)).not.toMatch(/pw-secret-1|query-secret-2|probe/);

    const client = await connect(proxy);
    clients.push(client);
    expect(textOf(await client.callTool({ name: 'rem__echo', arguments: { text: 'up' } }))).toBe('up');

    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    // The proxy notices (its stream breaks, the reconnect is refused): a start attempt failed.
    const down = await waitFor(async () => {
      const row = await serverRow(proxy as RunningSwitchboard, 'rem');
      return row?.down === true ? row : undefined;
    }, 15_000, 'rem known down on /status.json');
    expect(down.state).not.toBe('ready');
    expect(down.lastError).toMatch(/^could not start \(unreachable: ECONNREFUSED/);

    const call = await timedCall(client, 'rem__echo');
    expect(call.text).toMatch(/server rem is down: could not start \(unreachable: ECONNREFUSED/);
    expect(call.ms).toBeLessThan(3_000);
  });

  it('fails a call to a child that cannot start again after a crash at once, naming the reason, as it does for a remote server', async () => {
    const flag = path.join(dir, 'broken');
    // The fixture, unless the flag file exists: then it dies at start, saying why.
    const gate = `if (require('fs').existsSync(${JSON.stringify(flag)})) { console.error('Error: broken on purpose'); process.exit(3) } import(${JSON.stringify(FIXTURE)})`;
    const local = await startProxy({ mcpServers: { kid: { command: process.execPath, args: ['-e', gate], env: { FIXTURE_NAME: 'kid' } } } });
    try {
      const client = await connect(local);
      clients.push(client);
      expect(textOf(await client.callTool({ name: 'kid__echo', arguments: { text: 'up' } }))).toBe('up');
      fs.writeFileSync(flag, '');
      await client.callTool({ name: 'kid__crash', arguments: {} }).catch(() => undefined);
      const down = await waitFor(async () => ((await serverRow(local, 'kid'))?.down === true ? serverRow(local, 'kid') : undefined), 15_000, 'kid known down on /status.json');
      expect(down).toMatchObject({ kind: 'stdio', url: null, lastError: 'exited with code 3' });
      const call = await timedCall(client, 'kid__echo');
      expect(call.text).toMatch(/server kid is down: exited with code 3/);
      expect(call.ms).toBeLessThan(3_000);
    } finally {
      await local.close();
    }
  });
});
