// Which protocol era a child is spoken to in, and what it says it is (its identity).
//
// `protocol: "auto"` probes with server/discover first (the 2026-07-28 stdio rule: any answer that
// is not a stateless-era discover result, an error or a timeout, means a session-era server). A
// child that answers the probe is offered initialize as well, since a server may speak both eras
// (basic/versioning.mdx): the session era is what its session clients need (resources/subscribe,
// sampling and elicitation as requests, logging/setLevel are gone from the stateless era). Such a
// child is asked server/discover once more after the handshake: if it still answers, it serves
// stateless requests beside the session and stateless clients' requests reach it in their own era
// (era `both`, see ServerIdentity); if not, it is a session-era child. Only a child that refuses
// initialize is spoken to in the stateless era alone.
import type { Logger } from '../log.js';
import type { ServerConfig } from '../config/types.js';
import { ErrorCode, SwitchboardError, isObject, type JsonObject, type JsonRpcMessage, type JsonRpcRequest } from '../jsonrpc/messages.js';
import type { ServerIdentity } from './types.js';
import { LATEST_PROTOCOL_VERSION, META_SERVER_INFO, SUPPORTED_PROTOCOL_VERSIONS, SWITCHBOARD_INFO } from '../protocol.js';
import { STATELESS_VERSION, isStatelessDiscover, proxyEnvelope } from './stateless-envelope.js';

/** The capabilities we offer each child: servers such as server-everything only list some tools when they see these. */
export const CLIENT_CAPABILITIES = { sampling: {}, elicitation: {}, roots: { listChanged: false } };

/**
 * How long a child may take to answer the server/discover probe, ms. A session-era server answers
 * -32601 at once; one that ignores requests before initialize (or is slow to start) costs this
 * much once per start.
 */
export const PROBE_TIMEOUT_MS = 3_000;

export const PROBE_METHOD = 'server/discover';

/** The id of the proxy's subscriptions/listen to a stateless-era child: a string, so no answer of it is mistaken for a pending request's. */
export const LISTEN_ID = 'switchboard-listen';

/** What the negotiation needs of the connection to the child. */
export interface EraChannel {
  readonly server: ServerConfig;
  readonly alive: boolean;
  request(method: string, params: JsonObject, timeoutMs?: number): Promise<JsonObject>;
  notify(message: JsonRpcMessage): boolean;
}

/**
 * Learns the child's era and identity. Nothing but the probe and initialize reaches it before it
 * is initialized; a session-era child has been sent notifications/initialized when this returns.
 */
export async function negotiateEra(channel: EraChannel, log: Logger): Promise<ServerIdentity> {
  const { server } = channel;
  const stateless = server.protocol === 'session' ? undefined : await probe(channel, log);
  if (server.protocol === 'stateless') {
    if (stateless === undefined) throw new SwitchboardError(ErrorCode.InternalError, `server ${server.name} did not answer server/discover with protocol version ${STATELESS_VERSION}`);
    return stateless;
  }
  let result: JsonObject;
  try {
    result = await channel.request('initialize', { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: CLIENT_CAPABILITIES, clientInfo: SWITCHBOARD_INFO });
  } catch (error) {
    if (stateless === undefined || !channel.alive) throw error;
    log.debug({ err: error instanceof Error ? error.message : String(error) }, 'initialize refused after server/discover: a 2026-07-28 server');
    return stateless;
  }
  const version = typeof result.protocolVersion === 'string' ? result.protocolVersion : '';
  if (!SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
    if (stateless !== undefined) return stateless;
    // JSON-quoted and cut: a server's text stays one line of the log and the status page.
    const named = JSON.stringify(version.length > 64 ? `${version.slice(0, 64)}…` : version);
    throw new SwitchboardError(ErrorCode.InternalError, `server ${server.name} answered initialize with unsupported protocol version ${named}`);
  }
  channel.notify({ jsonrpc: '2.0', method: 'notifications/initialized' });
  // Initialized, a child may keep to the session era for good (versioning.mdx lets an initialize
  // select it for the process): only one that still answers discover gets stateless requests.
  const both = stateless !== undefined && (await probe(channel, log)) !== undefined;
  if (stateless !== undefined) log.info({ protocolVersion: version, statelessToo: both }, 'server speaks both protocol eras: initialized in the session era');
  return {
    era: both ? 'both' : 'session',
    protocolVersion: version,
    capabilities: isObject(result.capabilities) ? result.capabilities : {},
    serverInfo: isObject(result.serverInfo) ? result.serverInfo : {},
    instructions: typeof result.instructions === 'string' ? result.instructions : undefined,
  };
}

/** The probe: the child's stateless-era identity if it answers server/discover as such, else undefined. */
async function probe(channel: EraChannel, log: Logger): Promise<ServerIdentity | undefined> {
  const timeoutMs = Math.min(PROBE_TIMEOUT_MS, channel.server.timeoutMs);
  let result: JsonObject;
  try {
    result = await channel.request(PROBE_METHOD, { _meta: proxyEnvelope(CLIENT_CAPABILITIES) }, timeoutMs);
  } catch (error) {
    // Normal for a session-era server: refused at once, or (slow to start, or silent before
    // initialize) not answered in time. Neither is a fault.
    const timedOut = error instanceof SwitchboardError && error.code === ErrorCode.RequestTimeout;
    const fields = { method: PROBE_METHOD, timeoutMs, err: error instanceof Error ? error.message : String(error) };
    if (timedOut) log.info(fields, 'server/discover probe not answered in time: a session-era server');
    else log.debug(fields, 'server/discover probe refused: a session-era server');
    return undefined;
  }
  if (!isStatelessDiscover(result)) return undefined;
  const meta = isObject(result._meta) ? result._meta : {};
  const serverInfo = meta[META_SERVER_INFO];
  return {
    era: 'stateless',
    protocolVersion: STATELESS_VERSION,
    capabilities: isObject(result.capabilities) ? result.capabilities : {},
    serverInfo: isObject(serverInfo) ? serverInfo : {},
    instructions: typeof result.instructions === 'string' ? result.instructions : undefined,
  };
}

/**
 * A stateless-era child tells of list changes only on a subscriptions/listen stream: the request
 * that opens one for the child's life, for the lists it says change; undefined when none do.
 */
export function listenRequest(capabilities: JsonObject): JsonRpcRequest | undefined {
  const notifications: JsonObject = {};
  for (const [kind, filter] of [['tools', 'toolsListChanged'], ['prompts', 'promptsListChanged'], ['resources', 'resourcesListChanged']] as const) {
    const offered = capabilities[kind];
    if (isObject(offered) && offered.listChanged === true) notifications[filter] = true;
  }
  if (Object.keys(notifications).length === 0) return undefined;
  return { jsonrpc: '2.0', id: LISTEN_ID, method: 'subscriptions/listen', params: { notifications, _meta: proxyEnvelope(CLIENT_CAPABILITIES) } };
}
