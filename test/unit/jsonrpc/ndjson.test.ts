import { describe, expect, it } from 'vitest';
import { LineDecoder } from '../../../src/jsonrpc/ndjson.js';

function collect(maxLineBytes = 1 << 20) {
  const lines: string[] = [];
  const oversize: number[] = [];
  const decoder = new LineDecoder(maxLineBytes, {
    onLine: (line) => lines.push(line),
    onOversize: (n) => oversize.push(n),
  });
  return { decoder, lines, oversize };
}

describe('LineDecoder', () => {
  it('yields every line of a stream cut at random points, multi-byte characters included', () => {
    const messages = Array.from({ length: 200 }, (_, i) =>
      JSON.stringify({ jsonrpc: '2.0', id: i, result: { text: `héllo 世界 👋🏽 ${'x'.repeat(i * 7)}` } }),
    );
    const bytes = Buffer.from(messages.join('\n') + '\n');
    for (let seed = 1; seed <= 20; seed++) {
      const { decoder, lines } = collect();
      let state = seed;
      let offset = 0;
      while (offset < bytes.length) {
        state = (state * 1103515245 + 12345) % 2147483648;
        const size = 1 + (state % 97);
        decoder.push(bytes.subarray(offset, offset + size));
        offset += size;
      }
      expect(lines).toEqual(messages);
      expect(decoder.bufferedBytes).toBe(0);
    }
  });

  it('reassembles long and short lines in any order, and a line over 1 MiB, without one leaking into another', () => {
    const sizes = [70_000, 3, 200_000, 5_000, 1_500_000, 90_000, 10, 65_536, 1];
    const messages = sizes.map((size, i) => `${i}:${String.fromCharCode(0x61 + i).repeat(size)}é`);
    const bytes = Buffer.from(messages.join('\n') + '\n');
    const { decoder, lines } = collect(4 << 20);
    for (let offset = 0; offset < bytes.length; offset += 65_536) decoder.push(bytes.subarray(offset, offset + 65_536));
    expect(lines).toEqual(messages);
  });

  it('strips a trailing carriage return and skips empty lines', () => {
    const { decoder, lines } = collect();
    decoder.push(Buffer.from('{"a":1}\r\n\n\r\n{"b":2}\n'));
    expect(lines).toEqual(['{"a":1}', '{"b":2}']);
  });

  it('holds a partial line until its newline arrives', () => {
    const { decoder, lines } = collect();
    decoder.push(Buffer.from('{"a":'));
    expect(lines).toEqual([]);
    decoder.push(Buffer.from('1}\n{"b"'));
    expect(lines).toEqual(['{"a":1}']);
    expect(decoder.bufferedBytes).toBe(4);
  });

  it('drops an oversize line whole, reports it once, and keeps the lines around it', () => {
    const { decoder, lines, oversize } = collect(100);
    decoder.push(Buffer.from('{"before":1}\n' + 'y'.repeat(60)));
    decoder.push(Buffer.from('z'.repeat(60)));
    decoder.push(Buffer.from('z'.repeat(500)));
    decoder.push(Buffer.from('tail\n{"after":2}\n'));
    expect(lines).toEqual(['{"before":1}', '{"after":2}']);
    expect(oversize).toEqual([624]);
    expect(decoder.bufferedBytes).toBe(0);
  });

  it('drops an oversize line that arrives in one chunk', () => {
    const { decoder, lines, oversize } = collect(10);
    decoder.push(Buffer.from('0123456789abcdef\n{"ok":1}\n'));
    expect(lines).toEqual(['{"ok":1}']);
    expect(oversize).toEqual([16]);
  });
});

describe('LineDecoder.end', () => {
  it('emits an unfinished last line once, and nothing while skipping an oversize line', () => {
    const lines: string[] = [];
    const decoder = new LineDecoder(16, { onLine: (line) => lines.push(line), onOversize: () => lines.push('<oversize>') });
    decoder.push(Buffer.from('first\nlast words'));
    decoder.end();
    decoder.end();
    expect(lines).toEqual(['first', 'last words']);
    decoder.push(Buffer.from('x'.repeat(40)));
    decoder.end();
    expect(lines).toEqual(['first', 'last words']);
  });
});
