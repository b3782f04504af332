// Attacks inside (or against) Streamable HTTP sessions: GET streams and resumption, DELETE,
// valid-but-weird JSON-RPC, calls to both children, foreign Origins, and session churn.
import { FOREIGN_ORIGINS, LOOPBACK_ORIGINS, bodyMessages, routeOf, type Json } from '../lib/answers.js';
import { describe, type HttpSpec } from '../lib/http.js';
import { junkValue, lastEventId, tagText } from '../lib/junk.js';
import { sleep } from '../lib/time.js';
import { GARBAGE_TIMEOUT_MS, SERVERS } from '../options.js';
import { J, RPC_HEADERS, judge, keyOf, responses, type Expect, type Id } from '../judge.js';
import { call, newId } from '../messages.js';
import { rpcSpec, type Worker } from '../worker.js';

export async function attackGetStream(w: Worker): Promise<void> {
  const { ctx, rng } = w;
  const s = rng.chance(0.8) ? await w.session() : undefined;
  const headers: Record<string, string> = {};
  headers.accept = rng.weighted([['text/event-stream', 6], ['application/json', 1], ['*/*', 1], ['', 1]]);
  if (headers.accept === '') delete headers.accept;
  if (s !== undefined) {
    headers['mcp-session-id'] = rng.chance(0.9) ? s.id : rng.hex(22);
    headers['mcp-protocol-version'] = s.version;
    if (rng.chance(0.5)) headers['last-event-id'] = lastEventId(rng, s.streams);
  }
  const spec: HttpSpec = { method: 'GET', path: s?.path ?? rng.pick(['/mcp', '/s/fx/mcp']), headers, holdStreamMs: rng.int(20, 800) };
  const r = await ctx.client.request(spec);
  judge(ctx, 'http.get_stream', spec, r);
}

export async function attackDelete(w: Worker): Promise<void> {
  const { ctx, rng } = w;
  const pick = rng.int(0, 4);
  if (pick === 0 && w.sessions.length > 0) {
    const s = rng.pick(w.sessions);
    await w.deleteSession(s, 'http.delete');
    const again: HttpSpec = { method: 'DELETE', path: s.path, headers: { 'mcp-session-id': s.id } };
    judge(ctx, 'http.delete', again, await ctx.client.request(again), { status: [404] });
    // The deleted session is gone for every use.
    const after = rpcSpec(s, { jsonrpc: '2.0', id: 1, method: 'ping' });
    judge(ctx, 'http.delete', after, await ctx.client.request(after), { status: [404] });
    return;
  }
  const sid = rng.pick([rng.hex(22), '', 'x'.repeat(5000), ctx.sseSessionIds.length > 0 ? rng.pick(ctx.sseSessionIds) : 'none']);
  const headers: Record<string, string> = sid === '' ? {} : { 'mcp-session-id': sid };
  const spec: HttpSpec = { method: 'DELETE', path: rng.pick(['/mcp', '/s/fx/mcp', '/s/garbage/mcp']), headers };
  judge(ctx, 'http.delete', spec, await ctx.client.request(spec), { status: sid === '' ? [400] : [404] });
}

