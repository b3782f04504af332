// A child of the stateless era alone (the conformance fixture as a 2026-07-28-only server) behind the proxy,
// serving clients of both eras at once: a modern client gets the child's own input_required and
// retries it; a session client is asked by the proxy (sampling, elicitation) and never sees a round.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { CreateMessageRequestSchema, ElicitRequestSchema, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { RunningSwitchboard } from '../../src/index.js';
import { ROOT, connect, rawPost, responseOf, startProxy, textOf } from './helpers.js';

const CONFORMANCE = path.join(ROOT, 'test/fixtures/conformance-server.mjs');
let proxy: RunningSwitchboard;

beforeAll(async () => {
  // A 2026-07-28-only server: a child that also speaks the session era is spoken to in that one.
  proxy = await startProxy({ mcpServers: { conf: { command: process.execPath, args: [CONFORMANCE], env: { CONFORMANCE_ERAS: 'stateless' } } } });
}, 30_000);

afterAll(async () => {
  await proxy?.close();
});

describe('a stateless-era child', () => {
  it('is recognised by its server/discover answer', () => {
    expect(proxy.core.upstreams.primaryOf('conf')?.identity?.era).toBe('stateless');
  });

  it('serves a modern client its own input_required rounds and a session client through the proxy, at once', async () => {
    const sampled: string[] = [];
    const modern = new ModernClient({ name: 'modern', version: '1' }, { capabilities: { sampling: {}, elicitation: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } } });
    modern.setRequestHandler('sampling/createMessage', async () => ({ model: 'm', role: 'assistant', content: { type: 'text', text: 'modern reply' } }));
    modern.setRequestHandler('elicitation/create', async (request) => {
      const fields = Object.keys((request.params as { requestedSchema?: { properties?: object } }).requestedSchema?.properties ?? {});
      return { action: 'accept', content: Object.fromEntries(fields.map((field) => [field, `modern-${field}`])) };
    });
    await modern.connect(new ModernTransport(new URL(`${proxy.url}/mcp`)));
    const session = await connect(proxy, { name: 'session', capabilities: { sampling: {}, elicitation: {} } });
    session.setRequestHandler(CreateMessageRequestSchema, async (request) => {
      sampled.push(JSON.stringify(request.params.messages));
      return { model: 'm', role: 'assistant', content: { type: 'text', text: 'session reply' } };
    });
    session.setRequestHandler(ElicitRequestSchema, async (request) => {
      const fields = Object.keys((request.params as { requestedSchema?: { properties?: object } }).requestedSchema?.properties ?? {});
      return { action: 'accept', content: Object.fromEntries(fields.map((field) => [field, `session-${field}`])) };
    });
    try {
      const [fromModern, fromSession, modernRounds, sessionRounds] = await Promise.all([
        modern.callTool({ name: 'conf__test_input_required_result_sampling', arguments: {} }),
        session.callTool({ name: 'conf__test_input_required_result_sampling', arguments: {} }),
        modern.callTool({ name: 'conf__test_input_required_result_multi_round', arguments: {} }),
        session.callTool({ name: 'conf__test_input_required_result_multi_round', arguments: {} }),
      ]);
      expect(textOf(fromModern)).toBe('The model said: modern reply');
      expect(textOf(fromSession)).toBe('The model said: session reply');
      expect(textOf(modernRounds)).toBe('Round one {"name":"modern-name"}; round two {"colour":"modern-colour"}');
      expect(textOf(sessionRounds)).toBe('Round one {"name":"session-name"}; round two {"colour":"session-colour"}');
      expect(sampled).toHaveLength(1);
      // Nothing stays parked or in flight.
      expect(proxy.core.stateless.parkedCount).toBe(0);
      expect(proxy.core.inflightRequests()).toBe(0);
    } finally {
      await Promise.allSettled([modern.close(), session.close()]);
    }
  });

  it('tells a session of list changes the child announces on the listen the proxy keeps', async () => {
    const session = await connect(proxy, { name: 'lists' });
    const changed = new Promise<void>((resolve) => {
      session.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve());
    });
    try {
      await session.callTool({ name: 'conf__test_trigger_tool_change', arguments: {} });
      await changed;
      const names = (await session.listTools()).tools.map((tool) => tool.name);
      expect(names.some((name) => name.startsWith('conf__test_dynamic_tool_'))).toBe(true);
    } finally {
      await session.close();
    }
  });

  it('refuses a session client that lacks the capability the child asks for, with a clear error', async () => {
    const session = await connect(proxy, { name: 'no-sampling' });
    try {
      await expect(session.callTool({ name: 'conf__test_input_required_result_sampling', arguments: {} })).rejects.toThrow(/sampling.*did not declare/);
    } finally {
      await session.close();
    }
  });

  it("never passes a client's roots to the child: its answers to roots become the configured ones", async () => {
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': { sampling: {}, elicitation: {}, roots: {} },
    };
    const inputResponses = {
      name: { action: 'accept', content: { name: 'n' } },
      llm: { role: 'assistant', model: 'm', content: { type: 'text', text: 'hi' } },
      roots: { roots: [{ uri: 'file:///client/secret' }] },
    };
    const reply = await rawPost(
      proxy,
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'conf__test_input_required_result_multiple_inputs', arguments: {}, inputResponses, requestState: 'the-childs-own', _meta: meta } },
      { headers: { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'conf__test_input_required_result_multiple_inputs' } },
    );
    const text = textOf(responseOf(reply).result);
    expect(text).toContain('roots []');
    expect(text).not.toContain('secret');
  });
});
