import { afterEach, describe, expect, it } from 'vitest';
import { SessionRegistry } from '../../../src/session/registry.js';
import { RequestStats } from '../../../src/session/stats.js';
import { AGGREGATE_SCOPE } from '../../../src/catalog/view.js';
import type { Session } from '../../../src/session/session.js';
import type { SessionChannel, SessionGrant } from '../../../src/session/opening.js';

const grant: SessionGrant = { scope: AGGREGATE_SCOPE, principal: 'anonymous', query: '' };
const channel: SessionChannel = { deliver: () => {}, abandon: () => {}, close: () => {} };

describe('SessionRegistry: stateless sessions', () => {
  let registry: SessionRegistry | undefined;
  afterEach(() => registry?.stop());

  it('keeps them apart from sessions, lets each go once, and lists those left', () => {
    const released: string[] = [];
    registry = new SessionRegistry({
      maxSessions: 1,
      maxPerIdentity: 1,
      idleMs: 60_000,
      onClose: (session) => released.push(session.id),
      stats: new RequestStats(),
    });
    const reg = registry;
    const calls = Array.from({ length: 5 }, () => reg.createStateless(grant, channel, '2026-07-28', false));
    const session = reg.create('streamable-http', grant, channel, '2025-11-25') as Session;
    expect(reg.size).toBe(1);
    expect(reg.statelessCount).toBe(5);
    // Out of order, the last among them, and one twice: each is released once.
    for (const index of [1, 4, 1, 0]) reg.close(calls[index] as Session, 'answered');
    expect(released).toEqual([calls[1]?.id, calls[4]?.id, calls[0]?.id]);
    expect(reg.statelessCount).toBe(2);
    expect(new Set(reg.all())).toEqual(new Set([session, calls[2], calls[3]]));
    // Closing one while going through them leaves it out of the rest of the walk.
    const walked: Session[] = [];
    for (const each of reg.all()) {
      walked.push(each);
      if (each === session) reg.close(calls[3] as Session, 'answered');
    }
    expect(walked).toEqual([session, calls[2]]);
    const another = reg.createStateless(grant, channel, '2026-07-28', false);
    expect(new Set(reg.all())).toEqual(new Set([session, calls[2], another]));
    reg.closeAll('stopping');
    expect(reg.statelessCount).toBe(0);
    expect([...reg.all()]).toEqual([]);
    expect(released).toHaveLength(7);
  });
});
