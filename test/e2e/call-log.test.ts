// The call log: one line per tool call with who, what, where, how long and how it ended, the
// client's trace id; arguments and results only for the tools `payloads` names, secrets redacted.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { RunningSwitchboard } from '../../src/index.js';
import { connect, fixture, startProxy, textOf } from './helpers.js';

const TOKEN = 'call-log-token-0123456789abcdef';
const SECRET = 'sk-live-4f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c';
const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';

let dir: string;
let proxy: RunningSwitchboard;
let client: Client;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(process.env.XDG_STATE_HOME ?? os.tmpdir(), 'sb-calls-'));
  proxy = await startProxy(
    {
      instance: 'calls',
      mcpServers: { fx: fixture('fx', { timeoutMs: 2000 }) },
      auth: { tokens: [{ name: 'carol', tokenEnv: 'SB_CALLS_TOKEN' }] },
      callLog: { path: path.join(dir, 'calls.jsonl'), payloads: ['fx__echo'] },
    },
    { env: { ...process.env, SB_CALLS_TOKEN: TOKEN } },
  );
  client = await connect(proxy, { token: TOKEN });
});
afterAll(async () => {
  await client?.close();
  await proxy?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function lines(): Promise<Array<Record<string, unknown>>> {
  await proxy.core.router.callLog?.drained();
  return fs.readFileSync(path.join(dir, 'calls.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('the call log', () => {
  it('writes one line per call: identity, session, tool, server, duration, outcome and trace id; payloads only where configured, redacted', async () => {
    const echoed = await client.request(
      { method: 'tools/call', params: { name: 'fx__echo', arguments: { text: `use ${SECRET} now` }, _meta: { traceparent: `00-${TRACE}-00f067aa0ba902b7-01` } } },
      CallToolResultSchema,
    );
    expect(textOf(echoed)).toBe(`use ${SECRET} now`);
    expect(textOf(await client.callTool({ name: 'fx__whoami', arguments: {} }))).toContain('fx');
    await expect(client.callTool({ name: 'fx__hang', arguments: {} })).rejects.toThrow(/did not answer/);

    const [echo, whoami, hang] = await lines();
    expect(echo).toMatchObject({ instance: 'calls', identity: 'carol', tool: 'fx__echo', server: 'fx', outcome: 'result', traceId: TRACE });
    expect(typeof echo!.session).toBe('string');
    expect(echo!.durationMs).toBeGreaterThanOrEqual(0);
    expect(Date.parse(String(echo!.time))).not.toBeNaN();
    expect(echo!.arguments).toEqual({ text: 'use [redacted] now' });
    expect(echo!.result).toBe('use [redacted] now');
    expect(whoami).toMatchObject({ tool: 'fx__whoami', outcome: 'result' });
    expect(whoami).not.toHaveProperty('arguments');
    expect(whoami).not.toHaveProperty('result');
    expect(hang).toMatchObject({ tool: 'fx__hang', outcome: 'protocol_error', error: { code: -32001 } });
    expect(Number(hang!.durationMs)).toBeGreaterThanOrEqual(2000);
    // Neither the token nor the secret reached the file.
    const text = fs.readFileSync(path.join(dir, 'calls.jsonl'), 'utf8');
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain(TOKEN);
    expect((fs.statSync(path.join(dir, 'calls.jsonl')).mode & 0o777).toString(8)).toBe('600');
  });
});
