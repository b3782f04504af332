// POST /admin/restart?server=NAME (`switchboard restart`): a fresh child for one server, answered once it is up or has failed.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SwitchboardCore } from '../switchboard.js';
import type { MountedRoute } from '../transport/http-server.js';
import type { ServerHandle } from '../upstream/server-handle.js';

/**
 * How long the answer waits for the fresh child to be ready or to fail, ms: long enough for a
 * server that starts in seconds, short of the CLI's own 30 s; a slower one is answered `starting`.
 */
export const RESTART_WAIT_MS = 15_000;
/** How often the wait looks at the fresh instance, ms (it has no "settled" event; one request polls). */
const POLL_MS = 50;

/** What the route answers (200): the fresh instance as it stands, or the error. */
export interface RestartAnswer {
  readonly server: string;
  /** ready, or backoff/stopped when it failed, or starting when it was not up within RESTART_WAIT_MS. */
  readonly state: string;
  readonly pid: number | null;
  readonly lastError: string | null;
  /** Its last stderr lines when it is not up. */
  readonly stderr: readonly string[];
}

/**
 * Admin only (the front door checks the token, Origin and Host before `serve`). Requests in flight
 * on the old child finish there (up to limits.shutdownGraceMs); new ones go to, or wait for, the
 * fresh child, as when a reload redefines a server.
 */
export function restartRoute(core: SwitchboardCore): MountedRoute {
  return {
    auth: true,
    methods: ['POST'],
    serve(req: IncomingMessage, res: ServerResponse) {
      const name = new URL(req.url ?? '/', 'http://x').searchParams.get('server') ?? '';
      if (name === '') return reply(res, 400, { error: 'name the server: POST /admin/restart?server=NAME' });
      const known = core.upstreams.primaryOf(name) !== undefined;
      if (!known) return reply(res, 404, { error: notRunning(core, name) });
      // Any request body is not read: nothing in it is used.
      const fresh = core.restartServer(name);
      if (fresh === undefined) return reply(res, 503, { error: 'the switchboard is stopping' });
      void settled(fresh, RESTART_WAIT_MS).then(() => reply(res, 200, answer(fresh)));
    },
  };
}

function notRunning(core: SwitchboardCore, name: string): string {
  const skipped = core.config.skipped.find((s) => s.name === name);
  if (skipped !== undefined) return `server "${name}" is not running: its config entry was skipped (${skipped.reason})`;
  if (core.config.servers.some((s) => s.name === name && s.disabled)) return `server "${name}" is disabled in the config`;
  return `no server "${name}" in the config`;
}

function settled(handle: ServerHandle, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  return new Promise((resolve) => {
    const look = (): void => {
      if (handle.state === 'ready' || handle.state === 'stopped' || handle.lastError !== undefined || Date.now() >= deadline) return resolve();
      setTimeout(look, POLL_MS).unref();
    };
    look();
  });
}

function answer(handle: ServerHandle): RestartAnswer {
  const up = handle.state === 'ready';
  return {
    server: handle.name,
    state: handle.state,
    pid: handle.connection?.alive === true ? (handle.connection.pid ?? null) : null,
    lastError: handle.lastError ?? null,
    stderr: up ? [] : handle.stderrTail,
  };
}

function reply(res: ServerResponse, status: number, body: object): void {
  if (res.writableEnded || res.destroyed) return;
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}
