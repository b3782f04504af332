// The tune part of the poison corpus (bench/poison/tune) against the sanitizer, each case among the
// 1,087 real tool definitions of bench/discovery/catalog, and those real tools themselves: the
// floors below are what the rules reach on the tune part; the real tools are never withheld.
// (The held-out part, bench/poison/heldout, is measured by `npm run bench:poison`, never here.)
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CatalogIndex, sanitizeEntity } from '../../../src/sanitize/index.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');

interface Tool {
  name: string;
  [key: string]: unknown;
}
interface Case {
  id: string;
  class: string;
  server: string;
  siblings?: string[];
  tool: Tool;
}

const real = fs
  .readdirSync(path.join(ROOT, 'bench/discovery/catalog'))
  .filter((f) => f.endsWith('.json'))
  .map((f) => JSON.parse(fs.readFileSync(path.join(ROOT, 'bench/discovery/catalog', f), 'utf8')) as { server: string; tools: Tool[] });
const realServers = real.map((r) => ({ server: r.server, tools: r.tools.map((t) => t.name) }));

const tune: Case[] = fs
  .readdirSync(path.join(ROOT, 'bench/poison/tune'))
  .filter((f) => f.endsWith('.jsonl'))
  .flatMap((f) => fs.readFileSync(path.join(ROOT, 'bench/poison/tune', f), 'utf8').split('\n').filter((l) => l.trim()))
  .map((l) => JSON.parse(l) as Case);

function judge(c: Case): ReturnType<typeof sanitizeEntity> {
  const benign = c.class === 'benign';
  // As bench:poison: a poisoned case's siblings are another server's tools, a benign case's its own.
  const server = benign ? c.server : `case-${c.server}`;
  const own = new Set([c.tool.name, ...(benign ? (c.siblings ?? []) : [])]);
  const servers = [...realServers, { server, tools: [...own] }];
  if (!benign) servers.push({ server: 'elsewhere', tools: (c.siblings ?? []).filter((n) => n !== c.tool.name) });
  return sanitizeEntity('tool', c.tool, { server, ownToolNames: own, otherServers: new CatalogIndex(servers), blocking: true });
}

/** Share of each class withheld on the tune part (benign: served), as the rules stand; raise as they improve. */
const FLOORS: Record<string, number> = { p1: 0.98, p2: 0.98, p3: 0.98, p4: 0.97, d: 1, s: 1, benign: 0.98 };

describe('the poison corpus, tune part, among real tools', () => {
  it('holds at least 60 cases of each paradigm and 30 of each other class', () => {
    const count = (cls: string): number => tune.filter((c) => c.class === cls).length;
    for (const cls of ['p1', 'p2', 'p3', 'p4']) expect(count(cls), cls).toBeGreaterThanOrEqual(60);
    for (const cls of ['d', 's']) expect(count(cls), cls).toBeGreaterThanOrEqual(30);
  });

  for (const [cls, floor] of Object.entries(FLOORS)) {
    it(`${cls === 'benign' ? 'serves' : 'withholds'} at least ${Math.round(floor * 100)} % of class ${cls}`, () => {
      const cases = tune.filter((c) => c.class === cls);
      const right = cases.filter((c) => judge(c).blocked !== (cls === 'benign')).length;
      expect(right / cases.length).toBeGreaterThanOrEqual(floor);
    });
  }

  it('withholds none of the 1,087 real tool definitions', () => {
    const index = new CatalogIndex(realServers);
    const withheld: string[] = [];
    for (const r of real) {
      const own = new Set(r.tools.map((t) => t.name));
      for (const t of r.tools) {
        const res = sanitizeEntity('tool', t, { server: r.server, ownToolNames: own, otherServers: index, blocking: true });
        if (res.blocked) withheld.push(`${r.server}/${t.name}: ${res.findings.filter((f) => f.action === 'block').map((f) => f.rule).join(', ')}`);
      }
    }
    expect(real.reduce((n, r) => n + r.tools.length, 0)).toBe(1087);
    expect(withheld).toEqual([]);
  });
});
