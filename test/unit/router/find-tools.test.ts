// find_tools over a catalog: a short query is one search, answered exactly as before clause
// splitting; a long one is searched whole and per clause; `queries` are searched as given.
import { describe, expect, it } from 'vitest';
import { findTools } from '../../../src/router/search-tools.js';
import type { Catalog } from '../../../src/catalog/catalog.js';
import type { SearchHit, SearchOptions } from '../../../src/catalog/catalog-search.js';
import type { View } from '../../../src/catalog/view.js';

const TOOLS = ['fs__read_file', 'fs__write_file', 'k8s__get_pods', 'k8s__pod_logs', 'slack__post_message'];

/** A catalog whose search ranks tools by the words of their names the text holds, and records each search. */
function catalog(): Pick<Catalog, 'search'> & { calls: Array<{ text: string; options: SearchOptions }> } {
  const calls: Array<{ text: string; options: SearchOptions }> = [];
  return {
    calls,
    search: (_view, text, options) => {
      calls.push({ text, options });
      const score = (name: string): number => name.split(/__|_/).filter((word) => text.toLowerCase().includes(word)).length;
      return TOOLS.filter((name) => score(name) > 0)
        .sort((a, b) => score(b) - score(a))
        .slice(0, options.limit)
        .map((name): SearchHit => ({ name, server: name.split('__')[0] as string, score: score(name), definition: { name, description: `does ${name}`, inputSchema: { type: 'object' } } }));
    },
  };
}

const view = {} as unknown as View;

describe('findTools', () => {
  it('answers a short query with one search of the default limit, the hits as they came', () => {
    const fake = catalog();
    const found = findTools(fake, view, { query: 'read a file' });
    expect(fake.calls).toEqual([{ text: 'read a file', options: { limit: 5, server: undefined, context: undefined } }]);
    expect(found).toEqual([
      { name: 'fs__read_file', server: 'fs', description: 'does fs__read_file', inputSchema: { type: 'object' } },
      { name: 'fs__write_file', server: 'fs', description: 'does fs__write_file', inputSchema: { type: 'object' } },
    ]);
  });

  it('searches a long request whole and per clause, and returns each clause its tool', () => {
    const fake = catalog();
    const query = 'get the pods of the payments namespace, show me the logs of the crashing pod and then post a message to the ops channel';
    const found = findTools(fake, view, { query, limit: 5 });
    expect(fake.calls.map((call) => call.text)).toEqual([
      query,
      'get the pods of the payments namespace',
      'show me the logs of the crashing pod',
      'post a message to the ops channel',
    ]);
    expect(fake.calls.slice(1).map((call) => call.options.context)).toEqual([query, query, query]);
    expect(found.map((tool) => tool.name)).toEqual(expect.arrayContaining(['k8s__get_pods', 'k8s__pod_logs', 'slack__post_message']));
  });

  it('searches `queries` as the model split them, with the keywords, never splitting further', () => {
    const fake = catalog();
    findTools(fake, view, { queries: ['get the pods, then read the logs of one', 'post a message'], keywords: ['k8s'] });
    expect(fake.calls.map((call) => [call.text, call.options.limit, call.options.context])).toEqual([
      ['get the pods, then read the logs of one k8s', 20, undefined],
      ['post a message k8s', 20, undefined],
    ]);
  });
});
