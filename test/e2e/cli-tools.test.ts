// `switchboard tools` and `switchboard check` run as processes against fixture servers: views, exit codes, and no child left behind.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CLI, FIXTURE, ROOT, connect, fixture, startProxy, waitFor, runCli, type CliOutcome, CLI_TIMEOUT_MS } from './helpers.js';

/** In every child's command line (the fixture ignores its arguments), so /proc tells whether any survived. */
const MARKER = `sb-cli-marker-${randomBytes(6).toString('hex')}`;

const cli = (args: string[]): Promise<CliOutcome> => runCli(args);

/** Live processes whose command line holds MARKER. */
function markedProcesses(): number[] {
  const pids: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(MARKER)) pids.push(Number(entry));
    } catch {
      // Gone between readdir and read.
    }
  }
  return pids;
}

function server(name: string, env: Record<string, string> = {}): Record<string, unknown> {
  return { command: process.execPath, args: [FIXTURE, MARKER], env: { FIXTURE_NAME: name, ...env } };
}

interface ToolsJson {
  profile: string | null;
  budget: { maxTools: number | null; maxTokens: number | null; leftOut: string[] };
  tools: Array<{ name: string; server: string; original: string; tokens: number; description: string | null }>;
  servers: Array<{ name: string; tools: number; tokens: number }>;
  total: { tools: number; tokens: number };
  failed: Array<{ server: string; reason: string | null }>;
}

let dir: string;
let good: string;
let broken: string;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-cli-tools-'));
  const profiles = {
    reader: { tools: { allow: ['alpha__echo', 'alpha__whoami', 'beta__echo'] } },
    capped: { tools: { allow: ['alpha__*'] }, maxTools: 2 },
    agent: { discovery: 'search', pinned: ['alpha__echo'] },
  };
  good = path.join(dir, 'good.json');
  fs.writeFileSync(good, JSON.stringify({ mcpServers: { alpha: server('alpha'), beta: server('beta') }, profiles }));
  broken = path.join(dir, 'broken.json');
  fs.writeFileSync(broken, JSON.stringify({ mcpServers: { alpha: server('alpha'), bad: server('bad', { FIXTURE_FAIL_START: '1' }) } }));
});

afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('switchboard tools', () => {
  it('shows exactly the tools of a profile, each with a positive token estimate, and stops every child', async () => {
    const { code, stdout, stderr } = await cli(['tools', '-c', good, '--profile', 'reader', '--json']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const out = JSON.parse(stdout) as ToolsJson;
    expect(out.profile).toBe('reader');
    expect(out.tools.map((t) => t.name)).toEqual(['alpha__echo', 'alpha__whoami', 'beta__echo']);
    expect(out.tools.map((t) => t.server)).toEqual(['alpha', 'alpha', 'beta']);
    expect(out.tools[0]?.original).toBe('echo');
    for (const tool of out.tools) expect(tool.tokens).toBeGreaterThan(0);
    expect(out.total).toEqual({ tools: 3, tokens: out.tools.reduce((sum, t) => sum + t.tokens, 0) });
    expect(out.servers).toEqual([
      { name: 'alpha', tools: 2, tokens: (out.tools[0]?.tokens ?? 0) + (out.tools[1]?.tokens ?? 0) },
      { name: 'beta', tools: 1, tokens: out.tools[2]?.tokens },
    ]);
    expect(out.budget.leftOut).toEqual([]);
    expect(markedProcesses()).toEqual([]);
  });

  it('shows every tool of every server without --profile, and as a table that fits 100 columns', async () => {
    const json = await cli(['tools', '-c', good, '--json']);
    expect(json.code).toBe(0);
    const out = JSON.parse(json.stdout) as ToolsJson;
    expect(out.profile).toBeNull();
    const alpha = out.tools.filter((t) => t.server === 'alpha').map((t) => t.original);
    const beta = out.tools.filter((t) => t.server === 'beta').map((t) => t.original);
    expect(alpha.length).toBeGreaterThan(10);
    expect(beta).toEqual(alpha);
    expect(out.total.tools).toBe(alpha.length * 2);
    expect(out.tools.every((t) => t.tokens > 0)).toBe(true);

    const text = await cli(['tools', '-c', good]);
    expect(text.code).toBe(0);
    const lines = text.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^TOOL\s+SERVER\s+~TOKENS\s+DESCRIPTION$/);
    expect(lines.some((line) => /^alpha__echo\s+alpha\s+\d+\s+Returns the given text unchanged\.$/.test(line))).toBe(true);
    expect(lines.some((line) => new RegExp(`^total\\s+${out.total.tools}\\s+${out.total.tokens}$`).test(line))).toBe(true);
    for (const line of lines) expect([...line].length).toBeLessThanOrEqual(100);
    expect(markedProcesses()).toEqual([]);
  });

  it("names the tools a profile's budget left out", async () => {
    const { code, stdout } = await cli(['tools', '-c', good, '--profile', 'capped', '--json']);
    expect(code).toBe(0);
    const out = JSON.parse(stdout) as ToolsJson;
    expect(out.tools.map((t) => t.name)).toEqual(['alpha__echo', 'alpha__whoami']);
    expect(out.budget.maxTools).toBe(2);
    expect(out.budget.leftOut.length).toBeGreaterThan(5);
    expect(out.budget.leftOut).toContain('alpha__slow');
    expect(out.budget.leftOut.every((name) => name.startsWith('alpha__'))).toBe(true);
  });

  it('refuses an unknown profile with one line and exit code 2, before starting anything', async () => {
    const { code, stdout, stderr } = await cli(['tools', '-c', good, '--profile', 'nope']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toContain('unknown profile "nope"');
    expect(stderr).toContain('reader, capped, agent');
    expect(markedProcesses()).toEqual([]);
  });

  it('reports a server that cannot start on stderr and exits 1, listing the others', async () => {
    const { code, stdout, stderr } = await cli(['tools', '-c', broken, '--json']);
    expect(code).toBe(1);
    expect(stderr.trim().split('\n')).toEqual([expect.stringMatching(/^switchboard: server bad failed to start: exited with code 1/)]);
    const out = JSON.parse(stdout) as ToolsJson;
    expect(out.failed.map((f) => f.server)).toEqual(['bad']);
    expect(new Set(out.tools.map((t) => t.server))).toEqual(new Set(['alpha']));
    expect(markedProcesses()).toEqual([]);
  });
});

describe('switchboard check', () => {
  it('exits 0 with a row per server and per profile when every server starts', async () => {
    const { code, stdout } = await cli(['check', '-c', good]);
    expect(code).toBe(0);
    const lines = stdout.split('\n');
    expect(lines[0]).toMatch(/^SERVER\s+STATE\s+TOOLS\s+~TOKENS\s+FINDINGS\s+REASON$/);
    // FINDINGS: both servers offer the same tool names, flagged as name collisions; nothing withheld.
    expect(lines.filter((line) => /^(alpha|beta)\s+ready\s+\d+\s+\d+\s+\d+$/.test(line))).toHaveLength(2);
    expect(lines.some((line) => /^reader\s+3\s+\d+\s+0\s+-$/.test(line))).toBe(true);
    expect(lines.some((line) => /^capped\s+2\s+\d+\s+\d+\s+maxTools 2$/.test(line))).toBe(true);
    // Which tools the budget left out, and why.
    expect(stdout).toMatch(/left out of profile capped by its budget \(\d+; maxTools 2 reached; order: priority globs, then config\):\n  alpha__/);
    expect(stdout).toContain('2 servers: 2 ready, 0 failed');
    expect(markedProcesses()).toEqual([]);

    const json = await cli(['check', '-c', good, '--json']);
    expect(json.code).toBe(0);
    const out = JSON.parse(json.stdout) as {
      profiles: Array<{ name: string | null; leftOut: number; leftOutTools: Array<{ name: string; reason: string }> }>;
      ok: boolean;
      servers: Array<{ name: string; state: string; tools: number; tokens: number; findings: number; withheld: unknown[]; suspect: boolean }>;
    };
    expect(out.ok).toBe(true);
    const capped = out.profiles.find((p) => p.name === 'capped');
    expect(capped?.leftOutTools.length).toBe(capped?.leftOut);
    expect(capped?.leftOutTools[0]).toMatchObject({ reason: 'maxTools 2 reached' });
    expect(capped?.leftOutTools[1]?.reason).toBe('after the budget was full (maxTools 2 reached)');
    expect(out.servers.map((s) => [s.name, s.state, s.findings > 0, s.withheld, s.suspect])).toEqual([
      ['alpha', 'ready', true, [], false],
      ['beta', 'ready', true, [], false],
    ]);
    for (const s of out.servers) expect(s.tokens).toBeGreaterThan(s.tools);
    expect(markedProcesses()).toEqual([]);
  });

  it('exits 1 and names the server that failed to start', async () => {
    const { code, stdout, stderr } = await cli(['check', '-c', broken]);
    expect(code).toBe(1);
    expect(stdout).toMatch(/^bad\s+failed\s+-\s+-\s+-\s+exited with code 1$/m);
    expect(stdout).toMatch(/^alpha\s+ready\s/m);
    expect(stdout).toContain('1 failed (bad)');
    expect(stderr).toMatch(/server bad failed to start: exited with code 1; its stderr said: .*FIXTURE_FAIL_START/);
    expect(markedProcesses()).toEqual([]);
  });

  it('exits 2 with one line for an invalid config', async () => {
    const file = path.join(dir, 'invalid.json');
    fs.writeFileSync(file, JSON.stringify({ mcpServers: { x: { command: 'node' } }, listen: { port: 'abc' } }));
    const { code, stderr } = await cli(['check', '-c', file]);
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toContain('$.listen.port');
  });

  it('stops every child when interrupted while a server hangs in its start', async () => {
    const file = path.join(dir, 'hung.json');
    const hung = { command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)', MARKER] };
    fs.writeFileSync(file, JSON.stringify({ mcpServers: { alpha: server('alpha'), hung } }));
    const child = spawn(process.execPath, [...CLI, 'check', '-c', file], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    await waitFor(() => markedProcesses().length >= 2, CLI_TIMEOUT_MS, 'both children running');
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(stderr).toContain('interrupted');
    expect(markedProcesses()).toEqual([]);
  });
});

describe('switchboard tools and check for a search-mode profile', () => {
  it('show what the model is given (the search tools and pinned ones), as an SDK client lists it, and what search reaches', async () => {
    // One after another: four CLIs at once, each starting two servers, crowd a small machine.
    const json = await cli(['tools', '-c', good, '--profile', 'agent', '--json']);
    const text = await cli(['tools', '-c', good, '--profile', 'agent']);
    const check = await cli(['check', '-c', good]);
    const checkJson = await cli(['check', '-c', good, '--json']);
    expect(json.code, json.stderr).toBe(0);
    const out = JSON.parse(json.stdout) as ToolsJson & { discovery: string; reachable: { tools: number; tokens: number } };
    expect(out.discovery).toBe('search');
    // What a session of the profile is listed, from the daemon itself.
    const proxy = await startProxy({ mcpServers: { alpha: fixture('alpha'), beta: fixture('beta') }, profiles: { agent: { discovery: 'search', pinned: ['alpha__echo'] } } });
    try {
      const client = await connect(proxy, { path: '/mcp?profile=agent' });
      const listed = (await client.listTools()).tools;
      await client.close();
      expect(out.tools.map((t) => t.name)).toEqual(listed.map((t) => t.name));
      expect(out.tools.map((t) => t.name)).toEqual(['switchboard__find_tools', 'switchboard__call_tool', 'alpha__echo']);
      // find_tools says how many tools it searches: the CLI's reachable count.
      expect(listed[0]?.description).toContain(`Search ${out.reachable.tools} tools of 2 servers`);
    } finally {
      await proxy.close();
    }
    expect(out.total).toEqual({ tools: 3, tokens: out.tools.reduce((sum, t) => sum + t.tokens, 0) });
    expect(out.reachable.tools).toBeGreaterThan(40);
    expect(out.reachable.tokens).toBeGreaterThan(out.total.tokens * 4);
    expect(out.servers.reduce((sum, s) => sum + s.tools, 0)).toBe(out.reachable.tools);

    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^switchboard__find_tools\s+switchboard\s+\d+\s/m);
    expect(text.stdout).toMatch(new RegExp(`^reachable by search\\s+${out.reachable.tools}\\s+${out.reachable.tokens}$`, 'm'));
    expect(text.stdout).toContain(`profile agent, search mode: the model is given 3 tools, ~${out.total.tokens} tokens; switchboard__find_tools reaches ${out.reachable.tools} tools`);

    expect(check.code).toBe(0);
    expect(check.stdout).toMatch(new RegExp(`^agent \\(search\\)\\s+3\\s+${out.total.tokens}\\s+0\\s+-$`, 'm'));
    expect(check.stdout).toContain(`profile agent is in search mode: the model is given 3 tools (~${out.total.tokens} tokens); switchboard__find_tools reaches ${out.reachable.tools} tools`);
    const agent = (JSON.parse(checkJson.stdout) as { profiles: Array<{ name: string | null; discovery: string; tools: number; tokens: number; reachable: { tools: number } }> }).profiles.find((p) => p.name === 'agent');
    expect(agent).toMatchObject({ discovery: 'search', tools: 3, tokens: out.total.tokens, reachable: out.reachable });
    expect(markedProcesses()).toEqual([]);
  }, 100_000);
});

describe('switchboard tools --search', () => {
  it('prints what find_tools answers a session of the profile, with scores; JSON too; only the view', async () => {
    const [text, json, narrow, usage, steps] = await Promise.all([
      cli(['tools', '-c', good, '--search', 'what is the process id of the fixture', '--limit', '3']),
      cli(['tools', '-c', good, '--search', 'echo text back', '--json']),
      cli(['tools', '-c', good, '--profile', 'reader', '--search', 'add a new tool', '--json', '--limit', '20']),
      cli(['tools', '-c', good, '--search', 'x', '--limit', '99']),
      cli(['tools', '-c', good, '--search', 'echo the text back; then tell me the process id; then make the server crash', '--json', '--limit', '3']),
    ]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/^TOOL\s+SERVER\s+SCORE\s+DESCRIPTION/);
    expect(text.stdout).toMatch(/^(alpha|beta)__whoami\s+(alpha|beta)\s+\d+\.\d\d\s/m);
    expect(text.stdout).toContain('3 best matches of every tool for "what is the process id of the fixture"');
    const report = JSON.parse(json.stdout) as { tools: Array<{ name: string; server: string; score: number; inputSchema: unknown }> };
    expect(report.tools[0]?.name).toMatch(/__echo$/);
    expect(report.tools[0]?.score).toBeGreaterThan(0);
    expect(report.tools[0]?.inputSchema).toMatchObject({ type: 'object' });
    // The reader profile allows three tools: a search never shows a fourth.
    const allowed = ['alpha__echo', 'alpha__whoami', 'beta__echo'];
    for (const tool of (JSON.parse(narrow.stdout) as { tools: Array<{ name: string }> }).tools) expect(allowed).toContain(tool.name);
    // A request of three steps is searched clause by clause: each tool shows the score its step gave it.
    const stepped = (JSON.parse(steps.stdout) as { tools: Array<{ name: string; score: number }> }).tools;
    expect(stepped.length).toBeGreaterThanOrEqual(3);
    for (const tool of stepped) expect(tool.score, tool.name).toBeGreaterThan(0);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toBe('switchboard: --limit expects a number from 1 to 20, got "99"\n');
  });
});

describe('switchboard tools and the terminal width', () => {
  it('lays its table out for COLUMNS when piped: wider shows more of each description, no line is wider', async () => {
    const run = (columns: string) => runCli(['tools', '-c', good], undefined, { ...process.env, COLUMNS: columns });
    const [narrow, wide] = await Promise.all([run('80'), run('200')]);
    expect(narrow.code).toBe(0);
    expect(wide.code).toBe(0);
    const longest = (text: string) => Math.max(...text.split('\n').map((line) => [...line].length));
    expect(longest(narrow.stdout)).toBeLessThanOrEqual(80);
    expect(longest(wide.stdout)).toBeLessThanOrEqual(200);
    expect(longest(wide.stdout)).toBeGreaterThan(100);
    const row = (text: string) => text.split('\n').find((line) => line.startsWith('alpha__slow')) ?? '';
    expect(row(wide.stdout).length).toBeGreaterThan(row(narrow.stdout).length);
  });

  // util-linux `script` gives the command a pseudo-terminal; `stty cols` sets its width.
  const hasScript = (() => {
    try {
      return fs.statSync('/usr/bin/script').isFile();
    } catch {
      return false;
    }
  })();
  it.skipIf(!hasScript)('in a terminal, lays its table out for the terminal\'s width, whatever COLUMNS says', async () => {
    const quote = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;
    const inTerminal = (columns: number) =>
      new Promise<string>((resolve, reject) => {
        const command = `stty cols ${columns} rows 40; exec ${[process.execPath, ...CLI, 'tools', '-c', good].map(quote).join(' ')}`;
        const child = spawn('/usr/bin/script', ['-qec', command, '/dev/null'], { cwd: ROOT, env: { ...process.env, COLUMNS: '300' }, stdio: ['ignore', 'pipe', 'pipe'] });
        let stdout = '';
        child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
        const timer = setTimeout(() => child.kill('SIGKILL'), CLI_TIMEOUT_MS);
        child.on('error', reject);
        child.on('close', (code) => {
          clearTimeout(timer);
          if (code === 0) resolve(stdout.replace(/\r/g, ''));
          else reject(new Error(`switchboard tools in a ${columns}-column terminal: exit ${String(code)}\n${stdout}`));
        });
      });
    const [narrow, wide] = await Promise.all([inTerminal(80), inTerminal(200)]);
    const longest = (text: string) => Math.max(...text.split('\n').map((line) => [...line].length));
    expect(longest(narrow)).toBeLessThanOrEqual(80);
    expect(longest(wide)).toBeLessThanOrEqual(200);
    expect(longest(wide)).toBeGreaterThan(100);
    const row = (text: string) => text.split('\n').find((line) => line.startsWith('alpha__slow')) ?? '';
    expect(row(narrow)).toMatch(/…$/);
    expect(row(wide).length).toBeGreaterThan(row(narrow).length);
  });
});
