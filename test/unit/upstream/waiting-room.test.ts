// The waiting room: oldest first, a bound, and each request out exactly once (sent, withdrawn, or timed out).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ErrorCode, SwitchboardError, type JsonRpcId, type JsonRpcRequest } from '../../../src/jsonrpc/messages.js';
import { WaitingRoom } from '../../../src/upstream/waiting-room.js';
import type { Caller } from '../../../src/upstream/types.js';

function caller(): Caller & { outcomes: Array<[JsonRpcId, unknown]> } {
  const outcomes: Array<[JsonRpcId, unknown]> = [];
  return { outcomes, forwarded: (id: JsonRpcId, outcome: unknown) => outcomes.push([id, outcome]) } as unknown as Caller & { outcomes: Array<[JsonRpcId, unknown]> };
}
const request = (id: number): JsonRpcRequest => ({ jsonrpc: '2.0', id, method: 'tools/call', params: {} });
const busy = () => new SwitchboardError(ErrorCode.Overloaded, 'busy');

describe('a waiting room', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('hands requests out oldest first, and answers one that waited too long with its error, once', () => {
    const room = new WaitingRoom(2);
    const c = caller();
    room.hold(c, request(1), 100, busy);
    room.hold(c, request(2), 300, busy);
    expect(room.full).toBe(true);
    vi.advanceTimersByTime(150);
    expect(c.outcomes.map(([id]) => id)).toEqual([1]);
    expect((c.outcomes[0]![1] as SwitchboardError).code).toBe(ErrorCode.Overloaded);
    expect(room.next()?.request.id).toBe(2);
    vi.advanceTimersByTime(1000);
    expect(c.outcomes).toHaveLength(1);
    expect(room.size).toBe(0);
  });

  it('drops withdrawn and abandoned requests without answering them', () => {
    const room = new WaitingRoom(10);
    const a = caller();
    const b = caller();
    room.hold(a, request(1), 100, busy);
    room.hold(a, request(2), 100, busy);
    room.hold(b, request(1), 100, busy);
    room.withdraw(a, 1);
    room.abandon(b);
    expect(room.takeAll().map((w) => w.request.id)).toEqual([2]);
    vi.advanceTimersByTime(1000);
    expect([...a.outcomes, ...b.outcomes]).toEqual([]);
  });
});
