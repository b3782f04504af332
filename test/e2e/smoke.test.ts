import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSwitchboard } from '../../src/index.js';
import { connect, fixture, startProxy, textOf } from './helpers.js';

describe('smoke', () => {
  let proxy: RunningSwitchboard;
  beforeAll(async () => {
    proxy = await startProxy({ mcpServers: { one: fixture('one'), two: fixture('two') } });
  });
  afterAll(async () => proxy?.close());

  it('lists and calls namespaced tools', async () => {
    const client = await connect(proxy);
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toContain('one__echo');
    expect(names).toContain('two__echo');
    const result = await client.callTool({ name: 'two__echo', arguments: { text: 'hello' } });
    expect(textOf(result)).toBe('hello');
    await client.close();
  });
});
