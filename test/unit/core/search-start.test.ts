// Search mode while a server starts, in the socket-free core: find_tools is answered at once and
// names the starting server, tools/list still waits for it (the bounded first-start hold), and its
// arrival reaches the session as exactly one tools/list_changed.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGGREGATE_SCOPE, narrowScope, type ViewScope } from '../../../src/catalog/view.js';
import { resolveViewFilter } from '../../../src/session/filter.js';
import { CoreHarness, waitUntil } from './harness.js';

const LIST_CHANGED = 'notifications/tools/list_changed';
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-core-search-start-'));
const gate = path.join(dir, 'release-late');
let harness: CoreHarness;
let search: ViewScope;

beforeAll(async () => {
  harness = new CoreHarness({ fast: {}, late: { FIXTURE_HOLD: 'tools/list', FIXTURE_HOLD_FILE: gate } });
  harness.core.start();
  await waitUntil(() => harness.core.upstreams.primaryOf('fast')?.state === 'ready', 'fast up');
  const resolved = resolveViewFilter(undefined, new URLSearchParams('discovery=search'), harness.core.config);
  if (!resolved.ok) throw new Error(resolved.error.message);
  search = narrowScope(AGGREGATE_SCOPE, resolved.filter);
}, 20_000);
afterAll(async () => {
  await harness?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('search mode while a server starts', () => {
  it('answers find_tools at once, holds tools/list, and sends one list_changed when the late server lists', async () => {
    const client = await harness.open({}, search);
    const listChanges = (): number => client.channel.delivered.filter((d) => d.message.method === LIST_CHANGED).length;

    const early = await client.request('tools/call', { name: 'switchboard__find_tools', arguments: { query: 'returns the fixture name and process id', limit: 20 } });
    expect(harness.core.upstreams.primaryOf('late')?.state).toBe('starting');
    const structured = early.message.result?.structuredContent as { tools: Array<{ server: string }>; starting?: string[] };
    expect(new Set(structured.tools.map((tool) => tool.server))).toEqual(new Set(['fast']));
    expect(structured.starting).toEqual(['late']);
    // The directory in find_tools' description names it as starting.
    const description = String(harness.core.catalog.current(search).listedTools[0]?.description);
    expect(description).toContain('late (starting)');
    expect(description).toMatch(/tools of 1 server \(1 more starting\)/);
    // The tools it found joined the session's list: one list_changed for that, delivered with the answer.
    expect(listChanges()).toBe(1);

    // A list still waits for the first start (bounded by the server's timeoutMs).
    const heldList = client.send('tools/list');
    expect(harness.core.router.holds.count).toBe(1);
    expect(client.channel.delivered.some((d) => d.message.id === heldList)).toBe(false);

    fs.writeFileSync(gate, '');
    await client.channel.next(() => listChanges() === 2, 'list_changed for the late server');
    const list = await client.channel.responseTo(heldList);
    const listed = String((list.message.result?.tools as Array<{ description?: string }>)[0]?.description);
    expect(listed).toMatch(/\blate \((?!starting)/);
    // Anything else this arrival would send is out before a later answer.
    await client.request('ping');
    expect(listChanges()).toBe(2);

    const late = await client.request('tools/call', { name: 'switchboard__find_tools', arguments: { query: 'returns the fixture name and process id', server: 'late' } });
    const found = late.message.result?.structuredContent as { tools: Array<{ name: string }>; starting?: string[] };
    expect(found.tools.map((tool) => tool.name)).toContain('late__whoami');
    expect(found.starting).toBeUndefined();
  });
});
