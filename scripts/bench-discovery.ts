// Retrieval benchmark for search-mode discovery: real tool definitions of public MCP servers
// (bench/discovery/catalog, provenance in bench/discovery/PROVENANCE.md) and requests in a user's
// words labelled with the tool that serves them (bench/discovery/queries.jsonl; a third held out,
// never tuned on). Reports recall@1/5/10 per split for a plain BM25 baseline and for each addition,
// then the multi-step requests (bench/discovery/multistep.jsonl: all-tools@5 and step recall@5),
// then the cost at scale: index build time and memory, p50/p99 search time at 5,000 tools.
//
// `--set NAME` runs the same variants on a public retrieval set instead (bench/discovery/public/NAME:
// its tools in the catalog format, its labelled queries with a tune/holdout split, provenance in its
// PROVENANCE.md), adding all-tools@5 where queries need several tools; `--set all` prints one table,
// plain BM25 beside the served ranking, over this set and every public one. Sets whose licence does not
// allow redistributing them are converted from a git copy of their source at bench time.
//
// `--ablate` adds to the variant table the served ranking with each addition taken out in turn: an
// addition earns its place only if taking it out costs recall on sets it was not tuned on.
//
//   npm run bench:discovery [-- --json] [-- --split tune|holdout] [-- --misses N] [-- --set NAME|all] [-- --ablate]
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import MiniSearch from 'minisearch';
import { DEFAULT_FEATURES, ToolIndex, type IndexFeatures, type IndexedServer, type IndexedTool } from '../src/search/tool-index.js';
import { metaTools } from '../src/search/meta-tools.js';
import { searchRequest } from '../src/search/merge.js';
import { loadMultistep, stepRecall, type StepRecall } from './bench-multistep.js';
import { estimateToolTokens } from '../src/catalog/token-estimate.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DATA = path.join(ROOT, 'bench/discovery');
const args = process.argv.slice(2);
const JSON_OUT = args.includes('--json');
const MISSES = Number(args[args.indexOf('--misses') + 1] ?? 0) || 0;
const ONLY_SPLIT = args.includes('--split') ? args[args.indexOf('--split') + 1] : undefined;
const ABLATE = args.includes('--ablate');
const SET = args.includes('--set') ? (args[args.indexOf('--set') + 1] ?? 'own') : 'own';
const PUBLIC = path.join(DATA, 'public');

interface CatalogFile {
  server: string;
  package: string;
  instructions?: string;
  tools: Array<{ name: string; title?: string; description?: string; inputSchema?: unknown }>;
}
interface Query {
  id: string;
  query: string;
  server: string;
  tool: string;
  also?: Array<{ server: string; tool: string }> | string[];
  /** Every labelled tool is needed (tool and also), not any one of them: counted by all-tools@5. */
  multi?: boolean;
  split: 'tune' | 'holdout';
}

const keyOf = (server: string, tool: string): string => `${server}__${tool}`;

function loadCatalog(dir = path.join(DATA, 'catalog')): { tools: IndexedTool[]; servers: Map<string, IndexedServer> } {
  const files = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((file) => JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as CatalogFile);
  return catalogOf(files);
}

function catalogOf(files: readonly CatalogFile[]): { tools: IndexedTool[]; servers: Map<string, IndexedServer> } {
  const tools: IndexedTool[] = [];
  const servers = new Map<string, IndexedServer>();
  for (const data of files) {
    servers.set(data.server, { name: data.server, alias: data.server, instructions: data.instructions });
    for (const tool of data.tools) {
      tools.push({ key: keyOf(data.server, tool.name), server: data.server, name: tool.name, title: tool.title, description: tool.description, inputSchema: tool.inputSchema, source: tool });
    }
  }
  return { tools, servers };
}

function loadQueries(file = path.join(DATA, 'queries.jsonl')): Query[] {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Query);
}

function accepted(query: Query): Set<string> {
  const keys = new Set([keyOf(query.server, query.tool)]);
  for (const also of query.also ?? []) keys.add(typeof also === 'string' ? (also.includes('__') ? also : keyOf(query.server, also)) : keyOf(also.server, also.tool));
  return keys;
}

