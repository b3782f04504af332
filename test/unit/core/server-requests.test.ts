// The routing policy for what children start (src/router/child-messages.ts), in the socket-free
// core with scripted children: a child's sampling and elicitation go to the one session whose call
// it serves, or are refused with a reason; roots come from the config, never from a client; a
// child's log reaches a session at the level it asked for.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JsonObject } from '../../../src/jsonrpc/messages.js';
import { CoreHarness, textOf, waitUntil, type Client } from './harness.js';
import type { ScriptedChild } from './scripted-child.js';

const CLIENT_CAPABILITIES = { sampling: {}, elicitation: {}, roots: {} };

/**
 * Tools every scripted child has: `ask` sends the request its arguments name to the client and
 * answers the call with what came back; `wait` stays open until the test answers it.
 */
function script(child: ScriptedChild): void {
  child.tools = [...child.tools, { name: 'ask', inputSchema: { type: 'object' } }, { name: 'wait', inputSchema: { type: 'object' } }];
  child.calls.set('wait', () => undefined);
  child.calls.set('ask', (args, call) => {
    void child.request(String(args.method), (args.params ?? {}) as JsonObject).then((answer) => {
      const text = answer.error === undefined ? JSON.stringify(answer.result) : `refused: ${(answer.error as { message: string }).message}`;
      child.answer(call.id!, { content: [{ type: 'text', text }] });
    });
    return undefined;
  });
}

const SAMPLING = { method: 'sampling/createMessage', params: { messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 5 } };

/** Answers the next sampling or elicitation request the core sends `client`, with its own name in it. */
async function answerAs(client: Client, name: string, method = 'sampling/createMessage'): Promise<void> {
  const ask = await client.channel.next((d) => d.message.method === method, `${method} for ${name}`);
  client.answer(ask.message.id!, method === 'elicitation/create' ? { action: 'accept', content: { name } } : { role: 'assistant', model: name, content: { type: 'text', text: `from ${name}` } });
}

let harness: CoreHarness;
beforeAll(async () => {
  harness = new CoreHarness({ shared: {}, own: {}, aftermath: {} }, { script, config: { shared: { roots: ['data'] }, own: { isolation: 'session' } } });
  await harness.start();
});
afterAll(async () => {
  await harness?.stop();
});

