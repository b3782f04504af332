// An SDK client that never follows nextCursor (most do not) still gets a whole catalog of more
// than a hundred tools: the default page holds up to limits.pageSize (1,000) items.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RunningSwitchboard } from '../../src/index.js';
import { connect, fixture, listAllTools, startProxy } from './helpers.js';

describe('list pages through the proxy', () => {
  let proxy: RunningSwitchboard;
  let client: Client;
  beforeAll(async () => {
    proxy = await startProxy({ mcpServers: { big: fixture('big', {}, { FIXTURE_EXTRA_TOOLS: '110' }), small: fixture('small') } });
    client = await connect(proxy);
  });
  afterAll(async () => {
    await client?.close();
    await proxy?.close();
  });

  it('gives listTools() without a cursor every tool of a catalog past 100, in one page', async () => {
    const first = await client.listTools();
    expect(first.nextCursor).toBeUndefined();
    expect(first.tools.length).toBeGreaterThan(130);
    expect(first.tools.map((t) => t.name)).toEqual((await listAllTools(client)).map((t) => t.name));
    expect(first.tools.map((t) => t.name)).toContain('big__extra_110');
    expect(first.tools.map((t) => t.name)).toContain('small__echo');
  });
});
