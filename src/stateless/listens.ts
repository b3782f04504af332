// subscriptions/listen (2026-07-28, basic/patterns/subscriptions.mdx): a stateless client's one
// long-lived request, over which list changes and resource updates reach it. Each listen is a
// session of its own, so list_changed fan-out and resource subscriptions at the children work as for
// sessions; its channel keeps to the client's filter and tags every notification with the listen's id.
import type { Logger } from '../log.js';
import { ErrorCode, errorResponse, isObject, type JsonObject, type JsonRpcId, type JsonRpcMessage, type JsonRpcRequest } from '../jsonrpc/messages.js';
import type { Serialized } from '../wire/result-bytes.js';
import type { Catalog } from '../catalog/catalog.js';
import type { Session } from '../session/session.js';
import type { SessionChannel, SessionGrant } from '../session/opening.js';
import type { SessionRegistry } from '../session/registry.js';
import type { StatelessContext, ReplyStream } from './context.js';
import { META_SUBSCRIPTION_ID } from '../protocol.js';
import type { Subscriptions } from '../router/subscriptions.js';
import type { Upstreams } from '../upstream/upstreams.js';

/** Resource URIs one listen may follow; a client that wants more opens another. */
const MAX_RESOURCE_SUBSCRIPTIONS = 256;

const LIST_FILTER: ReadonlyMap<string, string> = new Map([
  ['notifications/tools/list_changed', 'toolsListChanged'],
  ['notifications/prompts/list_changed', 'promptsListChanged'],
  ['notifications/resources/list_changed', 'resourcesListChanged'],
]);

/** What one listen agreed to send: the client's filter, less what the view cannot offer. */
interface Honored {
  toolsListChanged?: true;
  promptsListChanged?: true;
  resourcesListChanged?: true;
  resourceSubscriptions?: string[];
}

class ListenChannel implements SessionChannel {
  private readonly uris: ReadonlySet<string>;
  private ended = false;

  constructor(
    private readonly id: JsonRpcId,
    private readonly honored: Honored,
    private readonly reply: ReplyStream,
  ) {
    this.uris = new Set(honored.resourceSubscriptions ?? []);
  }

  deliver(message: JsonRpcMessage, _relatedTo: JsonRpcId | undefined, _serialized?: Serialized): void {
    const method = (message as { method?: unknown }).method;
    if (typeof method !== 'string' || (message as { id?: unknown }).id !== undefined) return;
    const wanted = LIST_FILTER.get(method);
    const params = isObject((message as { params?: unknown }).params) ? ((message as { params: JsonObject }).params) : {};
    if (wanted !== undefined) {
      if (this.honored[wanted as keyof Honored] !== true) return;
    } else if (method !== 'notifications/resources/updated' || typeof params.uri !== 'string' || !this.uris.has(params.uri)) {
      // Progress and log lines belong to requests, never to a listen (subscriptions.mdx).
      return;
    }
    const meta = isObject(params._meta) ? params._meta : {};
    this.reply.send({ jsonrpc: '2.0', method, params: { ...params, _meta: { ...meta, [META_SUBSCRIPTION_ID]: this.id } } }, false);
  }

  abandon(): void {
    // A listen ends when its client closes the stream.
  }

  /** Ended on our side (shutdown, reload): the listen's result, then the end of its stream. */
  close(): void {
    if (this.ended) return;
    this.ended = true;
    this.reply.send({ jsonrpc: '2.0', id: this.id, result: { resultType: 'complete', _meta: { [META_SUBSCRIPTION_ID]: this.id } } }, true);
  }

  /** The client closed the stream: nothing more is written. */
  gone(): void {
    this.ended = true;
  }
}

export class Listens {
  constructor(
    private readonly registry: SessionRegistry,
    private readonly catalog: Catalog,
    private readonly upstreams: Upstreams,
    private readonly subscriptions: Subscriptions,
    private readonly log: Logger,
  ) {}

  /** Opens a listen: acknowledged at once (the first message of its stream); returns what the transport calls when the client goes. */
  open(grant: SessionGrant, request: JsonRpcRequest, context: StatelessContext, reply: ReplyStream): (() => void) | undefined {
    const asked = request.params?.notifications;
    if (asked !== undefined && !isObject(asked)) {
      reply.send(errorResponse(request.id, ErrorCode.InvalidParams, 'Invalid params: "notifications" must be an object'), true);
      return undefined;
    }
    const view = this.catalog.current(grant.scope);
    const capabilities = this.catalog.capabilities(view);
    const honored: Honored = {};
    if (asked?.toolsListChanged === true) honored.toolsListChanged = true;
    if (asked?.promptsListChanged === true && capabilities.prompts !== undefined) honored.promptsListChanged = true;
    if (asked?.resourcesListChanged === true && capabilities.resources !== undefined) honored.resourcesListChanged = true;
    const uris = Array.isArray(asked?.resourceSubscriptions) ? asked.resourceSubscriptions.filter((uri): uri is string => typeof uri === 'string' && uri !== '') : [];
    if (uris.length > MAX_RESOURCE_SUBSCRIPTIONS) {
      reply.send(errorResponse(request.id, ErrorCode.InvalidParams, `Invalid params: at most ${MAX_RESOURCE_SUBSCRIPTIONS} resource subscriptions per listen`), true);
      return undefined;
    }
    const owned = uris.map((uri) => ({ uri, owner: this.catalog.resourceOwner(view, uri) }));
    const subscribable = owned.filter((entry) => entry.owner !== undefined);
    if (subscribable.length > 0) honored.resourceSubscriptions = subscribable.map((entry) => entry.uri);
    const channel = new ListenChannel(request.id, honored, reply);
    const acknowledged = reply.send(
      { jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged', params: { notifications: { ...honored }, _meta: { [META_SUBSCRIPTION_ID]: request.id } } },
      false,
    );
    if (!acknowledged) {
      reply.send(errorResponse(request.id, ErrorCode.InvalidRequest, 'subscriptions/listen answers as an event stream: send Accept: text/event-stream'), true);
      return undefined;
    }
    const session = this.registry.createStateless(grant, channel, context.protocolVersion, true);
    // Told of list changes like an initialized session (the core's fan-out skips the others), and
    // holding its view as a session does, so the view stays current for as long as it listens.
    session.markInitialized();
    this.catalog.attach(grant.scope);
    session.declareClient(context.clientCapabilities, session.clientInfo);
    for (const { uri, owner } of subscribable) this.subscribe(session, owner as string, uri);
    return () => {
      channel.gone();
      this.registry.close(session, 'the client closed its listen');
    };
  }

  /** The child is told of the first subscriber of a URI only; later ones share its updates. */
  private subscribe(session: Session, server: string, uri: string): void {
    let handle;
    try {
      handle = this.upstreams.handleFor(server, session);
    } catch {
      return; // a server with an instance per session: nothing a listen can follow there
    }
    if (handle === undefined || !this.subscriptions.add(handle, uri, session)) return;
    if (handle.state !== 'ready') return; // renewed when it is (the core resubscribes every live URI)
    handle.connection?.request('resources/subscribe', { uri }).catch((error: unknown) => {
      this.log.warn({ server, uri, err: error instanceof Error ? error.message : String(error) }, 'could not subscribe for a listen');
    });
  }
}
