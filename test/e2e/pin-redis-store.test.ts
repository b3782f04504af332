// The shared pin store against a real redis-server: entries of different tools never overwrite
// each other, a write made on stale pins is dropped and the store's pins taken instead, an empty
// Redis is seeded from the pin file once, another writer's change reaches a follower, and an unreachable
// Redis fails the start with one line.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createClient } from 'redis';
import { RedisPinKeeper, type RedisPinOptions } from '../../src/catalog/pin-redis.js';
import { ABSENT, ANY, planWrite } from '../../src/catalog/pin-merge.js';
import { silentLogger } from '../../src/log.js';
import { PinStore, entryField, nameField } from '../../src/sanitize/index.js';
import { freePort } from './helpers.js';
import { startRedis, type RunningRedis } from './redis.js';

const tool = (description: string) => ({ name: 'read', description, inputSchema: { type: 'object' } });
const SERVER = 'node fs.js';

describe('planWrite', () => {
  const pinned = JSON.stringify({ sha256: 'a', fields: {}, firstSeen: 't', approvedAt: 't' });
  const pending = JSON.stringify({ sha256: 'a', fields: {}, firstSeen: 't', approvedAt: 't', pending: { sha256: 'b', fields: {}, seen: 't' } });
  const field = entryField(SERVER, 'read');

  it('expects what was last read, and a name whatever the store holds, announcing only decisions', () => {
    const plan = planWrite(new Map([[field, pending], [nameField(SERVER), '"fs"'], [entryField(SERVER, 'new'), pinned]]), new Map([[field, pinned]]), false);
    expect(plan.writes).toEqual([
      { field, expected: pinned, value: pending },
      { field: nameField(SERVER), expected: ANY, value: '"fs"' },
      { field: entryField(SERVER, 'new'), expected: ABSENT, value: pinned },
    ]);
    expect(plan.announce).toBe(true);
    expect(planWrite(new Map([[nameField(SERVER), '"fs"']]), new Map(), false).announce).toBe(false);
  });

  it('following another writer, writes only what no review undoes: a new field, a pending change added; the rest waits', () => {
    // Another instance recorded the pending change; this one serves the pinned definition and would clear it.
    const cleared = planWrite(new Map([[field, pinned]]), new Map([[field, pending]]), true);
    expect(cleared).toEqual({ writes: [], deferred: [field], announce: false });
    const added = planWrite(new Map([[field, pending]]), new Map([[field, pinned]]), true);
    expect(added.writes).toEqual([{ field, expected: pinned, value: pending }]);
    expect(planWrite(new Map([[field, pinned]]), new Map(), true).writes).toHaveLength(1);
    // Unchanged fields are not written at all.
    expect(planWrite(new Map([[field, pinned]]), new Map([[field, pinned]]), false).writes).toEqual([]);
  });
});

