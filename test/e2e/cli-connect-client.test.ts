// The whole way back for one client: Claude Desktop's servers imported into the switchboard, then
// Claude Desktop connected to it, and a real SDK client started from the rewritten entry (mcp-remote,
// as the entry runs it) lists the imported tools through the daemon; --undo gives the file back byte for byte.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { RunningSwitchboard } from '../../src/index.js';
import { FIXTURE, ROOT, freePort, listAllTools, removeScratch, runCli, startProxy } from './helpers.js';

const MCP_REMOTE = path.join(ROOT, 'node_modules/mcp-remote/dist/proxy.js');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-connect-'));
let proxy: RunningSwitchboard | undefined;

afterAll(async () => {
  await proxy?.close();
  removeScratch(dir);
});

interface DesktopEntry {
  command: string;
  args: string[];
  env?: Record<string, string>;
}

describe('import, then connect Claude Desktop', () => {
  it('serves the imported servers to a client started from the rewritten Claude Desktop entry', async () => {
    const home = path.join(dir, 'home');
    const desktopFile = path.join(home, '.config/Claude/claude_desktop_config.json');
    const stdio = (name: string) => ({ command: process.execPath, args: [FIXTURE], env: { FIXTURE_NAME: name } });
    fs.mkdirSync(path.dirname(desktopFile), { recursive: true });
    fs.writeFileSync(desktopFile, `${JSON.stringify({ mcpServers: { alpha: stdio('alpha'), beta: stdio('beta') } }, null, 2)}\n`);
    const before = fs.readFileSync(desktopFile);
    const port = await freePort();
    const file = path.join(dir, 'proxy.config.json');
    fs.writeFileSync(file, `${JSON.stringify({ listen: { host: '127.0.0.1', port }, mcpServers: { base: stdio('base') } }, null, 2)}\n`);
    const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config') };

    const imported = await runCli(['import', '--from', 'claude-desktop', '-c', file], undefined, env);
    expect(imported.stderr).toBe('');
    expect(imported.code).toBe(0);
    proxy = await startProxy(JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>);

    const connected = await runCli(['connect', 'claude-desktop', '-c', file], undefined, env);
    expect(connected.stderr).toBe('');
    expect(connected.code).toBe(0);
    const servers = (JSON.parse(fs.readFileSync(desktopFile, 'utf8')) as { mcpServers: Record<string, DesktopEntry> }).mcpServers;
    // The servers the switchboard now serves are gone from the client; it reaches them through the switchboard.
    expect(Object.keys(servers)).toEqual(['switchboard']);
    const entry = servers['switchboard']!;
    expect(entry.args).toContain(`http://127.0.0.1:${port}/mcp`);
    // Run as Claude Desktop would, with the mcp-remote this repository installs in place of `npx -y mcp-remote`.
    const at = entry.args.indexOf('mcp-remote');
    expect(at).toBeGreaterThanOrEqual(0);
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [MCP_REMOTE, ...entry.args.slice(at + 1)],
      env: { ...(process.env as Record<string, string>), ...(entry.env ?? {}), HOME: home, MCP_REMOTE_CONFIG_DIR: path.join(home, '.mcp-auth') },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'claude-desktop-like', version: '1.0.0' });
    try {
      await client.connect(transport, { timeout: 20_000 });
      const names = (await listAllTools(client)).map((tool) => tool.name);
      for (const name of ['alpha__echo', 'beta__echo', 'base__echo']) expect(names).toContain(name);
    } finally {
      await client.close();
    }

    const undone = await runCli(['connect', 'claude-desktop', '--undo'], undefined, env);
    expect(undone.code).toBe(0);
    expect(fs.readFileSync(desktopFile).equals(before)).toBe(true);
  }, 120_000);
});
