// Tracing end to end: a client in a trace (traceparent header) calls a stdio child's tool and a
// remote server's tool through the proxy; an OTLP/HTTP JSON receiver in this file gets the spans.
// One trace id from the client to both servers, the span kinds and parents, the MCP attributes, and
// neither the bearer token nor the arguments in any attribute.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChildProcess } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { RunningSwitchboard } from '../../src/index.js';
import { ROOT, serveListening, startProxy, textOf, waitFor, type Served } from './helpers.js';

const TRACE_SERVER = path.join(ROOT, 'test/fixtures/trace-server.mjs');
const TOKEN = 'tracing-e2e-token-93c1d7';
const SECRET_ARG = 'argument-that-must-not-be-exported-41f';
const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const CLIENT_SPAN = '00f067aa0ba902b7';
const TRACEPARENT = `00-${TRACE_ID}-${CLIENT_SPAN}-01`;

interface OtlpValue { stringValue?: string; intValue?: string | number; boolValue?: boolean }
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: Array<{ key: string; value: OtlpValue }>;
}
const SERVER = 2;
const CLIENT = 3;

/** A collector speaking OTLP/HTTP JSON: every span of every export, in arrival order. */
function receiver(): Promise<{ server: http.Server; url: string; spans: OtlpSpan[]; bodies: string[] }> {
  const spans: OtlpSpan[] = [];
  const bodies: string[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      bodies.push(body);
      const parsed = JSON.parse(body) as { resourceSpans?: Array<{ scopeSpans?: Array<{ spans?: OtlpSpan[] }> }> };
      for (const rs of parsed.resourceSpans ?? []) for (const ss of rs.scopeSpans ?? []) spans.push(...(ss.spans ?? []));
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, spans, bodies })));
}

const attr = (span: OtlpSpan, key: string): string | undefined => {
  const value = span.attributes?.find((a) => a.key === key)?.value;
  return value === undefined ? undefined : String(value.stringValue ?? value.intValue ?? value.boolValue);
};

