// Rate limits shared through a real Redis: two instances take from one bucket (the sum of what
// both serve stays within it), and when Redis dies each instance does what its `onError` says
// (let requests through, or refuse them) without a hung request, and limits again once Redis is back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RunningSwitchboard } from '../../src/index.js';
import { connect, fixture, startProxy, textOf, waitFor } from './helpers.js';
import { startRedis, startRedisOn, type RunningRedis } from './redis.js';

/** Never refills within a test. */
const NEVER = 0.0001;
const BURST = 6;

describe('rate limits shared through Redis', () => {
  let redis: RunningRedis;
  let east: RunningSwitchboard;
  let west: RunningSwitchboard;
  let eastClient: Client;
  let westClient: Client;

  beforeAll(async () => {
    redis = await startRedis();
    const limits = (onError: 'open' | 'closed') => ({
      tools: { 'fx__echo': { rate: NEVER, burst: BURST, per: 'all' } },
      redis: { url: redis.url, prefix: 'e2e:', onError, timeoutMs: 500 },
    });
    [east, west] = await Promise.all([
      startProxy({ instance: 'east', mcpServers: { fx: fixture('fx') }, limits: limits('open') }),
      startProxy({ instance: 'west', mcpServers: { fx: fixture('fx') }, limits: limits('closed') }),
    ]);
    [eastClient, westClient] = await Promise.all([connect(east), connect(west)]);
  }, 30_000);

  afterAll(async () => {
    await Promise.all([eastClient?.close(), westClient?.close()]);
    await Promise.all([east?.close(), west?.close()]);
    await redis?.kill();
  });

  const echo = (client: Client, text: string): Promise<string> =>
    client.callTool({ name: 'fx__echo', arguments: { text } }).then(
      (result) => `served ${textOf(result)}`,
      (error: unknown) => `refused ${error instanceof Error ? error.message : String(error)}`,
    );

  it('serves one bucket across both instances: the sum of both stays within it', async () => {
    const outcomes: string[] = [];
    for (let i = 0; i < 2 * BURST; i++) outcomes.push(await echo(i % 2 === 0 ? eastClient : westClient, `call ${i}`));
    const served = outcomes.filter((o) => o.startsWith('served'));
    expect(served).toHaveLength(BURST);
    // The first BURST calls (three through each instance) took the tokens; every later one is refused by the shared limit.
    expect(outcomes.slice(0, BURST).every((o) => o.startsWith('served'))).toBe(true);
    for (const o of outcomes.slice(BURST)) expect(o).toContain('rate limit reached (tool fx__echo)');
    const metrics = await (await fetch(`${west.url}/metrics`)).text();
    expect(metrics).toMatch(/switchboard_rate_limited_total\{limit="tool fx__echo"\} 3\b/);
  });

  it('with Redis killed, the "open" instance serves and the "closed" one refuses, both at once; limits come back with Redis', async () => {
    await redis.kill();
    const started = Date.now();
    const [open, closed] = await Promise.all([echo(eastClient, 'open'), echo(westClient, 'closed')]);
    expect(open).toBe('served open');
    expect(closed).toContain('rate limits cannot be checked (the shared limit store is unreachable)');
    // Neither waited for a reconnect: well within the server's timeout.
    expect(Date.now() - started).toBeLessThan(10_000);
    const down = await (await fetch(`${east.url}/metrics`)).text();
    expect(down).toMatch(/switchboard_rate_limit_store_up 0\b/);

    // A fresh Redis on the same port (empty, so the bucket is full again): both limit again.
    redis = await restartOn(redis.port);
    await waitFor(() => east.core.limiter.shared?.reachable === true && west.core.limiter.shared?.reachable === true, 20_000, 'both instances reconnected to Redis');
    expect(await echo(westClient, 'back')).toBe('served back');
    const outcomes: string[] = [];
    for (let i = 0; i < 2 * BURST; i++) outcomes.push(await echo(i % 2 === 0 ? eastClient : westClient, `again ${i}`));
    // One token went to the call that saw Redis back.
    expect(outcomes.filter((o) => o.startsWith('served'))).toHaveLength(BURST - 1);
  }, 60_000);
});

/** Redis again on `port` (the instances' URL); another process may have taken it, so this retries briefly. */
function restartOn(port: number): Promise<RunningRedis> {
  return waitFor(() => startRedisOn(port).catch(() => undefined), 15_000, `redis-server on port ${port} again`);
}
