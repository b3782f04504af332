// Requests of the stateless era (2026-07-28). Each is served as a session of its own, so routing,
// ids, progress, timeouts and the server-to-client policy are exactly those of sessions; the session
// ends with its answer. Children of the session era may ask the client something while they serve it
// (sampling, elicitation): a stateless client cannot be asked, so the request is answered with
// `input_required` (basic/patterns/mrtr.mdx) and waits, parked under an unguessable requestState,
// until the client's retry brings the answers; the child never notices.
import { randomBytes } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Logger } from '../log.js';
import {
  ErrorCode,
  encode,
  errorResponse,
  isObject,
  isResponse,
  type JsonObject,
  type JsonRpcId,
  type JsonRpcMessage,
  type JsonRpcRequest,
  type JsonRpcResponse,
} from '../jsonrpc/messages.js';
import type { Serialized } from '../wire/result-bytes.js';
import { DECLARED_NOTHING, LOG_LEVELS, type LogLevel, type Session } from '../session/session.js';
import type { SessionChannel, SessionGrant } from '../session/opening.js';
import type { SessionRegistry } from '../session/registry.js';
import type { StatelessContext, ReplyStream } from './context.js';
import type { Catalog } from '../catalog/catalog.js';
import type { ViewScope } from '../catalog/view.js';
import type { Router } from '../router/router.js';
import { statelessAnswer, type CacheScope } from './results.js';
import { INSTANCE_PATTERN } from '../config/schema.js';

/** Views kept attached for stateless requests (each a filter of the catalog); the least recently used goes first. */
const MAX_HELD_VIEWS = 256;

/**
 * The requestStates this process mints are `switchboard.<instance>.<process>.<random>`: apart from
 * those of children that speak the era themselves (the random process part makes ours
 * unmistakable), and naming the instance, so that a retry sent to another instance behind a
 * balancer is refused there, saying where it belongs, instead of starting the request again.
 */
const PROCESS_MARK = randomBytes(6).toString('base64url');

/** Requests that may be answered with input_required (mrtr.mdx: only these three). */
const MAY_REQUIRE_INPUT: ReadonlySet<string> = new Set(['tools/call', 'prompts/get', 'resources/read']);

export interface StatelessOptions {
  /** This daemon's instance name (config `instance`), written into the requestStates it mints. */
  readonly instance: string;
  /** Requests parked waiting for their client's input at once; the oldest is given up first. */
  readonly maxParked: number;
  /** How long a parked request waits for the retry, ms. */
  readonly parkMs: number;
}

/** A child's request as an entry of `inputRequests` (mrtr.mdx): its method and params, no id. */
function asInputRequest(request: JsonRpcRequest): JsonObject {
  return request.params === undefined ? { method: request.method } : { method: request.method, params: request.params };
}

/** One stateless request: the channel of its one-request session, and where its answer goes now. */
class StatelessCall implements SessionChannel {
  session!: Session;
  /** The POST carrying the request now; undefined while parked. */
  private reply: ReplyStream | undefined;
  /** The id the answer goes out under: the first POST's, then each retry's. */
  private replyId: JsonRpcId;
  /** Input requests of the child's, by key, not yet answered by the client; their ids are ours in the session. Made when first needed. */
  private inputs: Map<string, JsonRpcRequest> | undefined;
  /** Keys to ask for in the next input_required answer. */
  private asking: string[] | undefined;
  private askScheduled = false;
  /** The child's answer that came while parked; the retry gets it. */
  private answeredWhileParked: { readonly answer: JsonRpcMessage; readonly serialized: Serialized | undefined } | undefined;
  done = false;

  constructor(
    private readonly calls: StatelessCalls,
    readonly firstId: JsonRpcId,
    readonly method: string,
    /** `params.name` or `params.uri`: a retry must name the same thing. */
    readonly target: unknown,
    readonly principal: string,
    private readonly context: StatelessContext,
    private readonly cacheScope: CacheScope,
    reply: ReplyStream,
  ) {
    this.reply = reply;
    this.replyId = firstId;
  }

  deliver(message: JsonRpcMessage, relatedTo: JsonRpcId | undefined, serialized?: Serialized): void {
    if (this.done) return;
    if (isResponse(message)) {
      if (relatedTo !== this.firstId) return;
      this.finish(message, serialized);
      return;
    }
    const request = message as JsonRpcRequest;
    if (request.id !== undefined && request.method !== undefined) {
      this.inputRequested(request);
      return;
    }
    // Progress and log lines travel on the reply's stream; none is owed while parked (no stream).
    if (relatedTo !== undefined) this.reply?.send(message, false, serialized);
  }