/** Valid-but-weird JSON-RPC inside a real session. */
export async function attackWeirdRpc(w: Worker): Promise<void> {
  const rng = w.rng;
  const s = await w.session();
  if (s === undefined) return;
  const id = newId(s, rng);
  const ids = new Set([keyOf(id)]);
  const req = (method: string, params?: unknown): Json => (params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params });
  const tool = s.fx !== undefined ? `${s.fx}echo` : `${s.garbage ?? ''}echo`;
  const junk = (): unknown => rng.pick<unknown>([42, 'x', null, true, [], [1, 2], { a: 1 }]);
  const cases: Array<() => [Json, Expect]> = [
    () => [req(rng.pick(['no/such/method', 'TOOLS/LIST', 'tools/list ', 'rpc.discover', '__proto__', 'constructor', 'toString', 'hasOwnProperty', '', 'sampling/createMessage', 'roots/list', 'notifications/initialized', 'x'.repeat(3000)])), { status: [200], code: -32601 }],
    () => [req('tools/call', { name: junk() }), { status: [200], code: -32602 }],
    () => [req('tools/call', { name: `${tool}x`, arguments: {} }), { status: [200], code: -32602 }],
    () => [req('tools/call'), { status: [200], code: -32602 }],
    () => [req('tools/call', { name: tool, arguments: junk() }), { status: [200] }],
    () => [req('tools/call', { name: tool, arguments: { text: junk() } }), { status: [200] }],
    () => [req('resources/read', { uri: rng.pick<unknown>([42, null, '', {}, []]) }), { status: [200], code: -32602 }],
    () => [req('resources/read', { uri: rng.pick(['fixture://fx/static', 'fixture://fx/item/%zz', 'file:///etc/passwd', 'x'.repeat(2000), '\u0000']) }), { status: [200] }],
    () => [req(rng.pick(['tools/list', 'prompts/list', 'resources/list', 'resources/templates/list']), { cursor: rng.pick<unknown>(['nope', 42, null, {}, 'bzo5OTk5OTk5OTk', '']) }), { status: [200], code: -32602 }],
    () => [req('logging/setLevel', { level: rng.pick<unknown>(['loud', 42, null, 'DEBUG', '']) }), { status: [200], code: -32602 }],
    () => [req('prompts/get', { name: rng.pick<unknown>([42, null, 'nope', 'fx__nope']) }), { status: [200], code: -32602 }],
    () => [req('completion/complete', { ref: rng.pick<unknown>([null, 'x', { type: 'ref/nope' }, { type: 'ref/prompt', name: 42 }]), argument: {} }), { status: [200], code: -32602 }],
    () => {
      const taskId = rng.pick<unknown>(['nope', 42, null, '__proto__', 'c1.task-1']);
      // 'c1.task-1' is another session's task unless the proxy handed this session that very id.
      const maybeOwn = typeof taskId === 'string' && s.tasks?.has(taskId) === true;
      return [req(rng.pick(['tasks/get', 'tasks/result', 'tasks/cancel']), { taskId }), maybeOwn ? { status: [200] } : { status: [200], code: -32602 }];
    },
    () => [req(rng.pick(['resources/subscribe', 'resources/unsubscribe']), { uri: rng.pick<unknown>([42, '', null]) }), { status: [200], code: -32602 }],
    () => [req('ping', junkValue(rng) as Json), { status: [200, 400] }],
    () => [{ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: rng.pick<unknown>([rng.int(1, 100), String(rng.int(1, 100)), null, {}, 'ctl-1']), reason: junk() } }, { status: [202] }],
    () => [{ jsonrpc: '2.0', method: rng.pick(['notifications/initialized', 'notifications/progress', 'notifications/roots/list_changed', 'notifications/nope', 'notifications/message']), params: { junk: junk() } }, { status: [202] }],
    // 400 too: a junk value of `undefined` serializes away, leaving `{jsonrpc, id}`, which is no message at all.
    () => [{ jsonrpc: '2.0', id: rng.pick<Id>([rng.int(1, 100), 'never-sent', 0]), result: junkValue(rng) }, { status: [202, 400] }],
    () => [{ jsonrpc: '2.0', id: rng.pick<Id>([rng.int(1, 100), 'never-sent']), error: { code: rng.int(-40000, 40000), message: 'x' } }, { status: [202] }],
    () => [{ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'client says parse error' } }, { status: [202] }],
  ];
  const [body, expect] = rng.pick(cases)();
  await w.rpc('http.weird_rpc', s, body, { ...expect, ids });
}

export async function attackGarbageCall(w: Worker): Promise<void> {
  const { ctx, rng } = w;
  const s = await w.session('garbage');
  if (s === undefined || s.garbage === undefined) return;
  const tools = ['echo', 'burst', 'stray', 'twice', 'batch', 'split', 'slow', 'notify', 'silent', 'huge', 'error', 'deep'].filter((t) => !ctx.options.excluded(`garbage.tool.${t}`));
  if (tools.length === 0) return;
  const tool = rng.pick(tools);
  const id = newId(s, rng);
  const text = tagText(rng, `g-w${w.index}`);
  const args: Json = { text };
  let expect: Expect = { ids: new Set([keyOf(id)]), status: [200] };
  const answers: Expect = { ...expect, answer: { id, text } };
  // A timeout, or -32603: the garbage child's stray responses reuse ids it already "answered", and
  // the answer to `huge` was an oversize line the proxy dropped, so a stray `{"id":n}` without a
  // result can land on that still-pending call first. Either way the caller gets exactly one error.
  const timesOut: Expect = { ...expect, answerError: { id, codes: [-32001, -32603] } };
  switch (tool) {
    case 'burst':
      args.n = rng.int(1, 50);
      expect = answers;
      break;
    case 'slow': {
      const ms = rng.chance(0.7) ? rng.int(0, 1200) : rng.int(GARBAGE_TIMEOUT_MS + 800, GARBAGE_TIMEOUT_MS + 2500);
      args.ms = ms;
      expect = ms < GARBAGE_TIMEOUT_MS ? answers : timesOut;
      break;
    }
    case 'silent':
    case 'huge':
      expect = timesOut;
      break;
    case 'error':
      break;
    case 'deep':
      args.depth = rng.int(1_000, 100_000);
      break;
    default:
      expect = answers;
  }
  const meta = rng.chance(0.4) ? { progressToken: rng.pick<Id>([rng.int(1, 50), `p-${rng.hex(6)}`]) } : undefined;
  await w.rpc('garbage.call', s, call(id, `${s.garbage}${tool}`, args, meta), expect);
}

