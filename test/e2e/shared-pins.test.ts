// Pins shared by two instances through a real Redis (each with its own pin file, so only Redis is
// shared): both withhold a rug-pulled tool, one `switchboard approve` makes both serve it at once,
// an instance started later judges by the shared pins, and a Redis outage holds no request and
// loses no change.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createClient } from 'redis';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { RunningSwitchboard } from '../../src/index.js';
import { ROOT, connect, listAllTools, runCli, startProxy, waitFor } from './helpers.js';
import { startRedis, startRedisOn, type RunningRedis } from './redis.js';
import { SEND_EMAIL } from '../fixtures/poison-tools.mjs';

const POISON = path.join(ROOT, 'test/fixtures/poison-server.mjs');
const PREFIX = 'shared-pins:';
const CHANGED = 'Sends an email. Attachments are supported now.';
const DURING_OUTAGE = 'Sends an email. Attachments and calendar invites are supported now.';
const SEND_EMAIL_FIELD = (entry: string): boolean => entry.startsWith('entry ') && entry.endsWith(',"send_email"]');

/** One instance with an SDK client that counts tools/list_changed. */
interface Instance {
  readonly proxy: RunningSwitchboard;
  readonly client: Client;
  changes: number;
}

describe('pins shared through Redis', () => {
  let redis: RunningRedis;
  let dir: string;
  let raw: Record<string, unknown>;
  let configFile: string;
  let east: Instance;
  let west: Instance;
  const started: Instance[] = [];

  const start = async (instance: string): Promise<Instance> => {
    const proxy = await startProxy({ ...raw, instance });
    const client = await connect(proxy);
    const running: Instance = { proxy, client, changes: 0 };
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void (running.changes += 1));
    started.push(running);
    return running;
  };
  const sendEmail = async (instance: Instance): Promise<Record<string, unknown> | undefined> =>
    (await listAllTools(instance.client)).find((tool) => tool.name === 'mail__send_email');
  /** The send_email pin entry as Redis holds it. */
  const heldEntry = async (): Promise<{ sha256: string; definition?: { description?: string }; pending?: { definition?: { description?: string } } } | undefined> => {
    const client = createClient({ url: redis.url });
    await client.connect();
    try {
      const held = await client.hGetAll(`${PREFIX}pins`);
      const field = Object.keys(held).find(SEND_EMAIL_FIELD);
      return field === undefined ? undefined : JSON.parse(held[field]!);
    } finally {
      await client.close();
    }
  };
  const redescribe = (instance: Instance, description: string) =>
    instance.client.callTool({ name: 'mail__redescribe_tool', arguments: { name: 'send_email', description } });

  beforeAll(async () => {
    redis = await startRedis();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-shared-pins-'));
    // cwd is explicit so the CLI's config file elsewhere pins the server under the same identity.
    raw = { mcpServers: { mail: { command: process.execPath, args: [POISON, 'mail'], cwd: ROOT } }, state: { redis: { url: redis.url, prefix: PREFIX } } };
    configFile = path.join(dir, 'proxy.config.json');
    // The CLI's own pin file stays empty: what it approves can only come from Redis.
    fs.writeFileSync(configFile, JSON.stringify({ ...raw, sanitize: { pins: path.join(dir, 'cli-pins.json'), log: path.join(dir, 'cli.jsonl') } }));
    [east, west] = await Promise.all([start('east'), start('west')]);
  }, 60_000);

  afterAll(async () => {
    await Promise.all(started.map((i) => i.client.close().catch(() => undefined)));
    await Promise.all(started.map((i) => i.proxy.close()));
    await redis?.kill();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('both instances withhold a changed tool; one approve makes both serve it, each client told by list_changed', async () => {
    expect(await sendEmail(east)).toBeDefined();
    expect(await sendEmail(west)).toBeDefined();
    await waitFor(heldEntry, 10_000, 'send_email pinned in Redis');

    // The rug pull reaches both children (each instance runs its own).
    await Promise.all([redescribe(east, CHANGED), redescribe(west, CHANGED)]);
    await waitFor(async () => (await sendEmail(east)) === undefined && (await sendEmail(west)) === undefined, 10_000, 'send_email withheld by both');
    await waitFor(async () => (await heldEntry())?.pending?.definition?.description === CHANGED, 10_000, 'the pending change in Redis');
    const before = { east: east.changes, west: west.changes };

    const approved = await runCli(['approve', 'mail', 'send_email', '-c', configFile]);
    expect(approved.stderr).toBe('');
    expect(approved.code).toBe(0);
    expect(approved.stdout.split('\n')[0]).toContain(`pins: ${redis.url} hash ${PREFIX}pins (state.redis)`);
    expect(approved.stdout).toContain('approved 1 tool of server mail: send_email');
    expect(approved.stdout).toContain('every running switchboard sharing these pins serves them again by itself');
    expect(fs.existsSync(path.join(dir, 'cli-pins.json'))).toBe(false);

    // Told, not polled: each client receives list_changed, and then lists the approved definition.
    await waitFor(() => east.changes > before.east && west.changes > before.west, 10_000, 'list_changed on both instances');
    expect((await sendEmail(east))?.description).toBe(CHANGED);
    expect((await sendEmail(west))?.description).toBe(CHANGED);
    expect((await heldEntry())?.pending).toBeUndefined();
  }, 90_000);

  it('an instance started later judges by the shared pins: its server\'s original definition is a change, not a first sight', async () => {
    const north = await start('north');
    try {
      // Its own pin file is empty: alone it would have pinned the original and served it.
      const tools = await listAllTools(north.client);
      expect(tools.some((tool) => tool.name === 'mail__redescribe_tool')).toBe(true);
      expect(tools.find((tool) => tool.name === 'mail__send_email')).toBeUndefined();
      expect((await heldEntry())?.definition?.description).toBe(CHANGED);
      await waitFor(async () => (await heldEntry())?.pending?.definition?.description === SEND_EMAIL.description, 10_000, 'north\'s pending change in Redis');
    } finally {
      await north.client.close();
      await north.proxy.close();
      started.splice(started.indexOf(north), 1);
    }
  }, 60_000);

  it('with Redis killed no request hangs, and a change made meanwhile reaches Redis once it is back', async () => {
    await redis.kill();
    const began = Date.now();
    await redescribe(east, DURING_OUTAGE);
    await waitFor(async () => (await sendEmail(east)) === undefined, 10_000, 'the changed send_email withheld during the outage');
    expect((await sendEmail(west))?.description).toBe(CHANGED);
    // Requests never waited for Redis: well within its 5 s command bound.
    expect(Date.now() - began).toBeLessThan(5_000);

    // A fresh, empty Redis on the same port: the pins held in memory are written back, east's change with them.
    redis = await waitFor(() => startRedisOn(redis.port).catch(() => undefined), 15_000, `redis-server on port ${redis.port} again`);
    const entry = await waitFor(async () => {
      const held = await heldEntry().catch(() => undefined);
      return held?.pending?.definition?.description === DURING_OUTAGE ? held : undefined;
    }, 20_000, 'the change made during the outage in Redis');
    expect(entry.definition?.description).toBe(CHANGED);
    expect((await sendEmail(east))).toBeUndefined();
    expect((await sendEmail(west))?.description).toBe(CHANGED);
  }, 90_000);
});
