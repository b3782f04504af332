// CatalogReview across listings: findings reported once, pins per server identity, accepted updates logged.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CatalogReview, pinIdentity, type FindingNote, type ReviewInput } from '../../../src/catalog/review.js';
import { resolveConfig } from '../../../src/config/load.js';
import type { ServerConfig } from '../../../src/config/types.js';
import type { JsonObject } from '../../../src/jsonrpc/messages.js';
import { silentLogger } from '../../../src/log.js';
import { AuditLog, PinStore, type AuditRecord } from '../../../src/sanitize/index.js';

let dir: string;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-review-'));
});

afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

function server(args: string[], extra: Record<string, unknown> = {}): ServerConfig {
  const raw = { mcpServers: { calc: { command: process.execPath, args, ...extra } } };
  return resolveConfig(raw, { file: '<inline>', dir }, process.env).servers[0]!;
}

function input(config: ServerConfig, tools: JsonObject[], listing = 1): ReviewInput {
  return { config, lists: { tools, prompts: [], resources: [], resourceTemplates: [] }, instructions: undefined, listing };
}

async function reviewWith(auditLog?: AuditLog): Promise<{ review: CatalogReview; notes: FindingNote[] }> {
  const pins = await PinStore.open(path.join(dir, 'pins.json'));
  const review = new CatalogReview({ pins, auditLog, blocking: true, separator: '__', log: silentLogger(), persistPins: false });
  const notes: FindingNote[] = [];
  review.onFinding = (note) => void notes.push(note);
  return { review, notes };
}

const tool = (description: string): JsonObject => ({ name: 'add', description, inputSchema: { type: 'object' } });
const hidden = tool('Adds\u200b two numbers.');

describe('CatalogReview', () => {
  it('reports a finding once even when listings follow each other faster than the log is written', async () => {
    const auditLog = await AuditLog.open({ path: path.join(dir, 'sanitize.jsonl') });
    const { review, notes } = await reviewWith(auditLog);
    const calc = server(['calc.js']);
    // Each server's first listing re-reviews the whole catalog: the same finding comes back at once.
    review.run([input(calc, [hidden])]);
    review.run([input(calc, [{ ...hidden }], 2)]);
    await review.close();
    expect(notes.map((n) => n.rule)).toEqual(['zero-width']);
    expect(readLog()).toHaveLength(1);
  });

  it('tries a finding again on the next listing when the log could not be written', async () => {
    const blocker = path.join(dir, 'logs');
    fs.writeFileSync(blocker, 'a file where the log directory should be');
    const auditLog = await AuditLog.open({ path: path.join(blocker, 'sanitize.jsonl') });
    const { review } = await reviewWith(auditLog);
    const calc = server(['calc.js']);
    review.run([input(calc, [hidden])]);
    await auditLog.close();
    fs.rmSync(blocker);
    fs.mkdirSync(blocker);
    review.run([input(calc, [hidden], 2)]);
    await review.close();
    const lines = fs.readFileSync(path.join(blocker, 'sanitize.jsonl'), 'utf8').trim().split('\n');
    expect(lines.map((line) => (JSON.parse(line) as AuditRecord).rule)).toEqual(['zero-width']);
  });

  it('pins tools under a changed command line, so a later change there is a rug pull', async () => {
    const { review } = await reviewWith();
    review.run([input(server(['v1.js']), [tool('Adds two numbers.')])]);
    // A reload changes the command line: a new identity, whose tools must be pinned as first seen.
    const moved = server(['v2.js']);
    expect(review.run([input(moved, [tool('Adds two numbers.')])]).get('calc')?.withheld).toEqual([]);
    const changed = review.run([input(moved, [tool('Adds two numbers, and more.')])]).get('calc');
    expect(changed?.withheld).toEqual([{ entity: 'tool', name: 'add', rules: ['rug-pull'] }]);
  });

  it('logs an update accepted under acceptUpdates as a rug-pull flag, and keeps the tool', async () => {
    const auditLog = await AuditLog.open({ path: path.join(dir, 'sanitize.jsonl') });
    const { review } = await reviewWith(auditLog);
    const trusting = server(['calc.js'], { acceptUpdates: true });
    review.run([input(trusting, [tool('Adds two numbers.')])]);
    const after = review.run([input(trusting, [tool('Adds two numbers, and more.')], 2)]).get('calc');
    await review.close();
    expect(after?.withheld).toEqual([]);
    expect(after?.lists.tools).toHaveLength(1);
    const records = readLog();
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ rule: 'rug-pull', action: 'flag', tool: 'add', exposed_as: 'calc__add', diff: ['description'] });
  });

  it('pins two servers with the same command line apart, so neither reads the other as a rug pull', async () => {
    const raw = {
      mcpServers: {
        work: { command: process.execPath, args: ['gh.js'], env: { TOKEN: 'w' } },
        home: { command: process.execPath, args: ['gh.js'], env: { TOKEN: 'h' } },
      },
    };
    const [work, home] = resolveConfig(raw, { file: '<inline>', dir }, process.env).servers as [ServerConfig, ServerConfig];
    expect(pinIdentity(work, [work, home])).not.toBe(pinIdentity(home, [work, home]));
    // Alone, a server keeps the plain command-line identity (a rename keeps its pins).
    expect(pinIdentity(work, [work])).toBe(pinIdentity({ ...work, name: 'renamed' }, [{ ...work, name: 'renamed' }]));
    const { review } = await reviewWith();
    for (let listing = 1; listing <= 3; listing += 1) {
      const out = review.run([input(work, [tool('Adds two numbers.')], listing), input(home, [tool('Adds two numbers, with carry.')], listing)]);
      expect(out.get('work')?.withheld).toEqual([]);
      expect(out.get('home')?.withheld).toEqual([]);
    }
  });
});

function readLog(): AuditRecord[] {
  const file = path.join(dir, 'sanitize.jsonl');
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as AuditRecord);
}
