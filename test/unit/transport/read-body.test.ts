import { EventEmitter } from 'node:events';
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { BodyTooLarge, readBody } from '../../../src/transport/http-util.js';

/** Just enough of an IncomingMessage for readBody: headers, listeners, resume. */
function fakeRequest(contentLength: number | undefined): IncomingMessage & EventEmitter {
  const req = new EventEmitter() as IncomingMessage & EventEmitter;
  (req as { headers: Record<string, string> }).headers = contentLength === undefined ? {} : { 'content-length': String(contentLength) };
  (req as { resume: () => void }).resume = () => undefined;
  return req;
}

/** Sends `text` as chunks of `size` bytes, cutting multi-byte characters apart. */
function send(req: EventEmitter, text: string, size: number): void {
  const bytes = Buffer.from(text);
  for (let at = 0; at < bytes.length; at += size) req.emit('data', bytes.subarray(at, at + size));
  req.emit('end');
}

describe('readBody', () => {
  const body = `{"text":"${'日本語 ✓ 😀 '.repeat(9000)}"}`;
  const bytes = Buffer.byteLength(body);

  it('reads a declared large body in chunks of any size, multi-byte characters cut anywhere', async () => {
    for (const size of [1, 7, 1000, 16_384, 65_536, bytes]) {
      const req = fakeRequest(bytes);
      const read = readBody(req, 1 << 20);
      send(req, body, size);
      expect(await read).toBe(body);
      // Settled, it leaves nothing listening on the request (the call outlives the read).
      expect(req.listenerCount('data') + req.listenerCount('end') + req.listenerCount('error')).toBe(0);
    }
  });

  it('reads small and undeclared (chunked) bodies the same way', async () => {
    for (const declared of [undefined, bytes]) {
      const req = fakeRequest(declared === undefined ? undefined : Buffer.byteLength('{"a":"é"}'));
      const read = readBody(req, 1 << 20);
      send(req, '{"a":"é"}', 3);
      expect(await read).toBe('{"a":"é"}');
    }
    const req = fakeRequest(undefined);
    const read = readBody(req, 1 << 20);
    send(req, body, 4096);
    expect(await read).toBe(body);
  });

  it('a pooled buffer handed back is not shared by the next bodies, read at the same time', async () => {
    const texts = Array.from({ length: 6 }, (_, i) => `${String(i).repeat(40_000 + i * 5_000)}`);
    const requests = texts.map((text) => ({ text, req: fakeRequest(Buffer.byteLength(text)) }));
    const reads = requests.map(({ req }) => readBody(req, 1 << 20));
    // Interleave the chunks of all bodies, then end them in reverse.
    for (let at = 0; at < 70_000; at += 10_000) {
      for (const { text, req } of requests) if (at < text.length) req.emit('data', Buffer.from(text.slice(at, at + 10_000)));
    }
    for (const { req } of [...requests].reverse()) req.emit('end');
    expect(await Promise.all(reads)).toEqual(texts);
  });

  it('refuses a declared body over the limit before reading it, and an undeclared one once it passes the limit', async () => {
    await expect(readBody(fakeRequest(2000), 1000)).rejects.toBeInstanceOf(BodyTooLarge);
    const req = fakeRequest(undefined);
    const read = readBody(req, 1000);
    send(req, 'x'.repeat(5000), 600);
    await expect(read).rejects.toBeInstanceOf(BodyTooLarge);
  });

  it('passes on a connection error and detaches', async () => {
    const req = fakeRequest(bytes);
    const read = readBody(req, 1 << 20);
    req.emit('data', Buffer.from(body.slice(0, 100)));
    req.emit('error', new Error('aborted'));
    await expect(read).rejects.toThrow('aborted');
    expect(req.listenerCount('data') + req.listenerCount('end') + req.listenerCount('error')).toBe(0);
  });
});
