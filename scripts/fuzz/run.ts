// One fuzz run from start to end: the proxy and the control group come up, workers draw attacks
// until the window closes, then the after-run checks, a clean stop, and the report.
import fs from 'node:fs';
import { Rng } from './lib/rng.js';
import { now, sleep } from './lib/time.js';
import { rssMb } from '../bench-lib.js';
import { slowClientLeg } from '../hostile-legs.js';
import { ATTACKS, attackStuckReader, type AttackEntry } from './attacks/index.js';
import { Control, HttpControl, SseControl, WsControl } from './control.js';
import { HealthProbe } from './health.js';
import { call, newId } from './messages.js';
import { reportLines, slowClientLines } from './report.js';
import { SCOPES, Worker, type Scope } from './worker.js';
import type { RunContext } from './context.js';
import type { Ready, StopResult } from './proxy.js';

/** Draws weighted attacks until the run is stopping; a fuzzer bug is noted, never fatal. */
async function workerLoop(w: Worker, attacks: readonly AttackEntry[]): Promise<void> {
  const { ctx } = w;
  const entries = attacks.map((a) => [a, a[1]] as const);
  // The stuck reader needs 20 s of run left: worker 0 starts with it.
  if (w.index === 0 && attacks.some(([k]) => k === 'sse.stuck_reader')) await attackStuckReader(w).catch(() => undefined);
  while (!ctx.stopping()) {
    ctx.attacksStarted += 1;
    const [kind, , fn] = w.rng.weighted(entries);
    try {
      await fn(w);
    } catch (error) {
      ctx.stats.note(`fuzzer error in ${kind}`, (error as Error).stack ?? String(error));
    }
  }
}

/** The attack window: controls call and workers attack until it closes; then the controls stop. */
async function attackPhase(ctx: RunContext, root: Rng, controls: readonly Control[]): Promise<void> {
  const { options, stats } = ctx;
  ctx.attackUntil = now() + options.seconds * 1000;
  const controlDone = Promise.all(controls.map((c) => c.loop()));
  const attacks = ATTACKS.filter(([k]) => !options.excluded(k));
  const workers = Array.from({ length: options.workers }, (_, i) => new Worker(ctx, i, root));
  const progress = setInterval(() => {
    const ok = controls.reduce((n, c) => n + c.st.ok, 0);
    ctx.log(`${ctx.elapsed().toFixed(0)} s: ${stats.total()} attacker requests, ${ok} control calls ok, ${stats.violations.length} violations`);
  }, 10_000);
  await Promise.all(workers.map((w) => workerLoop(w, attacks)));
  clearInterval(progress);
  ctx.log(`attacks stopped after ${ctx.elapsed().toFixed(1)} s (${ctx.attacksStarted} attacks started)`);
  for (const c of controls) c.running = false;
  await controlDone;
}

/** Afterwards: the proxy still serves a fresh session correctly, from both children. */
async function freshSessionCheck(ctx: RunContext, root: Rng): Promise<void> {
  if (ctx.proxy.exited !== undefined) return;
  const fresh = new Worker(ctx, ctx.options.workers, root);
  const s = await fresh.openSession(SCOPES[0] as Scope, 'post_run');
  if (s === undefined) {
    ctx.stats.violation('post_run', 'post_run', 'a fresh session could not be opened');
    return;
  }
  for (const tool of ['fx__echo', 'garbage__echo']) {
    const text = `after:${tool}`;
    const id = newId(s, fresh.rng);
    const r = await fresh.rpc('post_run', s, call(id, tool, { text }), { status: [200], answer: { id, text } });
    if (r.status !== 200) ctx.stats.violation('post_run', 'post_run', `${tool} after the run -> ${r.status}`);
  }
  await fresh.deleteSession(s, 'post_run');
}

/** Deletes every session attackers left open, then waits (3 s at most) for the proxy to hold none. */
async function closeLeftoverSessions(ctx: RunContext): Promise<Ready | undefined> {
  const leftovers = [...ctx.liveHttpSessions.entries()];
  await Promise.all(leftovers.map(async ([sid, p]) => {
    const r = await ctx.client.request({ method: 'DELETE', path: p, headers: { 'mcp-session-id': sid } });
    if (r.status === 200 || r.status === 404) ctx.liveHttpSessions.delete(sid);
  }));
  let ready = ctx.proxy.exited === undefined ? await ctx.proxy.readyz() : undefined;
  for (let i = 0; i < 30 && ready !== undefined && ready.sessions > 0; i++) {
    await sleep(100);
    ready = await ctx.proxy.readyz();
  }
  return ready;
}

