// ToolAlpaca (github.com/tangqiaoyu/ToolAlpaca, Apache-2.0) as a discovery-benchmark set: the
// functions of its 21 evaluation APIs (10 simulated, 11 real; data/eval_simulated.json and
// data/eval_real.json), one server per API with its one-line description as the server's
// instructions, and every evaluation instruction labelled with the functions of its golden action
// sequence. See PROVENANCE.md.
//
//   node bench/discovery/public/toolalpaca/convert.mjs [--repo PATH] [--out DIR]
import { gitShow, loader, mcpName, objectSchema, runIfMain, splitOf } from '../lib.mjs';

export const SET = 'toolalpaca';
export const SOURCE = { repo: 'tangqiaoyu/ToolAlpaca', commit: '189069998d64a7baf1b4a1c3c4b2e75eb9d05532', license: 'Apache-2.0' };
const FILES = [
  ['sim', 'data/eval_simulated.json'],
  ['real', 'data/eval_real.json'],
];

/** "Description\nParameters: {json}\nOutput: ..." into a description and a schema. */
function parseFunction(source) {
  const text = `\n${source}`; // one function has no description: its text starts with "Parameters:"
  const cut = text.indexOf('\nParameters:');
  if (cut < 0) return undefined;
  const description = text.slice(0, cut).trim();
  const rest = text.slice(cut + '\nParameters:'.length);
  const end = rest.indexOf('\nOutput:');
  const json = (end < 0 ? rest : rest.slice(0, end)).trim();
  let raw = {};
  try {
    raw = JSON.parse(json);
  } catch {
    raw = {};
  }
  const params = Object.entries(raw).map(([name, spec]) => {
    let s = String(spec).trim();
    const required = /^Required\./.test(s);
    if (required) s = s.replace(/^Required\.\s*/, '');
    const type = /^(\w+)\./.exec(s)?.[1];
    if (type !== undefined) s = s.slice(type.length + 1).trim();
    return { name, type, description: s, required };
  });
  return { description, inputSchema: objectSchema(params) };
}

export function convert(repo) {
  const { commit } = SOURCE;
  const servers = [];
  const queries = [];
  const dropped = { notAFunction: 0, noKnownAction: 0 };
  for (const [kind, file] of FILES) {
    for (const api of JSON.parse(gitShow(repo, commit, file))) {
      const server = mcpName(api.Name).toLowerCase();
      const tools = [];
      const nameOf = new Map();
      for (const [fn, text] of Object.entries(api.Function_Description)) {
        const parsed = parseFunction(text);
        if (parsed === undefined) {
          dropped.notAFunction++;
          continue;
        }
        nameOf.set(fn, mcpName(fn));
        tools.push({ name: mcpName(fn), ...parsed });
      }
      if (servers.some((s) => s.server === server)) throw new Error(`two APIs named ${server}`);
      servers.push({
        server,
        package: `github:${SOURCE.repo}`,
        license: SOURCE.license,
        source: `https://github.com/${SOURCE.repo}/blob/${commit}/${file}`,
        method: 'bench/discovery/public/toolalpaca/convert.mjs',
        instructions: String(api.Description ?? '').trim() || undefined,
        tools,
      });
      api.Instructions.forEach((instruction, index) => {
        const actions = (api.Golden_Answers[index] ?? []).map((step) => nameOf.get(step.Action)).filter((name) => name !== undefined);
        const distinct = [...new Set(actions)];
        if (distinct.length === 0) {
          dropped.noKnownAction++;
          return;
        }
        const id = `${kind}/${server}/${index}`;
        const [first, ...rest] = distinct;
        queries.push({
          id,
          query: String(instruction).trim(),
          server,
          tool: first,
          also: rest.map((tool) => ({ server, tool })),
          ...(rest.length > 0 ? { multi: true } : {}),
          split: splitOf(SET, id),
        });
      });
    }
  }
  return { servers, queries, dropped };
}

const ENV = 'TOOLALPACA_REPO';
const FALLBACK = '/work/.mirror/tangqiaoyu+ToolAlpaca/repo';
export const load = loader(ENV, FALLBACK, convert);
runIfMain(import.meta.url, { envName: ENV, fallback: FALLBACK, convert });
