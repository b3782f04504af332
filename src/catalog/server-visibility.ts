// Which servers a view shows (view-policy.ts showsServer), over the tools each server last listed;
// answers are kept per policy until the next listing, since stateless requests ask every time.
import { SHOW_ALL, showsServer, type ViewPolicy } from './view-policy.js';

/** One listed server's tools, as the catalog knows them after a listing. */
export interface ListedTools {
  readonly server: string;
  /** `alias + separator`: how a tool the catalog does not serve would be named. */
  readonly prefix: string;
  /** Every tool name the server listed, as it wrote them (withheld and task-only ones too). */
  readonly listed: readonly string[];
  /** The tools served, with their namespaced names. */
  readonly served: ReadonlyArray<{ readonly original: string; readonly emitted: string }>;
}

export class ServerVisibility {
  /** Namespaced names of every tool each listed server listed; absent: not listed yet. */
  private names = new Map<string, readonly string[]>();
  private answers = new WeakMap<ViewPolicy, Map<string, boolean>>();

  /** Takes every listed server's tools after a listing (or a reload); earlier answers are dropped. */
  relist(servers: Iterable<ListedTools>): void {
    this.names = new Map();
    for (const { server, prefix, listed, served } of servers) {
      // A tool the sanitizer withheld still says the server has tools: a view that admits none of
      // them must not come to show the server's prompts because of a sanitizer verdict.
      const originals = new Set(served.map((item) => item.original));
      const unserved = listed.filter((name) => !originals.has(name)).map((name) => prefix + name);
      this.names.set(server, [...served.map((item) => item.emitted), ...unserved]);
    }
    this.answers = new WeakMap();
  }

  shows(policy: ViewPolicy, server: string): boolean {
    if (policy.key === SHOW_ALL.key) return true;
    let known = this.answers.get(policy);
    if (known === undefined) this.answers.set(policy, (known = new Map()));
    let shown = known.get(server);
    if (shown === undefined) known.set(server, (shown = showsServer(policy, server, this.names.get(server))));
    return shown;
  }
}
