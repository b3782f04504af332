// Random Authorization headers and borrowed session ids against a proxy with tokens: nothing but
// the exact token of the session's own identity ever gets through, and the proxy keeps serving.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { RunningSwitchboard } from '../../src/index.js';
import { ACCEPT_BOTH, PROTOCOL_VERSION, fixture, startProxy } from './helpers.js';
import { prng } from '../prng.js';

const OWNER = `owner-${randomBytes(18).toString('base64url')}`;
const OTHER = `other-${randomBytes(18).toString('base64url')}`;
const ROUNDS = 400;

/** An Authorization value that is anything but `Bearer <OWNER>`: near misses first among them. */
function hostileHeader(random: () => number): string {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const flip = (s: string): string => {
    const i = Math.floor(random() * s.length);
    return s.slice(0, i) + String.fromCharCode(s.charCodeAt(i) ^ 1) + s.slice(i + 1);
  };
  return pick<() => string>([
    () => `Bearer ${flip(OWNER)}`,
    () => `Bearer ${OWNER.slice(0, -1)}`,
    () => `Bearer ${OWNER}x`,
    () => `Bearer ${OWNER.toUpperCase()}`,
    () => `Basic ${Buffer.from(`user:${OWNER}`).toString('base64')}`,
    () => `Bearer`,
    () => `Bearer  `,
    () => `Token ${OWNER}`,
    () => `${OWNER}`,
    () => `Bearer ${OWNER},Bearer ${OTHER}`,
    () => `Bearer ${'A'.repeat(5000 + Math.floor(random() * 5000))}`,
    () => `Bearer ${OWNER}\u00e9`,
    () => `Bearer ${randomBytes(24).toString('base64')}`,
    () => `bearer ${flip(OTHER)}`,
  ])();
}

function post(port: number, headers: Record<string, string>, body: unknown): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: '/mcp', method: 'POST', headers: { 'content-type': 'application/json', accept: ACCEPT_BOTH, ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

describe('authorization under random headers', () => {
  let proxy: RunningSwitchboard;
  let port: number;
  let ownerSession: string;
  const call = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'fx__echo', arguments: { text: `call ${id}` } } });

  beforeAll(async () => {
    proxy = await startProxy(
      { mcpServers: { fx: fixture('fx') }, auth: { tokens: [{ name: 'owner', tokenEnv: 'SB_FUZZ_OWNER' }, { name: 'other', tokenEnv: 'SB_FUZZ_OTHER' }] } },
      { env: { ...process.env, SB_FUZZ_OWNER: OWNER, SB_FUZZ_OTHER: OTHER } },
    );
    port = proxy.port;
    const init = await post(port, { authorization: `Bearer ${OWNER}` }, {
      jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'fuzz', version: '0' } },
    });
    ownerSession = init.headers['mcp-session-id'] as string;
    expect(ownerSession).toBeTruthy();
  });
  afterAll(async () => proxy?.close());

  it(`refuses ${ROUNDS} hostile headers (401 with a challenge, or 404 for a borrowed session) and keeps serving the owner`, async () => {
    const random = prng(0x5b1d);
    const statuses = new Map<number, number>();
    for (let round = 0; round < ROUNDS; round += 1) {
      // Half try to open a session, half reuse the owner's session id; every fifth uses the other real token.
      const borrowed = random() < 0.5;
      const authorization = random() < 0.2 ? `Bearer ${OTHER}` : hostileHeader(random);
      const headers: Record<string, string> = { authorization };
      if (borrowed) Object.assign(headers, { 'mcp-session-id': ownerSession, 'mcp-protocol-version': PROTOCOL_VERSION });
      const body = borrowed ? call(round + 1) : { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'x', version: '0' } } };
      const reply = await post(port, headers, body);
      statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1);
      const otherToken = authorization === `Bearer ${OTHER}`;
      if (otherToken && !borrowed) expect(reply.status).toBe(200); // a real token may open its own session
      else if (otherToken) expect(reply.status).toBe(404); // but never use the owner's
      else {
        expect(reply.status).toBe(401);
        expect(String(reply.headers['www-authenticate'])).toMatch(/^Bearer realm="mcp-switchboard"/);
        expect(reply.text).not.toContain(OWNER);
      }
      if (round % 50 === 0) {
        // The owner's session is untouched by all of it.
        const mine = await post(port, { authorization: `Bearer ${OWNER}`, 'mcp-session-id': ownerSession, 'mcp-protocol-version': PROTOCOL_VERSION }, call(10_000 + round));
        expect(mine.status).toBe(200);
        expect(mine.text).toContain(`call ${10_000 + round}`);
      }
    }
    expect(statuses.get(401)).toBeGreaterThan(ROUNDS / 2);
    expect(statuses.get(404)).toBeGreaterThan(0);
  });
});
