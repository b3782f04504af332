// The chaos report as a Markdown table: each number with the rule it must keep.
import type { Report } from './report.js';

export function table(r: Report): string {
  const n = (x: unknown): string => (typeof x === 'number' ? x.toLocaleString('en-US') : x === null || x === undefined ? '-' : String(x));
  const must = (ok: boolean, rule: string): string => `${rule}: ${ok ? 'ok' : 'FAIL'}`;
  const pct = (x: number): string => (r.requests_sent > 0 ? ` (${((x / r.requests_sent) * 100).toFixed(2)} %)` : '');
  const lines = [
    `mcp-switchboard chaos: ${r.sessions} sessions × ${r.servers} shared fixture servers, ${r.duration_s} s (ran ${r.run_s} s, ` +
      `in-flight settled ${r.settle_ms} ms after), SIGKILL every ${r.kill_every_ms} ms, client timeout ${r.client_timeout_ms} ms, ` +
      `seed ${r.seed}, node ${r.node}, ${r.cpus} CPUs`,
    '',
    '| | value | check |',
    '|---|---:|---|',
    `| requests sent (echo / slow / whoami) | ${n(r.requests_sent)} (${n(r.by_tool.echo)} / ${n(r.by_tool.slow)} / ${n(r.by_tool.whoami)}) | |`,
    `| answered with a result | ${n(r.answered_result)}${pct(r.answered_result)} | p50 ${n(r.result_ms.p50)} ms, p99 ${n(r.result_ms.p99)} ms, max ${n(r.result_ms.max)} ms |`,
    `| answered with an error | ${n(r.answered_error)}${pct(r.answered_error)} | by kind below |`,
    `| never answered | ${n(r.never_answered)} | ${must(r.never_answered === 0, 'must be 0')} |`,
    `| misrouted | ${n(r.misrouted)} | ${must(r.misrouted === 0, 'must be 0')} |`,
    `| kills done (a / b / c; skipped) | ${n(r.kills)} (${r.kills_by_server.a} / ${r.kills_by_server.b} / ${r.kills_by_server.c}; ${r.kills_skipped}) | |`,
    `| config reloads (SIGHUP: c redefined, d added/removed) | ${n(r.reloads)} | tools/list_changed seen on GET streams: ${n(r.list_changed_seen)} |`,
    `| restarts seen (/readyz) | ${n(r.restarts_seen)} | ${r.restarts_seen === r.kills ? '= kills' : `≠ kills (${r.kills})`}; all ready after: ${r.servers_recovered ? 'yes' : 'NO'} |`,
    `| kill → error for the call in flight | ${r.kill_to_error_ms.count} calls | p50 ${n(r.kill_to_error_ms.p50)} ms, max ${n(r.kill_to_error_ms.max)} ms |`,
    `| child pids seen | ${n(r.child_pids_seen)} | |`,
    `| child processes left after stop | ${n(r.leftover_processes)} | ${must(r.leftover_processes === 0, 'must be 0')}` +
      `${r.exited_unreaped_children > 0 ? ` (plus ${r.exited_unreaped_children} exited, not yet reaped by init)` : ''} |`,
    `| proxy RSS at start (sessions open) | ${n(r.proxy_rss_mb_start)} MB | |`,
    `| proxy RSS at end (before SIGTERM) | ${n(r.proxy_rss_mb_end)} MB | peak ${n(r.proxy_peak_rss_mb)} MB |`,
    `| proxy crashed | ${r.proxy_crashed === false ? 'no' : r.proxy_crashed} | ${must(r.proxy_crashed === false, 'must be no')} |`,
    `| proxy stop after SIGTERM | ${n(r.proxy_stop_ms)} ms, ${r.proxy_exit} | ${must(r.proxy_exit === 'code 0', 'exit 0')} |`,
    `| hostile child: stderr flood | ${n(r.hostile_child.stderrMb)} MB in ${n(r.hostile_child.stderrSeconds)} s | RSS peak ${n(r.hostile_child.stderrRssPeakMb)} MB (baseline ${n(r.hostile_child.baselineRssMb)}), ${n(r.hostile_child.stderrLinesLogged)} lines logged |`,
    `| hostile child: list_changed flood | ${n(r.hostile_child.relistSeconds)} s | ${n(r.hostile_child.relistListings)} listings, RSS peak ${n(r.hostile_child.relistRssPeakMb)} MB |`,
    `| hostile child: request flood | RSS peak ${n(r.hostile_child.requestFloodRssPeakMb)} MB | ${n(r.hostile_child.requestFloodRefusalLines)} refusal lines; fds peak ${n(r.hostile_child.fdPeak)} (baseline ${n(r.hostile_child.baselineFds)}); stop ${n(r.hostile_child.stopMs)} ms |`,
  ];
  const kinds = Object.entries(r.error_kinds as Record<string, { count: number; max_ms: number }>);
  if (kinds.length > 0) {
    lines.push('', '| errors by kind | count | slowest ms |', '|---|---:|---:|');
    for (const [kind, v] of kinds) lines.push(`| ${kind.replace(/\|/g, '\\|')} | ${n(v.count)} | ${n(v.max_ms)} |`);
  }
  const never = Object.entries(r.never_kinds as Record<string, { count: number; max_ms: number }>);
  if (never.length > 0) {
    lines.push('', '| never answered, why | count | after ms (max) |', '|---|---:|---:|');
    for (const [kind, v] of never) lines.push(`| ${kind} | ${n(v.count)} | ${n(v.max_ms)} |`);
  }
  if (r.misrouted > 0) lines.push('', 'Misrouted (first ones):', ...r.misrouted_examples.map((e: string) => `- ${e}`));
  if (r.leftover_processes > 0) lines.push('', 'Left after stop:', ...r.leftovers.map((p: { pid: number; state: string; how: string }) => `- pid ${p.pid} state ${p.state}: ${p.how}`));
  lines.push('', r.failures.length === 0 ? 'PASS' : `FAIL: ${r.failures.join('; ')}`);
  return lines.join('\n');
}
