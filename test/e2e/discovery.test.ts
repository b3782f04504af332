// Search mode with the real servers from npm and the SDK client: a short tool list, find_tools
// finds a tool of each server, call_tool calls it, found tools join the list, a narrow view never
// finds a tool outside it, and a withheld tool is never found.
import { mkdtempSync, realpathSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolListChangedNotificationSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RunningSwitchboard } from '../../src/index.js';
import { prng } from '../prng.js';
import { ROOT, connect, fixture, listAllTools, startProxy, textOf, waitFor } from './helpers.js';

interface Found {
  name: string;
  server: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
}

async function find(client: Client, query: string, extra: Record<string, unknown> = {}): Promise<Found[]> {
  const result = (await client.callTool({ name: 'switchboard__find_tools', arguments: { query, ...extra } })) as CallToolResult;
  expect(result.isError ?? false).toBe(false);
  const structured = result.structuredContent as { tools: Found[] };
  // The same JSON as text, for clients that show the model only text.
  expect(JSON.parse(textOf(result).split('\n')[0] as string)).toEqual(structured);
  return structured.tools;
}

async function findWith(client: Client, args: Record<string, unknown>): Promise<Found[]> {
  const result = (await client.callTool({ name: 'switchboard__find_tools', arguments: args })) as CallToolResult;
  expect(result.isError ?? false, textOf(result)).toBe(false);
  return (result.structuredContent as { tools: Found[] }).tools;
}

