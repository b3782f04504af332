// The re-list pace on a fake clock: one pass per spacing over any period, and a trailing pass.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RelistPacer } from '../../../src/upstream/relist-pacer.js';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('RelistPacer', () => {
  it('runs one pass per 200 ms for a change every 2 ms (each pass over before the next change), and lists the last change', async () => {
    const pacer = new RelistPacer(200);
    const starts: number[] = [];
    let changes = 0;
    let listedChange = 0;
    const pass = async (): Promise<void> => {
      starts.push(Date.now());
      listedChange = changes; // a pass lists what was announced before it started
    };
    const begin = Date.now();
    for (let t = 0; t < 1000; t += 2) {
      changes += 1;
      pacer.changed('tools', pass);
      await vi.advanceTimersByTimeAsync(2);
    }
    await vi.advanceTimersByTimeAsync(400);
    expect(starts.length).toBeGreaterThanOrEqual(5);
    expect(starts.length).toBeLessThanOrEqual(6);
    for (let i = 1; i < starts.length; i++) expect(starts[i]! - starts[i - 1]!).toBeGreaterThanOrEqual(200);
    expect(starts[0]).toBe(begin);
    expect(listedChange).toBe(changes);
    pacer.reset();
  });

  it('paces each key on its own, and runs nothing owed after a reset', async () => {
    const pacer = new RelistPacer(200);
    const runs: string[] = [];
    const pass = (key: string) => async (): Promise<void> => void runs.push(key);
    pacer.changed('tools', pass('tools'));
    pacer.changed('prompts', pass('prompts'));
    pacer.changed('tools', pass('tools'));
    await vi.advanceTimersByTimeAsync(0);
    expect(runs).toEqual(['tools', 'prompts']);
    pacer.reset();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(runs).toEqual(['tools', 'prompts']);
  });
});
