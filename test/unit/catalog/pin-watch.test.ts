// The daemon follows the pin file (approvals come from another process) without reacting to its own saves.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CatalogReview, type ReviewInput } from '../../../src/catalog/review.js';
import { resolveConfig } from '../../../src/config/load.js';
import { silentLogger } from '../../../src/log.js';
import { PinStore, serverId } from '../../../src/sanitize/index.js';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-pin-watch-'));
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

const tool = (description: string) => ({ name: 'read', description, inputSchema: { type: 'object' } });

function inputs(servers: Record<string, unknown>, descriptions: string[]): ReviewInput[] {
  const config = resolveConfig({ mcpServers: servers }, { file: '<inline>', dir }, process.env);
  return config.servers.map((server, i) => ({
    config: server,
    lists: { tools: [tool(descriptions[i] ?? 'Reads a file.')], prompts: [], resources: [], resourceTemplates: [] },
    instructions: undefined,
    listing: 1,
  }));
}

interface Watched {
  readonly review: CatalogReview;
  changes(): number;
  /** Resolves with what the watcher's next reload of the pin file found (true: pins new to it), in order. */
  nextReload(): Promise<boolean>;
}

async function watched(listed: ReviewInput[]): Promise<Watched> {
  const pins = await PinStore.open(path.join(dir, 'pins.json'));
  const review = new CatalogReview({ pins, auditLog: undefined, blocking: true, separator: '__', log: silentLogger(), persistPins: true });
  let changes = 0;
  const reloads: boolean[] = [];
  let taken = 0;
  // What the core does on a pin change: review the whole catalog again.
  review.watchPins(
    () => {
      changes += 1;
      review.run(listed);
    },
    (changed) => void reloads.push(changed),
  );
  review.run(listed);
  const nextReload = async (): Promise<boolean> => {
    await vi.waitFor(() => expect(reloads.length).toBeGreaterThan(taken), { timeout: 10_000, interval: 10 });
    return reloads[taken++]!;
  };
  return { review, changes: () => changes, nextReload };
}

describe('CatalogReview.watchPins', () => {
  it('does not re-review after its own save, even when every review changes the pins', async () => {
    // Two servers on one command line (they differ in env) share pin entries: each review renames
    // and re-pends them, so each review saves. Reacting to those saves looped for ever.
    const same = { command: process.execPath, args: ['fs.js'] };
    const listed = inputs({ work: { ...same, env: { ROOT: '/w' } }, home: { ...same, env: { ROOT: '/h' } } }, ['Reads a file.', 'Reads a file (home).']);
    const { review, changes, nextReload } = await watched(listed);
    // The watcher looks at the file its own save wrote, and finds nothing new: no second review.
    expect(await nextReload()).toBe(false);
    await review.close();
    expect(changes()).toBe(0);
  });

  it('re-reviews when another process approves', async () => {
    const listed = inputs({ fs: { command: process.execPath, args: ['fs.js'] } }, ['Reads a file.']);
    const { review, changes, nextReload } = await watched(listed);
    expect(await nextReload()).toBe(false);
    expect(changes()).toBe(0);
    const id = serverId(listed[0]!.config.command, listed[0]!.config.args, listed[0]!.config.cwd);
    // `switchboard approve` in another process: a store of its own, saved over the file.
    const other = await PinStore.open(path.join(dir, 'pins.json'));
    other.checkEntity(id, 'read', tool('Reads a file, then some.'));
    expect(other.approve(id, 'read')).toBe(1);
    expect((await other.save()).ok).toBe(true);
    expect(await nextReload()).toBe(true);
    await review.close();
    expect(changes()).toBe(1);
  });
});