describe('search mode with the real servers', () => {
  let proxy: RunningSwitchboard;
  let tmp: string;
  let filePath: string;

  beforeAll(async () => {
    tmp = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'switchboard-discovery-')));
    const fsDir = path.join(tmp, 'files');
    mkdirSync(fsDir);
    filePath = path.join(fsDir, 'note.txt');
    writeFileSync(filePath, 'found and read through search mode\n');
    proxy = await startProxy({
      mcpServers: {
        everything: { command: 'mcp-server-everything', args: ['stdio'] },
        fs: { command: 'mcp-server-filesystem', args: [fsDir] },
        memory: { command: 'mcp-server-memory', env: { MEMORY_FILE_PATH: path.join(tmp, 'memory.jsonl') } },
      },
      profiles: {
        search: { discovery: 'search', pinned: ['everything__echo'] },
        narrow: { discovery: 'search', tools: { allow: ['fs__*'], deny: ['fs__write_*', 'fs__edit_*'] } },
      },
    });
  }, 60_000);

  afterAll(async () => {
    await proxy?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('lists only the search tools and the pinned ones, and says what is behind them', async () => {
    const client = await connect(proxy, { path: '/mcp?profile=search' });
    const tools = await listAllTools(client);
    expect(tools.map((tool) => tool.name)).toEqual(['switchboard__find_tools', 'switchboard__call_tool', 'everything__echo']);
    const description = String(tools[0]?.description);
    for (const server of ['everything', 'fs', 'memory']) expect(description).toContain(server);
    expect(tools[0]?.outputSchema).toBeDefined();
    // The same view as a URL filter on top of no profile.
    const byUrl = await connect(proxy, { path: '/mcp?discovery=search' });
    expect((await listAllTools(byUrl)).map((tool) => tool.name)).toEqual(['switchboard__find_tools', 'switchboard__call_tool']);
    await Promise.all([client.close(), byUrl.close()]);
  });

  it('finds and calls a tool of each real server, and found tools join the list with list_changed', async () => {
    const client = await connect(proxy, { path: '/mcp?profile=search' });
    let changed = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void (changed += 1));

    const reading = await find(client, 'show me what is inside a text file');
    const read = reading.find((tool) => tool.server === 'fs' && /read/.test(tool.name));
    expect(read, JSON.stringify(reading.map((t) => t.name))).toBeDefined();
    expect(read?.inputSchema).toMatchObject({ type: 'object' });
    const content = (await client.callTool({ name: 'switchboard__call_tool', arguments: { name: read!.name, arguments: { path: filePath } } })) as CallToolResult;
    expect(textOf(content)).toContain('found and read through search mode');

    const memory = await find(client, 'remember a new person in the knowledge graph', { limit: 3 });
    expect(memory.map((tool) => tool.name)).toContain('memory__create_entities');
    const created = await client.callTool({
      name: 'switchboard__call_tool',
      arguments: { name: 'memory__create_entities', arguments: { entities: [{ name: 'Ada', entityType: 'person', observations: ['wrote the first program'] }] } },
    });
    expect(textOf(created)).toContain('Ada');

    const adding = await find(client, 'add two numbers together', { server: 'everything' });
    expect(adding.every((tool) => tool.server === 'everything')).toBe(true);
    const add = adding.find((tool) => /add|sum/.test(tool.name));
    expect(add).toBeDefined();
    expect(textOf(await client.callTool({ name: 'switchboard__call_tool', arguments: { name: add!.name, arguments: { a: 2, b: 3 } } }))).toContain('5');

    // The found tools are now in the list, callable directly.
    await waitFor(() => changed > 0, 5_000, 'tools/list_changed after a search');
    const listed = (await listAllTools(client)).map((tool) => tool.name);
    expect(listed.slice(0, 3)).toEqual(['switchboard__find_tools', 'switchboard__call_tool', 'everything__echo']);
    expect(listed).toContain(read!.name);
    expect(listed).toContain('memory__create_entities');
    expect(textOf(await client.callTool({ name: read!.name, arguments: { path: filePath } }))).toContain('found and read');
    await client.close();
  });

  it('lists a server in brief, takes the model\'s keywords, and answers a task of several steps with a tool per step', async () => {
    const client = await connect(proxy, { path: '/mcp?profile=search' });
    const brief = await findWith(client, { server: 'memory' });
    expect(brief.map((tool) => tool.name)).toEqual(expect.arrayContaining(['memory__create_entities', 'memory__read_graph', 'memory__search_nodes']));
    for (const tool of brief) {
      expect(tool.server).toBe('memory');
      expect(tool).not.toHaveProperty('inputSchema');
      // One sentence: no line break, and at most one sentence end.
      expect(tool.description ?? '').not.toContain('\n');
    }

    const withKeywords = await findWith(client, { query: 'keep this for later', keywords: ['knowledge graph', 'entities', 'observations'], limit: 3 });
    expect(withKeywords.every((tool) => tool.server === 'memory'), JSON.stringify(withKeywords.map((t) => t.name))).toBe(true);

    const steps = await findWith(client, { queries: ['read the contents of a text file', 'create entities in the knowledge graph', 'add two numbers'] });
    expect(steps.slice(0, 3).map((tool) => tool.server), JSON.stringify(steps.map((t) => t.name))).toEqual(['fs', 'memory', 'everything']);
    expect(steps.length).toBeLessThanOrEqual(9);
    expect(new Set(steps.map((tool) => tool.name)).size).toBe(steps.length);

    await expect(client.callTool({ name: 'switchboard__find_tools', arguments: { keywords: ['x'] } })).rejects.toThrow(/give "query" \(or "queries"\), or "server" alone/);
    await expect(client.callTool({ name: 'switchboard__find_tools', arguments: { queries: 'one string' } })).rejects.toThrow(/"queries" must be an array/);
    await client.close();
  });

  it('errors are tools/call errors: an unknown tool, bad arguments, a tool error passed through', async () => {
    const client = await connect(proxy, { path: '/mcp?profile=narrow' });
    await expect(client.callTool({ name: 'switchboard__call_tool', arguments: { name: 'memory__read_graph', arguments: {} } })).rejects.toThrow(/Unknown tool: memory__read_graph/);
    await expect(client.callTool({ name: 'switchboard__find_tools', arguments: { query: '  ' } })).rejects.toThrow(/"query" must be a non-empty string/);
    await expect(client.callTool({ name: 'switchboard__call_tool', arguments: { name: 'switchboard__call_tool' } })).rejects.toThrow(/not itself/);
    const missing = (await client.callTool({ name: 'switchboard__call_tool', arguments: { name: 'fs__read_text_file', arguments: { path: path.join(tmp, 'nope.txt') } } })) as CallToolResult;
    expect(missing.isError).toBe(true);
    await client.close();
  });

  it('a narrow view never finds a tool outside it, whatever it asks', async () => {
    const client = await connect(proxy, { path: '/mcp?profile=narrow' });
    const allowed = new Set((await listAllTools(await connect(proxy, { path: '/mcp?tools=fs__*' }))).map((tool) => tool.name).filter((name) => !/^fs__(write|edit)_/.test(name)));
    const random = prng(20261124);
    const vocabulary = ['read', 'write', 'file', 'edit', 'memory', 'graph', 'entity', 'echo', 'add', 'sum', 'directory', 'search', 'delete', 'image', 'sample', 'move', 'create', 'list', 'tree', 'relation', 'long running', 'env'];
    for (let round = 0; round < 40; round++) {
      const query = Array.from({ length: 1 + Math.floor(random() * 4) }, () => vocabulary[Math.floor(random() * vocabulary.length)]).join(' ');
      const found = await find(client, query, { limit: 20 });
      for (const tool of found) expect(allowed.has(tool.name), `${query} -> ${tool.name}`).toBe(true);
    }
    await client.close();
  });
});

