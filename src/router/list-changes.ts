// Fresh lists from the servers, into the catalog and out to the sessions whose view changed: while
// servers are still starting, listings are batched (one review of the whole catalog, not one per
// server that comes up); a client message, readiness, or the timer applies them first. Each
// session gets one list_changed per list kind that changed in its view.
import type { Logger } from '../log.js';
import type { JsonRpcNotification } from '../jsonrpc/messages.js';
import type { Catalog } from '../catalog/catalog.js';
import type { ViewChange } from '../catalog/view.js';
import type { ServerHandle } from '../upstream/server-handle.js';
import type { ListKind } from '../upstream/types.js';
import type { Session } from '../session/session.js';
import type { SessionRegistry } from '../session/registry.js';
import type { Subscriptions } from './subscriptions.js';
import type { Upstreams } from '../upstream/upstreams.js';

const LIST_CHANGED_METHOD: Record<ListKind, string> = {
  tools: 'notifications/tools/list_changed',
  prompts: 'notifications/prompts/list_changed',
  resources: 'notifications/resources/list_changed',
  resourceTemplates: 'notifications/resources/list_changed',
};

/** How long listings that arrive while servers start may wait to be applied together, ms. */
const LISTS_BATCH_MS = 250;

export class ListChanges {
  /** Shared servers whose fresh lists wait to be applied together. */
  private readonly pending = new Set<ServerHandle>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly sessions: SessionRegistry,
    private readonly catalog: Catalog,
    private readonly upstreams: Upstreams,
    private readonly subscriptions: Subscriptions,
    private readonly log: Logger,
  ) {}

  /** A server listed (its first listing, a list_changed, a restart). */
  onLists(handle: ServerHandle, kinds: readonly ListKind[]): void {
    if (handle.owner !== undefined) {
      // A session's own instance: only its owner can see the change. The catalog lists the shared instance.
      const owner = this.sessions.get(handle.owner);
      if (owner !== undefined && kinds.length < 4) this.notify(owner, kinds);
      return;
    }
    // A handle a reload replaced may still report its last lists while it stops: not the catalog's any more.
    if (!this.upstreams.isCurrent(handle)) return;
    this.pending.add(handle);
    if (this.anyStarting()) {
      this.timer ??= setTimeout(() => this.flush(), LISTS_BATCH_MS).unref();
      return;
    }
    this.flush();
  }

  /** A server's state changed: a ready one renews its subscriptions; the last one out of its start ends the batch. */
  onStateChange(handle: ServerHandle, state: ServerHandle['state']): void {
    if (state === 'ready') this.resubscribe(handle);
    if (state !== 'starting' && this.pending.size > 0 && !this.anyStarting()) this.flush();
  }

  /** Applies the listings waiting, in one review, and tells the sessions whose view changed. */
  flush(): void {
    // Called on every client message: nothing pending (the usual case) costs one size check. The
    // timer runs only while something is pending.
    if (this.pending.size === 0) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    const listings = [];
    for (const handle of this.pending) {
      if (this.upstreams.isCurrent(handle)) listings.push({ server: handle.name, lists: handle.lists, identity: handle.identity });
    }
    this.pending.clear();
    this.fanOut(this.catalog.updateMany(listings));
  }

  /** Tells every session of each changed view which of its lists changed. */
  fanOut(changes: readonly ViewChange[]): void {
    for (const change of changes) {
      for (const session of this.sessions.inScope(change.scopeKey)) this.notify(session, change.kinds);
    }
  }

  /** One notification per list kind that changed; templates and resources share one (resources.mdx). */
  notify(session: Session, kinds: readonly ListKind[]): void {
    if (!session.initialized) return;
    const sent = new Set<string>();
    for (const kind of kinds) {
      const method = LIST_CHANGED_METHOD[kind];
      if (sent.has(method)) continue;
      sent.add(method);
      const notification: JsonRpcNotification = { jsonrpc: '2.0', method };
      session.deliver(notification, undefined);
    }
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Some shared server is in a start attempt (its first, or a restart). */
  private anyStarting(): boolean {
    for (const handle of this.upstreams.all()) if (handle.state === 'starting') return true;
    return false;
  }

  /** After a restart the new child knows nothing of earlier subscriptions; renew them. */
  private resubscribe(handle: ServerHandle): void {
    const connection = handle.connection;
    if (connection === undefined) return;
    for (const uri of this.subscriptions.uris(handle)) {
      connection.request('resources/subscribe', { uri }).catch((error: unknown) => {
        this.log.warn({ server: handle.name, uri, err: error instanceof Error ? error.message : String(error) }, 'could not renew a subscription');
      });
    }
  }
}
