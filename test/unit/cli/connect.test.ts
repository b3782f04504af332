// `switchboard connect CLIENT` and `--undo` on each client's real file format in a made-up HOME:
// the switchboard replaces the servers it serves, and undo gives back the file byte for byte.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { parse as parseJsonc } from 'jsonc-parser';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connectClient } from '../../../src/cli/connect.js';
import { UsageError } from '../../../src/cli/flags.js';

const node = process.execPath;
let dir: string;
let home: string;
let env: NodeJS.ProcessEnv;
let config: string;

function write(file: string, text: string): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  return file;
}

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-connect-'));
  home = path.join(dir, 'home');
  env = { HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), PATH: path.dirname(node) };
  config = write(
    path.join(dir, 'proxy.config.json'),
    JSON.stringify({ listen: { host: '127.0.0.1', port: 8808 }, profiles: { reader: {} }, mcpServers: { fs: { command: node, args: ['fs.js'] } } }, null, 2),
  );
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

const fsEntry = `"fs": { "command": ${JSON.stringify(node)}, "args": ["fs.js"] }`;
const other = `"other": { "command": ${JSON.stringify(node)}, "args": ["other.js"] }`;

/** Each client's file as the client writes it, with the switchboard's `fs` and one server of its own. */
const FILES: Record<string, [string, string]> = {
  'claude-desktop': ['.config/Claude/claude_desktop_config.json', `{\n  "globalShortcut": "",\n  "mcpServers": {\n    ${fsEntry},\n    ${other}\n  }\n}\n`],
  'claude-code': ['.claude.json', `{"numStartups":3,"mcpServers":{${fsEntry},${other}},"projects":{"/src/app":{"mcpServers":{}}}}`],
  cursor: ['.cursor/mcp.json', `{\n\t"mcpServers": {\n\t\t${fsEntry},\n\t\t${other}\n\t}\n}`],
  vscode: ['.config/Code/User/mcp.json', `// mine\n{\n  "servers": {\n    ${fsEntry}, // files\n    ${other}\n  },\n  "inputs": []\n}\n`],
  windsurf: ['.codeium/windsurf/mcp_config.json', `{\r\n  "mcpServers": {\r\n    ${fsEntry},\r\n    ${other}\r\n  }\r\n}\r\n`],
  codex: ['.codex/config.toml', `model = "o4-mini"\n\n# file tools\n[mcp_servers.fs]\ncommand = ${JSON.stringify(node)}\nargs = ["fs.js"]\n\n[mcp_servers.other]\ncommand = ${JSON.stringify(node)}\nargs = ["other.js"]\n[mcp_servers.other.env]\nX = "1"\n\n[profiles.fast]\nmodel = "o3"\n`],
  zed: ['.config/zed/settings.json', `// Zed\n{\n  "theme": "One Dark",\n  "context_servers": {\n    "fs": { "command": { "path": ${JSON.stringify(node)}, "args": ["fs.js"] } },\n    ${other},\n  },\n}\n`],
  gemini: ['.gemini/settings.json', `{\n  "theme": "Default",\n  "mcpServers": {\n    ${fsEntry},\n    ${other}\n  }\n}\n`],
};

function serversIn(client: string, text: string): Record<string, unknown> {
  if (client === 'codex') return (parseToml(text) as { mcp_servers: Record<string, unknown> }).mcp_servers;
  const doc = parseJsonc(text, [], { allowTrailingComma: true }) as Record<string, Record<string, unknown>>;
  return (client === 'vscode' ? doc['servers'] : client === 'zed' ? doc['context_servers'] : doc['mcpServers']) ?? {};
}

