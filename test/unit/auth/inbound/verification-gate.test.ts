// The gate in front of the provider: new tokens bounded per source address (at once and per
// second), per unfamiliar token shape, with slots kept for sources that signed in before, and
// after a provider failure only those sources probing it, one at a time.
import { describe, expect, it } from 'vitest';
import { VerificationGate, sourceKey, tokenShape, type GateLimits, type GateTicket } from '../../../../src/auth/inbound/verification-gate.js';

const LIMITS: GateLimits = { total: 10, reserved: 4, perSource: 3, perSourceBurst: 5, perSourcePerSecond: 1, perUnknownShape: 2, unknownShapes: 4, backoffMs: 10_000 };

function gate(limits: Partial<GateLimits> = {}): { gate: VerificationGate; clock: { now: number } } {
  const clock = { now: 1_000_000 };
  return { gate: new VerificationGate({ ...LIMITS, ...limits }, () => clock.now), clock };
}

function ticket(g: VerificationGate, source: string, shape = 'opaque:35:b64url:op_', renewal = false): GateTicket {
  const verdict = g.enter(source, shape, renewal);
  if (!verdict.admitted) throw new Error(`refused: ${verdict.detail}`);
  return verdict.ticket;
}

describe('VerificationGate', () => {
  it('bounds one address at once, and leaves room for another', () => {
    const { gate: g } = gate({ perUnknownShape: 10, unknownShapes: 10 });
    for (let i = 0; i < 3; i++) ticket(g, '192.0.2.1');
    expect(g.enter('192.0.2.1', 's', false)).toMatchObject({ admitted: false, detail: expect.stringContaining('from this address') });
    expect(g.enter('192.0.2.2', 's', false)).toMatchObject({ admitted: true });
  });

  it('bounds one address per second, refilling with time; a renewal costs nothing', () => {
    const { gate: g, clock } = gate({ perSource: 100, total: 100, perUnknownShape: 100, unknownShapes: 100 });
    for (let i = 0; i < 5; i++) ticket(g, '192.0.2.1').release('invalid');
    expect(g.enter('192.0.2.1', 's', false)).toMatchObject({ admitted: false, detail: expect.stringContaining('slow down') });
    expect(g.enter('192.0.2.1', 's', true)).toMatchObject({ admitted: true });
    clock.now += 1_000;
    expect(g.enter('192.0.2.1', 's', false)).toMatchObject({ admitted: true });
    expect(g.enter('192.0.2.1', 's', false)).toMatchObject({ admitted: false });
  });

  it('keeps a share of the slots for addresses that signed in before', () => {
    const { gate: g } = gate({ perUnknownShape: 10, unknownShapes: 10 });
    ticket(g, '198.51.100.7').release('ok');
    for (let i = 0; i < 6; i++) ticket(g, `192.0.2.${i}`);
    expect(g.enter('192.0.2.99', 's', false)).toMatchObject({ admitted: false, detail: expect.stringContaining('kept for addresses') });
    expect(g.enter('198.51.100.7', 's', false)).toMatchObject({ admitted: true });
  });

  it('bounds each unfamiliar token shape and all of them together, but not a shape that verified before', () => {
    const { gate: g } = gate({ perSource: 100, total: 100, reserved: 0, perSourceBurst: 100 });
    ticket(g, '192.0.2.1', 'junk-a');
    ticket(g, '192.0.2.2', 'junk-a');
    expect(g.enter('192.0.2.3', 'junk-a', false)).toMatchObject({ admitted: false, detail: expect.stringContaining('this form') });
    ticket(g, '192.0.2.4', 'junk-b');
    ticket(g, '192.0.2.5', 'junk-c');
    expect(g.enter('192.0.2.6', 'junk-d', false)).toMatchObject({ admitted: false, detail: expect.stringContaining('unfamiliar') });
    ticket(g, '192.0.2.7', 'real', true).release('ok');
    for (let i = 0; i < 5; i++) ticket(g, `192.0.2.${20 + i}`, 'real');
  });

  it('after a provider failure refuses strangers and lets a known address probe, one at a time, until one succeeds', () => {
    const { gate: g, clock } = gate({ perUnknownShape: 10, unknownShapes: 10 });
    ticket(g, '198.51.100.7').release('ok');
    ticket(g, '192.0.2.1').release('unavailable');
    expect(g.enter('192.0.2.2', 's', false)).toMatchObject({ admitted: false, detail: expect.stringContaining('failed moments ago') });
    const probe = ticket(g, '198.51.100.7');
    expect(g.enter('198.51.100.7', 's', false)).toMatchObject({ admitted: false });
    probe.release('ok');
    expect(g.enter('192.0.2.2', 's', false)).toMatchObject({ admitted: true });
    ticket(g, '192.0.2.3').release('unavailable');
    clock.now += 10_001;
    expect(g.enter('192.0.2.4', 's', false)).toMatchObject({ admitted: true });
  });

  it('counts an IPv6 /64 as one source and an IPv4-mapped address as its IPv4 address', () => {
    expect(sourceKey('2001:db8:1:2:aaaa::1')).toBe(sourceKey('2001:db8:1:2::ffff'));
    expect(sourceKey('2001:db8:1:2::1')).not.toBe(sourceKey('2001:db8:1:3::1'));
    expect(sourceKey('::ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(sourceKey(undefined)).toBe('?');
  });

  it('gives tokens of one key or one opaque form one shape, without the token in it', () => {
    const header = Buffer.from('{"alg":"RS256","kid":"k1"}').toString('base64url');
    expect(tokenShape(`${header}.e30.c2ln`)).toBe(tokenShape(`${header}.eyJzdWIiOiJ4In0.b3RoZXI`));
    expect(tokenShape('op_aaaaaaaaaaaaaaaa')).toBe(tokenShape('op_bbbbbbbbbbbbbbbb'));
    expect(tokenShape('op_aaaaaaaaaaaaaaaa')).not.toBe(tokenShape('aaaaaaaaaaaaaaaaaaa'));
    expect(tokenShape('op_secretsecret')).not.toContain('secret');
  });
});
