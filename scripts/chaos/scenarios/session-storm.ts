// Scenario: the session storm. Every session calls tools in a closed loop for the run's duration
// while the killer SIGKILLs a random child every --kill-every ms (and reloads the config when one is
// due) and a poller records every child pid; then the servers get RECOVER_MS to be ready again.
import { now, sleep } from '../../bench-lib.js';
import { memoryMb } from '../../chaos-lib.js';
import { closedLoop } from '../calls.js';
import type { RunContext } from '../context.js';
import { every } from '../every.js';
import { RECOVER_MS, SERVERS } from '../options.js';
import type { Readyz } from '../proxy.js';
import type { Session } from '../sessions.js';
import { round } from '../tally.js';
import { killRandomChild } from './kills.js';
import { ConfigReloads } from './reloads.js';

export interface StormResult {
  runMs: number;
  /** How long the calls in flight took to settle after the time was up; 0: ended early (proxy crash). */
  settleMs: number;
  /** Every server was ready again within RECOVER_MS of the last kill. */
  recovered: boolean;
  /** The last /readyz read. */
  final: Readyz | undefined;
  /** Restarts of the three servers, as that /readyz counts them. */
  restarts: number;
}

export async function sessionStorm(ctx: RunContext, sessions: readonly Session[]): Promise<StormResult> {
  const { options, stats, proxy } = ctx;
  const crashed = (): boolean => proxy.crashed !== undefined;
  const stopPoller = every(250, async () => {
    await proxy.readyz();
    proxy.recordChildren();
  }, crashed, ctx.log);
  const reloads = new ConfigReloads(ctx);
  const stopKiller = every(options.killMs, async () => {
    await reloads.tick();
    await killRandomChild(ctx);
  }, crashed, ctx.log);
  const runStart = now();
  reloads.start(runStart);
  const stopProgress = every(10_000, async () => {
    ctx.log(`${Math.round((now() - runStart) / 1000)} s: sent ${stats.sent}, results ${stats.results}, errors ${stats.errors}, ` +
      `never ${stats.never}, misrouted ${stats.misrouted}, kills ${stats.kills}, in flight ${stats.inFlight}, ` +
      `RSS ${round(memoryMb(proxy.pid as number).rss, 1)} MB`);
  }, crashed, ctx.log);
  let stoppedAt = Infinity;
  const endTimer = setTimeout(() => {
    ctx.stopping = true;
    stoppedAt = now();
  }, options.durationS * 1000);
  const loops = Promise.all(sessions.map((session) => closedLoop(ctx, session)));

  await loops; // every loop ends after its current call settles: answered or timed out client-side
  clearTimeout(endTimer);
  ctx.stopping = true;
  const runMs = now() - runStart;
  const settleMs = Number.isFinite(stoppedAt) ? Math.round(now() - stoppedAt) : 0;
  await stopKiller();
  await stopProgress();

  // The last kill may be a second old: give every server the chance to come back before judging.
  let recovered = false;
  for (const deadline = now() + RECOVER_MS; now() < deadline && !crashed(); await sleep(100)) {
    const r = await proxy.readyz();
    if (r !== undefined && SERVERS.every((s) => r.servers[s]?.state === 'ready')) {
      recovered = true;
      break;
    }
  }
  await stopPoller();
  const final = proxy.lastReadyz;
  const restarts = SERVERS.reduce((sum, s) => sum + (final?.servers[s]?.restarts ?? 0), 0);
  return { runMs, settleMs, recovered, final, restarts };
}
