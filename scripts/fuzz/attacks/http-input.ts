// Attacks on Streamable HTTP with malformed input: broken JSON and envelopes, batches, deep
// nesting, oversized bodies, invalid UTF-8, odd headers, methods, paths and lengths.
import { FOREIGN_ORIGINS, LOOPBACK_ORIGINS, bodyMessages, jsonRpcError, type Json } from '../lib/answers.js';
import { describe, type HttpSpec } from '../lib/http.js';
import { badEnvelope, deepJson, invalidJson, invalidUtf8, junkValue, randomPath } from '../lib/junk.js';
import { MAX_BODY_BYTES } from '../options.js';
import { J, RPC_HEADERS, echoProblem, judge, keyOf, responses, type Expect, type Id } from '../judge.js';
import { newId, validRequest } from '../messages.js';
import { SCOPES, rpcSpec, type Worker } from '../worker.js';

export async function attackInvalidJson(w: Worker): Promise<void> {
  const { ctx, rng } = w;
  const body = invalidJson(rng);
  let parses = true;
  try {
    JSON.parse(body.toString('utf8'));
  } catch {
    parses = false;
  }
  const s = rng.chance(0.6) ? await w.session() : undefined;
  const spec: HttpSpec = s !== undefined ? rpcSpec(s, body) : { method: 'POST', path: rng.pick(['/mcp', '/s/fx/mcp', '/s/garbage/mcp']), headers: { ...RPC_HEADERS }, body };
  spec.fresh = rng.chance(0.2);
  const r = await ctx.client.request(spec);
  judge(ctx, 'http.invalid_json', spec, r, parses ? {} : { status: [400], code: -32700 });
}

export async function attackBadEnvelope(w: Worker): Promise<void> {
  const { ctx, rng } = w;
  const s = rng.chance(0.6) ? await w.session() : undefined;
  const { body, code } = badEnvelope(rng, rng.int(1, 1000));
  const spec: HttpSpec = s !== undefined ? rpcSpec(s, J(body)) : { method: 'POST', path: '/mcp', headers: { ...RPC_HEADERS }, body: J(body) };
  const r = await ctx.client.request(spec);
  judge(ctx, 'http.bad_envelope', spec, r, { status: [400], ...(code === undefined ? {} : { code }) });
}

export async function attackBatch(w: Worker): Promise<void> {
  const { ctx, rng } = w;
  const s = rng.chance(0.9) ? await w.session() : undefined;
  const items: unknown[] = [];
  const wanted: Array<{ id: Id; expect: Pick<Expect, 'answer' | 'answerError'> }> = [];
  const n = rng.weighted([[0, 1], [rng.int(1, 5), 6], [rng.int(6, 60), 2], [rng.int(200, 2000), 1]]);
  const scope = s ?? { fx: 'fx__', garbage: 'garbage__', next: 1 };
  for (let i = 0; i < n; i++) {
    const pick = rng.int(0, 9);
    if (pick < 5) {
      const v = validRequest(rng, scope, `batch-w${w.index}`, ctx.options.excluded);
      items.push(v.body);
      wanted.push({ id: v.id, expect: v.expect });
    } else if (pick === 5) items.push({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: rng.int(1, 100) } });
    else if (pick === 6) items.push(junkValue(rng));
    else if (pick === 7) items.push(badEnvelope(rng, 1e6 + scope.next++).body);
    else if (pick === 8) items.push([{ jsonrpc: '2.0', id: 1e7 + scope.next++, method: 'ping' }]);
    else items.push({ jsonrpc: '2.0', id: 2e7 + scope.next++, result: {} });
  }
  const body = J(items);
  if (Buffer.byteLength(body) > MAX_BODY_BYTES) return;
  const spec: HttpSpec = s !== undefined ? rpcSpec(s, body) : { method: 'POST', path: '/mcp', headers: { ...RPC_HEADERS }, body };
  if (s !== undefined) s.streams += 1;
  const r = await ctx.client.request(spec);
  const ids = new Set(items.flatMap((item) => (typeof item === 'object' && item !== null && 'id' in item ? [keyOf((item as Json).id)] : [])));
  const batching = s !== undefined && s.version === '2025-03-26' && items.length > 0;
  judge(ctx, 'http.batch', spec, r, { ids, ...(batching ? { status: [200, 202] } : { status: [400], code: -32600 }) });
  if (!batching || r.status !== 200 || ctx.proxy.exited !== undefined) return;
  const got = responses(bodyMessages(String(r.headers['content-type'] ?? ''), r.body).messages);
  for (const { id, expect } of wanted) {
    const mine = got.filter((m) => m.id === id);
    if (mine.length !== 1) {
      ctx.stats.violation(mine.length === 0 ? 'batch_unanswered' : 'answered_twice', 'http.batch', `${mine.length} answers for id ${J(id)} in a batch of ${items.length}: ${describe(spec)}`);
      continue;
    }
    if (expect.answer !== undefined) {
      const problem = echoProblem(mine[0], expect.answer.id, expect.answer.text);
      if (problem !== null) ctx.stats.violation('wrong_answer', 'http.batch', `${problem} in a batch: ${describe(spec)}`);
    }
    if (expect.answerError !== undefined && !expect.answerError.codes.includes(jsonRpcError(mine[0])?.code ?? 0)) {
      ctx.stats.violation('wrong_error_code', 'http.batch', `wanted ${expect.answerError.codes.join('/')} for ${J(id)}, got ${J(mine[0]).slice(0, 200)}`);
    }
  }
}

