// Which MCP endpoint a URL path names: `/mcp`, `/sse`, `/messages`, `/ws` for every server, the same
// under `/s/<server>/` for one. Apart from the front door so the path grammar, and the table of
// servers it can name, live in one place without sockets; the door keeps to checks and dispatch.
import { AGGREGATE_SCOPE, serverScope, type ViewScope } from '../catalog/view.js';

export type EndpointKind = 'mcp' | 'sse' | 'messages' | 'ws';

export interface Endpoint {
  readonly kind: EndpointKind;
  readonly scope: ViewScope;
  /** The path before the endpoint name: '' or '/s/<server>'. */
  readonly base: string;
}

const ENDPOINT_KINDS = new Map<string, EndpointKind>([
  ['mcp', 'mcp'],
  ['sse', 'sse'],
  ['messages', 'messages'],
  ['ws', 'ws'],
]);

/** The request URL without its query. */
export function pathOf(url: string | undefined): string {
  const raw = url ?? '/';
  const query = raw.indexOf('?');
  return query === -1 ? raw : raw.slice(0, query);
}

/** `/s/<name>/<endpoint>`: a per-server path, whether or not a server of that name exists. */
export function isServerPath(path: string): boolean {
  return path.startsWith('/s/') && ENDPOINT_KINDS.has(path.slice(path.lastIndexOf('/') + 1));
}

/** `/mcp` and its siblings, or the same under `/s/<name>/`, whether or not that server exists. */
export function hasEndpointShape(path: string): boolean {
  const slash = path.lastIndexOf('/');
  return ENDPOINT_KINDS.has(path.slice(slash + 1)) && (slash === 0 || isServerPath(path));
}

/** The endpoints of the servers configured now: one scope per server, made once, not per request. */
export class EndpointTable {
  private readonly scopes = new Map<string, ViewScope>();

  constructor(serverNames: Iterable<string>) {
    this.useServers(serverNames);
  }

  /** The configured servers changed (a reload): endpoints of removed servers name nothing any more. */
  useServers(serverNames: Iterable<string>): void {
    this.scopes.clear();
    for (const name of serverNames) this.scopes.set(name, serverScope(name));
  }

  /** The scope a session's endpoint (`ViewScope.endpoint`) serves now; undefined when its server was removed. */
  scopeOfEndpoint(endpoint: string): ViewScope | undefined {
    return endpoint === AGGREGATE_SCOPE.endpoint ? AGGREGATE_SCOPE : this.scopes.get(endpoint.slice(2));
  }

  /** The endpoint `path` names; undefined for any other path, or one under an unconfigured server. */
  find(path: string): Endpoint | undefined {
    const slash = path.lastIndexOf('/');
    const kind = ENDPOINT_KINDS.get(path.slice(slash + 1));
    if (kind === undefined) return undefined;
    const base = path.slice(0, slash);
    if (base === '') return { kind, scope: AGGREGATE_SCOPE, base };
    if (!base.startsWith('/s/')) return undefined;
    let server: string;
    try {
      server = decodeURIComponent(base.slice(3));
    } catch {
      return undefined; // a malformed %-escape names no server
    }
    const scope = this.scopes.get(server);
    return scope === undefined ? undefined : { kind, scope, base };
  }
}
