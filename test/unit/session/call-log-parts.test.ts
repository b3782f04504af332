// The call log's parts: redaction of secrets by name and by shape, and a log file bounded by rotation.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { redacted } from '../../../src/session/redact.js';
import { RotatingLog } from '../../../src/rotating-log.js';

describe('redaction', () => {
  it('hides members named like secrets and values shaped like credentials, and keeps the rest', () => {
    const input = {
      query: 'select 1',
      apiKey: 'abc',
      headers: { Authorization: 'Bearer xyz', accept: 'json' },
      note: 'token ghp_0123456789abcdefghijABCDEFGHIJ12 then AKIAABCDEFGHIJKLMNOP',
      nested: [{ password: 'hunter2' }, 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U'],
      count: 3,
    };
    expect(redacted(input)).toEqual({
      query: 'select 1',
      apiKey: '[redacted]',
      headers: { Authorization: '[redacted]', accept: 'json' },
      note: 'token [redacted] then [redacted]',
      nested: [{ password: '[redacted]' }, '[redacted]'],
      count: 3,
    });
    expect(redacted('plain words and a uuid-free sentence')).toBe('plain words and a uuid-free sentence');
  });
});

describe('a rotating log', () => {
  it('rotates at maxBytes and keeps `keep` old files', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-rotate-'));
    try {
      const file = path.join(dir, 'calls.jsonl');
      const log = new RotatingLog({ path: file, maxBytes: 200, keep: 2 });
      for (let i = 0; i < 30; i++) {
        log.write({ i, pad: 'x'.repeat(40) });
        await log.drained();
      }
      const files = fs.readdirSync(dir).sort();
      expect(files).toEqual(['calls.jsonl', 'calls.jsonl.1', 'calls.jsonl.2']);
      for (const f of files) expect(fs.statSync(path.join(dir, f)).size).toBeLessThanOrEqual(200);
      const last = fs.readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { i: number });
      expect(last.at(-1)?.i).toBe(29);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
