// GET /metrics: the core's counters and state in the Prometheus text format, all read at scrape
// time. The request path only bumps typed-array counters (session/stats.ts); nothing here runs per request.
import type { Server, Socket } from 'node:net';
import type { SwitchboardCore } from '../switchboard.js';
import { LATENCY_BOUNDS_MS, LATENCY_BUCKETS, LATENCY_GROUPS, METHODS, OUTCOMES, OUTCOME_COUNT } from '../session/stats.js';
import { MAX_TOOL_SERIES, OTHER_TOOL, TOOL_LATENCY_BOUNDS_MS, TOOL_OUTCOMES } from '../session/tool-stats.js';
import { SWITCHBOARD_VERSION } from '../protocol.js';
import { Exposition } from './exposition.js';
import { serverStatuses, sessionCounts } from './status.js';

const SERVER_STATES = ['starting', 'ready', 'backoff', 'stopped'] as const;
const LATENCY_BOUNDS_S = LATENCY_BOUNDS_MS.map((ms) => ms / 1000);
const TOOL_LATENCY_BOUNDS_S = TOOL_LATENCY_BOUNDS_MS.map((ms) => ms / 1000);

/**
 * Bytes on the wire of every client connection (HTTP headers, bodies, WebSocket frames; TLS records
 * when TLS is on): read from the sockets at scrape time and when they close, never per message.
 */
export class WireBytes {
  private readonly live = new Set<Socket>();
  private closedIn = 0;
  private closedOut = 0;

  observe(server: Server): void {
    server.on('connection', (socket: Socket) => {
      this.live.add(socket);
      socket.once('close', () => {
        this.live.delete(socket);
        this.closedIn += socket.bytesRead;
        this.closedOut += socket.bytesWritten;
      });
    });
  }

  totals(): { received: number; sent: number } {
    let received = this.closedIn;
    let sent = this.closedOut;
    for (const socket of this.live) {
      received += socket.bytesRead;
      sent += socket.bytesWritten;
    }
    return { received, sent };
  }
}

export class Metrics {
  constructor(
    private readonly core: SwitchboardCore,
    private readonly wire: WireBytes | undefined = undefined,
  ) {}

  /**
   * Counts sanitization findings of `rule` handled with `action` (strip, neutralize, flag, block).
   * The same counts as `core.findings.count`, for code that holds the metrics rather than the core.
   */
  findings(rule: string, action: string, count = 1): void {
    this.core.findings.count(rule, action, count);
  }

