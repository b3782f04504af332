// The one HTTP server: routes paths to the MCP endpoints and the routes mounted from ops/ (probes, metrics, the page), applies Origin/Host checks.
import { tracing } from '../telemetry/active.js';
import { STATUS_CODES, createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import { readFileSync } from 'node:fs';
import type { Duplex } from 'node:stream';
import type { Logger } from '../log.js';
import { ErrorCode } from '../jsonrpc/messages.js';
import type { SwitchboardCore } from '../switchboard.js';
import { StreamableHttp, KEEPALIVE_MS } from './streamable-http.js';
import { LegacySse } from './legacy-sse.js';
import { WebSocketDoor } from './websocket.js';
import { originPolicy, refusal, type OriginPolicy } from './origin.js';
import { AccessControl, RESOURCE_METADATA_PATH, sendUnauthorized, unauthorizedUpgrade } from './access.js';
import type { AuthResult } from '../auth/inbound/authenticator.js';
import { OAUTH_PRINCIPAL_PREFIX } from '../auth/inbound/oauth-access.js';
import { sendError, sendText } from './http-util.js';
import { EndpointTable, hasEndpointShape, isServerPath, pathOf, type Endpoint } from './endpoints.js';
import { Throttle } from '../throttle.js';
import { limitConnections, serverTimeouts } from './connection-limits.js';

/** Unauthorized requests logged per reason per second (a stranger can send them at will). */
const REFUSALS_LOGGED_PER_SECOND = 20;

/**
 * A page or report served on the proxy's port by a layer above (ops/: /metrics, the status page):
 * after the Origin/Host checks like every path, and behind the bearer check when `auth`.
 */
export interface MountedRoute {
  /**
   * true: an admin token is required (401/403 otherwise). 'optional': anyone may ask, and `serve`
   * is told whether the caller may see operations detail. false: anyone, no detail question.
   */
  readonly auth: boolean | 'optional';
  /** Methods it answers; default GET and HEAD. A route that changes state is POST only. */
  readonly methods?: readonly string[];
  /** `operator`: auth is off, or the caller holds an admin token. */
  serve(req: IncomingMessage, res: ServerResponse, operator: boolean): void;
}

const CORS_HEADERS = {
  'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
  'access-control-allow-headers': 'content-type, accept, authorization, mcp-session-id, mcp-protocol-version, last-event-id',
  // A browser client reads the challenge to find the authorization server (authorization.mdx).
  'access-control-expose-headers': 'mcp-session-id, mcp-protocol-version, www-authenticate',
  'access-control-max-age': '600',
} as const;

export class HttpFrontDoor {
  /** Plain HTTP, or HTTPS when `listen.tls` names a certificate and key. */
  readonly server: Server | HttpsServer;
  readonly streamable: StreamableHttp;
  readonly legacySse: LegacySse;
  readonly websocket: WebSocketDoor;
  private readonly policy: OriginPolicy;
  private readonly access: AccessControl;
  private readonly endpoints: EndpointTable;
  private readonly mounted = new Map<string, MountedRoute>();
  private readonly keepAliveTimer: NodeJS.Timeout;
  /** Refusals logged per reason per second; the rest are counted. */
  private readonly refusalLog = new Throttle(REFUSALS_LOGGED_PER_SECOND, 1000);

  constructor(
    private readonly core: SwitchboardCore,
    private readonly log: Logger,
  ) {
    this.policy = originPolicy(core.config.listen, core.config.allowedOrigins);
    this.access = new AccessControl(core.config, log, core.catalog);
    this.streamable = new StreamableHttp(core, this.access, log.child({ transport: 'streamable-http' }));
    this.legacySse = new LegacySse(core, this.access, log.child({ transport: 'sse' }));
    this.websocket = new WebSocketDoor(core, log.child({ transport: 'websocket' }));
    // An SSE or WebSocket session lives exactly as long as its connection; only Streamable HTTP ones idle.
    core.setBusyProbe((session) => session.transport !== 'streamable-http' || this.streamable.isBusy(session));
    this.keepAliveTimer = setInterval(() => this.legacySse.keepAlive(), KEEPALIVE_MS);
    this.keepAliveTimer.unref();
    this.endpoints = new EndpointTable(core.catalog.serverNames());
    const tls = core.config.listen.tls;
    const options = { keepAliveTimeout: 65_000, ...serverTimeouts(core.config.limits) };
    const handler = (req: IncomingMessage, res: ServerResponse): void => {
      try {
        // One test when tracing is off; on, the route runs inside the request's server span.
        if (tracing === undefined) this.route(req, res);
        else tracing.http(req, res, () => this.route(req, res));
      } catch (error) {
        // One bad request must never take the daemon and every other session down with it.
        this.log.error({ err: error instanceof Error ? error.message : String(error), url: req.url }, 'request handler failed');
        if (!res.headersSent) sendError(res, 500, ErrorCode.InternalError, 'Internal error');
        else res.destroy();
      }
    };
    // The files were checked when the config loaded; read here so a renewed certificate is picked up on restart.
    this.server = tls === undefined ? createServer(options, handler) : createHttpsServer({ ...options, cert: readFileSync(tls.cert), key: readFileSync(tls.key) }, handler);
    // requestTimeout bounds receiving a request only: a tool call may answer after minutes.
    limitConnections(this.server, core.config.limits, log);
    this.server.on('upgrade', (req, socket: Duplex, head: Buffer) => {
      try {
        this.upgrade(req, socket, head);
      } catch (error) {
        // As for requests: one bad upgrade must not take the daemon down.
        this.log.error({ err: error instanceof Error ? error.message : String(error), url: req.url }, 'upgrade handler failed');
        socket.destroy();
      }
    });
  }

  /**
   * After the core took a reloaded config: new tokens and profiles, endpoints of added and removed
   * servers, and every live session's view re-resolved from its identity and URL query. A session
   * whose identity or profile is gone is closed; one whose view changed is told so.
   */
  reload(): void {
    const config = this.core.config;
    this.access.reconfigure(config);
    this.endpoints.useServers(this.core.catalog.serverNames());
    for (const session of [...this.core.sessions.all()]) {
      // A single stateless request ends with its answer; it keeps the view it started with.
      if (session.stateless && !session.initialized) continue;
      const identity = this.access.identityOf(session);
      const endpoint = this.endpoints.scopeOfEndpoint(session.scope.endpoint);
      const scope = identity === undefined || endpoint === undefined ? undefined : this.access.scopeFor(endpoint, identity.profile, session.query);
      if (scope === undefined || !scope.ok) {
        const why = identity === undefined ? (session.principal.startsWith(OAUTH_PRINCIPAL_PREFIX) ? 'the OAuth settings that mapped its identity changed' : 'its identity is no longer configured') : endpoint === undefined ? 'its server was removed' : scope?.ok === false ? scope.message : 'no view';
        this.log.info({ session: session.id, identity: session.principal, why }, 'closing a session the reloaded config no longer allows');
        this.core.closeSession(session, `config reloaded: ${why}`);
        continue;
      }
      this.core.rescope(session, scope.scope);
    }
  }

  /** Serves `route` at exactly `path` (GET and HEAD). */
  mount(path: string, route: MountedRoute): void {
    this.mounted.set(path, route);
  }

  stop(): void {
    clearInterval(this.keepAliveTimer);
    this.streamable.stop();
    this.websocket.stop();
  }

  private upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    socket.on('error', () => socket.destroy());
    const path = pathOf(req.url);
    const refused = refusal(req, this.policy);
    const endpoint = refused === undefined ? this.endpoints.find(path) : undefined;
    if (refused !== undefined || endpoint === undefined || endpoint.kind !== 'ws') {
      if (refused !== undefined) this.log.warn({ reason: refused, path }, 'WebSocket upgrade refused');
      const status = refused !== undefined ? '403 Forbidden' : '404 Not Found';
      const refuse = (): void => void socket.end(`HTTP/1.1 ${status}\r\nconnection: close\r\ncontent-length: 0\r\n\r\n`);
      // Without a valid token, an unknown /s/<name>/ path answers 401 like a known one.
      if (refused !== undefined || !path.startsWith('/s/')) refuse();
      else this.whenAuthenticated(req, path, (auth) => (auth.ok ? refuse() : socket.end(unauthorizedUpgrade(auth, this.access.challenge(req, path)))), () => socket.destroy());
      return;
    }
    const auth = this.access.authenticate(req, path);
    if (auth instanceof Promise) this.whenAuthenticated(req, path, (result) => this.upgradeAuthenticated(req, socket, head, endpoint, result), () => socket.destroy(), auth);
    else this.upgradeAuthenticated(req, socket, head, endpoint, auth);
  }

  private upgradeAuthenticated(req: IncomingMessage, socket: Duplex, head: Buffer, endpoint: Endpoint, auth: AuthResult): void {
    if (socket.destroyed) return;
    if (!auth.ok) {
      this.logRefusal(auth, pathOf(req.url));
      socket.end(unauthorizedUpgrade(auth, this.access.challenge(req, pathOf(req.url))));
      return;
    }
    const scope = this.access.grant(endpoint.scope, auth.identity, req.url);
    if (!scope.ok) {
      const body = JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: ErrorCode.InvalidRequest, message: scope.message } });
      socket.end(`HTTP/1.1 ${scope.status} ${STATUS_CODES[scope.status] ?? ''}\r\ncontent-type: application/json\r\nconnection: close\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
      return;
    }
    this.websocket.upgrade(req, socket, head, scope.grant, auth.identity.expiresAt);
  }

  /**
   * Runs `then` with the request's authentication once it is known: an access token seen for the
   * first time is verified before. `failed` runs if `then` throws (the handler's guard does not
   * reach a continuation).
   */
  private whenAuthenticated(req: IncomingMessage, path: string, then: (auth: AuthResult) => void, failed: () => void, started?: Promise<AuthResult>): void {
    const auth = started ?? this.access.authenticate(req, path);
    const guarded = (result: AuthResult): void => {
      try {
        then(result);
      } catch (error) {
        this.log.error({ err: error instanceof Error ? error.message : String(error), url: req.url }, 'request handler failed');
        failed();
      }
    };
    if (auth instanceof Promise) auth.then(guarded, (error: unknown) => {
      this.log.error({ err: error instanceof Error ? error.message : String(error), url: req.url }, 'authentication failed');
      failed();
    });
    else guarded(auth);
  }

  private route(req: IncomingMessage, res: ServerResponse): void {
    const url = req.url ?? '/';
    const path = pathOf(url);
    // Origin and Host first: nothing a foreign page sends should reach routing (DNS rebinding
    // would otherwise let a web page read even /readyz's server names and errors).
    const refused = refusal(req, this.policy);
    if (refused !== undefined) {
      this.log.warn({ reason: refused, path }, 'request refused');
      res.setHeader('connection', 'close');
      sendError(res, 403, ErrorCode.InvalidRequest, `Forbidden: ${refused}`);
      return;
    }
    if (path === RESOURCE_METADATA_PATH || path.startsWith(`${RESOURCE_METADATA_PATH}/`)) {
      this.serveResourceMetadata(req, res, path.slice(RESOURCE_METADATA_PATH.length));
      return;
    }
    const mounted = this.mounted.get(path);
    if (mounted !== undefined) {
      this.serveMounted(mounted, req, res, path);
      return;
    }
    const endpoint = this.endpoints.find(path);
    // A CORS preflight never carries credentials (Fetch spec), so it cannot be authenticated; it
    // is answered alike for every /s/<name>/ path, configured or not, and names no server.
    if (req.headers.origin !== undefined && (endpoint !== undefined || isServerPath(path))) {
      res.setHeader('access-control-allow-origin', req.headers.origin);
      res.setHeader('vary', 'Origin');
      for (const [name, value] of Object.entries(CORS_HEADERS)) res.setHeader(name, value);
      if (req.method === 'OPTIONS') {
        res.writeHead(204).end();
        return;
      }
    }
    if (endpoint === undefined) {
      // Without a valid token, an unknown /s/<name>/ path answers 401 like a known one: a 404 for
      // made-up names only would let anyone list the configured servers.
      if (!path.startsWith('/s/')) sendText(res, 404, 'Not found\n');
      else this.whenAuthenticated(req, path, (auth) => (auth.ok ? sendText(res, 404, 'Not found\n') : this.unauthorized(req, res, path, auth)), () => this.crashed(res));
      return;
    }
    // Credentials before anything that depends on the endpoint existing (a 426 would say it does).
    const auth = this.access.authenticate(req, path);
    if (auth instanceof Promise) this.whenAuthenticated(req, path, (result) => this.serveEndpoint(req, res, endpoint, path, url, result), () => this.crashed(res), auth);
    else this.serveEndpoint(req, res, endpoint, path, url, auth);
  }

  private serveEndpoint(req: IncomingMessage, res: ServerResponse, endpoint: Endpoint, path: string, url: string, auth: AuthResult): void {
    if (res.destroyed) return;
    if (!auth.ok) {
      this.unauthorized(req, res, path, auth);
      return;
    }
    if (endpoint.kind === 'ws') {
      res.setHeader('upgrade', 'websocket');
      sendText(res, 426, 'This endpoint speaks WebSocket (subprotocol mcp)\n');
      return;
    }
    const identity = auth.identity;
    switch (endpoint.kind) {
      case 'mcp':
        this.streamable.handle(req, res, endpoint.scope, identity);
        return;
      case 'sse':
        this.legacySse.open(req, res, endpoint.scope, identity, `${endpoint.base}/messages`);
        return;
      case 'messages':
        this.legacySse.post(req, res, endpoint.scope, identity, new URLSearchParams(url.slice(path.length + 1))).catch((error: unknown) => {
          this.log.error({ err: error instanceof Error ? error.message : String(error) }, 'SSE POST handler failed');
          if (!res.headersSent) sendError(res, 500, ErrorCode.InternalError, 'Internal error');
        });
        return;
    }
  }

  private unauthorized(req: IncomingMessage, res: ServerResponse, path: string, auth: Extract<AuthResult, { ok: false }>): void {
    this.logRefusal(auth, path);
    sendUnauthorized(res, auth, this.access.challenge(req, path));
  }

  /** Never the header itself (it may be a mistyped real token); a stranger repeating bad tokens costs a bounded log. */
  private logRefusal(auth: Extract<AuthResult, { ok: false }>, path: string): void {
    const verdict = this.refusalLog.take(auth.reason);
    if (!verdict.allowed) return;
    const suppressed = verdict.dropped > 0 ? { suppressed: verdict.dropped } : {};
    if (auth.reason === 'unavailable') this.log.error({ reason: auth.detail ?? auth.message, path, ...suppressed }, 'request refused: its access token could not be checked');
    else this.log.warn({ reason: auth.reason, ...(auth.reason === 'invalid_token' || auth.reason === 'insufficient_scope' ? { why: auth.message } : {}), path, ...suppressed }, 'request unauthorized');
  }

  private crashed(res: ServerResponse): void {
    if (!res.headersSent) sendError(res, 500, ErrorCode.InternalError, 'Internal error');
    else res.destroy();
  }

  /**
   * RFC 9728 metadata, public like the issuer's own: for the proxy (`suffix` empty) and for any
   * endpoint path, configured server or not (it names only what the path already says). 404 when
   * no authorization server is configured.
   */
  private serveResourceMetadata(req: IncomingMessage, res: ServerResponse, suffix: string): void {
    if (req.method === 'OPTIONS') {
      res.writeHead(204, { 'access-control-allow-origin': '*', 'access-control-allow-methods': 'GET, OPTIONS', 'access-control-max-age': '600' }).end();
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('allow', 'GET, HEAD, OPTIONS');
      sendText(res, 405, 'Method not allowed\n');
      return;
    }
    const document = suffix === '' || hasEndpointShape(suffix) ? this.access.resourceMetadata(req, suffix) : undefined;
    if (document === undefined) {
      sendText(res, 404, 'Not found\n');
      return;
    }
    const body = JSON.stringify(document);
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'access-control-allow-origin': '*', 'cache-control': 'max-age=300' });
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  private serveMounted(route: MountedRoute, req: IncomingMessage, res: ServerResponse, path: string): void {
    const methods = route.methods ?? ['GET', 'HEAD'];
    if (!methods.includes(req.method ?? '')) {
      res.setHeader('allow', methods.join(', '));
      sendText(res, 405, 'Method not allowed\n');
      return;
    }
    if (route.auth === 'optional') {
      if (!this.access.authEnabled) route.serve(req, res, true);
      else this.whenAuthenticated(req, path, (auth) => route.serve(req, res, auth.ok && auth.identity.admin), () => this.crashed(res));
      return;
    }
    if (!route.auth) {
      route.serve(req, res, true);
      return;
    }
    this.whenAuthenticated(req, path, (auth) => {
      if (!auth.ok) {
        this.unauthorized(req, res, path, auth);
        return;
      }
      // Operations data names every server, its errors and findings: not for a token whose
      // profile hides some of them, unless the operator marked it admin.
      if (!auth.identity.admin) {
        sendError(res, 403, ErrorCode.InvalidRequest, `Forbidden: ${path} needs an admin token ("admin": true, or a token without a profile)`);
        return;
      }
      route.serve(req, res, true);
    }, () => this.crashed(res));
  }
}
