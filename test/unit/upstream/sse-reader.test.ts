// Reading a remote server's event stream: any chunking, any line ending, multi-line data, comments,
// ids that persist, and events larger than the bound dropped whole without losing the next one.
import { describe, expect, it } from 'vitest';
import { SseReader, type SseEvent } from '../../../src/upstream/remote/sse-reader.js';

function read(chunks: readonly (string | Buffer)[], max = 1024): { events: Array<{ event: string; data: string; id: string | undefined }>; dropped: number[] } {
  const events: Array<{ event: string; data: string; id: string | undefined }> = [];
  const dropped: number[] = [];
  const reader = new SseReader(max, (e: SseEvent) => events.push({ event: e.event, data: e.data.toString('utf8'), id: e.id }), (bytes) => dropped.push(bytes));
  for (const chunk of chunks) reader.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return { events, dropped };
}

describe('SseReader', () => {
  const stream = 'event: endpoint\ndata: /messages?id=1\n\n: keepalive\n\nid: 7\ndata: {"a":1}\n\ndata: line one\ndata: line two\n\n';
  const expected = [
    { event: 'endpoint', data: '/messages?id=1', id: undefined },
    { event: 'message', data: '{"a":1}', id: '7' },
    { event: 'message', data: 'line one\nline two', id: '7' },
  ];

  it('reads events whole, comments skipped, data lines joined, the last id kept', () => {
    expect(read([stream]).events).toEqual(expected);
  });

  it('gives the same events however the bytes are cut, a byte at a time included', () => {
    const bytes = Buffer.from(stream);
    expect(read([...bytes].map((b) => Buffer.from([b]))).events).toEqual(expected);
    for (let cut = 1; cut < bytes.length; cut += 7) expect(read([bytes.subarray(0, cut), bytes.subarray(cut)]).events).toEqual(expected);
  });

  it('takes CRLF and CR line ends, also split between chunks', () => {
    expect(read(['data: a\r\n\r\ndata: b\r\r']).events.map((e) => e.data)).toEqual(['a', 'b']);
    expect(read(['data: a\r', '\n\r', '\ndata: b\n\n']).events.map((e) => e.data)).toEqual(['a', 'b']);
  });

  it('keeps multi-byte characters cut between chunks', () => {
    const bytes = Buffer.from('data: héllo ✓\n\n');
    expect(read([bytes.subarray(0, 8), bytes.subarray(8, 15), bytes.subarray(15)]).events[0]?.data).toBe('héllo ✓');
  });

  it('drops an event larger than the bound, in one line or many, and reads the next', () => {
    const big = `data: ${'x'.repeat(200)}\n\ndata: after\n\n`;
    const { events, dropped } = read([big.slice(0, 50), big.slice(50, 120), big.slice(120)], 100);
    expect(events.map((e) => e.data)).toEqual(['after']);
    expect(dropped).toHaveLength(1);
    const many = `${'data: 0123456789\n'.repeat(20)}\ndata: next\n\n`;
    expect(read([many], 100).events.map((e) => e.data)).toEqual(['next']);
  });

  it('holds several streams of one server to one shared bound: past it, the event being built is dropped', () => {
    const budget = { used: 0, max: 100 };
    const seen: string[] = [];
    const dropped: string[] = [];
    const a = new SseReader(1000, (e) => seen.push(`a:${e.data.toString()}`), () => dropped.push('a'), budget);
    const b = new SseReader(1000, (e) => seen.push(`b:${e.data.toString()}`), () => dropped.push('b'), budget);
    a.push(Buffer.from(`data: ${'x'.repeat(80)}\n`));
    expect(budget.used).toBeGreaterThanOrEqual(80);
    b.push(Buffer.from(`data: ${'y'.repeat(40)}\n`));
    expect(dropped).toEqual(['b']);
    b.push(Buffer.from('\n'));
    a.push(Buffer.from('\n'));
    expect(seen).toEqual([`a:${'x'.repeat(80)}`]);
    expect(budget.used).toBe(0);
    b.push(Buffer.from(`data: ${'y'.repeat(40)}\n\n`));
    expect(seen.at(-1)).toBe(`b:${'y'.repeat(40)}`);
    a.push(Buffer.from('data: held\n'));
    a.release();
    expect(budget.used).toBe(0);
  });
});
