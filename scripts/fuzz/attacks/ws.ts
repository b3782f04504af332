// Attacks on WebSocket: sessions through the `ws` client (malformed messages, fragments, pings,
// cancellations, frames that must close the connection), hand-made frames, and bad upgrades.
import WebSocket from 'ws';
import { FOREIGN_ORIGINS, LOOPBACK_ORIGINS, isLoopbackOrigin } from '../lib/answers.js';
import { invalidUtf8 } from '../lib/junk.js';
import { rawExchange, rawStatuses, wsFrame, wsHandshake } from '../lib/raw.js';
import { now, sleep } from '../lib/time.js';
import { DEADLINE_MS, MAX_BODY_BYTES, PROTOCOL_VERSIONS } from '../options.js';
import { J } from '../judge.js';
import type { ToolTarget } from '../messages.js';
import { Book, streamMessage } from '../stream-book.js';
import type { Worker } from '../worker.js';

export async function attackWs(w: Worker): Promise<void> {
  const { ctx, rng } = w;
  const path = rng.pick(['/ws', '/ws', '/s/fx/ws', '/s/garbage/ws']);
  const protocols = rng.weighted<string[]>([[['mcp'], 8], [[], 1], [['x', 'mcp'], 1], [['other'], 1]]);
  const origin = rng.chance(0.1) ? rng.pick([...FOREIGN_ORIGINS, ...LOOPBACK_ORIGINS]) : undefined;
  const kind = 'ws.session';
  const ws = new WebSocket(`ws://127.0.0.1:${ctx.proxy.port}${path}`, protocols, { handshakeTimeout: DEADLINE_MS, maxPayload: 256 * 1024 * 1024, ...(origin !== undefined ? { origin } : {}) });
  let closed = false;
  let closeCode = 0;
  const opened = await new Promise<string>((resolve) => {
    ws.on('open', () => resolve('101'));
    ws.on('unexpected-response', (_req, res) => {
      resolve(String(res.statusCode ?? 0));
      res.resume();
      ws.terminate();
    });
    ws.on('error', (error) => resolve(`error:${(error as NodeJS.ErrnoException).code ?? error.message.slice(0, 40)}`));
    ws.on('close', (code) => {
      closed = true;
      closeCode = code;
    });
  });
  ctx.stats.record(kind, `upgrade:${opened}`);
  if (ctx.proxy.exited !== undefined) return;
  if (origin !== undefined && !isLoopbackOrigin(origin) && opened !== '403') ctx.stats.violation('foreign_origin_accepted', kind, `WebSocket upgrade with Origin ${origin} -> ${opened}`);
  if (/^5\d\d$/.test(opened)) ctx.stats.violation('http_5xx', kind, `WebSocket upgrade ${path} -> ${opened}`);
  if (opened !== '101') return;
  const t: ToolTarget = path === '/ws' ? { fx: 'fx__', garbage: 'garbage__', next: 1 } : path === '/s/fx/ws' ? { fx: '', garbage: undefined, next: 1 } : { fx: undefined, garbage: '', next: 1 };
  const context = (): string => `WebSocket session on ${path}`;
  const send = (text: string | Buffer, opts: { binary?: boolean; fin?: boolean } = {}): void => {
    book.wrote(typeof text === 'string' ? text : `<${text.length} bytes>`);
    if (ws.readyState === ws.OPEN) ws.send(text, { binary: opts.binary ?? false, fin: opts.fin ?? true });
  };
  const book = new Book(ctx, kind, rng, (text) => send(text), context);
  ws.on('message', (data, isBinary) => {
    if (isBinary) ctx.stats.violation('binary_from_proxy', kind, `a binary frame from the proxy (${context()})`);
    book.receive(Buffer.isBuffer(data) ? data.toString('utf8') : Array.isArray(data) ? Buffer.concat(data).toString('utf8') : Buffer.from(data).toString('utf8'));
  });
  if (rng.chance(0.85)) {
    book.expect(0, 'initialize');
    send(J({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: rng.pick(PROTOCOL_VERSIONS), capabilities: rng.chance(0.6) ? { sampling: {}, elicitation: {} } : {}, clientInfo: { name: 'fuzz-ws', version: '0' } } }));
    send(J({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  }
  const steps = rng.int(3, 20);
  for (let i = 0; i < steps && !ctx.stopping() && !closed; i++) {
    const action = rng.int(0, 9);
    if (action <= 6) {
      const m = streamMessage(rng, t, `ws-w${w.index}`, 'ws', ctx.options.excluded);
      if (m.expectId !== undefined) book.expect(m.expectId, m.label, m.check);
      if (m.nullError) book.nullErrorsExpected += 1;
      if (action === 6 && m.text.length > 8) {
        // The same message in fragments, cut anywhere in its UTF-8 bytes (even inside a character).
        const bytes = Buffer.from(m.text);
        const cut = rng.int(1, bytes.length - 1);
        book.wrote(m.text);
        if (ws.readyState === ws.OPEN) {
          ws.send(bytes.subarray(0, cut), { binary: false, fin: false });
          ws.send(bytes.subarray(cut), { binary: false, fin: true });
        }
      } else send(m.text);
    } else if (action === 7) {
      ws.ping(rng.bytes(rng.int(0, 125)));
    } else if (action === 8) {
      // Cancel something we have in flight (its answer may or may not come).
      const p = [...book.pending.values()].filter((x) => x.id !== 0);
      if (p.length > 0) {
        const victim = rng.pick(p).id;
        book.cancel(victim);
        send(J({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: victim, reason: 'fuzz' } }));
      }
    } else {
      await sleep(rng.int(0, 200));
    }
    if (rng.chance(0.3)) await sleep(rng.int(0, 50));
  }
  // Last, sometimes: a frame the proxy must close the connection for.
  const fatal = rng.chance(0.3) && !closed ? rng.pick(['binary', 'huge', 'utf8']) : undefined;
  if (fatal === undefined) {
    await book.settle(() => !closed);
    if (closed && ctx.proxy.exited === undefined) ctx.stats.note('a WebSocket attack session was closed by the proxy', `${context()} code ${closeCode}`);
    ws.close(1000);
    return;
  }
  await book.settle(() => !closed);
  if (fatal === 'binary') send(rng.bytes(rng.int(1, 200)), { binary: true });
  else if (fatal === 'huge') send('x'.repeat(MAX_BODY_BYTES + rng.int(1, MAX_BODY_BYTES)));
  else if (ws.readyState === ws.OPEN) ws.send(Buffer.concat([Buffer.from('{"jsonrpc":"2.0","method":"ping","id":"'), invalidUtf8(rng), Buffer.from('"}')]), { binary: false });
  const until = now() + DEADLINE_MS;
  while (!closed && now() < until && ctx.proxy.exited === undefined) await sleep(20);
  ctx.stats.record(`ws.fatal_${fatal}`, closed ? `close:${closeCode}` : 'not-closed');
  const want = { binary: [1003], huge: [1009], utf8: [1007] }[fatal] ?? [];
  if (ctx.proxy.exited !== undefined) return;
  if (!closed) ctx.stats.violation('ws_not_closed', kind, `a ${fatal} frame did not close the connection within ${DEADLINE_MS} ms (${context()})`);
  else if (!want.includes(closeCode)) ctx.stats.note(`ws: ${fatal} frame closed with ${closeCode}, not ${want.join('/')}`, context());
  ws.terminate();
}

// ---------- hand-made frames and handshakes, over raw TCP ----------

export async function attackRawWs(w: Worker): Promise<void> {
  const { ctx, rng } = w;
  const kind = 'ws.raw';
  const host = `127.0.0.1:${ctx.proxy.port}`;
  const ping = Buffer.from(J({ jsonrpc: '2.0', id: 7, method: 'ping' }));
  const scenarios: Array<[string, () => Buffer[], 'close' | 'reply' | 'none']> = [
    ['unmasked', () => [wsFrame(1, ping, { mask: false })], 'close'],
    ['rsv', () => [wsFrame(1, ping, { rsv: rng.int(1, 7) })], 'close'],
    ['opcode', () => [wsFrame(rng.pick([3, 4, 5, 6, 7, 11, 12, 13, 14, 15]), ping)], 'close'],
    ['continuation_first', () => [wsFrame(0, ping)], 'close'],
    ['fragments_with_ping', () => [wsFrame(1, ping.subarray(0, 5), { fin: false }), wsFrame(9, Buffer.from('p')), wsFrame(0, ping.subarray(5))], 'reply'],
    ['many_fragments', () => {
      const parts: Buffer[] = [];
      const n = rng.int(2, Math.min(200, ping.length));
      const step = Math.ceil(ping.length / n);
      for (let i = 0; i < ping.length; i += step) parts.push(wsFrame(i === 0 ? 1 : 0, ping.subarray(i, i + step), { fin: i + step >= ping.length }));
      return parts;
    }, 'reply'],
    ['fragment_then_text', () => [wsFrame(1, ping.subarray(0, 5), { fin: false }), wsFrame(1, ping)], 'close'],
    ['big_control', () => [wsFrame(9, rng.bytes(rng.int(126, 2000)))], 'close'],
    ['fragmented_control', () => [wsFrame(9, Buffer.from('x'), { fin: false })], 'close'],
    ['bad_close_code', () => [wsFrame(8, Buffer.from([...[rng.pick([0, 999, 1004, 1005, 1006, 1015, 2999, 5000, 65535])].flatMap((c) => [c >> 8, c & 0xff])]))], 'close'],
    ['short_close', () => [wsFrame(8, Buffer.from([3]))], 'close'],
    ['close_bad_utf8', () => [wsFrame(8, Buffer.concat([Buffer.from([0x03, 0xe8]), invalidUtf8(rng)]))], 'close'],
    ['huge_length', () => [wsFrame(1, Buffer.alloc(0), { lengthOverride: 2n ** 63n - 1n })], 'close'],
    ['over_max_payload', () => [wsFrame(1, Buffer.alloc(0), { lengthOverride: BigInt(MAX_BODY_BYTES + rng.int(1, 1 << 20)) })], 'close'],
    ['bad_utf8_text', () => [wsFrame(1, Buffer.concat([Buffer.from('{"x":"'), invalidUtf8(rng), Buffer.from('"}')]))], 'close'],
    ['partial_frame', () => [wsFrame(1, ping).subarray(0, rng.int(1, ping.length))], 'none'],
    ['valid', () => [wsFrame(1, ping)], 'reply'],
    ['close_normal', () => [wsFrame(8, Buffer.from([0x03, 0xe8]))], 'close'],
  ];
  const [name, frames, want] = rng.pick(scenarios);
  const handshake = wsHandshake(rng.pick(['/ws', '/s/fx/ws']), host);
  const r = await rawExchange('127.0.0.1', ctx.proxy.port, [handshake, ...frames()], {
    gapMs: rng.int(0, 20), deadlineMs: DEADLINE_MS, ...(want === 'close' ? {} : { holdMs: want === 'reply' ? 3000 : rng.int(100, 1000) }),
  });
  const head = r.data.toString('latin1');
  const status = rawStatuses(r.data)[0] ?? 0;
  const frameData = r.data.subarray(head.indexOf('\r\n\r\n') + 4);
  const serverFrames = parseServerFrames(frameData);
  const close = serverFrames.find((f) => f.opcode === 8);
  const closeCode = close !== undefined && close.payload.length >= 2 ? close.payload.readUInt16BE(0) : 0;
  const replied = serverFrames.some((f) => f.opcode === 1 && f.payload.toString('utf8').includes('"id":7'));
  ctx.stats.record(`${kind}.${name}`, status !== 101 ? `status:${status}` : want === 'close' ? (r.end === 'server' ? `close:${closeCode}` : r.end) : replied ? 'replied' : r.end);
  if (ctx.proxy.exited !== undefined) return;
  if (status >= 500) ctx.stats.violation('http_5xx', kind, `${name}: ${head.slice(0, 200)}`);
  if (status !== 101) return;
  if (want === 'close' && r.end !== 'server') ctx.stats.violation('ws_not_closed', kind, `${name}: the connection was not closed within ${DEADLINE_MS} ms (${r.end})`);
  if (want === 'reply' && !replied) ctx.stats.violation('unanswered', kind, `${name}: no answer to a valid fragmented ping within 3 s`);
}

function parseServerFrames(buf: Buffer): Array<{ opcode: number; payload: Buffer }> {
  const frames: Array<{ opcode: number; payload: Buffer }> = [];
  let at = 0;
  while (at + 2 <= buf.length) {
    const b0 = buf[at] as number;
    const b1 = buf[at + 1] as number;
    let len = b1 & 0x7f;
    let off = at + 2;
    if (len === 126) {
      if (off + 2 > buf.length) break;
      len = buf.readUInt16BE(off);
      off += 2;
    } else if (len === 127) {
      if (off + 8 > buf.length) break;
      len = Number(buf.readBigUInt64BE(off));
      off += 8;
    }
    if (off + len > buf.length) break;
    frames.push({ opcode: b0 & 0x0f, payload: buf.subarray(off, off + len) });
    at = off + len;
  }
  return frames;
}

export async function attackBadUpgrade(w: Worker): Promise<void> {
  const { ctx, rng } = w;
  const host = `127.0.0.1:${ctx.proxy.port}`;
  const variants: Array<[string, () => Buffer]> = [
    ['no_key', () => wsHandshake('/ws', host, {}, ['sec-websocket-key'])],
    ['bad_key', () => wsHandshake('/ws', host, { 'sec-websocket-key': rng.pick(['x', '', 'a'.repeat(100), '====']) })],
    ['version_8', () => wsHandshake('/ws', host, { 'sec-websocket-version': rng.pick(['8', '0', '99', 'x']) })],
    ['h2c', () => wsHandshake('/ws', host, { upgrade: 'h2c' })],
    ['wrong_path', () => wsHandshake(rng.pick(['/mcp', '/sse', '/s/nope/ws', '/s/%zz/ws', '/wss', '/ws/']), host)],
    ['foreign_origin', () => wsHandshake('/ws', host, { origin: rng.pick(FOREIGN_ORIGINS) })],
    ['foreign_host', () => wsHandshake('/ws', 'evil.example')],
    ['no_protocol', () => wsHandshake('/ws', host, {}, ['sec-websocket-protocol'])],
    ['odd_protocol', () => wsHandshake('/ws', host, { 'sec-websocket-protocol': rng.pick(['', ',,,', 'mcp, mcp', 'a b', 'x'.repeat(3000)]) })],
    ['post_upgrade', () => Buffer.from(wsHandshake('/ws', host).toString('latin1').replace('GET ', 'POST '))],
    ['no_upgrade', () => Buffer.from(`GET /ws HTTP/1.1\r\nhost: ${host}\r\n\r\n`)],
  ];
  const [name, make] = rng.pick(variants);
  const r = await rawExchange('127.0.0.1', ctx.proxy.port, [make()], { deadlineMs: DEADLINE_MS, holdMs: 1500 });
  const status = rawStatuses(r.data)[0] ?? 0;
  ctx.stats.record(`ws.bad_upgrade.${name}`, status === 0 ? r.end : String(status));
  if (ctx.proxy.exited !== undefined) return;
  if (status >= 500) ctx.stats.violation('http_5xx', 'ws.bad_upgrade', `${name}: ${r.data.toString('latin1').slice(0, 300)}`);
  if (status === 0 && r.end !== 'server') ctx.stats.violation('hang', 'ws.bad_upgrade', `${name}: no status line within ${r.end === 'client' ? '1.5 s' : `${DEADLINE_MS} ms`}`);
  if ((name === 'foreign_origin' || name === 'foreign_host') && status !== 403) ctx.stats.violation(name === 'foreign_origin' ? 'foreign_origin_accepted' : 'foreign_host_accepted', 'ws.bad_upgrade', `${name} -> ${status}`);
}

