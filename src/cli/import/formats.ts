// Reading each client's file into server entries of one common shape (command/args/env/cwd or
// url/headers/transport), each client's own fields mapped where they have a meaning here.
import fs from 'node:fs';
import { parse as parseJsonc, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { parse as parseToml } from 'smol-toml';
import type { FoundServer, Source, SourceProblem } from './types.js';

type Entry = Record<string, unknown>;

/** Bytes: a client config is small; a huge file at one of these paths is not one. ~/.claude.json grows with history, so more. */
const MAX_BYTES = 32 * 1024 * 1024;

function isObject(value: unknown): value is Entry {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The servers a file holds, or why it cannot be read. A missing file is neither: undefined. */
export function readSource(source: Source): FoundServer[] | SourceProblem | undefined {
  let text: string;
  try {
    if (fs.statSync(source.file).size > MAX_BYTES) return { source, problem: `larger than ${MAX_BYTES} bytes` };
    text = fs.readFileSync(source.file, 'utf8');
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    return { source, problem: `cannot read it (${String(code)})` };
  }
  let doc: unknown;
  if (source.format === 'codex') {
    try {
      doc = parseToml(text);
    } catch (error) {
      return { source, problem: `not valid TOML: ${String((error as Error).message).split('\n')[0]}` };
    }
  } else {
    // Every client here reads JSON with comments and trailing commas (VS Code, Zed) or plain JSON.
    const errors: ParseError[] = [];
    doc = parseJsonc(text, errors, { allowTrailingComma: true, disallowComments: false });
    const first = errors[0];
    if (first !== undefined) return { source, problem: `not valid JSON: ${printParseErrorCode(first.error)} at offset ${first.offset}` };
  }
  if (!isObject(doc)) return text.trim() === '' ? [] : { source, problem: 'not a JSON object' };
  return serversOf(source, doc);
}

function serversOf(source: Source, doc: Entry): FoundServer[] {
  const found = (servers: unknown, map: (entry: Entry) => { entry: Entry; notes: string[] } = (entry) => ({ entry, notes: [] }), at: Source = source): FoundServer[] =>
    isObject(servers) ? Object.entries(servers).filter((e): e is [string, Entry] => isObject(e[1])).map(([name, entry]) => ({ source: at, name, ...map(entry) })) : [];
  switch (source.format) {
    case 'mcpServers':
      return found(doc['mcpServers']);
    case 'claude-code': {
      // User scope at the top; local scope per project folder (`claude mcp add` without --scope).
      const out = found(doc['mcpServers']);
      const projects = doc['projects'];
      if (isObject(projects)) {
        for (const [dir, project] of Object.entries(projects)) if (isObject(project)) out.push(...found(project['mcpServers'], undefined, { ...source, project: dir }));
      }
      return out;
    }
    case 'vscode':
      return found(doc['servers']);
    case 'vscode-settings':
      return found(isObject(doc['mcp']) ? doc['mcp']['servers'] : undefined);
    case 'windsurf':
      return found(doc['mcpServers'], windsurf);
    case 'gemini':
      return found(doc['mcpServers'], gemini);
    case 'codex':
      return found(doc['mcp_servers'], codex);
    case 'zed':
      return found(doc['context_servers'], zed);
  }
}

/** Windsurf names a remote server's URL `serverUrl`. */
function windsurf(raw: Entry): { entry: Entry; notes: string[] } {
  const { serverUrl, ...rest } = raw;
  return { entry: serverUrl !== undefined && rest['url'] === undefined ? { ...rest, url: serverUrl } : rest, notes: [] };
}

/** Gemini CLI: `httpUrl` is Streamable HTTP, `url` is SSE; `timeout` is milliseconds. */
function gemini(raw: Entry): { entry: Entry; notes: string[] } {
  const { httpUrl, url, timeout, ...rest } = raw;
  const entry: Entry = { ...rest };
  if (typeof httpUrl === 'string') entry['url'] = httpUrl;
  else if (typeof url === 'string') Object.assign(entry, { url, transport: 'sse' });
  if (typeof timeout === 'number') entry['timeoutMs'] = timeout;
  return { entry, notes: [] };
}

/** Codex: `[mcp_servers.NAME]` with seconds for timeouts, `enabled`, and a bearer token named by variable. */
function codex(raw: Entry): { entry: Entry; notes: string[] } {
  const { enabled, tool_timeout_sec, startup_timeout_sec, bearer_token_env_var, http_headers, env_http_headers, ...rest } = raw;
  const entry: Entry = { ...rest };
  const notes: string[] = [];
  if (enabled === false) entry['disabled'] = true;
  if (typeof tool_timeout_sec === 'number') entry['timeoutMs'] = Math.round(tool_timeout_sec * 1000);
  if (startup_timeout_sec !== undefined) notes.push('"startup_timeout_sec" is a Codex setting: the switchboard restarts a server that fails to start with its own backoff');
  const headers: Entry = isObject(http_headers) ? { ...http_headers } : {};
  if (typeof bearer_token_env_var === 'string') headers['Authorization'] = `Bearer \${${bearer_token_env_var}}`;
  if (isObject(env_http_headers)) for (const [name, variable] of Object.entries(env_http_headers)) if (typeof variable === 'string') headers[name] = `\${${variable}}`;
  if (Object.keys(headers).length > 0) entry['headers'] = headers;
  return { entry, notes };
}

/** Zed: `command` is `{path, args, env}` in older settings, a string beside `args`/`env` in newer ones; extensions provide their own. */
function zed(raw: Entry): { entry: Entry; notes: string[] } {
  const { source, settings, command, ...rest } = raw;
  const notes: string[] = [];
  if (settings !== undefined) notes.push('"settings" is a Zed setting: it configures a Zed extension');
  if (source === 'extension' || (command === undefined && rest['url'] === undefined)) {
    return { entry: { ...rest, source }, notes };
  }
  if (isObject(command)) {
    const { path: executable, args, env } = command;
    return { entry: { ...rest, command: executable, ...(args !== undefined ? { args } : {}), ...(env !== undefined ? { env } : {}) }, notes };
  }
  return { entry: { ...rest, ...(command !== undefined ? { command } : {}) }, notes };
}
