// The probes: /healthz (the process answers) and /readyz (every enabled server's state, and whether all are up).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SwitchboardCore } from '../switchboard.js';
import type { MountedRoute } from '../transport/http-server.js';

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

/**
 * /healthz: the process answers. /readyz: every server is up and the daemon is not stopping
 * (503 otherwise, so a balancer stops sending). With auth on, the per-server detail is only for
 * an operator's token; anyone else gets the verdict alone.
 */
export function healthRoutes(core: SwitchboardCore): ReadonlyMap<string, MountedRoute> {
  const alive: MountedRoute = {
    auth: false,
    methods: ANY_METHOD,
    serve(_req: IncomingMessage, res: ServerResponse) {
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      res.end(JSON.stringify({ status: 'ok' }));
    },
  };
  const ready: MountedRoute = {
    auth: 'optional',
    methods: ANY_METHOD,
    serve(_req: IncomingMessage, res: ServerResponse, operator: boolean) {
      const report = healthReport(core);
      const isReady = report.ready && !core.router.draining;
      res.writeHead(isReady ? 200 : 503, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      res.end(JSON.stringify(operator ? { ...report, ready: isReady } : { ready: isReady }));
    },
  };
  return new Map([
    ['/healthz', alive],
    ['/readyz', ready],
  ]);
}

/** Probes answer whatever the method, as they always have (a balancer may probe with HEAD or POST). */
const ANY_METHOD = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH'];
