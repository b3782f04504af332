// A chaos session: a Streamable HTTP session, initialized, with its standalone GET stream open
// (notifications may come there, responses never).
import { INITIALIZED } from '../bench-lib.js';
import { isResponse, openGetStream, postRpc, type GetStream } from '../chaos-lib.js';
import type { RunContext } from './context.js';
import { makeId } from './ids.js';

export interface Session {
  k: number;
  headers: Record<string, string>;
  get?: GetStream;
}

export async function openSession(ctx: RunContext, k: number): Promise<Session> {
  const url = `${ctx.proxy.base}/mcp`;
  const id = makeId(k, 0);
  const init = await postRpc(url, {}, JSON.stringify({
    jsonrpc: '2.0', id, method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'switchboard-chaos', version: '1.0.0' } },
  }), id, 10_000);
  const sid = init.headers['mcp-session-id'];
  if (init.status !== 200 || typeof sid !== 'string' || init.msg?.id !== id || !init.msg.result) {
    throw new Error(`session ${k}: initialize: HTTP ${init.status} ${JSON.stringify(init.msg)}`);
  }
  const headers = { 'mcp-session-id': sid, 'mcp-protocol-version': init.msg.result.protocolVersion ?? '2025-06-18' };
  const done = await postRpc(url, headers, INITIALIZED, null, 10_000);
  if (done.status !== 202) throw new Error(`session ${k}: notifications/initialized: HTTP ${done.status}`);
  const session: Session = { k, headers };
  // The standalone GET stream: notifications may come here, responses never.
  session.get = await openGetStream(url, headers, (msg) => {
    if (!isResponse(msg)) {
      ctx.stats.getNotifications++;
      if (msg.method === 'notifications/tools/list_changed') ctx.stats.listChanged++;
      return;
    }
    ctx.stats.responseOnGetStream(`session ${k} got a response on its GET stream: ${ctx.ids.describe(msg.id)}`);
  });
  return session;
}

/** Opens sessions 0..n-1, ten at a time. */
export async function openSessions(ctx: RunContext, n: number): Promise<Session[]> {
  const sessions: Session[] = [];
  for (let k = 0; k < n; k += 10) {
    sessions.push(...(await Promise.all(Array.from({ length: Math.min(10, n - k) }, (_, i) => openSession(ctx, k + i)))));
  }
  return sessions;
}
