// Chaos test: many Streamable HTTP sessions call tools on three shared fixture servers through
// mcp-switchboard while a loop SIGKILLs a random child every couple of seconds. Every reply is
// checked (the id we sent, this session's own text, the server we addressed); at the end the proxy
// is stopped with SIGTERM and no child may be left behind.
//
//   npm run build && npm run chaos [-- --short] [-- --duration 120] [-- --json]
//   flags (or env): --duration S (CHAOS_DURATION, 300; --short: 30), --sessions N (CHAOS_SESSIONS, 50;
//   --short: 20), --reload-every MS (CHAOS_RELOAD_MS, 30000; --short: 10000; 0: never): rewrite the
//   config (server c redefined, so restarted; a spare server d added or removed) and SIGHUP the proxy;
//   --kill-every MS (CHAOS_KILL_MS, 2000), --timeout MS (CHAOS_TIMEOUT_MS, client-side
//   deadline per request, 30000; --short: 8000), --seed N (CHAOS_SEED), CHAOS_LOG_LEVEL (proxy log, warn)
//
// Exit status 1 when a request was never answered or misrouted, a process outlived the proxy, the
// proxy crashed or did not stop cleanly, or a server did not come back after the last kill.
//
// The killer picks any child /readyz names, starting ones included (a kill during initialize is a
// case worth having). Keep --kill-every well above the restart backoff cap (1 s here): much shorter
// intervals kill every new child during initialize, no server ever gets ready, and calls held for
// it wait up to the server's timeoutMs (60 s), past the client deadline: "never answered" by design.
//
// The code is in scripts/chaos/: options.ts (settings and flags), context.ts (the run's shared
// state), proxy.ts (the proxy process, its children, the stop and the leftover check), ids.ts
// (ids and texts that name their sender), sessions.ts, calls.ts (one call and its judgement),
// scenarios/ (the session storm, the kills, the config reloads), every.ts, tally.ts, judge.ts,
// report.ts and report-table.ts, and run.ts (the run from start to end); scripts/chaos-lib.ts
// holds the generic helpers and scripts/hostile-legs.ts the hostile-child leg.
import fs from 'node:fs';
import path from 'node:path';
import { CLI, ROOT, parseOptions } from './chaos/options.js';
import { RunContext } from './chaos/context.js';
import { runChaos } from './chaos/run.js';

const options = parseOptions();
if (!fs.existsSync(CLI)) {
  process.stderr.write(`chaos: ${path.relative(ROOT, CLI)} not found; run \`npm run build\` first\n`);
  process.exit(2);
}

const ctx = new RunContext(options);

// Nothing we started outlives this script, even on Ctrl-C or a crash.
process.on('exit', () => ctx.proxy.killTree());
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    ctx.log(`${signal}: stopping; proxy config and log kept in ${ctx.proxy.temp}`);
    process.exit(130);
  });
}

runChaos(ctx).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`chaos: ${(error as Error).stack ?? String(error)}\n(proxy config and log kept in ${ctx.proxy.temp})\n`);
    process.exit(1);
  },
);
