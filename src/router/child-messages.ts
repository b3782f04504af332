// What children send on their own: logs, resource updates, and requests for a client (sampling, elicitation, roots).
import type { Logger } from '../log.js';
import {
  ErrorCode,
  SwitchboardError,
  errorResponse,
  isObject,
  resultResponse,
  type JsonObject,
  type JsonRpcNotification,
  type JsonRpcRequest,
} from '../jsonrpc/messages.js';
import { RELATED_TASK, type UpstreamConnection } from '../upstream/connection.js';
import type { Pending } from '../upstream/types.js';
import type { ServerHandle } from '../upstream/server-handle.js';
import { LOG_LEVELS, Session, type LogLevel } from '../session/session.js';
import type { SessionRegistry } from '../session/registry.js';
import type { Subscriptions } from './subscriptions.js';
import { Throttle } from '../throttle.js';

/** Client capability a server-to-client request needs before we may send it (lifecycle.mdx: only negotiated features). */
const NEEDED_CAPABILITY: ReadonlyMap<string, string> = new Map([
  ['sampling/createMessage', 'sampling'],
  ['elicitation/create', 'elicitation'],
]);

/**
 * Server requests one session may have waiting for its client at once. A client answers sampling
 * or elicitation one at a time (a person is often in the loop); a child that sends thousands is
 * broken or hostile, and each waiting one is an entry here until the session ends.
 */
export const MAX_PENDING_SERVER_REQUESTS = 64;
/** Rounds of input_required one request may go through for a session client before it fails. */
const MAX_INPUT_ROUNDS = 16;
/** Refusals of a server's requests logged per server per minute; the rest are counted in the next line. */
const REFUSAL_LOG_BURST = 10;
const REFUSAL_LOG_WINDOW_MS = 60_000;

type Attribution = { session: Session; relatedTo: string | number | undefined } | { reason: string };

/**
 * Routes child-initiated traffic. A stdio child gives no hint which client request caused a log
 * line or a sampling request (the SDK's relatedRequestId never reaches the wire), so the policy is:
 *
 * - An instance owned by one session (`isolation: "session"`) talks to that session only.
 * - On a shared instance, the message belongs to the client session that has requests in flight
 *   there, when exactly one does and no other session cancelled or timed out a request there in the
 *   last 30 s (the child may still be working for that one); it travels on that session's latest
 *   request stream.
 * - When none or several sessions have requests in flight, the message is not guessed at: a
 *   request is refused with a JSON-RPC error naming the reason, a log line goes to our own log.
 *   Servers that sample, elicit or log per call under concurrent use belong in `isolation: "session"`.
 * - `roots/list` is answered by the proxy from the server's configured `roots`, never forwarded, so
 *   no client can widen what a shared child (a filesystem server, say) may reach.
 */
export class ChildMessages {
  private readonly refusalLog = new Throttle(REFUSAL_LOG_BURST, REFUSAL_LOG_WINDOW_MS);
  /** Rounds of input a stateless-era child asked for a request so far (see onInputRequired). */
  private readonly inputRounds = new WeakMap<Pending, number>();

  constructor(
    private readonly sessions: SessionRegistry,
    private readonly subscriptions: Subscriptions,
    private readonly log: Logger,
  ) {}

  onNotification(handle: ServerHandle, connection: UpstreamConnection, message: JsonRpcNotification): void {
    switch (message.method) {
      case 'notifications/message':
        this.onLog(handle, connection, message);
        return;
      case 'notifications/resources/updated': {
        const uri = message.params?.uri;
        if (typeof uri !== 'string') return;
        for (const session of this.subscriptions.subscribers(handle, uri) ?? []) session.deliver(message, undefined);
        return;
      }
      case 'notifications/cancelled':
        this.onChildCancelled(connection, message);
        return;
      case 'notifications/elicitation/complete': {
        const target = this.attribute(handle, connection);
        if ('session' in target) target.session.deliver(message, target.relatedTo);
        return;
      }
      default:
        this.log.debug({ server: handle.name, method: message.method }, 'notification from server not forwarded');
    }
  }

