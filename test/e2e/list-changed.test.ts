// A child's tools/list_changed reaches other sessions, and their next tools/list shows the change.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RunningSwitchboard } from '../../src/index.js';
import { connect, fixture, listAllTools, startProxy, textOf, waitFor } from './helpers.js';

describe('tools/list_changed', () => {
  let proxy: RunningSwitchboard;
  let a: Client;
  let b: Client;
  let bNotified = 0;
  let aNotified = 0;

  beforeAll(async () => {
    proxy = await startProxy({ mcpServers: { fixture: fixture('fixture') } });
    [a, b] = await Promise.all([connect(proxy, { name: 'A' }), connect(proxy, { name: 'B' })]);
    a.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      aNotified += 1;
    });
    b.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      bNotified += 1;
    });
    // The SDK opens its GET stream right after initialize; wait until the proxy holds both.
    await waitFor(
      () => [...proxy.core.sessions.all()].filter((session) => proxyHasGetStream(proxy, session.id)).length >= 2,
      5000,
      'both GET streams to be open',
    ).catch(() => undefined);
  });
  afterAll(async () => {
    await Promise.allSettled([a?.close(), b?.close()]);
    await proxy?.close();
  });

  it('announces the proxy supports tools.listChanged', () => {
    expect(b.getServerCapabilities()?.tools?.listChanged).toBe(true);
  });

  it('a tool added by session A is announced to session B and then listed', async () => {
    const before = (await listAllTools(b)).map((tool) => tool.name);
    expect(before).not.toContain('fixture__fresh');
    const notifiedBefore = bNotified;

    const added = await a.callTool({ name: 'fixture__add_tool', arguments: { name: 'fresh' } });
    expect(textOf(added)).toBe('added fresh');

    await waitFor(() => bNotified > notifiedBefore, 10_000, 'notifications/tools/list_changed on session B');
    const after = (await listAllTools(b)).map((tool) => tool.name);
    expect(after).toContain('fixture__fresh');
    // The new tool is callable through the proxy under its namespaced name.
    expect(textOf(await b.callTool({ name: 'fixture__fresh', arguments: { text: 'new tool works' } }))).toBe('new tool works');
    // A also saw the change.
    await waitFor(() => aNotified > 0, 10_000, 'notifications/tools/list_changed on session A');
  });

  it('remove_tool removes it again, with another notification', async () => {
    const notifiedBefore = bNotified;
    const removed = await a.callTool({ name: 'fixture__remove_tool', arguments: { name: 'fresh' } });
    expect(textOf(removed)).toBe('removed fresh');
    await waitFor(() => bNotified > notifiedBefore, 10_000, 'second notifications/tools/list_changed on session B');
    const after = (await listAllTools(b)).map((tool) => tool.name);
    expect(after).not.toContain('fixture__fresh');
    expect(after).toContain('fixture__echo');
    // Gone for calls too: unknown to the session.
    await expect(b.callTool({ name: 'fixture__fresh', arguments: { text: 'x' } })).rejects.toThrow(/fresh/);
  });
});

/** Whether the proxy holds a GET stream for the session (best effort: only used to avoid a startup race). */
function proxyHasGetStream(proxy: RunningSwitchboard, sessionId: string): boolean {
  const session = proxy.core.sessions.get(sessionId) as unknown as { channel?: { getStream?: unknown } } | undefined;
  return session?.channel?.getStream !== undefined;
}
