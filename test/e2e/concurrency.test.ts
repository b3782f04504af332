// Many sessions sharing one child: every answer reaches the session and request that asked, with its own id.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RunningSwitchboard } from '../../src/index.js';
import { connect, fixture, pidOf, rawPost, rawSession, responseOf, startProxy, textOf } from './helpers.js';

const SESSIONS = 20;
const CALLS_PER_SESSION = 10;

describe('concurrency on one shared child', () => {
  let proxy: RunningSwitchboard;
  const clients: Client[] = [];

  beforeAll(async () => {
    proxy = await startProxy({ mcpServers: { fixture: fixture('fixture') } });
  });
  afterAll(async () => {
    await Promise.allSettled(clients.map((client) => client.close()));
    await proxy?.close();
  });

  it(`${SESSIONS} sessions x ${CALLS_PER_SESSION} concurrent echo calls each get their own answers`, async () => {
    clients.push(...(await Promise.all(Array.from({ length: SESSIONS }, (_, i) => connect(proxy, { name: `conc-${i}` })))));
    const calls: Array<Promise<{ question: string; answer: string }>> = [];
    clients.forEach((client, s) => {
      for (let c = 0; c < CALLS_PER_SESSION; c += 1) {
        const question = `session ${s} call ${c} ${'é✓'.repeat((s + c) % 3)}`;
        calls.push(
          client.callTool({ name: 'fixture__echo', arguments: { text: question } }).then((result) => {
            expect(result.isError ?? false).toBe(false);
            return { question, answer: textOf(result) };
          }),
        );
      }
    });
    const results = await Promise.all(calls);
    expect(results).toHaveLength(SESSIONS * CALLS_PER_SESSION);
    for (const { question, answer } of results) expect(answer).toBe(question);
  });

  it('large calls (forwarded as the client wrote them) keep their text, ids and progress per session', async () => {
    const large = clients.slice(0, 5);
    const outcomes = await Promise.all(
      large.map(async (client, s) => {
        const text = `${s}:${'ünïcødé ✓ "quoted" \\ {[' .repeat(2000)}`;
        const progress: number[] = [];
        const [echoed, slow] = await Promise.all([
          client.callTool({ name: 'fixture__echo', arguments: { text } }),
          client.callTool({ name: 'fixture__slow', arguments: { ms: 60, steps: 3, padding: text } }, undefined, {
            onprogress: (p) => progress.push(p.progress),
            timeout: 10_000,
          }),
        ]);
        return { text, echoed: textOf(echoed), slow: textOf(slow), progress };
      }),
    );
    for (const outcome of outcomes) {
      expect(outcome.text.length).toBeGreaterThan(30_000);
      expect(outcome.echoed).toBe(outcome.text);
      expect(outcome.slow).toBe('done');
      // Each session's progress arrives under its own token; the SDK may drop the last one (same tick as the answer).
      expect(outcome.progress.slice(0, 2)).toEqual([1, 2]);
    }
  });

  it('returns a string id as the same string and a numeric id as the same number', async () => {
    const sessionId = await rawSession(proxy);
    const call = (id: unknown, text: string) =>
      rawPost(proxy, { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'fixture__echo', arguments: { text } } }, { sessionId });

    const stringReply = await call('abc', 'string id');
    expect(stringReply.status).toBe(200);
    const stringResponse = responseOf(stringReply);
    expect(stringResponse.id).toBe('abc');
    expect(typeof stringResponse.id).toBe('string');
    expect(stringResponse.result?.content?.[0]?.text).toBe('string id');

    const numberReply = await call(7, 'number id');
    expect(numberReply.status).toBe(200);
    const numberResponse = responseOf(numberReply);
    expect(numberResponse.id).toBe(7);
    expect(typeof numberResponse.id).toBe('number');
    expect(numberResponse.result?.content?.[0]?.text).toBe('number id');

    // "7" and 7 are different ids: the string form must not come back as a number.
    const sevenString = responseOf(await call('7', 'string seven'));
    expect(sevenString.id).toBe('7');
    expect(sevenString.result?.content?.[0]?.text).toBe('string seven');
  });

  it('two sessions sending the same id 1 concurrently each get their own answer', async () => {
    const [a, b] = await Promise.all([rawSession(proxy), rawSession(proxy)]);
    expect(a).not.toBe(b);
    const ask = (sessionId: string, text: string) =>
      rawPost(
        proxy,
        { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'fixture__echo', arguments: { text } } },
        { sessionId },
      );
    for (let round = 0; round < 5; round += 1) {
      const [ra, rb] = await Promise.all([ask(a, `from A ${round}`), ask(b, `from B ${round}`)]);
      expect(responseOf(ra)).toMatchObject({ id: 1, result: { content: [{ type: 'text', text: `from A ${round}` }] } });
      expect(responseOf(rb)).toMatchObject({ id: 1, result: { content: [{ type: 'text', text: `from B ${round}` }] } });
    }

    // Both in flight at the child at once: a slow call with id 1 on each session.
    const slow = (sessionId: string) =>
      rawPost(proxy, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'fixture__slow', arguments: { ms: 300, steps: 1 } } }, { sessionId });
    const echoAfter = (sessionId: string, text: string) =>
      rawPost(proxy, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'fixture__echo', arguments: { text } } }, { sessionId });
    const [sa, sb, ea, eb] = await Promise.all([slow(a), slow(b), echoAfter(a, 'A two'), echoAfter(b, 'B two')]);
    expect(responseOf(sa)).toMatchObject({ id: 1, result: { content: [{ type: 'text', text: 'done' }] } });
    expect(responseOf(sb)).toMatchObject({ id: 1, result: { content: [{ type: 'text', text: 'done' }] } });
    expect(responseOf(ea)).toMatchObject({ id: 2, result: { content: [{ type: 'text', text: 'A two' }] } });
    expect(responseOf(eb)).toMatchObject({ id: 2, result: { content: [{ type: 'text', text: 'B two' }] } });
  });

  it('serves every session from ONE child process', async () => {
    const sessions = clients.length > 0 ? clients.slice(0, 5) : [await connect(proxy), await connect(proxy)];
    const pids = await Promise.all(sessions.map(async (client) => pidOf(await client.callTool({ name: 'fixture__whoami', arguments: {} }))));
    expect(new Set(pids).size).toBe(1);
    const handles = proxy.core.upstreams.all().filter((handle) => handle.config.name === 'fixture');
    expect(handles).toHaveLength(1);
    expect(proxy.core.upstreams.all()).toHaveLength(1);
    expect(proxy.core.upstreams.isolatedInstances('fixture')).toBe(0);
  });
});