  onServerRequest(handle: ServerHandle, connection: UpstreamConnection, request: JsonRpcRequest): void {
    if (request.method === 'roots/list') {
      connection.notify(resultResponse(request.id, { roots: handle.config.roots.map((uri) => ({ uri })) }));
      return;
    }
    const capability = NEEDED_CAPABILITY.get(request.method);
    if (capability === undefined) {
      connection.notify(errorResponse(request.id, ErrorCode.MethodNotFound, `Method not found: ${request.method}`));
      return;
    }
    const target = this.attribute(handle, connection, request.params?._meta, true);
    if (!('session' in target)) {
      this.refuse(handle, connection, request, target.reason);
      return;
    }
    const { session, relatedTo } = target;
    if (session.clientCapabilities[capability] === undefined) {
      connection.notify(errorResponse(request.id, ErrorCode.MethodNotFound, `the client of this session does not support ${capability}`));
      session.missingCapability(capability);
      return;
    }
    if (session.serverRequests.size >= MAX_PENDING_SERVER_REQUESTS) {
      this.refuse(handle, connection, request, `the client already has ${MAX_PENDING_SERVER_REQUESTS} requests of servers waiting for an answer`);
      return;
    }
    const childId = request.id;
    const downstreamId = session.mintServerRequestId();
    session.routeServerRequest(downstreamId, { connection, childId });
    request.id = downstreamId;
    session.deliver(request, relatedTo);
  }

