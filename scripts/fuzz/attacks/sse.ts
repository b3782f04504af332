// Attacks on legacy SSE sessions (GET /sse, then POSTs to its endpoint): malformed and valid
// messages, wrong sessions, oversized bodies; and a reader that stops reading.
import { FOREIGN_ORIGINS, LOOPBACK_ORIGINS, isJsonRpcMessage, isLoopbackOrigin, type Json } from '../lib/answers.js';
import { describe, type HttpResult, type HttpSpec } from '../lib/http.js';
import { now, sleep } from '../lib/time.js';
import { DEADLINE_MS, MAX_BODY_BYTES } from '../options.js';
import { J, judge, type Expect, type Id } from '../judge.js';
import { call, type ToolTarget } from '../messages.js';
import { openSse } from '../open-sse.js';
import { Book, streamMessage } from '../stream-book.js';
import type { Worker } from '../worker.js';

export async function attackSse(w: Worker): Promise<void> {
  const { ctx, rng } = w;
  const path = rng.pick(['/sse', '/sse', '/s/fx/sse', '/s/garbage/sse']);
  const headers: Record<string, string> = rng.chance(0.1) ? { origin: rng.pick([...FOREIGN_ORIGINS, ...LOOPBACK_ORIGINS]) } : {};
  if (rng.chance(0.2)) headers.accept = rng.pick(['text/event-stream', 'application/json', '*/*']);
  const sse = await openSse(ctx.proxy.port, path, headers);
  const kind = 'sse.session';
  const origin = headers.origin;
  ctx.stats.record(kind, sse.status === -2 ? 'hang' : String(sse.status));
  if (ctx.proxy.exited !== undefined) return;
  const openSpec: HttpSpec = { method: 'GET', path, headers };
  if (sse.status === -2) ctx.stats.violation('hang', kind, `no endpoint event within ${DEADLINE_MS} ms: ${describe(openSpec)}`);
  if (sse.status >= 500) ctx.stats.violation('http_5xx', kind, describe(openSpec));
  if (origin !== undefined && !isLoopbackOrigin(origin) && sse.status !== 403) ctx.stats.violation('foreign_origin_accepted', kind, `${origin} -> ${sse.status}`);
  if (sse.endpoint === undefined) {
    sse.req.destroy();
    return;
  }
  const endpoint = sse.endpoint;
  const sessionId = new URLSearchParams(endpoint.slice(endpoint.indexOf('?') + 1)).get('sessionId') ?? '';
  ctx.sseSessionIds.push(sessionId);
  if (ctx.sseSessionIds.length > 50) ctx.sseSessionIds.shift();
  const t: ToolTarget = path === '/sse' ? { fx: 'fx__', garbage: 'garbage__', next: 1 } : path === '/s/fx/sse' ? { fx: '', garbage: undefined, next: 1 } : { fx: undefined, garbage: '', next: 1 };
  const context = (): string => `SSE session on ${path}`;
  const postTo = async (body: Buffer | string, expect: Expect, url = endpoint, method = 'POST'): Promise<HttpResult> => {
    const spec: HttpSpec = { method, path: url, headers: { 'content-type': 'application/json' }, body };
    book.wrote(`${method} ${url === endpoint ? '' : url + ' '}${Buffer.isBuffer(body) ? `<${body.length} bytes>` : body}`);
    const r = await ctx.client.request(spec);
    judge(ctx, 'sse.post', spec, r, expect);
    return r;
  };
  const book = new Book(ctx, kind, rng, (text) => void postTo(text, { status: [202] }), context);
  sse.onMessage((data) => book.receive(data));
  // initialize first, mostly; a client that skips it is fuzz too.
  if (rng.chance(0.85)) {
    book.expect(0, 'initialize');
    await postTo(J({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2024-11-05', capabilities: rng.chance(0.5) ? { sampling: {}, elicitation: {} } : {}, clientInfo: { name: 'fuzz-sse', version: '0' } } }), { status: [202] });
    await postTo(J({ jsonrpc: '2.0', method: 'notifications/initialized' }), { status: [202] });
  }
  const steps = rng.int(3, 15);
  for (let i = 0; i < steps && !ctx.stopping() && !sse.closed(); i++) {
    const action = rng.int(0, 9);
    if (action <= 5) {
      const m = streamMessage(rng, t, `sse-w${w.index}`, 'sse', ctx.options.excluded);
      let parses = true;
      let parsed: unknown;
      try {
        parsed = JSON.parse(m.text);
      } catch {
        parses = false;
      }
      if (!parses) {
        await postTo(m.text, { status: [400], code: -32700 });
        continue;
      }
      // A single invalid message is refused on the POST itself; inside a batch, on the stream.
      if (!Array.isArray(parsed) && m.expectId === undefined && m.label.startsWith('bad envelope')) {
        await postTo(m.text, { status: [400], code: -32600 });
        continue;
      }
      if (m.label === 'bad envelope') {
        await postTo(m.text, { status: [400], code: [-32600, -32602] });
        continue;
      }
      // Expected before the POST: answers can come on the stream before its 202 does.
      const ids: Id[] = [];
      let nullErrors = 0;
      if (m.expectId !== undefined) {
        book.expect(m.expectId, m.label, m.check);
        ids.push(m.expectId);
      }
      if (Array.isArray(parsed)) {
        for (const item of parsed) {
          const id = (item as Json | null)?.id;
          if (isJsonRpcMessage(item) && typeof item.method === 'string' && (typeof id === 'string' || typeof id === 'number')) {
            book.expect(id, 'batch item');
            ids.push(id);
          } else nullErrors += 1;
        }
      }
      book.nullErrorsExpected += nullErrors;
      const r = await postTo(m.text, { status: [202] });
      if (r.status !== 202) {
        // Not accepted (judged above): nothing of it is owed on the stream.
        for (const id of ids) book.cancel(id);
        book.nullErrorsExpected -= nullErrors;
      }
    } else if (action === 6) {
      // The wrong session, in every way.
      const other = rng.pick([rng.hex(22), '', `${sessionId}x`, ctx.liveHttpSessions.size > 0 ? rng.pick([...ctx.liveHttpSessions.keys()]) : 'x', '%zz']);
      const url = rng.pick([`/messages?sessionId=${encodeURIComponent(other)}`, `/messages?sessionId=${other}`, '/messages', `/s/fx/messages?sessionId=${encodeURIComponent(sessionId)}`, `/messages?sessionid=${sessionId}`]);
      const routedToThis = url.endsWith(`sessionId=${encodeURIComponent(sessionId)}`) && endpoint.startsWith(url.slice(0, url.indexOf('?')));
      if (!routedToThis) await postTo(J({ jsonrpc: '2.0', id: 1, method: 'ping' }), { status: [400, 404] }, url);
    } else if (action === 7) {
      await postTo(J([]), { status: [400], code: -32600 });
    } else if (action === 8) {
      const size = MAX_BODY_BYTES + rng.int(1, MAX_BODY_BYTES);
      await postTo(Buffer.alloc(size, 0x20), { status: [413], allowReset: true });
    } else {
      await postTo(J({ jsonrpc: '2.0', id: 1, method: 'ping' }), { status: [405] }, endpoint, rng.pick(['GET', 'PUT', 'DELETE', 'PATCH']));
    }
  }
  await book.settle(() => !sse.closed());
  if (sse.closed() && ctx.proxy.exited === undefined) ctx.stats.note('an SSE attack stream was closed by the proxy', context());
  sse.req.destroy();
  sse.res?.destroy();
}

/** An SSE client that stops reading while its answers pile up; the proxy must cut it loose, and live. */
export async function attackStuckReader(w: Worker): Promise<void> {
  const { ctx } = w;
  const stuck = ctx.stuckReader;
  if (stuck.running || now() - stuck.lastStart < 40_000 || ctx.remainingMs() < 20_000) return;
  stuck.running = true;
  stuck.lastStart = now();
  try {
    const sse = await openSse(ctx.proxy.port, '/sse', {});
    ctx.stats.record('sse.stuck_reader', String(sse.status));
    if (sse.endpoint === undefined || sse.res === undefined) return;
    sse.res.pause();
    const endpoint = sse.endpoint;
    await ctx.client.request({ method: 'POST', path: endpoint, headers: { 'content-type': 'application/json' }, body: J({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 'stuck', version: '0' } } }) });
    const started = now();
    let posted = 0;
    for (let i = 0; i < 220 && !ctx.stopping(); i++) {
      const spec: HttpSpec = { method: 'POST', path: endpoint, headers: { 'content-type': 'application/json' }, body: J(call(i + 1, 'fx__big', { bytes: 190_000 })) };
      const r = await ctx.client.request(spec);
      judge(ctx, 'sse.stuck_reader', spec, r, { status: [202, 404] });
      posted += 1;
      if (r.status === 404) break; // the proxy already closed the session
    }
    ctx.log(`stuck reader: ${posted} big calls posted in ${Math.round(now() - started)} ms; holding the stream unread for 17 s`);
    while (!ctx.stopping() && now() - started < 17_000) await sleep(200);
    ctx.stats.record('sse.stuck_reader', sse.closed() ? 'closed-by-proxy' : 'still-open');
    sse.res.destroy();
    sse.req.destroy();
  } finally {
    stuck.running = false;
  }
}
