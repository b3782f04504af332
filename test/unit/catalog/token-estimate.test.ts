import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cpuTimed } from '../../cpu-time.js';
import { estimateTextTokens, estimateToolTokens, modelText, tokenTotals } from '../../../src/catalog/token-estimate.js';
import type { JsonObject } from '../../../src/jsonrpc/messages.js';

interface Measured {
  readonly server: string;
  readonly tool: JsonObject;
  readonly o200k: number;
  readonly cl100k: number;
  readonly claude: number;
}

/** Definitions with token counts from real tokenizers (scripts/calibrate-token-estimate.mjs). */
const fixture = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../../fixtures/tool-tokens.json'), 'utf8')) as {
  tools: Measured[];
};

describe('tool token estimate', () => {
  for (const key of ['o200k', 'cl100k', 'claude'] as const) {
    it(`stays close to the ${key} tokenizer on real and multilingual definitions`, () => {
      let sumError = 0;
      let estimated = 0;
      let real = 0;
      for (const entry of fixture.tools) {
        const e = estimateToolTokens(entry.tool);
        const error = Math.abs(e - entry[key]) / entry[key];
        expect(error, `${String(entry.tool['name'])}: estimated ${e}, ${key} ${entry[key]}`).toBeLessThan(0.25);
        sumError += error;
        estimated += e;
        real += entry[key];
      }
      expect(sumError / fixture.tools.length).toBeLessThan(0.06);
      expect(Math.abs(estimated / real - 1)).toBeLessThan(0.05);
    });
  }

  it('counts the fields a host sends to the model, not icons or _meta', () => {
    const base = { name: 'fs__read_file', description: 'Read a file', inputSchema: { type: 'object' } };
    const decorated = { ...base, icons: [{ src: 'data:image/png;base64,' + 'A'.repeat(5000) }], _meta: { big: 'x'.repeat(5000) } };
    expect(modelText(decorated)).toBe(modelText(base));
    expect(estimateToolTokens(decorated)).toBe(estimateToolTokens(base));
    // Fixed field order, whatever order the server used.
    expect(modelText({ inputSchema: { type: 'object' }, name: 'n', title: 'T' })).toBe('{"name":"n","title":"T","inputSchema":{"type":"object"}}');
  });

  it('grows with the text and never goes negative', () => {
    expect(estimateTextTokens('')).toBe(0);
    expect(estimateTextTokens('hello')).toBe(1);
    expect(estimateTextTokens('additionalProperties')).toBe(2);
    expect(estimateTextTokens('12345678')).toBe(3);
    const short = estimateToolTokens({ name: 'a', description: 'Reads one file.' });
    const long = estimateToolTokens({ name: 'a', description: 'Reads one file. '.repeat(20) });
    expect(long - short).toBeGreaterThanOrEqual(19 * 4);
    expect(estimateTextTokens('日本語のテキスト')).toBeGreaterThanOrEqual(6);
    expect(estimateTextTokens('🚀🚀')).toBe(4);
  });

  it('estimates a 1,000-tool catalog in a few milliseconds', () => {
    const tools = Array.from({ length: 1000 }, (_, i) => fixture.tools[i % fixture.tools.length]!.tool);
    estimateToolTokens(tools[0]!);
    const { ms, value: total } = cpuTimed(() => tools.reduce((sum, tool) => sum + estimateToolTokens(tool), 0));
    expect(total).toBeGreaterThan(100_000);
    // Typically 10-20 ms of CPU on a 2-core CI machine; the bound leaves room for a slow one.
    expect(ms).toBeLessThan(250);
  });
});

describe('token totals', () => {
  const tools = [
    { name: 'fs__read', server: 'fs', tokens: 100 },
    { name: 'memory__read', server: 'memory', tokens: 40 },
    { name: 'fs__write', server: 'fs', tokens: 60 },
  ];

  it('sums per server in first-seen order', () => {
    const totals = tokenTotals(tools);
    expect(totals.tools).toBe(3);
    expect(totals.tokens).toBe(200);
    expect([...totals.byServer]).toEqual([
      ['fs', { tools: 2, tokens: 160 }],
      ['memory', { tools: 1, tokens: 40 }],
    ]);
  });

  it('sums only what a predicate (a profile) admits', () => {
    const totals = tokenTotals(tools, (t) => t.name.endsWith('__read'));
    expect(totals).toMatchObject({ tools: 2, tokens: 140 });
    expect(totals.byServer.get('fs')).toEqual({ tools: 1, tokens: 100 });
  });
});
