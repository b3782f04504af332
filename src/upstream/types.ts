// What the upstream layer needs from whoever sends it requests; implemented by sessions above it.
import type { RequestTrace } from '../telemetry/types.js';
import type { JsonRpcId, JsonRpcMessage, JsonRpcResponse, SwitchboardError } from '../jsonrpc/messages.js';
import type { Serialized } from '../wire/result-bytes.js';

/** The downstream side of a forwarded request: a client session, seen only through this interface. */
export interface Caller {
  /** Stable identifier for logs and routing policy (the session id). */
  readonly key: string;
  /** What the client can do; a stateless-era child gets it with each request. */
  readonly clientCapabilities: Readonly<Record<string, unknown>>;
  /**
   * True for a client of the stateless era, which takes a child's input_required result as it is;
   * a session's client is asked by the proxy instead, and the request sent again with the answers.
   */
  readonly acceptsInputRequired: boolean;
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
  taskCreated(childTaskId: string, connection: PendingConnection): string;
}

/** A request we sent to the child and still owe an answer for. */
export interface Pending {
  /** Our id for it at the child; a new one when it is sent again with input responses. */
  upstreamId: number;
  readonly method: string;
  /** ms since epoch after which the request is answered with a timeout error. */
  deadline: number;
  /** How long it may wait, ms, from when it is sent (again): the server's timeoutMs but for the era probe. */
  readonly timeoutMs: number;
  /** The client session, or null for the proxy's own requests (initialize, lists). */
  readonly caller: Caller | null;
  readonly downstreamId: JsonRpcId;
  /** The caller's progress token, restored on every progress notification. */
  readonly progressToken: string | number | undefined;
  /** The connection it waits on (an UpstreamConnection), as far as callers need it. */
  readonly connection: PendingConnection;
  /** Completion of the proxy's own requests. */
  readonly settle: ((response: JsonRpcResponse) => void) | undefined;
  /** A task-augmented request (tasks.mdx): its result names a task the caller may poll later. */
  readonly createsTask: boolean;
  /** For tasks/* requests: the caller's name of the task, restored in the result. */
  readonly taskId: string | undefined;
  /** To a stateless-era child: the params as sent, for sending it again with input responses. */
  readonly resend: Record<string, unknown> | undefined;
  /**
   * When the caller received the request, on its own monotonic clock (ms); the caller sets it and
   * reads it back when the answer comes, for its latency metrics. 0 for the proxy's own requests.
   */
  receivedAt: number;
  /** Its spans when tracing is on (telemetry/), ended with its answer; undefined otherwise. */
  trace: RequestTrace | undefined;
  /** Where the caller counts this request's outcome per tool (tools/call only); set with receivedAt. */
  tool: OutcomeCounter | undefined;
}

/** Counts one request's answer and latency (session/tool-stats.ts counts per server and tool). */
export interface OutcomeCounter {
  record(response: JsonRpcMessage, ms: number): void;
}

/** What a caller may do with the connection a request or task of it waits on. */
export interface PendingConnection {
  /** Distinguishes connections (and so the tasks of different children) in ids. */
  readonly tag: string;
  /** Gives up on a pending request: the child is told, the entry answered with an error. */
  cancel(entry: Pending, reason: string): void;
}

/** What a child told us about itself in its initialize (or server/discover) result. */
export interface ServerIdentity {
  /**
   * `stateless`: a 2026-07-28 child, spoken to without a handshake, every request enveloped.
   * `both`: a child initialized in the session era that also serves 2026-07-28 requests: those of
   * stateless clients reach it enveloped (its input_required rounds are theirs), the rest as to a
   * session-era child. The identity is then the initialize result's.
   */
  readonly era: 'session' | 'stateless' | 'both';
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
