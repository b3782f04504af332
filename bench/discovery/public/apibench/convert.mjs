// Gorilla APIBench (github.com/ShishirPatil/gorilla, data/, Apache-2.0) as a discovery-benchmark
// set: the model APIs of TorchHub, TensorFlow Hub and Hugging Face (data/api/*_api.jsonl), one
// server per hub, one tool per model an API call loads, and the instructions of the evaluation split
// (data/apibench/*_eval.json) labelled with the tool whose call the instruction was written for.
// See PROVENANCE.md.
//
//   node bench/discovery/public/apibench/convert.mjs [--repo PATH] [--out DIR]
import { gitShow, loader, mcpName, objectSchema, runIfMain, splitOf } from '../lib.mjs';

export const SET = 'apibench';
export const SOURCE = { repo: 'ShishirPatil/gorilla', commit: '6ea57973c7a6097fd7c5915698c54c17c5b1b6c8', license: 'Apache-2.0' };
const HUBS = [
  { server: 'torchhub', apis: 'data/api/torchhub_api.jsonl', evals: 'data/apibench/torchhub_eval.json' },
  { server: 'tensorflowhub', apis: 'data/api/tensorflowhub_api.jsonl', evals: 'data/apibench/tensorflow_eval.json' },
  { server: 'huggingface', apis: 'data/api/huggingface_api.jsonl', evals: 'data/apibench/huggingface_eval.json' },
];

const jsonLines = (text) =>
  text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line));

const norm = (call) => String(call).replace(/\s+/g, '');

/** The model an API call loads, as a tool name: torch.hub repo/model, a TF Hub handle, a Hugging Face model id. */
function nameOfCall(call) {
  const repo = /repo_or_dir\s*=\s*['"]([^'"]+)['"]/.exec(call)?.[1];
  const model = /model\s*=\s*['"]([^'"]+)['"]/.exec(call)?.[1];
  let name = repo !== undefined && model !== undefined ? `${repo}/${model}` : (model ?? /['"]([^'"]+)['"]/.exec(call)?.[1] ?? call);
  name = name.replace(/^https?:\/\/(www\.)?(tfhub\.dev|kaggle\.com\/models)\//, '');
  if (repo === undefined && model === undefined && !/['"]/.test(call)) name = call.split('(')[0];
  return mcpName(name);
}

function paramsOf(args) {
  let names = [];
  if (Array.isArray(args)) names = args.map((a) => (typeof a === 'string' ? a : a?.name)).filter((a) => typeof a === 'string');
  else if (args !== null && typeof args === 'object') names = Object.keys(args);
  return [...new Set(names.filter((n) => /^[A-Za-z_][\w.-]{0,63}$/.test(n)))].map((name) => ({ name }));
}

function describeApi(api) {
  const parts = [String(api.description ?? '').trim()];
  const facts = [api.domain && `Domain: ${api.domain}`, api.functionality && `Functionality: ${api.functionality}`].filter(Boolean);
  if (facts.length > 0) parts.push(`${facts.join('. ')}.`);
  return parts.filter((p) => p !== '').join(' ');
}

/** The instruction of an evaluation example: the text after "###Instruction:" up to "###Output". */
function instructionOf(code) {
  const m = /###\s*Instruction:\s*(.*?)(?:\n?###\s*Output|$)/s.exec(code);
  return (m?.[1] ?? '').replace(/\s+/g, ' ').trim();
}

export function convert(repo) {
  const { commit } = SOURCE;
  const servers = [];
  const queries = [];
  const dropped = { callNotInPool: 0, noInstruction: 0, duplicate: 0 };
  for (const hub of HUBS) {
    // One tool per model: the calls that load the same model (hub.load and hub.KerasLayer of one
    // handle, pipeline(model=X) and from_pretrained(X)) are one tool, described by its first listing.
    const toolOfCall = new Map();
    const tools = [];
    const names = new Set();
    for (const api of jsonLines(gitShow(repo, commit, hub.apis))) {
      const name = nameOfCall(api.api_call);
      toolOfCall.set(norm(api.api_call), name);
      if (names.has(name)) continue;
      names.add(name);
      tools.push({ name, description: describeApi(api), inputSchema: objectSchema(paramsOf(api.api_arguments)) });
    }
    servers.push({
      server: hub.server,
      package: `github:${SOURCE.repo}`,
      license: SOURCE.license,
      source: `https://github.com/${SOURCE.repo}/blob/${commit}/${hub.apis}`,
      method: 'bench/discovery/public/apibench/convert.mjs',
      tools,
    });
    const seen = new Set();
    jsonLines(gitShow(repo, commit, hub.evals)).forEach((example, index) => {
      const tool = toolOfCall.get(norm(example.api_data?.api_call ?? example.api_call));
      const query = instructionOf(example.code ?? '');
      if (tool === undefined) return void dropped.callNotInPool++;
      if (query === '') return void dropped.noInstruction++;
      if (seen.has(`${query}\n${tool}`)) return void dropped.duplicate++;
      seen.add(`${query}\n${tool}`);
      const id = `${hub.server}/${index}`;
      queries.push({ id, query, server: hub.server, tool, also: [], split: splitOf(SET, id) });
    });
  }
  return { servers, queries, dropped };
}

const ENV = 'GORILLA_REPO';
const FALLBACK = '/work/.mirror/ShishirPatil+gorilla/repo';
export const load = loader(ENV, FALLBACK, convert);
runIfMain(import.meta.url, { envName: ENV, fallback: FALLBACK, convert });
