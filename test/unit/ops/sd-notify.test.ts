// Readiness and stop notifications to systemd, through a fake systemd-notify on PATH that records its arguments.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createSwitchboard, resolveConfig, type RunningSwitchboard } from '../../../src/index.js';
import { silentLogger } from '../../../src/log.js';
import { systemdNotifier } from '../../../src/ops/sd-notify.js';
import { FIXTURE, ROOT } from '../../e2e/helpers.js';

let dir: string;
let record: string;
let env: NodeJS.ProcessEnv;
const proxies: RunningSwitchboard[] = [];

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-sd-notify-'));
  record = path.join(dir, 'calls.txt');
  const bin = path.join(dir, 'bin');
  fs.mkdirSync(bin);
  // One line per call: its arguments joined by tabs.
  fs.writeFileSync(path.join(bin, 'systemd-notify'), `#!/bin/sh\n(IFS="$(printf '\\t')"; echo "$*") >> "${record}"\n`, { mode: 0o755 });
  env = { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}`, NOTIFY_SOCKET: '/run/fake/notify' };
});

afterEach(async () => {
  await Promise.all(proxies.splice(0).map((proxy) => proxy.close()));
  fs.rmSync(record, { force: true });
});

afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

function calls(): string[][] {
  if (!fs.existsSync(record)) return [];
  return fs.readFileSync(record, 'utf8').trimEnd().split('\n').map((line) => line.split('\t'));
}

async function proxyOf(servers: Record<string, unknown>): Promise<RunningSwitchboard> {
  const config = resolveConfig({ listen: { host: '127.0.0.1', port: 0 }, mcpServers: servers }, { file: '<inline>', dir: ROOT });
  const proxy = await createSwitchboard(config, { shutdown: { afterStdinCloseMs: 200, afterTermMs: 200 } });
  proxies.push(proxy);
  return proxy;
}

const good = { command: process.execPath, args: [FIXTURE], env: { FIXTURE_NAME: 'good' } };
const failing = { command: process.execPath, args: [FIXTURE], env: { FIXTURE_NAME: 'bad', FIXTURE_FAIL_START: '1' } };
/** Starts and never answers initialize: stays in its first start attempt. */
const silent = { command: process.execPath, args: ['-e', 'setInterval(() => {}, 1e9)'] };

describe('sd-notify', () => {
  it('with NOTIFY_SOCKET: READY=1 once every server had its first start, a failed one included; STOPPING=1 on stop', async () => {
    const proxy = await proxyOf({ good, bad: failing });
    const notifier = systemdNotifier(silentLogger(), env);
    await notifier.readyWhenSettled(proxy.core, proxy.url);
    // The status counts the servers at the moment the first starts settled: one up, the failed one
    // counted too. (Their states are not checked here: by the time the notify helper has run, the
    // failed server may well be in its next start attempt, which is right.)
    expect(calls()).toEqual([['--ready', `--status=listening on ${proxy.url}/mcp; 1 of 2 servers ready`]]);

    await notifier.stopping();
    expect(calls().length).toBe(2);
    expect(calls()[1]?.[0]).toBe('STOPPING=1');
  });

  it('a server stuck in its first start delays READY=1 by the readiness wait at most', async () => {
    const proxy = await proxyOf({ good, silent });
    // good is up first (on a busy machine it may take longer than the wait); silent never will be.
    await expect.poll(() => proxy.core.upstreams.primaryOf('good')?.state, { timeout: 15_000 }).toBe('ready');
    const started = Date.now();
    await systemdNotifier(silentLogger(), env, 500).readyWhenSettled(proxy.core, proxy.url);
    expect(Date.now() - started).toBeGreaterThanOrEqual(450);
    expect(calls()).toEqual([['--ready', `--status=listening on ${proxy.url}/mcp; 1 of 2 servers ready`]]);
  });

  it('no READY=1 once stopping began', async () => {
    const proxy = await proxyOf({ silent });
    const notifier = systemdNotifier(silentLogger(), env, 2_000);
    const ready = notifier.readyWhenSettled(proxy.core, proxy.url);
    const stopped = notifier.stopping();
    await ready;
    // Once both are done, whatever was to be sent has been: STOPPING=1 alone.
    await stopped;
    expect(calls().map((c) => c[0])).toEqual(['STOPPING=1']);
    // A second stop sends nothing more.
    await notifier.stopping();
    expect(calls()).toHaveLength(1);
  });

  it('without NOTIFY_SOCKET: systemd-notify is never run', async () => {
    const proxy = await proxyOf({ good });
    const { NOTIFY_SOCKET: _unset, ...without } = env;
    const notifier = systemdNotifier(silentLogger(), without);
    await notifier.readyWhenSettled(proxy.core, proxy.url);
    // Resolves once systemd-notify has run, had it been run.
    await notifier.stopping();
    expect(calls()).toEqual([]);
  });

  it('a missing systemd-notify is logged, never thrown', async () => {
    const proxy = await proxyOf({ good });
    const notifier = systemdNotifier(silentLogger(), { NOTIFY_SOCKET: '/run/fake/notify', PATH: dir });
    await expect(notifier.readyWhenSettled(proxy.core, proxy.url)).resolves.toBeUndefined();
  });
});
