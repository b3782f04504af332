// A child announcing tools/list_changed nonstop, one at a time, is re-listed at most once per 200 ms
// over the whole flood (not only within a burst), and the last change is always listed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RunningSwitchboard } from '../../src/index.js';
import { connect, fixture, listAllTools, startProxy, textOf, waitFor } from './helpers.js';

describe('re-listing a child that sends list_changed every 2 ms', () => {
  let proxy: RunningSwitchboard;
  let client: Client;

  beforeAll(async () => {
    // Each version of the churned tool is a changed definition: re-pinned, not withheld.
    proxy = await startProxy({ mcpServers: { fx: fixture('fx', { acceptUpdates: true }) } });
    client = await connect(proxy);
  });
  afterAll(async () => {
    await client?.close();
    await proxy?.close();
  });

  // Every 2 ms changes arrive while a pass runs; every 50 ms each pass is over before the next
  // change, which a pace kept only within a burst would answer with a pass per change.
  it.each([2, 50])('asks for tools/list at most about once per 200 ms with a change every %i ms, and ends with the current list', async (everyMs) => {
    const listsOf = async (): Promise<number> => Number(textOf(await client.callTool({ name: 'fx__list_count', arguments: {} })));
    const before = await listsOf();
    const started = Date.now();
    // One list_changed every `everyMs` for 1.5 s; answered when the last one went out.
    const done = textOf(await client.callTool({ name: 'fx__churn', arguments: { ms: 1500, everyMs, perTick: 1, clean: true, wait: true } }));
    const last = /^churned (\d+)$/.exec(done)?.[1];
    expect(last).toBeDefined();
    // The last change is listed (a trailing pass), whatever the pace.
    await waitFor(
      async () => (await listAllTools(client)).find((tool) => tool.name === 'fx__churned')?.description === `Version ${last}.`,
      10_000,
      `the proxy to list version ${last} of the churned tool`,
    );
    const elapsed = Date.now() - started;
    const lists = (await listsOf()) - before;
    // One pass per 200 ms of the flood, plus the leading and the trailing one.
    expect(lists).toBeGreaterThanOrEqual(2);
    expect(lists).toBeLessThanOrEqual(Math.ceil(elapsed / 200) + 2);
    expect(lists).toBeLessThanOrEqual(12);
  }, 20_000);
});
