// Search mode while servers start: find_tools answers at once from the servers that are up and
// says which are still starting (or down); when a late server lists, the session is told with
// tools/list_changed and a new search finds its tools.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ToolListChangedNotificationSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { connect, fixture, listAllTools, startProxy, textOf, waitFor } from './helpers.js';

/** How long a find_tools may take while a server starts: far below the server's 60 s start bound. */
const ANSWER_WITHIN_MS = 5_000;

interface Found {
  readonly name: string;
  readonly server: string;
}

async function find(client: Client, args: Record<string, unknown>): Promise<{ tools: Found[]; text: string; starting?: string[]; down?: string[] }> {
  // The SDK's own request timeout is the bound: past it the call rejects and the test fails.
  const result = (await client.callTool({ name: 'switchboard__find_tools', arguments: args }, undefined, { timeout: ANSWER_WITHIN_MS })) as CallToolResult;
  expect(result.isError ?? false, textOf(result)).toBe(false);
  return { ...(result.structuredContent as { tools: Found[]; starting?: string[]; down?: string[] }), text: textOf(result) };
}

/** `next()` resolves at the session's next tools/list_changed (exactly once per arrival: test/unit/core). */
function listChanges(client: Client): { next: () => Promise<void> } {
  let wake: (() => void) | undefined;
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => wake?.());
  return { next: () => new Promise<void>((resolve) => (wake = resolve)) };
}

describe('search while servers start', () => {
  it('answers find_tools at once naming the server still starting and the one down, then tells the session when the late one lists', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-search-start-'));
    const gate = path.join(dir, 'release-late');
    const retryLate = { restart: { initialDelayMs: 60_000, maxDelayMs: 60_000 } };
    const proxy = await startProxy(
      {
        mcpServers: {
          fast: fixture('fast'),
          // Up at once, but answers tools/list only once the test creates the gate file.
          late: fixture('late', {}, { FIXTURE_HOLD: 'tools/list', FIXTURE_HOLD_FILE: gate }),
          broken: fixture('broken', retryLate, { FIXTURE_FAIL_START: '1' }),
        },
      },
      { waitReady: false },
    );
    try {
      await waitFor(() => proxy.core.upstreams.primaryOf('fast')?.state === 'ready', 10_000, 'fast up');
      await waitFor(() => proxy.core.upstreams.primaryOf('broken')?.isDown, 10_000, 'broken down after its failed first start');
      const client = await connect(proxy, { path: '/mcp?discovery=search' });
      const changes = listChanges(client);

      // The tools it finds join the session's list, announced with a list_changed of their own.
      const joined = changes.next();
      const early = await find(client, { query: 'returns the fixture name and process id', limit: 20 });
      await joined;
      expect(proxy.core.upstreams.primaryOf('late')?.state).toBe('starting');
      const servers = new Set(early.tools.map((tool) => tool.server));
      expect(servers.has('fast')).toBe(true);
      expect(servers.has('late')).toBe(false);
      expect(early.starting).toEqual(['late']);
      expect(early.down).toEqual(['broken']);
      // One short line after the JSON says so, for clients that show the model only text.
      const note = early.text.split('\n').slice(1);
      expect(note).toHaveLength(1);
      expect(note[0]).toMatch(/starting: late\b/i);
      expect(note[0]).toMatch(/broken/);
      // A server's listing in brief for the starting one: nothing yet, and it says why.
      const lateBrief = await find(client, { server: 'late' });
      expect(lateBrief.tools).toEqual([]);
      expect(lateBrief.starting).toEqual(['late']);

      const arrived = changes.next();
      fs.writeFileSync(gate, '');
      await arrived;
      expect(proxy.core.upstreams.primaryOf('late')?.state).toBe('ready');
      const late = await find(client, { query: 'returns the fixture name and process id', server: 'late' });
      expect(late.tools.map((tool) => tool.name)).toContain('late__whoami');
      expect(late.starting).toBeUndefined();
      expect(late.down).toEqual(['broken']);
      // The directory in find_tools' description names the late server now.
      const listed = await listAllTools(client);
      expect(String(listed[0]?.description)).toMatch(/\blate \((?!starting)/);
      await client.close();
    } finally {
      await proxy.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});