type Searcher = (query: string, limit: number) => string[];

/** The baseline: MiniSearch's own BM25 and tokenizer over name, description and parameter names, one field each, no weights. */
function plainBm25(tools: readonly IndexedTool[]): Searcher {
  const search = new MiniSearch<{ id: number; name: string; description: string; params: string }>({ fields: ['name', 'description', 'params'] });
  search.addAll(
    tools.map((tool, id) => ({
      id,
      name: tool.name,
      description: tool.description ?? '',
      params: Object.keys((tool.inputSchema as { properties?: object } | undefined)?.properties ?? {}).join(' '),
    })),
  );
  return (query, limit) => search.search(query).slice(0, limit).map((r) => (tools[r.id as number] as IndexedTool).key);
}

function ours(tools: readonly IndexedTool[], servers: Map<string, IndexedServer>, features: IndexFeatures): Searcher {
  const index = ToolIndex.build(tools, servers, features);
  return (query, limit) => index.search(query, { limit }).map((hit) => hit.key);
}

/** What find_tools does with one `query`: split into clauses when it reads as several steps, each searched, merged (src/search/merge.ts). */
function served(index: ToolIndex): (query: string, limit: number | undefined) => string[] {
  const searcher = { search: (text: string, limit: number, context?: string) => index.search(text, { limit, context }), key: (hit: { key: string }) => hit.key };
  return (query, limit) => searchRequest({ query, limit }, searcher).map((hit) => hit.key);
}

interface Recall {
  n: number;
  r1: number;
  r5: number;
  r10: number;
}

/** Words of four letters or more, plural s dropped: enough to tell whether a request uses its tool's words. */
function contentWords(text: string): Set<string> {
  const spaced = text.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  return new Set((spaced.match(/[a-z]{4,}/g) ?? []).map((w) => w.replace(/s$/, '')));
}

/** Whether the request shares a word with a right tool's name, title or description. */
function sharesAWord(query: Query, byKey: ReadonlyMap<string, IndexedTool>): boolean {
  const asked = contentWords(query.query);
  return [...accepted(query)].some((key) => {
    const tool = byKey.get(key);
    const words = contentWords(`${tool?.name ?? ''} ${tool?.title ?? ''} ${tool?.description ?? ''}`);
    return [...asked].some((w) => words.has(w));
  });
}

function recall(searcher: Searcher, queries: readonly Query[], misses?: string[]): Recall {
  let r1 = 0;
  let r5 = 0;
  let r10 = 0;
  for (const query of queries) {
    const want = accepted(query);
    const got = searcher(query.query, 10);
    const rank = got.findIndex((key) => want.has(key));
    if (rank === 0) r1++;
    if (rank >= 0 && rank < 5) r5++;
    if (rank >= 0 && rank < 10) r10++;
    if ((rank < 0 || rank >= 5) && misses !== undefined) misses.push(`${query.id} [${query.split}] "${query.query}" -> want ${[...want].join('|')}, got ${got.slice(0, 5).join(', ')}`);
  }
  const n = queries.length;
  return { n, r1: r1 / n, r5: r5 / n, r10: r10 / n };
}

/** The catalog repeated under other server names until it holds `target` tools: the cost at scale. */
function scaled(tools: readonly IndexedTool[], servers: Map<string, IndexedServer>, target: number): { tools: IndexedTool[]; servers: Map<string, IndexedServer> } {
  const out: IndexedTool[] = [];
  const outServers = new Map<string, IndexedServer>();
  for (let copy = 0; out.length < target; copy++) {
    for (const [name, server] of servers) outServers.set(`${name}${copy}`, { ...server, name: `${name}${copy}`, alias: `${server.alias}${copy}` });
    for (const tool of tools) {
      if (out.length >= target) break;
      // A definition object of its own per copy: the first build reads every one (cold).
      out.push({ ...tool, key: `${tool.server}${copy}__${tool.name}`, server: `${tool.server}${copy}`, source: {} });
    }
  }
  return { tools: out, servers: outServers };
}

function percentile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
}