describe('tracing over OTLP', () => {
  let collector: Awaited<ReturnType<typeof receiver>>;
  let proxy: RunningSwitchboard;
  let remote: Served;
  let client: Client;
  const children = new Set<ChildProcess>();

  beforeAll(async () => {
    // Exports every 100 ms rather than every 2 s: the test waits for spans, it does not sleep.
    process.env['OTEL_BSP_SCHEDULE_DELAY'] = '100';
    collector = await receiver();
    remote = await serveListening([TRACE_SERVER], { PORT: '0' }, /listening (\d+)/, (child) => children.add(child));
    proxy = await startProxy(
      {
        mcpServers: {
          kid: { command: process.execPath, args: [TRACE_SERVER] },
          far: { url: `http://127.0.0.1:${remote.port}/mcp` },
        },
        auth: { tokens: [{ name: 'tracer', tokenEnv: 'SB_TRACING_TOKEN' }] },
        telemetry: { otlp: { endpoint: collector.url, protocol: 'http/json', headers: { 'x-collector-key': 'collector-secret-77' } }, sampleRatio: 1, serviceName: 'sb-e2e' },
      },
      { env: { ...process.env, SB_TRACING_TOKEN: TOKEN } },
    );
    client = new Client({ name: 'tracing-e2e', version: '1.0.0' });
    const requestInit = { headers: { authorization: `Bearer ${TOKEN}`, traceparent: TRACEPARENT } };
    await client.connect(new StreamableHTTPClientTransport(new URL(`${proxy.url}/mcp`), { requestInit }));
  }, 40_000);

  afterAll(async () => {
    await client?.close().catch(() => undefined);
    await proxy?.close();
    for (const child of children) child.kill('SIGKILL');
    await new Promise<void>((resolve) => (collector ? collector.server.close(() => resolve()) : resolve()));
  });

  it('carries one trace from the client through the proxy to a stdio child and a remote server', async () => {
    const kid = JSON.parse(textOf(await client.callTool({ name: 'kid__trace', arguments: { text: SECRET_ARG } }))) as { meta: { traceparent?: string } };
    const far = JSON.parse(textOf(await client.callTool({ name: 'far__trace', arguments: { text: SECRET_ARG } }))) as { meta: { traceparent?: string }; header?: string };

    // The servers were called in the client's trace, in _meta, and the remote one in its headers too.
    expect(kid.meta.traceparent).toMatch(new RegExp(`^00-${TRACE_ID}-[0-9a-f]{16}-01$`));
    expect(far.meta.traceparent).toMatch(new RegExp(`^00-${TRACE_ID}-[0-9a-f]{16}-01$`));
    expect(far.header).toBe(far.meta.traceparent);

    const calls = await waitFor(() => {
      const found = collector.spans.filter((s) => attr(s, 'mcp.method.name') === 'tools/call');
      return found.length >= 4 ? found : undefined;
    }, 15_000, 'the tools/call spans at the receiver');
    const all = collector.spans;

    for (const [server, seen] of [['kid', kid.meta.traceparent], ['far', far.meta.traceparent]] as const) {
      const mcp = calls.find((s) => s.kind === SERVER && attr(s, 'switchboard.server') === server);
      const call = calls.find((s) => s.kind === CLIENT && attr(s, 'switchboard.server') === server);
      expect(mcp, `MCP span for ${server}`).toBeDefined();
      expect(call, `client span for ${server}`).toBeDefined();
      if (mcp === undefined || call === undefined) return;
      expect(mcp.traceId).toBe(TRACE_ID);
      expect(call.traceId).toBe(TRACE_ID);
      // The MCP span is a child of the HTTP request's span, itself a child of the client's span.
      const httpSpan = all.find((s) => s.spanId === mcp.parentSpanId);
      expect(httpSpan?.kind).toBe(SERVER);
      expect(httpSpan?.parentSpanId).toBe(CLIENT_SPAN);
      expect(attr(httpSpan as OtlpSpan, 'http.request.method')).toBe('POST');
      expect(call.parentSpanId).toBe(mcp.spanId);
      // What the server got names the proxy's client span as its parent.
      expect(seen?.split('-')[2]).toBe(call.spanId);
      expect(mcp.name).toBe('tools/call trace');
      expect(attr(mcp, 'gen_ai.tool.name')).toBe('trace');
      expect(attr(mcp, 'gen_ai.operation.name')).toBe('execute_tool');
      expect(attr(mcp, 'mcp.session.id')).toMatch(/\S/);
      expect(attr(mcp, 'mcp.protocol.version')).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(attr(mcp, 'jsonrpc.request.id')).toMatch(/^\d+$/);
      expect(attr(mcp, 'network.transport')).toBe('tcp');
      expect(attr(mcp, 'error.type')).toBeUndefined();
    }

    // Neither the client's token, the collector's key nor the arguments went into any export.
    for (const body of collector.bodies) {
      expect(body).not.toContain(TOKEN);
      expect(body).not.toContain('collector-secret-77');
      expect(body).not.toContain(SECRET_ARG);
    }
  });

  it('lets a traceparent in _meta parent the MCP span over the HTTP header', async () => {
    const own = '0af7651916cd43dd8448eb211c80319c';
    await client.callTool({ name: 'kid__trace', arguments: { text: 'x' }, _meta: { traceparent: `00-${own}-b7ad6b7169203331-01` } });
    const mcp = await waitFor(() => collector.spans.find((s) => s.traceId === own && s.kind === SERVER && attr(s, 'mcp.method.name') === 'tools/call'), 15_000, 'the MCP span in the _meta trace');
    expect(mcp.parentSpanId).toBe('b7ad6b7169203331');
  });

  it('ignores a malformed traceparent in _meta: the MCP span stays in the header\'s trace', async () => {
    const before = collector.spans.length;
    await client.callTool({ name: 'kid__trace', arguments: { text: 'y' }, _meta: { traceparent: 'not-a-traceparent' } });
    const mcp = await waitFor(() => collector.spans.slice(before).find((s) => s.kind === SERVER && attr(s, 'mcp.method.name') === 'tools/call'), 15_000, 'the MCP span');
    expect(mcp.traceId).toBe(TRACE_ID);
  });
});
