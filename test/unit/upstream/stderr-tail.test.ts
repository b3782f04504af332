// What a failed server's stderr tail keeps: its own words, not Node's stack frames, error properties and trailer.
import { describe, expect, it } from 'vitest';
import { STDERR_TAIL_LINES, StderrTail, significantLines } from '../../../src/upstream/stderr-tail.js';

/** As Node 20 prints an uncaught error with properties (fs.openSync of a missing file). */
const NODE_ENOENT = `node:fs:573
  return binding.open(
                 ^

Error: ENOENT: no such file or directory, open '/nonexistent/x'
    at Object.openSync (node:fs:573:18)
    at [eval]:1:15
    at runScriptInThisContext (node:internal/vm:209:10)
    at node:internal/process/execution:118:14
    at [eval]-wrapper:6:24
    at runScript (node:internal/process/execution:101:62)
    at evalScript (node:internal/process/execution:133:3)
    at node:internal/main/eval_string:51:3 {
  errno: -2,
  code: 'ENOENT',
  syscall: 'open',
  path: '/nonexistent/x'
}

Node.js v20.20.2`;

const NODE_ASYNC = `[eval]:1
async function f(){ await null; throw new Error('boom') } f()
                                      ^

Error: boom
    at f ([eval]:1:39)
    at async Promise.all (index 0)
    at new Promise (<anonymous>)

Node.js v22.1.0`;

describe('significantLines', () => {
  it('ends a Node crash with its message, not with stack frames, error properties or the version trailer', () => {
    expect(significantLines(NODE_ENOENT.split('\n'))).toEqual([
      'node:fs:573',
      '  return binding.open(',
      '                 ^',
      "Error: ENOENT: no such file or directory, open '/nonexistent/x'",
    ]);
    expect(significantLines(NODE_ASYNC.split('\n')).at(-1)).toBe('Error: boom');
  });

  it("keeps a server's own lines, indented ones too", () => {
    const lines = ['npm warn exec will be installed', '  at least one of GITHUB_TOKEN, GH_TOKEN must be set', 'Traceback (most recent call last):', '  File "server.py", line 3, in <module>', 'KeyError: \'API_KEY\''];
    expect(significantLines(lines)).toEqual(lines);
  });
});

describe('StderrTail', () => {
  it('returns the last lines that say something, each cut to a bounded length', () => {
    const tail = new StderrTail();
    for (let i = 0; i < 100; i++) tail.push(`noise ${i}`);
    tail.push('x'.repeat(10_000));
    for (const line of NODE_ENOENT.split('\n')) tail.push(line);
    const lines = tail.lines();
    expect(lines).toHaveLength(STDERR_TAIL_LINES);
    expect(lines.at(-1)).toBe("Error: ENOENT: no such file or directory, open '/nonexistent/x'");
    expect(lines.at(-5)).toBe(`${'x'.repeat(300)}…`);
    expect(lines[0]).toBe('noise 95');
  });
});
