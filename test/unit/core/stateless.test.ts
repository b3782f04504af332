// The stateless era (2026-07-28) through the core's door without sockets: a request whose child
// asks the client something is answered input_required with a requestState, and the retry that
// carries the client's answer completes the call; a forged requestState is refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGGREGATE_SCOPE } from '../../../src/catalog/view.js';
import type { JsonObject, JsonRpcMessage, JsonRpcRequest } from '../../../src/jsonrpc/messages.js';
import type { ReplyStream, StatelessContext } from '../../../src/stateless/context.js';
import type { Serialized } from '../../../src/wire/result-bytes.js';
import { CoreHarness } from './harness.js';

type Answer = JsonRpcMessage & { id?: unknown; result?: JsonObject & { resultType?: string; requestState?: string; inputRequests?: Record<string, { method: string }>; content?: Array<{ text?: string }> }; error?: { code: number; message: string } };

/** One stateless request's reply, kept in memory: every message sent on it, and the final one. */
class MemoryReply implements ReplyStream {
  readonly messages: Answer[] = [];
  private done: ((answer: Answer) => void) | undefined;
  readonly final = new Promise<Answer>((resolve) => (this.done = resolve));

  send(message: JsonRpcMessage, final: boolean, serialized?: Serialized): boolean {
    const real = (serialized === undefined ? message : JSON.parse(serialized.toString())) as Answer;
    this.messages.push(real);
    if (final) this.done?.(real);
    return true;
  }

  end(): void {
    this.done?.({ jsonrpc: '2.0', id: null, error: { code: 0, message: 'ended without an answer' } } as Answer);
  }
}

const CONTEXT: StatelessContext = { protocolVersion: '2026-07-28', clientCapabilities: { sampling: {} }, clientInfo: { name: 'core-test', version: '1' }, logLevel: undefined };
const GRANT = { scope: AGGREGATE_SCOPE, principal: 'anonymous', query: '' };

let harness: CoreHarness;
beforeAll(async () => {
  harness = new CoreHarness({ gamma: {} });
  await harness.start();
}, 20_000);
afterAll(async () => {
  await harness?.stop();
});

function ask(request: JsonRpcRequest): Promise<Answer> {
  const reply = new MemoryReply();
  harness.core.acceptStateless(GRANT, request, CONTEXT, reply);
  return reply.final;
}

describe('stateless requests through the core', () => {
  it('answers input_required for a child that asks the client, and the retry with the answer completes the call', async () => {
    const first = await ask({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'gamma__sample', arguments: { prompt: 'hi' } } });
    expect(first.id).toBe(1);
    expect(first.result?.resultType).toBe('input_required');
    const [key, inputRequest] = Object.entries(first.result?.inputRequests ?? {})[0] ?? [];
    expect(inputRequest?.method).toBe('sampling/createMessage');
    const requestState = first.result?.requestState;
    expect(typeof requestState).toBe('string');

    const inputResponses = { [key as string]: { role: 'assistant', content: { type: 'text', text: 'yes' }, model: 'm' } };
    const second = await ask({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'gamma__sample', arguments: { prompt: 'hi' }, inputResponses, requestState } });
    expect(second.id).toBe(2);
    expect(second.result?.resultType).toBe('complete');
    expect(second.result?.content?.[0]?.text).toBe('sampled: yes');
    // Used once: the same state again is unknown.
    const again = await ask({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'gamma__sample', arguments: { prompt: 'hi' }, inputResponses, requestState } });
    expect(again.error?.code).toBe(-32602);
    expect(harness.core.stateless.parkedCount).toBe(0);
  });

  it('answers a plain call at once, and refuses a method the era removed', async () => {
    const echo = await ask({ jsonrpc: '2.0', id: 'e', method: 'tools/call', params: { name: 'gamma__echo', arguments: { text: 'plain' } } });
    expect(echo.result?.content?.[0]?.text).toBe('plain');
    const ping = await ask({ jsonrpc: '2.0', id: 'p', method: 'ping', params: {} });
    expect(ping.error?.code).toBe(-32601);
  });
});