function judgeEndState(ctx: RunContext, ready: Ready | undefined): void {
  if (ready === undefined) return;
  const { stats } = ctx;
  if (ready.sessions > 0) stats.note('sessions still open at the proxy after every client closed or deleted its own', `${ready.sessions}`);
  if ((ready.servers.fx?.restarts ?? 0) > 0) stats.violation('child_restarted', 'fx', `fx restarted ${ready.servers.fx?.restarts} times (nothing asked it to exit)`);
  if ((ready.servers.garbage?.restarts ?? 0) > 0) stats.note('the garbage child was restarted', `${ready.servers.garbage?.restarts} restarts`);
}

/** A clean stop on SIGTERM, leaving no process behind. */
async function cleanStop(ctx: RunContext): Promise<StopResult | undefined> {
  const stop = await ctx.proxy.stop();
  if (stop === undefined) return undefined;
  if (stop.exitCode !== 0) ctx.stats.violation('unclean_stop', 'proxy', `SIGTERM -> exit code ${stop.exitCode} after ${stop.stopMs} ms`);
  if (stop.leftover > 0) ctx.stats.violation('leftover_process', 'proxy', `${stop.leftover} child process(es) outlived the proxy`);
  return stop;
}

/** Runs the whole fuzz; the exit status: 0 when every invariant held, else 1. */
export async function runFuzz(ctx: RunContext): Promise<number> {
  const { options, proxy } = ctx;
  const root = new Rng(options.seed);
  ctx.log(`seed ${options.seed} (replay with --seed ${options.seed}); ${options.seconds} s of attacks, ${options.workers} workers${options.exclude.length > 0 ? `, excluding ${options.exclude.join(',')}` : ''}; temp ${ctx.temp}`);
  await proxy.start(options);
  ctx.connectClient();
  const rssStart = rssMb(proxy.pid);
  ctx.log(`proxy pid ${proxy.pid} on 127.0.0.1:${proxy.port} ready`);

  const controls: Control[] = [
    new HttpControl(ctx, 'http', root, '/mcp', 'fx__echo', '2025-06-18', false, 2),
    new HttpControl(ctx, 'http-batch', root, '/mcp', 'fx__echo', '2025-03-26', true, 1),
    new HttpControl(ctx, 'http-fx', root, '/s/fx/mcp', 'echo', '2025-11-25', false, 1),
    new SseControl(ctx, 'sse', root, 3),
    new WsControl(ctx, 'ws', root, '/ws', 'fx__echo', 3),
  ];
  for (const c of controls) await c.open();
  ctx.log(`control group open: ${controls.map((c) => c.name).join(', ')}`);

  const health = new HealthProbe(ctx);
  health.start();
  await attackPhase(ctx, root, controls);

  await freshSessionCheck(ctx, root);
  for (const c of controls) await c.close().catch((error: unknown) => ctx.stats.note('control close failed', String(error)));
  const ready = await closeLeftoverSessions(ctx);
  await health.stop();
  const rssEnd = rssMb(proxy.pid);
  judgeEndState(ctx, ready);
  const stop = await cleanStop(ctx);

  const scan = proxy.scanLog();
  for (const line of scan.exceptions) ctx.stats.violation('proxy_logged_exception', 'proxy-log', line);

  // Built before the slow-client leg, so its run time is the fuzz run's alone.
  const report = reportLines(ctx, { controls, health, rssStart, rssEnd, ready, stop, scan });
  // The slow-client leg: a daemon of its own, strangers trickling requests and holding sockets.
  ctx.log('slow-client leg');
  const slow = await slowClientLeg({ short: options.short, log: ctx.log });
  process.stdout.write([...report.lines, ...slowClientLines(slow)].join('\n') + '\n');
  const failed = report.counted.length > 0 || slow.failures.length > 0;
  if (failed || options.keep) ctx.log(`config and proxy log kept in ${ctx.temp}`);
  else fs.rmSync(ctx.temp, { recursive: true, force: true });
  return failed ? 1 : 0;
}