describe.each(Object.keys(FILES))('connect %s', (client) => {
  it('replaces the servers the switchboard serves, and --undo restores the file byte for byte', () => {
    const [relative, original] = FILES[client] as [string, string];
    const file = write(path.join(home, relative), original);
    const lines = connectClient({ client, env, config, profile: 'reader' });
    expect(lines[0]).toContain('now uses the switchboard at http://127.0.0.1:8808/mcp?profile=reader');
    expect(lines.join('\n')).toContain('taken out of');
    const connected = fs.readFileSync(file, 'utf8');
    const servers = serversIn(client, connected);
    expect(Object.keys(servers)).toEqual(['other', 'switchboard']);
    expect(JSON.stringify(servers['switchboard'])).toContain('http://127.0.0.1:8808/mcp?profile=reader');
    const backups = fs.readdirSync(path.dirname(file)).filter((n) => n.startsWith(`${path.basename(file)}.switchboard-backup-`));
    expect(backups).toHaveLength(1);
    expect(fs.readFileSync(path.join(path.dirname(file), backups[0] ?? ''), 'utf8')).toBe(original);

    // Twice is once.
    expect(connectClient({ client, env, config, profile: 'reader' })[0]).toContain('already uses the switchboard');

    expect(connectClient({ client, env, undo: true })[0]).toMatch(/^Restored /);
    expect(fs.readFileSync(file, 'utf8')).toBe(original);
    expect(fs.readdirSync(path.dirname(file)).filter((n) => n.includes('.switchboard-backup-'))).toEqual([]);
  });
});

describe('connect keeps files safe', () => {
  it('never touches a file it cannot parse', () => {
    const file = write(path.join(home, '.cursor/mcp.json'), '{ "mcpServers": { "x": ');
    expect(() => connectClient({ client: 'cursor', env, config })).toThrow(UsageError);
    expect(() => connectClient({ client: 'cursor', env, config })).toThrow(/cannot be parsed .*left as it is/);
    expect(fs.readFileSync(file, 'utf8')).toBe('{ "mcpServers": { "x": ');
    expect(fs.readdirSync(path.dirname(file))).toEqual(['mcp.json']);
  });

  it('creates a missing file, and --undo removes it again', () => {
    const lines = connectClient({ client: 'gemini', env, config });
    const file = path.join(home, '.gemini/settings.json');
    expect(lines[0]).toContain('(a new file)');
    expect(serversIn('gemini', fs.readFileSync(file, 'utf8'))).toEqual({ switchboard: { httpUrl: 'http://127.0.0.1:8808/mcp' } });
    connectClient({ client: 'gemini', env, undo: true });
    expect(fs.existsSync(file)).toBe(false);
  });

  it('refuses to undo over a change made since, unless forced; --keep keeps', () => {
    const [relative, original] = FILES['cursor'] as [string, string];
    const file = write(path.join(home, relative), original);
    connectClient({ client: 'cursor', env, config, keep: true });
    expect(Object.keys(serversIn('cursor', fs.readFileSync(file, 'utf8')))).toEqual(['fs', 'other', 'switchboard']);
    fs.appendFileSync(file, '\n');
    expect(() => connectClient({ client: 'cursor', env, undo: true })).toThrow(/changed after "switchboard connect"/);
    connectClient({ client: 'cursor', env, undo: true, force: true });
    expect(fs.readFileSync(file, 'utf8')).toBe(original);
  });

  it('reads the token from where each client reads secrets when auth is on', () => {
    fs.writeFileSync(config, JSON.stringify({ auth: { tokens: [{ name: 'me', tokenEnv: 'ME_TOKEN' }] }, mcpServers: { fs: { command: node, args: ['fs.js'] } } }));
    write(path.join(home, '.config/Code/User/mcp.json'), '{\n  "servers": {}\n}\n');
    const lines = connectClient({ client: 'vscode', env, config });
    const doc = parseJsonc(fs.readFileSync(path.join(home, '.config/Code/User/mcp.json'), 'utf8')) as { servers: Record<string, unknown>; inputs: unknown[] };
    expect(doc.servers['switchboard']).toEqual({ type: 'http', url: 'http://127.0.0.1:8808/mcp', headers: { Authorization: 'Bearer ${input:switchboard-token}' } });
    expect(doc.inputs).toHaveLength(1);
    expect(lines.join('\n')).toContain('VS Code asks for the token');
    const cursor = connectClient({ client: 'cursor', env, config });
    expect(cursor.join('\n')).toContain('Set SWITCHBOARD_TOKEN');
    expect(fs.readFileSync(path.join(home, '.cursor/mcp.json'), 'utf8')).toContain('"Authorization": "Bearer ${env:SWITCHBOARD_TOKEN}"');
  });
});
