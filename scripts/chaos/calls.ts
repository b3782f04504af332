// One call, checked: its plan (server, tool, text), its body, the judgement of its reply (the id
// we sent, this session's own text, the server we addressed), and the closed loop each session
// runs until the time is up.
import { now, sleep } from '../bench-lib.js';
import { NoReply, isResponse, postRpc, type RpcId, type RpcReply } from '../chaos-lib.js';
import type { RunContext } from './context.js';
import { echoText, makeId, textOwner } from './ids.js';
import { SERVERS, type Server } from './options.js';
import type { Session } from './sessions.js';
import { Tally, errorKind } from './tally.js';

export type Tool = 'echo' | 'slow' | 'whoami';

interface Call {
  k: number;
  seq: number;
  id: RpcId;
  server: Server;
  tool: Tool;
  text?: string;
  progressToken?: RpcId;
}

function planCall(ctx: RunContext, k: number): Call {
  const seq = ctx.ids.next(k);
  const id = makeId(k, seq);
  const server = ctx.pick(SERVERS);
  const r = ctx.random();
  const tool: Tool = r < 0.8 ? 'echo' : r < 0.92 ? 'slow' : 'whoami';
  const call: Call = { k, seq, id, server, tool };
  if (tool === 'echo') call.text = echoText(ctx.random, k, seq);
  if (tool === 'slow' && ctx.random() < 0.5) call.progressToken = typeof id === 'number' ? id : `p-${id}`;
  return call;
}

function callBody(ctx: RunContext, call: Call): string {
  let args: Record<string, unknown> = {};
  if (call.tool === 'echo') args = { text: call.text };
  if (call.tool === 'slow') args = { ms: 10 + Math.floor(ctx.random() * 190), steps: 1 + Math.floor(ctx.random() * 3) };
  const params: Record<string, unknown> = { name: `${call.server}__${call.tool}`, arguments: args };
  if (call.progressToken !== undefined) params._meta = { progressToken: call.progressToken };
  return JSON.stringify({ jsonrpc: '2.0', id: call.id, method: 'tools/call', params });
}

type Outcome = { kind: 'result' } | { kind: 'error'; what: string } | { kind: 'never'; what: string } | { kind: 'misrouted'; what: string; detail: string };

function check(ctx: RunContext, call: Call, reply: RpcReply): Outcome {
  const describeId = (id: unknown): string => ctx.ids.describe(id);
  const who = `session ${call.k} call ${call.seq} (${describeId(call.id)}, ${call.server}__${call.tool})`;
  for (const other of reply.others) {
    if (isResponse(other)) return { kind: 'misrouted', what: 'foreign response on the POST stream', detail: `${who} saw a response for ${describeId(other.id)}` };
    if (other.method === 'notifications/progress' && other.params?.progressToken !== call.progressToken) {
      return { kind: 'misrouted', what: 'foreign progress', detail: `${who} got progress for token ${JSON.stringify(other.params?.progressToken)}` };
    }
  }
  const msg = reply.msg;
  if (msg === undefined) return { kind: 'never', what: `HTTP ${reply.status} ${reply.sse ? 'stream' : 'body'} ended without a response` };
  if (msg.id !== call.id) {
    // An HTTP-level refusal may carry id null; any other id is someone else's answer.
    if (reply.status !== 200 && (msg.id === null || msg.id === undefined) && msg.error) {
      return { kind: 'error', what: `HTTP ${reply.status} ${errorKind(msg.error.code, msg.error.message)}` };
    }
    return { kind: 'misrouted', what: 'wrong id', detail: `${who} was answered with ${describeId(msg.id)}` };
  }
  if (msg.error) {
    const named = /\bserver ([a-z])\b/.exec(msg.error.message)?.[1];
    if (named !== undefined && named !== call.server) {
      return { kind: 'misrouted', what: 'error names another server', detail: `${who} got an error about server ${named}: ${msg.error.message}` };
    }
    return { kind: 'error', what: `${reply.status === 200 ? '' : `HTTP ${reply.status} `}${errorKind(msg.error.code, msg.error.message)}` };
  }
  const text = msg.result?.content?.[0]?.text;
  if (msg.result?.isError) return { kind: 'error', what: `tool error: ${String(text).replace(/\d+/g, 'N').slice(0, 80)}` };
  if (typeof text !== 'string') return { kind: 'misrouted', what: 'result without text', detail: `${who} got ${JSON.stringify(msg.result).slice(0, 200)}` };
  switch (call.tool) {
    case 'echo':
      if (text === call.text) return { kind: 'result' };
      return { kind: 'misrouted', what: 'wrong echo text', detail: `${who} got ${textOwner(text)}` };
    case 'slow':
      if (text === 'done') return { kind: 'result' };
      return { kind: 'misrouted', what: 'wrong slow result', detail: `${who} got ${textOwner(text)}` };
    case 'whoami': {
      const m = /^([a-z]+) pid (\d+)$/.exec(text);
      if (m !== null && m[1] === call.server) {
        ctx.proxy.childPids.add(Number(m[2]));
        return { kind: 'result' };
      }
      return { kind: 'misrouted', what: 'whoami answered by another server', detail: `${who} got ${JSON.stringify(text)}` };
    }
  }
}

