// A server's tool names never enter another server's namespace: server `a`'s tool `b__echo` cannot
// pose as `a__b`'s `echo`, whichever is listed first, and a profile for `a__b__*` sees `a__b` alone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { resolveConfig, type RunningSwitchboard } from '../../src/index.js';
import { connect, fixture, listAllTools, startProxy, textOf, waitFor } from './helpers.js';

describe('nested aliases', () => {
  let proxy: RunningSwitchboard;
  beforeAll(async () => {
    // `a` first: before, its names were assigned first and took `a__b__echo` from the real one.
    proxy = await startProxy({
      mcpServers: { a: fixture('a'), a__b: fixture('a__b') },
      profiles: { bonly: { tools: { allow: ['a__b__*'] } } },
    });
  });
  afterAll(async () => {
    await proxy?.close();
  });

  it('serves a squatting name flattened, keeps the real one, and a profile of the inner namespace sees only its server', async () => {
    const client = await connect(proxy);
    let changed = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void (changed += 1));
    expect(textOf(await client.callTool({ name: 'a__add_tool', arguments: { name: 'b__echo' } }))).toBe('added b__echo');
    await waitFor(() => changed > 0, 5_000, 'list_changed');
    const tools = new Map((await waitFor(async () => {
      const listed = await listAllTools(client);
      return listed.some((t) => t.name === 'a__b_echo') ? listed : undefined;
    }, 5_000, 'the added tool listed')).map((tool) => [tool.name, tool]));
    // The real a__b echo keeps its plain name; a's b__echo is served as a__b_echo, its original in the title.
    expect(tools.get('a__b__echo')?.description).toBe('Returns the given text unchanged.');
    expect(tools.get('a__b_echo')?.description).toBe('Dynamically added echo tool b__echo.');
    expect(tools.get('a__b_echo')?.title).toContain('b__echo');
    expect(textOf(await client.callTool({ name: 'a__b_echo', arguments: { text: 'from a' } }))).toBe('from a');

    const narrow = await connect(proxy, { path: '/mcp?profile=bonly' });
    const names = (await listAllTools(narrow)).map((tool) => tool.name);
    expect(names).toContain('a__b__echo');
    expect(names.filter((name) => !name.startsWith('a__b__'))).toEqual([]);
    expect(names).not.toContain('a__b_echo');
    await narrow.close();
    await client.close();
  });

  it('warns at load about an alias nested in another', () => {
    const config = resolveConfig({ mcpServers: { a: fixture('a'), a__b: fixture('a__b') } }, { file: '<inline>', dir: process.cwd() });
    expect(config.warnings).toEqual([expect.stringContaining('$.mcpServers.a__b: alias "a__b" begins with alias "a" of $.mcpServers.a and the separator "__"')]);
  });
});

describe('?tools= on a per-server endpoint', () => {
  let proxy: RunningSwitchboard;
  beforeAll(async () => {
    proxy = await startProxy({ mcpServers: { fx: fixture('fx'), other: fixture('other') } });
  });
  afterAll(async () => {
    await proxy?.close();
  });

  it('takes the server’s own names as well as the namespaced ones', async () => {
    const own = await connect(proxy, { path: '/s/fx/mcp?tools=echo,who*' });
    const namespaced = await connect(proxy, { path: '/s/fx/mcp?tools=fx__echo,fx__who*' });
    const names = async (client: Awaited<ReturnType<typeof connect>>) => (await listAllTools(client)).map((tool) => tool.name).sort();
    expect(await names(own)).toEqual(['echo', 'whoami']);
    expect(await names(namespaced)).toEqual(['echo', 'whoami']);
    // The aggregate endpoint still speaks namespaced names only.
    const aggregate = await connect(proxy, { path: '/mcp?tools=echo' });
    expect(await names(aggregate)).toEqual([]);
    await Promise.all([own.close(), namespaced.close(), aggregate.close()]);
  });
});

describe('profiles over resources', () => {
  let proxy: RunningSwitchboard;
  beforeAll(async () => {
    proxy = await startProxy({
      mcpServers: { fx: fixture('fx'), other: fixture('other') },
      profiles: {
        items: { resources: { allow: ['fixture://fx/*'], deny: ['fixture://fx/static*'] } },
        none: { resources: { allow: [] } },
      },
    });
  });
  afterAll(async () => {
    await proxy?.close();
  });

  it('shows and reads only the resources and templates a profile allows; others are not found', async () => {
    const everything = await connect(proxy);
    const all = (await everything.listResources()).resources.map((r) => r.uri).sort();
    const allTemplates = (await everything.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate).sort();
    expect(all.length).toBe(2);
    expect(allTemplates.length).toBe(2);

    const items = await connect(proxy, { path: '/mcp?profile=items' });
    expect((await items.listResources()).resources).toEqual([]);
    const templates = (await items.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate);
    expect(templates).toEqual(allTemplates.filter((t) => t.startsWith('fixture://fx/')));
    const item = templates[0]!.replace(/\{[^}]+\}/, '7');
    expect(JSON.stringify(await items.readResource({ uri: item }))).toContain('item 7');
    // Outside the view: the same answer as a URI that nobody owns.
    const staticUri = all.find((uri) => uri.startsWith('fixture://fx/'))!;
    const otherItem = allTemplates.find((t) => t.startsWith('fixture://other/'))!.replace(/\{[^}]+\}/, '7');
    for (const uri of [staticUri, otherItem, 'fixture://nobody/x']) await expect(items.readResource({ uri })).rejects.toThrow(/Resource not found/);
    await expect(items.subscribeResource({ uri: staticUri })).rejects.toThrow(/Resource not found/);

    const none = await connect(proxy, { path: '/mcp?profile=none' });
    expect((await none.listResources()).resources).toEqual([]);
    expect((await none.listResourceTemplates()).resourceTemplates).toEqual([]);
    await Promise.all([everything.close(), items.close(), none.close()]);
  });
});
