// `switchboard import` with a made-up HOME holding the real file formats of eight clients: one
// config the loader accepts, each server once, no secret in it; --dry-run writes nothing.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { FIXTURE, freePort, removeScratch, runCli } from './helpers.js';

const GITHUB_TOKEN = 'ghp_R4nd0mT0k3nV4lu3F0rT3st1ngOnly99';
const CURSOR_GITHUB_TOKEN = 'ghp_An0th3rT0k3nF0rT3st1ngOnlyXYZ77';
const OPENAI_KEY = 'sk-proj-Qm9vZ2xlU2VjcmV0S2V5Rm9yVGVzdHM';
const REMOTE_BEARER = 'q8Zr2Lm5Xv9Tn3Kp7Wd1Hs6Fj4Bc0Ga';
const SECRETS = [GITHUB_TOKEN, CURSOR_GITHUB_TOKEN, OPENAI_KEY, REMOTE_BEARER];
const node = process.execPath;

function write(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

/** A home as the clients leave it, overlaps and all. */
function makeHome(home: string, project: string): void {
  const stdio = (name: string, env: Record<string, string> = {}) => ({ command: node, args: [FIXTURE], env: { FIXTURE_NAME: name, ...env } });
  write(path.join(home, '.config/Claude/claude_desktop_config.json'), JSON.stringify({ globalShortcut: 'Ctrl+Space', mcpServers: { fs: stdio('fs'), github: stdio('github', { GITHUB_PERSONAL_ACCESS_TOKEN: GITHUB_TOKEN }) } }, null, 2));
  write(
    path.join(home, '.claude.json'),
    JSON.stringify({ numStartups: 12, mcpServers: { fs: stdio('fs') }, projects: { [project]: { allowedTools: [], mcpServers: { notes: stdio('notes') } } } }, null, 2),
  );
  write(
    path.join(home, '.cursor/mcp.json'),
    JSON.stringify({ mcpServers: { github: { ...stdio('github', { GITHUB_PERSONAL_ACCESS_TOKEN: CURSOR_GITHUB_TOKEN }), autoApprove: ['echo'] }, docs: { url: 'http://127.0.0.1:9/mcp', headers: { Authorization: `Bearer ${REMOTE_BEARER}` } } } }, null, 2),
  );
  write(
    path.join(home, '.config/Code/User/mcp.json'),
    `// VS Code user MCP servers
{
  "inputs": [{ "type": "promptString", "id": "jira-token", "description": "Jira API token", "password": true }],
  "servers": {
    /* issue tracker */
    "jira": { "type": "stdio", "command": ${JSON.stringify(node)}, "args": [${JSON.stringify(FIXTURE)}], "env": { "FIXTURE_NAME": "jira", "JIRA_TOKEN": "\${input:jira-token}", "LOG": "\${env:JIRA_LOG}" } },
    "search": { "type": "sse", "url": "http://127.0.0.1:9/sse" }
  }
}
`,
  );
  write(path.join(home, '.codeium/windsurf/mcp_config.json'), JSON.stringify({ mcpServers: { 'docs-remote': { serverUrl: 'http://127.0.0.1:9/mcp', headers: { Authorization: `Bearer ${REMOTE_BEARER}` } } } }, null, 2));
  write(
    path.join(home, '.codex/config.toml'),
    `model = "o4-mini"

[mcp_servers.echo]
command = ${JSON.stringify(node)}
args = [${JSON.stringify(FIXTURE)}]
env = { FIXTURE_NAME = "echo", OPENAI_API_KEY = "${OPENAI_KEY}" }
tool_timeout_sec = 90
`,
  );
  write(
    path.join(home, '.config/zed/settings.json'),
    `// Zed settings
{
  "theme": "One Dark",
  "context_servers": {
    "zfs": { "command": { "path": ${JSON.stringify(node)}, "args": [${JSON.stringify(FIXTURE)}], "env": { "FIXTURE_NAME": "zfs" } }, "settings": {} },
    "postgres-ext": { "source": "extension", "settings": { "database_url": "postgres://localhost" } },
  },
}
`,
  );
  write(path.join(home, '.gemini/settings.json'), JSON.stringify({ theme: 'Default', mcpServers: { gem: { httpUrl: 'http://127.0.0.1:9/gem', trust: true, timeout: 30000 } } }, null, 2));
}

describe('import', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-import-'));
  afterAll(() => removeScratch(dir));

  it('merges every client into one config the loader accepts, each server once, no secret in it', async () => {
    const home = path.join(dir, 'home');
    const project = path.join(dir, 'project');
    fs.mkdirSync(project, { recursive: true });
    makeHome(home, project);
    write(path.join(project, '.mcp.json'), JSON.stringify({ mcpServers: { notes: { command: node, args: [FIXTURE], env: { FIXTURE_NAME: 'notes' } } } }));
    const port = await freePort();
    const file = path.join(dir, 'proxy.config.json');
    const original = `// ours
{
  "listen": { "host": "127.0.0.1", "port": ${port} },
  "mcpServers": {
    "fs": { "command": ${JSON.stringify(node)}, "args": [${JSON.stringify(FIXTURE)}], "env": { "FIXTURE_NAME": "fs" } } // already here
  }
}
`;
    write(file, original);
    const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config') };
    delete env['CODEX_HOME'];
    const args = ['import', '-c', file, '--project', project];

    const dry = await runCli([...args, '--dry-run'], undefined, env);
    expect(dry.stderr).toBe('');
    expect(dry.code).toBe(0);
    expect(fs.readFileSync(file, 'utf8')).toBe(original);
    expect(fs.existsSync(path.join(dir, 'proxy.config.secrets'))).toBe(false);
    expect(dry.stdout).toContain('--dry-run: nothing written.');
    expect(dry.stdout).toMatch(/^\+\s+"github": \{$/m);
    for (const secret of SECRETS) expect(dry.stdout).not.toContain(secret);

    const run = await runCli(args, undefined, env);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const text = fs.readFileSync(file, 'utf8');
    for (const secret of SECRETS) expect(text).not.toContain(secret);
    expect(text.startsWith('// ours\n')).toBe(true);
    expect(text).toContain('// already here');

    const config = loadConfig(file, { ...env, JIRA_LOG: 'info' }, { secrets: 'none' });
    const names = [...config.servers.map((s) => s.name), ...config.skipped.map((s) => s.name)].sort();
    expect(names).toEqual(['docs', 'echo', 'fs', 'gem', 'github', 'github-cursor', 'jira', 'notes', 'search', 'zfs']);
    const byName = new Map(config.servers.map((s) => [s.name, s]));
    // The secrets reach the servers through their files.
    expect(byName.get('github')?.env['GITHUB_PERSONAL_ACCESS_TOKEN']).toBe(GITHUB_TOKEN);
    expect(byName.get('github-cursor')?.env['GITHUB_PERSONAL_ACCESS_TOKEN']).toBe(CURSOR_GITHUB_TOKEN);
    expect(byName.get('echo')?.env['OPENAI_API_KEY']).toBe(OPENAI_KEY);
    expect(byName.get('echo')?.timeoutMs).toBe(90_000);
    expect(byName.get('docs')?.remote?.headers['authorization']?.reveal()).toBe(`Bearer ${REMOTE_BEARER}`);
    expect(byName.get('search')?.remote?.transport).toBe('sse');
    expect(byName.get('gem')?.remote?.url).toBe('http://127.0.0.1:9/gem');
    // The value VS Code prompts for is a file still to be written, named in the report.
    expect(text).toContain('"JIRA_TOKEN": "${file:proxy.config.secrets/vscode-jira-env-JIRA_TOKEN}"');
    expect(text).toContain('"LOG": "${JIRA_LOG}"');
    expect(run.stdout).toContain(`To do: server jira needs env.JIRA_TOKEN: VS Code asks for it when it starts the server (\${input:jira-token}); write it to ${path.join(dir, 'proxy.config.secrets', 'vscode-jira-env-JIRA_TOKEN')} (chmod 600)`);
    const secretsDir = path.join(dir, 'proxy.config.secrets');
    expect(fs.statSync(secretsDir).mode & 0o777).toBe(0o700);
    for (const name of fs.readdirSync(secretsDir)) expect(fs.statSync(path.join(secretsDir, name)).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(secretsDir).sort()).toEqual(['claude-desktop-github-env-GITHUB_PERSONAL_ACCESS_TOKEN', 'codex-echo-env-OPENAI_API_KEY', 'cursor-docs-headers-Authorization', 'cursor-github-env-GITHUB_PERSONAL_ACCESS_TOKEN']);

    // What stays behind is named with why.
    expect(run.stdout).toContain('Zed postgres-ext: not imported: provided by a Zed extension');
    expect(run.stdout).toContain('Cursor github: "autoApprove" is a Cursor setting: tool approval is the client\'s own decision');
    expect(run.stdout).toContain('Gemini CLI gem: "trust" is a Gemini CLI setting');
    expect(run.stdout).toMatch(/Already in the config as fs: Claude Desktop fs/);
    expect(run.stdout).toMatch(/docs {2}from Cursor docs, Windsurf docs-remote/);
    expect(run.stdout).toContain('no switchboard is running on');

    // Again: nothing new.
    const again = await runCli(args, undefined, env);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('Nothing to add.');
    expect(fs.readFileSync(file, 'utf8')).toBe(text);

    // Then the client is pointed at the switchboard, and back.
    const cursorFile = path.join(home, '.cursor/mcp.json');
    const cursorBefore = fs.readFileSync(cursorFile);
    const connect = await runCli(['connect', 'cursor', '-c', file], undefined, env);
    expect(connect.stderr).toBe('');
    expect(connect.code).toBe(0);
    expect(connect.stdout).toContain(`Cursor now uses the switchboard at http://127.0.0.1:${port}/mcp: ~/.cursor/mcp.json`);
    expect(Object.keys((JSON.parse(fs.readFileSync(cursorFile, 'utf8')) as { mcpServers: object }).mcpServers)).toEqual(['switchboard']);
    const undo = await runCli(['connect', 'cursor', '--undo'], undefined, env);
    expect(undo.code).toBe(0);
    expect(fs.readFileSync(cursorFile).equals(cursorBefore)).toBe(true);
  }, 180_000);

  it('--from and --file narrow what is read; an unparsable file is named, never guessed at', async () => {
    const home = path.join(dir, 'home2');
    write(path.join(home, '.cursor/mcp.json'), '{ "mcpServers": { "x": ');
    const file = path.join(dir, 'narrow.config.json');
    const env = { ...process.env, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config') };
    const cursor = await runCli(['import', '-c', file, '--from', 'cursor', '--project', home], undefined, env);
    expect(cursor.code).toBe(0);
    expect(cursor.stdout).toContain('Skipped ~/.cursor/mcp.json (Cursor): not valid JSON');
    expect(fs.existsSync(file)).toBe(false);
    const toml = path.join(dir, 'codex.toml');
    write(toml, `[mcp_servers.only]\ncommand = ${JSON.stringify(node)}\nargs = [${JSON.stringify(FIXTURE)}]\n`);
    const one = await runCli(['import', '-c', file, '--file', toml], undefined, env);
    expect(one.code).toBe(0);
    expect(Object.keys((JSON.parse(fs.readFileSync(file, 'utf8')) as { mcpServers: object }).mcpServers)).toEqual(['only']);
    const bad = await runCli(['import', '-c', file, '--from', 'netscape'], undefined, env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^switchboard: --from expects one of claude-desktop, .*; got "netscape"\n$/);
  }, 180_000);
});
