// What find_tools says of servers it could not search (search/pending-note.ts), and how its
// description's directory names a server that has not listed yet (meta-tools.ts, catalog-search.ts).
import { describe, expect, it } from 'vitest';
import { NO_PENDING, pendingNote } from '../../../src/search/pending-note.js';
import { metaTools } from '../../../src/search/meta-tools.js';
import { searchListing } from '../../../src/catalog/catalog-search.js';
import { SHOW_ALL, type ViewPolicy } from '../../../src/catalog/view-policy.js';
import { findToolsResult } from '../../../src/router/search-tools.js';

describe('pendingNote', () => {
  it('says nothing when every server is up', () => {
    expect(pendingNote(NO_PENDING)).toBeUndefined();
  });

  it('names the starting servers and asks for a new search', () => {
    expect(pendingNote({ starting: ['late', 'slow'], down: [] })).toBe('Still starting: late, slow (not searched yet; search again in a moment).');
  });

  it('names a down server with its reason on one line, clipped', () => {
    const note = pendingNote({ starting: [], down: [{ name: 'broken', reason: `exited with code 1:\nError: ${'x'.repeat(200)}` }] });
    expect(note).toMatch(/^Down now: broken \(exited with code 1: Error: x+…\); its tools cannot be called until it is back\.$/);
    expect(note).not.toContain('\n');
    expect(note!.length).toBeLessThan(200);
  });

  it('says both in one line, and bounds how many servers it names', () => {
    const starting = Array.from({ length: 12 }, (_, i) => `s${i}`);
    const note = pendingNote({ starting, down: [{ name: 'a', reason: undefined }, { name: 'b', reason: undefined }] });
    expect(note).toBe('Still starting: s0, s1, s2, s3, s4, s5, s6, s7 and 4 more (not searched yet; search again in a moment). Down now: a, b; their tools cannot be called until they are back.');
  });
});

describe('find_tools result with servers pending', () => {
  it('adds the note as one line after the JSON, and the names to the structured result', () => {
    const result = findToolsResult([{ name: 'fast__echo', server: 'fast', inputSchema: {} }], { starting: ['late'], down: [{ name: 'broken', reason: 'exited with code 1' }] });
    const text = (result.content as Array<{ text: string }>)[0]!.text.split('\n');
    expect(JSON.parse(text[0]!)).toEqual(result.structuredContent);
    expect(result.structuredContent).toMatchObject({ starting: ['late'], down: ['broken'] });
    expect(text.slice(1)).toEqual(['Still starting: late (not searched yet; search again in a moment). Down now: broken (exited with code 1); its tools cannot be called until it is back.']);
  });

  it('keeps one line when nothing matched, and the result as before when nothing is pending', () => {
    const none = findToolsResult([], { starting: ['late'], down: [] });
    expect((none.content as Array<{ text: string }>)[0]!.text.split('\n').slice(1)).toEqual(['No tool matched. Still starting: late (not searched yet; search again in a moment).']);
    expect(none.structuredContent).toEqual({ tools: [], starting: ['late'] });
    expect(findToolsResult([]).structuredContent).toEqual({ tools: [] });
  });
});

describe('find_tools directory', () => {
  it('names a starting server as starting and counts only the servers it searches', () => {
    const [find] = metaTools([{ name: 'fs', toolNames: ['read_file', 'list_directory'] }, { name: 'late', toolNames: [], starting: true }], 2);
    expect(find.description).toMatch(/^Search 2 tools of 1 server \(1 more starting\) by/);
    expect(find.description).toMatch(/Servers: fs \([^)]*\); late \(starting\)\.$/);
  });

  it('marks only the view servers not listed yet; a listed server without tools stays out', () => {
    const policy: ViewPolicy = { ...SHOW_ALL, discovery: 'search' };
    const tools = [{ name: 'fs__read_file' }];
    const routes = new Map([['fs__read_file', { server: 'fs', original: 'read_file' }]]);
    const [find] = searchListing(['fs', 'empty', 'late'], tools, routes, policy, () => undefined, (server) => server === 'late');
    expect(String(find!.description)).toMatch(/Servers: fs \([^)]*\); late \(starting\)\.$/);
    expect(String(find!.description)).not.toContain('empty');
  });
});
