import { describe, expect, it } from 'vitest';
import { compileTemplate } from '../../../src/catalog/uri-template.js';

describe('compileTemplate', () => {
  it('matches one segment for a simple variable', () => {
    const re = compileTemplate('test://template/{id}/data');
    expect(re?.test('test://template/123/data')).toBe(true);
    expect(re?.test('test://template/1/2/data')).toBe(false);
    expect(re?.test('test://other/123/data')).toBe(false);
  });
  it('matches across segments for reserved expansion', () => {
    expect(compileTemplate('file:///{+path}')?.test('file:///a/b/c.txt')).toBe(true);
  });
  it('escapes literal regex characters', () => {
    const re = compileTemplate('x://a.b/{id}');
    expect(re?.test('x://a.b/1')).toBe(true);
    expect(re?.test('x://aXb/1')).toBe(false);
  });
  it('accepts query expansions as optional', () => {
    const re = compileTemplate('x://list{?page,size}');
    expect(re?.test('x://list')).toBe(true);
    expect(re?.test('x://list?page=2&size=3')).toBe(true);
  });
  it('refuses an unterminated expression', () => {
    expect(compileTemplate('x://{oops')).toBeUndefined();
  });
  it('stays fast on a template built to make a RegExp backtrack', () => {
    const re = compileTemplate('x://{+a}{+b}{+c}{+d}{+e}{+f}/end');
    // A backtracking RegExp needs seconds for one 80-char miss and would never finish these.
    for (let i = 0; i < 100; i++) expect(re?.test(`x://${'a'.repeat(4000)}`)).toBe(false);
    expect(re?.test('x://a/b/end')).toBe(true);
  });
  it('matches a template without expressions only exactly', () => {
    expect(compileTemplate('x://fixed')?.test('x://fixed')).toBe(true);
    expect(compileTemplate('x://fixed')?.test('x://fixed/more')).toBe(false);
  });
});
