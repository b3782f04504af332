// Searching a request: one text is searched exactly as before; a long request of several steps is
// searched per clause and whole, and each clause's best tool reaches the top 5; `queries` fuse as
// they always did.
import { describe, expect, it } from 'vitest';
import { ToolIndex, type IndexedServer, type IndexedTool, type SearchHit } from '../../../src/search/tool-index.js';
import { fuse, searchRequest, type StepSearch } from '../../../src/search/merge.js';

const TOOLS: Array<[server: string, name: string, description: string]> = [
  ['kubernetes', 'kubectl_get', 'Get or list Kubernetes resources such as pods, deployments and services in a namespace'],
  ['kubernetes', 'kubectl_describe', 'Describe a Kubernetes resource in detail: pods, deployments, nodes'],
  ['kubernetes', 'kubectl_logs', 'Get logs from the containers of a Kubernetes pod'],
  ['kubernetes', 'kubectl_rollout', 'Manage the rollout of a deployment: restart, status, undo'],
  ['kubernetes', 'kubectl_delete', 'Delete Kubernetes resources: pods, deployments, namespaces'],
  ['kubernetes', 'kubectl_scale', 'Scale the replicas of a deployment in a namespace'],
  ['kubernetes', 'exec_in_pod', 'Execute a command in a pod of a namespace'],
  ['kubernetes', 'kubectl_events', 'Show the events of the pods in a namespace, such as a crashing pod being restarted'],
  ['kubernetes', 'port_forward', 'Forward a local port to a pod in a namespace'],
  ['kubernetes', 'kubectl_top', 'Show the CPU and memory of the pods in a namespace'],
  // Tools that share words with several steps: searched whole, the request ranks them first.
  ['kubernetes', 'export_logs', 'Export the logs of the pods in a namespace to a new file'],
  ['kubernetes', 'crash_report', 'Write a summary report of the crashing pods in a namespace'],
  ['kubernetes', 'pod_summary', 'Show me a summary of the pods in a namespace'],
  ['discord', 'post_message', 'Post a message to a channel'],
  ['slack', 'post_message', 'Post a message to a channel'],
  ['slack', 'list_channels', 'List the channels of the workspace'],
  ['fs', 'read_file', 'Read the complete contents of a file'],
  ['fs', 'write_file', 'Create a new file or overwrite a file with new content'],
];

function fixture(): ToolIndex {
  const tools: IndexedTool[] = TOOLS.map(([server, name, description]) => ({ key: `${server}__${name}`, server, name, description }));
  const servers = new Map<string, IndexedServer>(['kubernetes', 'discord', 'slack', 'fs'].map((name) => [name, { name, alias: name }]));
  return ToolIndex.build(tools, servers);
}

/** A searcher over the index that records what it was asked. */
function recording(index: ToolIndex): StepSearch<SearchHit> & { calls: Array<{ text: string; limit: number; context: string | undefined }> } {
  const calls: Array<{ text: string; limit: number; context: string | undefined }> = [];
  return {
    calls,
    search: (text, limit, context) => {
      calls.push({ text, limit, context });
      return index.search(text, { limit, context });
    },
    key: (hit) => hit.key,
  };
}

const keys = (hits: readonly SearchHit[]): string[] => hits.map((hit) => hit.key);

describe('searchRequest', () => {
  const index = fixture();
  const request = 'get the pods in the payments namespace, show me the logs of the crashing pod and then write a summary of it to a new file';

  it('gives each clause of a three-step request its best tool in the top 5', () => {
    const searcher = recording(index);
    const top = keys(searchRequest({ query: request, limit: 5 }, searcher));
    expect(top).toHaveLength(5);
    expect(top).toEqual(expect.arrayContaining(['kubernetes__kubectl_get', 'kubernetes__kubectl_logs', 'fs__write_file']));
    // Searched whole, then per clause with the whole request as context.
    expect(searcher.calls.map((call) => call.text)).toEqual([
      request,
      'get the pods in the payments namespace',
      'show me the logs of the crashing pod',
      'write a summary of it to a new file',
    ]);
    expect(searcher.calls.slice(1).every((call) => call.context === request)).toBe(true);
    // The whole request alone does not rank all three in its top 5: the clauses are what brings them.
    const whole = keys(index.search(request, { limit: 5 }));
    expect(['kubernetes__kubectl_get', 'kubernetes__kubectl_logs', 'fs__write_file'].every((key) => whole.includes(key))).toBe(false);
  });

  it('returns 3 tools per clause when the request gives no limit', () => {
    expect(searchRequest({ query: request }, recording(index))).toHaveLength(9);
  });

  it('searches a request of one clause exactly as a single search, once', () => {
    for (const [query, limit] of [['read a file', undefined], ['list the channels of the workspace', 3], ['copy and paste the pod logs into a new file', 7]] as const) {
      const searcher = recording(index);
      const hits = searchRequest({ query, limit }, searcher);
      expect(searcher.calls).toEqual([{ text: query, limit: limit ?? 5, context: undefined }]);
      expect(JSON.stringify(hits)).toBe(JSON.stringify(index.search(query, { limit: limit ?? 5 })));
    }
  });

  it('never splits `query` when the model gave `queries`, and adds keywords to every text', () => {
    const searcher = recording(index);
    searchRequest({ query: 'get the pods in the namespace, then show the logs of one', queries: ['post a message'], keywords: ['kubernetes'] }, searcher);
    expect(searcher.calls.map((call) => call.text)).toEqual(['get the pods in the namespace, then show the logs of one kubernetes', 'post a message kubernetes']);
    expect(searcher.calls.every((call) => call.context === undefined)).toBe(true);
  });

  it('names the server the whole request names for a clause that does not', () => {
    // Without context the tie goes to the tool indexed first (discord's); the request names slack.
    expect(keys(index.search('post a message', { limit: 1 }))).toEqual(['discord__post_message']);
    expect(keys(index.search('post a message', { limit: 1, context: 'in slack: list the channels, then post a message' }))).toEqual(['slack__post_message']);
  });
});

describe('fuse', () => {
  const key = (hit: string): string => hit;

  it('puts the best of each list first, in order, then the rest by reciprocal rank fusion', () => {
    expect(fuse([['a', 'b', 'c'], ['d', 'c', 'e']], 4, key)).toEqual(['a', 'd', 'c', 'b']);
  });

  it('gives a list whose best is taken its next best, or with ownBestOnly no slot of its own', () => {
    expect(fuse([['a', 'b'], ['a', 'c'], ['d', 'b']], 3, key)).toEqual(['a', 'c', 'd']);
    expect(fuse([['a', 'b'], ['a', 'c'], ['d', 'b']], 3, key, true)).toEqual(['a', 'd', 'b']);
  });
});
