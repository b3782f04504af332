// A remote server that cuts a request's SSE stream before the answer (the SDK's McpServer with an
// event store, closing the stream from inside the tool): the proxy resumes it with a GET carrying
// Last-Event-ID, and the call gets its answer instead of an error.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RunningSwitchboard } from '../../src/index.js';
import { ROOT, connect, serveListening, startProxy, textOf } from './helpers.js';

const REMOTE_FIXTURE = path.join(ROOT, 'test/fixtures/remote-fixture.mjs');

describe('a remote request stream cut before its answer', () => {
  let proxy: RunningSwitchboard;
  let server: ChildProcess;
  let client: Client;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-resume-'));
  const logFile = path.join(dir, 'proxy.log');

  beforeAll(async () => {
    const served = await serveListening([REMOTE_FIXTURE], { PORT: '0', RESUMABLE: '1' }, /listening (\d+)/, (child) => (server = child));
    const port = served.port;
    proxy = await startProxy({ logLevel: 'debug', mcpServers: { res: { url: `http://127.0.0.1:${port}/mcp` } } }, { logFile });
    client = await connect(proxy, { name: 'resume' });
  });

  afterAll(async () => {
    await client?.close().catch(() => undefined);
    await proxy?.close();
    server?.kill('SIGKILL');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('is resumed from its last event, and the call gets the answer', async () => {
    const result = await client.callTool({ name: 'res__cut_then_answer', arguments: { text: 'after one cut' } });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toBe('after one cut');
    expect(fs.readFileSync(logFile, 'utf8')).toContain('resuming a request stream the server cut');
  });

  it('is resumed as often as the server cuts it while it makes progress', async () => {
    const result = await client.callTool({ name: 'res__cut_then_answer', arguments: { text: 'after three cuts', cuts: 3 } });
    expect(textOf(result)).toBe('after three cuts');
    // Calls that were never cut still go as before.
    expect(textOf(await client.callTool({ name: 'res__echo', arguments: { text: 'plain' } }))).toBe('plain');
  });
});
