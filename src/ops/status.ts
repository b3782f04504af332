// What /status.json reports, read from the core when asked: servers, sessions, request totals and
// the latest sanitization findings. /metrics reads the same snapshots.
import type { SwitchboardCore } from '../switchboard.js';
import type { RecentFinding } from '../catalog/findings-feed.js';
import type { ServerState } from '../upstream/server-handle.js';
import type { TransportKind } from '../session/opening.js';
import { SWITCHBOARD_INFO } from '../protocol.js';

export interface ServerStatus {
  readonly name: string;
  /** `stdio`: a child the proxy runs; `remote`: a server it reaches over HTTP (config `url`). */
  readonly kind: 'stdio' | 'remote';
  /** A remote server's URL without what may be a secret (user info, query values); null for a child. */
  readonly url: string | null;
  /** `skipped`: the config entry cannot be used (lastError says why); it is never started. */
  readonly state: ServerState | 'skipped';
  /** The shared child's pid while it runs. */
  readonly pid: number | null;
  readonly restarts: number;
  readonly tools: number;
  /** Requests sent to the server's children and not answered yet (session-owned instances included). */
  readonly pending: number;
  /** Requests waiting for the server's children to come up. */
  readonly held: number;
  /** Requests waiting for a slot of maxConcurrent. */
  readonly queued: number;
  /** Instances owned by sessions (`isolation: "session"`). */
  readonly isolated: number;
  readonly lastError: string | null;
  /** A start attempt failed since it was last ready (or it never was): calls fail at once with lastError. */
  readonly down: boolean;
  /** The server's last stderr lines (oldest first): where most servers say why they fail. */
  readonly stderr: readonly string[];
}

export interface SessionCounts {
  readonly total: number;
  readonly byTransport: Record<TransportKind, number>;
  /** By view label: the profile(s) and whether `?tools=` narrowed it (its globs left out: clients choose them). */
  readonly byProfile: Record<string, number>;
  /**
   * By owner (a token's name, `oauth:<subject>` for an access token, `anonymous`), the
   * MAX_IDENTITIES_SHOWN with most sessions: who is connected, without one entry per session.
   */
  readonly byIdentity: Record<string, number>;
}

/** Identities listed in byIdentity at most; a team is smaller, a flood of subjects is cut. */
const MAX_IDENTITIES_SHOWN = 100;

export interface StatusReport {
  readonly name: string;
  readonly version: string;
  /** This daemon's instance name (config `instance`): the first part of its session ids. */
  readonly instance: string;
  readonly time: string;
  readonly uptimeSeconds: number;
  readonly ready: boolean;
  readonly servers: readonly ServerStatus[];
  readonly sessions: SessionCounts;
  readonly totals: {
    /** Requests that ended (answered, refused or cancelled). */
    readonly requests: number;
    /** Of those, answered with a JSON-RPC error (timeouts and refusals included). */
    readonly errors: number;
    readonly timeouts: number;
    readonly refused: number;
    /** tools/call results flagged `isError` by the tool. */
    readonly toolErrors: number;
    readonly cancelled: number;
    /** Requests in flight towards children. */
    readonly inflight: number;
  };
  /** The latest sanitization findings, newest first (at most RECENT_FINDINGS). */
  readonly findings: readonly RecentFinding[];
  /** The last config reload that was refused (the running config stayed), until one succeeds. */
  readonly reloadError: { readonly time: string; readonly message: string } | null;
}

/** Every configured server in config order, with what its session-owned instances hold added in. */
export function serverStatuses(core: SwitchboardCore): ServerStatus[] {
  const owned = new Map<string, { pending: number; held: number }>();
  for (const session of core.sessions.all()) {
    for (const [name, handle] of session.isolated) {
      const sums = owned.get(name) ?? { pending: 0, held: 0 };
      sums.pending += handle.connection?.pendingCount ?? 0;
      sums.held += handle.heldCount;
      owned.set(name, sums);
    }
  }
  const statuses: ServerStatus[] = core.upstreams.all().map((handle) => {
    const extra = owned.get(handle.name);
    const connection = handle.connection;
    const remote = handle.config.remote;
    return {
      name: handle.name,
      kind: remote === undefined ? 'stdio' : 'remote',
      url: remote === undefined ? null : publicUrl(remote.url),
      state: handle.state,
      pid: connection?.alive === true ? (connection.pid ?? null) : null,
      restarts: handle.restarts,
      tools: handle.lists.tools.length,
      pending: (connection?.pendingCount ?? 0) + (extra?.pending ?? 0),
      held: handle.heldCount + (extra?.held ?? 0),
      queued: handle.queuedCount,
      isolated: core.upstreams.isolatedInstances(handle.name),
      lastError: handle.lastError ?? null,
      down: handle.isDown,
      stderr: handle.stderrTail,
    };
  });
  for (const skipped of core.config.skipped) {
    statuses.push({ name: skipped.name, kind: skipped.remote ? 'remote' : 'stdio', url: null, state: 'skipped', pid: null, restarts: 0, tools: 0, pending: 0, held: 0, queued: 0, isolated: 0, lastError: skipped.reason, down: false, stderr: [] });
  }
  return statuses;
}

/**
 * A URL as the status page may show it: `${VAR}` expansion can put credentials in its user info or
 * query (`?api_key=…`), so those are cut; the query keeps its names, each value shown as `…`.
 */
export function publicUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return '(not a URL)';
  }
  const names = [...url.searchParams.keys()];
  const query = names.length === 0 ? '' : `?${names.map((name) => `${encodeURIComponent(name)}=…`).join('&')}`;
  return `${url.protocol}//${url.host}${url.pathname}${query}`;
}

/**
 * A session's view as a bounded label: "everything", "profile reader", "profile reader, ?profile=x",
 * with a `?tools=` narrowing shown as "?tools" alone (its globs are the client's choice, unbounded).
 */
export function profileLabel(label: string): string {
  const tools = label.indexOf('?tools=');
  return tools === -1 ? label : `${label.slice(0, tools)}?tools`;
}

export function sessionCounts(core: SwitchboardCore): SessionCounts {
  const byProfile: Record<string, number> = {};
  const owners = new Map<string, number>();
  for (const session of core.sessions.all()) {
    const label = profileLabel(session.scope.policy.label);
    byProfile[label] = (byProfile[label] ?? 0) + 1;
    if (session.transport !== 'stateless') owners.set(session.principal, (owners.get(session.principal) ?? 0) + 1);
  }
  const byIdentity = Object.fromEntries([...owners].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, MAX_IDENTITIES_SHOWN));
  return { total: core.sessions.size, byTransport: core.sessions.countByTransport(), byProfile, byIdentity };
}

export function statusReport(core: SwitchboardCore, startedAt: number): StatusReport {
  const stats = core.stats;
  const requests = stats.total();
  const fine = stats.total('result') + stats.total('tool_error') + stats.total('cancelled');
  return {
    name: SWITCHBOARD_INFO.name,
    version: SWITCHBOARD_INFO.version,
    instance: core.config.instance,
    time: new Date().toISOString(),
    uptimeSeconds: Math.round((Date.now() - startedAt) / 1000),
    ready: core.ready(),
    servers: serverStatuses(core),
    sessions: sessionCounts(core),
    totals: {
      requests,
      errors: requests - fine,
      timeouts: stats.total('timeout'),
      refused: stats.total('refused'),
      toolErrors: stats.total('tool_error'),
      cancelled: stats.total('cancelled'),
      inflight: core.inflightRequests(),
    },
    findings: core.findings.recent(),
    reloadError: core.reloadError ?? null,
  };
}