/** Each variant adds one thing to the one above it; the first is plain BM25, the last is what the daemon serves. */
function variantsOf(tools: readonly IndexedTool[], servers: Map<string, IndexedServer>): Array<[string, Searcher]> {
  const noSummary = { ...DEFAULT_FEATURES.fieldBoost, summary: 0 };
  const flat = { name: 1, title: 1, description: 1, summary: 0, params: 1, server: 1 };
  const none = { synonyms: false, serverBoost: 1, actionBoost: 1, nameCoverage: 0, fieldBoost: noSummary };
  return [
    ['plain BM25 (name, description, parameter names)', plainBm25(tools)],
    ['+ words split, stop words, stems, all fields', ours(tools, servers, { ...DEFAULT_FEATURES, ...none, fieldBoost: flat })],
    ['+ field weights', ours(tools, servers, { ...DEFAULT_FEATURES, ...none })],
    ['+ server named in the request', ours(tools, servers, { ...DEFAULT_FEATURES, ...none, serverBoost: DEFAULT_FEATURES.serverBoost })],
    ['+ action of the request', ours(tools, servers, { ...DEFAULT_FEATURES, ...none, serverBoost: DEFAULT_FEATURES.serverBoost, actionBoost: DEFAULT_FEATURES.actionBoost })],
    ['+ noun synonyms', ours(tools, servers, { ...DEFAULT_FEATURES, fieldBoost: noSummary, nameCoverage: 0 })],
    ['+ first sentence as a field', ours(tools, servers, { ...DEFAULT_FEATURES, nameCoverage: 0 })],
    ['+ name coverage (one query unsplit)', ours(tools, servers, DEFAULT_FEATURES)],
    ['+ long requests split into clauses (served)', served(ToolIndex.build(tools, servers))],
  ];
}

/** The served ranking with one addition taken out, for each (--ablate). */
function ablationsOf(tools: readonly IndexedTool[], servers: Map<string, IndexedServer>): Array<[string, Searcher]> {
  const without = (name: string, features: Partial<IndexFeatures>): [string, Searcher] => [`served without ${name}`, served(ToolIndex.build(tools, servers, { ...DEFAULT_FEATURES, ...features }))];
  const flat = { name: 1, title: 1, description: 1, summary: DEFAULT_FEATURES.fieldBoost.summary, params: 1, server: 1 };
  return [
    without('field weights', { fieldBoost: flat }),
    without('the server boost', { serverBoost: 1 }),
    without('the action boost', { actionBoost: 1 }),
    without('noun synonyms', { synonyms: false }),
    without('the first sentence', { fieldBoost: { ...DEFAULT_FEATURES.fieldBoost, summary: 0 } }),
    without('name coverage', { nameCoverage: 0 }),
  ];
}

