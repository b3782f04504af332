// Pages of a client's lists: one page holds a whole ordinary catalog under the default
// limits.pageSize (clients rarely follow nextCursor), and a longer list still pages past it.
import { describe, expect, it } from 'vitest';
import { ConfigError, resolveConfig } from '../../../src/config/load.js';
import type { JsonObject } from '../../../src/jsonrpc/messages.js';
import { pageText } from '../../../src/router/lists.js';

const resolve = (raw: Record<string, unknown>) => resolveConfig({ mcpServers: { s: { command: process.execPath } }, ...raw }, { file: '<inline>', dir: '/tmp' }, {});
const items = (n: number): JsonObject[] => Array.from({ length: n }, (_, i) => ({ name: `t${i}` }));

function configError(raw: Record<string, unknown>): string {
  try {
    resolve(raw);
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  throw new Error('expected a config error');
}

describe('list pages', () => {
  const pageSize = resolve({}).limits.pageSize;

  it('answers a list of 124 tools in one page, without nextCursor, by default', () => {
    const { result, text } = pageText('tools', items(124), undefined, pageSize);
    expect((result.tools as JsonObject[]).length).toBe(124);
    expect(result.nextCursor).toBeUndefined();
    expect(JSON.parse(text)).toEqual(result);
  });

  it('pages a list longer than the default page size, every item once', () => {
    const all = items(2_500);
    const seen: string[] = [];
    const sizes: number[] = [];
    let cursor: unknown;
    do {
      const { result } = pageText('tools', all, cursor, pageSize);
      const page = result.tools as JsonObject[];
      sizes.push(page.length);
      seen.push(...page.map((t) => t.name as string));
      cursor = result.nextCursor;
    } while (cursor !== undefined);
    expect(sizes).toEqual([1_000, 1_000, 500]);
    expect(seen).toEqual(all.map((t) => t.name));
  });

  it('takes limits.pageSize from the config, and names the path of a bad one', () => {
    expect(resolve({ limits: { pageSize: 50 } }).limits.pageSize).toBe(50);
    expect(configError({ limits: { pageSize: 0 } })).toContain('$.limits.pageSize: expected an integer between 1 and 10000');
    expect(configError({ limits: { pageSize: 10_001 } })).toContain('$.limits.pageSize');
    expect(configError({ limits: { pageSize: '1000' } })).toContain('$.limits.pageSize');
  });
});
