// Shared helpers of the public-set converters (bench/discovery/public/<set>/convert.mjs).
// Each converter reads its source from a git copy of the public repository at a pinned commit
// (`git -C REPO show COMMIT:PATH`), so the output depends on nothing but that commit.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository to read: `--repo PATH`, else the environment variable, else the default path. A bare git directory or a clone. */
export function repoPath(envName, fallback) {
  const args = process.argv.slice(2);
  const flag = args.indexOf('--repo');
  const repo = flag >= 0 ? args[flag + 1] : process.env[envName] || fallback;
  if (!repo || !fs.existsSync(repo)) {
    throw new Error(`source repository not found at ${repo ?? '(none)'}: clone it and pass --repo PATH or set ${envName}`);
  }
  return repo;
}

export function gitShow(repo, commit, file) {
  return execFileSync('git', ['-C', repo, 'show', `${commit}:${file}`], { encoding: 'utf8', maxBuffer: 1 << 28 });
}

export function gitList(repo, commit, dir) {
  return execFileSync('git', ['-C', repo, 'ls-tree', '-r', '--name-only', commit, dir], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line !== '');
}

/** FNV-1a, 32 bits: a stable hash for splits and samples. */
export function fnv1a(text) {
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(text, 'utf8')) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/** One query in three is held out, chosen by a hash of the set and the query's id. */
export function splitOf(set, id) {
  return fnv1a(`${set}/${id}`) % 3 === 0 ? 'holdout' : 'tune';
}

/** A deterministic sample of `n` items: the `n` with the smallest hash of their key, in their original order. */
export function sample(items, n, keyOf) {
  if (items.length <= n) return items;
  const ranked = items.map((item, index) => ({ index, hash: fnv1a(keyOf(item)) }));
  ranked.sort((a, b) => a.hash - b.hash || a.index - b.index);
  const keep = new Set(ranked.slice(0, n).map((r) => r.index));
  return items.filter((_, index) => keep.has(index));
}

/** A tool or server name as MCP names go: letters, digits, `_`, `-` and `.`, at most 64 characters. */
export function mcpName(text) {
  const name = text
    .replace(/[^A-Za-z0-9_.-]+/g, '_')
    .replace(/^[_.-]+|[_.-]+$/g, '')
    .slice(0, 64);
  return name === '' ? 'tool' : name;
}

/** A JSON Schema object from a list of { name, type, description, required }. */
export function objectSchema(params) {
  const properties = {};
  const required = [];
  for (const param of params) {
    const schema = {};
    if (param.type) schema.type = jsonType(param.type);
    if (param.description) schema.description = param.description;
    properties[param.name] = schema;
    if (param.required) required.push(param.name);
  }
  return required.length > 0 ? { type: 'object', properties, required } : { type: 'object', properties };
}

function jsonType(type) {
  const t = String(type).toLowerCase();
  if (/^(int|integer|long)$/.test(t)) return 'integer';
  if (/^(float|double|number|decimal)$/.test(t)) return 'number';
  if (/^(bool|boolean)$/.test(t)) return 'boolean';
  if (/^(list|array)/.test(t)) return 'array';
  if (/^(dict|object|json)/.test(t)) return 'object';
  return 'string';
}

/** Writes `catalog/<server>.json` and `queries.jsonl` under `dir`, replacing what was there. */
export function writeSet(dir, { servers, queries }) {
  const catalogDir = path.join(dir, 'catalog');
  fs.rmSync(catalogDir, { recursive: true, force: true });
  fs.mkdirSync(catalogDir, { recursive: true });
  for (const server of servers) fs.writeFileSync(path.join(catalogDir, `${server.server}.json`), `${JSON.stringify(server, null, 1)}\n`);
  fs.writeFileSync(path.join(dir, 'queries.jsonl'), queries.map((q) => JSON.stringify(q)).join('\n') + '\n');
}

/** Counts for PROVENANCE.md and the converter's output line. */
export function describe({ servers, queries }) {
  const tools = servers.reduce((sum, s) => sum + s.tools.length, 0);
  const tune = queries.filter((q) => q.split === 'tune').length;
  const multi = queries.filter((q) => q.multi).length;
  return `${servers.length} servers, ${tools} tools; ${queries.length} queries (${tune} tune, ${queries.length - tune} holdout; ${multi} need several tools)`;
}

/** Checks every label names a tool of the catalog and every tool name is unique on its server. */
export function check({ servers, queries }) {
  const keys = new Set();
  for (const server of servers) {
    for (const tool of server.tools) {
      const key = `${server.server}__${tool.name}`;
      if (keys.has(key)) throw new Error(`duplicate tool ${key}`);
      keys.add(key);
    }
  }
  const ids = new Set();
  for (const q of queries) {
    if (ids.has(q.id)) throw new Error(`duplicate query id ${q.id}`);
    ids.add(q.id);
    for (const { server, tool } of [{ server: q.server, tool: q.tool }, ...q.also]) {
      if (!keys.has(`${server}__${tool}`)) throw new Error(`query ${q.id} labels ${server}__${tool}, not in the catalog`);
    }
  }
}

/** A converter's `load()`: the set converted from the repository found as `repoPath` finds it, in memory (the bench's way to read a set that is not committed). */
export function loader(envName, fallback, convert) {
  return () => {
    const repo = repoPath(envName, fallback);
    const set = convert(repo);
    check(set);
    return { ...set, repo };
  };
}

/** Runs a converter's `convert(repo)` and writes its files when the module is the entry point. */
export function runIfMain(metaUrl, { envName, fallback, convert }) {
  if (process.argv[1] === undefined || path.resolve(process.argv[1]) !== fileURLToPath(metaUrl)) return;
  const set = convert(repoPath(envName, fallback));
  check(set);
  const args = process.argv.slice(2);
  const out = args.includes('--out') ? args[args.indexOf('--out') + 1] : path.dirname(fileURLToPath(metaUrl));
  writeSet(out, set);
  process.stdout.write(`${out}: ${describe(set)}\n`);
}

/** RFC 4180 CSV: quoted fields with doubled quotes and line breaks. */
export function parseCsv(text) {
  const rows = [];
  let row = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}