function main(): void {
  const { tools, servers } = loadCatalog();
  const queries = loadQueries();
  const known = new Set(tools.map((t) => t.key));
  const unknown = queries.filter((q) => !known.has(keyOf(q.server, q.tool)));
  if (unknown.length > 0) throw new Error(`${unknown.length} queries label tools not in the catalog, e.g. ${unknown[0]?.id}`);
  const splits = { tune: queries.filter((q) => q.split === 'tune'), holdout: queries.filter((q) => q.split === 'holdout') };

  const variants = variantsOf(tools, servers);
  const servedSearch = served(ToolIndex.build(tools, servers));
  const rows = [...variants, ...(ABLATE ? ablationsOf(tools, servers) : [])].map(([name, searcher]) => ({ name, tune: recall(searcher, splits.tune), holdout: recall(searcher, splits.holdout) }));
  // By kind: a request that shares a word with its tool, and one that names its domain without any.
  const byKey = new Map(tools.map((t) => [t.key, t]));
  const kinds = (['shares a word', 'no word shared'] as const).map((kind) => {
    const of = (list: readonly Query[]) => list.filter((q) => sharesAWord(q, byKey) === (kind === 'shares a word'));
    const at5 = (searcher: Searcher, list: readonly Query[]) => (list.length === 0 ? 0 : recall(searcher, list).r5);
    const [bm25, servedRanking] = [variants[0]![1], variants[variants.length - 1]![1]];
    return { kind, tune: of(splits.tune).length, holdout: of(splits.holdout).length, bm25: [at5(bm25, of(splits.tune)), at5(bm25, of(splits.holdout))], served: [at5(servedRanking, of(splits.tune)), at5(servedRanking, of(splits.holdout))] };
  });
  // Multi-step requests: the whole request searched by plain BM25 and by the index, then split.
  const multi = loadMultistep(DATA, known);
  const multiSplits = { tune: multi.filter((q) => q.split === 'tune'), holdout: multi.filter((q) => q.split === 'holdout') };
  const multiVariants: Array<[string, (query: string) => string[], number]> = [
    ['plain BM25, whole request', (query) => variants[0]![1](query, 5), 5],
    ['served ranking, whole request (no splitting)', (query) => variants[variants.length - 2]![1](query, 5), 5],
    ['split into clauses, merged (served)', (query) => servedSearch(query, 5), 5],
    ["split, at find_tools' default limit (3 per clause)", (query) => servedSearch(query, undefined), 20],
  ];
  const multiRows = multiVariants.map(([name, rank, k]) => ({ name, k, tune: stepRecall(rank, multiSplits.tune, k), holdout: stepRecall(rank, multiSplits.holdout, k) }));
  const misses: string[] = [];
  // Misses are shown for the tune split only (unless asked otherwise): rules are examined there, never on the held-out part.
  const shownVariant = Number(process.env.BENCH_VARIANT ?? variants.length - 1);
  if (MISSES > 0) recall(variants[shownVariant]![1], ONLY_SPLIT === 'holdout' ? splits.holdout : splits.tune, misses);
  const multiMisses: string[] = [];
  if (MISSES > 0) stepRecall((query) => servedSearch(query, 5), ONLY_SPLIT === 'holdout' ? multiSplits.holdout : multiSplits.tune, 5, multiMisses);

  // Cost at 5,000 tools.
  const big = scaled(tools, servers, 5_000);
  global.gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  const builds: number[] = [];
  const cold0 = performance.now();
  let index = ToolIndex.build(big.tools, big.servers);
  const coldMs = performance.now() - cold0;
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    index = ToolIndex.build(big.tools, big.servers);
    builds.push(performance.now() - t0);
  }
  global.gc?.();
  const heapMb = (process.memoryUsage().heapUsed - heapBefore) / 1024 / 1024;
  // Timed as find_tools searches: a request that splits into clauses costs a search per clause and one whole.
  const bigSearch = served(index);
  const timed = (texts: readonly string[]): number[] => {
    const times: number[] = [];
    for (let round = 0; round < 5; round++) {
      for (const text of texts) {
        const t0 = performance.now();
        bigSearch(text, undefined);
        times.push(performance.now() - t0);
      }
    }
    return times.sort((a, b) => a - b);
  };
  const times = timed(queries.map((query) => query.query));
  const multiTimes = timed(multi.map((request) => request.query));
  builds.sort((a, b) => a - b);
  const cost = {
    tools: big.tools.length,
    firstBuildMs: Math.round(coldMs),
    buildMsMedian: Math.round(percentile(builds, 0.5)),
    indexHeapMb: Math.round(heapMb * 10) / 10,
    searchMsP50: Math.round(percentile(times, 0.5) * 1000) / 1000,
    searchMsP99: Math.round(percentile(times, 0.99) * 1000) / 1000,
    multiStepMsP50: Math.round(percentile(multiTimes, 0.5) * 1000) / 1000,
    multiStepMsP99: Math.round(percentile(multiTimes, 0.99) * 1000) / 1000,
  };
  // What a session's tool list costs in the model's context: every tool, or the two search tools.
  const fullTokens = tools.reduce((sum, tool) => sum + estimateToolTokens({ name: tool.key, description: tool.description, inputSchema: tool.inputSchema ?? {} }), 0);
  const byServer = new Map<string, string[]>();
  for (const tool of tools) byServer.set(tool.server, [...(byServer.get(tool.server) ?? []), tool.name]);
  const meta = metaTools([...byServer].map(([name, toolNames]) => ({ name, toolNames })), tools.length);
  const searchTokens = meta.reduce((sum, definition) => sum + estimateToolTokens(definition), 0);
  const summary = {
    listTokens: { full: fullTokens, search: searchTokens },
    catalog: { servers: servers.size, tools: tools.length },
    queries: { tune: splits.tune.length, holdout: splits.holdout.length },
    recall: rows,
    multiStep: { tune: multiSplits.tune.length, holdout: multiSplits.holdout.length, rows: multiRows },
    cost,
  };
  if (JSON_OUT) {
    process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
    return;
  }
  const pct = (x: number): string => `${(x * 100).toFixed(1)} %`;
  const avg = (a: StepRecall, b: StepRecall): string => ((a.returned * a.n + b.returned * b.n) / (a.n + b.n)).toFixed(1);
  const lines = [
    `catalog: ${tools.length} tools of ${servers.size} servers; queries: ${splits.tune.length} tune, ${splits.holdout.length} held out`,
    '',
    '| variant | tune R@1 | R@5 | R@10 | holdout R@1 | R@5 | R@10 |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...rows.map((r) => `| ${r.name} | ${pct(r.tune.r1)} | ${pct(r.tune.r5)} | ${pct(r.tune.r10)} | ${pct(r.holdout.r1)} | ${pct(r.holdout.r5)} | ${pct(r.holdout.r10)} |`),
    '',
    '| kind of request | tune / holdout | BM25 R@5 tune | holdout | served R@5 tune | holdout |',
    '|---|---:|---:|---:|---:|---:|',
    ...kinds.map((k) => `| ${k.kind} with its tool | ${k.tune} / ${k.holdout} | ${pct(k.bm25[0]!)} | ${pct(k.bm25[1]!)} | ${pct(k.served[0]!)} | ${pct(k.served[1]!)} |`),
    '',
    `multi-step requests: ${multiSplits.tune.length} tune (${multiRows[0]!.tune.steps} steps), ${multiSplits.holdout.length} held out (${multiRows[0]!.holdout.steps} steps)`,
    '',
    '| variant | tune all-tools@k | step recall@k | holdout all-tools@k | step recall@k | tools returned |',
    '|---|---:|---:|---:|---:|---:|',
    ...multiRows.map((r) => `| ${r.name}${r.k === 5 ? '' : ' (k = all returned)'} | ${pct(r.tune.all)} | ${pct(r.tune.recall)} | ${pct(r.holdout.all)} | ${pct(r.holdout.recall)} | ${avg(r.tune, r.holdout)} |`),
    '',
    `initial tool list: every tool ~${fullTokens.toLocaleString('en-US')} tokens; search mode ~${searchTokens.toLocaleString('en-US')} tokens (find_tools + call_tool)`,
    `at ${cost.tools} tools: first index build ${cost.firstBuildMs} ms, rebuild after a list change ${cost.buildMsMedian} ms (median of 5; unchanged definitions keep their terms), index heap ~${cost.indexHeapMb} MB, search p50 ${cost.searchMsP50} ms, p99 ${cost.searchMsP99} ms (single requests); multi-step requests p50 ${cost.multiStepMsP50} ms, p99 ${cost.multiStepMsP99} ms`,
  ];
  if (misses.length > 0) lines.push('', `misses (top 5) of the served variant:`, ...misses.slice(0, MISSES));
  if (multiMisses.length > 0) lines.push('', 'multi-step requests missing a step (top 5, served):', ...multiMisses.slice(0, MISSES));
  process.stdout.write(`${lines.join('\n')}\n`);
}

