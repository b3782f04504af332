// Routing through the core with children scripted in memory (scripted-child.ts): what each child
// is sent and what each session gets back, for ids, progress, cancellation, a child's requests to a
// client, list_changed and a child that dies. No process, no socket: every exchange is observed on
// both sides, so a wrong id, token or recipient fails here at once.
import { afterEach, describe, expect, it } from 'vitest';
import type { JsonObject } from '../../../src/jsonrpc/messages.js';
import { CoreHarness, textOf, waitUntil, type Script } from './harness.js';

let harness: CoreHarness | undefined;
afterEach(async () => {
  await harness?.stop();
  harness = undefined;
});

async function started(script: Script, servers: readonly string[] = ['alpha']): Promise<CoreHarness> {
  harness = new CoreHarness(Object.fromEntries(servers.map((name) => [name, {}])), { script });
  await harness.start();
  return harness;
}

/** A tool whose calls stay open until the test answers them through the child. */
const heldOpen: Script = (child) => {
  child.tools = [...child.tools, { name: 'wait', inputSchema: { type: 'object' } }];
  child.calls.set('wait', () => undefined);
};

describe('routing through the core, with scripted children', () => {
  it("never shows a child a client's id: two sessions' same id become two ids of the proxy's, and each answer goes back under its own", async () => {
    const core = await started(heldOpen);
    const [a, b] = [await core.open(), await core.open()];
    a.send('tools/call', { name: 'alpha__wait', arguments: {} }, 'same');
    b.send('tools/call', { name: 'alpha__wait', arguments: {} }, 'same');
    const child = core.child('alpha');
    await child.next(() => child.requests('tools/call').length === 2, 'both calls');
    const [first, second] = child.requests('tools/call');
    expect(first!.id).not.toBe('same');
    expect(second!.id).not.toBe('same');
    expect(first!.id).not.toBe(second!.id);
    // Answered in the other order: each session still gets its own result, under its own id.
    child.answer(second!.id!, { content: [{ type: 'text', text: 'for b' }] });
    child.answer(first!.id!, { content: [{ type: 'text', text: 'for a' }] });
    expect(textOf(await a.channel.responseTo('same'))).toBe('for a');
    expect(textOf(await b.channel.responseTo('same'))).toBe('for b');
    expect(a.channel.delivered.filter((d) => d.message.id === 'same')).toHaveLength(1);
    expect(b.channel.delivered.filter((d) => d.message.id === 'same')).toHaveLength(1);
    expect(a.session.inflight.size + b.session.inflight.size).toBe(0);
  });

  it("gives the child a progress token of the proxy's, and the client its own back, tied to its request; progress for a token nobody holds is dropped", async () => {
    const core = await started(heldOpen);
    const client = await core.open();
    const id = client.send('tools/call', { name: 'alpha__wait', arguments: {}, _meta: { progressToken: 'mine' } });
    const child = core.child('alpha');
    const call = await child.next((w) => w.method === 'tools/call', 'the call');
    const token = ((call.message.params as JsonObject)._meta as JsonObject).progressToken;
    expect(token).not.toBe('mine');
    child.notify('notifications/progress', { progressToken: 'mine', progress: 0.1 });
    child.notify('notifications/progress', { progressToken: token as string, progress: 0.5, total: 1 });
    child.answer(call.id!, { content: [{ type: 'text', text: 'done' }] });
    const answer = await client.channel.responseTo(id);
    const progress = client.channel.delivered.filter((d) => d.message.method === 'notifications/progress');
    expect(progress.map((d) => d.message.params)).toEqual([{ progressToken: 'mine', progress: 0.5, total: 1 }]);
    expect(progress[0]!.relatedTo).toBe(id);
    expect(client.channel.delivered.indexOf(answer)).toBeGreaterThan(client.channel.delivered.indexOf(progress[0]!));
  });

  it("passes a client's cancellation to the child under the child's id, and drops the child's late answer", async () => {
    const core = await started(heldOpen);
    const client = await core.open();
    const id = client.send('tools/call', { name: 'alpha__wait', arguments: {} });
    const child = core.child('alpha');
    const call = await child.next((w) => w.method === 'tools/call', 'the call');
    client.notify('notifications/cancelled', { requestId: id, reason: 'user gave up' });
    const cancel = await child.next((w) => w.method === 'notifications/cancelled', 'the cancellation');
    expect(cancel.message.params).toEqual({ requestId: call.id, reason: 'user gave up' });
    expect(child.abandoned).toEqual([call.id]);
    expect(client.session.inflight.has(id)).toBe(false);
    child.answer(call.id!, { content: [{ type: 'text', text: 'too late' }] });
    // A call sent after the late answer is answered after it: had the late one been delivered, it would be there first.
    const marker = await client.request('tools/call', { name: 'alpha__echo', arguments: { text: 'after' } });
    expect(textOf(marker)).toBe('after');
    expect(client.channel.delivered.some((d) => d.message.id === id)).toBe(false);
  });

  it("sends a child's sampling request to the session whose call it serves, under an id of the proxy's, and the answer back under the child's", async () => {
    const core = await started(heldOpen);
    const bystander = await core.open({ sampling: {} });
    const caller = await core.open({ sampling: {} });
    const id = caller.send('tools/call', { name: 'alpha__wait', arguments: {} });
    const child = core.child('alpha');
    await child.next((w) => w.method === 'tools/call', 'the call');
    const answered = child.request('sampling/createMessage', { messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 10 });
    const ask = await caller.channel.next((d) => d.message.method === 'sampling/createMessage', 'the sampling request');
    expect(ask.relatedTo).toBe(id);
    expect(String(ask.message.id)).not.toMatch(/^child-/);
    caller.answer(ask.message.id!, { role: 'assistant', content: { type: 'text', text: 'hello' }, model: 'm' });
    expect(await answered).toEqual({ jsonrpc: '2.0', id: 'child-1', result: { role: 'assistant', content: { type: 'text', text: 'hello' }, model: 'm' } });
    expect(bystander.channel.delivered.some((d) => d.message.method === 'sampling/createMessage')).toBe(false);
  });

  it('refuses a sampling request to the child when the session it serves did not declare sampling', async () => {
    const core = await started(heldOpen);
    const client = await core.open();
    client.send('tools/call', { name: 'alpha__wait', arguments: {} });
    const child = core.child('alpha');
    await child.next((w) => w.method === 'tools/call', 'the call');
    const refused = await child.request('sampling/createMessage', { messages: [], maxTokens: 10 });
    expect(refused.error).toMatchObject({ code: expect.any(Number), message: expect.stringMatching(/sampling/) });
    expect(client.channel.delivered.some((d) => d.message.method === 'sampling/createMessage')).toBe(false);
  });

  it("lists a child again on its list_changed and tells every session once, with the new tool listed, then gone again", async () => {
    const core = await started(() => undefined, ['alpha', 'beta']);
    const [a, b] = [await core.open(), await core.open()];
    expect(a.initialized.capabilities).toMatchObject({ tools: { listChanged: true } });
    await a.request('tools/list');
    await b.request('tools/list');
    const child = core.child('beta');
    expect(child.requests('tools/list')).toHaveLength(1);
    child.tools = [...child.tools, { name: 'fresh', inputSchema: { type: 'object' } }];
    child.notify('notifications/tools/list_changed');
    await child.next(() => child.requests('tools/list').length === 2, 'the second listing');
    await a.channel.next((d) => d.message.method === 'notifications/tools/list_changed', 'list_changed for a');
    await b.channel.next((d) => d.message.method === 'notifications/tools/list_changed', 'list_changed for b');
    const names = ((await b.request('tools/list')).message.result?.tools as Array<{ name: string }>).map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['alpha__echo', 'beta__echo', 'beta__fresh']));
    expect(textOf(await b.request('tools/call', { name: 'beta__fresh', arguments: { text: 'new tool works' } }))).toBe('new tool works');
    expect(core.child('alpha').requests('tools/list')).toHaveLength(1);
    expect(a.channel.delivered.filter((d) => d.message.method === 'notifications/tools/list_changed')).toHaveLength(1);

    // Removed: listed no more, and unknown to a call.
    child.tools = child.tools.filter((t) => t.name !== 'fresh');
    child.notify('notifications/tools/list_changed');
    await b.channel.next((d) => b.channel.delivered.filter((e) => e.message.method === 'notifications/tools/list_changed').length === 2, 'a second list_changed for b');
    const after = ((await b.request('tools/list')).message.result?.tools as Array<{ name: string }>).map((t) => t.name);
    expect(after).not.toContain('beta__fresh');
    expect(after).toContain('beta__echo');
    const gone = await b.request('tools/call', { name: 'beta__fresh', arguments: { text: 'x' } });
    expect(JSON.stringify(gone.message.error ?? gone.message.result)).toMatch(/fresh/);
    expect(child.requests('tools/call').filter((w) => (w.message.params as JsonObject).name === 'fresh')).toHaveLength(1);
  });

  it('answers a call in flight with an error naming the server when its child dies, and the restarted child serves the next call', async () => {
    const core = await started(heldOpen);
    const client = await core.open();
    const id = client.send('tools/call', { name: 'alpha__wait', arguments: {} });
    const first = core.child('alpha');
    await first.next((w) => w.method === 'tools/call', 'the call');
    first.close({ code: 3, signal: null });
    const failed = await client.channel.responseTo(id);
    expect(failed.message.error?.message ?? textOf(failed)).toMatch(/alpha.*exited with code 3/);
    await waitUntil(() => core.children('alpha').length === 2, 'a restarted child');
    const echo = await client.request('tools/call', { name: 'alpha__echo', arguments: { text: 'again' } });
    expect(textOf(echo)).toBe('again');
    expect(core.child('alpha').requests('tools/call')).toHaveLength(1);
  });
});