  /**
   * The answer, stamped for the era under the id of the POST it goes on (`answer` is the child's
   * response, or a stand-in whose text is `serialized`); the session ends with it.
   */
  private finish(answer: JsonRpcMessage, serialized?: Serialized): void {
    if (this.reply === undefined) {
      this.answeredWhileParked = { answer, serialized };
      return;
    }
    this.done = true;
    const reply = this.reply;
    this.reply = undefined;
    reply.send(answer, true, statelessAnswer(answer as JsonRpcResponse, serialized, this.replyId, this.firstId, this.method, this.cacheScope));
    this.calls.ended(this, 'answered');
  }

  /** A child's request for this client: asked as input_required, together with any others that come at once. */
  private inputRequested(request: JsonRpcRequest): void {
    if (!MAY_REQUIRE_INPUT.has(this.method)) {
      this.calls.refuseInput(this.session, request, `${this.method} cannot ask the client for input in the 2026-07-28 protocol`);
      return;
    }
    const key = `input-${String(request.id)}`;
    (this.inputs ??= new Map()).set(key, request);
    (this.asking ??= []).push(key);
    if (this.askScheduled) return;
    this.askScheduled = true;
    // A child that asks several things at once writes them together: one answer carries them all.
    setImmediate(() => this.ask());
  }

  private ask(): void {
    this.askScheduled = false;
    if (this.done || this.asking === undefined || this.asking.length === 0) return;
    const inputRequests: JsonObject = {};
    for (const key of this.asking.splice(0)) {
      const request = this.inputs?.get(key);
      if (request !== undefined) inputRequests[key] = asInputRequest(request);
    }
    this.askFor(inputRequests);
  }

  private askFor(inputRequests: JsonObject): void {
    const reply = this.reply;
    if (reply === undefined) return;
    this.reply = undefined;
    const requestState = this.calls.park(this);
    const answer: JsonRpcResponse = { jsonrpc: '2.0', id: this.replyId, result: { resultType: 'input_required', inputRequests, requestState } };
    reply.send(answer, true, encode(answer));
  }

  /**
   * The client's retry: its answers go to the child's waiting requests; what is still unanswered is
   * asked again at once, else the request goes on and its answer goes on this POST.
   */
  resume(reply: ReplyStream, id: JsonRpcId, inputResponses: unknown): void {
    this.reply = reply;
    this.replyId = id;
    // The child already answered (its timeout, say): that is the answer, whatever the retry brings.
    if (this.answeredWhileParked !== undefined) {
      this.finish(this.answeredWhileParked.answer, this.answeredWhileParked.serialized);
      return;
    }
    const responses = isObject(inputResponses) ? inputResponses : {};
    const inputs = (this.inputs ??= new Map());
    for (const [key, request] of [...inputs]) {
      const response = responses[key];
      // Unknown keys are ignored and a malformed answer counts as none (mrtr.mdx): asked again below.
      if (!isObject(response)) continue;
      inputs.delete(key);
      this.calls.answerInput(this.session, request.id, response);
    }
    if (inputs.size > 0) {
      const again: JsonObject = {};
      for (const [key, request] of inputs) again[key] = asInputRequest(request);
      this.askFor(again);
      return;
    }
  }

  /** The client closed its POST before the answer: cancellation (streamable-http.mdx, 2026-07-28). */
  clientGone(reply: ReplyStream): void {
    if (this.done || this.reply !== reply) return;
    this.reply = undefined;
    this.done = true;
    this.calls.ended(this, 'the client closed the request');
  }

  /** A parked request waited too long, or was pushed out: its child's requests are given up. */
  expire(): void {
    if (this.done) return;
    this.done = true;
    this.calls.ended(this, 'its input never came');
  }

  abandon(): void {
    // Cancellation of a stateless request is the client closing its POST (clientGone).
  }

  close(reason: string): void {
    if (this.done) return;
    this.done = true;
    const reply = this.reply;
    this.reply = undefined;
    reply?.send(errorResponse(this.replyId, ErrorCode.ConnectionClosed, `request ended: ${reason}`), true);
  }

  missingCapability(capability: string): void {
    if (this.done || this.reply === undefined) return;
    const error = errorResponse(this.firstId, ErrorCode.MissingRequiredClientCapability, `the server needs the client capability "${capability}", which this request did not declare`, {
      requiredCapabilities: { [capability]: {} },
    });
    const entry = this.session.inflight.get(this.firstId);
    if (entry !== undefined) {
      // The child stops working on it, and the request ends answered (and counted so), through deliver.
      entry.connection.cancel(entry, `the client lacks the capability ${capability}`);
      this.session.answered(entry, error);
      return;
    }
    this.deliver(error, this.firstId);
  }

  /** The lowest log level this request wants (its `_meta` logLevel); above every level, so none, when it named none it knows. */
  logRank(): number {
    const rank = this.context.logLevel === undefined ? -1 : LOG_LEVELS.indexOf(this.context.logLevel as LogLevel);
    return rank < 0 ? LOG_LEVELS.length : rank;
  }
}

