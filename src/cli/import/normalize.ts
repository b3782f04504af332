// One client's server entry → the switchboard's shape: fields with a meaning here are carried,
// client variables translated (`${env:X}` → `${X}`), and what cannot be carried is named with why.
import type { CarriedServer, ClientId, FoundServer } from './types.js';

export const CLIENT_NAMES: Readonly<Record<ClientId, string>> = {
  'claude-desktop': 'Claude Desktop',
  'claude-code': 'Claude Code',
  cursor: 'Cursor',
  vscode: 'VS Code',
  windsurf: 'Windsurf',
  codex: 'Codex',
  zed: 'Zed',
  gemini: 'Gemini CLI',
};

/** Fields the switchboard reads as the clients do. */
const CARRIED = new Set(['command', 'args', 'env', 'cwd', 'url', 'headers', 'transport', 'disabled', 'timeoutMs']);

/** Why common client-only fields stay behind, beyond "no equivalent". */
const REASONS: Readonly<Record<string, string>> = {
  autoApprove: 'tool approval is the client\'s own decision',
  alwaysAllow: 'tool approval is the client\'s own decision',
  trust: 'skipping tool confirmations is the client\'s own decision',
  includeTools: 'use a profile\'s "tools": {"allow": [...]}',
  excludeTools: 'use a profile\'s "tools": {"deny": [...]}',
  envFile: 'its variables are not read: put them in "env"',
  oauth: 'sign the switchboard in with "switchboard login" after adding an "oauth" entry',
};

export type SecretRefMaker = (found: FoundServer, at: readonly (string | number)[]) => string;

export type Normalized = { readonly ok: true; readonly server: CarriedServer } | { readonly ok: false; readonly reason: string };

export function normalize(found: FoundServer, promptRef: SecretRefMaker): Normalized {
  const raw = found.entry;
  const client = CLIENT_NAMES[found.source.client];
  if (raw['source'] === 'extension' || (found.source.client === 'zed' && raw['command'] === undefined && raw['url'] === undefined)) {
    return { ok: false, reason: 'provided by a Zed extension, which runs it itself' };
  }
  const hasCommand = typeof raw['command'] === 'string' && raw['command'] !== '';
  const hasUrl = typeof raw['url'] === 'string' && raw['url'] !== '';
  if (!hasCommand && !hasUrl) return { ok: false, reason: 'has neither a "command" nor a "url"' };
  if (found.source.client === 'claude-desktop' && raw['type'] !== undefined && raw['type'] !== 'stdio' && !hasUrl) return { ok: false, reason: `is of type ${JSON.stringify(raw['type'])}` };

  const notes = [...found.notes];
  const entry: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (key === 'type') continue;
    if (!CARRIED.has(key)) {
      if (key === 'source') continue;
      notes.push(`"${key}" is a ${client} setting${REASONS[key] === undefined ? ' with no equivalent here' : `: ${REASONS[key]}`}`);
      continue;
    }
    entry[key] = value;
  }
  if (hasUrl) {
    delete entry['command'];
    for (const key of ['args', 'env', 'cwd']) if (entry[key] !== undefined) delete entry[key];
    const type = raw['type'];
    if (entry['transport'] === undefined && type === 'sse') entry['transport'] = 'sse';
    else if (entry['transport'] === undefined && (type === 'http' || type === 'streamable-http' || type === 'streamableHttp')) entry['transport'] = 'http';
  } else {
    delete entry['url'];
    delete entry['headers'];
    delete entry['transport'];
  }
  const shape = checkShape(entry);
  if (shape !== undefined) return { ok: false, reason: shape };

  const prompts: CarriedServer['prompts'][number][] = [];
  let unusable: string | undefined;
  const translate = (text: string, at: (string | number)[]): string =>
    text.replace(/\$\{([A-Za-z]+):(?!-)([^}]*)\}|\$\{(userHome|workspaceFolder|pathSeparator|\/)\}/g, (whole, kind?: string, arg?: string, plain?: string) => {
      if (plain === 'userHome') return '${HOME}';
      if (plain === 'pathSeparator' || plain === '/') return '/';
      if (plain === 'workspaceFolder') {
        if (found.source.project !== undefined) return found.source.project.replaceAll('${', '$${');
        unusable ??= '${workspaceFolder} in a user-level entry names no one folder';
        return whole;
      }
      if (kind === 'env') return `\${${arg ?? ''}}`;
      if (kind === 'input') {
        const ref = promptRef(found, at);
        prompts.push({ at, why: `${client} asks for it when it starts the server (\${input:${arg ?? ''}})`, ref });
        return ref;
      }
      // ${file:...} and ${credential:...} are ours already; any other client variable is not.
      if (kind === 'file' || kind === 'credential') return whole;
      unusable ??= `${whole} is a ${client} variable with no equivalent here`;
      return whole;
    });
  walkStrings(entry, [], translate);
  if (unusable !== undefined) return { ok: false, reason: unusable };
  return { ok: true, server: { found, entry, notes, prompts } };
}

/** The carried fields as the loader wants them; a client file that differs is not guessed at. */
function checkShape(entry: Record<string, unknown>): string | undefined {
  const strings = (value: unknown): boolean => Array.isArray(value) && value.every((v) => typeof v === 'string');
  const record = (value: unknown): boolean => typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every((v) => typeof v === 'string');
  if (entry['args'] !== undefined && !strings(entry['args'])) return '"args" is not a list of strings';
  if (entry['env'] !== undefined && !record(entry['env'])) return '"env" is not an object of strings';
  if (entry['headers'] !== undefined && !record(entry['headers'])) return '"headers" is not an object of strings';
  if (entry['cwd'] !== undefined && typeof entry['cwd'] !== 'string') return '"cwd" is not a string';
  if (entry['disabled'] !== undefined && typeof entry['disabled'] !== 'boolean') delete entry['disabled'];
  if (entry['timeoutMs'] !== undefined && !(typeof entry['timeoutMs'] === 'number' && Number.isInteger(entry['timeoutMs']) && entry['timeoutMs'] > 0)) delete entry['timeoutMs'];
  return undefined;
}

/** Rewrites every string under `value` in place, telling `map` where it is. */
export function walkStrings(value: Record<string, unknown> | unknown[], at: (string | number)[], map: (text: string, at: (string | number)[]) => string): void {
  const entries: [string | number, unknown][] = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value);
  for (const [key, child] of entries) {
    const here = [...at, key];
    let next: unknown = child;
    if (typeof child === 'string') next = map(child, here);
    else if (typeof child === 'object' && child !== null) walkStrings(child as Record<string, unknown> | unknown[], here, map);
    if (next !== child) (value as Record<string | number, unknown>)[key] = next;
  }
}

/** What makes two entries one server: the same command, arguments and environment, or the same URL. */
export function identity(entry: Readonly<Record<string, unknown>>): string {
  if (typeof entry['url'] === 'string') return JSON.stringify(['url', entry['url']]);
  const env = typeof entry['env'] === 'object' && entry['env'] !== null ? Object.entries(entry['env']).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)) : [];
  return JSON.stringify(['command', entry['command'], entry['args'] ?? [], env]);
}
