// GET /metrics and /status.json: counters move by exactly what clients did, the latency histogram is
// consistent, server gauges follow children (crash, restart, held and pending requests), and both
// are behind the bearer check when tokens are configured; /status.json and /readyz say why a server
// is not up (its stderr, a skipped config entry) and show a refused config reload.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import WebSocket from 'ws';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RunningSwitchboard } from '../../src/index.js';
import { FAILING, connect, fixture, startProxy, textOf, waitFor } from './helpers.js';

type Samples = Map<string, number>;

/** The exposition's samples by series (`name{labels}`), HELP/TYPE lines checked to precede them. */
function parseExposition(text: string): { samples: Samples; families: Map<string, string> } {
  const samples: Samples = new Map();
  const families = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const type = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (type !== null) families.set(type[1] as string, type[2] as string);
    if (line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    samples.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return { samples, families };
}

async function scrape(proxy: RunningSwitchboard, headers: Record<string, string> = {}): Promise<Samples> {
  const res = await fetch(`${proxy.url}/metrics`, { headers });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
  return parseExposition(await res.text()).samples;
}

const requests = (method: string, outcome: string): string => `switchboard_requests_total{method="${method}",outcome="${outcome}"}`;
const of = (samples: Samples, series: string): number => samples.get(series) ?? 0;

/** The histogram of one group: cumulative buckets in order, +Inf last, and its count and sum. */
function histogram(samples: Samples, group: string): { buckets: Array<[string, number]>; count: number; sum: number } {
  const prefix = `switchboard_request_duration_seconds_bucket{group="${group}",le="`;
  const buckets: Array<[string, number]> = [];
  for (const [series, value] of samples) if (series.startsWith(prefix)) buckets.push([series.slice(prefix.length, -2), value]);
  return {
    buckets,
    count: of(samples, `switchboard_request_duration_seconds_count{group="${group}"}`),
    sum: of(samples, `switchboard_request_duration_seconds_sum{group="${group}"}`),
  };
}

describe('GET /metrics', () => {
  let proxy: RunningSwitchboard;
  let client: Client;

  beforeAll(async () => {
    proxy = await startProxy({
      mcpServers: {
        // The timeout leaves a held request time for the 1 s restart delay plus a child start on a busy machine.
        fx: fixture('fx', { timeoutMs: 3000, restart: { initialDelayMs: 1000, maxDelayMs: 1000 } }),
        two: fixture('two'),
      },
      profiles: { reader: { tools: { allow: ['fx__*'] } } },
    });
    client = await connect(proxy);
  });
  afterAll(async () => {
    await client?.close();
    await proxy?.close();
  });

  it('counts requests by method and outcome, exactly as many as were made', async () => {
    const before = await scrape(proxy);
    for (let i = 0; i < 3; i += 1) expect(textOf(await client.callTool({ name: 'fx__echo', arguments: { text: `n${i}` } }))).toBe(`n${i}`);
    await client.listTools();
    await client.ping();
    await expect(client.callTool({ name: 'fx__no_such_tool', arguments: {} })).rejects.toThrow(/Unknown tool/);
    const after = await scrape(proxy);
    const delta = (series: string): number => of(after, series) - of(before, series);
    expect(delta(requests('tools/call', 'result'))).toBe(3);
    expect(delta(requests('tools/call', 'invalid_params'))).toBe(1);
    expect(delta(requests('tools/list', 'result'))).toBe(1);
    expect(delta(requests('ping', 'result'))).toBe(1);
    // The client's initialize was counted when it connected.
    expect(of(after, requests('initialize', 'result'))).toBeGreaterThanOrEqual(1);
  });

  it('counts tool calls per server and tool: results, the tool\'s own errors and protocol errors, with a latency histogram', async () => {
    const before = await scrape(proxy);
    const tool = (server: string, name: string, outcome: string): string => `switchboard_tool_calls_total{server="${server}",tool="${name}",outcome="${outcome}"}`;
    for (let i = 0; i < 2; i += 1) await client.callTool({ name: 'fx__echo', arguments: { text: 'per tool' } });
    await client.callTool({ name: 'two__echo', arguments: { text: 'other server' } });
    // A result with isError (the tool's own failure), and a JSON-RPC error from the server (a protocol error).
    const failed = await client.callTool({ name: 'fx__raw_result', arguments: { json: '{"content":[{"type":"text","text":"no"}],"isError":true}' } });
    expect(failed.isError).toBe(true);
    // The server never answers: after its timeoutMs (3 s) the proxy answers -32001, a protocol error.
    await expect(client.callTool({ name: 'fx__hang', arguments: {} })).rejects.toThrow(/did not answer/);
    const after = await scrape(proxy);
    const delta = (series: string): number => of(after, series) - of(before, series);
    expect(delta(tool('fx', 'echo', 'result'))).toBe(2);
    expect(delta(tool('two', 'echo', 'result'))).toBe(1);
    expect(delta(tool('fx', 'raw_result', 'tool_error'))).toBe(1);
    expect(delta(tool('fx', 'hang', 'protocol_error'))).toBe(1);
    expect(delta(tool('fx', 'echo', 'protocol_error'))).toBe(0);
    const count = (server: string, name: string) => of(after, `switchboard_tool_call_duration_seconds_count{server="${server}",tool="${name}"}`);
    expect(count('fx', 'echo')).toBe(of(after, tool('fx', 'echo', 'result')));
    // The timed-out call took its 3 s: it sits above the 2.5 s bound.
    expect(of(after, `switchboard_tool_call_duration_seconds_bucket{server="fx",tool="hang",le="2.5"}`)).toBe(0);
    expect(count('fx', 'hang')).toBe(1);
    expect(of(after, `switchboard_tool_call_duration_seconds_bucket{server="fx",tool="echo",le="+Inf"}`)).toBe(count('fx', 'echo'));
  });

  it('has a latency histogram whose cumulative buckets end in its count, one observation per answer', async () => {
    const before = await scrape(proxy);
    for (let i = 0; i < 5; i += 1) await client.callTool({ name: 'fx__echo', arguments: { text: 'x' } });
    const after = await scrape(proxy);
    for (const group of ['tools/call', 'list', 'other']) {
      const h = histogram(after, group);
      expect(h.buckets.length).toBe(19);
      expect(h.buckets.at(-1)?.[0]).toBe('+Inf');
      for (let i = 1; i < h.buckets.length; i += 1) expect(h.buckets[i]?.[1]).toBeGreaterThanOrEqual(h.buckets[i - 1]?.[1] ?? 0);
      expect(h.buckets.at(-1)?.[1]).toBe(h.count);
    }
    const calls = histogram(after, 'tools/call');
    expect(calls.count - histogram(before, 'tools/call').count).toBe(5);
    expect(calls.sum).toBeGreaterThan(histogram(before, 'tools/call').sum);
    // Every tools/call that ended with an answer is one observation.
    let answered = 0;
    for (const [series, value] of after) if (series.startsWith('switchboard_requests_total{method="tools/call"') && !series.includes('cancelled')) answered += value;
    expect(calls.count).toBe(answered);
  });

  it('shows servers up, their tools, and sessions by transport and by profile', async () => {
    const reader = await connect(proxy, { path: '/mcp?profile=reader' });
    const narrowed = await connect(proxy, { path: '/mcp?tools=fx__echo,fx__whoami' });
    const ws = new WebSocket(`${proxy.url.replace('http', 'ws')}/ws`, 'mcp');
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    try {
      const samples = await waitFor(async () => {
        const s = await scrape(proxy);
        return of(s, 'switchboard_sessions{transport="websocket"}') === 1 ? s : undefined;
      });
      expect(of(samples, 'switchboard_sessions{transport="streamable-http"}')).toBe(3);
      expect(of(samples, 'switchboard_sessions{transport="sse"}')).toBe(0);
      expect(of(samples, 'switchboard_sessions_by_profile{profile="everything"}')).toBe(2);
      expect(of(samples, 'switchboard_sessions_by_profile{profile="?profile=reader"}')).toBe(1);
      // The client's globs never become a label value.
      expect(of(samples, 'switchboard_sessions_by_profile{profile="?tools"}')).toBe(1);
      for (const server of ['fx', 'two']) {
        expect(of(samples, `switchboard_server_up{server="${server}"}`)).toBe(1);
        expect(of(samples, `switchboard_server_state{server="${server}",state="ready"}`)).toBe(1);
        expect(of(samples, `switchboard_server_tools{server="${server}"}`)).toBeGreaterThan(5);
      }
      expect(of(samples, 'switchboard_ready')).toBe(1);
      expect(of(samples, 'switchboard_http_received_bytes_total')).toBeGreaterThan(0);
      expect(of(samples, 'switchboard_http_sent_bytes_total')).toBeGreaterThan(0);
    } finally {
      ws.close();
      await Promise.all([reader.close(), narrowed.close()]);
    }
  });

  it('shows a request in flight as pending, then counts its timeout', async () => {
    const before = await scrape(proxy);
    const hang = client.callTool({ name: 'fx__hang', arguments: {} }).catch((error: unknown) => error);
    await waitFor(async () => of(await scrape(proxy), 'switchboard_server_pending_requests{server="fx"}') === 1, 5000, 'pending 1');
    expect(String(await hang)).toMatch(/did not answer/);
    const after = await scrape(proxy);
    expect(of(after, requests('tools/call', 'timeout')) - of(before, requests('tools/call', 'timeout'))).toBe(1);
    expect(of(after, 'switchboard_server_pending_requests{server="fx"}')).toBe(0);
    expect(histogram(after, 'tools/call').sum - histogram(before, 'tools/call').sum).toBeGreaterThan(2.9);
  });

  it('counts a request the client cancelled, which gets no answer', async () => {
    const before = await scrape(proxy);
    const abort = new AbortController();
    const hang = client.callTool({ name: 'fx__hang', arguments: {} }, undefined, { signal: abort.signal }).catch((error: unknown) => error);
    await waitFor(async () => of(await scrape(proxy), 'switchboard_server_pending_requests{server="fx"}') === 1, 5000, 'pending 1');
    abort.abort('changed my mind');
    await hang;
    const after = await waitFor(async () => {
      const s = await scrape(proxy);
      return of(s, requests('tools/call', 'cancelled')) - of(before, requests('tools/call', 'cancelled')) === 1 ? s : undefined;
    });
    expect(of(after, 'switchboard_server_pending_requests{server="fx"}')).toBe(0);
    expect(histogram(after, 'tools/call').count).toBe(histogram(before, 'tools/call').count);
  });

  it('follows a crashed child: down, a request held while it restarts, then up with one more restart', async () => {
    const before = await scrape(proxy);
    expect(of(before, 'switchboard_server_restarts_total{server="fx"}')).toBe(0);
    await expect(client.callTool({ name: 'fx__crash', arguments: {} })).rejects.toThrow(/fx/);
    const down = await scrape(proxy);
    expect(of(down, 'switchboard_server_up{server="fx"}')).toBe(0);
    expect(of(down, 'switchboard_server_state{server="fx",state="backoff"}')).toBe(1);
    expect(of(down, 'switchboard_server_up{server="two"}')).toBe(1);
    expect(of(down, requests('tools/call', 'unavailable')) - of(before, requests('tools/call', 'unavailable'))).toBe(1);
    // Sent while the server is down: held until its child is back, then answered.
    const held = client.callTool({ name: 'fx__echo', arguments: { text: 'after the crash' } });
    await waitFor(async () => of(await scrape(proxy), 'switchboard_server_held_requests{server="fx"}') === 1, 5000, 'held 1');
    expect(textOf(await held)).toBe('after the crash');
    const up = await scrape(proxy);
    expect(of(up, 'switchboard_server_up{server="fx"}')).toBe(1);
    expect(of(up, 'switchboard_server_restarts_total{server="fx"}')).toBe(1);
    expect(of(up, 'switchboard_server_restarts_total{server="two"}')).toBe(0);
    expect(of(up, 'switchboard_server_held_requests{server="fx"}')).toBe(0);
    expect(of(up, requests('tools/call', 'result')) - of(down, requests('tools/call', 'result'))).toBe(1);
    // The held call's latency includes its wait (the restart delay is 1 s).
    expect(histogram(up, 'tools/call').sum - histogram(down, 'tools/call').sum).toBeGreaterThan(0.2);
  });

  it('counts sanitization findings by rule and action, and shows the latest on /status.json', async () => {
    const res = await fetch(`${proxy.url}/metrics`);
    const { samples, families } = parseExposition(await res.text());
    expect(families.get('switchboard_sanitize_findings_total')).toBe('counter');
    // The two fixture servers list the same tool names: the catalog's review flags each pair.
    const collisions = proxy.core.findings.totals().find((t) => t.rule === 'name-collision' && t.action === 'flag')?.count ?? 0;
    expect(collisions).toBeGreaterThan(0);
    expect(samples.get('switchboard_sanitize_findings_total{rule="name-collision",action="flag"}')).toBe(collisions);
    proxy.metrics.findings('zero-width', 'strip', 2);
    proxy.core.findings.record({ server: 'fx', tool: 'echo', rule: 'zero-width', action: 'strip' });
    proxy.core.findings.record({ server: 'two', tool: 'add', rule: 'html-comment', action: 'neutralize' });
    const after = await scrape(proxy);
    expect(of(after, 'switchboard_sanitize_findings_total{rule="zero-width",action="strip"}')).toBe(3);
    expect(of(after, 'switchboard_sanitize_findings_total{rule="html-comment",action="neutralize"}')).toBe(1);
    const status = (await (await fetch(`${proxy.url}/status.json`)).json()) as { findings: Array<Record<string, string>> };
    expect(status.findings.slice(0, 2).map((f) => [f.server, f.tool, f.rule, f.action])).toEqual([
      ['two', 'add', 'html-comment', 'neutralize'],
      ['fx', 'echo', 'zero-width', 'strip'],
    ]);
    expect(Number.isNaN(Date.parse(status.findings[0]?.time ?? ''))).toBe(false);
  });

  it('/status.json reports servers, sessions and totals', async () => {
    const res = await fetch(`${proxy.url}/status.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    const status = (await res.json()) as {
      ready: boolean;
      servers: Array<{ name: string; state: string; pid: number | null; restarts: number; tools: number; lastError: string | null }>;
      sessions: { total: number; byTransport: Record<string, number>; byProfile: Record<string, number> };
      totals: { requests: number; errors: number; inflight: number };
    };
    expect(status.ready).toBe(true);
    expect(status.servers.map((s) => [s.name, s.state])).toEqual([['fx', 'ready'], ['two', 'ready']]);
    const fx = status.servers[0];
    expect(fx?.restarts).toBe(1);
    expect(fx?.pid).toBeGreaterThan(0);
    expect(fx?.lastError).toBeNull();
    // Sessions of the earlier tests that closed without DELETE stay until they idle out.
    expect(status.sessions.total).toBeGreaterThanOrEqual(1);
    expect(status.sessions.byTransport['streamable-http']).toBe(status.sessions.total);
    expect(status.totals.requests).toBeGreaterThan(10);
    expect(status.totals.errors).toBeGreaterThanOrEqual(3); // unknown tool, timeout, crash
    expect(status.totals.inflight).toBe(0);
  });

  it('answers only GET and HEAD, and refuses a foreign Origin', async () => {
    expect((await fetch(`${proxy.url}/metrics`, { method: 'POST', body: '' })).status).toBe(405);
    expect((await fetch(`${proxy.url}/metrics`, { method: 'HEAD' })).status).toBe(200);
    expect((await fetch(`${proxy.url}/status.json`, { headers: { origin: 'https://evil.example' } })).status).toBe(403);
    expect((await fetch(`${proxy.url}/metrics`, { headers: { origin: 'https://evil.example' } })).status).toBe(403);
  });
});

describe('/metrics and /status.json with auth on', () => {
  const TOKEN = `ops-${randomBytes(18).toString('base64url')}`;
  let proxy: RunningSwitchboard;

  beforeAll(async () => {
    proxy = await startProxy(
      { mcpServers: { fx: fixture('fx') }, auth: { tokens: [{ name: 'ops', tokenEnv: 'SB_TEST_OPS_TOKEN' }] } },
      { env: { ...process.env, SB_TEST_OPS_TOKEN: TOKEN } },
    );
  });
  afterAll(async () => {
    await proxy?.close();
  });

  it('answers 401 without a valid bearer token, 200 with one', async () => {
    for (const path of ['/metrics', '/status.json']) {
      const bare = await fetch(`${proxy.url}${path}`);
      expect(bare.status).toBe(401);
      expect(bare.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect((await fetch(`${proxy.url}${path}`, { headers: { authorization: 'Bearer not-the-token-at-all' } })).status).toBe(401);
      expect((await fetch(`${proxy.url}${path}`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
    }
    const samples = await scrape(proxy, { authorization: `Bearer ${TOKEN}` });
    expect(of(samples, 'switchboard_server_up{server="fx"}')).toBe(1);
  });

  it('serves the static page and the probes without a token', async () => {
    for (const path of ['/', '/ui']) {
      const page = await fetch(`${proxy.url}${path}`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(page.headers.get('content-security-policy')).toMatch(/script-src 'sha256-/);
      expect(await page.text()).toContain('status.json');
    }
    expect((await fetch(`${proxy.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${proxy.url}/readyz`)).status).toBe(200);
  });
});

interface ServerRow {
  name: string;
  state: string;
  restarts: number;
  lastError: string | null;
  stderr: string[];
}

describe('/status.json and /readyz say why', () => {
  it('list a skipped config entry with its reason, not counted against readiness nor in the gauges', async () => {
    const proxy = await startProxy({ mcpServers: { fx: fixture('fx'), remote: { url: 'tools.example/mcp' } } });
    try {
      const ready = await fetch(`${proxy.url}/readyz`);
      expect(ready.status).toBe(200);
      const detail = (await ready.json()) as { ready: boolean; servers: Record<string, { state: string; lastError?: string }> };
      expect(detail.ready).toBe(true);
      expect(detail.servers.remote).toMatchObject({ state: 'skipped', lastError: expect.stringContaining('expected an absolute http or https URL') });
      const status = (await (await fetch(`${proxy.url}/status.json`)).json()) as { ready: boolean; servers: ServerRow[] };
      expect(status.ready).toBe(true);
      expect(status.servers.map((s) => [s.name, s.state])).toEqual([['fx', 'ready'], ['remote', 'skipped']]);
      expect(status.servers[1]).toMatchObject({ pid: null, stderr: [], lastError: expect.stringContaining('$.mcpServers.remote') });
      const exposition = await (await fetch(`${proxy.url}/metrics`)).text();
      expect(exposition).toContain('switchboard_server_up{server="fx"} 1');
      expect(exposition).not.toContain('server="remote"');
    } finally {
      await proxy.close();
    }
  });

  it('show a refused config reload as one line until a reload succeeds', async () => {
    const proxy = await startProxy({ mcpServers: { fx: fixture('fx') } });
    const reloadError = async () => ((await (await fetch(`${proxy.url}/status.json`)).json()) as { reloadError: { time: string; message: string } | null }).reloadError;
    try {
      expect(await reloadError()).toBeNull();
      const before = Date.now();
      proxy.reloadRefused(`/etc/switchboard.json: $.mcpServers.x.command: is empty\n    at loadConfig (load.ts:1:1)\n${'y'.repeat(5000)}`);
      const shown = await reloadError();
      expect(shown?.message).toBe('/etc/switchboard.json: $.mcpServers.x.command: is empty');
      expect(Date.parse(shown?.time ?? '')).toBeGreaterThanOrEqual(before - 1000);
      proxy.reloadRefused('z'.repeat(5000));
      expect((await reloadError())?.message).toBe(`${'z'.repeat(1000)}…`);
      proxy.reload(proxy.core.config);
      expect(await reloadError()).toBeNull();
    } finally {
      await proxy.close();
    }
  });

  it("show a failing server's own last stderr lines, also while its next attempt starts with npm's noise", async () => {
    // Each attempt: an npm warning at once, the server's last words 1.5 s later, exit 1; retried after 100 ms.
    const bad = { command: process.execPath, args: [FAILING], env: { FAIL_DELAY_MS: '1500' }, restart: { initialDelayMs: 100, maxDelayMs: 100 } };
    const proxy = await startProxy({ mcpServers: { fx: fixture('fx'), bad } }, { waitReady: false });
    try {
      const seen: ServerRow[] = [];
      await waitFor(
        async () => {
          const status = (await (await fetch(`${proxy.url}/status.json`)).json()) as { servers: ServerRow[] };
          const row = status.servers.find((s) => s.name === 'bad');
          if (row !== undefined) seen.push(row);
          return row !== undefined && row.restarts >= 2;
        },
        30_000,
        'two failed attempts of bad',
      );
      const afterFailure = seen.filter((row) => row.lastError !== null);
      // The window that matters was seen: the next attempt running, having said only npm's warning so far.
      expect(afterFailure.some((row) => row.state === 'starting')).toBe(true);
      for (const row of afterFailure) {
        expect(row.lastError).toBe('exited with code 1');
        expect(row.stderr).toEqual(['npm warn exec The following package was not found and will be installed: failing-server@1.0.0', 'Error: API_KEY is not set']);
      }
      const ready = await fetch(`${proxy.url}/readyz`);
      expect(ready.status).toBe(503);
      const detail = (await ready.json()) as { servers: Record<string, { state: string; stderr?: string[] }> };
      expect(detail.servers.bad?.stderr?.at(-1)).toBe('Error: API_KEY is not set');
      expect(detail.servers.fx?.stderr).toBeUndefined();
    } finally {
      await proxy.close();
    }
  });
});
