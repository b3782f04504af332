// A stranger flooding the proxy with invented opaque tokens, each of which would cost a call to
// the provider's introspection endpoint (slow here: 3 s, so that the flood holds what it takes even
// on a loaded machine), must not stop real people signing in.
// Requests come from distinct loopback addresses (127.0.0.x, all local on Linux) via localAddress.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { startIdp, type TestIdp } from '../fixtures/oidc-idp.js';
import { ACCEPT_BOTH, PROTOCOL_VERSION, fixture, startProxy, waitFor } from './helpers.js';
import type { RunningSwitchboard } from '../../src/index.js';

const INITIALIZE = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'flood', version: '1' } } });

describe('auth.oauth with introspection under a flood of invented tokens', () => {
  let idp: TestIdp;
  let proxy: RunningSwitchboard;

  beforeAll(async () => {
    idp = await startIdp();
    proxy = await startProxy(
      {
        mcpServers: { fx: fixture('fx') },
        auth: { oauth: { issuer: idp.issuer, requiredScopes: ['mcp'], introspectionEndpoint: `${idp.issuer}/introspect`, clientId: 'switchboard', clientSecretEnv: 'SB_TEST_FLOOD_SECRET' } },
      },
      { env: { ...process.env, SB_TEST_FLOOD_SECRET: 'not-checked-by-the-fixture' } },
    );
    idp.introspectionDelayMs = 3_000;
  });

  afterAll(async () => {
    await proxy?.close();
    await idp?.close();
  });

  /** The status of an initialize POST with `token`, sent from `from` (a loopback address). */
  const post = (token: string, from: string): Promise<number> =>
    new Promise((resolve) => {
      const url = new URL(`${proxy.url}/mcp`);
      const request = http.request(
        { host: url.hostname, port: url.port, path: '/mcp', method: 'POST', localAddress: from, agent: false, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: ACCEPT_BOTH } },
        (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        },
      );
      request.on('error', () => resolve(0));
      request.end(INITIALIZE);
    });

  /** `workers` loops per address, each posting a fresh invented token until stopped. */
  function flood(addresses: string[], workers: number, invent: () => string): { refused: () => number; stop: () => Promise<number[]> } {
    let running = true;
    const statuses: number[] = [];
    const loops = addresses.flatMap((from) =>
      Array.from({ length: workers }, async () => {
        while (running) {
          const status = await post(invent(), from);
          statuses.push(status);
          // Refused at once: pause a moment so the loop does not spin the two cores.
          if (status === 503) await new Promise((resolve) => setTimeout(resolve, 20));
        }
      }),
    );
    return { refused: () => statuses.filter((status) => status === 503).length, stop: async () => ((running = false), await Promise.all(loops), statuses) };
  }

  it('lets a new user from another address sign in while one address floods, and bounds what the flood costs the provider', async () => {
    const before = idp.introspections.total;
    const started = Date.now();
    const junk = flood(['127.0.0.1'], 100, () => randomBytes(32).toString('base64url'));
    try {
      // Refusals mean the flood has taken every slot it may have.
      await waitFor(() => junk.refused() >= 20 && idp.introspections.total - before >= 8, 10_000, 'the flood taking its slots');
      const token = idp.opaqueToken({ sub: 'newcomer', aud: `${proxy.url}/mcp` });
      expect(await post(token, '127.0.0.2')).toBe(200);
    } finally {
      const statuses = await junk.stop();
      expect(statuses.length).toBeGreaterThan(100);
      expect(statuses.every((status) => status === 401 || status === 503)).toBe(true);
    }
    // One address's invented tokens reach the provider in a burst (30), then one a second at most.
    const seconds = (Date.now() - started) / 1000;
    expect(idp.introspections.total - before - 1).toBeLessThanOrEqual(30 + Math.ceil(seconds));
  });

  it('keeps slots for an address that signed in before while many addresses flood with tokens shaped like real ones', async () => {
    const returning = '127.0.0.3';
    expect(await post(idp.opaqueToken({ sub: 'regular', aud: `${proxy.url}/mcp` }), returning)).toBe(200);
    // Invented tokens of the very form the provider issues (`op_` and 32 characters).
    const addresses = Array.from({ length: 40 }, (_, i) => `127.0.0.${10 + i}`);
    const before = idp.introspections.total;
    const junk = flood(addresses, 3, () => `op_${randomBytes(24).toString('base64url')}`);
    try {
      await waitFor(() => junk.refused() >= 20 && idp.introspections.inFlight >= 40 && idp.introspections.total - before >= 40, 10_000, 'the flood filling the slots strangers may use');
      const token = idp.opaqueToken({ sub: 'regular', aud: `${proxy.url}/mcp` });
      expect(await post(token, returning)).toBe(200);
    } finally {
      await junk.stop();
    }
  });
});