describe('requests from children, through the core', () => {
  it('sends sampling to the one session with a call in flight, and its answer back to the child', async () => {
    const [bystander, caller] = [await harness.open(CLIENT_CAPABILITIES), await harness.open(CLIENT_CAPABILITIES)];
    const id = caller.send('tools/call', { name: 'shared__ask', arguments: SAMPLING });
    await answerAs(caller, 'alice');
    expect(JSON.parse(textOf(await caller.channel.responseTo(id)))).toEqual({ role: 'assistant', model: 'alice', content: { type: 'text', text: 'from alice' } });
    expect(bystander.channel.delivered.some((d) => d.message.method === 'sampling/createMessage')).toBe(false);
  });

  it('forwards elicitation the same way', async () => {
    const caller = await harness.open(CLIENT_CAPABILITIES);
    const id = caller.send('tools/call', { name: 'shared__ask', arguments: { method: 'elicitation/create', params: { message: 'who?', requestedSchema: { type: 'object', properties: {} } } } });
    await answerAs(caller, 'alice', 'elicitation/create');
    expect(JSON.parse(textOf(await caller.channel.responseTo(id)))).toEqual({ action: 'accept', content: { name: 'alice' } });
  });

  it('refuses, with a reason, sampling on a shared child while several sessions have calls there', async () => {
    const [a, b] = [await harness.open(CLIENT_CAPABILITIES), await harness.open(CLIENT_CAPABILITIES)];
    const child = harness.child('shared');
    const since = child.written.length;
    const busy = b.send('tools/call', { name: 'shared__wait', arguments: {} });
    const held = await child.callAfter(since, 'wait');
    const asked = await a.request('tools/call', { name: 'shared__ask', arguments: SAMPLING });
    expect(textOf(asked)).toMatch(/^refused: .*2 client sessions have requests in flight \(or recently cancelled\) on shared server shared.*isolation/);
    expect([...a.channel.delivered, ...b.channel.delivered].some((d) => d.message.method === 'sampling/createMessage')).toBe(false);
    child.answer(held.id!, { content: [{ type: 'text', text: 'done' }] });
    expect(textOf(await b.channel.responseTo(busy))).toBe('done');
  });

  it("does not hand a child request to a new caller while an earlier caller's cancelled call may still be running", async () => {
    const [a, b] = [await harness.open(CLIENT_CAPABILITIES), await harness.open(CLIENT_CAPABILITIES)];
    const child = harness.child('aftermath');
    const since = child.written.length;
    const cancelled = a.send('tools/call', { name: 'aftermath__wait', arguments: {} });
    await child.callAfter(since, 'wait');
    a.notify('notifications/cancelled', { requestId: cancelled, reason: 'gave up' });
    await child.next((w) => w.method === 'notifications/cancelled', 'the cancellation');
    const id = b.send('tools/call', { name: 'aftermath__ask', arguments: SAMPLING });
    // Refused, the call is answered; handed to b, the sampling request arrives instead (and fails here at once).
    const first = await b.channel.next((d) => d.message.id === id || d.message.method === 'sampling/createMessage', 'the answer or a sampling request');
    expect(first.message.method).toBeUndefined();
    expect(textOf(first)).toMatch(/^refused: .*recently cancelled/);
  });

  it("on an isolated server, concurrent sampling of two sessions reaches each one's own client through its own child", async () => {
    const [a, b] = [await harness.open(CLIENT_CAPABILITIES), await harness.open(CLIENT_CAPABILITIES)];
    const before = harness.children('own').length;
    const ids = [a.send('tools/call', { name: 'own__ask', arguments: SAMPLING }), b.send('tools/call', { name: 'own__ask', arguments: SAMPLING })];
    // Both requests arrive before either is answered: each session gets its own child's.
    const asked = (c: Client): number => c.channel.delivered.filter((d) => d.message.method === 'sampling/createMessage').length;
    await waitUntil(() => asked(a) + asked(b) === 2, 'both sampling requests');
    expect([asked(a), asked(b)]).toEqual([1, 1]);
    await Promise.all([answerAs(a, 'alice'), answerAs(b, 'bob')]);
    const [ra, rb] = await Promise.all([a.channel.responseTo(ids[0]!), b.channel.responseTo(ids[1]!)]);
    expect(JSON.parse(textOf(ra)).model).toBe('alice');
    expect(JSON.parse(textOf(rb)).model).toBe('bob');
    // A child each: the shared instance only lists, each session's own ran its call.
    const opened = harness.children('own').slice(before);
    expect(opened).toHaveLength(2);
    expect(opened.map((c) => c.requests('tools/call').length)).toEqual([1, 1]);
  });

  it('refuses sampling to a client that did not declare the capability', async () => {
    const plain = await harness.open();
    const asked = await plain.request('tools/call', { name: 'shared__ask', arguments: SAMPLING });
    expect(textOf(asked)).toMatch(/^refused: .*does not support sampling/);
  });

  it('answers roots/list from the server config, never from a client', async () => {
    const client = await harness.open(CLIENT_CAPABILITIES);
    const shared = await client.request('tools/call', { name: 'shared__ask', arguments: { method: 'roots/list' } });
    expect(JSON.parse(textOf(shared))).toEqual({ roots: [{ uri: pathToFileURL(path.join(harness.dir, 'data')).href }] });
    const own = await client.request('tools/call', { name: 'own__ask', arguments: { method: 'roots/list' } });
    expect(JSON.parse(textOf(own))).toEqual({ roots: [] });
    expect(client.channel.delivered.some((d) => d.message.method === 'roots/list')).toBe(false);
  });

  it("filters a child's log by the calling session's level", async () => {
    const client = await harness.open();
    const child = harness.child('shared');
    const logged = async (level: string, data: string): Promise<void> => {
      const since = child.written.length;
      const id = client.send('tools/call', { name: 'shared__wait', arguments: {} });
      const call = await child.callAfter(since, 'wait');
      child.notify('notifications/message', { level, data });
      child.answer(call.id!, { content: [{ type: 'text', text: 'ok' }] });
      await client.channel.responseTo(id);
    };
    expect((await client.request('logging/setLevel', { level: 'warning' })).message.error).toBeUndefined();
    await logged('info', 'quiet');
    await logged('error', 'loud');
    await client.request('logging/setLevel', { level: 'debug' });
    await logged('debug', 'chatty');
    const logs = client.channel.delivered.filter((d) => d.message.method === 'notifications/message').map((d) => `${String(d.message.params?.level)}:${String(d.message.params?.data)}`);
    expect(logs).toEqual(['error:loud', 'debug:chatty']);
    expect((await client.request('logging/setLevel', { level: 'verbose' })).message.error?.code).toBe(-32602);
  });
});
