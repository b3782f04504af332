import { describe, expect, it } from 'vitest';
import { Exposition, escapeLabelValue } from '../../../src/ops/exposition.js';
import { FindingsFeed, RECENT_FINDINGS } from '../../../src/catalog/findings-feed.js';
import { RequestStats, LATENCY_BUCKETS, OUTCOMES, OUTCOME_COUNT, methodSlot } from '../../../src/session/stats.js';

describe('Prometheus exposition', () => {
  it('escapes backslash, quote and newline in label values, and nothing else', () => {
    expect(escapeLabelValue('plain-name_1')).toBe('plain-name_1');
    expect(escapeLabelValue('a\\b"c\nd')).toBe('a\\\\b\\"c\\nd');
    expect(escapeLabelValue('<img src=x>')).toBe('<img src=x>');
  });

  it('writes families, samples and cumulative histograms', () => {
    const text = new Exposition()
      .family('x_total', 'counter', 'Things.\nMore')
      .sample('x_total', { server: 'a"b' }, 3)
      .family('d_seconds', 'histogram', 'Time.')
      .histogram('d_seconds', { group: 'g' }, [0.1, 1], [2, 0, 1], 1.5)
      .text();
    expect(text).toBe(
      [
        '# HELP x_total Things.\\nMore',
        '# TYPE x_total counter',
        'x_total{server="a\\"b"} 3',
        '# HELP d_seconds Time.',
        '# TYPE d_seconds histogram',
        'd_seconds_bucket{group="g",le="0.1"} 2',
        'd_seconds_bucket{group="g",le="1"} 2',
        'd_seconds_bucket{group="g",le="+Inf"} 3',
        'd_seconds_sum{group="g"} 1.5',
        'd_seconds_count{group="g"} 3',
        '',
      ].join('\n'),
    );
  });
});

describe('request stats', () => {
  it('classifies outcomes by error code and puts each answer in one latency bucket', () => {
    const stats = new RequestStats();
    const call = methodSlot('tools/call');
    const at = stats.now();
    stats.answered(call, { jsonrpc: '2.0', id: 1, result: {} }, at);
    stats.answered(call, { jsonrpc: '2.0', id: 2, result: { isError: true } }, at);
    stats.answered(call, { jsonrpc: '2.0', id: 3, error: { code: -32001, message: 't' } }, at);
    stats.answered(call, { jsonrpc: '2.0', id: 4, error: { code: -32003, message: 'o' } }, at);
    stats.answered(call, { jsonrpc: '2.0', id: 5, error: { code: 42, message: 'app' } }, at);
    stats.answered(methodSlot('no/such'), { jsonrpc: '2.0', id: 6, error: { code: -32601, message: 'm' } }, at);
    stats.ended(call, 'cancelled');
    const count = (method: string, outcome: string): number => stats.requests[methodSlot(method) * OUTCOME_COUNT + OUTCOMES.indexOf(outcome as never)] ?? 0;
    expect(count('tools/call', 'result')).toBe(1);
    expect(count('tools/call', 'tool_error')).toBe(1);
    expect(count('tools/call', 'timeout')).toBe(1);
    expect(count('tools/call', 'refused')).toBe(1);
    expect(count('tools/call', 'other_error')).toBe(1);
    expect(count('tools/call', 'cancelled')).toBe(1);
    expect(count('other', 'method_not_found')).toBe(1);
    expect(stats.total()).toBe(7);
    const calls = [...stats.latency.subarray(0, LATENCY_BUCKETS)].reduce((a, b) => a + b, 0);
    expect(calls).toBe(5);
    expect([...stats.latency].reduce((a, b) => a + b, 0)).toBe(6);
  });
});

describe('findings feed', () => {
  it('counts by rule and action and keeps the latest findings, newest first', () => {
    const feed = new FindingsFeed();
    for (let i = 0; i < RECENT_FINDINGS + 5; i += 1) feed.record({ server: 's', tool: `t${i}`, rule: 'zero-width', action: 'strip', time: `2026-01-01T00:00:${String(i % 60).padStart(2, '0')}Z` });
    feed.count('html-comment', 'neutralize', 3);
    expect(feed.totals()).toEqual([
      { rule: 'zero-width', action: 'strip', count: RECENT_FINDINGS + 5 },
      { rule: 'html-comment', action: 'neutralize', count: 3 },
    ]);
    const recent = feed.recent();
    expect(recent).toHaveLength(RECENT_FINDINGS);
    expect(recent[0]?.tool).toBe(`t${RECENT_FINDINGS + 4}`);
    expect(recent.at(-1)?.tool).toBe('t5');
  });
});
