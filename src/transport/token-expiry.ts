// A connection that outlives the request that opened it (a WebSocket, an SSE stream) carries no
// credentials after that request, so it would outlive the access token too: it is ended when the
// token expires, and the client comes back with a fresh one.

/** setTimeout's largest delay, ms (about 24.8 days); a later expiry is waited for in steps. */
const MAX_TIMER_MS = 2_147_483_647;

/**
 * Runs `end` at `expiresAt` (ms since the epoch; undefined or Infinity: never) unless `connection`
 * closes first. The timer keeps no process alive.
 */
export function endAtExpiry(expiresAt: number | undefined, connection: { once(event: 'close', listener: () => void): unknown }, end: () => void): void {
  if (expiresAt === undefined || !Number.isFinite(expiresAt)) return;
  let timer: NodeJS.Timeout;
  const arm = (): void => {
    const left = expiresAt - Date.now();
    timer = setTimeout(left > MAX_TIMER_MS ? arm : end, Math.min(MAX_TIMER_MS, Math.max(0, left)));
    timer.unref();
  };
  arm();
  connection.once('close', () => clearTimeout(timer));
}
