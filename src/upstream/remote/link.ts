// What the two remote transports (streamable-http.ts, legacy-sse.ts) ask of the server they carry
// messages for (remote-server.ts), so that neither imports it.
import type { OutgoingTrace } from '../../telemetry/types.js';
import type { RemoteResponse } from './http-client.js';
import type { Logger } from '../../log.js';
import type { JsonObject, JsonRpcId } from '../../jsonrpc/messages.js';
import type { HttpClient } from './http-client.js';
import type { ByteBudget } from './sse-reader.js';

/** One message on its way: its text and what the connection said of it (see ChildTransport.write). */
export interface Outgoing {
  readonly line: string;
  readonly id: JsonRpcId | undefined;
  readonly method: string | undefined;
  /** W3C context for the POST's headers when tracing is on (the body carries it in `_meta` too). */
  readonly trace: OutgoingTrace | undefined;
}

export interface RemoteLink {
  readonly name: string;
  readonly log: Logger;
  readonly http: HttpClient;
  /** The bound of one message, bytes. */
  readonly maxMessageBytes: number;
  /** Bytes of answers being read from this server at once, all streams and bodies together. */
  readonly buffered: ByteBudget;
  /** False once the server exited or is stopping: nothing new is opened then. */
  isOpen(): boolean;
  /** Where messages are POSTed: the server's URL, or the endpoint the legacy stream named. */
  postTarget(): URL;
  /** The server cannot be used any more: it "exits", and the handle starts a new one. */
  lost(reason: string): void;
  /** A problem worth keeping among the last few (what stderr is for a child). */
  problem(text: string): void;
  /** A 401 when the proxy signs in itself: handled (the token refreshed on reconnect); false otherwise. */
  refused(response: RemoteResponse): boolean;
  /** Streamable HTTP was refused in `auto` mode: the legacy transport is tried, initialize sent again there. */
  fallBack(status: number): void;
  /** A message the server sent, as its bytes; `carriedBy`: the request whose response stream carried it. */
  deliver(bytes: Buffer, carriedBy: JsonRpcId | undefined): void;
  /** A message made here (never text), as the object it is. */
  deliverMessage(message: JsonObject, carriedBy: JsonRpcId | undefined): void;
  /** Answers a request of ours with an error made here. */
  answerError(id: JsonRpcId, message: string): void;
}
