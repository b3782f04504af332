// Origin and Host checks against cross-site requests and DNS rebinding (transports.mdx "Security Warning").
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import { isLoopbackHost } from '../config/listen.js';

const LOOPBACK_HOSTNAMES = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

export interface OriginPolicy {
  /** Exact origins allowed besides loopback ones, e.g. `https://tools.example.com`. */
  readonly allowedOrigins: readonly string[];
  /** Host names (without port) a request may address; loopback names are always allowed on loopback. */
  readonly allowedHosts: ReadonlySet<string>;
  /** When false (listening on all interfaces), any Host is accepted; auth guards those deployments. */
  readonly checkHost: boolean;
}

/**
 * Hosts a request may name: loopback names, the listen address and `listen.allowedHosts`. On a
 * wildcard address (0.0.0.0, ::) the names a team reaches the box by are unknown unless
 * configured, so without allowedHosts any Host passes there; auth is mandatory on such addresses.
 */
export function originPolicy(listen: { readonly host: string; readonly allowedHosts: readonly string[] }, allowedOrigins: readonly string[]): OriginPolicy {
  const wildcard = listen.host === '0.0.0.0' || listen.host === '::' || listen.host === '';
  const hosts = new Set<string>(LOOPBACK_HOSTNAMES);
  if (!wildcard) hosts.add(listen.host.includes(':') && !listen.host.startsWith('[') ? `[${listen.host.toLowerCase()}]` : listen.host.toLowerCase());
  for (const host of listen.allowedHosts) hosts.add(host.toLowerCase());
  return { allowedOrigins, allowedHosts: hosts, checkHost: !wildcard || listen.allowedHosts.length > 0 };
}

/** Why a request must be refused with 403, or undefined when it may proceed. */
export function refusal(req: IncomingMessage, policy: OriginPolicy): string | undefined {
  const origin = req.headers.origin;
  if (origin !== undefined && origin !== 'null' && !originAllowed(origin, policy)) return `Origin ${origin} is not allowed`;
  if (origin === 'null') return 'Origin null is not allowed';
  if (policy.checkHost) {
    const host = hostname(req.headers.host);
    if (host === undefined || (!policy.allowedHosts.has(host) && !isArrivalAddress(host, req.socket?.localAddress))) {
      return `Host ${req.headers.host ?? '(missing)'} is not allowed (add its name to listen.allowedHosts)`;
    }
  }
  return undefined;
}

/**
 * A Host that is the very IP address the connection arrived on: a client that typed the address
 * the proxy listens on. DNS rebinding cannot produce it (the rebound page's Host is the attacker's
 * name, never an address literal), so it needs no entry in allowedHosts.
 */
function isArrivalAddress(host: string, localAddress: string | undefined): boolean {
  if (localAddress === undefined) return false;
  const local = localAddress.toLowerCase();
  const ipv4 = local.startsWith('::ffff:') ? local.slice('::ffff:'.length) : local;
  if (host.startsWith('[')) return isIP(local) === 6 && isIP(host.slice(1, -1)) === 6 && ipv6Text(host) === ipv6Text(`[${local}]`);
  return isIP(host) === 4 && host === ipv4;
}

function originAllowed(origin: string, policy: OriginPolicy): boolean {
  if (policy.allowedOrigins.includes(origin)) return true;
  try {
    const url = new URL(origin);
    // 127.0.0.0/8 as a dotted quad, ::1, localhost; a name like `127.evil.example` is not one.
    return isLoopbackHost(url.hostname);
  } catch {
    return false;
  }
}

/** The host name of a Host header, lower-cased, without the port; IPv6 keeps its brackets. */
function hostname(hostHeader: string | undefined): string | undefined {
  if (hostHeader === undefined || hostHeader === '') return undefined;
  const lower = hostHeader.toLowerCase();
  if (lower.startsWith('[')) {
    const end = lower.indexOf(']');
    return end === -1 ? undefined : lower.slice(0, end + 1);
  }
  const colon = lower.indexOf(':');
  return colon === -1 ? lower : lower.slice(0, colon);
}

/** One spelling of an IPv6 literal (`[0:0::1]` and `[::1]` alike), as the WHATWG URL parser writes it. */
function ipv6Text(bracketed: string): string | undefined {
  try {
    return new URL(`http://${bracketed}/`).hostname;
  } catch {
    return undefined;
  }
}
