// The provider's key set is read with the bounds of every other provider answer: a key set server
// that sends without end (here: up to 64 MiB, so that a proxy without the bound cannot take the
// machine's memory) is cut off after 1 MiB, the token is answered 503, and the log says why.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startIdp, type TestIdp } from '../fixtures/oidc-idp.js';
import { ACCEPT_BOTH, PROTOCOL_VERSION, fixture, startProxy, waitFor } from './helpers.js';
import type { RunningSwitchboard } from '../../src/index.js';

const MiB = 1024 * 1024;
const SERVED_AT_MOST = 64 * MiB;

describe('auth.oauth with a key set that never ends', () => {
  let idp: TestIdp;
  let proxy: RunningSwitchboard;
  let keys: Server;
  const served = { bytes: 0, closed: false };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-jwks-'));
  const logFile = path.join(dir, 'proxy.log');

  beforeAll(async () => {
    idp = await startIdp();
    keys = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.on('close', () => (served.closed = true));
      const chunk = Buffer.alloc(64 * 1024, ' ');
      const pump = (): void => {
        while (!res.destroyed && served.bytes < SERVED_AT_MOST) {
          served.bytes += chunk.length;
          if (!res.write(served.bytes === chunk.length ? '{"keys":[' : chunk)) return void res.once('drain', pump);
        }
        if (!res.destroyed) res.end(']}');
      };
      pump();
    });
    await new Promise<void>((resolve) => keys.listen(0, '127.0.0.1', resolve));
    const jwksUri = `http://127.0.0.1:${(keys.address() as AddressInfo).port}/jwks`;
    proxy = await startProxy({ mcpServers: { fx: fixture('fx') }, auth: { oauth: { issuer: idp.issuer, jwksUri, clockSkewSeconds: 0 } } }, { logFile });
  });

  afterAll(async () => {
    await proxy?.close();
    await idp?.close();
    keys?.closeAllConnections();
    await new Promise((resolve) => keys?.close(resolve));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('cuts the key set off past 1 MiB, answers 503, and logs one clear line', async () => {
    const now = Math.floor(Date.now() / 1000);
    const token = await idp.sign({ iss: idp.issuer, sub: 'kim', aud: `${proxy.url}/mcp`, scope: 'mcp', client_id: 'c', iat: now, exp: now + 300 });
    const reply = await fetch(`${proxy.url}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: ACCEPT_BOTH },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'jwks', version: '1' } } }),
    });
    expect(reply.status).toBe(503);
    await waitFor(() => served.closed, 10_000, 'the proxy to hang up on the key set');
    // What was sent before the proxy hung up (at start, and for this token): 1 MiB each and what
    // the sockets buffer, not 64 MiB: memory stays bounded however much the server sends.
    expect(served.bytes).toBeLessThan(8 * MiB);
    const line = await waitFor(() => fs.readFileSync(logFile, 'utf8').split('\n').find((l) => l.includes('key set could not be read')), 5_000, 'the log line');
    expect(JSON.parse(line)).toMatchObject({ level: 50, component: 'oauth', err: `answer larger than ${MiB} bytes` });
  });
});
