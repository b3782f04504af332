// MetaTool (github.com/HowieHwong/MetaTool, MIT) as a discovery-benchmark set: its 199 tools
// (ChatGPT plugins, some merged into one tool by the authors) with their descriptions, a
// deterministic sample of 1,500 of its ~20,600 single-tool queries and all 497 of its two-tool
// queries. See PROVENANCE.md.
//
//   node bench/discovery/public/metatool/convert.mjs [--repo PATH] [--out DIR]
import { gitShow, loader, mcpName, parseCsv, runIfMain, sample, splitOf } from '../lib.mjs';

export const SET = 'metatool';
export const SOURCE = { repo: 'HowieHwong/MetaTool', commit: '35e81bb7576826e980c80fed8f8c0a2b4a1e6fbb', license: 'MIT' };
const SINGLE_SAMPLE = 1500;
const SERVER = 'metatool';

export function convert(repo) {
  const { commit } = SOURCE;
  const descriptions = JSON.parse(gitShow(repo, commit, 'dataset/plugin_des.json'));
  const nameOf = new Map(Object.keys(descriptions).map((tool) => [tool, mcpName(tool)]));
  const tools = Object.entries(descriptions).map(([tool, description]) => ({
    name: nameOf.get(tool),
    description: description.trim(),
    inputSchema: { type: 'object', properties: {} },
  }));
  const servers = [
    {
      server: SERVER,
      package: `github:${SOURCE.repo}`,
      license: SOURCE.license,
      source: `https://github.com/${SOURCE.repo}/blob/${commit}/dataset/plugin_des.json`,
      method: 'bench/discovery/public/metatool/convert.mjs',
      tools,
    },
  ];

  // Single-tool queries: one row per (query, tool); a query text labelled with two different tools is dropped.
  const [header, ...rows] = parseCsv(gitShow(repo, commit, 'dataset/data/all_clean_data.csv'));
  if (header?.[0] !== 'Query' || header[1] !== 'Tool') throw new Error(`unexpected CSV header ${header}`);
  const byText = new Map();
  rows.forEach((row, index) => {
    const [query, tool] = row;
    if (!query?.trim() || !tool) return;
    const text = query.trim();
    const seen = byText.get(text);
    if (seen === undefined) byText.set(text, { index, tool, conflict: false });
    else if (seen.tool !== tool) seen.conflict = true;
  });
  const singles = [...byText].filter(([, v]) => !v.conflict).map(([text, v]) => ({ text, ...v }));
  const queries = [];
  for (const q of sample(singles, SINGLE_SAMPLE, (q) => q.text)) {
    const tool = nameOf.get(q.tool);
    if (tool === undefined) throw new Error(`unknown tool ${q.tool}`);
    const id = `s${q.index + 2}`; // the CSV line number
    queries.push({ id, query: q.text, server: SERVER, tool, also: [], split: splitOf(SET, id) });
  }
  // Two-tool queries: both tools are needed.
  const multi = JSON.parse(gitShow(repo, commit, 'dataset/data/multi_tool_query_golden.json'));
  multi.forEach((q, index) => {
    const [first, ...rest] = q.tool.map((tool) => nameOf.get(tool));
    if (first === undefined || rest.some((t) => t === undefined)) throw new Error(`unknown tool in multi-tool query ${index}`);
    const id = `m${index}`;
    queries.push({ id, query: q.query.trim().replace(/^"(.*)"$/s, '$1'), server: SERVER, tool: first, also: rest.map((tool) => ({ server: SERVER, tool })), multi: true, split: splitOf(SET, id) });
  });
  return { servers, queries, dropped: { conflicting: [...byText.values()].filter((v) => v.conflict).length, singles: singles.length } };
}

const ENV = 'METATOOL_REPO';
const FALLBACK = '/work/.mirror/HowieHwong+MetaTool/repo';
export const load = loader(ENV, FALLBACK, convert);
runIfMain(import.meta.url, { envName: ENV, fallback: FALLBACK, convert });
