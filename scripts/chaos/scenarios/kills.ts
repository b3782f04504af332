// Scenario: SIGKILL a random child of the proxy. The killer picks any child /readyz names,
// starting ones included (a kill during initialize is a case worth having).
import { procStat } from '../../chaos-lib.js';
import { now } from '../../bench-lib.js';
import type { RunContext } from '../context.js';
import { SERVERS } from '../options.js';

/** SIGKILLs one random child of the proxy that /readyz names, if it is really the proxy's child. */
export async function killRandomChild(ctx: RunContext): Promise<void> {
  const { stats, proxy } = ctx;
  const report = await proxy.readyz();
  const candidates = report === undefined ? [] : SERVERS.filter((s) => typeof report.servers[s]?.pid === 'number');
  if (candidates.length === 0) {
    stats.killsSkipped++;
    return;
  }
  const server = ctx.pick(candidates);
  const pid = report?.servers[server]?.pid as number;
  // The pid must still be the proxy's child running our fixture (no pid reuse, no stale report).
  if (procStat(pid)?.ppid !== proxy.pid || !proxy.hasMarker(pid)) {
    stats.killsSkipped++;
    return;
  }
  try {
    process.kill(pid, 'SIGKILL');
    stats.kills++;
    stats.killsByServer[server]++;
    stats.lastKillAt[server] = now();
  } catch {
    stats.killsSkipped++; // exited on its own just now
  }
}
