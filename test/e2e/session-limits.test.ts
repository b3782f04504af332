// One token cannot take every session: each identity has a share, its own idle sessions make room
// first, and other identities keep theirs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSwitchboard } from '../../src/index.js';
import { ACCEPT_BOTH, PROTOCOL_VERSION, fixture, startProxy, waitFor } from './helpers.js';

const ALICE = 'alice-token-0123456789abcdef';
const BOB = 'bob-token-0123456789abcdefgh';
const CAROL = 'carol-token-0123456789abcdef';

describe('sessions per identity', () => {
  let proxy: RunningSwitchboard;
  beforeAll(async () => {
    proxy = await startProxy(
      {
        mcpServers: { fx: fixture('fx') },
        limits: { maxSessions: 6, maxSessionsPerIdentity: 3 },
        auth: {
          tokens: [
            { name: 'alice', tokenEnv: 'SB_LIMIT_ALICE' },
            { name: 'bob', tokenEnv: 'SB_LIMIT_BOB' },
            { name: 'carol', tokenEnv: 'SB_LIMIT_CAROL' },
          ],
        },
      },
      { env: { ...process.env, SB_LIMIT_ALICE: ALICE, SB_LIMIT_BOB: BOB, SB_LIMIT_CAROL: CAROL } },
    );
  });
  afterAll(async () => {
    await proxy?.close();
  });

  const post = (token: string, body: unknown, sessionId?: string) =>
    fetch(`${proxy.url}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: ACCEPT_BOTH,
        ...(sessionId === undefined ? {} : { 'mcp-session-id': sessionId, 'mcp-protocol-version': PROTOCOL_VERSION }),
      },
      body: JSON.stringify(body),
    });

  /** initialize + initialized; the session id, or the HTTP status of a refusal. */
  async function open(token: string): Promise<string | number> {
    const init = await post(token, { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'limits', version: '1' } } });
    await init.text();
    const id = init.headers.get('mcp-session-id');
    if (init.status !== 200 || id === null) return init.status;
    await (await post(token, { jsonrpc: '2.0', method: 'notifications/initialized' }, id)).text();
    return id;
  }

  /** A call that stays in flight for `ms`: the session is busy meanwhile. */
  const hold = (token: string, sessionId: string, ms: number) =>
    post(token, { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'fx__slow', arguments: { ms, steps: 1 } } }, sessionId).then((r) => r.text());

  const alive = async (token: string, sessionId: string) => (await post(token, { jsonrpc: '2.0', id: 1, method: 'ping' }, sessionId)).status === 200;

  it('at its share, a token’s least recently active idle session makes room; busy ones are never taken', async () => {
    const first = String(await open(ALICE));
    const second = String(await open(ALICE));
    const third = String(await open(ALICE));
    // The first is the least recently active once the others have spoken.
    expect(await alive(ALICE, second)).toBe(true);
    expect(await alive(ALICE, third)).toBe(true);
    const fourth = await open(ALICE);
    expect(typeof fourth).toBe('string');
    expect(await alive(ALICE, first)).toBe(false);
    expect(await alive(ALICE, second)).toBe(true);
    expect(proxy.core.sessions.countOf('alice')).toBe(3);

    // All three busy: the next one is refused with 429, and nothing of alice's is lost.
    const held = [second, third, String(fourth)].map((id) => hold(ALICE, id, 5000));
    await waitFor(() => proxy.core.inflightRequests() >= 3, 5_000, 'three calls in flight');
    const refused = await post(ALICE, { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'x', version: '1' } } });
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toContain('Too many sessions for this token');

    // Another identity is not locked out by alice.
    const bobs = [await open(BOB), await open(BOB), await open(BOB)];
    for (const id of bobs) expect(typeof id).toBe('string');
    await Promise.all(held);
    expect(proxy.core.sessions.countOf('alice')).toBe(3);
  });

  it('at the total, the least recently active idle session of anyone makes room; 503 only when all are busy', async () => {
    // 6 sessions exist (3 alice, 3 bob), all idle now: carol gets one, someone's oldest idle one goes.
    expect(proxy.core.sessions.size).toBe(6);
    const carol = await open(CAROL);
    expect(typeof carol).toBe('string');
    expect(proxy.core.sessions.size).toBe(6);

    // Every session busy: now the total refuses, with 503.
    const tokens: Record<string, string> = { alice: ALICE, bob: BOB, carol: CAROL };
    const held = [...proxy.core.sessions.all()].map((session) => hold(tokens[session.principal]!, session.id, 5000));
    await waitFor(() => proxy.core.inflightRequests() >= 6, 5_000, 'six calls in flight');
    expect(await open(CAROL)).toBe(503);
    await Promise.all(held);
  });
});
