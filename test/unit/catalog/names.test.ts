import { describe, expect, it } from 'vitest';
import { assignNames, emittedName, hashedName } from '../../../src/catalog/names.js';

const rule = { prefix: 'fs__', maxLength: 48 };
const VALID = /^[A-Za-z0-9_-]+$/;

describe('tool names', () => {
  it('prefixes a plain name and keeps it otherwise unchanged', () => {
    expect(emittedName(rule, 'read_file')).toBe('fs__read_file');
    expect(emittedName({ prefix: '', maxLength: 48 }, 'test_simple_text')).toBe('test_simple_text');
  });

  it('replaces characters hosts reject', () => {
    expect(emittedName(rule, 'dotted.name')).toBe('fs__dotted_name');
    expect(emittedName(rule, 'a b/c:d')).toMatch(VALID);
  });

  it('shortens an over-long name deterministically to the limit', () => {
    const long = 'a_really_long_tool_name_that_goes_on_and_on_past_any_host_limit_of_sixty_four_chars';
    const first = emittedName(rule, long);
    expect(first.length).toBeLessThanOrEqual(48);
    expect(first).toMatch(VALID);
    expect(first.startsWith('fs__a_really_long')).toBe(true);
    expect(emittedName(rule, long)).toBe(first);
    expect(emittedName({ prefix: 'fs__', maxLength: 30 }, long).length).toBe(30);
  });

  it('gives two long names that share a start different names', () => {
    const a = `${'x'.repeat(60)}_alpha`;
    const b = `${'x'.repeat(60)}_beta`;
    expect(emittedName(rule, a)).not.toBe(emittedName(rule, b));
  });

  it('resolves a collision made by sanitizing to the hashed form, and keeps both routable', () => {
    const skipped: string[] = [];
    const names = assignNames(rule, ['get.item', 'get_item'], new Set(), (o) => skipped.push(o));
    expect(skipped).toEqual([]);
    expect([...names.values()].sort()).toEqual(['get.item', 'get_item']);
    expect(names.get('fs__get_item')).toBe('get.item');
    expect(names.get(hashedName(rule, 'get_item'))).toBe('get_item');
  });

  it('checks against names other servers already took', () => {
    const taken = new Set<string>();
    assignNames({ prefix: 'a__', maxLength: 48 }, ['b__c'], taken, () => {});
    const second = assignNames({ prefix: 'a__b__', maxLength: 48 }, ['c'], taken, () => {});
    expect([...second.keys()][0]).not.toBe('a__b__c');
    expect([...second.values()]).toEqual(['c']);
  });

  it('leaves out a duplicate original and says why', () => {
    const skipped: string[] = [];
    const names = assignNames(rule, ['x', 'x'], new Set(), (o, why) => skipped.push(`${o}: ${why}`));
    expect(names.size).toBe(1);
    expect(skipped).toEqual(['x: the server lists this name more than once']);
  });
});

describe('names never enter another server’s namespace', () => {
  it('flattens the separators of a name that would, and leaves every other name alone', () => {
    const rule = { prefix: 'a__', maxLength: 48, foreign: { prefixes: ['a__b__'], separator: '__' } };
    expect(emittedName(rule, 'b__echo')).toBe('a__b_echo');
    expect(emittedName(rule, 'b____x')).toBe('a__b_x');
    expect(emittedName(rule, 'c__echo')).toBe('a__c__echo');
    expect(hashedName(rule, 'b__echo').startsWith('a__b__')).toBe(false);
    const single = { prefix: 'a_', maxLength: 48, foreign: { prefixes: ['a_b_'], separator: '_' } };
    expect(emittedName(single, 'b_echo')).toBe('a_b-echo');
  });
});
