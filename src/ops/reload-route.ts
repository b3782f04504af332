// POST /admin/reload (`switchboard add`, `remove`, `import`): load the config file again now, as
// SIGHUP does, and say whether it was taken; the CLI that edited the file need not know the pid.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { MountedRoute } from '../transport/http-server.js';

/** What the daemon's reloader reports: taken, or refused with its one-line reason (the running config stays). */
export type ReloadOutcome = { readonly ok: true } | { readonly ok: false; readonly error: string };

/** Admin only, as /admin/restart: a reload restarts redefined servers. Any request body is not read. */
export function reloadRoute(reload: () => ReloadOutcome): MountedRoute {
  return {
    auth: true,
    methods: ['POST'],
    serve(_req: IncomingMessage, res: ServerResponse) {
      const outcome = reload();
      res.writeHead(outcome.ok ? 200 : 409, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      res.end(JSON.stringify(outcome.ok ? { reloaded: true } : { reloaded: false, error: outcome.error }));
    },
  };
}
