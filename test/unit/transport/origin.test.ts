import { describe, expect, it } from 'vitest';
import type { IncomingMessage } from 'node:http';
import { originPolicy, refusal } from '../../../src/transport/origin.js';

const request = (host: string | undefined, origin?: string, localAddress?: string): IncomingMessage =>
  ({ headers: { host, ...(origin === undefined ? {} : { origin }) }, socket: { localAddress } }) as unknown as IncomingMessage;

describe('Host and Origin checks (DNS rebinding)', () => {
  it('on loopback accepts loopback names only', () => {
    const policy = originPolicy({ host: '127.0.0.1', allowedHosts: [] }, []);
    expect(refusal(request('127.0.0.1:8808'), policy)).toBeUndefined();
    expect(refusal(request('localhost:8808'), policy)).toBeUndefined();
    expect(refusal(request('[::1]:8808'), policy)).toBeUndefined();
    expect(refusal(request('evil.example:8808'), policy)).toMatch(/Host evil\.example:8808 is not allowed/);
    expect(refusal(request(undefined), policy)).toMatch(/Host \(missing\)/);
  });

  it('adds the listen address and allowedHosts, case-insensitively', () => {
    const policy = originPolicy({ host: '10.0.0.5', allowedHosts: ['tools.example.com'] }, []);
    expect(refusal(request('10.0.0.5:8808'), policy)).toBeUndefined();
    expect(refusal(request('TOOLS.example.com'), policy)).toBeUndefined();
    expect(refusal(request('other.example.com'), policy)).toBeDefined();
  });

  it('on a wildcard address checks Host only when allowedHosts names some', () => {
    expect(refusal(request('anything.example'), originPolicy({ host: '0.0.0.0', allowedHosts: [] }, []))).toBeUndefined();
    const named = originPolicy({ host: '0.0.0.0', allowedHosts: ['team-box.lan'] }, []);
    expect(refusal(request('team-box.lan:8808'), named)).toBeUndefined();
    expect(refusal(request('rebind.attacker.example'), named)).toBeDefined();
  });

  it('accepts the IP address a connection arrived on as its Host, and no other address', () => {
    const named = originPolicy({ host: '0.0.0.0', allowedHosts: ['team-box.lan'] }, []);
    expect(refusal(request('192.168.1.7:8808', undefined, '::ffff:192.168.1.7'), named)).toBeUndefined();
    expect(refusal(request('192.168.1.7:8808', undefined, '192.168.1.7'), named)).toBeUndefined();
    expect(refusal(request('192.168.1.8:8808', undefined, '192.168.1.7'), named)).toMatch(/Host 192\.168\.1\.8:8808 is not allowed \(add its name to listen\.allowedHosts\)/);
    const v6 = originPolicy({ host: '::', allowedHosts: ['team-box.lan'] }, []);
    expect(refusal(request('[fd00:0:0::7]:8808', undefined, 'fd00::7'), v6)).toBeUndefined();
    expect(refusal(request('[fd00::8]:8808', undefined, 'fd00::7'), v6)).toBeDefined();
    // A name that resolves to that address is still checked (that is what DNS rebinding looks like).
    expect(refusal(request('rebind.attacker.example:8808', undefined, '192.168.1.7'), named)).toBeDefined();
    // A listener on a name: its own address works too.
    expect(refusal(request('10.0.0.5', undefined, '10.0.0.5'), originPolicy({ host: 'tools.lan', allowedHosts: [] }, []))).toBeUndefined();
  });

  it('refuses foreign and null Origins but allows configured and loopback ones', () => {
    const policy = originPolicy({ host: '127.0.0.1', allowedHosts: [] }, ['https://app.example.com']);
    expect(refusal(request('127.0.0.1', 'https://app.example.com'), policy)).toBeUndefined();
    expect(refusal(request('127.0.0.1', 'http://localhost:3000'), policy)).toBeUndefined();
    expect(refusal(request('127.0.0.1', 'https://evil.example'), policy)).toMatch(/Origin/);
    expect(refusal(request('127.0.0.1', 'null'), policy)).toMatch(/Origin null/);
  });
});
