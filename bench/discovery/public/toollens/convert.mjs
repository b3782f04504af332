// ToolLens (github.com/quchangle1/COLT, datasets/ToolLens) as a discovery-benchmark set: its 464
// RapidAPI endpoints (corpus.jsonl), one server per RapidAPI tool, and the 1,877 queries of its
// test split (qrels/test.tsv), each needing one to three endpoints (all of them: all-tools@5).
//
// The repository carries no licence, so nothing of it is committed here: the benchmark runs this
// converter on a git copy of the repository every time (`--set toollens`), and running it by hand
// writes the files to --out only (no default). See PROVENANCE.md.
//
//   git clone https://github.com/quchangle1/COLT && TOOLLENS_REPO=COLT npm run bench:discovery -- --set toollens
//   node bench/discovery/public/toollens/convert.mjs --repo COLT --out /tmp/toollens
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { check, describe, gitShow, loader, mcpName, objectSchema, repoPath, splitOf, writeSet } from '../lib.mjs';

export const SET = 'toollens';
export const SOURCE = { repo: 'quchangle1/COLT', commit: 'bbec292c38cabe3fbae098f50cc31b2e9f7e8fca', license: 'none stated (not redistributed)' };
const DIR = 'datasets/ToolLens';

/** "category_name:C, tool_name:T, api_name:A, api_description:D, required_params: [...], optional_params: [...], return_schema: {...}" */
function parseEndpoint(text) {
  const grab = (from, to) => {
    const start = text.indexOf(from);
    const end = to === undefined ? text.length : text.indexOf(to, start + from.length);
    if (start < 0 || end < 0) throw new Error(`cannot parse corpus entry: ${text.slice(0, 120)}`);
    return text.slice(start + from.length, end);
  };
  const params = (json, required) => {
    try {
      return JSON.parse(json).map((p) => ({ name: p.name, type: p.type, description: p.description, required }));
    } catch {
      return [];
    }
  };
  return {
    category: grab('category_name:', ', tool_name:').trim(),
    tool: grab(', tool_name:', ', api_name:').trim(),
    api: grab(', api_name:', ', api_description:').trim(),
    description: grab(', api_description:', ', required_params: ').trim(),
    params: [...params(grab(', required_params: ', ', optional_params: '), true), ...params(grab(', optional_params: ', ', return_schema: '), false)],
  };
}

export function convert(repo) {
  const { commit } = SOURCE;
  const byServer = new Map();
  const keyOfDoc = new Map();
  for (const line of gitShow(repo, commit, `${DIR}/corpus.jsonl`).split('\n')) {
    if (line.trim() === '') continue;
    const doc = JSON.parse(line);
    const e = parseEndpoint(doc.text);
    const server = mcpName(e.tool).toLowerCase();
    if (!byServer.has(server)) {
      byServer.set(server, {
        server,
        package: `github:${SOURCE.repo}`,
        license: SOURCE.license,
        source: `https://github.com/${SOURCE.repo}/blob/${commit}/${DIR}/corpus.jsonl`,
        method: 'bench/discovery/public/toollens/convert.mjs',
        tools: [],
      });
    }
    const tools = byServer.get(server).tools;
    let name = mcpName(e.api);
    for (let n = 2; tools.some((t) => t.name === name); n++) name = mcpName(`${mcpName(e.api).slice(0, 60)}_${n}`);
    tools.push({ name, description: e.description, inputSchema: objectSchema(e.params.filter((p) => typeof p.name === 'string' && p.name !== '')) });
    keyOfDoc.set(String(doc._id), { server, tool: name });
  }
  const text = new Map();
  for (const line of gitShow(repo, commit, `${DIR}/queries.jsonl`).split('\n')) {
    if (line.trim() === '') continue;
    const q = JSON.parse(line);
    text.set(String(q._id), String(q.text).trim());
  }
  const labels = new Map();
  for (const line of gitShow(repo, commit, `${DIR}/qrels/test.tsv`).split('\n').slice(1)) {
    const [qid, docId, score] = line.trim().split('\t');
    if (!qid || Number(score) <= 0) continue;
    const key = keyOfDoc.get(docId);
    if (key === undefined) throw new Error(`qrels name document ${docId}, not in the corpus`);
    labels.set(qid, [...(labels.get(qid) ?? []), key]);
  }
  const queries = [];
  for (const [qid, keys] of labels) {
    const query = text.get(qid);
    if (query === undefined) throw new Error(`no text for query ${qid}`);
    const [first, ...rest] = keys;
    const id = `test/${qid}`;
    queries.push({ id, query, server: first.server, tool: first.tool, also: rest, ...(rest.length > 0 ? { multi: true } : {}), split: splitOf(SET, id) });
  }
  return { servers: [...byServer.values()], queries };
}

const ENV = 'TOOLLENS_REPO';
const FALLBACK = '/work/.mirror/quchangle1+COLT/repo';
export const load = loader(ENV, FALLBACK, convert);

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  if (!args.includes('--out')) throw new Error('ToolLens carries no licence: give --out DIR outside the repository (nothing of it is committed)');
  const set = convert(repoPath(ENV, FALLBACK));
  check(set);
  const out = args[args.indexOf('--out') + 1];
  writeSet(out, set);
  process.stdout.write(`${out}: ${describe(set)}\n`);
}
