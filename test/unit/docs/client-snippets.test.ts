// The client configuration snippets: each parses as its client reads it, the README shows exactly
// the shipped file, and each points at the proxy's /mcp with a token that is never written in it.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseToml } from 'smol-toml';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const DIR = path.join(ROOT, 'docs/clients');
const README = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const URL_OF_PROXY = 'http://127.0.0.1:8808/mcp';
/** What a literal token would look like: long runs of token characters that are not a placeholder or a variable. */
const LITERAL_TOKEN = /Bearer\s+(?!\$\{|YOUR_TOKEN)[A-Za-z0-9\-._~+/]{16,}/;

const files = fs.readdirSync(DIR).sort();

describe('client snippets', () => {
  it('cover Claude Desktop, Claude Code, Cursor, VS Code and Codex', () => {
    expect(files).toEqual(['claude-code.mcp.json', 'claude_desktop_config.json', 'codex.config.toml', 'cursor.mcp.json', 'vscode.mcp.json']);
  });

  it('are, one for one, the code blocks of the README\'s "Connect your client"', () => {
    const section = README.split(/^## Connect your client$/m)[1]?.split(/^## /m)[0] ?? '';
    const blocks = [...section.matchAll(/^```(\w+)\n([\s\S]*?)^```$/gm)].map((match) => `${match[1]}:${match[2]}`);
    const shipped = files.map((name) => `${name.endsWith('.toml') ? 'toml' : 'json'}:${fs.readFileSync(path.join(DIR, name), 'utf8')}`);
    expect(blocks.sort()).toEqual(shipped.sort());
  });

  it.each(files)('%s parses, points at /mcp and carries no token', (name) => {
    const text = fs.readFileSync(path.join(DIR, name), 'utf8');
    const parsed = name.endsWith('.toml') ? parseToml(text) : (JSON.parse(text) as unknown);
    const flat = JSON.stringify(parsed);
    expect(flat).toContain(URL_OF_PROXY);
    expect(flat).not.toMatch(LITERAL_TOKEN);
    expect(flat).toMatch(/Authorization|bearer_token_env_var/);
  });

  it('have the shape each client expects', () => {
    const read = (name: string) => JSON.parse(fs.readFileSync(path.join(DIR, name), 'utf8')) as Record<string, any>;
    expect(read('claude_desktop_config.json').mcpServers.switchboard).toMatchObject({ command: 'npx', args: expect.arrayContaining(['mcp-remote', URL_OF_PROXY]) });
    expect(read('claude-code.mcp.json').mcpServers.switchboard).toMatchObject({ type: 'http', url: URL_OF_PROXY });
    expect(read('cursor.mcp.json').mcpServers.switchboard).toMatchObject({ url: URL_OF_PROXY });
    const vscode = read('vscode.mcp.json');
    expect(vscode.servers.switchboard).toMatchObject({ type: 'http', url: URL_OF_PROXY });
    expect(vscode.inputs[0]).toMatchObject({ id: 'switchboard-token', password: true });
    const codex = parseToml(fs.readFileSync(path.join(DIR, 'codex.config.toml'), 'utf8')) as Record<string, any>;
    expect(codex.mcp_servers.switchboard).toEqual({ url: URL_OF_PROXY, bearer_token_env_var: 'SWITCHBOARD_TOKEN' });
  });
});
