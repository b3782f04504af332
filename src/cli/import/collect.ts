// Finding the servers: which files to read (every client's, the ones named by --from, or --file),
// and each file's entries carried into the switchboard's shape or set aside with a reason.
import path from 'node:path';
import { UsageError } from '../flags.js';
import { readSource } from './formats.js';
import { places, sourcesOf } from './locations.js';
import { CLIENT_NAMES, normalize } from './normalize.js';
import { secretFileName } from './secrets.js';
import { CLIENT_IDS, type CarriedServer, type ClientId, type FormatId, type FoundServer, type Source, type SourceProblem } from './types.js';

export interface Collected {
  /** Files that held servers (or an empty list), in the order read. */
  readonly read: { readonly source: Source; readonly count: number }[];
  readonly problems: SourceProblem[];
  readonly carried: CarriedServer[];
  readonly left: { readonly found: FoundServer; readonly reason: string }[];
}

export interface CollectOptions {
  readonly from: readonly string[];
  readonly files: readonly string[];
  readonly project: string;
  readonly env: NodeJS.ProcessEnv;
  /** `${file:...}` text for a value the client asks the user for, by its file name in the secrets folder. */
  readonly promptRef: (file: string) => string;
}

export function clientIds(from: readonly string[]): ClientId[] {
  return from.map((name) => {
    const id = CLIENT_IDS.find((c) => c === name.toLowerCase());
    if (id === undefined) throw new UsageError(`--from expects one of ${CLIENT_IDS.join(', ')}; got "${name}"`);
    return id;
  });
}

/** The format of a file given with --file: by --from when given, else by its name and content. */
function fileSource(file: string, client: ClientId | undefined): Source {
  const abs = path.resolve(file);
  const base = path.basename(abs);
  const guess = (): [ClientId, FormatId] => {
    if (base.endsWith('.toml')) return ['codex', 'codex'];
    if (base === '.claude.json') return ['claude-code', 'claude-code'];
    if (base === 'mcp_config.json') return ['windsurf', 'windsurf'];
    if (abs.includes(`${path.sep}.vscode${path.sep}`) || abs.includes(`${path.sep}Code${path.sep}User${path.sep}`)) return ['vscode', base === 'settings.json' ? 'vscode-settings' : 'vscode'];
    if (abs.includes(`${path.sep}zed${path.sep}`)) return ['zed', 'zed'];
    if (abs.includes(`${path.sep}.gemini${path.sep}`)) return ['gemini', 'gemini'];
    if (abs.includes(`${path.sep}.cursor${path.sep}`)) return ['cursor', 'mcpServers'];
    return ['claude-desktop', 'mcpServers'];
  };
  // A project-level file's folder is the one holding it, or its parent for .vscode/, .cursor/, .zed/, .gemini/.
  const parent = path.dirname(abs);
  const project = /^\.(vscode|cursor|zed|gemini)$/.test(path.basename(parent)) ? path.dirname(parent) : parent;
  if (client === undefined) {
    const [c, format] = guess();
    return { client: c, file: abs, format, ...(format === 'claude-code' ? {} : { project }) };
  }
  const formats: FormatId[] = sourcesOf(client, places({ HOME: '/' }, '/')).map((s) => s.format);
  const byName: FormatId | undefined = client === 'claude-code' && base === '.claude.json' ? 'claude-code' : client === 'vscode' && base === 'settings.json' ? 'vscode-settings' : undefined;
  const format = byName ?? (client === 'claude-code' ? 'mcpServers' : formats[0] ?? 'mcpServers');
  return { client, file: abs, format, ...(format === 'claude-code' ? {} : { project }) };
}

export function collect(options: CollectOptions): Collected {
  const chosen = clientIds(options.from);
  let sources: Source[];
  if (options.files.length > 0) {
    if (chosen.length > 1) throw new UsageError('--file reads one client\'s format: give at most one --from with it');
    sources = options.files.map((file) => fileSource(file, chosen[0]));
  } else {
    const p = places(options.env, options.project);
    if (p.home === '') throw new UsageError('HOME is not set: cannot find the clients\' configs (give --file)');
    sources = (chosen.length > 0 ? chosen : CLIENT_IDS).flatMap((client) => sourcesOf(client, p));
  }
  const out: Collected = { read: [], problems: [], carried: [], left: [] };
  const seen = new Set<string>();
  for (const source of sources) {
    if (seen.has(source.file)) continue;
    seen.add(source.file);
    const result = readSource(source);
    if (result === undefined) {
      if (options.files.length > 0) out.problems.push({ source, problem: 'no such file' });
      continue;
    }
    if (!Array.isArray(result)) {
      out.problems.push(result);
      continue;
    }
    out.read.push({ source, count: result.length });
    for (const found of result) {
      const made = normalize(found, (f, at) => options.promptRef(secretFileName([f.source.client, f.name, ...at])));
      if (made.ok) out.carried.push(made.server);
      else out.left.push({ found, reason: made.reason });
    }
  }
  return out;
}

/** `Cursor github` / `Claude Code github (project /src/app)`: where a server was found, for the report. */
export function origin(found: FoundServer): string {
  const project = found.source.client === 'claude-code' && found.source.format === 'claude-code' && found.source.project !== undefined ? ` (project ${found.source.project})` : '';
  return `${CLIENT_NAMES[found.source.client]} ${found.name}${project}`;
}
