// createSwitchboard(config): the programmatic API; the CLI and the tests both start the proxy through it.
import { startTracing, stopTracing } from './telemetry/active.js';
import type { AddressInfo } from 'node:net';
import type { SwitchboardConfig } from './config/types.js';
import { silentLogger, type Logger } from './log.js';
import { SwitchboardCore } from './switchboard.js';
import { openReview } from './catalog/review.js';
import { HttpFrontDoor } from './transport/http-server.js';
import type { ShutdownTimings } from './upstream/child.js';
import type { ConfigDiff } from './config/reload-diff.js';
import { opsEndpoints } from './ops/endpoints.js';
import type { Metrics } from './ops/metrics.js';
import { reloadRoute, type ReloadOutcome } from './ops/reload-route.js';

export type { SwitchboardConfig, ServerConfig } from './config/types.js';
export { loadConfig, resolveConfig, ConfigError } from './config/load.js';

/** Characters of a refused reload's message kept for /status.json (a config error lists up to a few problems). */
const MAX_RELOAD_ERROR_CHARS = 1_000;

export interface SwitchboardOptions {
  readonly logger?: Logger;
  /** Child stop timings; tests shorten them. */
  readonly shutdown?: ShutdownTimings;
  /** Serves POST /admin/reload: the daemon reloads its config file (as on SIGHUP) and says how it went. */
  readonly reloadFile?: () => ReloadOutcome;
}

export interface RunningSwitchboard {
  readonly core: SwitchboardCore;
  /** Base URL, e.g. http://127.0.0.1:8808 (the real port when the config asked for 0). */
  readonly url: string;
  readonly port: number;
  /** What GET /metrics exposes; `metrics.findings(rule, action, count)` counts sanitization findings. */
  readonly metrics: Metrics;
  /**
   * Applies a new config without dropping clients: servers added, removed or changed are started,
   * stopped or restarted; views and access are recomputed. Returns what changed.
   */
  reload(config: SwitchboardConfig): ConfigDiff;
  /** A config reload was refused (the file did not load): /status.json shows it until a reload succeeds. */
  reloadRefused(message: string): void;
  /** Waits until every enabled server is up, or the timeout passes; true when all are up. */
  whenReady(timeoutMs?: number): Promise<boolean>;
  /**
   * Stops: refuses new requests and connections, lets in-flight requests finish for up to
   * `graceMs` (default 0), then closes sessions and stops every child (stdin, SIGTERM, SIGKILL).
   */
  close(options?: { readonly graceMs?: number }): Promise<void>;
}

export async function createSwitchboard(config: SwitchboardConfig, options: SwitchboardOptions = {}): Promise<RunningSwitchboard> {
  const log = options.logger ?? silentLogger();
  // Before any request can arrive; without `telemetry` no OpenTelemetry module is ever imported.
  if (config.telemetry !== undefined) await startTracing(config.telemetry, log);
  const review = await openReview(config, log.child({ component: 'sanitize' }), { writeLog: true, persistPins: true, pinLog: log.child({ component: 'pins' }) });
  const core = new SwitchboardCore(config, log, { review, ...(options.shutdown ? { shutdown: options.shutdown } : {}) });
  const front = new HttpFrontDoor(core, log.child({ component: 'http' }));
  const ops = opsEndpoints(core, front.server);
  for (const [path, route] of ops.routes) front.mount(path, route);
  const reloadFile = options.reloadFile;
  if (reloadFile !== undefined) front.mount('/admin/reload', reloadRoute(reloadFile));
  // The port first: a busy or forbidden port must fail the start before any child is spawned
  // (a daemon that cannot listen but runs its servers is a hung unit under systemd).
  try {
    await new Promise<void>((resolve, reject) => {
      front.server.once('error', reject);
      front.server.listen(config.listen.port, config.listen.host, () => {
        front.server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    front.stop();
    await core.stop();
    if (config.telemetry !== undefined) await stopTracing();
    throw listenError(error, config);
  }
  core.start();
  const address = front.server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `${config.listen.tls === undefined ? 'http' : 'https'}://${host}:${address.port}`;
  log.child({ component: 'http' }).info({ url, instance: config.instance, servers: core.catalog.serverNames() }, 'listening');

  let closing: Promise<void> | undefined;
  return {
    core,
    url,
    port: address.port,
    metrics: ops.metrics,
    whenReady: (timeoutMs = 30_000) => waitUntil(() => core.ready(), timeoutMs),
    reloadRefused(message) {
      // Shown on the status page as one line: a config error is one, other errors may not be.
      const line = message.split('\n')[0] ?? '';
      core.reloadError = { time: new Date().toISOString(), message: line.length > MAX_RELOAD_ERROR_CHARS ? `${line.slice(0, MAX_RELOAD_ERROR_CHARS)}…` : line };
    },
    reload(next) {
      const diff = core.reload(next);
      // Stopping: the core ignored it (children started now would outlive the proxy), and so do the doors.
      if (!core.isStopping) front.reload();
      return diff;
    },
    close(options = {}) {
      closing ??= (async () => {
        core.drain();
        const closed = new Promise<void>((resolve) => front.server.close(() => resolve()));
        const graceMs = options.graceMs ?? 0;
        if (graceMs > 0 && core.inflightRequests() > 0) {
          log.child({ component: 'core' }).info({ inflight: core.inflightRequests(), graceMs }, 'letting in-flight requests finish');
          await waitUntil(() => core.inflightRequests() === 0, graceMs);
        }
        front.stop();
        await core.stop();
        front.server.closeAllConnections();
        await closed;
        if (config.telemetry !== undefined) await stopTracing();
      })();
      return closing;
    },
  };
}

/** A refused listen as one line naming the address; other errors pass unchanged. */
export class ListenError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

function listenError(error: unknown, config: SwitchboardConfig): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  const where = `${config.listen.host}:${config.listen.port}`;
  if (code === 'EADDRINUSE') return new ListenError(`${where} is already in use (another switchboard, or another program, listens there; choose another with --port)`, code);
  if (code === 'EACCES') return new ListenError(`not allowed to listen on ${where} (ports below 1024 need privileges)`, code);
  if (code === 'EADDRNOTAVAIL') return new ListenError(`${config.listen.host} is not an address of this machine`, code);
  return error;
}

async function waitUntil(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return true;
}
