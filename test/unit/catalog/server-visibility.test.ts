// Which servers a view shows: a view that hides every tool of a server hides the server (its
// prompts, resources, templates, instructions); a server without tools is judged by the server rule.
import { describe, expect, it } from 'vitest';
import { Catalog } from '../../../src/catalog/catalog.js';
import { AGGREGATE_SCOPE, narrowScope, serverScope } from '../../../src/catalog/view.js';
import { showsServer } from '../../../src/catalog/view-policy.js';
import { ServerVisibility } from '../../../src/catalog/server-visibility.js';
import { resolveConfig } from '../../../src/config/load.js';
import type { JsonObject } from '../../../src/jsonrpc/messages.js';
import { silentLogger } from '../../../src/log.js';
import { resolveViewFilter, type ViewFilter } from '../../../src/session/filter.js';
import type { ServerIdentity } from '../../../src/upstream/types.js';

const profiles = {
  reader: { tools: { allow: ['fs__read_*', 'memory__*'], deny: ['*__write_*'] } },
  fsOnly: { servers: { allow: ['fs'] } },
  noDocs: { tools: { allow: ['fs__*'] }, servers: { deny: ['docs'] } },
  capped: { tools: { allow: ['fs__*', 'web__*'] }, maxTools: 1 },
  agent: { tools: { allow: ['fs__*'] }, discovery: 'search' },
};
const server = { command: process.execPath };
const config = resolveConfig({ mcpServers: { fs: server, web: server, docs: server, late: server }, profiles }, { file: '<inline>', dir: process.cwd() }, process.env);

function filter(profile: string | undefined, query: Record<string, string> = {}): ViewFilter {
  const resolved = resolveViewFilter(undefined, new URLSearchParams({ ...(profile === undefined ? {} : { profile }), ...query }), config);
  if (!resolved.ok) throw new Error(resolved.error.message);
  return resolved.filter;
}

const tool = (name: string): JsonObject => ({ name, description: `${name} things`, inputSchema: { type: 'object' } });
const lists = (server: string, tools: string[]) => ({
  tools: tools.map(tool),
  prompts: [{ name: `${server}_prompt`, description: 'A prompt.' }],
  resources: [{ uri: `${server}://static`, name: 'static' }],
  resourceTemplates: [{ uriTemplate: `${server}://item/{id}`, name: 'item' }],
});
const identity = (name: string, tools: boolean): ServerIdentity => ({
  protocolVersion: '2025-11-25',
  era: 'session',
  capabilities: { ...(tools ? { tools: {} } : {}), prompts: {}, resources: {} },
  serverInfo: { name, version: '1' },
  instructions: `Use ${name} well.`,
});

function catalog(): Catalog {
  const c = new Catalog(config, silentLogger());
  c.updateMany([
    { server: 'fs', lists: lists('fs', ['read_file', 'write_file']), identity: identity('fs', true) },
    { server: 'web', lists: lists('web', ['fetch']), identity: identity('web', true) },
    // Prompts and resources, no tools at all.
    { server: 'docs', lists: lists('docs', []), identity: identity('docs', false) },
  ]);
  return c;
}

describe('showsServer', () => {
  it('hides a server whose every tool the view hides, by allow or by deny', () => {
    const reader = filter('reader');
    expect(showsServer(reader, 'fs', ['fs__read_file', 'fs__write_file'])).toBe(true);
    expect(showsServer(reader, 'web', ['web__fetch'])).toBe(false);
    expect(showsServer(reader, 'fs', ['fs__write_file'])).toBe(false);
    expect(showsServer(filter(undefined, { tools: 'web__*' }), 'fs', ['fs__read_file'])).toBe(false);
  });

  it('judges a server without tools, or not listed yet, by the server rule alone', () => {
    expect(showsServer(filter('reader'), 'docs', [])).toBe(true);
    expect(showsServer(filter('reader'), 'late', undefined)).toBe(true);
    expect(showsServer(filter('noDocs'), 'docs', [])).toBe(false);
    expect(showsServer(filter('fsOnly'), 'docs', [])).toBe(false);
    expect(showsServer(filter('fsOnly'), 'fs', ['fs__write_file'])).toBe(true);
  });

  it('counts the rules, not the budget: a server whose tools the cap left out stays', () => {
    expect(showsServer(filter('capped'), 'web', ['web__fetch'])).toBe(true);
  });
});