describe('RedisPinKeeper', () => {
  let redis: RunningRedis;
  let dir: string;
  let prefix: string;
  let n = 0;
  const open: RedisPinKeeper[] = [];

  beforeAll(async () => {
    redis = await startRedis();
  }, 30_000);
  afterAll(async () => {
    await Promise.all(open.map((k) => k.close()));
    await redis?.kill();
  });
  beforeEach(() => {
    // A prefix per test: no test sees another's pins.
    prefix = `t${(n += 1)}:`;
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-pin-redis-'));
  });

  const keeper = async (extra: Partial<RedisPinOptions> = {}): Promise<RedisPinKeeper> => {
    const k = await RedisPinKeeper.open(
      { redis: { url: redis.url, prefix, from: 'state.redis' }, file: path.join(dir, 'pins.json'), instance: `i${open.length}`, writable: true, subscribe: false, ...extra },
      silentLogger(),
    );
    open.push(k);
    return k;
  };
  const held = async (): Promise<Record<string, string>> => {
    const client = createClient({ url: redis.url });
    await client.connect();
    try {
      return await client.hGetAll(`${prefix}pins`);
    } finally {
      await client.close();
    }
  };

  it('two instances recording different tools both land: one field per entry', async () => {
    const [east, west] = await Promise.all([keeper(), keeper()]);
    east.pins.checkEntity(SERVER, 'read', tool('Reads a file.'), 'fs');
    west.pins.checkEntity(SERVER, 'write', { ...tool('Writes a file.'), name: 'write' }, 'fs');
    expect(await east.save()).toEqual({ ok: true });
    expect(await west.save()).toEqual({ ok: true });
    expect(Object.keys(await held()).sort()).toEqual([entryField(SERVER, 'read'), entryField(SERVER, 'write'), nameField(SERVER)].sort());
  });

  it('a write on stale pins is dropped and the store\'s pins are taken: an approval is never overwritten by an old pending record', async () => {
    const first = await keeper();
    first.pins.checkEntity(SERVER, 'read', tool('Reads a file.'), 'fs');
    await first.save();
    // east saw the rug pull and recorded it as pending; the operator approves it from the CLI.
    const east = await keeper();
    east.pins.checkEntity(SERVER, 'read', tool('Reads a file. Now better.'), 'fs');
    expect(await east.save()).toEqual({ ok: true });
    const cli = await keeper();
    expect(cli.pins.approve(SERVER, 'read')).toBe(1);
    expect(await cli.save()).toEqual({ ok: true });
    // east has not heard of the approval (no subscription here) and relists a third definition.
    let reloaded = 0;
    east.follow(() => void (reloaded += 1));
    east.pins.checkEntity(SERVER, 'read', tool('Reads a file. Sends it too.'), 'fs');
    const outcome = await east.save();
    expect(outcome.ok).toBe(false);
    expect(reloaded).toBe(1);
    // The approval stands in Redis, and east now judges by it.
    const entry = JSON.parse((await held())[entryField(SERVER, 'read')]!) as { sha256: string; pending?: unknown };
    expect(entry.pending).toBeUndefined();
    expect(east.pins.check(SERVER, 'read', entry.sha256)).toBe('same');
  });

  it('seeds an empty Redis from the pin file once; a read-only opener never writes', async () => {
    const file = path.join(dir, 'pins.json');
    const local = await PinStore.open(file);
    local.checkEntity(SERVER, 'read', tool('Reads a file.'), 'fs');
    expect((await local.save()).ok).toBe(true);
    const reader = await keeper({ writable: false });
    expect(reader.pins.pending(SERVER)).toEqual([]);
    expect(reader.pins.check(SERVER, 'read', 'sha256:other')).toBe('changed');
    expect(await held()).toEqual({});
    await keeper();
    const seeded = await held();
    expect(Object.keys(seeded).sort()).toEqual([entryField(SERVER, 'read'), nameField(SERVER)].sort());
    // The file changes later: Redis is not seeded again.
    local.checkEntity(SERVER, 'other', { ...tool('x'), name: 'other' }, 'fs');
    await local.save();
    await keeper();
    expect(await held()).toEqual(seeded);
  });

  it("a follower reloads on another writer's announcement, reviews again with the store's pins and reports it", async () => {
    const follower = await keeper({ subscribe: true });
    const reports: boolean[] = [];
    let reviews = 0;
    let next: (() => void) | undefined;
    follower.follow(
      () => void (reviews += 1),
      (changed) => {
        reports.push(changed);
        next?.();
      },
    );
    const reported = (): Promise<void> => new Promise((resolve) => (next = resolve));

    // Another instance records a tool it saw first: a decision, announced on the channel.
    const writer = await keeper();
    const first = reported();
    const seen = writer.pins.checkEntity(SERVER, 'read', tool('Reads a file.'), 'fs');
    expect(await writer.save()).toEqual({ ok: true });
    await first;
    expect(reports).toEqual([true]);
    expect(reviews).toBe(1);
    expect(follower.pins.check(SERVER, 'read', seen.sha256)).toBe('same');

    // The writer records a changed definition as pending: the follower holds it too.
    writer.pins.checkEntity(SERVER, 'read', tool('Reads a file. Now better.'), 'fs');
    const second = reported();
    expect(await writer.save()).toEqual({ ok: true });
    await second;
    expect(reports).toEqual([true, true]);
    expect(reviews).toBe(2);
    expect(follower.pins.pending(SERVER).map((p) => p.key)).toEqual(['read']);
  });

  it('an unreachable Redis fails the open within the bound, in one line that names it without its password', async () => {
    const port = await freePort();
    const started = Date.now();
    const error = await RedisPinKeeper.open(
      { redis: { url: `redis://:hunter2@127.0.0.1:${port}/0`, prefix, from: 'limits.redis' }, file: path.join(dir, 'pins.json'), instance: 'x', writable: true, subscribe: true },
      silentLogger(),
    ).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(Date.now() - started).toBeLessThan(8_000);
    expect(error?.message).toMatch(new RegExp(`^cannot read the shared pins at redis://127\\.0\\.0\\.1:${port}/0 hash ${prefix}pins \\(limits\\.redis\\) within 5 s`));
    expect(error?.message).not.toContain('hunter2');
    expect(error?.message).not.toContain('\n');
  }, 15_000);
});
