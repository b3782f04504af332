// List requests wait while a server of the client's view is in its first start: many clients list
// once, right after connecting, and would never see a server that was still starting then.
import type { Catalog } from '../catalog/catalog.js';
import type { View } from '../catalog/view.js';
import type { Session } from '../session/session.js';
import type { ClientRequest } from '../session/client-request.js';
import type { Upstreams } from '../upstream/upstreams.js';

/** List requests waiting at once, all sessions together; past it they are answered with what is listed. */
const MAX_HELD_LISTS = 10_000;

/** Answers a list request from a view; `held` says it waited (the lists changed meanwhile). */
export type ListAnswer = (view: View, held: boolean) => void;

export class ListHolds {
  private waiting = 0;
  /** Applies lists that arrived and wait in a batch, so a held request is answered with them. */
  beforeAnswer: () => void = () => undefined;

  constructor(
    private readonly upstreams: Upstreams,
    private readonly catalog: Catalog,
    /** Answers a request whose answer threw, as the router does. */
    private readonly fail: (session: Session, request: ClientRequest, error: unknown) => void,
  ) {}

  /** List requests waiting for first starts now. */
  get count(): number {
    return this.waiting;
  }

  /**
   * Answers now, or once every server of the view that is in its first start is up and listed or
   * has failed (each at the latest its timeoutMs after it began). Later restarts hold nothing: a
   * server that comes up or back later is announced with list_changed.
   */
  answer(session: Session, request: ClientRequest, view: View, answer: ListAnswer): void {
    let starts: Promise<void>[] | undefined;
    for (const server of view.servers) {
      const start = this.upstreams.firstStartOf(server);
      if (start !== undefined) (starts ??= []).push(start);
    }
    if (starts === undefined || this.waiting >= MAX_HELD_LISTS) {
      answer(view, false);
      return;
    }
    this.waiting += 1;
    session.hold(request);
    void Promise.all(starts).then(() => {
      this.waiting -= 1;
      if (!session.unhold(request.id)) return;
      this.beforeAnswer();
      try {
        answer(this.catalog.current(session.scope), true);
      } catch (error) {
        this.fail(session, request, error);
      }
    });
  }
}
