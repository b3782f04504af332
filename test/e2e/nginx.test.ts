// Several instances behind real nginx (Debian's package), with deploy/nginx/switchboard.conf as
// shipped but for its ports: 50 SDK sessions spread over both instances; then one instance stops.
// Its sessions are refused at once (502 for the request that finds it down, 404 from the other
// instance after) and start over on the survivor, whose own sessions never notice.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { RunningSwitchboard } from '../../src/index.js';
import { ROOT, fixture, freePort, startProxy, textOf, waitFor } from './helpers.js';

const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((candidate) => fs.existsSync(candidate));
const SESSIONS = 50;
const CALL_TIMEOUT_MS = 10_000;

interface Open {
  readonly client: Client;
  readonly transport: StreamableHTTPClientTransport;
}

describe('several instances behind nginx', () => {
  let a: RunningSwitchboard;
  let b: RunningSwitchboard | undefined;
  let nginx: ChildProcess;
  let base: string;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-nginx-'));
  const open: Open[] = [];

  const session = async (): Promise<Open> => {
    const client = new Client({ name: 'behind-nginx', version: '1' });
    const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`));
    await client.connect(transport, { timeout: CALL_TIMEOUT_MS });
    return { client, transport };
  };

  beforeAll(async () => {
    if (NGINX === undefined) throw new Error('nginx is not installed (README: test prerequisites)');
    [a, b] = await Promise.all([
      startProxy({ instance: 'a', mcpServers: { fx: fixture('fx') } }),
      startProxy({ instance: 'b', mcpServers: { fx: fixture('fx') } }),
    ]);
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    const shipped = fs.readFileSync(path.join(ROOT, 'deploy/nginx/switchboard.conf'), 'utf8');
    const site = shipped
      .replaceAll('127.0.0.1:8801', `127.0.0.1:${new URL(a.url).port}`)
      .replaceAll('127.0.0.1:8802', `127.0.0.1:${new URL(b.url).port}`)
      .replace('listen 8808;', `listen 127.0.0.1:${port};`);
    fs.writeFileSync(path.join(dir, 'switchboard.conf'), site);
    const temp = (name: string): string => path.join(dir, name);
    fs.writeFileSync(
      temp('nginx.conf'),
      [
        // As root nginx would run its workers as nobody, who cannot enter this private directory.
        process.getuid?.() === 0 ? 'user root;' : '',
        'worker_processes 1;',
        `pid ${temp('nginx.pid')};`,
        `error_log ${temp('error.log')} warn;`,
        'events { worker_connections 512; }',
        'http {',
        '  access_log off;',
        `  client_body_temp_path ${temp('body')}; proxy_temp_path ${temp('proxy')}; fastcgi_temp_path ${temp('fastcgi')}; uwsgi_temp_path ${temp('uwsgi')}; scgi_temp_path ${temp('scgi')};`,
        `  include ${temp('switchboard.conf')};`,
        '}',
      ].join('\n'),
    );
    nginx = spawn(NGINX, ['-p', dir, '-c', temp('nginx.conf'), '-g', 'daemon off;'], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    nginx.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    await waitFor(
      () =>
        new Promise<boolean>((resolve) => {
          const socket = net.connect(port, '127.0.0.1', () => {
            socket.end();
            resolve(true);
          });
          socket.on('error', () => resolve(false));
        }),
      10_000,
      `nginx to listen (${stderr})`,
    );
  });

  afterAll(async () => {
    await Promise.all(open.map(({ client }) => client.close().catch(() => undefined)));
    nginx?.kill('SIGTERM');
    await Promise.all([a?.close(), b?.close()]);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it(`spreads ${SESSIONS} sessions over both instances, each served by the instance that opened it`, async () => {
    for (let i = 0; i < SESSIONS; i += 1) open.push(await session());
    const onA = open.filter(({ transport }) => transport.sessionId?.startsWith('a.')).length;
    const onB = open.filter(({ transport }) => transport.sessionId?.startsWith('b.')).length;
    expect(onA + onB).toBe(SESSIONS);
    expect(onA).toBeGreaterThan(0);
    expect(onB).toBeGreaterThan(0);
    const answers = await Promise.all(open.map(({ client }, i) => client.callTool({ name: 'fx__echo', arguments: { text: `s${i}` } }, undefined, { timeout: CALL_TIMEOUT_MS })));
    answers.forEach((answer, i) => expect(textOf(answer)).toBe(`s${i}`));
  });

  it('stops one instance: its sessions are refused at once and start over on the other, whose sessions never notice', async () => {
    await a.close();
    const started = Date.now();
    const outcomes = await Promise.all(
      open.map(async ({ client, transport }, i) => {
        const wasA = transport.sessionId?.startsWith('a.') === true;
        const result = await client.callTool({ name: 'fx__echo', arguments: { text: `after ${i}` } }, undefined, { timeout: CALL_TIMEOUT_MS }).then(
          (answer) => ({ ok: textOf(answer) === `after ${i}`, error: '' }),
          (error: unknown) => ({ ok: false, error: String(error) }),
        );
        return { wasA, ...result };
      }),
    );
    // Nothing hung: every call of a stopped instance's session failed well before its timeout.
    expect(Date.now() - started).toBeLessThan(CALL_TIMEOUT_MS);
    for (const outcome of outcomes) {
      if (outcome.wasA) expect(outcome.error).toMatch(/404|502|Session not found|Bad Gateway/);
      else expect(outcome).toMatchObject({ ok: true });
    }
    // The refused sessions initialize again, through the same balancer, and land on the survivor.
    const again = await Promise.all(outcomes.filter((o) => o.wasA).map(() => session()));
    for (const { transport } of again) expect(transport.sessionId).toMatch(/^b\./);
    open.push(...again);
    expect(textOf(await again[0]!.client.callTool({ name: 'fx__echo', arguments: { text: 'on b now' } }))).toBe('on b now');
  });
});