export async function attackNested(w: Worker): Promise<void> {
  const rng = w.rng;
  const depth = rng.weighted([[rng.int(100, 2000), 1], [rng.int(5_000, 20_000), 3], [rng.int(20_000, 120_000), 2]]);
  const deep = deepJson(depth, rng.chance(0.5) ? 'array' : 'object');
  const s = await w.session();
  if (s === undefined) return;
  const id = newId(s, rng);
  const tool = s.fx !== undefined ? `${s.fx}echo` : `${s.garbage ?? ''}echo`;
  const shape = rng.int(0, 5);
  const body = [
    deep,
    `{"jsonrpc":"2.0","id":${J(id)},"method":"tools/call","params":{"name":${J(tool)},"arguments":{"text":"n","x":${deep}}}}`,
    `{"jsonrpc":"2.0","id":${J(id)},"method":"ping","params":{"x":${deep}}}`,
    `{"jsonrpc":"2.0","id":${deep},"method":"ping"}`,
    `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1,"reason":${deep}}}`,
    `{"jsonrpc":"2.0","id":${J(id)},"method":"tools/call","params":{"name":${J(tool)},"arguments":{"text":"n"},"_meta":{"progressToken":1,"x":${deep}}}}`,
  ][shape] as string;
  if (Buffer.byteLength(body) > MAX_BODY_BYTES) return;
  await w.rpc('http.nested', s, body, { ids: new Set([keyOf(id)]) });
}

export async function attackHugeBody(w: Worker): Promise<void> {
  const { ctx, rng } = w;
  const edge = rng.chance(0.3);
  const s = rng.chance(0.7) ? await w.session() : undefined;
  if (edge) {
    // Exactly at the limit is accepted; one byte over is refused with 413.
    const over = rng.chance(0.5);
    const id = s !== undefined ? newId(s, rng) : 1;
    const head = `{"jsonrpc":"2.0","id":${J(id)},"method":"ping","params":{"pad":"`;
    const tail = '"}}';
    const size = MAX_BODY_BYTES + (over ? 1 : 0);
    const body = head + 'p'.repeat(size - Buffer.byteLength(head) - tail.length) + tail;
    const spec: HttpSpec = s !== undefined ? rpcSpec(s, body) : { method: 'POST', path: '/mcp', headers: { ...RPC_HEADERS }, body };
    spec.chunked = rng.chance(0.3);
    if (s !== undefined && !over) s.streams += 1;
    const r = await ctx.client.request(spec);
    const expect: Expect = over ? { status: [413], code: -32600, allowReset: true } : s !== undefined ? { status: [200], ids: new Set([keyOf(id)]) } : { status: [400] };
    judge(ctx, 'http.huge_body', spec, r, expect);
    return;
  }
  const size = MAX_BODY_BYTES + rng.int(1, 3 * MAX_BODY_BYTES);
  const body = rng.chance(0.5) ? Buffer.alloc(size, 0x20) : Buffer.from(`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"${'y'.repeat(size)}"}}`);
  const spec: HttpSpec = s !== undefined ? rpcSpec(s, body) : { method: 'POST', path: rng.pick(['/mcp', '/s/fx/mcp']), headers: { ...RPC_HEADERS }, body };
  spec.chunked = rng.chance(0.5);
  const r = await ctx.client.request(spec);
  judge(ctx, 'http.huge_body', spec, r, { status: [413], code: -32600, allowReset: true });
}

