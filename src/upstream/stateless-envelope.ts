// Children of the stateless era (2026-07-28) get no initialize: every request carries its version
// and the client's capabilities in `_meta` (basic/index.mdx), the proxy's own requests included.
import { isObject, type JsonObject, type JsonRpcRequest } from '../jsonrpc/messages.js';
import { RAW_TEXT, spliceNoMore, type RawCarrier } from '../wire/request-splice.js';
import { META_CLIENT_CAPABILITIES, META_CLIENT_INFO, META_LOG_LEVEL, META_PROTOCOL_VERSION, STATELESS_PROTOCOL_VERSIONS, SWITCHBOARD_INFO } from '../protocol.js';

export const STATELESS_VERSION = STATELESS_PROTOCOL_VERSIONS[0] as string;

/** The envelope of the proxy's own requests, with the capabilities it serves children under. */
export function proxyEnvelope(capabilities: JsonObject): JsonObject {
  return { [META_PROTOCOL_VERSION]: STATELESS_VERSION, [META_CLIENT_CAPABILITIES]: capabilities, [META_CLIENT_INFO]: SWITCHBOARD_INFO };
}

/**
 * Gives a client's request the envelope for a stateless-era child. The capabilities are the
 * client's, less `roots`: a child learns roots from the proxy's config, never from a client, so no
 * client can widen a shared child's reach (the rule child-messages.ts keeps for session children).
 * A request that arrived as text to splice is parsed whole first: its `_meta` is edited here.
 */
export function addEnvelope(request: JsonRpcRequest & RawCarrier, clientCapabilities: Readonly<Record<string, unknown>>): void {
  spliceNoMore(request);
  const params = (request.params ??= {});
  const meta = isObject(params._meta) ? params._meta : {};
  const { roots: _roots, ...capabilities } = clientCapabilities;
  params._meta = {
    ...meta,
    [META_PROTOCOL_VERSION]: STATELESS_VERSION,
    [META_CLIENT_CAPABILITIES]: capabilities,
    [META_CLIENT_INFO]: isObject(meta[META_CLIENT_INFO]) ? meta[META_CLIENT_INFO] : SWITCHBOARD_INFO,
  };
}

/**
 * A client's answers to a child's input requests may include roots (a `roots/list` it was asked,
 * by a child that asked without the capability, or answers it sent unasked): whatever the client
 * said, the child gets the proxy's configured roots, as a session-era child would.
 */
export function rootsFromConfig(request: JsonRpcRequest, roots: readonly string[]): void {
  const responses = request.params?.inputResponses;
  if (!isObject(responses)) return;
  for (const key of Object.keys(responses)) {
    const response = responses[key];
    if (isObject(response) && 'roots' in response) responses[key] = { roots: roots.map((uri) => ({ uri })) };
  }
}

/**
 * Takes the stateless era's envelope out of a request for a session-era child: the keys mean
 * nothing to it (they are reserved, so it cannot use them either) and only cost it bytes to read.
 * A request forwarded as text keeps them: that text is never edited but for its routed members.
 */
export function removeEnvelope(request: JsonRpcRequest & RawCarrier): void {
  if (request[RAW_TEXT] !== undefined) return;
  const params = request.params;
  const meta = params?._meta;
  if (params === undefined || !isObject(meta)) return;
  // A new object, not deletes: deleting keys turns objects into slow dictionaries for what follows.
  let rest: JsonObject | undefined;
  for (const key in meta) {
    if (!ENVELOPE_KEYS.has(key)) (rest ??= {})[key] = meta[key];
  }
  // Left undefined rather than deleted: JSON leaves it out all the same.
  params._meta = rest;
}

const ENVELOPE_KEYS: ReadonlySet<string> = new Set([META_PROTOCOL_VERSION, META_CLIENT_CAPABILITIES, META_CLIENT_INFO, META_LOG_LEVEL]);

/** True when a server/discover result names a stateless-era version we speak. */
export function isStatelessDiscover(result: JsonObject): boolean {
  const versions = result.supportedVersions;
  return Array.isArray(versions) && versions.some((version) => typeof version === 'string' && STATELESS_PROTOCOL_VERSIONS.includes(version));
}
