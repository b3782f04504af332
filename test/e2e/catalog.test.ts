// Names, pagination both ways, byte-for-byte passthrough and routing of prompts, resources and completions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RunningSwitchboard } from '../../src/index.js';
import { connect, fixture, startProxy, textOf, waitFor } from './helpers.js';

const LONG = 'a_really_long_tool_name_that_goes_on_and_on_past_any_host_limit_of_sixty_four_chars';

async function allTools(client: Client) {
  const tools = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const result = await client.listTools(cursor === undefined ? {} : { cursor });
    tools.push(...result.tools);
    cursor = result.nextCursor;
    pages += 1;
  } while (cursor !== undefined);
  return { tools, pages };
}

describe('catalog through the proxy', () => {
  let proxy: RunningSwitchboard;
  let client: Client;
  beforeAll(async () => {
    proxy = await startProxy({
      // The server pages its own list 4 at a time; the proxy pages to clients 5 at a time.
      mcpServers: { alpha: fixture('alpha', {}, { FIXTURE_PAGE_SIZE: '4' }), beta: fixture('beta') },
      limits: { pageSize: 5 },
    });
    client = await connect(proxy);
  });
  afterAll(async () => {
    await client?.close();
    await proxy?.close();
  });

  it('follows upstream pagination to the end and paginates to the client', async () => {
    const { tools, pages } = await allTools(client);
    const alpha = tools.filter((t) => t.name.startsWith('alpha__'));
    const beta = tools.filter((t) => t.name.startsWith('beta__'));
    expect(alpha.length).toBe(beta.length);
    expect(alpha.length).toBeGreaterThan(8);
    expect(pages).toBe(Math.ceil(tools.length / 5));
    expect(new Set(tools.map((t) => t.name)).size).toBe(tools.length);
  });

  it('rejects a cursor it did not issue with -32602', async () => {
    await expect(client.listTools({ cursor: 'bm90LW91cnM' })).rejects.toThrow(/-32602|Invalid cursor/);
  });

  it('emits only host-safe names within 48 characters, and they still route', async () => {
    const { tools } = await allTools(client);
    for (const tool of tools) {
      expect(tool.name).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(tool.name.length).toBeLessThanOrEqual(48);
    }
    const long = tools.find((t) => t.title === LONG && t.name.startsWith('alpha__'));
    expect(long).toBeDefined();
    expect(textOf(await client.callTool({ name: long!.name, arguments: { text: 'long ok' } }))).toBe('long ok');
    const dotted = tools.find((t) => t.name === 'alpha__dotted_name');
    expect(dotted?.title).toBe('dotted.name');
    expect(textOf(await client.callTool({ name: 'alpha__dotted_name', arguments: { text: 'dot ok' } }))).toBe('dot ok');
  });

  it('passes schemas, _meta, annotations, icons, outputSchema and structuredContent through untouched', async () => {
    const { tools } = await allTools(client);
    const structured = tools.find((t) => t.name === 'alpha__structured');
    expect(structured).toBeDefined();
    expect(structured!.title).toBe('Structured');
    expect(structured!.annotations).toEqual({ readOnlyHint: true });
    expect(structured!.icons).toEqual([{ src: 'data:image/png;base64,AAAA', mimeType: 'image/png' }]);
    expect(structured!._meta).toEqual({ 'fixture/y': 'z' });
    expect(structured!.outputSchema).toBeDefined();
    const result = await client.callTool({ name: 'alpha__structured', arguments: {} });
    expect(result.structuredContent).toEqual({ n: 1 });
    expect(result._meta).toEqual({ 'fixture/x': 1 });
  });

  it('routes prompts and completions by namespaced name', async () => {
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(expect.arrayContaining(['alpha__greet', 'beta__greet', 'beta__plain']));
    const got = await client.getPrompt({ name: 'beta__greet', arguments: { name: 'Ada' } });
    expect(JSON.stringify(got.messages)).toContain('Hello, Ada');
    const completion = await client.complete({ ref: { type: 'ref/prompt', name: 'alpha__greet' }, argument: { name: 'name', value: 'al' } });
    expect(completion.completion.values).toEqual(['alice', 'albert']);
  });

  it('routes resources and templates by URI, URIs unchanged', async () => {
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(expect.arrayContaining(['fixture://alpha/static', 'fixture://beta/static']));
    const read = await client.readResource({ uri: 'fixture://beta/static' });
    expect(read.contents[0]).toMatchObject({ uri: 'fixture://beta/static', text: 'static of beta' });
    const templated = await client.readResource({ uri: 'fixture://alpha/item/42' });
    expect(templated.contents[0]).toMatchObject({ text: 'item 42' });
    await expect(client.readResource({ uri: 'nowhere://x' })).rejects.toThrow(/-32002|not found/i);
  });

  it('names an unknown tool the same way whether or not it exists elsewhere', async () => {
    await expect(client.callTool({ name: 'alpha__nope', arguments: {} })).rejects.toThrow(/Unknown tool: alpha__nope/);
    await expect(client.callTool({ name: 'echo', arguments: {} })).rejects.toThrow(/Unknown tool: echo/);
  });

  it('serves one server unprefixed on /s/<server>/mcp', async () => {
    const single = await connect(proxy, { path: '/s/beta/mcp' });
    const { tools } = await allTools(single);
    expect(tools.map((t) => t.name)).toContain('echo');
    expect(tools.some((t) => t.name.startsWith('beta__'))).toBe(false);
    expect(textOf(await single.callTool({ name: 'whoami', arguments: {} }))).toMatch(/^beta pid/);
    await single.close();
  });

  it('delivers resources/updated only to subscribed sessions', async () => {
    const { ResourceUpdatedNotificationSchema } = await import('@modelcontextprotocol/sdk/types.js');
    const subscriber = await connect(proxy);
    const bystander = await connect(proxy);
    const got: string[] = [];
    const stray: string[] = [];
    subscriber.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void got.push(n.params.uri));
    bystander.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void stray.push(n.params.uri));
    await subscriber.subscribeResource({ uri: 'fixture://alpha/static' });
    await bystander.callTool({ name: 'alpha__touch', arguments: { uri: 'fixture://alpha/static' } });
    await waitFor(() => got.length > 0);
    expect(got).toEqual(['fixture://alpha/static']);
    await subscriber.unsubscribeResource({ uri: 'fixture://alpha/static' });
    await bystander.callTool({ name: 'alpha__touch', arguments: { uri: 'fixture://alpha/static' } });
    // A barrier instead of a pause: both sessions subscribe to a second URI, touched after the first.
    // Each session's notifications come in order on its stream, so once the marker has reached both,
    // an update for the first URI would have reached them before it.
    const marker = 'fixture://alpha/item/marker';
    await Promise.all([subscriber.subscribeResource({ uri: marker }), bystander.subscribeResource({ uri: marker })]);
    await bystander.callTool({ name: 'alpha__touch', arguments: { uri: marker } });
    await waitFor(() => got.includes(marker) && stray.includes(marker), 5_000, 'the marker update in both sessions');
    expect(got).toEqual(['fixture://alpha/static', marker]);
    expect(stray).toEqual([marker]);
    await subscriber.close();
    await bystander.close();
  });
});
