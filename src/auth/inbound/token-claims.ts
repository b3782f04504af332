// Reading the claims providers disagree on: scopes (`scope` as a string, or `scp` as a string or a
// list) and the claim that names groups or roles, which may sit in a nested object.
import { isObject, type JsonObject } from '../../jsonrpc/messages.js';

/** RFC 9068 `scope` (space-separated), else `scp` (Entra ID: a string; Okta: an array). */
export function scopesOf(claims: JsonObject): ReadonlySet<string> {
  const raw = claims.scope ?? claims.scp;
  if (typeof raw === 'string') return new Set(raw.split(' ').filter((s) => s !== ''));
  if (Array.isArray(raw)) return new Set(raw.filter((s): s is string => typeof s === 'string'));
  return new Set();
}

/**
 * The string values of a claim (a string or an array of strings; other values are ignored). A name
 * that is not a claim of its own is read as a dotted path (`realm_access.roles` in Keycloak),
 * since namespaced claims such as `https://example.com/groups` contain dots themselves.
 */
export function claimValues(claims: JsonObject, name: string): string[] {
  let value: unknown = Object.hasOwn(claims, name) ? claims[name] : undefined;
  if (value === undefined && name.includes('.')) {
    value = claims;
    for (const part of name.split('.')) value = isObject(value) && Object.hasOwn(value, part) ? value[part] : undefined;
  }
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
  return [];
}
