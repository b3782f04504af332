// `switchboard check` against pins kept in a password-protected Redis: the text and --json reports
// say where the pins are (the URL without its password, the hash its prefix names), and the
// password, though needed to read them, appears in neither stdout nor stderr.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fixture, runCli } from './helpers.js';
import { startRedis, type RunningRedis } from './redis.js';

const PASSWORD = 'pin-store-pw-7f3a9c';

describe('switchboard check with pins in Redis', () => {
  let redis: RunningRedis;
  let dir: string;
  let file: string;
  const env = { ...process.env, PIN_REDIS_PASSWORD: PASSWORD };

  beforeAll(async () => {
    redis = await startRedis({ password: PASSWORD });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-check-pins-'));
    file = path.join(dir, 'proxy.config.json');
    fs.writeFileSync(
      file,
      JSON.stringify({
        mcpServers: { fx: fixture('fx') },
        sanitize: { pins: path.join(dir, 'pins.json'), log: path.join(dir, 'findings.jsonl') },
        state: { redis: { url: `redis://:\${PIN_REDIS_PASSWORD}@127.0.0.1:${redis.port}/0`, prefix: 'check:' } },
      }),
    );
  }, 30_000);

  afterAll(async () => {
    await redis?.kill();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('names the store without the password, in text and in --json', async () => {
    const where = `redis://127.0.0.1:${redis.port}/0 hash check:pins (state.redis)`;
    const text = await runCli(['check', '-c', file], 30_000, env);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout.trimEnd().split('\n').at(-1)).toBe(`pins: ${where}, log: ${path.join(dir, 'findings.jsonl')}`);

    const json = await runCli(['check', '-c', file, '--json'], 30_000, env);
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({
      ok: true,
      state: {
        pins: where,
        pinStore: { kind: 'redis', url: `redis://127.0.0.1:${redis.port}/0`, prefix: 'check:', key: 'check:pins', from: 'state.redis', file: path.join(dir, 'pins.json') },
      },
    });
    for (const out of [text.stdout, text.stderr, json.stdout, json.stderr]) expect(out).not.toContain(PASSWORD);
  }, 60_000);

  it('fails in one line naming the store, never the password, when the password is wrong', async () => {
    const wrong = await runCli(['check', '-c', file], 30_000, { ...env, PIN_REDIS_PASSWORD: 'not-the-password' });
    // Not a config error (exit 2): the config is fine, the store refused it.
    expect(wrong.code).toBe(1);
    expect(wrong.stderr.trim().split('\n')).toHaveLength(1);
    expect(wrong.stderr).toContain(`cannot read the shared pins at redis://127.0.0.1:${redis.port}/0 hash check:pins (state.redis)`);
    expect(wrong.stderr + wrong.stdout).not.toContain('not-the-password');
  }, 60_000);
});
