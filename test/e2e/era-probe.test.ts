// The era probe (server/discover before initialize) toward a session-era server slow to start: it
// times out unanswered, which is normal for such a server, so it is neither a warning nor followed
// by anything the server may not receive before initialize (lifecycle.mdx: initialize and ping only).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { RunningSwitchboard } from '../../src/index.js';
import { connect, fixture, startProxy, textOf, waitFor } from './helpers.js';

/** Past the probe's 3 s and the sweep that notices it (every second for the default 60 s timeout). */
const START_DELAY_MS = 6_000;

interface LogLine {
  level: number;
  msg: string;
  method?: string;
  timeoutMs?: number;
}

describe('a session-era server slow to start', () => {
  let proxy: RunningSwitchboard;
  let dir: string;
  let record: string;
  let logFile: string;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-era-probe-'));
    record = path.join(dir, 'received.jsonl');
    logFile = path.join(dir, 'proxy.log');
    const env = { FIXTURE_START_DELAY_MS: String(START_DELAY_MS), FIXTURE_RECORD: record };
    proxy = await startProxy({ mcpServers: { slow: fixture('slow', {}, env) } }, { logFile });
  }, 30_000);

  afterAll(async () => {
    await proxy?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('receives nothing between the probe and initialize, and then serves as usual', async () => {
    expect(proxy.core.upstreams.primaryOf('slow')?.identity?.era).toBe('session');
    const client = await connect(proxy);
    try {
      expect(textOf(await client.callTool({ name: 'slow__echo', arguments: { text: 'hi' } }))).toContain('hi');
    } finally {
      await client.close();
    }
    const received = fs.readFileSync(record, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { method?: string });
    const initialize = received.findIndex((message) => message.method === 'initialize');
    expect(initialize).toBeGreaterThan(-1);
    expect(received.slice(0, initialize).map((message) => message.method)).toEqual(['server/discover']);
    // Nor later: a cancellation for a probe the server answered (late) or never saw as valid is noise.
    expect(received.filter((message) => message.method === 'notifications/cancelled')).toEqual([]);
  });

  it('logs the probe with its own timeout, below warn', async () => {
    const lines = await waitFor(() => {
      const text = fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8') : '';
      const parsed = text.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as LogLine);
      return parsed.some((line) => line.method === 'server/discover') ? parsed : undefined;
    }, 10_000, 'the probe in the log');
    const probe = lines.filter((line) => line.method === 'server/discover');
    expect(probe.map((line) => line.timeoutMs)).toEqual([3_000]);
    expect(probe.every((line) => line.level < 40)).toBe(true);
    expect(lines.filter((line) => line.level >= 40 && JSON.stringify(line).includes('server/discover'))).toEqual([]);
  });
});