async function callOnce(ctx: RunContext, session: Session): Promise<void> {
  const { stats } = ctx;
  const call = planCall(ctx, session.k);
  stats.sent++;
  stats.byTool[call.tool]++;
  stats.inFlight++;
  const t0 = now();
  let outcome: Outcome;
  try {
    outcome = check(ctx, call, await postRpc(`${ctx.proxy.base}/mcp`, session.headers, callBody(ctx, call), call.id, ctx.options.timeoutMs));
  } catch (error) {
    outcome = { kind: 'never', what: error instanceof NoReply ? error.kind : `client error: ${(error as Error).message}` };
  }
  stats.inFlight--;
  const t1 = now();
  const ms = t1 - t0;
  switch (outcome.kind) {
    case 'result':
      stats.results++;
      stats.resultMs.add(ms);
      return;
    case 'error': {
      stats.errors++;
      Tally.count(stats.errorKinds, outcome.what, ms);
      const killedAt = stats.lastKillAt[call.server];
      if (outcome.what.includes('was killed by SIGKILL while handling') && killedAt !== undefined && t1 - killedAt < 10_000) {
        stats.killToErrorMs.add(t1 - killedAt);
      }
      return;
    }
    case 'never':
      stats.never++;
      Tally.count(stats.neverKinds, outcome.what, ms);
      if (stats.never <= 20) ctx.log(`NEVER ANSWERED: session ${session.k} call ${call.seq} (${ctx.ids.describe(call.id)}, ${call.server}__${call.tool}) after ${Math.round(ms)} ms: ${outcome.what}`);
      if (ctx.proxy.crashed === undefined) await sleep(5);
      return;
    case 'misrouted':
      stats.misroute(outcome.what, outcome.detail, ms);
      return;
  }
}

/** One session's calls, one after another, until the time is up or the proxy died. */
export async function closedLoop(ctx: RunContext, session: Session): Promise<void> {
  while (!ctx.over) await callOnce(ctx, session);
}

/** Before the chaos starts: every tool on every server answers (the names exist, routing works). */
export async function preflight(ctx: RunContext, session: Session): Promise<void> {
  for (const server of SERVERS) {
    for (const tool of ['echo', 'slow', 'whoami'] as const) {
      const seq = ctx.ids.next(session.k);
      const call: Call = { k: session.k, seq, id: makeId(session.k, seq), server, tool, ...(tool === 'echo' ? { text: echoText(ctx.random, session.k, seq) } : {}) };
      const reply = await postRpc(`${ctx.proxy.base}/mcp`, session.headers, callBody(ctx, call), call.id, 10_000);
      const outcome = check(ctx, call, reply);
      if (outcome.kind !== 'result') throw new Error(`preflight ${server}__${tool}: ${JSON.stringify(outcome)} ${JSON.stringify(reply.msg)}`);
    }
  }
}
