// The real reference servers from npm behind the proxy: everything, filesystem and memory.
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  CreateMessageRequestSchema,
  ProgressNotificationSchema,
  type CreateMessageRequest,
  type Progress,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { RunningSwitchboard } from '../../src/index.js';
import { ROOT, connect, listAllTools, startProxy, textOf, waitFor } from './helpers.js';

const EVERYTHING_BIN = path.join(ROOT, 'node_modules/.bin/mcp-server-everything');
const FILE_TEXT = 'hello from the filesystem server\nsecond line ✓\n';

/** Every item of a paginated list, following nextCursor to the end. */
async function listAll<T>(fetchPage: (cursor: string | undefined) => Promise<{ nextCursor?: string | undefined } & Record<string, unknown>>, key: string): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 1000; pages += 1) {
    const page = await fetchPage(cursor);
    items.push(...((page[key] as T[] | undefined) ?? []));
    cursor = page.nextCursor;
    if (cursor === undefined) return items;
  }
  throw new Error(`${key} list never ended`);
}

describe('real MCP servers behind the proxy', () => {
  let proxy: RunningSwitchboard;
  let tmp: string;
  let filePath: string;
  let memoryFile: string;
  let client: Client;
  let direct: Client;

  beforeAll(async () => {
    tmp = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'switchboard-e2e-')));
    const fsDir = path.join(tmp, 'files');
    await import('node:fs/promises').then((fs) => fs.mkdir(fsDir));
    filePath = path.join(fsDir, 'note.txt');
    writeFileSync(filePath, FILE_TEXT);
    memoryFile = path.join(tmp, 'memory.jsonl');
    proxy = await startProxy({
      mcpServers: {
        everything: { command: 'mcp-server-everything', args: ['stdio'] },
        fs: { command: 'mcp-server-filesystem', args: [fsDir] },
        memory: { command: 'mcp-server-memory', env: { MEMORY_FILE_PATH: memoryFile } },
      },
    });
    client = await connect(proxy, { name: 'real-e2e' });
    // The same server spoken to directly, as a reference. Sampling declared like the proxy does,
    // since server-everything only registers its sampling tool for such clients.
    direct = new Client({ name: 'direct-e2e', version: '1.0.0' }, { capabilities: { sampling: {} } });
    await direct.connect(new StdioClientTransport({ command: EVERYTHING_BIN, args: ['stdio'], stderr: 'ignore' }));
  }, 60_000);

  afterAll(async () => {
    await Promise.allSettled([client?.close(), direct?.close()]);
    await proxy?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('lists every server’s tools, namespaced', async () => {
    const names = (await listAllTools(client)).map((tool) => tool.name);
    for (const name of ['everything__echo', 'fs__read_text_file', 'fs__list_directory', 'memory__create_entities', 'memory__read_graph']) {
      expect(names).toContain(name);
    }
    // Every name is prefixed by one of the three aliases and fits the namespace rules.
    for (const name of names) {
      expect(name).toMatch(/^(everything|fs|memory)__/);
      expect(name).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(name.length).toBeLessThanOrEqual(48);
    }
    // No duplicates across pages.
    expect(new Set(names).size).toBe(names.length);
  });

  it('everything__echo returns its text', async () => {
    const result = await client.callTool({ name: 'everything__echo', arguments: { message: 'héllo through the proxy' } });
    expect(result.isError ?? false).toBe(false);
    expect(textOf(result)).toContain('héllo through the proxy');
  });

  it('fs__read_text_file reads the file', async () => {
    const result = await client.callTool({ name: 'fs__read_text_file', arguments: { path: filePath } });
    expect(result.isError ?? false).toBe(false);
    expect(textOf(result)).toBe(FILE_TEXT);
  });

  it('memory__create_entities then memory__read_graph returns the entity', async () => {
    const created = await client.callTool({
      name: 'memory__create_entities',
      arguments: { entities: [{ name: 'switchboard-e2e-entity', entityType: 'test', observations: ['made through the proxy'] }] },
    });
    expect(created.isError ?? false).toBe(false);
    const graph = await client.callTool({ name: 'memory__read_graph', arguments: {} });
    expect(graph.isError ?? false).toBe(false);
    const text = textOf(graph);
    expect(text).toContain('switchboard-e2e-entity');
    expect(text).toContain('made through the proxy');
    // The child got its configured env: the memory server wrote where MEMORY_FILE_PATH said.
    expect(existsSync(memoryFile)).toBe(true);
    expect(readFileSync(memoryFile, 'utf8')).toContain('switchboard-e2e-entity');
  });

  it('server-everything tool definitions pass through unchanged (inputSchema, outputSchema, annotations)', async () => {
    const viaProxy = new Map((await listAllTools(client)).map((tool) => [tool.name, tool]));
    const directTools = await listAll<Tool>((cursor) => direct.listTools(cursor === undefined ? {} : { cursor }), 'tools');
    expect(directTools.length).toBeGreaterThan(3);
    // The one the brief names first, field by field.
    const echo = directTools.find((tool) => tool.name === 'echo');
    const proxiedEcho = viaProxy.get('everything__echo');
    expect(echo).toBeDefined();
    expect(proxiedEcho).toBeDefined();
    expect(proxiedEcho?.inputSchema).toStrictEqual(echo?.inputSchema);
    expect(proxiedEcho?.annotations).toStrictEqual(echo?.annotations);
    expect(proxiedEcho?.outputSchema).toStrictEqual(echo?.outputSchema);
    expect(proxiedEcho?.description).toBe(echo?.description);
    // One with an outputSchema.
    const structured = directTools.find((tool) => tool.outputSchema !== undefined);
    expect(structured).toBeDefined();
    // And every other tool of the server.
    for (const tool of directTools) {
      const proxied = viaProxy.get(`everything__${tool.name}`);
      expect(proxied, `everything__${tool.name} via the proxy`).toBeDefined();
      expect(proxied?.inputSchema, `${tool.name}.inputSchema`).toStrictEqual(tool.inputSchema);
      expect(proxied?.outputSchema, `${tool.name}.outputSchema`).toStrictEqual(tool.outputSchema);
      expect(proxied?.annotations, `${tool.name}.annotations`).toStrictEqual(tool.annotations);
      expect(proxied?.description, `${tool.name}.description`).toBe(tool.description);
      expect(proxied?.title, `${tool.name}.title`).toBe(tool.title);
    }
  });

  it('server-everything prompts are listed namespaced and one can be got', async () => {
    const directPrompts = await listAll<{ name: string; arguments?: unknown }>((cursor) => direct.listPrompts(cursor === undefined ? {} : { cursor }), 'prompts');
    const proxied = await listAll<{ name: string; arguments?: unknown }>((cursor) => client.listPrompts(cursor === undefined ? {} : { cursor }), 'prompts');
    const proxiedByName = new Map(proxied.map((prompt) => [prompt.name, prompt]));
    expect(directPrompts.length).toBeGreaterThan(0);
    for (const prompt of directPrompts) {
      const mine = proxiedByName.get(`everything__${prompt.name}`);
      expect(mine, `everything__${prompt.name}`).toBeDefined();
      expect(mine?.arguments).toStrictEqual(prompt.arguments);
    }
    const got = await client.getPrompt({ name: 'everything__args-prompt', arguments: { city: 'Reykjavík' } });
    const reference = await direct.getPrompt({ name: 'args-prompt', arguments: { city: 'Reykjavík' } });
    expect(got.messages.length).toBeGreaterThan(0);
    expect(JSON.stringify(got.messages)).toContain('Reykjavík');
    expect(got.messages).toStrictEqual(reference.messages);
  });

  it('server-everything resources are listed with unchanged URIs and read through the proxy', async () => {
    const directResources = await listAll<{ uri: string; name: string }>((cursor) => direct.listResources(cursor === undefined ? {} : { cursor }), 'resources');
    const proxied = await listAll<{ uri: string; name: string }>((cursor) => client.listResources(cursor === undefined ? {} : { cursor }), 'resources');
    const proxiedUris = new Set(proxied.map((resource) => resource.uri));
    expect(directResources.length).toBeGreaterThan(0);
    for (const resource of directResources) expect(proxiedUris).toContain(resource.uri);
    // The memory server's resource is there too, also unchanged.
    expect(proxiedUris).toContain('memory://knowledge-graph');

    const first = directResources[0];
    expect(first).toBeDefined();
    const read = await client.readResource({ uri: first!.uri });
    const reference = await direct.readResource({ uri: first!.uri });
    expect(read.contents.length).toBeGreaterThan(0);
    expect(read.contents[0]?.uri).toBe(first!.uri);
    expect(read.contents).toStrictEqual(reference.contents);

    // Templates are listed unchanged, and a URI matching one is routed to server-everything.
    const templates = await listAll<{ uriTemplate: string }>((cursor) => client.listResourceTemplates(cursor === undefined ? {} : { cursor }), 'resourceTemplates');
    expect(templates.map((template) => template.uriTemplate)).toContain('demo://resource/dynamic/text/{resourceId}');
    const dynamic = await client.readResource({ uri: 'demo://resource/dynamic/text/1' });
    expect(dynamic.contents[0]?.uri).toBe('demo://resource/dynamic/text/1');
    expect(typeof (dynamic.contents[0] as { text?: unknown }).text).toBe('string');
  });

  it('progress of a long-running operation reaches only the session that asked for it', async () => {
    const a = await connect(proxy, { name: 'progress-A' });
    const b = await connect(proxy, { name: 'progress-B' });
    try {
      // B records every progress notification that reaches it at all, whatever its token.
      const bProgress: unknown[] = [];
      b.setNotificationHandler(ProgressNotificationSchema, (notification) => {
        bProgress.push(notification.params);
      });
      const aProgress: Progress[] = [];
      const steps = 4;
      const long = a.callTool(
        { name: 'everything__trigger-long-running-operation', arguments: { duration: 2, steps } },
        undefined,
        { onprogress: (progress) => aProgress.push(progress), timeout: 30_000 },
      );
      // Meanwhile B keeps the same child busy, including a long operation of its own without progress.
      const bLong = b.callTool({ name: 'everything__trigger-long-running-operation', arguments: { duration: 1, steps: 2 } });
      const bEchoes: string[] = [];
      // Paced by A's progress, not by the clock: B's echoes go between A's notifications, so a
      // progress routed by the wrong token would meet B with calls in flight.
      for (let i = 0; i < 5; i += 1) {
        if (i > 0 && i < steps) await waitFor(() => aProgress.length >= i, 10_000, `A's progress ${i}`);
        bEchoes.push(textOf(await b.callTool({ name: 'everything__echo', arguments: { message: `B ${i}` } })));
      }
      const [result, bResult] = await Promise.all([long, bLong]);
      expect(textOf(result)).toContain('Long running operation completed');
      expect(textOf(bResult)).toContain('Long running operation completed');
      bEchoes.forEach((text, i) => expect(text).toContain(`B ${i}`));

      expect(aProgress.map((p) => p.progress)).toEqual([1, 2, 3, 4]);
      for (const p of aProgress) expect(p.total).toBe(steps);
      expect(bProgress).toEqual([]);
    } finally {
      await Promise.allSettled([a.close(), b.close()]);
    }
  });

  it('two sessions with the same progress token each get their own progress', async () => {
    // Fresh clients number their requests alike, so both use the same progress token.
    const a = await connect(proxy, { name: 'tokens-A' });
    const b = await connect(proxy, { name: 'tokens-B' });
    try {
      const errors: string[] = [];
      a.onerror = (error) => errors.push(`A: ${error.message}`);
      b.onerror = (error) => errors.push(`B: ${error.message}`);
      const aProgress: Progress[] = [];
      const bProgress: Progress[] = [];
      const [ra, rb] = await Promise.all([
        a.callTool({ name: 'everything__trigger-long-running-operation', arguments: { duration: 1.5, steps: 3 } }, undefined, {
          onprogress: (progress) => aProgress.push(progress),
        }),
        b.callTool({ name: 'everything__trigger-long-running-operation', arguments: { duration: 1, steps: 2 } }, undefined, {
          onprogress: (progress) => bProgress.push(progress),
        }),
      ]);
      expect(textOf(ra)).toContain('Steps: 3');
      expect(textOf(rb)).toContain('Steps: 2');
      expect(aProgress.map((p) => [p.progress, p.total])).toEqual([
        [1, 3],
        [2, 3],
        [3, 3],
      ]);
      expect(bProgress.map((p) => [p.progress, p.total])).toEqual([
        [1, 2],
        [2, 2],
      ]);
      expect(errors.filter((message) => /progress/i.test(message))).toEqual([]);
    } finally {
      await Promise.allSettled([a.close(), b.close()]);
    }
  });

  it('sampling: server-everything’s sampling request reaches the calling client and its answer comes back', async () => {
    const sampler = await connect(proxy, { name: 'sampler', capabilities: { sampling: {} } });
    try {
      const requests: CreateMessageRequest['params'][] = [];
      sampler.setRequestHandler(CreateMessageRequestSchema, async (request) => {
        requests.push(request.params);
        return { model: 'e2e-model', role: 'assistant', stopReason: 'endTurn', content: { type: 'text', text: 'the sampled answer is 42' } };
      });
      const result = await sampler.callTool({ name: 'everything__trigger-sampling-request', arguments: { prompt: 'what is six times seven?', maxTokens: 50 } });
      expect(result.isError ?? false).toBe(false);
      expect(requests).toHaveLength(1);
      expect(JSON.stringify(requests[0]?.messages)).toContain('what is six times seven?');
      expect(requests[0]?.maxTokens).toBe(50);
      const text = textOf(result);
      expect(text).toContain('the sampled answer is 42');
      expect(text).toContain('e2e-model');
    } finally {
      await sampler.close();
    }
  });
});
