// What /readyz reports: every enabled server's state, and whether all are up.
import type { SwitchboardCore } from '../switchboard.js';

export interface HealthReport {
  readonly ready: boolean;
  readonly sessions: number;
  readonly servers: Record<string, { state: string; pid: number | undefined; restarts: number; tools: number; lastError?: string }>;
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
    };
  }
  return { ready: core.ready(), sessions: core.sessions.size, servers };
}
