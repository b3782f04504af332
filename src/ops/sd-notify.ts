// Tells systemd (Type=notify) when the daemon is ready and when it is stopping, by running systemd-notify.
import { execFile } from 'node:child_process';
import type { Logger } from '../log.js';
import type { SwitchboardCore } from '../switchboard.js';

/**
 * Longest wait for every server's first start attempt before READY=1 goes out anyway, ms. A server
 * launched through npx may download for a while; the unit's TimeoutStartSec= is derived from this.
 */
export const READY_WAIT_MS = 60_000;
/** How often the servers' states are looked at while waiting, ms. */
const POLL_MS = 100;
/** systemd-notify waits until the manager has processed the message; past this it is hung, ms. */
const NOTIFY_TIMEOUT_MS = 10_000;

export interface SystemdNotifier {
  /**
   * Sends READY=1 once the daemon listens (the caller's job: call this after createSwitchboard) and
   * every enabled server has had its first start attempt, succeeded or failed, or READY_WAIT_MS passed.
   * Not "every server up": one broken server must not fail the unit or hold back units ordered after
   * it; the daemon serves the others and keeps retrying it, and /readyz reports it.
   */
  readyWhenSettled(core: SwitchboardCore, url: string): Promise<void>;
  /**
   * Sends STOPPING=1: the graceful stop began (systemctl shows "deactivating" while requests finish).
   * Resolves once systemd-notify has run (at once when there is nothing to tell); the stop need not wait.
   */
  stopping(): Promise<void>;
}

/**
 * A notifier for this process. Without NOTIFY_SOCKET systemd did not ask (Type=simple, or not
 * under systemd): every call is a no-op and nothing is spawned.
 */
export function systemdNotifier(log: Logger, env: NodeJS.ProcessEnv = process.env, readyWaitMs = READY_WAIT_MS): SystemdNotifier {
  if (env['NOTIFY_SOCKET'] === undefined || env['NOTIFY_SOCKET'] === '') {
    return { readyWhenSettled: () => Promise.resolve(), stopping: () => Promise.resolve() };
  }
  let stopped = false;
  let stopNotified: Promise<void> | undefined;
  return {
    async readyWhenSettled(core, url) {
      const deadline = Date.now() + readyWaitMs;
      while (!stopped && !settled(core) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      // READY=1 after STOPPING=1 would tell systemd the stop was a start.
      if (stopped) return;
      const servers = core.upstreams.all();
      const up = servers.filter((handle) => handle.state === 'ready').length;
      const sent = await notify(['--ready', `--status=listening on ${url}/mcp; ${up} of ${servers.length} servers ready`], env, log);
      if (!sent) log.error('systemd was not told the daemon is ready: it will stop the unit when TimeoutStartSec= passes');
    },
    stopping() {
      stopped = true;
      // Sent once; a second call waits for the same systemd-notify. STOPPING=1 rather than
      // --stopping: that flag needs systemd 253 (Debian 12 ships 252); the message itself is
      // understood by every version.
      stopNotified ??= notify(['STOPPING=1', '--status=stopping: letting in-flight requests finish'], env, log).then(() => undefined);
      return stopNotified;
    },
  };
}

/** True when no enabled server is in its first (or any) start attempt. */
function settled(core: SwitchboardCore): boolean {
  return core.upstreams.all().every((handle) => handle.state !== 'starting');
}

/**
 * Node has no unix datagram sockets, so the message goes through systemd-notify. It runs as our
 * child, hence the unit's NotifyAccess=all; and it blocks until the manager has read the message,
 * which closes the race where systemd looks up the cgroup of a sender that already exited.
 */
function notify(args: readonly string[], env: NodeJS.ProcessEnv, log: Logger): Promise<boolean> {
  return new Promise((resolve) => {
    execFile('systemd-notify', [...args], { env, timeout: NOTIFY_TIMEOUT_MS }, (error, _stdout, stderr) => {
      if (error !== null) {
        const why = (error as { code?: unknown }).code === 'ENOENT' ? 'systemd-notify is not on PATH' : stderr.trim() || error.message;
        log.warn({ args, err: why }, 'could not notify systemd');
        resolve(false);
      } else {
        log.debug({ args }, 'notified systemd');
        resolve(true);
      }
    });
  });
}
