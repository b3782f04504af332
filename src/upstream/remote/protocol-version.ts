// The MCP-Protocol-Version a remote server's requests carry (basic/transports.mdx, "Protocol Version
// Header"): the version named by the server's answer to the proxy's own initialize, and only that.
import type { JsonRpcId } from '../../jsonrpc/messages.js';
import { SUPPORTED_PROTOCOL_VERSIONS } from '../../protocol.js';

/**
 * The version `text` names when it is the answer to our initialize (id `initializeId`) and a version
 * we speak; else undefined. Any other message (an answer to an id we never sent, a server's own
 * request) names nothing. A version we do not speak never becomes a header (it may not even be a
 * valid header value): the connection refuses that initialize answer, so the start fails with a
 * clear error and is retried with the usual backoff.
 */
export function initializeVersion(text: string, initializeId: JsonRpcId): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined; // Not JSON: the connection reports it.
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const message = parsed as { id?: unknown; result?: { protocolVersion?: unknown } };
  if (message.id !== initializeId) return undefined;
  const version = message.result?.protocolVersion;
  return typeof version === 'string' && SUPPORTED_PROTOCOL_VERSIONS.includes(version) ? version : undefined;
}
