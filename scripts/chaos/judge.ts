// What makes a chaos run fail: a request never answered or misrouted, a process left behind, a
// proxy that crashed or did not stop cleanly, a server that did not come back, or chaos that did
// not happen (no kill, no reload, no list_changed after a reload).
import type { RunContext } from './context.js';
import { RECOVER_MS } from './options.js';
import type { StopResult } from './proxy.js';
import type { StormResult } from './scenarios/session-storm.js';

export function judge(ctx: RunContext, storm: StormResult, stop: StopResult): string[] {
  const { stats, options } = ctx;
  const crashed = ctx.proxy.crashed;
  const answered = stats.results + stats.errors + stats.never + stats.misrouted;
  const failures: string[] = [];
  if (stats.never > 0) failures.push(`${stats.never} request(s) never answered`);
  const misroutedTotal = stats.misrouted + stats.getResponses;
  if (misroutedTotal > 0) failures.push(`${misroutedTotal} misrouted`);
  if (stop.leftover.length > 0) failures.push(`${stop.leftover.length} process(es) left after stop`);
  if (crashed !== undefined) failures.push(`proxy crashed (${crashed})`);
  else if (!stop.clean) failures.push(`proxy did not stop cleanly (${stop.exit}, ${stop.stopMs} ms)`);
  if (crashed === undefined && !storm.recovered) failures.push(`servers not all ready ${RECOVER_MS / 1000} s after the run: ${JSON.stringify(storm.final?.servers)}`);
  if (answered !== stats.sent) failures.push(`bookkeeping: ${stats.sent} sent but ${answered} accounted for`);
  if (stats.kills === 0) failures.push('no child was killed: the chaos did not happen');
  if (options.reloadMs > 0 && options.durationS * 1000 > options.reloadMs + options.killMs && stats.reloads === 0) failures.push('no config reload happened');
  if (stats.reloads > 0 && stats.listChanged === 0) failures.push(`${stats.reloads} reload(s) added or removed a server, but no session was told its tool list changed`);
  return failures;
}
