// The claims providers spell differently: scopes as `scope` or `scp`, groups as a flat, nested or
// namespaced claim.
import { describe, expect, it } from 'vitest';
import { claimValues, scopesOf } from '../../../../src/auth/inbound/token-claims.js';

describe('scopesOf', () => {
  it('reads RFC 9068 scope, Entra ID scp (a string) and Okta scp (an array)', () => {
    expect([...scopesOf({ scope: 'mcp  read' })]).toEqual(['mcp', 'read']);
    expect([...scopesOf({ scp: 'mcp write' })]).toEqual(['mcp', 'write']);
    expect([...scopesOf({ scp: ['mcp', 3, 'x'] })]).toEqual(['mcp', 'x']);
    expect(scopesOf({}).size).toBe(0);
  });
});

describe('claimValues', () => {
  it('takes a string or the strings of an array', () => {
    expect(claimValues({ groups: 'staff' }, 'groups')).toEqual(['staff']);
    expect(claimValues({ groups: ['staff', 7, 'guests'] }, 'groups')).toEqual(['staff', 'guests']);
    expect(claimValues({ groups: { staff: true } }, 'groups')).toEqual([]);
    expect(claimValues({}, 'groups')).toEqual([]);
  });

  it('reads a dotted name as a path (Keycloak realm roles) unless a claim has that very name (namespaced claims)', () => {
    expect(claimValues({ realm_access: { roles: ['admin'] } }, 'realm_access.roles')).toEqual(['admin']);
    expect(claimValues({ 'https://example.com/groups': ['ops'] }, 'https://example.com/groups')).toEqual(['ops']);
    expect(claimValues({ realm_access: { roles: 'x' }, 'realm_access.roles': ['own'] }, 'realm_access.roles')).toEqual(['own']);
    expect(claimValues({ realm_access: null }, 'realm_access.roles')).toEqual([]);
  });

  it('never walks into the prototype', () => {
    expect(claimValues({}, 'constructor.name')).toEqual([]);
    expect(claimValues({}, '__proto__')).toEqual([]);
  });
});