interface LoadedSet {
  name: string;
  tools: IndexedTool[];
  servers: Map<string, IndexedServer>;
  queries: Query[];
  /** Where the data came from: the committed files, or converted from a git copy of the source just now. */
  from: string;
}

/** The sets under bench/discovery/public, by directory name. */
function publicSets(): string[] {
  return fs
    .readdirSync(PUBLIC, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && fs.existsSync(path.join(PUBLIC, entry.name, 'convert.mjs')))
    .map((entry) => entry.name)
    .sort();
}

/**
 * A set's tools and queries: this benchmark's own (`own`), or a public set's committed files, or, for a
 * set whose licence does not allow redistributing it, its converter run now on a git copy of its source.
 */
async function loadSet(name: string): Promise<LoadedSet> {
  if (name === 'own') return { name, ...loadCatalog(), queries: loadQueries(), from: 'bench/discovery' };
  const dir = path.join(PUBLIC, name);
  if (!fs.existsSync(path.join(dir, 'convert.mjs'))) throw new Error(`no set ${name}: expected own, all or one of ${publicSets().join(', ')}`);
  if (fs.existsSync(path.join(dir, 'queries.jsonl'))) {
    return { name, ...loadCatalog(path.join(dir, 'catalog')), queries: loadQueries(path.join(dir, 'queries.jsonl')), from: `bench/discovery/public/${name}` };
  }
  const converter = (await import(pathToFileURL(path.join(dir, 'convert.mjs')).href)) as { load: () => { servers: CatalogFile[]; queries: Query[]; repo: string } };
  const converted = converter.load();
  return { name, ...catalogOf(converted.servers), queries: converted.queries, from: `converted from ${converted.repo}` };
}

