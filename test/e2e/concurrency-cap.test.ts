// A server's maxConcurrent: the child is never handed more requests at once; the rest wait in a
// bounded queue (oldest first), a full queue refuses at once, and a queued request the client
// cancels is never sent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RunningSwitchboard } from '../../src/index.js';
import { connect, fixture, startProxy, textOf, waitFor } from './helpers.js';

let proxy: RunningSwitchboard;
let client: Client;

beforeAll(async () => {
  proxy = await startProxy({ mcpServers: { fx: fixture('fx', { maxConcurrent: 2, maxQueued: 1, timeoutMs: 30_000 }) } });
  client = await connect(proxy);
});
afterAll(async () => {
  await client?.close();
  await proxy?.close();
});

const fx = () => proxy.core.upstreams.primaryOf('fx')!;
const inFlight = () => fx().connection?.pendingCount ?? -1;

/** A call that never answers until aborted. */
function hang(): { abort: () => void; done: Promise<unknown> } {
  const controller = new AbortController();
  const done = client.callTool({ name: 'fx__hang', arguments: {} }, undefined, { signal: controller.signal, timeout: 60_000 }).catch((error: unknown) => error);
  return { abort: () => controller.abort(), done };
}

describe('maxConcurrent', () => {
  it('queues what exceeds the cap, refuses beyond the queue, and sends the queued request when a slot frees', async () => {
    const first = hang();
    const second = hang();
    await waitFor(() => inFlight() === 2, 10_000, 'two calls in flight');
    const queued = client.callTool({ name: 'fx__echo', arguments: { text: 'waited its turn' } });
    await waitFor(() => fx().queuedCount === 1, 10_000, 'one call queued');
    expect(inFlight()).toBe(2);
    const metrics = await (await fetch(`${proxy.url}/metrics`)).text();
    expect(metrics).toMatch(/switchboard_server_queued_requests\{server="fx"\} 1\b/);

    await expect(client.callTool({ name: 'fx__echo', arguments: { text: 'no room' } })).rejects.toThrow(/server fx is busy: 2 requests in flight \(maxConcurrent\) and 1 waiting/);

    first.abort();
    expect(textOf(await queued)).toBe('waited its turn');
    expect(fx().queuedCount).toBe(0);
    second.abort();
    await Promise.all([first.done, second.done]);
  });

  it('never sends a queued request its client cancelled', async () => {
    const first = hang();
    const second = hang();
    await waitFor(() => inFlight() === 2, 10_000, 'two calls in flight');
    const controller = new AbortController();
    // A call that would hang: had it been sent, it would hold a slot for good.
    const cancelled = client.callTool({ name: 'fx__hang', arguments: {} }, undefined, { signal: controller.signal }).catch((error: unknown) => error);
    await waitFor(() => fx().queuedCount === 1, 10_000, 'one call queued');
    controller.abort();
    await cancelled;
    await waitFor(() => fx().queuedCount === 0, 10_000, 'the cancelled call out of the queue');
    first.abort();
    // The freed slot stays free: nothing was sent for the cancelled call.
    await waitFor(() => inFlight() === 1, 10_000, 'one call left in flight');
    expect(textOf(await client.callTool({ name: 'fx__echo', arguments: { text: 'next' } }))).toBe('next');
    expect(inFlight()).toBe(1);
    second.abort();
    await Promise.all([first.done, second.done]);
  });
});
