import { describe, expect, it } from 'vitest';
import { Throttle } from '../../src/throttle.js';

describe('Throttle', () => {
  it('allows a burst per key and window, counts the rest, and reports them with the next one allowed', () => {
    const throttle = new Throttle(2, 1000);
    expect([throttle.take('a', 0), throttle.take('a', 10), throttle.take('a', 20), throttle.take('a', 30)].map((v) => v.allowed)).toEqual([true, true, false, false]);
    expect(throttle.take('b', 30).allowed).toBe(true);
    expect(throttle.pending('a')).toBe(2);
    expect(throttle.take('a', 1000)).toEqual({ allowed: true, dropped: 2 });
    expect(throttle.take('a', 1001)).toEqual({ allowed: true, dropped: 0 });
  });

  it('keeps at most maxKeys windows', () => {
    const throttle = new Throttle(1, 1000, 3);
    for (const key of ['a', 'b', 'c', 'd']) throttle.take(key, 0);
    // 'a' was forgotten: it starts a fresh window.
    expect(throttle.take('a', 1).allowed).toBe(true);
    expect(throttle.take('d', 1).allowed).toBe(false);
  });
});