function checkLabels(set: LoadedSet): void {
  const known = new Set(set.tools.map((t) => t.key));
  const unknown = set.queries.filter((q) => [...accepted(q)].some((key) => !known.has(key)));
  if (unknown.length > 0) throw new Error(`${set.name}: ${unknown.length} queries label tools not in the catalog, e.g. ${unknown[0]?.id}`);
}

/** Over the queries that need several tools: the share with every one of them in the top 5. */
function allTools(searcher: Searcher, queries: readonly Query[]): { n: number; all5: number } {
  const multi = queries.filter((q) => q.multi === true);
  let hits = 0;
  for (const query of multi) {
    const got = new Set(searcher(query.query, 5));
    if ([...accepted(query)].every((key) => got.has(key))) hits++;
  }
  return { n: multi.length, all5: multi.length === 0 ? NaN : hits / multi.length };
}

interface SetRow {
  name: string;
  tune: Recall & { all5: number };
  holdout: Recall & { all5: number };
}

function measure(set: LoadedSet, variants: Array<[string, Searcher]>): SetRow[] {
  const splits = { tune: set.queries.filter((q) => q.split === 'tune'), holdout: set.queries.filter((q) => q.split === 'holdout') };
  return variants.map(([name, searcher]) => ({
    name,
    tune: { ...recall(searcher, splits.tune), all5: allTools(searcher, splits.tune).all5 },
    holdout: { ...recall(searcher, splits.holdout), all5: allTools(searcher, splits.holdout).all5 },
  }));
}

const pct = (x: number): string => (Number.isNaN(x) ? '–' : `${(x * 100).toFixed(1)} %`);

function describeSet(set: LoadedSet): { servers: number; tools: number; tune: number; holdout: number; multi: number } {
  const tune = set.queries.filter((q) => q.split === 'tune').length;
  return { servers: set.servers.size, tools: set.tools.length, tune, holdout: set.queries.length - tune, multi: set.queries.filter((q) => q.multi === true).length };
}

/** `--set NAME`: every variant on one public set, recall per split and all-tools@5 where queries need several tools. */
async function runSet(name: string): Promise<void> {
  const set = await loadSet(name);
  checkLabels(set);
  const rows = measure(set, [...variantsOf(set.tools, set.servers), ...(ABLATE ? ablationsOf(set.tools, set.servers) : [])]);
  const info = describeSet(set);
  const misses: string[] = [];
  if (MISSES > 0) {
    const variants = variantsOf(set.tools, set.servers);
    const shown = variants[Number(process.env.BENCH_VARIANT ?? variants.length - 1)]![1];
    recall(shown, set.queries.filter((q) => q.split === (ONLY_SPLIT === 'holdout' ? 'holdout' : 'tune')), misses);
  }
  if (JSON_OUT) {
    process.stdout.write(`${JSON.stringify({ set: name, from: set.from, ...info, recall: rows }, null, 2)}\n`);
    return;
  }
  const multi = info.multi > 0;
  const lines = [
    `set ${name} (${set.from}): ${info.tools} tools of ${info.servers} servers; queries: ${info.tune} tune, ${info.holdout} held out${multi ? ` (${info.multi} need several tools)` : ''}`,
    '',
    `| variant | tune R@1 | R@5 | R@10 |${multi ? ' all@5 |' : ''} holdout R@1 | R@5 | R@10 |${multi ? ' all@5 |' : ''}`,
    `|---|---:|---:|---:|${multi ? '---:|' : ''}---:|---:|---:|${multi ? '---:|' : ''}`,
    ...rows.map(
      (r) =>
        `| ${r.name} | ${pct(r.tune.r1)} | ${pct(r.tune.r5)} | ${pct(r.tune.r10)} |${multi ? ` ${pct(r.tune.all5)} |` : ''} ${pct(r.holdout.r1)} | ${pct(r.holdout.r5)} | ${pct(r.holdout.r10)} |${multi ? ` ${pct(r.holdout.all5)} |` : ''}`,
    ),
  ];
  if (misses.length > 0) lines.push('', `misses (top 5) of the served variant:`, ...misses.slice(0, MISSES));
  process.stdout.write(`${lines.join('\n')}\n`);
}

