// A child that speaks both eras (the conformance fixture: initialize opens a session, a request with
// the 2026-07-28 `_meta` is served statelessly), left to the era probe: the proxy keeps the session
// era with it, so a session client keeps what the stateless era removed (resources/subscribe,
// sampling and elicitation as requests of the child), and a stateless client is bridged as for any
// session-era child.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { CreateMessageRequestSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RunningSwitchboard } from '../../src/index.js';
import { ROOT, connect, startProxy, textOf } from './helpers.js';

const CONFORMANCE = path.join(ROOT, 'test/fixtures/conformance-server.mjs');
let proxy: RunningSwitchboard;

beforeAll(async () => {
  proxy = await startProxy({ mcpServers: { conf: { command: process.execPath, args: [CONFORMANCE] } } });
}, 30_000);

afterAll(async () => {
  await proxy?.close();
});

/** A session client of the child's own endpoint (names unprefixed), that answers sampling and elicitation. */
async function sessionClient(): Promise<{ client: Client; sampled: string[]; elicited: string[] }> {
  const sampled: string[] = [];
  const elicited: string[] = [];
  const client = await connect(proxy, { path: '/s/conf/mcp', capabilities: { sampling: {}, elicitation: {} } });
  client.setRequestHandler(CreateMessageRequestSchema, async (request) => {
    const first = request.params.messages[0]?.content;
    sampled.push(first !== undefined && !Array.isArray(first) && first.type === 'text' ? first.text : '');
    return { model: 'm', role: 'assistant', content: { type: 'text', text: 'Paris' } };
  });
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    elicited.push(request.params.message);
    return { action: 'accept', content: { username: 'ada', email: 'ada@example.com' } };
  });
  return { client, sampled, elicited };
}

describe('a child that speaks both eras', () => {
  it('is spoken to in the session era', () => {
    expect(proxy.core.upstreams.primaryOf('conf')?.identity?.era).toBe('both');
  });

  it("passes a session client's resources/subscribe and unsubscribe to the child", async () => {
    const { client } = await sessionClient();
    try {
      await client.subscribeResource({ uri: 'test://watched-resource' });
      const subscribed = await client.readResource({ uri: 'test://watched-resource' });
      expect(JSON.stringify(subscribed.contents)).toContain('(subscribed)');
      await client.unsubscribeResource({ uri: 'test://watched-resource' });
      const after = await client.readResource({ uri: 'test://watched-resource' });
      expect(JSON.stringify(after.contents)).toContain('(not subscribed)');
    } finally {
      await client.close();
    }
  });

  it("brings a tool's sampling and elicitation requests to the session client", async () => {
    const { client, sampled, elicited } = await sessionClient();
    try {
      const sampling = await client.callTool({ name: 'test_sampling', arguments: { prompt: 'Capital of France?' } });
      expect(textOf(sampling)).toBe('LLM response: Paris');
      expect(sampled).toEqual(['Capital of France?']);
      const elicitation = await client.callTool({ name: 'test_elicitation', arguments: { message: 'Who are you?' } });
      expect(textOf(elicitation)).toContain('ada@example.com');
      expect(elicited).toEqual(['Who are you?']);
    } finally {
      await client.close();
    }
  });

  it("gives stateless clients the child's own input rounds, so several at once are no attribution problem", async () => {
    const modern = async (name: string) => {
      const client = new ModernClient({ name, version: '1' }, { capabilities: { sampling: {}, elicitation: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } } });
      client.setRequestHandler('sampling/createMessage', async () => ({ model: 'm', role: 'assistant', content: { type: 'text', text: `${name} reply` } }));
      client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { name, colour: `${name}-colour` } }));
      await client.connect(new ModernTransport(new URL(`${proxy.url}/s/conf/mcp`)));
      return client;
    };
    const [one, two] = await Promise.all([modern('one'), modern('two')]);
    const { client: session } = await sessionClient();
    try {
      // In flight together on the one shared child: a session-era child asking for input here
      // could not say for which request, and the proxy would refuse rather than guess.
      const [fromOne, fromTwo, rounds, fromSession] = await Promise.all([
        one.callTool({ name: 'test_input_required_result_sampling', arguments: {} }),
        two.callTool({ name: 'test_input_required_result_sampling', arguments: {} }),
        two.callTool({ name: 'test_input_required_result_multi_round', arguments: {} }),
        session.callTool({ name: 'test_sampling', arguments: { prompt: 'Hello?' } }),
      ]);
      expect(textOf(fromOne)).toBe('The model said: one reply');
      expect(textOf(fromTwo)).toBe('The model said: two reply');
      expect(textOf(rounds)).toBe('Round one {"name":"two","colour":"two-colour"}; round two {"name":"two","colour":"two-colour"}');
      expect(textOf(fromSession)).toBe('LLM response: Paris');
      expect(proxy.core.stateless.parkedCount).toBe(0);
    } finally {
      await Promise.allSettled([one.close(), two.close(), session.close()]);
    }
  });
});
