// switchboard_pin_store_up against a real redis-server: 1 while the shared pin store answers, 0 once
// Redis is killed, 1 again when it is back; absent when the pins are in a file.
import { afterEach, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openReview } from '../../src/catalog/review.js';
import { resolveConfig } from '../../src/config/load.js';
import { silentLogger } from '../../src/log.js';
import { Metrics } from '../../src/ops/metrics.js';
import { SwitchboardCore } from '../../src/switchboard.js';
import { waitFor } from './helpers.js';
import { startRedis, startRedisOn, type RunningRedis } from './redis.js';

/** The gauge's value in one scrape, or undefined when the series is not exported. */
const gauge = (core: SwitchboardCore): string | undefined => /^switchboard_pin_store_up (\S+)$/m.exec(new Metrics(core).render())?.[1];

let core: SwitchboardCore | undefined;
let redis: RunningRedis | undefined;
afterEach(async () => {
  await core?.stop();
  core = undefined;
  await redis?.kill();
  redis = undefined;
});

async function coreWith(state: Record<string, unknown>): Promise<SwitchboardCore> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-pin-gauge-'));
  const config = resolveConfig(
    { mcpServers: { fs: { command: process.execPath } }, sanitize: { pins: path.join(dir, 'pins.json'), log: path.join(dir, 'findings.jsonl') }, ...state },
    { file: '<inline>', dir },
    process.env,
  );
  const review = await openReview(config, silentLogger(), { writeLog: false, persistPins: true });
  core = new SwitchboardCore(config, silentLogger(), { review });
  return core;
}

describe('switchboard_pin_store_up', () => {
  it('follows the shared pin store: 1 while Redis answers, 0 once it is killed, 1 when it is back', async () => {
    const running = await startRedis();
    redis = running;
    const c = await coreWith({ state: { redis: { url: running.url, prefix: 'gauge:' } } });
    expect(gauge(c)).toBe('1');
    expect(new Metrics(c).render()).toContain('# TYPE switchboard_pin_store_up gauge');

    await running.kill();
    await waitFor(() => gauge(c) === '0', 10_000, 'switchboard_pin_store_up 0 after Redis was killed');

    // A Redis on the same port again (the port may be taken meanwhile: retried briefly).
    redis = await waitFor(() => startRedisOn(running.port).catch(() => undefined), 15_000, `redis-server on port ${running.port} again`);
    await waitFor(() => gauge(c) === '1', 15_000, 'switchboard_pin_store_up 1 once Redis is back');
  }, 60_000);

  it('is not exported when the pins are in a file', async () => {
    const c = await coreWith({});
    expect(c.sharedPins).toBeUndefined();
    expect(gauge(c)).toBeUndefined();
    expect(new Metrics(c).render()).not.toContain('switchboard_pin_store_up');
  });
});
