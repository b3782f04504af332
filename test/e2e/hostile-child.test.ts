// A child that misbehaves on purpose cannot grow the daemon's memory or its log without bound.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSwitchboard } from '../../src/index.js';
import { MAX_PENDING_SERVER_REQUESTS } from '../../src/router/child-messages.js';
import { PROTOCOL_VERSION, connect, fixture, rawPost, outlast, startProxy, textOf, waitFor } from './helpers.js';

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-hostile-'));
});
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

const logLines = (file: string, msg: string): Array<Record<string, unknown>> =>
  fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.includes(msg))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe('server-to-client request flood', () => {
  let proxy: RunningSwitchboard;
  const logFile = () => path.join(dir, 'requests.log');
  beforeAll(async () => {
    proxy = await startProxy({ mcpServers: { fx: fixture('fx') } }, { logFile: logFile() });
  });
  afterAll(async () => {
    await proxy?.close();
  });

  it('keeps at most a bounded number waiting for one client, refuses the rest, and logs refusals at a bounded rate', async () => {
    const init = await rawPost(proxy, {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: PROTOCOL_VERSION, capabilities: { sampling: {} }, clientInfo: { name: 'silent', version: '1' } },
    });
    const sessionId = init.headers.get('mcp-session-id') ?? '';
    await rawPost(proxy, { jsonrpc: '2.0', method: 'notifications/initialized' }, { sessionId });
    // This client never answers: every forwarded request stays waiting.
    const reply = await rawPost(
      proxy,
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'fx__flood_sample', arguments: { count: 500, waitMs: 3000 } } },
      { sessionId },
    );
    const forwarded = reply.messages.filter((m) => m.method === 'sampling/createMessage');
    expect(forwarded).toHaveLength(MAX_PENDING_SERVER_REQUESTS);
    const result = reply.messages.find((m) => m.id === 1 && 'result' in m);
    expect(textOf(result?.result)).toBe(`refused ${500 - MAX_PENDING_SERVER_REQUESTS}, answered 0`);
    const session = proxy.core.sessions.get(sessionId);
    expect(session?.serverRequests.size).toBe(MAX_PENDING_SERVER_REQUESTS);
    // 436 refusals, at most 10 log lines for them.
    const refusals = logLines(logFile(), 'server request refused');
    expect(refusals.length).toBeGreaterThan(0);
    expect(refusals.length).toBeLessThanOrEqual(10);
  });
});

describe('list_changed flood with changing definitions', () => {
  it('re-lists at a bounded pace, keeps serving, logs a bounded number of findings per tool, and leaves no temp files', async () => {
    const proxy = await startProxy({ mcpServers: { fx: fixture('fx') } });
    const { log, pins } = proxy.core.config.sanitize;
    let closed = false;
    try {
      const client = await connect(proxy);
      // Answered when the flood is over, with the last version it defined.
      let churned: string | undefined;
      const churn = client.callTool({ name: 'fx__churn', arguments: { ms: 2000, perTick: 20, wait: true } }, undefined, { timeout: 60_000 }).then((result) => (churned = textOf(result)));
      // Calls keep being answered while the child floods.
      // At least six of them, however long each takes on a busy machine.
      let calls = 0;
      while (calls < 6 || churned === undefined) {
        expect(textOf(await client.callTool({ name: 'fx__echo', arguments: { text: 'still here' } }))).toBe('still here');
        calls += 1;
      }
      const last = /^churned (\d+)$/.exec(await churn)?.[1];
      expect(last).toBeDefined();
      // The flood is over once the proxy has re-listed its last version (the pacer's trailing pass):
      // no list_changed is left to re-list for. The tool is withheld from clients, so read the listing.
      await waitFor(
        () => proxy.core.upstreams.primaryOf('fx')?.lists.tools.some((tool) => tool.name === 'churned' && String(tool.description).startsWith(`Version ${last}.`)),
        10_000,
        `the proxy to list version ${last} of the churned tool`,
      );
      // ~2,000 ticks of 20 list_changed each: one re-list per 200 ms at most, plus the initial listing.
      const lists = Number(textOf(await client.callTool({ name: 'fx__list_count', arguments: {} })));
      expect(lists).toBeGreaterThan(1);
      expect(lists).toBeLessThanOrEqual(20);
      await client.close();
      await proxy.close();
      closed = true;
      const records = fs.existsSync(log)
        ? fs.readFileSync(log, 'utf8').split('\n').filter((line) => line.includes('"tool":"churned"')).map((line) => JSON.parse(line) as { rule: string })
        : [];
      const perRule = new Map<string, number>();
      for (const record of records) perRule.set(record.rule, (perRule.get(record.rule) ?? 0) + 1);
      expect(perRule.size).toBeGreaterThan(0);
      for (const count of perRule.values()) expect(count).toBeLessThanOrEqual(20);
      expect(fs.readdirSync(path.dirname(pins)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    } finally {
      if (!closed) await proxy.close();
    }
  });
});

describe('stderr flood', () => {
  it('logs a bounded number of a flooding child’s stderr lines, cut to a bounded length, and keeps serving', async () => {
    const logFile = path.join(dir, 'stderr.log');
    const proxy = await startProxy({ mcpServers: { fx: fixture('fx') } }, { logFile });
    try {
      const client = await connect(proxy);
      const started = Date.now();
      const flood = client.callTool({ name: 'fx__stderr_flood', arguments: { mb: 40, lineBytes: 80 } }, undefined, { timeout: 60_000 });
      expect(textOf(await client.callTool({ name: 'fx__echo', arguments: { text: 'during' } }))).toBe('during');
      expect(textOf(await flood)).toBe('flooded');
      // The next window's first line says how many were left out: let the flood's window (1 s) end.
      await outlast(1100, 'the stderr log window');
      const long = await client.callTool({ name: 'fx__stderr_flood', arguments: { mb: 0.1, lineBytes: 10_000 } });
      expect(textOf(long)).toBe('flooded');
      const seconds = (Date.now() - started) / 1000;
      await client.close();
      await proxy.close();
      const lines = logLines(logFile, '"server stderr"');
      // ~520,000 lines were written; at most 50 a second (plus one window's worth) reach the log.
      expect(lines.length).toBeLessThanOrEqual(50 * (Math.ceil(seconds) + 2) + 100);
      expect(lines.some((line) => typeof line.suppressed === 'number' && line.suppressed > 1000)).toBe(true);
      expect(Math.max(...lines.map((line) => String(line.stderr).length))).toBeLessThanOrEqual(2_000 + 40);
    } finally {
      await proxy.close();
    }
  }, 90_000);
});