describe('Catalog views and the servers they show', () => {
  it("leaves out the prompts, resources, templates and instructions of a server whose tools the view hides", () => {
    const c = catalog();
    const view = c.current(narrowScope(AGGREGATE_SCOPE, filter('reader')));
    expect(view.servers).toEqual(['fs', 'docs', 'late']);
    expect(view.tools.map((t) => t.name)).toEqual(['fs__read_file']);
    expect(view.prompts.map((p) => p.name)).toEqual(['fs__fs_prompt', 'docs__docs_prompt']);
    expect(view.resources.map((r) => r.uri)).toEqual(['fs://static', 'docs://static']);
    expect(view.resourceTemplates.map((t) => t.uriTemplate)).toEqual(['fs://item/{id}', 'docs://item/{id}']);
    expect(view.promptRoutes.has('web__web_prompt')).toBe(false);
    expect(c.resourceOwner(view, 'web://static')).toBeUndefined();
    expect(c.resourceOwner(view, 'web://item/7')).toBeUndefined();
    expect(c.instructions(view)).not.toContain('web');
    // Unfiltered, every server shows everything.
    const all = c.current(AGGREGATE_SCOPE);
    expect(all.prompts.map((p) => p.name)).toEqual(['fs__fs_prompt', 'web__web_prompt', 'docs__docs_prompt']);
  });

  it('answers shows() for per-server endpoints, and follows a listing that changes it', () => {
    const c = catalog();
    const reader = filter('reader');
    expect(['fs', 'web', 'docs', 'late', 'nope'].map((s) => c.shows(reader, s))).toEqual([true, false, true, true, false]);
    expect(c.current(narrowScope(serverScope('web'), reader)).prompts).toEqual([]);
    // web lists a tool the view admits: it is shown from then on; fs without its read tool is hidden.
    const readers = filter(undefined, { tools: 'fs__read_*,web__read_*' });
    expect(c.shows(readers, 'web')).toBe(false);
    c.update('web', lists('web', ['fetch', 'read_page']), identity('web', true));
    expect(c.shows(readers, 'web')).toBe(true);
    expect(c.current(narrowScope(serverScope('web'), readers)).prompts.map((p) => p.name)).toEqual(['web_prompt']);
    c.update('fs', lists('fs', ['write_file']), identity('fs', true));
    expect(c.shows(reader, 'fs')).toBe(false);
    c.update('fs', lists('fs', ['read_file']), identity('fs', true));
    expect(c.shows(reader, 'fs')).toBe(true);
    expect(c.shows(filter(undefined, { tools: 'web__*' }), 'web')).toBe(true);
  });

  it('shows a search-mode view the same servers as its list-mode twin', () => {
    const c = catalog();
    const view = c.current(narrowScope(AGGREGATE_SCOPE, filter('agent')));
    expect(view.servers).toEqual(['fs', 'docs', 'late']);
    expect(view.prompts.map((p) => p.name)).toEqual(['fs__fs_prompt', 'docs__docs_prompt']);
  });
});

describe('ServerVisibility', () => {
  it('counts tools the catalog does not serve (withheld by the sanitizer) as the server\'s tools', () => {
    const visibility = new ServerVisibility();
    // web listed `fetch`, and the sanitizer withheld it: web still has tools, none the reader's.
    visibility.relist([
      { server: 'web', prefix: 'web__', listed: ['fetch'], served: [] },
      { server: 'fs', prefix: 'fs__', listed: ['read_file'], served: [{ original: 'read_file', emitted: 'fs__read_file' }] },
    ]);
    expect(visibility.shows(filter('reader'), 'web')).toBe(false);
    expect(visibility.shows(filter('reader'), 'fs')).toBe(true);
    // A view whose tool rule admits everything still shows it (its prompts are not the sanitizer's business here).
    expect(visibility.shows(filter(undefined, { discovery: 'search' }), 'web')).toBe(true);
    // A withheld tool the reader would admit keeps web in the reader's view.
    visibility.relist([{ server: 'web', prefix: 'web__', listed: ['fetch'], served: [] }, { server: 'fs', prefix: 'fs__', listed: ['read_file'], served: [] }]);
    expect(visibility.shows(filter('reader'), 'fs')).toBe(true);
  });
});
