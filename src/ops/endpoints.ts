// The operator's paths on the proxy's port: /metrics, /status.json, POST /admin/restart (bearer token
// when auth is on) and the status page at / and /ui (static: it asks for a token itself when status.json says 401).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Server as HttpsServer } from 'node:https';
import type { SwitchboardCore } from '../switchboard.js';
import type { MountedRoute } from '../transport/http-server.js';
import { EXPOSITION_CONTENT_TYPE } from './exposition.js';
import { Metrics, WireBytes } from './metrics.js';
import { restartRoute } from './restart-route.js';
import { healthRoutes } from './health.js';
import { statusReport } from './status.js';

/** The page: one static file beside this module (the build copies it to dist/ops/). */
const PAGE_FILE = new URL('./status.html', import.meta.url);

interface Page {
  readonly html: string;
  readonly csp: string;
}

/**
 * The page and a Content-Security-Policy that allows exactly its own inline script and style (by
 * hash) and fetches to this origin: whatever a server's name or error holds cannot run as script.
 */
function loadPage(): Page {
  const html = readFileSync(PAGE_FILE, 'utf8');
  const hash = (tag: string): string => {
    const match = new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`).exec(html);
    return match?.[1] === undefined ? "'none'" : `'sha256-${createHash('sha256').update(match[1]).digest('base64')}'`;
  };
  const csp = [
    "default-src 'none'",
    `script-src ${hash('script')}`,
    `style-src ${hash('style')}`,
    "connect-src 'self'",
    "img-src 'self' data:",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
  return { html, csp };
}

export interface OpsEndpoints {
  readonly metrics: Metrics;
  readonly routes: ReadonlyMap<string, MountedRoute>;
}

export function opsEndpoints(core: SwitchboardCore, server: Server | HttpsServer): OpsEndpoints {
  const startedAt = Date.now();
  const wire = new WireBytes();
  wire.observe(server);
  const metrics = new Metrics(core, wire);
  let page: Page | undefined;

  const status: MountedRoute = {
    auth: true,
    serve(_req: IncomingMessage, res: ServerResponse) {
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      res.end(JSON.stringify(statusReport(core, startedAt)));
    },
  };
  const exposition: MountedRoute = {
    auth: true,
    serve(_req: IncomingMessage, res: ServerResponse) {
      res.writeHead(200, { 'content-type': EXPOSITION_CONTENT_TYPE, 'cache-control': 'no-store' });
      res.end(metrics.render());
    },
  };
  const html: MountedRoute = {
    auth: false,
    serve(_req: IncomingMessage, res: ServerResponse) {
      page ??= loadPage();
      res.writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-cache',
        'content-security-policy': page.csp,
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'no-referrer',
      });
      res.end(page.html);
    },
  };
  return {
    metrics,
    routes: new Map([
      ['/metrics', exposition],
      ['/status.json', status],
      ['/admin/restart', restartRoute(core)],
      ['/', html],
      ['/ui', html],
      ...healthRoutes(core),
    ]),
  };
}
