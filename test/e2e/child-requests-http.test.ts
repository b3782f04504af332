// What a child sends a client, through a real transport and the SDK's client: a child's log at the
// level the session asked for, and roots answered from the config. The routing policy itself is
// tested in the socket-free core (test/unit/core/server-requests.test.ts).
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ListRootsRequestSchema, LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { RunningSwitchboard } from '../../src/index.js';
import { ROOT, connect, fixture, startProxy, textOf } from './helpers.js';

describe('a child talking to a client over Streamable HTTP', () => {
  let proxy: RunningSwitchboard;
  beforeAll(async () => {
    proxy = await startProxy({ mcpServers: { shared: fixture('shared', { roots: ['test'] }) } });
  });
  afterAll(async () => proxy?.close());

  it("delivers a child's log at the level the session set, and refuses a level that does not exist", async () => {
    const client = await connect(proxy);
    const logs: string[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(`${n.params.level}:${String(n.params.data)}`));
    await client.setLoggingLevel('warning');
    await client.callTool({ name: 'shared__log', arguments: { level: 'info', message: 'quiet' } });
    await client.callTool({ name: 'shared__log', arguments: { level: 'error', message: 'loud' } });
    await client.setLoggingLevel('debug');
    await client.callTool({ name: 'shared__log', arguments: { level: 'debug', message: 'chatty' } });
    // Each log is sent on the call's own response stream, before its answer.
    expect(logs).toEqual(['error:loud', 'debug:chatty']);
    await expect(client.setLoggingLevel('verbose' as 'debug')).rejects.toThrow(/-32602|Invalid log level/);
    await client.close();
  });

  it("answers the child's roots/list from the config, never from the client's roots", async () => {
    const client = await connect(proxy, { capabilities: { roots: {} } });
    client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: [{ uri: 'file:///' }] }));
    const roots = await client.callTool({ name: 'shared__roots', arguments: {} });
    expect(JSON.parse(textOf(roots))).toEqual([{ uri: pathToFileURL(`${ROOT}/test`).href }]);
    await client.close();
  });
});
