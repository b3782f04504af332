// The one HTTP server: routes paths to the MCP endpoints and the health probes, applies Origin/Host checks.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Logger } from '../log.js';
import { ErrorCode } from '../jsonrpc/messages.js';
import { AGGREGATE_SCOPE, serverScope, type ViewScope } from '../catalog/catalog.js';
import type { SwitchboardCore } from '../switchboard.js';
import { StreamableHttp } from './streamable-http.js';
import { originPolicy, refusal, type OriginPolicy } from './origin.js';
import { sendError, sendText } from './http-util.js';
import { healthReport } from '../ops/health.js';

const CORS_HEADERS = {
  'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
  'access-control-allow-headers': 'content-type, accept, authorization, mcp-session-id, mcp-protocol-version, last-event-id',
  'access-control-expose-headers': 'mcp-session-id, mcp-protocol-version',
  'access-control-max-age': '600',
} as const;

export class HttpFrontDoor {
  readonly server: Server;
  readonly streamable: StreamableHttp;
  private readonly policy: OriginPolicy;
  private readonly scopes = new Map<string, ViewScope>();

  constructor(
    private readonly core: SwitchboardCore,
    private readonly log: Logger,
  ) {
    this.policy = originPolicy(core.config.listen.host, core.config.allowedOrigins);
    this.streamable = new StreamableHttp(core, log.child({ transport: 'streamable-http' }));
    core.setBusyProbe((session) => this.streamable.isBusy(session));
    for (const name of core.catalog.serverNames()) this.scopes.set(name, serverScope(name));
    this.server = createServer({ keepAliveTimeout: 65_000 }, (req, res) => {
      try {
        this.route(req, res);
      } catch (error) {
        // One bad request must never take the daemon and every other session down with it.
        this.log.error({ err: error instanceof Error ? error.message : String(error), url: req.url }, 'request handler failed');
        if (!res.headersSent) sendError(res, 500, ErrorCode.InternalError, 'Internal error');
        else res.destroy();
      }
    });
    // Long tool calls hold a request open for minutes; Node's 5-minute default would cut them.
    this.server.requestTimeout = 0;
  }

  private route(req: IncomingMessage, res: ServerResponse): void {
    const url = req.url ?? '/';
    const query = url.indexOf('?');
    const path = query === -1 ? url : url.slice(0, query);
    if (path === '/healthz' || path === '/readyz') {
      this.health(path, res);
      return;
    }
    // Origin and Host first: nothing a foreign page sends should reach routing.
    const refused = refusal(req, this.policy);
    if (refused !== undefined) {
      this.log.warn({ reason: refused, path }, 'request refused');
      sendError(res, 403, ErrorCode.InvalidRequest, `Forbidden: ${refused}`);
      return;
    }
    const scope = this.scopeFor(path);
    if (scope === undefined) {
      sendText(res, 404, 'Not found\n');
      return;
    }
    if (req.headers.origin !== undefined) {
      res.setHeader('access-control-allow-origin', req.headers.origin);
      res.setHeader('vary', 'Origin');
      for (const [name, value] of Object.entries(CORS_HEADERS)) res.setHeader(name, value);
      if (req.method === 'OPTIONS') {
        res.writeHead(204).end();
        return;
      }
    }
    this.streamable.handle(req, res, scope);
  }

  /** `/mcp` is every server; `/s/<server>/mcp` is one server with its own names. */
  private scopeFor(path: string): ViewScope | undefined {
    if (path === '/mcp') return AGGREGATE_SCOPE;
    if (path.startsWith('/s/') && path.endsWith('/mcp')) {
      try {
        return this.scopes.get(decodeURIComponent(path.slice(3, -4)));
      } catch {
        return undefined; // a malformed %-escape names no server
      }
    }
    return undefined;
  }

  private health(path: string, res: ServerResponse): void {
    const report = healthReport(this.core);
    const ok = path === '/healthz' || report.ready;
    res.writeHead(ok ? 200 : 503, { 'content-type': 'application/json', 'cache-control': 'no-store' });
    res.end(JSON.stringify(path === '/healthz' ? { status: 'ok' } : report));
  }
}
