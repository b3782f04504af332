// What a session is opened with: the channel its transport gives it, how the client came, and what
// its identity was granted. Apart from the session itself because transports and the core's door
// speak these terms without needing what a session keeps inside.
import type { JsonRpcId, JsonRpcMessage } from '../jsonrpc/messages.js';
import type { Serialized } from '../wire/result-bytes.js';
import type { ViewScope } from '../catalog/view.js';

/** How a transport carries messages to one client. */
export interface SessionChannel {
  /** `relatedTo`: the client request this message belongs to; a response also ends that request's stream. */
  deliver(message: JsonRpcMessage, relatedTo: JsonRpcId | undefined, serialized?: Serialized): void;
  /** The client cancelled a request: end the stream its answer would have used, without an answer. */
  abandon(requestId: JsonRpcId): void;
  /** The session ended on our side (DELETE, expiry, shutdown): answer what is open, release streams and sockets. */
  close(reason: string): void;
  /**
   * A server needs a capability this client did not declare to go on with the request it is
   * serving. Stateless requests answer it with -32021 (2026-07-28); sessions leave it to the server.
   */
  missingCapability?(capability: string): void;
}

/** How the client reached us; `stateless` is one request of the 2026-07-28 era, a session of its own. */
export type TransportKind = 'streamable-http' | 'sse' | 'websocket' | 'stateless';

/** What a session was granted when it opened: its view, whose it is, and the URL query that narrowed it. */
export interface SessionGrant {
  readonly scope: ViewScope;
  /** Who opened it (a token's name, or `anonymous`): only the same identity may use the session id. */
  readonly principal: string;
  /** The endpoint URL's query string (`tools=fs__*`), kept so a reload can re-resolve the view. */
  readonly query: string;
  /**
   * The profile the identity had when the session opened, kept for identities a reload cannot
   * look up (an access token's, whose claims only its token carries).
   */
  readonly profile?: string | undefined;
}
