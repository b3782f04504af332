// The chaos report: every number of the run, as JSON (--json) or as a table.
import os from 'node:os';
import type { RunContext } from './context.js';
import { SERVERS, type Server } from './options.js';
import type { StopResult } from './proxy.js';
import type { StormResult } from './scenarios/session-storm.js';
import type { Tool } from './calls.js';
import { round } from './tally.js';

export interface Report {
  hostile_child: Record<string, number>;
  seed: number;
  sessions: number;
  servers: number;
  duration_s: number;
  run_s: number | null;
  settle_ms: number;
  kill_every_ms: number;
  client_timeout_ms: number;
  node: string;
  cpus: number;
  requests_sent: number;
  by_tool: Record<Tool, number>;
  answered_result: number;
  answered_error: number;
  error_kinds: Record<string, { count: number; max_ms: number }>;
  never_answered: number;
  never_kinds: Record<string, { count: number; max_ms: number }>;
  misrouted: number;
  misrouted_on_get_streams: number;
  misrouted_kinds: Record<string, number>;
  misrouted_examples: string[];
  result_ms: { p50: number | null; p99: number | null; max: number | null };
  kill_to_error_ms: { count: number; p50: number | null; max: number | null };
  kills: number;
  reloads: number;
  /** tools/list_changed notifications the sessions' GET streams carried (reloads add and remove server d). */
  list_changed_seen: number;
  kills_by_server: Record<Server, number>;
  kills_skipped: number;
  restarts_seen: number;
  servers_recovered: boolean;
  child_pids_seen: number;
  children_alive_at_proxy_exit: number;
  exited_unreaped_children: number;
  leftover_processes: number;
  leftovers: { pid: number; state: string; how: string }[];
  proxy_rss_mb_start: number | null;
  proxy_rss_mb_end: number | null;
  proxy_peak_rss_mb: number | null;
  proxy_crashed: string | false;
  proxy_exit: string;
  proxy_stop_ms: number;
  get_stream_notifications: number;
  get_streams_open_after_stop: number;
  failed_deletes: number;
  failures: string[];
}

/** What the run measured besides the counters. */
export interface RunFacts {
  readonly storm: StormResult;
  readonly stop: StopResult;
  readonly memStart: { rss: number | null };
  readonly memEnd: { rss: number | null; hwm: number | null };
  readonly hostile: Record<string, number>;
  readonly getStillOpen: number;
  readonly badDeletes: number;
  readonly failures: string[];
}

export function buildReport(ctx: RunContext, facts: RunFacts): Report {
  const { stats, options, proxy } = ctx;
  const { storm, stop } = facts;
  return {
    hostile_child: facts.hostile,
    seed: options.seed,
    sessions: options.sessions,
    servers: SERVERS.length,
    duration_s: options.durationS,
    run_s: round(storm.runMs / 1000, 1),
    settle_ms: storm.settleMs,
    kill_every_ms: options.killMs,
    client_timeout_ms: options.timeoutMs,
    node: process.version,
    cpus: os.cpus().length,
    requests_sent: stats.sent,
    by_tool: stats.byTool,
    answered_result: stats.results,
    answered_error: stats.errors,
    error_kinds: Object.fromEntries([...stats.errorKinds].sort((a, b) => b[1].count - a[1].count).map(([k, v]) => [k, { count: v.count, max_ms: Math.round(v.maxMs) }])),
    never_answered: stats.never,
    never_kinds: Object.fromEntries([...stats.neverKinds].map(([k, v]) => [k, { count: v.count, max_ms: Math.round(v.maxMs) }])),
    misrouted: stats.misrouted + stats.getResponses,
    misrouted_on_get_streams: stats.getResponses,
    misrouted_kinds: Object.fromEntries([...stats.misroutedKinds].map(([k, v]) => [k, v.count])),
    misrouted_examples: stats.misroutedExamples,
    result_ms: { p50: round(stats.resultMs.q(0.5), 1), p99: round(stats.resultMs.q(0.99), 1), max: round(stats.resultMs.q(1), 1) },
    kill_to_error_ms: { count: stats.killToErrorMs.count, p50: round(stats.killToErrorMs.q(0.5), 1), max: round(stats.killToErrorMs.q(1), 1) },
    kills: stats.kills,
    reloads: stats.reloads,
    list_changed_seen: stats.listChanged,
    kills_by_server: stats.killsByServer,
    kills_skipped: stats.killsSkipped,
    restarts_seen: storm.restarts,
    servers_recovered: storm.recovered,
    child_pids_seen: proxy.childPids.size,
    children_alive_at_proxy_exit: stop.aliveAtExit,
    exited_unreaped_children: stop.zombies,
    leftover_processes: stop.leftover.length,
    leftovers: stop.leftover,
    proxy_rss_mb_start: round(facts.memStart.rss, 1),
    proxy_rss_mb_end: round(facts.memEnd.rss, 1),
    proxy_peak_rss_mb: round(facts.memEnd.hwm, 1),
    proxy_crashed: proxy.crashed ?? false,
    proxy_exit: stop.exit,
    proxy_stop_ms: stop.stopMs,
    get_stream_notifications: stats.getNotifications,
    get_streams_open_after_stop: facts.getStillOpen,
    failed_deletes: facts.badDeletes,
    failures: facts.failures,
  };
}
