// The final report on stdout: attacker outcomes by kind, the control group, health, the proxy's
// end state and log, notes, and the invariant violations that count.
import type { Violation } from './lib/stats.js';
import type { LegResult } from '../hostile-legs.js';
import type { RunContext } from './context.js';
import type { Control } from './control.js';
import type { HealthProbe } from './health.js';
import type { LogScan, Ready, StopResult } from './proxy.js';

export interface RunOutcome {
  controls: readonly Control[];
  health: HealthProbe;
  rssStart: number | null;
  rssEnd: number | null;
  /** The proxy's /readyz at the end; undefined when it died or did not answer. */
  ready: Ready | undefined;
  /** How the clean stop went; undefined when the proxy had died already. */
  stop: StopResult | undefined;
  scan: LogScan;
}

/** The report's lines, and the violations that count (those not collateral of a proxy crash). */
export function reportLines(ctx: RunContext, outcome: RunOutcome): { lines: string[]; counted: Violation[] } {
  const { options, stats, proxy } = ctx;
  const { controls, health, rssStart, rssEnd, ready, scan } = outcome;
  const { exitCode, stopMs, leftover } = outcome.stop ?? { exitCode: null, stopMs: 0, leftover: 0 };
  const out: string[] = [];
  const p = (line = ''): void => void out.push(line);
  p(`mcp-switchboard fuzz: seed ${options.seed}, ${options.seconds} s of attacks (${ctx.elapsed().toFixed(1)} s in all), ${options.workers} workers, node ${process.version}`);
  p(`replay: npm run fuzz -- ${options.short ? '--short' : `--seconds ${options.seconds}`} --seed ${options.seed}${options.exclude.length > 0 ? ` --exclude ${options.exclude.join(',')}` : ''}`);
  p();
  p(`attacker requests: ${stats.total()} (${ctx.attacksStarted} attacks)`);
  const kinds = [...stats.byKind.entries()].sort((a, b) => a[0].localeCompare(b[0]));
  const width = Math.max(...kinds.map(([k]) => k.length), 10);
  for (const [kind, m] of kinds) {
    const total = [...m.values()].reduce((a, b) => a + b, 0);
    const outcomes = [...m.entries()].sort((a, b) => b[1] - a[1]).map(([o, n]) => `${o}:${n}`).join(' ');
    p(`  ${kind.padEnd(width)} ${String(total).padStart(6)}  ${outcomes}`);
  }
  p();
  const cok = controls.reduce((n, c) => n + c.st.ok, 0);
  const cfail = controls.reduce((n, c) => n + c.st.failed, 0);
  p(`control calls: ok ${cok}, failed ${cfail}`);
  for (const c of controls) {
    const f = [...c.st.failures.entries()].map(([k, n]) => `${k}:${n}`).join(' ');
    p(`  ${c.name.padEnd(10)} ok ${String(c.st.ok).padStart(6)}  failed ${c.st.failed}${f ? ` (${f})` : ''}  notifications seen ${c.st.notifications}`);
  }
  p();
  p(`healthz: ${health.ok} ok, ${health.failed} failed, slowest ${Math.round(health.maxMs)} ms`);
  p(`proxy: ${proxy.exited !== undefined ? `EXITED (${proxy.exited})` : `alive throughout; SIGTERM -> exit ${exitCode} in ${stopMs} ms, ${leftover} leftover processes`}; ` +
    `RSS ${rssStart?.toFixed(0) ?? '?'} -> ${rssEnd?.toFixed(0) ?? '?'} MB; sessions at the end ${ready?.sessions ?? '?'}; ` +
    `restarts fx ${ready?.servers.fx?.restarts ?? '?'}, garbage ${ready?.servers.garbage?.restarts ?? '?'}`);
  p(`proxy log: ${Object.entries(scan.levels).map(([k, n]) => `${k} ${n}`).join(', ')}`);
  for (const [msg, n] of scan.top) p(`  ${String(n).padStart(6)}  ${msg}`);
  if (stats.notes.size > 0) {
    p();
    p('notes (not invariant violations):');
    for (const [what, { count, example }] of stats.notes) p(`  ${count} x ${what}${example ? `\n      e.g. ${example.replace(/\n/g, '\n      ')}` : ''}`);
  }
  p();
  // Connections reset in the last second before the proxy died are the crash seen from outside.
  const exitAt = proxy.exitAt;
  const collateral = (v: { type: string; at: number }): boolean =>
    exitAt !== undefined && v.at >= exitAt - 1.5 && v.type !== 'proxy_exited' && v.type !== 'proxy_logged_exception';
  const counted = stats.violations.filter((v) => !collateral(v));
  const types = new Map<string, number>();
  for (const v of counted) types.set(v.type, (types.get(v.type) ?? 0) + 1);
  const dropped = stats.violations.length - counted.length;
  p(`invariant violations: ${counted.length}${dropped > 0 ? ` (and ${dropped} failures in the moment the proxy died, not counted)` : ''}`);
  for (const [type, n] of [...types.entries()].sort((a, b) => b[1] - a[1])) p(`  ${type}: ${n}`);
  if (counted.length > 0) {
    p();
    p('first violations of each type and kind:');
    const seen = new Set<string>();
    for (const v of counted) {
      const key = `${v.type}|${v.kind}`;
      if (seen.has(key) && !options.verbose) continue;
      seen.add(key);
      p(`  [${v.at}s] ${v.type} (${v.kind}): ${v.detail.replace(/\n/g, '\n      ')}`);
    }
  }
  return { lines: out, counted };
}

/** The slow-client leg's part of the report. */
export function slowClientLines(slow: LegResult): string[] {
  return [
    '',
    `slow clients: ${Object.entries(slow.numbers).map(([k, v]) => `${k} ${v}`).join(', ')}`,
    `slow-client bounds: ${slow.failures.length === 0 ? 'held' : `BROKEN: ${slow.failures.join('; ')}`}`,
  ];
}