  /**
   * A stateless-era child answered a session's request with input_required (mrtr.mdx): the proxy
   * asks the session's client each input request, as a session-era child would have asked it (roots
   * from the config, as ever), then sends the request again with the answers. The client sees one
   * request and the questions it needs, never the rounds.
   */
  onInputRequired(handle: ServerHandle, connection: UpstreamConnection, entry: Pending, result: JsonObject): void {
    const session = entry.caller;
    if (!(session instanceof Session)) return;
    const asked = isObject(result.inputRequests) ? result.inputRequests : {};
    const answers: JsonObject = {};
    const open = new Set<number>();
    let waiting = 0;
    let failed = false;
    let timer: NodeJS.Timeout | undefined;
    const fail = (message: string, code: number = ErrorCode.InternalError, data?: unknown): void => {
      if (failed) return;
      failed = true;
      clearTimeout(timer);
      // Questions still open are withdrawn: the client is told, as a child's cancellation would.
      for (const id of open) {
        session.forgetServerRequest(id);
        session.deliver({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: message } }, undefined);
      }
      // A request its session already gave up (cancelled, closed) is not answered.
      if (session.inflight.get(entry.downstreamId) === entry) connection.fail(entry, new SwitchboardError(code, message, data));
    };
    const done = (): void => {
      clearTimeout(timer);
      // Cancelled (or ended) while its client was being asked: nothing goes to the child again.
      if (failed || session.inflight.get(entry.downstreamId) !== entry) return;
      connection.sendAgain(entry, answers, result.requestState);
    };
    // A child that keeps asking (or asks for nothing, again and again) does not keep the request forever.
    const rounds = (this.inputRounds.get(entry) ?? 0) + 1;
    this.inputRounds.set(entry, rounds);
    if (rounds > MAX_INPUT_ROUNDS) return fail(`server ${handle.name} asked for input more than ${MAX_INPUT_ROUNDS} times for one request`);
    const questions: Array<[string, JsonRpcRequest]> = [];
    for (const [key, request] of Object.entries(asked)) {
      const method = isObject(request) ? request.method : undefined;
      const params = isObject(request) && isObject(request.params) ? request.params : undefined;
      if (method === 'roots/list') {
        answers[key] = { roots: handle.config.roots.map((uri) => ({ uri })) };
        continue;
      }
      const capability = typeof method === 'string' ? NEEDED_CAPABILITY.get(method) : undefined;
      if (capability === undefined) return fail(`server ${handle.name} asked for input the proxy cannot ask a client for: ${String(method)}`);
      if (session.clientCapabilities[capability] === undefined) {
        return fail(`server ${handle.name} needs the client capability "${capability}", which this session did not declare`, ErrorCode.InvalidRequest);
      }
      questions.push([key, { jsonrpc: '2.0', id: 0, method: method as string, ...(params === undefined ? {} : { params }) }]);
    }
    if (session.serverRequests.size + questions.length > MAX_PENDING_SERVER_REQUESTS) {
      return fail(`the client already has ${MAX_PENDING_SERVER_REQUESTS} requests of servers waiting for an answer`);
    }
    for (const [key, question] of questions) {
      waiting += 1;
      const id = session.mintServerRequestId();
      question.id = id;
      open.add(id);
      session.routeServerRequest(id, {
        connection,
        childId: id,
        onAnswer: (response) => {
          open.delete(id);
          if ('error' in response) return fail(`the client did not answer ${question.method}: ${response.error.message}`);
          answers[key] = isObject(response.result) ? response.result : {};
          waiting -= 1;
          if (waiting === 0) done();
        },
      });
      session.deliver(question, entry.downstreamId);
    }
    if (waiting === 0) {
      done();
      return;
    }
    // The client gets as long to answer as the server gets to answer a request.
    timer = setTimeout(() => fail(`the client did not answer within ${handle.config.timeoutMs} ms`, ErrorCode.RequestTimeout), handle.config.timeoutMs);
    timer.unref();
  }

  /** Answers a server request with an error; the log line is rate-limited per server (a flood must not flood the log). */
  private refuse(handle: ServerHandle, connection: UpstreamConnection, request: JsonRpcRequest, reason: string): void {
    connection.notify(errorResponse(request.id, ErrorCode.InternalError, `${request.method} refused: ${reason}`));
    const verdict = this.refusalLog.take(handle.name);
    if (!verdict.allowed) return;
    const suppressed = verdict.dropped > 0 ? { suppressed: verdict.dropped } : {};
    this.log.warn({ server: handle.name, method: request.method, reason, ...suppressed }, 'server request refused');
  }

  /**
   * A child exited: requests it sent clients can no longer be answered (tell those clients, as
   * cancellation.mdx allows the requester to), and its tasks are gone.
   */
  forgetConnection(handle: ServerHandle, connection: UpstreamConnection): void {
    const owners = handle.owner === undefined ? this.sessions.all() : [this.sessions.get(handle.owner)];
    for (const session of owners) {
      if (session === undefined) continue;
      for (const [downstreamId, route] of session.serverRequests) {
        if (route.connection !== connection) continue;
        session.forgetServerRequest(downstreamId);
        route.onAnswer?.(errorResponse(downstreamId, ErrorCode.ConnectionClosed, `server ${handle.name} exited`));
        session.deliver(
          { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: downstreamId, reason: `server ${handle.name} exited` } },
          undefined,
        );
      }
      session.forgetTasksOn(connection);
    }
  }

  /** Answers every child request a closing session still owed. */
  failServerRequests(session: Session, reason: string): void {
    for (const route of session.serverRequests.values()) {
      if (route.onAnswer !== undefined) route.onAnswer(errorResponse(route.childId, ErrorCode.InternalError, reason));
      else route.connection.notify(errorResponse(route.childId, ErrorCode.InternalError, reason));
    }
    session.forgetServerRequests();
  }

  private onLog(handle: ServerHandle, connection: UpstreamConnection, message: JsonRpcNotification): void {
    const target = this.attribute(handle, connection, message.params?._meta);
    if (!('session' in target)) {
      this.log.debug({ server: handle.name, data: message.params?.data }, 'server log with no single session to send it to');
      return;
    }
    const rank = LOG_LEVELS.indexOf(message.params?.level as LogLevel);
    const wanted = target.session.logLevel;
    if (wanted !== undefined && rank >= 0 && rank < wanted) return;
    target.session.deliver(message, target.relatedTo);
  }

  private onChildCancelled(connection: UpstreamConnection, message: JsonRpcNotification): void {
    const childId = message.params?.requestId;
    for (const session of this.sessions.all()) {
      for (const [downstreamId, route] of session.serverRequests) {
        if (route.connection !== connection || route.childId !== childId) continue;
        session.forgetServerRequest(downstreamId);
        session.deliver({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { ...message.params, requestId: downstreamId } }, undefined);
        return;
      }
    }
  }

  /** `asking`: for a request of the child (see UpstreamConnection.soleCaller). */
  private attribute(handle: ServerHandle, connection: UpstreamConnection, meta?: unknown, asking = false): Attribution {
    // A message tied to a task names it (tasks.mdx, related-task metadata): its creator is the one to
    // ask, under the task id that creator knows.
    const related = isObject(meta) ? meta[RELATED_TASK] : undefined;
    const owner = isObject(related) ? connection.taskOwner(related.taskId) : undefined;
    if (owner !== undefined && owner.caller instanceof Session && isObject(related)) {
      related.taskId = owner.downstreamTaskId;
      return { session: owner.caller, relatedTo: connection.latestOf(owner.caller)?.downstreamId };
    }
    if (handle.owner !== undefined) {
      const session = this.sessions.get(handle.owner);
      if (session === undefined) return { reason: 'the session that owns this server instance is gone' };
      return { session, relatedTo: connection.latestOf(session)?.downstreamId };
    }
    // A remote server sends it on the stream of the request it serves: that request's session.
    const streamed = connection.streamOwner();
    if (streamed?.caller instanceof Session) return { session: streamed.caller, relatedTo: streamed.downstreamId };
    const sole = connection.soleCaller(asking);
    if ('caller' in sole && sole.caller instanceof Session) return { session: sole.caller, relatedTo: sole.latest.downstreamId };
    const count = 'callers' in sole ? sole.callers : 0;
    if (count === 0) return { reason: `no client request is in flight on server ${handle.name}, so no session can be asked` };
    return {
      reason: `${count} client sessions have requests in flight (or recently cancelled) on shared server ${handle.name}, so the request cannot be attributed to one; configure "isolation": "session" for this server`,
    };
  }
}
