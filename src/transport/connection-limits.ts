// Bounds on client connections, so strangers cannot exhaust the daemon's file descriptors: a cap in
// total, a cap per remote address, and timeouts for receiving a request (but never for answering it).
import type { Server } from 'node:http';
import type { Server as HttpsServer } from 'node:https';
import type { Socket } from 'node:net';
import { isLoopbackHost } from '../config/listen.js';
import type { Logger } from '../log.js';
import { Throttle } from '../throttle.js';

export interface ConnectionLimits {
  readonly requestTimeoutMs: number;
  readonly headersTimeoutMs: number;
  readonly maxConnections: number;
  readonly maxConnectionsPerAddress: number;
}

/**
 * How often Node checks requests against requestTimeout/headersTimeout, ms: its default (30 s)
 * would let a trickling client keep a connection 30 s past its timeout.
 */
export const CONNECTION_CHECK_MS = 1_000;

/** The server options these limits need at creation (the rest are set on the server). */
export function serverTimeouts(limits: ConnectionLimits): { requestTimeout: number; headersTimeout: number; connectionsCheckingInterval: number } {
  // headersTimeout must not exceed requestTimeout (Node refuses that combination).
  return { requestTimeout: limits.requestTimeoutMs, headersTimeout: Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs), connectionsCheckingInterval: CONNECTION_CHECK_MS };
}

/**
 * Applies the caps: beyond `maxConnections` Node itself drops new sockets; per address (not
 * loopback: a local user, or a reverse proxy on this host, is one address for everyone) a socket
 * over the cap is destroyed on arrival. Refusals are logged at most once a minute per address.
 */
export function limitConnections(server: Server | HttpsServer, limits: ConnectionLimits, log: Logger): { readonly open: () => number } {
  server.maxConnections = limits.maxConnections;
  const perAddress = new Map<string, number>();
  const refusals = new Throttle(1, 60_000);
  let open = 0;
  server.on('connection', (socket: Socket) => {
    open += 1;
    const address = socket.remoteAddress ?? '';
    const counted = address !== '' && !isLoopbackHost(address);
    let released = false;
    const release = (): void => {
      if (released) return;
      released = true;
      open -= 1;
      if (!counted) return;
      const left = (perAddress.get(address) ?? 1) - 1;
      if (left <= 0) perAddress.delete(address);
      else perAddress.set(address, left);
    };
    socket.once('close', release);
    if (!counted) return;
    const now = (perAddress.get(address) ?? 0) + 1;
    perAddress.set(address, now);
    if (now > limits.maxConnectionsPerAddress) {
      const verdict = refusals.take(address);
      if (verdict.allowed) log.warn({ address, limit: limits.maxConnectionsPerAddress, ...(verdict.dropped > 0 ? { suppressed: verdict.dropped } : {}) }, 'connection refused: too many from one address');
      socket.destroy();
    }
  });
  return { open: () => open };
}