export async function attackUtf8(w: Worker): Promise<void> {
  const { ctx, rng } = w;
  const s = await w.session();
  if (s === undefined) return;
  const id = newId(s, rng);
  const bad = invalidUtf8(rng);
  const tool = s.fx !== undefined ? `${s.fx}echo` : `${s.garbage ?? ''}echo`;
  const inString = rng.chance(0.6);
  const body = inString
    ? Buffer.concat([Buffer.from(`{"jsonrpc":"2.0","id":${J(id)},"method":"tools/call","params":{"name":${J(tool)},"arguments":{"text":"u`), bad, Buffer.from('"}}}')])
    : Buffer.concat([Buffer.from(`{"jsonrpc":"2.0","id":${J(id)},"method":"ping"`), bad, Buffer.from('}')]);
  if (inString) s.streams += 1;
  const spec = rpcSpec(s, body);
  const r = await ctx.client.request(spec);
  // Inside a string the bytes decode to U+FFFD and the echo must carry exactly that.
  const text = 'u' + bad.toString('utf8');
  judge(ctx, 'http.utf8', spec, r, inString ? { status: [200], answer: { id, text }, ids: new Set([keyOf(id)]) } : { status: [400], code: -32700 });
}

export async function attackHeaders(w: Worker): Promise<void> {
  const { ctx, rng } = w;
  const s = await w.session();
  if (s === undefined) return;
  const headers: Record<string, string> = { ...RPC_HEADERS, 'mcp-session-id': s.id, 'mcp-protocol-version': s.version };
  const mutations = rng.int(1, 3);
  for (let i = 0; i < mutations; i++) {
    switch (rng.int(0, 6)) {
      case 0: {
        const ct = rng.pick(['', 'text/plain', 'application/jsonx', 'Application/JSON', 'application/json; charset=utf-16', 'multipart/form-data; boundary=x', 'application/x-www-form-urlencoded', '*/*', 'application/json, text/plain']);
        if (ct === '') delete headers['content-type'];
        else headers['content-type'] = ct;
        break;
      }
      case 1: {
        const accept = rng.pick(['', 'text/html', 'application/json', 'text/event-stream', '*/*', 'application/*', 'image/png', 'text/event-stream;q=0, application/json;q=0', 'x'.repeat(3000)]);
        if (accept === '') delete headers.accept;
        else headers.accept = accept;
        break;
      }
      case 2: {
        const other = rng.chance(0.5) && ctx.sseSessionIds.length > 0 ? rng.pick(ctx.sseSessionIds) : undefined;
        const sid = other ?? rng.pick([rng.hex(22), '', ' ', 'x'.repeat(rng.int(100, 8000)), s.id + 'x', s.id.toUpperCase(), '../' + s.id, '%00', 'null']);
        if (sid === '') delete headers['mcp-session-id'];
        else headers['mcp-session-id'] = sid;
        break;
      }
      case 3:
        headers['mcp-protocol-version'] = rng.pick(['1999-01-01', '', '2025-06-18, 2025-03-26', '2026-07-28', 'x'.repeat(500), 'DRAFT-2026-v1']);
        break;
      case 4:
        headers.origin = rng.chance(0.6) ? rng.pick(FOREIGN_ORIGINS) : rng.pick(LOOPBACK_ORIGINS);
        break;
      case 5:
        headers.host = rng.pick(['evil.example', '127.0.0.1.evil.example', `localhost:${ctx.proxy.port}`, `127.0.0.1:${ctx.proxy.port}`, '[::1]', 'LOCALHOST', '127.0.0.2']);
        break;
      default:
        headers[rng.pick(['x-junk', 'last-event-id', 'authorization', 'cookie', 'expect', 'te'])] = rng.pick(['x', 'Bearer ' + rng.hex(40), '100-continue', 'trailers', 'x'.repeat(2000)]);
    }
  }
  // A session opened on another scope is as unknown on this one.
  const path = rng.chance(0.15) ? rng.pick(SCOPES).path : s.path;
  const id = newId(s, rng);
  const spec: HttpSpec = { method: 'POST', path, headers, body: J({ jsonrpc: '2.0', id, method: 'ping' }) };
  const r = await ctx.client.request(spec);
  judge(ctx, 'http.headers', spec, r, { ids: new Set([keyOf(id)]) });
  if (r.status === 415 && /^application\/json/i.test(headers['content-type'] ?? '') && !(headers['content-type'] ?? '').includes('application/json')) {
    ctx.stats.note('media type matched case-sensitively (RFC 9110: case-insensitive)', describe(spec));
  }
}

