import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cpuTimed } from '../../cpu-time.js';
import { resolveConfig } from '../../../src/config/load.js';
import type { SwitchboardConfig } from '../../../src/config/types.js';
import { applyBudget, compileGlob, resolveViewFilter, UNRESTRICTED, type ViewFilter } from '../../../src/session/filter.js';

const env = { PATH: path.dirname(process.execPath) };
const config = resolveConfig(
  {
    mcpServers: { fs: { command: 'node' }, memory: { command: 'node' }, everything: { command: 'node' } },
    profiles: {
      reader: { tools: { allow: ['fs__read_*', 'fs__list_*', 'memory__*'], deny: ['*__write_*', 'memory__delete_*'] } },
      noMemory: { servers: { deny: ['memory'] }, prompts: { allow: [] } },
      small: { maxTools: 2, maxTokens: 300 },
      tiny: { maxTools: 1 },
      lean: { maxTokens: 300 },
      memoryFirst: { maxTools: 2, priority: ['memory__*', 'everything__*'] },
      open: {},
    },
  },
  { file: '<inline>', dir: process.cwd() },
  env,
);

function filter(bound: string | undefined, query = '', cfg: Pick<SwitchboardConfig, 'profiles'> = config): ViewFilter {
  const result = resolveViewFilter(bound, new URLSearchParams(query), cfg);
  if (!result.ok) throw new Error(result.error.message);
  return result.filter;
}

