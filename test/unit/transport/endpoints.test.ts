import { describe, expect, it } from 'vitest';
import { AGGREGATE_SCOPE } from '../../../src/catalog/view.js';
import { EndpointTable, hasEndpointShape, isServerPath, pathOf } from '../../../src/transport/endpoints.js';

describe('endpoint paths', () => {
  const table = new EndpointTable(['fs', 'my server']);

  it('names the aggregate endpoints at the root, with every server', () => {
    expect(table.find('/mcp')).toEqual({ kind: 'mcp', scope: AGGREGATE_SCOPE, base: '' });
    expect(table.find('/ws')?.kind).toBe('ws');
    expect(table.find('/other')).toBeUndefined();
  });

  it('names one server under /s/<server>/, %-decoded, and nothing for an unknown or malformed name', () => {
    const fs = table.find('/s/fs/sse');
    expect(fs?.kind).toBe('sse');
    expect(fs?.base).toBe('/s/fs');
    expect([...(fs?.scope.servers ?? [])]).toEqual(['fs']);
    expect(table.find('/s/my%20server/messages')?.scope.servers?.has('my server')).toBe(true);
    expect(table.find('/s/nope/mcp')).toBeUndefined();
    expect(table.find('/s/%E0%A4%A/mcp')).toBeUndefined();
    expect(table.find('/x/fs/mcp')).toBeUndefined();
  });

  it('follows the configured servers, and maps a session endpoint back to its scope', () => {
    const changing = new EndpointTable(['a']);
    const a = changing.scopeOfEndpoint(changing.find('/s/a/mcp')?.scope.endpoint ?? '');
    expect(a?.servers?.has('a')).toBe(true);
    expect(changing.scopeOfEndpoint(AGGREGATE_SCOPE.endpoint)).toBe(AGGREGATE_SCOPE);
    changing.useServers(['b']);
    expect(changing.find('/s/a/mcp')).toBeUndefined();
    expect(changing.scopeOfEndpoint('s:a')).toBeUndefined();
    expect(changing.find('/s/b/ws')?.kind).toBe('ws');
  });

  it('tells an endpoint-shaped path whether or not its server exists', () => {
    expect(hasEndpointShape('/mcp')).toBe(true);
    expect(hasEndpointShape('/s/unknown/mcp')).toBe(true);
    expect(hasEndpointShape('/a/b/mcp')).toBe(false);
    expect(isServerPath('/s/unknown/ws')).toBe(true);
    expect(isServerPath('/mcp')).toBe(false);
    expect(pathOf('/mcp?tools=fs__*')).toBe('/mcp');
    expect(pathOf(undefined)).toBe('/');
  });
});