export async function attackMethods(w: Worker): Promise<void> {
  const { ctx, rng } = w;
  const method = rng.pick(['PUT', 'PATCH', 'HEAD', 'OPTIONS', 'TRACE', 'PROPFIND', 'FOO', 'M-SEARCH', 'PURGE', 'LINK', 'DELETE', 'GET', 'POST', 'QUERY']);
  const s = rng.chance(0.5) ? await w.session() : undefined;
  const target = rng.pick(['/mcp', '/sse', '/messages', '/ws', '/s/fx/mcp', '/s/garbage/sse', '/healthz', '/readyz', `/messages?sessionId=${rng.chance(0.5) && ctx.sseSessionIds.length > 0 ? rng.pick(ctx.sseSessionIds) : 'x'}`]);
  const headers: Record<string, string> = { ...RPC_HEADERS };
  if (s !== undefined) headers['mcp-session-id'] = s.id;
  if (rng.chance(0.3)) headers.origin = rng.pick(LOOPBACK_ORIGINS);
  const spec: HttpSpec = { method, path: target, headers, ...(rng.chance(0.5) ? { body: J({ jsonrpc: '2.0', id: 1, method: 'ping' }) } : {}), holdStreamMs: 100 };
  const r = await ctx.client.request(spec);
  judge(ctx, 'http.methods', spec, r);
  if (method === 'DELETE' && r.status === 200 && s !== undefined && target === s.path) {
    w.forget(s);
  }
}

export async function attackPaths(w: Worker): Promise<void> {
  const { ctx, rng } = w;
  const spec: HttpSpec = { method: rng.pick(['GET', 'POST', 'DELETE']), path: randomPath(rng), headers: { ...RPC_HEADERS }, holdStreamMs: 100 };
  if (spec.method === 'POST') spec.body = J({ jsonrpc: '2.0', id: 1, method: 'ping' });
  const r = await ctx.client.request(spec);
  judge(ctx, 'http.paths', spec, r);
  // A GET /sse that opened a session: the stream was closed by us, which ends it.
}

export async function attackLong(w: Worker): Promise<void> {
  const { ctx, rng } = w;
  const len = rng.weighted([[rng.int(4_000, 15_000), 2], [rng.int(16_000, 120_000), 3]]);
  const spec: HttpSpec = { method: rng.pick(['GET', 'POST']), path: '/mcp', headers: { ...RPC_HEADERS }, fresh: true };
  switch (rng.int(0, 3)) {
    case 0:
      spec.path = `/mcp?${'q'.repeat(len)}`;
      break;
    case 1:
      spec.path = `/s/${'%41'.repeat(Math.floor(len / 3))}/mcp`;
      break;
    case 2:
      (spec.headers as Record<string, string>)['x-long'] = 'v'.repeat(len);
      break;
    default:
      for (let i = 0; i < Math.floor(len / 20); i++) (spec.headers as Record<string, string>)[`x-h${i}`] = 'v';
  }
  if (spec.method === 'POST') spec.body = J({ jsonrpc: '2.0', id: 1, method: 'ping' });
  const r = await ctx.client.request(spec);
  judge(ctx, 'http.long', spec, r, { allowReset: true });
}

