// Resource subscriptions, reference-counted per server instance and URI: one upstream subscribe however many clients.
import type { ServerHandle } from '../upstream/server-handle.js';
import type { Session } from '../session/session.js';

export class Subscriptions {
  private readonly byHandle = new Map<ServerHandle, Map<string, Set<Session>>>();

  /** Adds a subscriber; true when it is the first for this URI (so the server must be told). */
  add(handle: ServerHandle, uri: string, session: Session): boolean {
    let byUri = this.byHandle.get(handle);
    if (byUri === undefined) this.byHandle.set(handle, (byUri = new Map()));
    let sessions = byUri.get(uri);
    if (sessions === undefined) byUri.set(uri, (sessions = new Set()));
    const first = sessions.size === 0;
    sessions.add(session);
    session.subscribe(handle.name, uri);
    return first;
  }

  /** Removes a subscriber; true when it was the last one (so the server should be told). */
  remove(handle: ServerHandle, uri: string, session: Session): boolean {
    session.unsubscribe(handle.name, uri);
    const sessions = this.byHandle.get(handle)?.get(uri);
    if (sessions === undefined || !sessions.delete(session)) return false;
    if (sessions.size > 0) return false;
    this.byHandle.get(handle)?.delete(uri);
    return true;
  }

  has(handle: ServerHandle, uri: string, session: Session): boolean {
    return this.byHandle.get(handle)?.get(uri)?.has(session) ?? false;
  }

  subscribers(handle: ServerHandle, uri: string): ReadonlySet<Session> | undefined {
    return this.byHandle.get(handle)?.get(uri);
  }

  /** URIs with at least one subscriber on an instance, to subscribe again after it restarts. */
  uris(handle: ServerHandle): string[] {
    return [...(this.byHandle.get(handle)?.keys() ?? [])];
  }

  /** Drops a session's subscriptions on some instances only; returns the (instance, uri) pairs that lost their last subscriber. */
  dropSessionOn(session: Session, handles: Iterable<ServerHandle>): Array<[ServerHandle, string]> {
    const orphaned: Array<[ServerHandle, string]> = [];
    for (const handle of handles) {
      const byUri = this.byHandle.get(handle);
      if (byUri === undefined) continue;
      for (const [uri, sessions] of byUri) {
        if (!sessions.delete(session)) continue;
        session.unsubscribe(handle.name, uri);
        if (sessions.size === 0) {
          byUri.delete(uri);
          orphaned.push([handle, uri]);
        }
      }
    }
    return orphaned;
  }

  /** Drops every subscription of a session; returns the (instance, uri) pairs that lost their last subscriber. */
  dropSession(session: Session, handles: Iterable<ServerHandle>): Array<[ServerHandle, string]> {
    const orphaned = this.dropSessionOn(session, handles);
    session.unsubscribeAll();
    return orphaned;
  }

  /**
   * A reload replaced `from`: its subscribers pass to `to`, which renews them upstream once ready
   * (see SwitchboardCore.resubscribe); with no successor (the server was removed) they end.
   */
  transfer(from: ServerHandle, to: ServerHandle | undefined): void {
    const byUri = this.byHandle.get(from);
    if (byUri === undefined) return;
    this.byHandle.delete(from);
    if (to === undefined) {
      for (const [uri, sessions] of byUri) for (const session of sessions) session.unsubscribe(from.name, uri);
      return;
    }
    const into = this.byHandle.get(to);
    if (into === undefined) {
      this.byHandle.set(to, byUri);
      return;
    }
    for (const [uri, sessions] of byUri) {
      const existing = into.get(uri);
      if (existing === undefined) into.set(uri, sessions);
      else for (const session of sessions) existing.add(session);
    }
  }

  forget(handle: ServerHandle): void {
    this.byHandle.delete(handle);
  }
}