export async function attackFxCall(w: Worker): Promise<void> {
  const { ctx, rng } = w;
  const s = await w.session('fx');
  if (s === undefined || s.fx === undefined) return;
  const fx = s.fx;
  const id = newId(s, rng);
  const ids = new Set([keyOf(id)]);
  const pick = rng.int(0, 12);
  if (pick === 0) {
    // Hang, then cancel: the request stream must end at once, with no answer.
    const hang = rpcSpec(s, call(id, `${fx}hang`, {}));
    s.streams += 1;
    const pending = ctx.client.request(hang);
    let finished = false;
    void pending.then(() => (finished = true));
    for (let attempt = 0; attempt < 3 && !finished; attempt++) {
      await sleep(attempt === 0 ? rng.int(30, 300) : 2000);
      if (!finished) await w.rpc('fx.hang_cancel', s, { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: 'fuzz' } }, { status: [202] });
    }
    const r = await pending;
    judge(ctx, 'fx.hang_cancel', hang, r, { ids, status: [200, 204] });
    if (responses(bodyMessages(String(r.headers['content-type'] ?? ''), r.body).messages).length > 0 && ctx.proxy.exited === undefined) {
      ctx.stats.note('a cancelled request was answered anyway (allowed, but unusual)', describe(hang));
    }
    return;
  }
  if (pick === 1) {
    // The same id twice at once: the second is refused while the first is in flight.
    const first = rpcSpec(s, call(id, `${fx}slow`, { ms: rng.int(300, 800) }));
    s.streams += 1;
    const p = ctx.client.request(first);
    await sleep(100);
    await w.rpc('fx.same_id', s, call(id, `${fx}echo`, { text: 'dup' }), { ids, status: [400, 200] });
    judge(ctx, 'fx.same_id', first, await p, { ids, status: [200] });
    return;
  }
  if (pick === 2) {
    const name = `fz_${w.index}_${rng.hex(6)}`;
    await w.rpc('fx.call', s, call(id, `${fx}add_tool`, { name }), { ids, status: [200] });
    await sleep(rng.int(0, 100));
    const id2 = newId(s, rng);
    await w.rpc('fx.call', s, call(id2, `${fx}remove_tool`, { name }), { ids: new Set([keyOf(id2)]), status: [200] });
    return;
  }
  const text = tagText(rng, `fx-w${w.index}`);
  const cases: Array<() => [Json, Expect]> = [
    () => [call(id, `${fx}echo`, { text }), { ids, status: [200], answer: { id, text } }],
    () => [call(id, `${fx}echo`, { text: junkValue(rng) }), { ids, status: [200] }],
    () => [call(id, `${fx}whoami`, {}), { ids, status: [200] }],
    () => [call(id, `${fx}big`, { bytes: rng.int(0, 200_000) }), { ids, status: [200] }],
    () => [call(id, `${fx}structured`, {}), { ids, status: [200] }],
    () => [call(id, `${fx}log`, { level: rng.pick(['debug', 'info', 'emergency', 'bogus']), message: text }), { ids, status: [200] }],
    () => [call(id, `${fx}touch`, { uri: rng.pick(['fixture://fx/static', 'x']) }), { ids, status: [200] }],
    () => [call(id, `${fx}slow`, { ms: rng.int(0, 1500), steps: rng.int(1, 5) }, { progressToken: rng.pick<Id>([rng.int(1, 9), 'tok', rng.int(1e6, 1e9)]) }), { ids, status: [200] }],
    () => {
      return [{ jsonrpc: '2.0', id, method: 'tools/call', params: { name: `${fx}echo`, arguments: { text }, task: { ttl: rng.int(1, 60000) } } }, { ids, status: [200] }];
    },
    () => [{ jsonrpc: '2.0', id, method: 'resources/read', params: { uri: rng.pick(['fixture://fx/static', `fixture://fx/item/${rng.hex(4)}`, 'fixture://fx/item/']) } }, { ids, status: [200] }],
    () => [{ jsonrpc: '2.0', id, method: 'prompts/get', params: { name: fx === '' ? 'greet' : 'fx__greet', arguments: rng.pick<unknown>([{ name: 'bob' }, {}, null, 'x']) } }, { ids, status: [200] }],
    () => [{ jsonrpc: '2.0', id, method: rng.pick(['resources/subscribe', 'resources/unsubscribe']), params: { uri: 'fixture://fx/static' } }, { ids, status: [200] }],
  ];
  const [body, expect] = rng.pick(cases)();
  const r = await w.rpc('fx.call', s, body, expect);
  // A task-augmented call answers with the task's id as this session knows it.
  if (JSON.stringify(body).includes('"task":')) for (const m of r.body.matchAll(/"taskId":"([^"]{1,200})"/g)) (s.tasks ??= new Set()).add(m[1]!);
}

