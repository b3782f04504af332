// API-Bank (github.com/AlibabaResearch/DAMO-ConvAI, folder api-bank, Apache-2.0) as a
// discovery-benchmark set: the 100 APIs of data/all_apis.csv (name, description, parameters) and
// one request per level-1/level-2 dialogue of lv1-lv2-samples: the user's first turn, labelled with
// the first API the dialogue calls (ToolSearcher, and GetUserToken when another API follows, are
// steps, not the request). See PROVENANCE.md.
//
//   node bench/discovery/public/apibank/convert.mjs [--repo PATH] [--out DIR]
import { gitList, gitShow, loader, objectSchema, parseCsv, runIfMain, splitOf } from '../lib.mjs';

export const SET = 'apibank';
export const SOURCE = { repo: 'AlibabaResearch/DAMO-ConvAI', commit: '483554eae102996f5ec1f4feab4e78ef29c2a394', license: 'Apache-2.0 (api-bank/LICENSE)' };
const SERVER = 'apibank';
const STEPS = new Set(['ToolSearcher', 'GetUserToken']);

/** `description = "..."` and the `input_parameters = {...}` entries of an API's Python class text. */
function parseApiInfo(info) {
  const description = /description\s*=\s*(["'])((?:\\.|(?!\1).)*)\1/s.exec(info)?.[2]?.replace(/\\(["'])/g, '$1') ?? '';
  const inputs = /input_parameters\s*=\s*\{(.*?)\n\s*\}/s.exec(info.split(/output_parameters/)[0] ?? '')?.[1] ?? '';
  const params = [];
  const entry = /['"](\w+)['"]\s*:\s*\{\s*['"]type['"]\s*:\s*['"]([^'"]*)['"]\s*,\s*['"]description['"]\s*:\s*(["'])((?:\\.|(?!\3).)*)\3/gs;
  for (const m of inputs.matchAll(entry)) params.push({ name: m[1], type: m[2], description: m[4].replace(/\\(["'])/g, '$1'), required: true });
  return { description: description.trim(), params };
}

export function convert(repo) {
  const { commit } = SOURCE;
  const [header, ...rows] = parseCsv(gitShow(repo, commit, 'api-bank/data/all_apis.csv'));
  const col = (name) => header.indexOf(name);
  const [cls, info, file] = [col('类名'), col('api_info'), col('路径')];
  if (cls < 0 || info < 0 || file < 0) throw new Error(`unexpected CSV header ${header}`);
  const tools = [];
  const fromSource = [];
  for (const row of rows) {
    if (!row[cls]) continue;
    let { description, params } = parseApiInfo(row[info]);
    if (description === '') {
      // The CSV row has no class text (one API): read the class from its source file.
      ({ description, params } = parseApiInfo(gitShow(repo, commit, `api-bank/${row[file].trim()}`)));
      fromSource.push(row[cls].trim());
    }
    if (description === '') throw new Error(`no description for ${row[cls]}`);
    tools.push({ name: row[cls].trim(), description, inputSchema: objectSchema(params) });
  }
  const names = new Set(tools.map((t) => t.name));
  const servers = [
    {
      server: SERVER,
      package: `github:${SOURCE.repo}/api-bank`,
      license: 'Apache-2.0',
      source: `https://github.com/${SOURCE.repo}/blob/${commit}/api-bank/data/all_apis.csv`,
      method: 'bench/discovery/public/apibank/convert.mjs',
      tools,
    },
  ];

  const queries = [];
  const dropped = { noRequest: 0, unknownApi: 0, duplicate: 0 };
  const seen = new Set();
  for (const file of gitList(repo, commit, 'api-bank/lv1-lv2-samples').filter((f) => f.endsWith('.jsonl')).sort()) {
    const turns = gitShow(repo, commit, file)
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line));
    const request = turns.find((t) => t.role === 'User')?.text?.trim();
    const calls = turns.filter((t) => t.role === 'API').map((t) => t.api_name);
    const api = calls.find((name) => !STEPS.has(name)) ?? calls.find((name) => name !== 'ToolSearcher');
    if (!request || api === undefined) {
      dropped.noRequest++;
      continue;
    }
    if (!names.has(api)) {
      dropped.unknownApi++;
      continue;
    }
    if (seen.has(`${request}\n${api}`)) {
      dropped.duplicate++;
      continue;
    }
    seen.add(`${request}\n${api}`);
    const [level, name] = file.split('/').slice(-2);
    const id = `${level.startsWith('level-1') ? 'l1' : 'l2'}/${name.replace(/\.jsonl$/, '')}`;
    queries.push({ id, query: request, server: SERVER, tool: api, also: [], split: splitOf(SET, id) });
  }
  return { servers, queries, dropped, fromSource };
}

const ENV = 'APIBANK_REPO';
const FALLBACK = '/work/.mirror/AlibabaResearch+DAMO-ConvAI/repo';
export const load = loader(ENV, FALLBACK, convert);
runIfMain(import.meta.url, { envName: ENV, fallback: FALLBACK, convert });