/** The stateless requests being served, and those parked for their client's input. */
export class StatelessCalls {
  /** What every requestState minted here starts with (see PROCESS_MARK). */
  private readonly statePrefix: string;
  private readonly parked: LRUCache<string, StatelessCall>;
  /**
   * Views stateless requests used lately, kept attached: a view is built when its first holder
   * attaches and dropped with its last, and a stateless request holds it only while it runs, so
   * without this every request of a quiet view would build it again.
   */
  private readonly views: LRUCache<string, ViewScope>;

  constructor(
    private readonly registry: SessionRegistry,
    private readonly router: Router,
    private readonly catalog: Catalog,
    private readonly log: Logger,
    options: StatelessOptions,
  ) {
    this.statePrefix = `switchboard.${options.instance}.${PROCESS_MARK}.`;
    this.views = new LRUCache<string, ViewScope>({ max: MAX_HELD_VIEWS, dispose: (scope) => this.catalog.detach(scope) });
    this.parked = new LRUCache<string, StatelessCall>({
      max: options.maxParked,
      ttl: options.parkMs,
      ttlAutopurge: true,
      // Expired, or pushed out by newer ones: the request is given up. ('delete' is a retry taking it.)
      dispose: (call, _state, reason) => {
        if (reason !== 'delete') call.expire();
      },
    });
  }

  /** Keeps a stateless request's view attached (built once, not per request). */
  holdView(scope: ViewScope): void {
    if (this.views.get(scope.key) !== undefined) return;
    this.catalog.attach(scope);
    this.views.set(scope.key, scope);
  }

  /** Serves one stateless request; returns what the transport calls when its client goes away. */
  start(grant: SessionGrant, request: JsonRpcRequest, context: StatelessContext, reply: ReplyStream, cacheScope: CacheScope): () => void {
    const params = request.params;
    const call = new StatelessCall(this, request.id, request.method, params?.name ?? params?.uri, grant.principal, context, cacheScope, reply);
    const session = this.registry.createStateless(grant, call, context.protocolVersion, false);
    call.session = session;
    session.declareClient(context.clientCapabilities, context.clientInfo ?? DECLARED_NOTHING);
    session.setLogLevel(call.logRank());
    this.router.handleRequest(session, request);
    return () => call.clientGone(reply);
  }

  /**
   * A retry carrying `requestState`: the parked request it names goes on. Undefined after answering
   * an error (unknown, expired or altered state, or a retry of something else).
   */
  resume(principal: string, request: JsonRpcRequest, state: string, reply: ReplyStream): (() => void) | undefined {
    const call = this.parked.get(state);
    const params = request.params;
    if (call?.done === true) this.parked.delete(state);
    if (call === undefined || call.done || call.principal !== principal || call.method !== request.method || call.target !== (params?.name ?? params?.uri)) {
      reply.send(errorResponse(request.id, ErrorCode.InvalidParams, 'Invalid params: requestState is unknown, expired or altered; send the request again without it'), true);
      return undefined;
    }
    this.parked.delete(state);
    call.resume(reply, request.id, params?.inputResponses);
    return () => call.clientGone(reply);
  }

  /**
   * True when a requestState is one the proxy minted (parked here, or parked and gone); any other
   * is a stateless-era child's own, and its retry goes to that child like any request.
   */
  owns(state: string): boolean {
    return state.startsWith(this.statePrefix);
  }

  /** The instance that minted a requestState of the proxy's own shape, when it is another one. */
  mintedElsewhere(state: string): string | undefined {
    if (state.startsWith(this.statePrefix)) return undefined;
    const [tag, instance, mark, random] = state.split('.', 4);
    const ours = tag === 'switchboard' && mark?.length === PROCESS_MARK.length && random !== undefined;
    return ours && instance !== undefined && INSTANCE_PATTERN.test(instance) ? instance : undefined;
  }

  /** Parks a call under a fresh requestState (128 random bits: it cannot be guessed, so it needs no signature). */
  park(call: StatelessCall): string {
    const state = this.statePrefix + randomBytes(16).toString('base64url');
    this.parked.set(state, call);
    return state;
  }

  get parkedCount(): number {
    return this.parked.size;
  }

  /** The client's answer to a child's request, routed as a session client's answer is. */
  answerInput(session: Session, id: JsonRpcId, result: JsonObject): void {
    this.router.handleResponse(session, { jsonrpc: '2.0', id, result });
  }

  /** A child's request that cannot become input_required: answered with an error, as the child expects. */
  refuseInput(session: Session, request: JsonRpcRequest, reason: string): void {
    this.router.handleResponse(session, errorResponse(request.id, ErrorCode.InternalError, reason));
  }

  /** The request is over: its session ends, releasing whatever is still open upstream. */
  ended(call: StatelessCall, reason: string): void {
    this.registry.close(call.session, reason);
  }

  /** Gives up every parked request and held view (the proxy is stopping). */
  clear(): void {
    this.parked.clear();
    this.views.clear();
    this.log.debug('parked stateless requests given up');
  }
}
