// Protocol versions this proxy speaks and how it names itself; shared by both hops.
import { createRequire } from 'node:module';

/** Session-era versions, newest first (PROTOCOL.md §1.1): negotiated by initialize. */
export const SUPPORTED_PROTOCOL_VERSIONS: readonly string[] = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'];
export const LATEST_PROTOCOL_VERSION = '2025-11-25';

const pkg = createRequire(import.meta.url)('../package.json') as { version: string };
export const SWITCHBOARD_VERSION: string = pkg.version;
export const SWITCHBOARD_INFO = { name: 'mcp-switchboard', version: SWITCHBOARD_VERSION } as const;

/** Echo the client's version when we speak it, else offer our newest (lifecycle.mdx, version negotiation). */
export function negotiateVersion(requested: unknown): string {
  return typeof requested === 'string' && SUPPORTED_PROTOCOL_VERSIONS.includes(requested) ? requested : LATEST_PROTOCOL_VERSION;
}

/** Stateless-era versions (2026-07-28, basic/versioning.mdx): no handshake, every request says its version in `_meta`. */
export const STATELESS_PROTOCOL_VERSIONS: readonly string[] = ['2026-07-28'];

/** The request `_meta` keys of the stateless era (basic/index.mdx, "_meta"). */
export const META_PROTOCOL_VERSION = 'io.modelcontextprotocol/protocolVersion';
export const META_CLIENT_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';
export const META_CLIENT_INFO = 'io.modelcontextprotocol/clientInfo';
export const META_LOG_LEVEL = 'io.modelcontextprotocol/logLevel';
export const META_SERVER_INFO = 'io.modelcontextprotocol/serverInfo';
export const META_SUBSCRIPTION_ID = 'io.modelcontextprotocol/subscriptionId';
