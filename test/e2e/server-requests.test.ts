// The routing policy for what children start: sampling, elicitation, roots and logs (src/router/child-messages.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { RunningSwitchboard } from '../../src/index.js';
import { ROOT, connect, firstProgress, fixture, startProxy, textOf } from './helpers.js';
import { pathToFileURL } from 'node:url';

/** A client that answers sampling with its own name, so a misrouted request shows in the answer. */
async function samplingClient(proxy: RunningSwitchboard, name: string, calls: string[]): Promise<Client> {
  const client = await connect(proxy, { name, capabilities: { sampling: {}, elicitation: {}, roots: {} } });
  client.setRequestHandler(CreateMessageRequestSchema, async (request) => {
    calls.push(`${name}:${JSON.stringify(request.params.messages[0]?.content)}`);
    return { role: 'assistant', model: name, content: { type: 'text', text: `answer from ${name}` } };
  });
  client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { name: name } }));
  // A client's roots must never reach a shared child.
  client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: [{ uri: 'file:///' }] }));
  return client;
}

describe('requests from children', () => {
  let proxy: RunningSwitchboard;
  beforeAll(async () => {
    proxy = await startProxy({
      mcpServers: {
        shared: fixture('shared', { roots: ['test'] }),
        own: fixture('own', { isolation: 'session' }),
        // Its own server: a cancelled call keeps other sessions from being asked there for a while.
        aftermath: fixture('aftermath'),
      },
    });
  });
  afterAll(async () => proxy?.close());

  it('sends sampling to the one session with a call in flight, and its answer back to the child', async () => {
    const calls: string[] = [];
    const a = await samplingClient(proxy, 'alice', calls);
    const result = await a.callTool({ name: 'shared__sample', arguments: { prompt: 'hi there' } });
    expect(textOf(result)).toBe('sampled: answer from alice');
    expect(calls).toEqual(['alice:{"type":"text","text":"hi there"}']);
    await a.close();
  });

  it('forwards elicitation the same way', async () => {
    const a = await samplingClient(proxy, 'alice', []);
    const result = await a.callTool({ name: 'shared__elicit', arguments: { message: 'who?' } });
    expect(textOf(result)).toBe('elicited: {"action":"accept","content":{"name":"alice"}}');
    await a.close();
  });

  it('refuses, with a reason, sampling on a shared child while several sessions have calls there', async () => {
    const calls: string[] = [];
    const a = await samplingClient(proxy, 'alice', calls);
    const b = await samplingClient(proxy, 'bob', calls);
    // b's call is running on the shared child (its first progress is back) while a's asks for sampling.
    const progress = firstProgress();
    const busy = b.callTool({ name: 'shared__slow', arguments: { ms: 4000, steps: 8 } }, undefined, { onprogress: progress.onprogress });
    await progress.reached;
    const result = await a.callTool({ name: 'shared__sample', arguments: { prompt: 'whose?' } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/sampling failed: .*2 client sessions have requests in flight \(or recently cancelled\) on shared server shared.*isolation/);
    expect(calls).toEqual([]);
    expect(textOf(await busy)).toBe('done');
    await a.close();
    await b.close();
  });

  it('does not hand a child request to a new caller while an earlier caller\'s cancelled call may still be running', async () => {
    const calls: string[] = [];
    const a = await samplingClient(proxy, 'alice', calls);
    const b = await samplingClient(proxy, 'bob', calls);
    const controller = new AbortController();
    // Cancelled once it runs in the child (its first progress is back), long before it would end.
    const progress = firstProgress();
    const cancelled = a.callTool({ name: 'aftermath__slow', arguments: { ms: 20_000, steps: 40 } }, undefined, { signal: controller.signal, onprogress: progress.onprogress });
    await progress.reached;
    controller.abort();
    await expect(cancelled).rejects.toThrow();
    const result = await b.callTool({ name: 'aftermath__sample', arguments: { prompt: 'mine?' } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/recently cancelled/);
    expect(calls).toEqual([]);
    await a.close();
    await b.close();
  });

  it('on an isolated server, concurrent sampling of two sessions reaches each own client', async () => {
    const calls: string[] = [];
    const a = await samplingClient(proxy, 'alice', calls);
    const b = await samplingClient(proxy, 'bob', calls);
    const [ra, rb] = await Promise.all([
      a.callTool({ name: 'own__sample', arguments: { prompt: 'from a' } }),
      b.callTool({ name: 'own__sample', arguments: { prompt: 'from b' } }),
    ]);
    expect(textOf(ra)).toBe('sampled: answer from alice');
    expect(textOf(rb)).toBe('sampled: answer from bob');
    expect(calls.sort()).toEqual(['alice:{"type":"text","text":"from a"}', 'bob:{"type":"text","text":"from b"}']);
    await a.close();
    await b.close();
  });

  it('refuses sampling to a client that did not declare the capability', async () => {
    const plain = await connect(proxy);
    const result = await plain.callTool({ name: 'shared__sample', arguments: { prompt: 'x' } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/does not support sampling/);
    await plain.close();
  });

  it('answers roots/list from the server config, never from a client', async () => {
    const a = await samplingClient(proxy, 'alice', []);
    const shared = await a.callTool({ name: 'shared__roots', arguments: {} });
    expect(JSON.parse(textOf(shared))).toEqual([{ uri: pathToFileURL(`${ROOT}/test`).href }]);
    const own = await a.callTool({ name: 'own__roots', arguments: {} });
    expect(JSON.parse(textOf(own))).toEqual([]);
    await a.close();
  });

  it('filters a child log by the calling session level', async () => {
    const client = await connect(proxy);
    const logs: string[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(`${n.params.level}:${String(n.params.data)}`));
    await client.setLoggingLevel('warning');
    await client.callTool({ name: 'shared__log', arguments: { level: 'info', message: 'quiet' } });
    await client.callTool({ name: 'shared__log', arguments: { level: 'error', message: 'loud' } });
    await client.setLoggingLevel('debug');
    await client.callTool({ name: 'shared__log', arguments: { level: 'debug', message: 'chatty' } });
    expect(logs).toEqual(['error:loud', 'debug:chatty']);
    await expect(client.setLoggingLevel('verbose' as 'debug')).rejects.toThrow(/-32602|Invalid log level/);
    await client.close();
  });
});
