// What the upstream layer needs from whoever sends it requests; implemented by sessions above it.
import type { JsonRpcId, JsonRpcMessage, JsonRpcResponse, SwitchboardError } from '../jsonrpc/messages.js';
import type { Serialized } from '../jsonrpc/spliced-text.js';
import type { Pending, UpstreamConnection } from './connection.js';

/** The downstream side of a forwarded request: a client session, seen only through this interface. */
export interface Caller {
  /** Stable identifier for logs and routing policy (the session id). */
  readonly key: string;
  /**
   * Delivers a message from a child, ids already restored to the caller's own. `relatedTo` is the
   * caller's request id the message belongs to (a response, its progress), or undefined when unrelated.
   * `serialized`, when given, is `message` already encoded (ids restored): send it as is.
   */
  deliver(message: JsonRpcMessage, relatedTo: JsonRpcId | undefined, serialized?: Serialized): void;
  /**
   * A forwarded request is over: `response` (ids restored) is the child's answer, or the error it
   * was failed with (timeout, child exit). Drops the caller's bookkeeping for it and delivers it.
   */
  answered(entry: Pending, response: JsonRpcResponse, serialized?: Serialized): void;
  /** A request held while its server started was sent on (a pending entry) or refused (an error to answer with). */
  forwarded(downstreamId: JsonRpcId, outcome: Pending | SwitchboardError): void;
  /**
   * A task-augmented call created a task on this connection; returns the id the caller will use for
   * it (task ids of different children may collide, so they are renamed like request ids).
   */
  taskCreated(childTaskId: string, connection: UpstreamConnection): string;
}

/** What a child told us about itself in its initialize result. */
export interface ServerIdentity {
  readonly protocolVersion: string;
  readonly capabilities: Readonly<Record<string, unknown>>;
  readonly serverInfo: Readonly<Record<string, unknown>>;
  readonly instructions: string | undefined;
}

/** A child's four lists as last fetched, every page followed. Items are the child's JSON, untouched. */
export interface ServerLists {
  readonly tools: readonly Record<string, unknown>[];
  readonly prompts: readonly Record<string, unknown>[];
  readonly resources: readonly Record<string, unknown>[];
  readonly resourceTemplates: readonly Record<string, unknown>[];
}

export type ListKind = keyof ServerLists;
