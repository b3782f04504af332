// Editing one server entry of a config with comments: nothing else in the text moves.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { withServer, withoutServer, writeAtomic } from '../../../src/cli/config-edit.js';
import { layoutOf } from '../../../src/cli/jsonc-edit.js';
import { parseJson } from '../../../src/config/json.js';

const COMMENTED = `// team switchboard
{
  "listen": { "host": "127.0.0.1", "port": 8808 },
  /* every server we run */
  "mcpServers": {
    "fs": { "command": "mcp-server-filesystem", "args": ["."] }, // read-only docs
    "memory": {
      "command": "mcp-server-memory"
    } // the last one
  },
  "logLevel": "info"
}
`;

describe('config edits keep the file', () => {
  it('add then remove gives back the same bytes, for every entry position', () => {
    const added = withServer(COMMENTED, 'gh', { command: 'github-mcp-server', args: ['stdio'], env: { TOKEN: '${file:secrets/gh}' } });
    expect(added).toContain('    }, // the last one\n    "gh": {\n      "command": "github-mcp-server",\n      "args": ["stdio"],');
    expect(parseJson(added)).toMatchObject({ ok: true, value: { mcpServers: { fs: {}, memory: {}, gh: { env: { TOKEN: '${file:secrets/gh}' } } } } });
    expect(withoutServer(added, 'gh')).toBe(COMMENTED);
  });

  it('removes a first, middle or last entry with its comment and comma, leaving valid JSON', () => {
    const noFs = withoutServer(COMMENTED, 'fs');
    expect(noFs).not.toContain('read-only docs');
    expect(noFs).toContain('// team switchboard');
    expect(parseJson(noFs)).toMatchObject({ ok: true, value: { mcpServers: { memory: {} } } });
    const noMemory = withoutServer(COMMENTED, 'memory');
    expect(noMemory).toContain('"args": ["."] } // read-only docs\n  },');
    expect(parseJson(noMemory)).toMatchObject({ ok: true });
  });

  it('fills an empty mcpServers, creates a missing one, keeps one-line objects on one line', () => {
    expect(withServer('{ "mcpServers": {} }', 'a', { command: 'x', args: [] })).toBe('{ "mcpServers": {\n  "a": {\n    "command": "x",\n    "args": []\n  }\n} }');
    expect(withServer('{\n\t"logLevel": "info"\n}\n', 'a', { url: 'http://127.0.0.1:1/mcp' })).toBe('{\n\t"logLevel": "info",\n\t"mcpServers": {\n\t\t"a": {\n\t\t\t"url": "http://127.0.0.1:1/mcp"\n\t\t}\n\t}\n}\n');
    expect(withServer('{"mcpServers":{"a":{"command":"x"}}}', 'b', { command: 'y' })).toBe('{"mcpServers":{"a":{"command":"x"}, "b": {"command":"y"}}}');
    expect(withoutServer('{"mcpServers":{"a":{"command":"x"}, "b": {"command":"y"}}}', 'b')).toBe('{"mcpServers":{"a":{"command":"x"}}}');
  });

  it('follows the file\'s indentation and line ends', () => {
    expect(layoutOf('{\r\n    "a": 1\r\n}')).toEqual({ unit: '    ', eol: '\r\n' });
    const crlf = withServer('{\r\n    "mcpServers": {\r\n        "a": {"command": "x"}\r\n    }\r\n}\r\n', 'b', { command: 'y' });
    expect(crlf).toBe('{\r\n    "mcpServers": {\r\n        "a": {"command": "x"},\r\n        "b": {\r\n            "command": "y"\r\n        }\r\n    }\r\n}\r\n');
  });
});

describe('the loader reads comments', () => {
  it('accepts // and /* */ outside strings, with positions of later errors unchanged', () => {
    expect(parseJson(COMMENTED)).toMatchObject({ ok: true, value: { logLevel: 'info' } });
    expect(parseJson('{"url": "http://x/*y*/"}')).toEqual({ ok: true, value: { url: 'http://x/*y*/' } });
    expect(parseJson('// a\n/* b\n c */ {"a": 1,\n "b": }')).toEqual({ ok: false, error: { line: 4, column: 7, problem: 'unexpected "}"' } });
    expect(parseJson('{"a": 1} /* open')).toEqual({ ok: false, error: { line: 1, column: 10, problem: "unterminated comment: '/*' without '*/'" } });
    expect(parseJson('{"a": 1,\n}')).toEqual({ ok: false, error: { line: 2, column: 1, problem: "trailing comma before '}'" } });
  });
});

describe('writing', () => {
  it('writes through a symlink, keeping the link and the mode', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-write-'));
    try {
      const real = path.join(dir, 'dotfiles', 'proxy.config.json');
      fs.mkdirSync(path.dirname(real));
      fs.writeFileSync(real, '{}', { mode: 0o600 });
      const link = path.join(dir, 'proxy.config.json');
      fs.symlinkSync(real, link);
      writeAtomic(link, '{"mcpServers": {}}', 0o600);
      expect(fs.lstatSync(link).isSymbolicLink()).toBe(true);
      expect(fs.readFileSync(real, 'utf8')).toBe('{"mcpServers": {}}');
      expect(fs.statSync(real).mode & 0o777).toBe(0o600);
      expect(fs.readdirSync(path.dirname(real))).toEqual(['proxy.config.json']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