  render(): string {
    const out = new Exposition();
    const core = this.core;
    const stats = core.stats;

    out.family('switchboard_build_info', 'gauge', 'Always 1; the version of mcp-switchboard serving.').sample('switchboard_build_info', { version: SWITCHBOARD_VERSION }, 1);
    out.family('switchboard_ready', 'gauge', '1 when every enabled server is up (as /readyz), else 0.').sample('switchboard_ready', undefined, core.ready() ? 1 : 0);

    out.family('switchboard_requests_total', 'counter', 'Client requests that ended, by method (unknown methods as "other") and outcome (result, tool_error, timeout, refused, cancelled, or the JSON-RPC error class).');
    for (let slot = 0; slot < METHODS.length; slot++) {
      for (let o = 0; o < OUTCOME_COUNT; o++) {
        const value = stats.requests[slot * OUTCOME_COUNT + o] ?? 0;
        if (value > 0) out.sample('switchboard_requests_total', { method: METHODS[slot] as string, outcome: OUTCOMES[o] as string }, value);
      }
    }

    out.family('switchboard_request_duration_seconds', 'histogram', 'Time from a client request arriving to its response going out to the session, by method group (tools/call, list, other).');
    for (let group = 0; group < LATENCY_GROUPS.length; group++) {
      const counts = stats.latency.subarray(group * LATENCY_BUCKETS, (group + 1) * LATENCY_BUCKETS);
      out.histogram('switchboard_request_duration_seconds', { group: LATENCY_GROUPS[group] as string }, LATENCY_BOUNDS_S, counts, (stats.latencySumMs[group] ?? 0) / 1000);
    }

    const sessions = sessionCounts(core);
    out.family('switchboard_sessions', 'gauge', 'Open client sessions by transport.');
    for (const [transport, count] of Object.entries(sessions.byTransport)) out.sample('switchboard_sessions', { transport }, count);
    out.family('switchboard_sessions_by_profile', 'gauge', 'Open client sessions by view: its profile(s), and "?tools" when the URL narrowed it.');
    for (const [profile, count] of Object.entries(sessions.byProfile)) out.sample('switchboard_sessions_by_profile', { profile }, count);

    // Skipped entries never run: they are in /status.json with their reason, not in these gauges.
    const servers = serverStatuses(core).filter((s) => s.state !== 'skipped');
    out.family('switchboard_server_up', 'gauge', '1 while the server is ready (its child initialized and listed), else 0.');
    for (const s of servers) out.sample('switchboard_server_up', { server: s.name }, s.state === 'ready' ? 1 : 0);
    out.family('switchboard_server_state', 'gauge', '1 for the state the server is in (starting, ready, backoff, stopped).');
    for (const s of servers) for (const state of SERVER_STATES) out.sample('switchboard_server_state', { server: s.name, state }, s.state === state ? 1 : 0);
    out.family('switchboard_server_restarts_total', 'counter', 'Restarts of the server\'s shared child after it exited (resets when a reload redefines the server).');
    for (const s of servers) out.sample('switchboard_server_restarts_total', { server: s.name }, s.restarts);
    out.family('switchboard_server_pending_requests', 'gauge', 'Requests sent to the server\'s children and not answered yet.');
    for (const s of servers) out.sample('switchboard_server_pending_requests', { server: s.name }, s.pending);
    out.family('switchboard_server_held_requests', 'gauge', 'Client requests waiting for the server\'s children to start.');
    for (const s of servers) out.sample('switchboard_server_held_requests', { server: s.name }, s.held);
    out.family('switchboard_server_queued_requests', 'gauge', 'Client requests waiting for one of the server\'s maxConcurrent slots.');
    for (const s of servers) out.sample('switchboard_server_queued_requests', { server: s.name }, s.queued);
    out.family('switchboard_server_tools', 'gauge', 'Tools the server lists.');
    for (const s of servers) out.sample('switchboard_server_tools', { server: s.name }, s.tools);
    out.family('switchboard_server_isolated_instances', 'gauge', 'Instances of an isolation: "session" server owned by sessions.');
    for (const s of servers) out.sample('switchboard_server_isolated_instances', { server: s.name }, s.isolated);

    out.family('switchboard_sanitize_findings_total', 'counter', 'Sanitization findings by rule and action (strip, neutralize, flag, block).');
    for (const { rule, action, count } of core.findings.totals()) out.sample('switchboard_sanitize_findings_total', { rule, action }, count);

    out.family('switchboard_tool_calls_total', 'counter', `Tool calls by server, tool (its own name; beyond ${MAX_TOOL_SERIES} tools, "${OTHER_TOOL}") and outcome: a result, the tool's own isError, or a protocol error (JSON-RPC error: timeout, refused, server down...).`);
    for (const series of core.toolStats.all()) {
      for (let o = 0; o < TOOL_OUTCOMES.length; o++) {
        const value = series.outcomes[o] as number;
        if (value > 0) out.sample('switchboard_tool_calls_total', { server: series.server, tool: series.tool, outcome: TOOL_OUTCOMES[o] as string }, value);
      }
    }
    out.family('switchboard_tool_call_duration_seconds', 'histogram', 'Time from a tools/call arriving to its answer going out, by server and tool.');
    for (const series of core.toolStats.all()) out.histogram('switchboard_tool_call_duration_seconds', { server: series.server, tool: series.tool }, TOOL_LATENCY_BOUNDS_S, series.latency, series.latencySumMs / 1000);

    out.family('switchboard_rate_limited_total', 'counter', 'Requests refused by a rate limit, by limit ("identity", "profile P", "tool GLOB", or "the shared limit store" when Redis could not be asked and onError is closed).');
    for (const [limit, count] of core.limiter.refused) out.sample('switchboard_rate_limited_total', { limit }, count);
    const shared = core.limiter.shared;
    if (shared !== undefined) out.family('switchboard_rate_limit_store_up', 'gauge', '1 when Redis, where the rate limits are shared, answers; 0 while it does not (limits.redis.onError applies).').sample('switchboard_rate_limit_store_up', undefined, shared.reachable ? 1 : 0);
    // Absent with a pin file: there is no store that could be down, and a constant 1 would only mislead.
    const pins = core.sharedPins;
    if (pins !== undefined) out.family('switchboard_pin_store_up', 'gauge', '1 when Redis, where the pins are shared (state.redis, else limits.redis), answers; 0 while it does not (pins are kept in memory and saved when it is back).').sample('switchboard_pin_store_up', undefined, pins.reachable ? 1 : 0);

    if (this.wire !== undefined) {
      const bytes = this.wire.totals();
      out.family('switchboard_http_received_bytes_total', 'counter', 'Bytes received on client connections (all endpoints, headers included).').sample('switchboard_http_received_bytes_total', undefined, bytes.received);
      out.family('switchboard_http_sent_bytes_total', 'counter', 'Bytes sent on client connections (all endpoints, headers included).').sample('switchboard_http_sent_bytes_total', undefined, bytes.sent);
    }

    const memory = process.memoryUsage();
    const cpu = process.cpuUsage();
    out.family('process_cpu_seconds_total', 'counter', 'User and system CPU time spent, seconds.').sample('process_cpu_seconds_total', undefined, (cpu.user + cpu.system) / 1e6);
    out.family('process_start_time_seconds', 'gauge', 'When the process started, seconds since the Unix epoch.').sample('process_start_time_seconds', undefined, Math.round(performance.timeOrigin / 1000));
    out.family('process_resident_memory_bytes', 'gauge', 'Resident set size, bytes.').sample('process_resident_memory_bytes', undefined, memory.rss);
    out.family('nodejs_heap_size_used_bytes', 'gauge', 'V8 heap in use, bytes.').sample('nodejs_heap_size_used_bytes', undefined, memory.heapUsed);
    return out.text();
  }
}
