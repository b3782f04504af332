// Resource subscriptions across a reload: they follow a replaced instance to its successor, or end with it.
import { describe, expect, it } from 'vitest';
import { Subscriptions } from '../../../src/router/subscriptions.js';
import type { ServerHandle } from '../../../src/upstream/server-handle.js';
import type { Session } from '../../../src/session/session.js';

const handle = (name: string) => ({ name }) as unknown as ServerHandle;
/** The part of a Session that Subscriptions uses: its own record of what it subscribed to. */
const session = (): Session => {
  const subscribed = new Set<string>();
  return {
    subscriptions: subscribed,
    subscribe: (server: string, uri: string) => void subscribed.add(`${server}\0${uri}`),
    unsubscribe: (server: string, uri: string) => void subscribed.delete(`${server}\0${uri}`),
    unsubscribeAll: () => subscribed.clear(),
  } as unknown as Session;
};

describe('Subscriptions.transfer', () => {
  it('hands the subscribers of a replaced instance to its successor', () => {
    const subs = new Subscriptions();
    const [old, next, s] = [handle('a'), handle('a'), session()];
    subs.add(old, 'x://1', s);
    subs.transfer(old, next);
    expect(subs.uris(next)).toEqual(['x://1']);
    expect(subs.uris(old)).toEqual([]);
    expect(subs.has(next, 'x://1', s)).toBe(true);
    // The client can unsubscribe through the successor, which is the last subscriber gone.
    expect(subs.remove(next, 'x://1', s)).toBe(true);
  });

  it('merges into a successor that already has subscribers', () => {
    const subs = new Subscriptions();
    const [old, next, s1, s2] = [handle('a'), handle('a'), session(), session()];
    subs.add(old, 'x://1', s1);
    subs.add(next, 'x://1', s2);
    subs.transfer(old, next);
    expect([...(subs.subscribers(next, 'x://1') ?? [])]).toEqual([s2, s1]);
  });

  it('ends the subscriptions of a removed instance and forgets its sessions', () => {
    const subs = new Subscriptions();
    const [old, s] = [handle('a'), session()];
    subs.add(old, 'x://1', s);
    subs.transfer(old, undefined);
    expect(subs.uris(old)).toEqual([]);
    expect(subs.subscribers(old, 'x://1')).toBeUndefined();
    expect(s.subscriptions.size).toBe(0);
  });
});

describe('Subscriptions.dropSessionOn', () => {
  it('ends one session’s subscriptions on the given instances only, reporting URIs left without subscribers', () => {
    const subs = new Subscriptions();
    const [a, b, s1, s2] = [handle('a'), handle('b'), session(), session()];
    subs.add(a, 'x://1', s1);
    subs.add(a, 'x://2', s1);
    subs.add(a, 'x://2', s2);
    subs.add(b, 'y://1', s1);
    expect(subs.dropSessionOn(s1, [a])).toEqual([[a, 'x://1']]);
    expect(subs.has(a, 'x://2', s2)).toBe(true);
    expect(subs.has(a, 'x://2', s1)).toBe(false);
    expect(subs.has(b, 'y://1', s1)).toBe(true);
    expect([...s1.subscriptions]).toEqual(['b\0y://1']);
  });
});
