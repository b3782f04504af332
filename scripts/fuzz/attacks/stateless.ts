// Attacks on the stateless era (2026-07-28) of Streamable HTTP: envelopes with a field missing or
// mangled, headers that disagree with the body, removed methods, forged requestStates, and a valid
// call now and then, which must still be answered with its own echo.
import type { HttpSpec } from '../lib/http.js';
import { J, RPC_HEADERS, judge, type Expect } from '../judge.js';
import type { Worker } from '../worker.js';

const VERSION = '2026-07-28';
const META = {
  'io.modelcontextprotocol/protocolVersion': VERSION,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'fuzz', version: '0' },
};

export async function attackStateless(w: Worker): Promise<void> {
  const { ctx, rng } = w;
  const id = 9e6 + rng.int(0, 1e6);
  const text = `stateless-${id}`;
  const headers: Record<string, string> = { ...RPC_HEADERS, 'mcp-protocol-version': VERSION, 'mcp-method': 'tools/call', 'mcp-name': 'fx__echo' };
  const params: Record<string, unknown> = { name: 'fx__echo', arguments: { text }, _meta: { ...META } };
  let expect: Expect;
  const variant = rng.int(0, 9);
  if (variant === 0) {
    delete headers['mcp-protocol-version'];
    expect = { status: [400], code: -32020 };
  } else if (variant === 1) {
    params._meta = rng.pick<unknown>([null, 'x', [], {}, { 'io.modelcontextprotocol/protocolVersion': VERSION }]);
    // Without a modern key left, the request reads as a session-era one without a session.
    expect = { status: [400], code: [-32602, -32600] };
  } else if (variant === 2) {
    headers['mcp-protocol-version'] = rng.pick(['2026-07-29', 'v999', '', ' ']);
    expect = { status: [400], code: [-32020, -32600] };
  } else if (variant === 3) {
    headers['mcp-name'] = rng.pick(['fx__other', '=?base64?!!?=', '=?base64?Zng=?=', 'fx__echo\u00e9']);
    expect = { status: [400], code: -32020 };
  } else if (variant === 4) {
    headers['mcp-method'] = rng.pick(['tools/list', 'TOOLS/CALL', '']);
    expect = { status: [400], code: -32020 };
  } else if (variant === 5) {
    const method = rng.pick(['initialize', 'ping', 'logging/setLevel', 'resources/subscribe', 'tasks/get', 'nope/nope']);
    headers['mcp-method'] = method;
    delete headers['mcp-name'];
    const body = J({ jsonrpc: '2.0', id, method, params: { _meta: META } });
    const spec: HttpSpec = { method: 'POST', path: rng.pick(['/mcp', '/s/fx/mcp']), headers, body };
    judge(ctx, 'stateless.removed_method', spec, await ctx.client.request(spec), { status: [404], code: -32601 });
    return;
  } else if (variant === 6) {
    // Not a state this proxy minted (its prefix is random per process): the request goes to the
    // child like any other, which ignores what it does not know and answers.
    params.requestState = rng.pick(['switchboard.forged', `switchboard.${'A'.repeat(22)}`, 'state-of-a-child']);
    params.inputResponses = rng.pick<unknown>([{}, { x: { action: 'accept' } }, null, 5]);
    expect = { status: [200], answer: { id, text } };
  } else {
    expect = { status: [200], answer: { id, text } };
  }
  const spec: HttpSpec = { method: 'POST', path: '/mcp', headers, body: J({ jsonrpc: '2.0', id, method: 'tools/call', params }) };
  judge(ctx, `stateless.v${variant > 6 ? 'ok' : variant}`, spec, await ctx.client.request(spec), expect);
}
