// The commands that read the daemon's config and state (audit, approve, check, tools) run without
// the daemon's secrets in the shell, as an operator's shell is beside a systemd service.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FIXTURE, runCli, type CliOutcome } from './helpers.js';

let dir: string;
/** The shell's environment without any of the variables the configs name. */
const shell: NodeJS.ProcessEnv = { ...process.env };
for (const name of ['TOK_ALICE', 'CREDENTIALS_DIRECTORY', 'IDP_SECRET', 'ECHO_API_KEY', 'REMOTE_KEY']) delete shell[name];

const cli = (args: string[]): Promise<CliOutcome> => runCli(args, 45_000, shell);

/** A config file whose auth section names secrets this shell does not have. */
function writeConfig(name: string, mcpServers: Record<string, unknown>): string {
  const file = path.join(dir, `${name}.json`);
  const config = {
    listen: { host: '127.0.0.1', port: 0 },
    auth: {
      tokens: [
        { name: 'alice', tokenEnv: 'TOK_ALICE', admin: true },
        { name: 'bob', tokenFile: '${CREDENTIALS_DIRECTORY}/bob' },
        { name: 'carol', tokenFile: path.join(dir, 'no-such-token') },
      ],
    },
    sanitize: { log: path.join(dir, name, 'sanitize.jsonl'), pins: path.join(dir, name, 'pins.json') },
    mcpServers,
  };
  fs.writeFileSync(file, JSON.stringify(config));
  return file;
}

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-cli-secrets-'));
});

afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('commands that serve no client need none of the daemon\'s secrets', () => {
  it('check and tools run, and check names each unset variable as a warning', async () => {
    const file = writeConfig('daemon', { echo: { command: process.execPath, args: [FIXTURE], env: { FIXTURE_NAME: 'echo' } } });
    // One at a time: each starts the servers, and a loaded machine is slow to start many at once.
    const check = await cli(['check', '-c', file]);
    const json = await cli(['check', '--json', '-c', file]);
    const tools = await cli(['tools', '--json', '-c', file]);
    const start = await cli(['start', '-c', file, '--port', '1']);
    expect(check.stderr).toBe('');
    expect(check.code).toBe(0);
    expect(check.stdout).toMatch(/^echo\s+ready/m);
    expect(check.stdout).toMatch(/auth\.tokens\[0\]\.tokenEnv: environment variable TOK_ALICE is not set \(not read by this command; switchboard start needs it\)/);
    expect(check.stdout).toMatch(/auth\.tokens\[1\]\.tokenFile: environment variable CREDENTIALS_DIRECTORY is not set/);
    expect(check.stdout).toMatch(/auth\.tokens\[2\]\.tokenFile: no such file: /);
    const report = JSON.parse(json.stdout) as { ok: boolean; warnings: string[] };
    expect(report.ok).toBe(true);
    expect(report.warnings.filter((w) => w.includes('switchboard start needs it'))).toHaveLength(3);
    expect(tools.code).toBe(0);
    expect((JSON.parse(tools.stdout) as { tools: Array<{ name: string }> }).tools.map((t) => t.name)).toContain('echo__echo');
    // The daemon itself still refuses to start without them.
    expect(start.code).toBe(2);
    expect(start.stderr).toContain('TOK_ALICE is not set');
  }, 180_000);

  it('audit and approve need no server secrets either; check still needs those of the servers it starts', async () => {
    const file = writeConfig('servers', {
      echo: { command: process.execPath, args: [FIXTURE], env: { FIXTURE_NAME: 'echo', API_KEY: '${ECHO_API_KEY}' } },
      remote: { url: 'http://127.0.0.1:9/mcp', headers: { Authorization: 'Bearer ${REMOTE_KEY}' } },
      plain: { command: process.execPath, args: [FIXTURE], env: { FIXTURE_NAME: 'plain' } },
    });
    const audit = await cli(['audit', '-c', file]);
    const approve = await cli(['approve', 'echo', '-c', file]);
    const check = await cli(['check', '-c', file]);
    expect(audit).toMatchObject({ code: 0, stderr: '' });
    expect(audit.stdout).toContain('no sanitization log');
    expect(approve).toMatchObject({ code: 0, stderr: '' });
    expect(approve.stdout).toContain('nothing to approve');
    // check starts the servers: one whose own secret is missing is skipped (exit 1), not the whole file refused.
    expect(check.code).toBe(1);
    expect(check.stderr).toContain('server echo skipped: $.mcpServers.echo.env.API_KEY: environment variable ECHO_API_KEY is not set');
    expect(check.stdout).toMatch(/^plain\s+ready/m);
  }, 180_000);
});
