// The era negotiation with a child (upstream/era.ts), against a scripted channel: which requests go
// out, in which order, and the era chosen for each kind of child.
import { describe, expect, it } from 'vitest';
import type { ServerConfig, ChildProtocol } from '../../../src/config/types.js';
import { ErrorCode, SwitchboardError, type JsonObject, type JsonRpcMessage } from '../../../src/jsonrpc/messages.js';
import { silentLogger } from '../../../src/log.js';
import { negotiateEra, type EraChannel } from '../../../src/upstream/era.js';

const DISCOVER: JsonObject = {
  resultType: 'complete',
  supportedVersions: ['2026-07-28'],
  capabilities: { tools: { listChanged: true } },
  _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'modern', version: '1' } },
};
const INITIALIZE: JsonObject = { protocolVersion: '2025-11-25', capabilities: { resources: { subscribe: true } }, serverInfo: { name: 'classic', version: '1' } };
const NOT_FOUND = new SwitchboardError(ErrorCode.MethodNotFound, 'Method not found');
const TIMED_OUT = new SwitchboardError(ErrorCode.RequestTimeout, 'did not answer server/discover within 3000 ms');

type Answer = JsonObject | SwitchboardError;

/** A child answering each method from a list, one answer per call, in order; records what it was sent. */
function child(protocol: ChildProtocol, answers: Record<string, Answer[]>): EraChannel & { sent: string[] } {
  const sent: string[] = [];
  const server = { name: 'kid', protocol, timeoutMs: 60_000 } as ServerConfig;
  return {
    server,
    alive: true,
    sent,
    request(method: string): Promise<JsonObject> {
      sent.push(method);
      const answer = answers[method]?.shift() ?? NOT_FOUND;
      return answer instanceof SwitchboardError ? Promise.reject(answer) : Promise.resolve(answer);
    },
    notify(message: JsonRpcMessage): boolean {
      sent.push('method' in message ? message.method : 'response');
      return true;
    },
  };
}

describe('negotiateEra', () => {
  it('speaks the session era with a child that refuses the probe', async () => {
    const channel = child('auto', { initialize: [INITIALIZE] });
    const identity = await negotiateEra(channel, silentLogger());
    expect(identity.era).toBe('session');
    expect(channel.sent).toEqual(['server/discover', 'initialize', 'notifications/initialized']);
  });

  it('speaks the session era with a child that leaves the probe unanswered', async () => {
    const channel = child('auto', { 'server/discover': [TIMED_OUT], initialize: [INITIALIZE] });
    expect((await negotiateEra(channel, silentLogger())).era).toBe('session');
    expect(channel.sent).toEqual(['server/discover', 'initialize', 'notifications/initialized']);
  });

  it('speaks the stateless era alone with a child that answers the probe and refuses initialize', async () => {
    const channel = child('auto', { 'server/discover': [DISCOVER] });
    const identity = await negotiateEra(channel, silentLogger());
    expect(identity).toMatchObject({ era: 'stateless', protocolVersion: '2026-07-28', serverInfo: { name: 'modern' } });
    expect(channel.sent).toEqual(['server/discover', 'initialize']);
  });

  it('initializes a child of both eras, and serves it stateless requests when it still answers the probe', async () => {
    const channel = child('auto', { 'server/discover': [DISCOVER, DISCOVER], initialize: [INITIALIZE] });
    const identity = await negotiateEra(channel, silentLogger());
    expect(identity).toMatchObject({ era: 'both', protocolVersion: '2025-11-25', capabilities: INITIALIZE.capabilities });
    expect(channel.sent).toEqual(['server/discover', 'initialize', 'notifications/initialized', 'server/discover']);
  });

  it('keeps to the session era with a child that stops answering the probe once initialized', async () => {
    const channel = child('auto', { 'server/discover': [DISCOVER, NOT_FOUND], initialize: [INITIALIZE] });
    expect((await negotiateEra(channel, silentLogger())).era).toBe('session');
  });

  it('never initializes with protocol "stateless", and never probes with protocol "session"', async () => {
    const modern = child('stateless', { 'server/discover': [DISCOVER], initialize: [INITIALIZE] });
    expect((await negotiateEra(modern, silentLogger())).era).toBe('stateless');
    expect(modern.sent).toEqual(['server/discover']);
    const classic = child('session', { 'server/discover': [DISCOVER], initialize: [INITIALIZE] });
    expect((await negotiateEra(classic, silentLogger())).era).toBe('session');
    expect(classic.sent).toEqual(['initialize', 'notifications/initialized']);
  });

  it('fails a child that answers neither', async () => {
    await expect(negotiateEra(child('auto', {}), silentLogger())).rejects.toThrow(/Method not found/);
    await expect(negotiateEra(child('stateless', {}), silentLogger())).rejects.toThrow(/did not answer server\/discover/);
  });
});
