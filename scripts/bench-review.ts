// Benchmark: what sanitization adds to start-up and to a list_changed, through the catalog's review
// (sanitizer + pins + index), on a 1,000-tool catalog of 10 servers.
//
//   node --import tsx scripts/bench-review.ts [--tools N] [--json]
//
// Phases, each timed (median of 5) with the event loop blocked for the whole pass:
//   start-up     every server listed once, nothing remembered (cold: first verdict of each tool)
//   relist-same  one server lists again, identical tools (what most list_changed are)
//   relist-one   one server lists again with one tool's description changed
//   new-names    a server adds a tool: the catalog's names change, so every verdict is recomputed
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { resolveConfig } from '../src/config/load.js';
import { CatalogReview } from '../src/catalog/review.js';
import { PinStore } from '../src/sanitize/index.js';
import { silentLogger } from '../src/log.js';
import type { ServerLists } from '../src/upstream/types.js';
import type { JsonObject } from '../src/jsonrpc/messages.js';

const arg = (name: string, dflt: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : dflt;
};
const TOOLS = arg('tools', 1000);
const SERVERS = 10;
const RUNS = 5;
const VERBS = ['read', 'write', 'list', 'search', 'create', 'delete', 'update', 'fetch'];
const NOUNS = ['file', 'issue', 'record', 'message', 'branch', 'ticket', 'note', 'event', 'page', 'table'];

function tool(server: number, i: number, extra = ''): JsonObject {
  const verb = VERBS[i % VERBS.length] as string;
  const noun = NOUNS[Math.floor(i / VERBS.length) % NOUNS.length] as string;
  return {
    name: `${verb}_${noun}_${server}_${i}`,
    description:
      `${verb[0]?.toUpperCase()}${verb.slice(1)}s a ${noun} in workspace ${i % 17}. Use it when the user asks to ${verb} a ${noun} ` +
      `by id or by query; results are paginated (50 per page) and sorted by last modification.${extra}\n\n` +
      '```json\n{"id": "abc", "limit": 20}\n```',
    inputSchema: {
      type: 'object',
      properties: {
        id: { type: 'string', description: `The ${noun} id, as returned by list_${noun}.` },
        query: { type: 'string', description: 'Free-text filter; ignored when id is given.' },
        limit: { type: 'integer', minimum: 1, maximum: 50, default: 20 },
      },
    },
  };
}

const perServer = Math.ceil(TOOLS / SERVERS);
const listsOf = (server: number, changed = -1, added = 0): ServerLists => ({
  tools: Array.from({ length: perServer + added }, (_, i) => tool(server, i, i === changed ? ' Now faster.' : '')),
  prompts: [],
  resources: [],
  resourceTemplates: [],
});

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-bench-review-'));
const servers = Object.fromEntries(Array.from({ length: SERVERS }, (_, s) => [`s${s}`, { command: process.execPath, args: [`server-${s}.mjs`], acceptUpdates: true }]));
const config = resolveConfig({ mcpServers: servers, sanitize: { pins: path.join(dir, 'pins.json') } }, { file: '<inline>', dir }, process.env);

async function phase(name: string, body: (review: CatalogReview, base: ServerLists[]) => ServerLists[]): Promise<{ phase: string; median_ms: number; min_ms: number; max_ms: number }> {
  const times: number[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    const review = new CatalogReview({ pins: await PinStore.open(path.join(dir, `pins-${name}-${run}.json`)), auditLog: undefined, blocking: true, separator: '__', log: silentLogger(), persistPins: false });
    const base = Array.from({ length: SERVERS }, (_, s) => listsOf(s));
    const inputs = (lists: ServerLists[]) => lists.map((l, s) => ({ config: config.servers[s]!, lists: l, instructions: undefined, listing: 1 }));
    // Warm the review to the phase's starting point, then time the phase's pass alone.
    if (name !== 'start-up') review.run(inputs(base));
    const next = body(review, base);
    const t0 = performance.now();
    review.run(inputs(next));
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const round = (x: number): number => Number(x.toFixed(1));
  return { phase: name, median_ms: round(times[Math.floor(RUNS / 2)] as number), min_ms: round(times[0] as number), max_ms: round(times[RUNS - 1] as number) };
}

// Run with --expose-gc for a heap figure that counts what is kept, not garbage not yet collected.
const gc = (globalThis as { gc?: () => void }).gc;
gc?.();
const heapBefore = process.memoryUsage().heapUsed;
const results = [
  await phase('start-up', (_r, base) => base),
  await phase('relist-same', (_r, base) => base.map((l, s) => (s === 0 ? listsOf(0) : l))),
  await phase('relist-one', (_r, base) => base.map((l, s) => (s === 0 ? listsOf(0, 3) : l))),
  await phase('new-names', (_r, base) => base.map((l, s) => (s === 0 ? listsOf(0, -1, 1) : l))),
];
gc?.();
const heapMb = (process.memoryUsage().heapUsed - heapBefore) / 1048576;
fs.rmSync(dir, { recursive: true, force: true });
if (process.argv.includes('--json')) process.stdout.write(`${JSON.stringify({ tools: perServer * SERVERS, servers: SERVERS, results }, null, 2)}\n`);
else {
  process.stdout.write(`catalog review of ${perServer * SERVERS} tools on ${SERVERS} servers (median of ${RUNS}; heap growth over all phases ${heapMb.toFixed(1)} MB)\n`);
  for (const r of results) process.stdout.write(`  ${r.phase.padEnd(12)} ${String(r.median_ms).padStart(8)} ms  (min ${r.min_ms}, max ${r.max_ms})\n`);
}
