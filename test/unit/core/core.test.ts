// The socket-free core, driven through in-memory channels (harness.ts): routing, ids, progress,
// cancellation, the server-to-client policy and list_changed fan-out, with real fixture children.
// routing.test.ts checks the same exchanges against scripted children, message by message on both
// sides; these keep them honest against a real process: its pipe, its timing, its own ids.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CoreHarness, textOf, waitUntil, type Client } from './harness.js';

let harness: CoreHarness;
beforeAll(async () => {
  harness = new CoreHarness({ alpha: {}, beta: {} });
  await harness.start();
}, 20_000);
afterAll(async () => {
  await harness?.stop();
});

describe('SwitchboardCore without sockets', () => {
  it('lists every server\'s tools under its namespace and routes a call to the right child', async () => {
    const client = await harness.open();
    const list = await client.request('tools/list');
    const names = (list.message.result?.tools as Array<{ name: string }>).map((t) => t.name);
    expect(names).toContain('alpha__echo');
    expect(names).toContain('beta__echo');
    const alpha = await client.request('tools/call', { name: 'alpha__whoami', arguments: {} });
    const beta = await client.request('tools/call', { name: 'beta__whoami', arguments: {} });
    expect(textOf(alpha)).toMatch(/^alpha/);
    expect(textOf(beta)).toMatch(/^beta/);
    const unknown = await client.request('tools/call', { name: 'gamma__echo', arguments: {} });
    expect(unknown.message.error ?? unknown.message.result?.isError).toBeTruthy();
  });

  it('gives two sessions that use the same request id each their own answer', async () => {
    const [a, b] = await Promise.all([harness.open(), harness.open()]);
    const first = a.request('tools/call', { name: 'alpha__slow', arguments: { ms: 150, steps: 1 } }, 'same-id');
    const second = b.request('tools/call', { name: 'alpha__echo', arguments: { text: 'from b' } }, 'same-id');
    const [fromA, fromB] = await Promise.all([first, second]);
    expect(textOf(fromA)).toBe('done');
    expect(textOf(fromB)).toBe('from b');
    expect(a.channel.delivered.filter((d) => d.message.id === 'same-id')).toHaveLength(1);
    expect(b.channel.delivered.filter((d) => d.message.id === 'same-id')).toHaveLength(1);
  });

  it("passes progress on with the client's own token, tied to its request, before the answer", async () => {
    const client = await harness.open();
    const id = client.send('tools/call', { name: 'beta__slow', arguments: { ms: 300, steps: 3 }, _meta: { progressToken: 'tok-1' } });
    const answer = await client.channel.responseTo(id);
    expect(textOf(answer)).toBe('done');
    const progress = client.channel.delivered.filter((d) => d.message.method === 'notifications/progress');
    expect(progress.map((d) => d.message.params?.progressToken)).toEqual(['tok-1', 'tok-1', 'tok-1']);
    expect(progress.every((d) => d.relatedTo === id)).toBe(true);
    expect(client.channel.delivered.indexOf(answer)).toBeGreaterThan(client.channel.delivered.indexOf(progress[2]!));
  });

  it('frees a forwarded request id once answered, so the client may use it again, and counts each answer once', async () => {
    const client = await harness.open();
    const before = harness.core.stats.total('result');
    const first = await client.request('tools/call', { name: 'alpha__echo', arguments: { text: 'one' } }, 7);
    expect(client.session.inflight.size).toBe(0);
    client.send('tools/call', { name: 'alpha__echo', arguments: { text: 'two' } }, 7);
    const again = await client.channel.next((d) => d.message.id === 7 && d !== first, 'the second answer to id 7');
    expect([textOf(first), textOf(again)]).toEqual(['one', 'two']);
    expect(harness.core.stats.total('result') - before).toBe(2);
  });

  it('does not dispatch an invalid message', async () => {
    const client = await harness.open();
    const before = client.channel.delivered.length;
    expect(harness.core.accept(client.session, { kind: 'invalid', id: 'bad', reason: 'test' })).toBe(false);
    // A request sent after it is answered after anything the invalid one could have caused.
    const marker = await client.request('tools/call', { name: 'alpha__echo', arguments: { text: 'after' } });
    expect(textOf(marker)).toBe('after');
    expect(client.channel.delivered.slice(before).map((d) => d.message.id)).toEqual([marker.message.id]);
    expect(client.session.inflight.size).toBe(0);
  });

  it('ends a cancelled request without an answer and keeps the session usable', async () => {
    const client = await harness.open();
    const id = client.send('tools/call', { name: 'alpha__hang', arguments: {} });
    // Cancelled once it is on its way to the child, not while it is still being routed.
    await waitUntil(() => client.session.inflight.has(id), 'the call in flight');
    client.notify('notifications/cancelled', { requestId: id, reason: 'user gave up' });
    await client.channel.next(() => client.channel.abandoned.includes(id), 'abandon');
    expect(client.session.inflight.has(id)).toBe(false);
    const echo = await client.request('tools/call', { name: 'alpha__echo', arguments: { text: 'still here' } });
    expect(textOf(echo)).toBe('still here');
    expect(client.channel.delivered.some((d) => d.message.id === id)).toBe(false);
  });

  it('refuses a sampling request to a client that did not declare sampling, and forwards it to one that did', async () => {
    // beta: a server no other test leaves a call lingering on (a shared child's sampling goes to
    // the one session with calls there, and is refused while several have).
    const plain = await harness.open();
    const refused = await plain.request('tools/call', { name: 'beta__sample', arguments: { prompt: 'hi' } });
    expect(textOf(refused)).toMatch(/sampling failed/);
    const sampler: Client = await harness.open({ sampling: {} });
    const id = sampler.send('tools/call', { name: 'beta__sample', arguments: { prompt: 'hi' } });
    const ask = await sampler.channel.next((d) => d.message.method === 'sampling/createMessage', 'sampling request');
    expect(ask.relatedTo).toBe(id);
    sampler.answer(ask.message.id as string | number, { role: 'assistant', content: { type: 'text', text: 'hello back' }, model: 'test' });
    expect(textOf(await sampler.channel.responseTo(id))).toBe('sampled: hello back');
  });

  it("tells every session when a server's tool list changes, and the new tool is listed", async () => {
    const [a, b] = await Promise.all([harness.open(), harness.open()]);
    await a.request('tools/list');
    await b.request('tools/list');
    const added = await a.request('tools/call', { name: 'beta__add_tool', arguments: { name: 'fresh_tool' } });
    expect(textOf(added)).toBe('added fresh_tool');
    await a.channel.next((d) => d.message.method === 'notifications/tools/list_changed', 'list_changed for a');
    await b.channel.next((d) => d.message.method === 'notifications/tools/list_changed', 'list_changed for b');
    const list = await b.request('tools/list');
    expect((list.message.result?.tools as Array<{ name: string }>).map((t) => t.name)).toContain('beta__fresh_tool');
  });
});
