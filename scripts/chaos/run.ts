// One chaos run from start to end: the proxy and the sessions, the session storm, the stop and
// the leftover check, the hostile-child leg, then the judgement and the report.
import fs from 'node:fs';
import { httpDelete, now, sleep } from '../bench-lib.js';
import { memoryMb } from '../chaos-lib.js';
import { hostileChildLeg } from '../hostile-legs.js';
import { preflight } from './calls.js';
import type { RunContext } from './context.js';
import { judge } from './judge.js';
import { buildReport } from './report.js';
import { table } from './report-table.js';
import { sessionStorm } from './scenarios/session-storm.js';
import { openSessions, type Session } from './sessions.js';
import { round } from './tally.js';

/** The run's exit status: 1 when any rule was broken. */
export async function runChaos(ctx: RunContext): Promise<number> {
  const { options, proxy } = ctx;
  ctx.log(`seed ${options.seed}, ${options.sessions} sessions, ${options.durationS} s, kill every ${options.killMs} ms, client timeout ${options.timeoutMs} ms; temp ${proxy.temp}`);
  const t0 = now();
  await proxy.start();
  await proxy.readyz();
  const sessions = await openSessions(ctx, options.sessions);
  await preflight(ctx, sessions[0] as Session);
  await sleep(200);
  const memStart = memoryMb(proxy.pid as number);
  ctx.log(`proxy up (pid ${proxy.pid}), ${sessions.length} sessions open, RSS ${round(memStart.rss, 1)} MB after ${Math.round(now() - t0)} ms`);

  const storm = await sessionStorm(ctx, sessions);
  const memEnd = memoryMb(proxy.pid as number);

  // Half the sessions say goodbye; the other half are still open when SIGTERM comes.
  const deletes = await Promise.all(sessions.filter((s) => s.k % 2 === 0).map((s) => httpDelete(`${proxy.base}/mcp`, s.headers)));
  const badDeletes = deletes.filter((status) => status !== 200).length;
  const stop = await proxy.stop();
  for (const s of sessions) s.get?.close();
  const getStillOpen = sessions.filter((s) => s.get !== undefined && !s.get.ended()).length;
  const failures = judge(ctx, storm, stop);

  // The hostile-child leg: a daemon of its own, a child flooding stderr, list_changed and server requests.
  ctx.log('hostile-child leg');
  const hostile = await hostileChildLeg({ short: options.short, log: ctx.log });
  failures.push(...hostile.failures);

  const report = buildReport(ctx, { storm, stop, memStart, memEnd, hostile: hostile.numbers, getStillOpen, badDeletes, failures });
  if (failures.length > 0) ctx.log(`FAILED: ${failures.join('; ')}; proxy config and log kept in ${proxy.temp}`);
  else fs.rmSync(proxy.temp, { recursive: true, force: true });
  process.stdout.write(options.json ? JSON.stringify(report, null, 2) + '\n' : table(report) + '\n');
  return failures.length > 0 ? 1 : 0;
}
