// Lists asked for while a server of the client's view is in its first start wait for it (up to its
// timeoutMs): a client that lists once, right after the daemon listens, sees every server. A
// search does not wait (search-while-starting.test.ts); one after a list finds every server.
import { describe, expect, it } from 'vitest';
import { resolveConfig, type RunningSwitchboard } from '../../src/index.js';
import { ROOT, connect, fixture, listAllTools, rawPost, responseOf, startProxy, waitFor } from './helpers.js';

const MODERN = '2026-07-28';
const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '0' },
};

/** A stateless-era (2026-07-28) request's result. */
async function statelessResult(proxy: RunningSwitchboard, method: string, params: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  const headers: Record<string, string> = { 'mcp-protocol-version': MODERN, 'mcp-method': method };
  if (typeof params.name === 'string') headers['mcp-name'] = params.name;
  const reply = await rawPost(proxy, { jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: MODERN_META } }, { headers });
  const response = responseOf(reply);
  if (response.error !== undefined) throw new Error(JSON.stringify(response.error));
  return response.result as Record<string, unknown>;
}

const names = (items: unknown): string[] => (Array.isArray(items) ? items.map((item) => String((item as { name?: unknown }).name)) : []);

describe('lists during a server’s first start', () => {
  it('shows a server that takes 1.5 s to start to clients that list right after the daemon listens, in every era and in search mode', async () => {
    const proxy = await startProxy(
      { mcpServers: { slow: fixture('slow', {}, { FIXTURE_INIT_DELAY_MS: '1500' }), fast: fixture('fast') } },
      { waitReady: false },
    );
    try {
      expect(proxy.core.upstreams.primaryOf('slow')?.state).toBe('starting');
      const [client, searcher] = await Promise.all([connect(proxy), connect(proxy, { path: '/mcp?discovery=search' })]);
      const [tools, prompts, resources, templates, stateless, searchTools] = await Promise.all([
        listAllTools(client),
        client.listPrompts(),
        client.listResources(),
        client.listResourceTemplates(),
        statelessResult(proxy, 'tools/list'),
        listAllTools(searcher),
      ]);
      // The search-mode list waited too: find_tools' directory names the slow server with its tools.
      expect(String(searchTools[0]?.description)).toMatch(/slow \((?!starting)/);
      const found = await searcher.callTool({ name: 'switchboard__find_tools', arguments: { query: 'returns the fixture name and process id', limit: 20 } });
      expect(names(tools)).toEqual(expect.arrayContaining(['slow__echo', 'fast__echo']));
      expect(names(prompts.prompts)).toEqual(expect.arrayContaining(['slow__greet', 'fast__greet']));
      expect(resources.resources.map((resource) => resource.uri).join(' ')).toContain('slow');
      expect(templates.resourceTemplates.length).toBe(2);
      expect(names(stateless.tools)).toEqual(expect.arrayContaining(['slow__echo', 'fast__echo']));
      expect(names((found.structuredContent as { tools?: unknown } | undefined)?.tools)).toEqual(expect.arrayContaining(['slow__whoami', 'fast__whoami']));
      await Promise.all([client.close(), searcher.close()]);
    } finally {
      await proxy.close();
    }
  }, 20_000);

  it('answers at once a view that does not show the starting server, and stops waiting for a server whose first start failed', async () => {
    const proxy = await startProxy(
      {
        mcpServers: {
          slow: fixture('slow', {}, { FIXTURE_INIT_DELAY_MS: '8000' }),
          fast: fixture('fast'),
          broken: fixture('broken', { timeoutMs: 60_000 }, { FIXTURE_FAIL_START: '1' }),
        },
        profiles: { pair: { servers: { allow: ['fast', 'broken'] } } },
      },
      { waitReady: false },
    );
    try {
      const own = await connect(proxy, { path: '/s/fast/mcp' });
      expect(names(await listAllTools(own))).toContain('echo');
      // Answered while the slow server still starts: its start holds only the views that show it.
      expect(proxy.core.upstreams.primaryOf('slow')?.state).toBe('starting');
      // The broken server's first attempt ended with its exit: it holds nothing, though it retries.
      const pair = await connect(proxy, { path: '/mcp?profile=pair' });
      expect(names(await listAllTools(pair))).toContain('fast__echo');
      expect(proxy.core.upstreams.primaryOf('slow')?.state).toBe('starting');
      await Promise.all([own.close(), pair.close()]);
    } finally {
      await proxy.close();
    }
  }, 20_000);

  it('holds lists for a server redefined while it is down since its first start failed: the catalog never listed it', async () => {
    const retryLate = { restart: { initialDelayMs: 60_000, maxDelayMs: 60_000 } };
    const proxy = await startProxy({ mcpServers: { late: fixture('late', retryLate, { FIXTURE_FAIL_START: '1' }), fast: fixture('fast') } }, { waitReady: false });
    try {
      await waitFor(() => proxy.core.upstreams.primaryOf('late')?.isDown, 10_000, 'late down after its failed first start');
      // The operator fixes it: the new definition starts, slowly, and is the server's first listing.
      const fixed = resolveConfig({ mcpServers: { late: fixture('late', {}, { FIXTURE_INIT_DELAY_MS: '3000' }) } }, { file: '<inline>', dir: ROOT }, process.env).servers[0];
      if (fixed === undefined) throw new Error('no server in the fixed config');
      const current = proxy.core.config;
      proxy.reload({ ...current, servers: current.servers.map((server) => (server.name === 'late' ? fixed : server)) });
      expect(proxy.core.upstreams.primaryOf('late')?.state).toBe('starting');
      const client = await connect(proxy);
      expect(names(await listAllTools(client))).toEqual(expect.arrayContaining(['late__echo', 'fast__echo']));
      await client.close();
    } finally {
      await proxy.close();
    }
  }, 20_000);

  it('holds the lists of a view whose tool rule will hide the starting server, and answers them without it', async () => {
    // Before it lists, the server is judged by the server rule alone (it might list no tools), so
    // the view waits for it; once listed, its tools say the view hides it, prompts and all.
    const proxy = await startProxy(
      { mcpServers: { slow: fixture('slow', {}, { FIXTURE_INIT_DELAY_MS: '1500' }), fast: fixture('fast') }, profiles: { fastOnly: { tools: { allow: ['fast__*'] } } } },
      { waitReady: false },
    );
    try {
      expect(proxy.core.upstreams.primaryOf('slow')?.state).toBe('starting');
      const client = await connect(proxy, { path: '/mcp?profile=fastOnly' });
      const prompts = await client.listPrompts();
      expect(proxy.core.upstreams.primaryOf('slow')?.state).toBe('ready');
      expect(names(prompts.prompts)).toContain('fast__greet');
      expect(names(prompts.prompts).filter((name) => !name.startsWith('fast__'))).toEqual([]);
      expect(names(await listAllTools(client)).filter((name) => !name.startsWith('fast__'))).toEqual([]);
      const own = await rawPost(proxy, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '0' } } }, { path: '/s/slow/mcp?profile=fastOnly' });
      expect(own.status).toBe(404);
      await client.close();
    } finally {
      await proxy.close();
    }
  }, 20_000);
});
