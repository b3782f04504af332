// JSON-RPC messages attackers send that the proxy must answer correctly (with what the answer must
// be), and junk answers to the proxy's own requests.
import type { Json } from './lib/answers.js';
import { deepJson, junkValue, tagText } from './lib/junk.js';
import type { Rng } from './lib/rng.js';
import { J, type Expect, type Id } from './judge.js';
import type { Excluded } from './options.js';

/** A fresh id for a session's next request; mostly numbers, sometimes strings meant to trip lookups. */
export function newId(s: { next: number }, rng: Rng): Id {
  const n = s.next++;
  return rng.weighted<Id>([[n, 6], [String(n), 2], [`${n}-é🙂`, 1], [`__proto__${n}`, 1], [`${'x'.repeat(300)}${n}`, 1]]);
}

export const call = (id: Id, name: string, args: unknown, meta?: Json): Json =>
  ({ jsonrpc: '2.0', id, method: 'tools/call', params: meta === undefined ? { name, arguments: args } : { name, arguments: args, _meta: meta } });

/** Tool-name prefixes a session reaches each child by (undefined: not reachable), and its id counter. */
export interface ToolTarget { fx: string | undefined; garbage: string | undefined; next: number }

/** A message that is a valid request, with what its answer must be. */
export function validRequest(rng: Rng, s: ToolTarget, tag: string, excluded: Excluded): { body: Json; id: Id; expect: Pick<Expect, 'answer' | 'answerError'> } {
  const id = newId(s, rng);
  const choices: Array<() => { body: Json; expect: Pick<Expect, 'answer' | 'answerError'> }> = [
    () => ({ body: { jsonrpc: '2.0', id, method: 'ping' }, expect: {} }),
    () => ({ body: { jsonrpc: '2.0', id, method: rng.pick(['no/such', 'tools/cal', 'rpc.discover', 'constructor', '__proto__', '']) }, expect: { answerError: { id, codes: [-32601] } } }),
    () => ({ body: call(id, rng.pick(['nope', 'fx__nope', 'garbage__nope__x']), {}), expect: { answerError: { id, codes: [-32602] } } }),
  ];
  if (s.fx !== undefined) {
    const fx = s.fx;
    choices.push(() => {
      const text = tagText(rng, tag);
      return { body: call(id, `${fx}echo`, { text }), expect: { answer: { id, text } } };
    });
  }
  if (s.garbage !== undefined && !excluded('garbage.tool.echo')) {
    const g = s.garbage;
    choices.push(() => {
      const text = tagText(rng, tag);
      return { body: call(id, `${g}echo`, { text }), expect: { answer: { id, text } } };
    });
  }
  const { body, expect } = rng.pick(choices)();
  return { body, id, expect };
}

/** Junk answers to a server-to-client request (sampling, elicitation, ...). */
export function junkReply(rng: Rng, id: unknown, excluded: Excluded): string {
  const pickers: Array<() => string> = [
    () => J({ jsonrpc: '2.0', id, result: { role: 'assistant', content: { type: 'text', text: 'fuzzed' }, model: 'fuzz' } }),
    () => J({ jsonrpc: '2.0', id, result: { action: 'accept', content: { name: 'fuzz' } } }),
    () => J({ jsonrpc: '2.0', id, error: { code: rng.int(-40000, 40000), message: 'no' } }),
    () => J({ jsonrpc: '2.0', id, result: junkValue(rng) }),
    () => J({ jsonrpc: '2.0', id: typeof id === 'number' ? id + 1000 : `${String(id)}x`, result: {} }),
    () => J({ jsonrpc: '2.0', id }),
    () => J([{ jsonrpc: '2.0', id, result: {} }]),
  ];
  if (!excluded('reply.deep')) pickers.push(() => `{"jsonrpc":"2.0","id":${J(id)},"result":{"content":${deepJson(rng.int(5_000, 40_000), 'array')}}}`);
  return rng.pick(pickers)();
}
