// The config snippets of the README's "Tracing and limits" load as written (their servers on PATH,
// their ${VAR}s set), with no warning, and mean what the text around them says.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../src/config/load.js';
import type { SwitchboardConfig } from '../../../src/config/types.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const README = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const section = README.split(/^## Tracing and limits$/m)[1]?.split(/^## /m)[0] ?? '';
const snippets = [...section.matchAll(/^```json\n([\s\S]*?)^```$/gm)].map((match) => match[1] as string);

let bin: string;
beforeAll(() => {
  // The commands the snippets name, as installed servers would be.
  bin = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-readme-'));
  for (const command of ['mcp-server-memory', 'mcp-server-filesystem']) fs.writeFileSync(path.join(bin, command), '#!/bin/sh\n', { mode: 0o755 });
});
afterAll(() => fs.rmSync(bin, { recursive: true, force: true }));

function load(text: string): SwitchboardConfig {
  const env: NodeJS.ProcessEnv = { PATH: bin, HOME: bin };
  for (const [, name] of text.matchAll(/\$\{(\w+)\}/g)) env[name as string] = `value-of-${name}-0123456789abcdef`;
  for (const [, name] of text.matchAll(/"tokenEnv": "(\w+)"/g)) env[name as string] = `token-of-${name}-0123456789abcdef`;
  const config = resolveConfig(JSON.parse(text) as unknown, { file: 'proxy.config.json', dir: bin }, env);
  expect(config.warnings).toEqual([]);
  return config;
}

describe('README: Tracing and limits', () => {
  it('has a tracing snippet and a team limits snippet', () => {
    expect(snippets).toHaveLength(2);
  });

  it('the tracing snippet exports to an OTLP/HTTP endpoint on 4318', () => {
    const config = load(snippets[0] as string);
    expect(config.telemetry).toMatchObject({ sampleRatio: 0.25, serviceName: 'switchboard-team' });
    expect(JSON.stringify(config.telemetry)).toContain('http://tempo.internal:4318');
  });

  it('the limits snippet sets a profile override, a tool glob, maxConcurrent, limits.redis and state.redis', () => {
    const config = load(snippets[1] as string);
    expect(config.limits.profiles).toEqual({ ci: { rate: 50, burst: 200 } });
    expect(Object.keys(config.limits.tools)).toEqual(['fs__write_*']);
    expect(config.servers.find((server) => server.name === 'fs')?.maxConcurrent).toBe(4);
    expect(config.limits.redis).toMatchObject({ url: 'redis://:value-of-REDIS_PASSWORD-0123456789abcdef@10.0.0.5:6379/0', onError: 'open' });
    expect(config.state.redis).toEqual({ url: 'redis://:value-of-PINS_REDIS_PASSWORD-0123456789abcdef@10.0.0.6:6379/0', prefix: 'team:', from: 'state.redis' });
  });
});