describe('call_tool is a tools/call', () => {
  let proxy: RunningSwitchboard;
  beforeAll(async () => {
    proxy = await startProxy({ mcpServers: { fx: fixture('fx') }, profiles: { search: { discovery: 'search' } } });
  });
  afterAll(async () => {
    await proxy?.close();
  });

  it('passes progress through, and a cancellation reaches the child', async () => {
    const client = await connect(proxy, { path: '/mcp?profile=search' });
    const progress: number[] = [];
    // Steps 300 ms apart: the SDK client handles a progress a microtask after a response that
    // arrives with it, so only progress well before the answer is sure to be seen.
    const done = await client.callTool({ name: 'switchboard__call_tool', arguments: { name: 'fx__slow', arguments: { ms: 900, steps: 3 } } }, undefined, {
      onprogress: (p) => progress.push(p.progress),
    });
    expect(textOf(done)).toBe('done');
    expect(progress.length).toBeGreaterThanOrEqual(1);
    expect(progress[0]).toBe(1);

    const controller = new AbortController();
    const call = client.callTool({ name: 'switchboard__call_tool', arguments: { name: 'fx__slow', arguments: { ms: 10_000, steps: 2 } } }, undefined, { signal: controller.signal });
    await waitFor(() => proxy.core.inflightRequests() > 0, 5_000, 'the call in flight');
    controller.abort();
    await expect(call).rejects.toThrow();
    // The child was told: nothing stays in flight.
    await waitFor(() => proxy.core.inflightRequests() === 0, 5_000, 'the cancellation passed on');
    await waitFor(() => proxy.core.upstreams.primaryOf('fx')?.stderrTail.some((line) => line.includes('notifications/cancelled')), 5_000, 'the child told');
    await client.close();
  });
});

describe('search mode and the sanitizer', () => {
  let proxy: RunningSwitchboard;
  beforeAll(async () => {
    proxy = await startProxy({
      mcpServers: { evil: { command: process.execPath, args: [path.join(ROOT, 'test/fixtures/poison-server.mjs'), 'evil'], cwd: ROOT }, fx: fixture('fx') },
      profiles: { search: { discovery: 'search' } },
    });
  });
  afterAll(async () => {
    await proxy?.close();
  });

  it('never finds a withheld tool, and the reserved alias is refused in the config', async () => {
    const client = await connect(proxy, { path: '/mcp?profile=search' });
    const withheld = proxy.core.catalog.reviewOf('evil')?.withheld.map((w) => w.name) ?? [];
    expect(withheld.length).toBeGreaterThan(0);
    for (const name of withheld) {
      const found = await find(client, name.replace(/_/g, ' '), { limit: 20 });
      expect(found.map((tool) => tool.name)).not.toContain(`evil__${name}`);
    }
    await client.close();
    const { resolveConfig } = await import('../../src/index.js');
    expect(() => resolveConfig({ mcpServers: { switchboard: fixture('x') } }, { file: '<inline>', dir: ROOT }, process.env, { strict: true })).toThrow(/alias "switchboard" is reserved/);
  });
});