/** A simple, obviously right (and backtracking) reference to compare the linear matcher with. */
function reference(glob: string, name: string): boolean {
  const body = Array.from(glob)
    .map((c) => (c === '*' ? '.*' : c === '?' ? '.' : c.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&')))
    .join('');
  return new RegExp(`^${body}$`, 'su').test(name);
}

describe('globs', () => {
  const cases: Array<[string, string, boolean]> = [
    ['*', '', true],
    ['*', 'anything at all', true],
    ['', '', true],
    ['', 'a', false],
    ['fs__read_*', 'fs__read_file', true],
    ['fs__read_*', 'fs__read_', true],
    ['fs__read_*', 'xfs__read_file', false],
    ['fs__read_*', 'FS__read_file', false],
    ['*__write_*', 'fs__write_file', true],
    ['*__write_*', 'fs__rewrite_file', false],
    ['fs', 'fs__x', false],
    ['?', 'a', true],
    ['?', '', false],
    ['?', 'ab', false],
    ['a?c', 'abc', true],
    ['a?c', 'ac', false],
    ['**', '', true],
    ['a**b', 'ab', true],
    ['ab*ba', 'aba', false],
    ['ab*ba', 'abba', true],
    ['a*b*c', 'aXbYbZc', true],
    ['a*b*c', 'acb', false],
    ['fs.read', 'fs.read', true],
    ['fs.read', 'fsXread', false],
    ['a+b(c)[d]$^\\', 'a+b(c)[d]$^\\', true],
    ['?', '🚀', true],
    ['x?y', 'x🚀y', true],
  ];
  it.each(cases)('%j against %j is %s', (glob, name, expected) => {
    expect(compileGlob(glob)(name)).toBe(expected);
    expect(reference(glob, name)).toBe(expected);
  });

  it('agrees with a regular-expression reference on random globs and names', () => {
    let seed = 42;
    const rand = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const pick = (alphabet: string, max: number): string => Array.from({ length: rand(max + 1) }, () => alphabet[rand(alphabet.length)]).join('');
    for (let i = 0; i < 5000; i++) {
      const glob = pick('ab_*?', 7);
      const name = pick('ab_', 9);
      expect(compileGlob(glob)(name), `${glob} ~ ${name}`).toBe(reference(glob, name));
    }
  });

  it('stays linear on globs that make backtracking matchers explode', () => {
    const name = 'a'.repeat(20_000);
    const { ms } = cpuTimed(() => {
      expect(compileGlob('*a*a*a*a*a*a*a*a*a*a*b')(name)).toBe(false);
      expect(compileGlob('a*a*a*a*a*a*a*a*a*a*a')(name)).toBe(true);
    });
    expect(ms).toBeLessThan(200);
  });
});

describe('view filters', () => {
  it('show everything without bound or query, under the key "all"', () => {
    const f = filter(undefined);
    expect(f.key).toBe('all');
    expect(f.key).toBe(UNRESTRICTED.key);
    expect(f.allowsTool('memory__delete_entities', 'memory')).toBe(true);
    expect(f.allowsPrompt('everything__simple', 'everything')).toBe(true);
    expect(f.maxTools).toBeUndefined();
  });

  it('let deny win over allow, and treat a missing allow as allow-all', () => {
    const f = filter('reader');
    expect(f.allowsTool('fs__read_file', 'fs')).toBe(true);
    expect(f.allowsTool('fs__write_file', 'fs')).toBe(false);
    expect(f.allowsTool('memory__create_entities', 'memory')).toBe(true);
    expect(f.allowsTool('memory__delete_entities', 'memory')).toBe(false);
    expect(f.allowsTool('everything__echo', 'everything')).toBe(false);
    // reader says nothing about prompts or servers.
    expect(f.allowsPrompt('everything__simple', 'everything')).toBe(true);
    expect(f.allowsServer('everything')).toBe(true);
  });

  it('apply server rules to tools and prompts, and an empty allow to nothing', () => {
    const f = filter('noMemory');
    expect(f.allowsServer('memory')).toBe(false);
    expect(f.allowsTool('memory__read_graph', 'memory')).toBe(false);
    expect(f.allowsTool('fs__read_file', 'fs')).toBe(true);
    expect(f.allowsPrompt('fs__anything', 'fs')).toBe(false);
  });

  it('narrow a bound by ?profile= and ?tools=, never widen it', () => {
    const both = filter('reader', 'profile=noMemory');
    expect(both.allowsTool('memory__create_entities', 'memory')).toBe(false);
    expect(both.allowsTool('fs__read_file', 'fs')).toBe(true);
    const narrowed = filter('reader', 'tools=fs__*,everything__*');
    expect(narrowed.allowsTool('fs__read_file', 'fs')).toBe(true);
    expect(narrowed.allowsTool('memory__create_entities', 'memory')).toBe(false);
    // The query asks for everything__*, the bound never allowed it.
    expect(narrowed.allowsTool('everything__echo', 'everything')).toBe(false);
    expect(filter('reader', 'profile=open').allowsTool('fs__write_file', 'fs')).toBe(false);
    expect(both.label).toBe('profile reader, ?profile=noMemory');
  });

  it('serve a query alone when there is no token', () => {
    const f = filter(undefined, 'profile=reader&tools=fs__read_*');
    expect(f.allowsTool('fs__read_file', 'fs')).toBe(true);
    expect(f.allowsTool('fs__list_directory', 'fs')).toBe(false);
    expect(f.label).toBe('?profile=reader, ?tools=fs__read_*');
  });

  it('take the smallest caps of every profile involved', () => {
    expect(filter('small', 'profile=tiny')).toMatchObject({ maxTools: 1, maxTokens: 300 });
    expect(filter('tiny')).toMatchObject({ maxTools: 1, maxTokens: undefined });
  });

  it('never widen: a random query admits a subset of what its bound admits', () => {
    let seed = 7;
    const rand = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const glob = (): string => Array.from({ length: 1 + rand(6) }, () => 'ab_*?'[rand(5)]).join('');
    const globs = (): string[] => Array.from({ length: rand(3) }, glob);
    const names = Array.from({ length: 60 }, () => Array.from({ length: 1 + rand(6) }, () => 'ab_'[rand(3)]).join(''));
    let admitted = 0;
    let narrowed = 0;
    for (let round = 0; round < 120; round++) {
      const rule = () => (rand(3) === 0 ? undefined : { allow: rand(2) === 0 ? undefined : globs(), deny: globs() });
      const profile = (name: string) => ({ name, tools: full(rule()), prompts: full(rule()), servers: full(rule()), resources: full(undefined), maxTools: undefined, maxTokens: undefined, discovery: undefined, pinned: [], priority: [] });
      const profiles = { bound: profile('bound'), asked: profile('asked') };
      const query = new URLSearchParams();
      if (rand(2) === 0) query.set('profile', 'asked');
      if (rand(2) === 0) query.set('tools', [glob(), glob()].join(',').replace(/^,|,$/g, 'a'));
      const wide = filter('bound', '', { profiles });
      const result = resolveViewFilter('bound', query, { profiles });
      if (!result.ok) throw new Error(result.error.message);
      const narrow = result.filter;
      for (const server of names.slice(0, 8)) {
        if (narrow.allowsServer(server)) expect(wide.allowsServer(server)).toBe(true);
        for (const name of names) {
          if (narrow.allowsTool(name, server)) {
            admitted++;
            expect(wide.allowsTool(name, server)).toBe(true);
          } else if (wide.allowsTool(name, server)) narrowed++;
          if (narrow.allowsPrompt(name, server)) expect(wide.allowsPrompt(name, server)).toBe(true);
        }
      }
    }
    // Not vacuous: queries both let names through and hold some back.
    expect(admitted).toBeGreaterThan(1000);
    expect(narrowed).toBeGreaterThan(1000);
  });

  it('have equal keys exactly when built from equal rules', () => {
    expect(filter('reader', 'profile=reader').key).toBe(filter('reader').key);
    expect(filter(undefined, 'profile=reader').key).toBe(filter('reader').key);
    expect(filter(undefined, 'tools=b*,a*,a*').key).toBe(filter(undefined, 'tools=a*, b*').key);
    expect(filter(undefined, 'tools=*').key).toBe('all');
    expect(filter(undefined, 'profile=open').key).toBe('all');
    const keys = new Set(['reader', 'noMemory', 'small', 'tiny'].map((p) => filter(p).key));
    expect(keys.size).toBe(4);
    expect(filter('reader', 'tools=fs__*').key).not.toBe(filter('reader').key);
  });
});

describe('query errors', () => {
  const error = (bound: string | undefined, query: string) => {
    const result = resolveViewFilter(bound, new URLSearchParams(query), config);
    if (result.ok) throw new Error('expected an error');
    return result.error;
  };

  it('answer an unknown ?profile= with 400, and a bound that vanished with 403', () => {
    expect(error(undefined, 'profile=nope')).toEqual({ code: 'unknown_profile', status: 400, message: 'unknown profile "nope" in ?profile=' });
    expect(error('reader', 'profile=constructor').code).toBe('unknown_profile');
    expect(error('gone', '')).toMatchObject({ code: 'stale_profile', status: 403 });
  });

  it('refuse repeated, empty, oversized and impossible parameters', () => {
    expect(error(undefined, 'profile=reader&profile=open').message).toBe('give ?profile= at most once');
    expect(error(undefined, 'profile=').code).toBe('unknown_profile');
    expect(error(undefined, 'tools=a*&tools=b*').code).toBe('bad_query');
    expect(error(undefined, 'tools=').message).toContain('empty glob');
    expect(error(undefined, 'tools=a*,,b*').message).toContain('empty glob');
    expect(error(undefined, `tools=${Array(65).fill('a').join(',')}`).message).toBe('?tools= holds more than 64 globs');
    expect(error(undefined, `tools=${'a'.repeat(257)}`).message).toContain('longer than 256');
    expect(error(undefined, 'tools=fs.read').message).toContain('can never match');
  });
});

describe('budget', () => {
  const tools = [
    { name: 'fs__read_file', server: 'fs', tokens: 100 },
    { name: 'fs__write_file', server: 'fs', tokens: 100 },
    { name: 'fs__list_directory', server: 'fs', tokens: 150 },
    { name: 'memory__read_graph', server: 'memory', tokens: 50 },
    { name: 'everything__echo', server: 'everything', tokens: 10 },
  ];

  it('keeps everything allowed when there are no caps', () => {
    expect(applyBudget(filter('reader'), tools)).toEqual({
      kept: ['fs__read_file', 'fs__list_directory', 'memory__read_graph'],
      leftOut: [],
      reasons: new Map(),
      tokens: 300,
    });
  });

  it('keeps a prefix in config order and names what it left out', () => {
    expect(applyBudget(filter('tiny'), tools)).toMatchObject({
      kept: ['fs__read_file'],
      leftOut: ['fs__write_file', 'fs__list_directory', 'memory__read_graph', 'everything__echo'],
      tokens: 100,
    });
    expect(applyBudget(filter('tiny'), tools).reasons.get('fs__write_file')).toBe('maxTools 1 reached');
    expect(applyBudget(filter('tiny'), tools).reasons.get('everything__echo')).toBe('after the budget was full (maxTools 1 reached)');
    // maxTokens 300: read(100) + write(100) fit, list(150) does not, and nothing after it is kept.
    expect(applyBudget(filter('small', 'profile=open'), tools)).toMatchObject({
      kept: ['fs__read_file', 'fs__write_file'],
      leftOut: ['fs__list_directory', 'memory__read_graph', 'everything__echo'],
      tokens: 200,
    });
    expect(applyBudget(filter('small', 'profile=open'), tools).reasons.get('fs__list_directory')).toBe('maxTools 2 reached');
    expect(applyBudget(filter('lean'), tools).reasons.get('fs__list_directory')).toBe('maxTokens 300 would be passed (~200 kept, this tool ~150)');
    // Disallowed tools are neither kept nor left out.
    expect(applyBudget(filter('reader', 'profile=small'), tools)).toMatchObject({
      kept: ['fs__read_file', 'fs__list_directory'],
      leftOut: ['memory__read_graph'],
      tokens: 250,
    });
  });
});

describe('budget priority', () => {
  it('keeps the priority globs first, in their order, then config order', () => {
    const tools = [
      { name: 'fs__read_file', server: 'fs', tokens: 100 },
      { name: 'fs__write_file', server: 'fs', tokens: 100 },
      { name: 'memory__read_graph', server: 'memory', tokens: 50 },
      { name: 'everything__echo', server: 'everything', tokens: 10 },
    ];
    const result = applyBudget(filter('memoryFirst'), tools);
    expect(result.kept).toEqual(['memory__read_graph', 'everything__echo']);
    expect(result.leftOut).toEqual(['fs__read_file', 'fs__write_file']);
    expect(result.reasons.get('fs__read_file')).toBe('maxTools 2 reached');
  });
});

function full(rule: { allow: string[] | undefined; deny: string[] } | undefined) {
  return { allow: rule?.allow ?? ['*'], deny: rule?.deny ?? [] };
}
