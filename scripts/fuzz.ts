// Fuzzer: hostile clients, and a child that spews garbage, against a live proxy, while a control
// group of well-behaved sessions checks that each of its calls still gets its own correct answer.
//
//   npm run build && npm run fuzz -- --short        (CI: about 30 s in all)
//   npm run fuzz -- --seconds 120 [--seed N]        (by hand; default 300 s)
//
// Options: --short (25 s of attacks) | --seconds N | --iterations N (attacks in all, then stop) |
// --seed N (replays each worker's sequence of generated attacks; timing still varies) |
// --workers N (attackers, default 6) | --exclude P,... (skip, by prefix, attack kinds as named in
// the report, garbage junk kinds `garbage.junk.<kind>`, garbage tools `garbage.tool.<name>`, deep
// client payloads `payload.deep`, deep answers to server requests `reply.deep`; after a finding,
// e.g. `--exclude garbage.junk.deep,garbage.tool.deep` looks for the next one) | --keep (keep the
// config and proxy log) | --verbose (list every violation in the report, not only the first of
// each type and kind).
//
// Worker 0 starts with the slow-reader attack (sse.stuck_reader), which needs 20 s of run left.
//
// The proxy runs as its own process (dist/cli/main.js) with two children: test/fixtures/
// fixture-server.mjs as `fx`, and test/fixtures/garbage-server.mjs as `garbage`, which answers
// correctly but writes junk to stdout between and around its answers.
//
// Invariants, checked all along; any violation makes the exit status 1:
// - the proxy process never exits; /healthz answers 200 within 5 s, polled every 250 ms;
// - every control call (Streamable HTTP, batched Streamable HTTP, per-server Streamable HTTP,
//   legacy SSE, WebSocket; all calling fx's echo) gets exactly one answer, its own, correct,
//   within 10 s; no control session sees an answer it did not ask for;
// - no attacker request goes unanswered for 10 s (streams it opens itself excepted: it closes
//   them); never a 5xx; never a stack trace in a body; a 4xx from a JSON-RPC endpoint carries a
//   JSON-RPC error; malformed JSON-RPC gets the code SPEC.md names (-32700, -32600, -32601,
//   -32602); never "Internal error" (-32603, an exception inside the proxy); no answer carries an
//   id its request did not have; nothing is answered twice; foreign Origin and Host get 403;
// - afterwards: a fresh session still gets correct answers from both children; fx never
//   restarted; the proxy stops cleanly on SIGTERM and leaves no process behind.
//
// The code is in scripts/fuzz/: options.ts (settings and flags), context.ts (the run's shared
// state), proxy.ts (the proxy process), judge.ts (what an answer must look like), worker.ts and
// messages.ts (attackers and their sessions), stream-book.ts and open-sse.ts (SSE and WebSocket
// sessions), attacks/ (one module per door), control.ts (the control group), health.ts, run.ts
// (the run from start to end) and report.ts; scripts/fuzz/lib/ holds the generic helpers, one
// concern a file: time.ts, rng.ts (the seeded PRNG), junk.ts (generators), answers.ts (what an
// answer must look like), http.ts (requests with a hard deadline), raw.ts (raw TCP and WebSocket
// frames) and stats.ts (counters and findings).
import fs from 'node:fs';
import path from 'node:path';
import { CLI, ROOT, optionsProblem, parseOptions } from './fuzz/options.js';
import { RunContext } from './fuzz/context.js';
import { runFuzz } from './fuzz/run.js';

const options = parseOptions();
if (!fs.existsSync(CLI)) {
  process.stderr.write(`fuzz: ${path.relative(ROOT, CLI)} not found; run \`npm run build\` first\n`);
  process.exit(2);
}
const problem = optionsProblem(options);
if (problem !== undefined) {
  process.stderr.write(`fuzz: ${problem}\n`);
  process.exit(2);
}

const ctx = new RunContext(options);

// Whatever ends the fuzzer, the proxy and its children go with it.
process.on('exit', () => ctx.proxy.killTree());
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    ctx.log(`${signal}: stopping (temp dir kept: ${ctx.temp})`);
    process.exit(130);
  });
}

runFuzz(ctx).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`fuzz: ${(error as Error).stack ?? String(error)}\n(config and proxy log kept in ${ctx.temp})\n`);
    process.exit(1);
  },
);