/** `--set all`: plain BM25 beside the served ranking on this benchmark's own set and every public one. */
async function runAll(): Promise<void> {
  const results: Array<{ set: string; from: string; info: ReturnType<typeof describeSet>; rows: SetRow[]; top5: { bm25Only: number; servedOnly: number } }> = [];
  const skipped: string[] = [];
  for (const name of ['own', ...publicSets()]) {
    let set: LoadedSet;
    try {
      set = await loadSet(name);
    } catch (err) {
      skipped.push(`${name}: ${(err as Error).message}`);
      continue;
    }
    checkLabels(set);
    const variants = variantsOf(set.tools, set.servers);
    const pair: Array<[string, Searcher]> = [
      ['plain BM25', variants[0]![1]],
      ['served', variants[variants.length - 1]![1]],
    ];
    // Per request: the right tool in BM25's top 5 and not in the served ranking's, and the reverse.
    const top5 = { bm25Only: 0, servedOnly: 0 };
    for (const query of set.queries) {
      const want = accepted(query);
      const [bm25, served] = pair.map(([, searcher]) => searcher(query.query, 5).some((key) => want.has(key)));
      if (bm25 === true && served === false) top5.bm25Only++;
      if (bm25 === false && served === true) top5.servedOnly++;
    }
    results.push({ set: name, from: set.from, info: describeSet(set), rows: measure(set, pair), top5 });
  }
  if (JSON_OUT) {
    process.stdout.write(`${JSON.stringify({ sets: results, skipped }, null, 2)}\n`);
    return;
  }
  const lines = [
    '| set | tools | queries (tune / holdout) | ranking | tune R@1 | R@5 | R@10 | all@5 | holdout R@1 | R@5 | R@10 | all@5 |',
    '|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const { set, info, rows } of results) {
    for (const [i, r] of rows.entries()) {
      const head = i === 0 ? `| ${set} | ${info.tools} | ${info.tune} / ${info.holdout} |` : '| | | |';
      lines.push(`${head} ${r.name} | ${pct(r.tune.r1)} | ${pct(r.tune.r5)} | ${pct(r.tune.r10)} | ${pct(r.tune.all5)} | ${pct(r.holdout.r1)} | ${pct(r.holdout.r5)} | ${pct(r.holdout.r10)} | ${pct(r.holdout.all5)} |`);
    }
  }
  lines.push('', 'all@5: share of the queries that need several tools with every one of them in the top 5 (– where a set has none).');
  lines.push(`requests (both splits) with a right tool in BM25's top 5 and not in the served ranking's / the reverse: ${results.map(({ set, top5 }) => `${set} ${top5.bm25Only} / ${top5.servedOnly}`).join(', ')}`);
  for (const { set, from } of results) if (!from.startsWith('bench/')) lines.push(`${set}: ${from}`);
  for (const line of skipped) lines.push(`skipped ${line}`);
  process.stdout.write(`${lines.join('\n')}\n`);
}

if (SET === 'own') main();
else if (SET === 'all') await runAll();
else await runSet(SET);
