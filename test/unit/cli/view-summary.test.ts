// What `check` and `tools` report for a profile: what tools/list gives the model (in search mode
// the search tools and pinned ones, not the catalog) and how many tools a session can reach.
import { afterEach, describe, expect, it } from 'vitest';
import { summarizeView } from '../../../src/cli/view-summary.js';
import { resolveConfig } from '../../../src/config/load.js';
import type { JsonObject } from '../../../src/jsonrpc/messages.js';
import { silentLogger } from '../../../src/log.js';
import { SwitchboardCore } from '../../../src/switchboard.js';

const server = { command: process.execPath };
const profiles = {
  agent: { discovery: 'search', pinned: ['fs__read_file'] },
  reader: { tools: { allow: ['fs__read_*'] } },
  narrowAgent: { tools: { allow: ['fs__*'] }, discovery: 'search' },
};
const tool = (name: string): JsonObject => ({ name, description: `Does ${name.replace(/_/g, ' ')} with care and attention to detail.`, inputSchema: { type: 'object', properties: { path: { type: 'string' } } } });

let core: SwitchboardCore | undefined;
afterEach(async () => {
  await core?.stop();
  core = undefined;
});

function coreWithTools(): SwitchboardCore {
  const config = resolveConfig({ mcpServers: { fs: server, web: server }, profiles }, { file: '<inline>', dir: process.cwd() }, process.env);
  core = new SwitchboardCore(config, silentLogger());
  const names = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}_${i}`);
  const lists = (tools: string[]) => ({ tools: tools.map(tool), prompts: [], resources: [], resourceTemplates: [] });
  core.catalog.updateMany([
    { server: 'fs', lists: lists(['read_file', 'write_file', ...names('fs_op', 30)]), identity: undefined },
    { server: 'web', lists: lists(names('web_op', 40)), identity: undefined },
  ]);
  return core;
}

describe('summarizeView', () => {
  it('reports a search-mode profile as the model gets it: the search tools and the pinned ones, not every tool', () => {
    const c = coreWithTools();
    const all = summarizeView(c, undefined);
    const agent = summarizeView(c, 'agent');
    expect(agent.discovery).toBe('search');
    expect(agent.tools.map((t) => t.name)).toEqual(['switchboard__find_tools', 'switchboard__call_tool', 'fs__read_file']);
    expect(agent.tools.map((t) => t.server)).toEqual(['switchboard', 'switchboard', 'fs']);
    expect(agent.total.tools).toBe(3);
    expect(agent.total.tokens).toBe(agent.tools.reduce((sum, t) => sum + t.tokens, 0));
    expect(agent.total.tokens).toBeLessThan(all.total.tokens / 4);
    // What search reaches: every tool of the view, per server.
    expect(agent.reachable).toEqual(all.total);
    expect(agent.reachable.tools).toBe(72);
    expect([...agent.servers]).toEqual([...all.servers]);
  });

  it('counts only the tools the view allows as reachable', () => {
    const narrow = summarizeView(coreWithTools(), 'narrowAgent');
    expect(narrow.tools.map((t) => t.name)).toEqual(['switchboard__find_tools', 'switchboard__call_tool']);
    expect(narrow.reachable.tools).toBe(32);
    expect([...narrow.servers.keys()]).toEqual(['fs']);
  });

  it('reports a list-mode profile as before: what it lists is what it reaches', () => {
    const reader = summarizeView(coreWithTools(), 'reader');
    expect(reader.discovery).toBe('list');
    expect(reader.tools.map((t) => t.name)).toEqual(['fs__read_file']);
    expect(reader.reachable).toEqual(reader.total);
  });
});