export async function attackResume(w: Worker): Promise<void> {
  const { ctx, rng } = w;
  const s = await w.session();
  if (s === undefined) return;
  const id = newId(s, rng);
  const useGarbage = s.garbage !== undefined && (s.fx === undefined || rng.chance(0.5)) && !ctx.options.excluded('garbage.tool.slow');
  const name = useGarbage ? `${s.garbage}slow` : `${s.fx ?? ''}slow`;
  const ms = rng.int(200, 1500);
  const meta = rng.chance(0.5) ? { progressToken: rng.int(1, 100) } : undefined;
  const first = rpcSpec(s, call(id, name, { text: 'r', ms }, meta), rng.chance(0.3) ? { accept: 'application/json' } : {});
  s.streams += 1;
  const p = ctx.client.request(first);
  await sleep(rng.int(10, 300));
  const get: HttpSpec = {
    method: 'GET', path: s.path,
    headers: { accept: 'text/event-stream', 'mcp-session-id': s.id, 'mcp-protocol-version': s.version, 'last-event-id': lastEventId(rng, s.streams) },
    holdStreamMs: ms + 500,
  };
  const [r1, r2] = await Promise.all([p, ctx.client.request(get)]);
  judge(ctx, 'http.resume', first, r1, { ids: new Set([keyOf(id)]) });
  judge(ctx, 'http.resume', get, r2);
}

export async function attackOrigin(w: Worker): Promise<void> {
  const { ctx, rng } = w;
  const origin = rng.chance(0.7) ? rng.pick(FOREIGN_ORIGINS) : rng.pick(LOOPBACK_ORIGINS);
  const s = rng.chance(0.5) ? await w.session() : undefined;
  const target = rng.pick(['/mcp', '/sse', '/ws', '/s/fx/mcp', '/messages?sessionId=x', '/nope', '/healthz']);
  const method = rng.pick(['GET', 'POST', 'OPTIONS', 'DELETE']);
  const headers: Record<string, string> = { ...RPC_HEADERS, origin };
  if (s !== undefined && target === s.path) headers['mcp-session-id'] = s.id;
  const spec: HttpSpec = { method, path: target, headers, holdStreamMs: 100, ...(method === 'POST' ? { body: J({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'evil', version: '0' } } }) } : {}) };
  const r = await ctx.client.request(spec);
  judge(ctx, 'http.origin', spec, r);
  const sid = r.headers['mcp-session-id'];
  if (typeof sid === 'string') ctx.liveHttpSessions.set(sid, target);
  if (method === 'DELETE' && r.status === 200 && s !== undefined && target === s.path) {
    w.forget(s);
  }
}

export async function attackSessionChurn(w: Worker): Promise<void> {
  const { ctx, rng } = w;
  const params = rng.pick<unknown>([
    undefined, {}, { protocolVersion: rng.pick<unknown>([42, null, '', '1999-01-01', '2026-07-28', ['2025-06-18'], 'x'.repeat(1000)]) },
    { protocolVersion: '2025-06-18', capabilities: junkValue(rng), clientInfo: junkValue(rng) },
    { protocolVersion: '2025-03-26', capabilities: { sampling: junkValue(rng), roots: { listChanged: 'yes' } } },
  ]);
  const path = rng.pick(['/mcp', '/s/fx/mcp', '/s/garbage/mcp', '/s/nope/mcp']);
  const body: Json = params === undefined ? { jsonrpc: '2.0', id: 0, method: 'initialize' } : { jsonrpc: '2.0', id: 0, method: 'initialize', params };
  const spec: HttpSpec = { method: 'POST', path, headers: { ...RPC_HEADERS }, body: J(body) };
  const r = await ctx.client.request(spec);
  judge(ctx, 'http.session_churn', spec, r, { ids: new Set([keyOf(0)]), ...(routeOf(path, SERVERS) === 'none' ? { status: [404] } : { status: [200] }) });
  const sid = r.headers['mcp-session-id'];
  if (typeof sid !== 'string') return;
  if (rng.chance(0.6)) {
    const del: HttpSpec = { method: 'DELETE', path, headers: { 'mcp-session-id': sid } };
    judge(ctx, 'http.session_churn', del, await ctx.client.request(del), { status: [200] });
  } else {
    ctx.liveHttpSessions.set(sid, path);
  }
}

