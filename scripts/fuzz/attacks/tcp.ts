// Attacks over raw TCP: bytes that are not HTTP, requests cut short, pipelining, request
// smuggling and malformed framing, slowloris, and a client that hangs up before its answer.
import { looksLikeStack } from '../lib/answers.js';
import { printable } from '../lib/http.js';
import { invalidUtf8 } from '../lib/junk.js';
import { rawExchange, rawStatuses } from '../lib/raw.js';
import { DEADLINE_MS } from '../options.js';
import { J } from '../judge.js';
import { call, newId } from '../messages.js';
import type { Worker } from '../worker.js';

/** The bytes of one HTTP/1.1 request to the proxy on `port`, with a content-length unless framing is given. */
function requestBytes(port: number, method: string, target: string, headers: Record<string, string>, body = ''): Buffer {
  const lines = [`${method} ${target} HTTP/1.1`, `host: 127.0.0.1:${port}`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
  if (body !== '' && !('transfer-encoding' in headers) && !('content-length' in headers)) lines.push(`content-length: ${Buffer.byteLength(body)}`);
  return Buffer.from(`${lines.join('\r\n')}\r\n\r\n${body}`);
}

export async function attackTcp(w: Worker): Promise<void> {
  const { ctx, rng } = w;
  const port = ctx.proxy.port;
  const ping = J({ jsonrpc: '2.0', id: 1, method: 'ping' });
  const initialize = J({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } } });
  const valid = requestBytes(port, 'POST', '/mcp', { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, initialize);
  const pick = rng.int(0, 5);
  let name: string;
  let r;
  if (pick === 0) {
    name = 'garbage';
    // A first byte that cannot start a method, so the parser fails at once.
    const bytes = Buffer.concat([Buffer.from([rng.pick([0x00, 0x16, 0x80, 0xff, 0x20, 0x7b, 0x0d])]), rng.bytes(rng.int(0, 4000))]);
    r = await rawExchange('127.0.0.1', port, [bytes], { deadlineMs: DEADLINE_MS });
    if (r.end === 'timeout') ctx.stats.violation('hang', 'tcp.garbage', `the proxy neither answered nor closed within ${DEADLINE_MS} ms after ${bytes.length} junk bytes starting ${bytes.subarray(0, 8).toString('hex')}`);
  } else if (pick === 1) {
    const cut = rng.int(1, valid.length - 1);
    const end = rng.pick(['fin', 'rst', 'stall'] as const);
    name = `half_${end}`;
    r = await rawExchange('127.0.0.1', port, [valid.subarray(0, cut)], end === 'fin' ? { deadlineMs: DEADLINE_MS, halfClose: true } : end === 'rst' ? { deadlineMs: DEADLINE_MS, reset: true } : { deadlineMs: DEADLINE_MS, holdMs: rng.int(100, 2000) });
    if (end === 'fin' && r.end === 'timeout') ctx.stats.note('a request cut short with FIN kept its connection open for 10 s', `cut at ${cut}/${valid.length}: ${printable(valid.subarray(0, Math.min(cut, 120)))}`);
  } else if (pick === 2) {
    name = 'pipelined';
    const reqs = Array.from({ length: rng.int(2, 6) }, () => rng.pick([
      requestBytes(port, 'GET', '/healthz', {}),
      requestBytes(port, 'POST', '/mcp', { 'content-type': 'application/json', accept: 'application/json' }, ping),
      requestBytes(port, 'POST', '/mcp', { 'content-type': 'application/json', accept: 'application/json' }, '{bad'),
      Buffer.from('GARBAGE / HTTP/1.1\r\n\r\n'),
      requestBytes(port, 'DELETE', '/mcp', { 'mcp-session-id': 'nope' }),
    ]));
    r = await rawExchange('127.0.0.1', port, [Buffer.concat(reqs)], { deadlineMs: DEADLINE_MS, holdMs: 1500 });
  } else if (pick === 3) {
    const smuggles: Array<[string, Buffer]> = [
      ['cl_te', Buffer.from(`POST /mcp HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: 5\r\ntransfer-encoding: chunked\r\n\r\n0\r\n\r\n`)],
      ['double_cl', Buffer.from(`POST /mcp HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-length: 2\r\ncontent-length: 3\r\n\r\n{}`)],
      ['negative_cl', Buffer.from(`POST /mcp HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-length: -1\r\n\r\n`)],
      ['bad_chunk', Buffer.from(`POST /mcp HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`)],
      ['chunk_ext', Buffer.from(`POST /mcp HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n2;${'e'.repeat(20000)}\r\n{}\r\n0\r\n\r\n`)],
      ['obs_fold', Buffer.from(`GET /healthz HTTP/1.1\r\nhost: 127.0.0.1\r\nx-a: b\r\n  folded\r\n\r\n`)],
      ['no_colon', Buffer.from(`GET /healthz HTTP/1.1\r\nhost: 127.0.0.1\r\nnocolon\r\n\r\n`)],
      ['nul_header', Buffer.from(`GET /healthz HTTP/1.1\r\nhost: 127.0.0.1\r\nx-a: b\u0000c\r\n\r\n`)],
      ['lf_only', Buffer.from(`GET /healthz HTTP/1.1\nhost: 127.0.0.1\n\n`)],
      ['absolute_uri', Buffer.from(`GET http://127.0.0.1:${port}/mcp HTTP/1.1\r\nhost: 127.0.0.1\r\naccept: text/event-stream\r\n\r\n`)],
      ['http09', Buffer.from('GET /mcp\r\n')],
      ['http2_preface', Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n')],
      ['lowercase_method', Buffer.from('get /healthz HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n')],
      ['long_method', Buffer.from(`${'A'.repeat(20000)} /mcp HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n`)],
      ['connect', Buffer.from(`CONNECT 127.0.0.1:${port} HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n`)],
      ['http10', Buffer.from('POST /mcp HTTP/1.0\r\ncontent-type: application/json\r\naccept: application/json\r\ncontent-length: 2\r\n\r\n{}')],
      ['utf8_path', Buffer.concat([Buffer.from('GET /s/'), invalidUtf8(rng), Buffer.from('/mcp HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n')])],
      ['utf8_header', Buffer.concat([Buffer.from('POST /mcp HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\nmcp-session-id: '), invalidUtf8(rng), Buffer.from('\r\ncontent-length: 2\r\n\r\n{}')])],
    ];
    const [what, bytes] = rng.pick(smuggles);
    name = `smuggle_${what}`;
    r = await rawExchange('127.0.0.1', port, [bytes], { deadlineMs: DEADLINE_MS, holdMs: 1500 });
  } else if (pick === 4) {
    name = 'slowloris';
    const bytes = requestBytes(port, 'GET', '/healthz', {});
    const parts = Array.from({ length: bytes.length }, (_, i) => bytes.subarray(i, i + 1));
    r = await rawExchange('127.0.0.1', port, parts, { gapMs: rng.int(1, 8), deadlineMs: DEADLINE_MS, holdMs: 500 });
    if (rawStatuses(r.data)[0] !== 200 && ctx.proxy.exited === undefined) ctx.stats.violation('unanswered', 'tcp.slowloris', `a GET /healthz sent a byte at a time got ${rawStatuses(r.data)[0] ?? 'no answer'} (${r.end})`);
  } else {
    name = 'early_close';
    // A real call whose answer comes after the client hung up: the proxy writes to a closed connection.
    const s = await w.session('fx');
    const body = J(call(s !== undefined ? newId(s, rng) : 1, `${s?.fx ?? 'fx__'}slow`, { ms: rng.int(0, 300) }));
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: rng.pick(['application/json', 'application/json, text/event-stream']) };
    if (s !== undefined) Object.assign(headers, { 'mcp-session-id': s.id, 'mcp-protocol-version': s.version });
    r = await rawExchange('127.0.0.1', port, [requestBytes(port, 'POST', s?.path ?? '/mcp', headers, body)], { deadlineMs: DEADLINE_MS, holdMs: rng.int(0, 30) });
  }
  const statuses = rawStatuses(r.data);
  ctx.stats.record(`tcp.${name}`, statuses.length > 0 ? statuses.join('+') : r.end);
  if (ctx.proxy.exited !== undefined) return;
  if (statuses.some((s) => s >= 500)) ctx.stats.violation('http_5xx', `tcp.${name}`, r.data.toString('latin1').slice(0, 400));
  if (looksLikeStack(r.data.toString('utf8'))) ctx.stats.violation('stack_trace', `tcp.${name}`, r.data.toString('utf8').slice(0, 400));
}

