// What `switchboard connect` writes into each client: the docs/clients/ snippets, with the real
// address, and the token read from where that client reads secrets (never written into the file).
import path from 'node:path';
import { places, sourcesOf } from '../import/locations.js';
import type { ClientId, Source } from '../import/types.js';

/** The name of the entry connect owns in every client. */
export const ENTRY_NAME = 'switchboard';
export const TOKEN_VARIABLE = 'SWITCHBOARD_TOKEN';
const VSCODE_INPUT = { type: 'promptString', id: 'switchboard-token', description: 'mcp-switchboard bearer token', password: true } as const;

export interface Target {
  readonly source: Source;
  /** Keys from the root to the object holding the client's servers (JSON clients). */
  readonly container: readonly string[];
  /** The entry pointing at the proxy. */
  readonly entry: Record<string, unknown>;
  /** VS Code's prompt for the token, added to `inputs` when auth is on. */
  readonly input?: Readonly<Record<string, unknown>>;
  /** What the user still has to do, if anything (a token to put in place). */
  readonly note?: string;
}

/** mcp-remote bridges clients that only start stdio servers; it expands ${VAR} in its own arguments. */
function bridge(url: string, auth: boolean): { entry: Record<string, unknown>; note?: string } {
  if (!auth) return { entry: { command: 'npx', args: ['-y', 'mcp-remote', url] } };
  return {
    entry: { command: 'npx', args: ['-y', 'mcp-remote', url, '--header', 'Authorization:${SWITCHBOARD_AUTH}'], env: { SWITCHBOARD_AUTH: 'Bearer YOUR_TOKEN' } },
    note: 'put your token where YOUR_TOKEN is (this client passes no environment variable to its servers)',
  };
}

/**
 * The user-level file connect edits: the first of the client's files that exists, else where the
 * client would create it on this system (Claude Desktop and VS Code: under Library on macOS).
 */
export function targetFile(client: ClientId, env: NodeJS.ProcessEnv, exists: (file: string) => boolean, platform: NodeJS.Platform = process.platform): Source {
  const user = sourcesOf(client, places(env, '/')).filter((s) => s.project === undefined && s.format !== 'vscode-settings');
  const found = user.find((s) => exists(s.file));
  if (found !== undefined) return found;
  const mac = platform === 'darwin';
  const preferred = user.find((s) => s.file.includes(`${path.sep}Library${path.sep}`) === mac) ?? user[0];
  if (preferred === undefined) throw new Error(`no file known for ${client}`);
  return preferred;
}

export function targetFor(source: Source, url: string, auth: boolean): Target {
  const header = (value: string) => (auth ? { headers: { Authorization: value } } : {});
  switch (source.client) {
    case 'claude-desktop':
      return { source, container: ['mcpServers'], ...bridge(url, auth) };
    case 'zed':
      return { source, container: ['context_servers'], ...bridge(url, auth), entry: { source: 'custom', ...bridge(url, auth).entry } };
    case 'claude-code':
      return { source, container: ['mcpServers'], entry: { type: 'http', url, ...header(`Bearer \${${TOKEN_VARIABLE}}`) } };
    case 'cursor':
      return { source, container: ['mcpServers'], entry: { url, ...header(`Bearer \${env:${TOKEN_VARIABLE}}`) } };
    case 'windsurf':
      return { source, container: ['mcpServers'], entry: { serverUrl: url, ...header(`Bearer \${env:${TOKEN_VARIABLE}}`) } };
    case 'gemini':
      return { source, container: ['mcpServers'], entry: { httpUrl: url, ...header(`Bearer \${${TOKEN_VARIABLE}}`) } };
    case 'vscode':
      return { source, container: ['servers'], entry: { type: 'http', url, ...header('Bearer ${input:switchboard-token}') }, ...(auth ? { input: VSCODE_INPUT } : {}) };
    case 'codex':
      return { source, container: ['mcp_servers'], entry: { url, ...(auth ? { bearer_token_env_var: TOKEN_VARIABLE } : {}) } };
  }
}
