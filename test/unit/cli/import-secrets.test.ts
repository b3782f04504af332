// What import takes for a secret, and how it moves one out of an entry.
import { describe, expect, it } from 'vitest';
import { looksLikeSecret, moveSecrets, type MovedSecret } from '../../../src/cli/import/secrets.js';
import { identity, normalize } from '../../../src/cli/import/normalize.js';
import type { FoundServer } from '../../../src/cli/import/types.js';

describe('secrets by shape', () => {
  it.each(['ghp_R4nd0mT0k3nV4lu3F0rT3st1ng', 'sk-proj-Qm9vZ2xlU2VjcmV0S2V5', 'xoxb-1234-5678-abcdEFGH', 'github_pat_11ABCDEFG0123456789', 'AKIAIOSFODNN7EXAMPLE', 'q8Zr2Lm5Xv9Tn3Kp7Wd1Hs6Fj4Bc0Ga'])('%s is a secret', (value) => {
    expect(looksLikeSecret(value)).toBe(true);
  });

  it.each(['@modelcontextprotocol/server-filesystem', '/home/me/projects/notes', 'https://api.example.com/v1', '2025.11.25', 'mcp-server-everything', 'production', 'stdio', 'sk'])('%s is not', (value) => {
    expect(looksLikeSecret(value)).toBe(false);
  });
});

describe('moving secrets', () => {
  const ref = (file: string) => `\${file:s/${file}}`;

  it('takes env and header values by name or shape, keeps plain settings and references', () => {
    const moved: MovedSecret[] = [];
    const entry = {
      command: 'x',
      args: ['--api-key=sk-live-0123456789abcdefXYZ', '--token', 'abc123xyz789', '--verbose', 'ghp_R4nd0mT0k3nV4lu3F0rT3st1ng'],
      env: { API_KEY: 'abc123secret', AUTH_MODE: 'oauth', TOKEN_FILE: '/etc/token', GITHUB_TOKEN: '${GITHUB_TOKEN}', REGION: 'eu-west-1' },
    };
    moveSecrets(entry, ['cursor', 'gh'], ref, moved);
    expect(entry.env).toEqual({ API_KEY: '${file:s/cursor-gh-env-API_KEY}', AUTH_MODE: 'oauth', TOKEN_FILE: '/etc/token', GITHUB_TOKEN: '${GITHUB_TOKEN}', REGION: 'eu-west-1' });
    expect(entry.args).toEqual(['--api-key=${file:s/cursor-gh-args-0}', '--token', '${file:s/cursor-gh-args-2}', '--verbose', '${file:s/cursor-gh-args-4}']);
    expect(moved.map((m) => m.value)).toEqual(['abc123secret', 'sk-live-0123456789abcdefXYZ', 'abc123xyz789', 'ghp_R4nd0mT0k3nV4lu3F0rT3st1ng']);
  });

  it('never overwrites a secrets file that holds another value', () => {
    const moved: MovedSecret[] = [];
    const onDisk = (file: string) => (file === 'cursor-gh-env-API_KEY' ? 'older-value-123' : undefined);
    const first = { env: { API_KEY: 'abc123secret' } };
    moveSecrets(first, ['cursor', 'gh'], ref, moved, onDisk);
    const same = { env: { API_KEY: 'older-value-123' } };
    moveSecrets(same, ['cursor', 'gh'], ref, moved, onDisk);
    expect(first.env.API_KEY).toBe('${file:s/cursor-gh-env-API_KEY-2}');
    expect(same.env.API_KEY).toBe('${file:s/cursor-gh-env-API_KEY}');
    expect(moved).toEqual([{ file: 'cursor-gh-env-API_KEY-2', value: 'abc123secret' }, { file: 'cursor-gh-env-API_KEY', value: 'older-value-123' }]);
  });

  it('keeps the scheme of an Authorization header and takes a key out of a URL query', () => {
    const moved: MovedSecret[] = [];
    const entry = { url: 'https://mcp.example.com/sse?api_key=abcdef123456&region=eu', headers: { Authorization: 'Bearer q8Zr2Lm5Xv9Tn3Kp7Wd1Hs6Fj4Bc0Ga', 'X-Trace': 'on' } };
    moveSecrets(entry, ['vscode', 'remote'], ref, moved);
    expect(entry).toEqual({
      url: 'https://mcp.example.com/sse?api_key=${file:s/vscode-remote-url-api_key}&region=eu',
      headers: { Authorization: 'Bearer ${file:s/vscode-remote-headers-Authorization}', 'X-Trace': 'on' },
    });
    expect(moved.map((m) => m.value)).toEqual(['q8Zr2Lm5Xv9Tn3Kp7Wd1Hs6Fj4Bc0Ga', 'abcdef123456']);
  });
});

describe('carrying an entry', () => {
  const found = (client: FoundServer['source']['client'], entry: Record<string, unknown>, project?: string): FoundServer => ({
    source: { client, file: '/x', format: 'mcpServers', ...(project === undefined ? {} : { project }) },
    name: 'srv',
    entry,
    notes: [],
  });
  const prompt = () => '${file:s/p}';

  it('translates client variables and names what stays behind', () => {
    const made = normalize(found('vscode', { type: 'stdio', command: 'run', args: ['${workspaceFolder}/x', '${userHome}/y'], env: { A: '${env:A}', T: '${input:t}' }, envFile: '.env' }, '/src/app'), prompt);
    expect(made).toMatchObject({ ok: true, server: { entry: { command: 'run', args: ['/src/app/x', '${HOME}/y'], env: { A: '${A}', T: '${file:s/p}' } }, notes: ['"envFile" is a VS Code setting: its variables are not read: put them in "env"'] } });
  });

  it('refuses what it cannot translate', () => {
    expect(normalize(found('vscode', { command: 'run', args: ['${workspaceFolder}'] }), prompt)).toMatchObject({ ok: false, reason: expect.stringContaining('user-level') });
    expect(normalize(found('cursor', { command: 'run', args: ['${command:pick}'] }), prompt)).toMatchObject({ ok: false });
    expect(normalize(found('cursor', { args: [] }), prompt)).toEqual({ ok: false, reason: 'has neither a "command" nor a "url"' });
    expect(normalize(found('claude-code', { command: 'run', env: { A: '${A:-x}' } }), prompt)).toMatchObject({ ok: true });
  });

  it('one server per command, arguments and environment, or URL', () => {
    expect(identity({ command: 'a', args: ['1'], env: { X: '1', Y: '2' } })).toBe(identity({ env: { Y: '2', X: '1' }, args: ['1'], command: 'a' }));
    expect(identity({ command: 'a', args: ['1'] })).not.toBe(identity({ command: 'a', args: ['2'] }));
    expect(identity({ url: 'http://h/mcp', headers: { a: 'b' } })).toBe(identity({ url: 'http://h/mcp' }));
  });
});
