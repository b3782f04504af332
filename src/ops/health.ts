// What /readyz reports: every enabled server's state, and whether all are up.
import type { SwitchboardCore } from '../switchboard.js';

export interface HealthReport {
  readonly ready: boolean;
  readonly sessions: number;
  readonly servers: Record<string, { state: string; pid: number | undefined; restarts: number; tools: number; lastError?: string; stderr?: readonly string[] }>;
}

export function healthReport(core: SwitchboardCore): HealthReport {
  const servers: HealthReport['servers'] = {};
  for (const handle of core.upstreams.all()) {
    servers[handle.name] = {
      state: handle.state,
      pid: handle.connection?.alive ? handle.connection.pid : undefined,
      restarts: handle.restarts,
      tools: handle.lists.tools.length,
      ...(handle.lastError === undefined ? {} : { lastError: handle.lastError }),
      // A server that is not up usually said why on stderr.
      ...(handle.state !== 'ready' && handle.stderrTail.length > 0 ? { stderr: handle.stderrTail } : {}),
    };
  }
  // Skipped entries never come up without a config change: listed with their reason, not counted against readiness.
  for (const skipped of core.config.skipped) servers[skipped.name] = { state: 'skipped', pid: undefined, restarts: 0, tools: 0, lastError: skipped.reason };
  return { ready: core.ready(), sessions: core.sessions.size, servers };
}
