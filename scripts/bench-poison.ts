// Benchmark: how much poison the sanitizer withholds, how many real tools it withholds, and what it costs.
//
//   npm run bench:poison [-- --baseline REF] [--verbose] [--json FILE]
//
// Poison: bench/poison/tune/*.jsonl (the part rules may be tuned on, with the hand-written corpus of
// test/fixtures/poison-corpus) and bench/poison/heldout/*.jsonl (measured only). Each line is a
// case {id, class, server, siblings[], tool}. The siblings are tools the model also sees: for a
// poisoned case they belong to another server of the catalog (the tools an attack steers); for a
// benign case they are the tool's own server's. Real tools: every definition in
// bench/discovery/catalog/ (1,087 tools of 58 servers), each judged in the whole catalog's company.
// Cost: sanitizing the real catalog cold, per 1,000 tools, against the sanitizer of REF (default the
// last release, extracted with git archive; src/sanitize imports nothing outside itself).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as current from '../src/sanitize/index.js';

type Sanitizer = typeof current;
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const LAST_RELEASE = 'c819c77';

const argValue = (name: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const VERBOSE = process.argv.includes('--verbose');
const BASELINE_REF = argValue('baseline') ?? LAST_RELEASE;
const JSON_FILE = argValue('json');

interface Tool {
  name: string;
  description?: string;
  [key: string]: unknown;
}
interface Case {
  id: string;
  cls: string;
  server: string;
  siblings: string[];
  tool: Tool;
  part: 'tune' | 'heldout';
  benign: boolean;
}

function readJsonl(file: string, part: Case['part']): Case[] {
  const out: Case[] = [];
  for (const [i, line] of fs.readFileSync(file, 'utf8').split('\n').entries()) {
    if (!line.trim()) continue;
    let raw: Record<string, unknown>;
    try {
      raw = JSON.parse(line) as Record<string, unknown>;
    } catch (err) {
      throw new Error(`${path.relative(ROOT, file)}:${i + 1}: ${(err as Error).message}`);
    }
    const cls = String(raw['class']);
    out.push({
      id: String(raw['id']),
      cls,
      // A poisoned case's server is its own, never one of the real catalog's (whose tools it would
      // then own); a benign case adapted from a real server keeps that server's name and tools.
      server: cls === 'benign' ? String(raw['server'] ?? 'srv') : `case-${typeof raw['server'] === 'string' ? raw['server'] : 'srv'}`,
      siblings: Array.isArray(raw['siblings']) ? (raw['siblings'] as unknown[]).map(String) : [],
      tool: raw['tool'] as Tool,
      part,
      benign: cls === 'benign',
    });
  }
  return out;
}

function corpusDir(part: Case['part']): Case[] {
  const dir = path.join(ROOT, 'bench/poison', part);
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir).filter((f) => f.endsWith('.jsonl')).sort().flatMap((f) => readJsonl(path.join(dir, f), part));
}

async function fixtureCorpus(): Promise<Case[]> {
  const poison = (await import(pathToFileURL(path.join(ROOT, 'test/fixtures/poison-corpus/poison.mjs')).href)) as {
    POISON: { id: string; cls: number; tool: Tool }[];
  };
  const benign = (await import(pathToFileURL(path.join(ROOT, 'test/fixtures/poison-corpus/benign.mjs')).href)) as {
    BENIGN: { id: string; siblings?: string[]; tool: Tool }[];
  };
  const OTHER = ['list_directory', 'read_file', 'send_email', 'run_command', 'create_issue', 'query_database', 'slack_post_message', 'git_push', 'write_file', 'fetch_url'];
  return [
    ...poison.POISON.map((c) => ({ id: c.id, cls: `fixture-${c.cls}`, server: 'srv', siblings: OTHER, tool: c.tool, part: 'tune' as const, benign: false })),
    ...benign.BENIGN.map((c) => ({ id: c.id, cls: 'benign', server: 'srv', siblings: c.siblings ?? [], tool: c.tool, part: 'tune' as const, benign: true })),
  ];
}

interface RealServer {
  server: string;
  tools: Tool[];
}

/**
 * Real servers' tool lists: the discovery catalog (58 servers), and six collections gathered for this
 * benchmark (bench/poison/real*, 440 servers), each split by server in alternation into a part the
 * rules may be checked against by name (and the learned second opinion is trained and calibrated on)
 * and a part that is only counted.
 */
type RealSet = 'catalog' | 'real-tune' | 'real-heldout' | 'fresh-tune' | 'fresh-heldout' | 'more-tune' | 'more-heldout' | 'extra-tune' | 'extra-heldout' | 'sixth-tune' | 'sixth-heldout' | 'seventh-tune' | 'seventh-heldout';

function realSets(): Map<RealSet, RealServer[]> {
  const more = realCatalog('bench/poison/real');
  // 60 servers collected later (bench/poison/real-fresh), split the same way.
  const fresh = realCatalog('bench/poison/real-fresh');
  // And 77 more (bench/poison/real-more).
  const moreStill = realCatalog('bench/poison/real-more');
  // And 88 more (bench/poison/real-extra).
  const extra = realCatalog('bench/poison/real-extra');
  // And 113 more (bench/poison/real-sixth).
  const sixth = realCatalog('bench/poison/real-sixth');
  // And 13 more (bench/poison/real-seventh): what npm's list still held.
  const seventh = realCatalog('bench/poison/real-seventh');
  return new Map<RealSet, RealServer[]>([
    ['catalog', realCatalog('bench/discovery/catalog')],
    ['real-tune', more.filter((_, i) => i % 2 === 0)],
    ['real-heldout', more.filter((_, i) => i % 2 === 1)],
    ['fresh-tune', fresh.filter((_, i) => i % 2 === 0)],
    ['fresh-heldout', fresh.filter((_, i) => i % 2 === 1)],
    ['more-tune', moreStill.filter((_, i) => i % 2 === 0)],
    ['more-heldout', moreStill.filter((_, i) => i % 2 === 1)],
    ['extra-tune', extra.filter((_, i) => i % 2 === 0)],
    ['extra-heldout', extra.filter((_, i) => i % 2 === 1)],
    ['sixth-tune', sixth.filter((_, i) => i % 2 === 0)],
    ['sixth-heldout', sixth.filter((_, i) => i % 2 === 1)],
    ['seventh-tune', seventh.filter((_, i) => i % 2 === 0)],
    ['seventh-heldout', seventh.filter((_, i) => i % 2 === 1)],
  ]);
}

function realCatalog(folder = 'bench/discovery/catalog'): RealServer[] {
  const dir = path.join(ROOT, folder);
  return fs.readdirSync(dir).filter((f) => f.endsWith('.json') && f !== 'packages.json').sort().map((f) => {
    const raw = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as RealServer;
    return { server: raw.server, tools: raw.tools };
  });
}

const SIBLING_SERVER = 'elsewhere';

function judgeCase(s: Sanitizer, c: Case, real: RealServer[]): ReturnType<Sanitizer['sanitizeEntity']> {
  // A poisoned case's siblings are another server's tools; a benign case's are its own server's.
  const own = new Set([c.tool.name, ...(c.benign ? c.siblings : [])]);
  const servers = real.map((r) => ({ server: r.server, tools: r.tools.map((t) => t.name) }));
  if (!c.benign && c.siblings.length > 0) servers.push({ server: SIBLING_SERVER, tools: c.siblings.filter((n) => n !== c.tool.name) });
  servers.push({ server: c.server, tools: [...own] });
  const index = new s.CatalogIndex(servers);
  return s.sanitizeEntity('tool', c.tool, { server: c.server, ownToolNames: own, otherServers: index, blocking: true });
}

function realIndex(s: Sanitizer, real: RealServer[]): InstanceType<Sanitizer['CatalogIndex']> {
  return new s.CatalogIndex(real.map((r) => ({ server: r.server, tools: r.tools.map((t) => t.name) })));
}

interface RealOutcome {
  server: string;
  tool: string;
  blocked: boolean;
  findings: { rule: string; action: string; field: string; reason: string }[];
}

function judgeReal(s: Sanitizer, real: RealServer[]): RealOutcome[] {
  const index = realIndex(s, real);
  const out: RealOutcome[] = [];
  for (const r of real) {
    const own = new Set(r.tools.map((t) => t.name));
    for (const t of r.tools) {
      const res = s.sanitizeEntity('tool', t, { server: r.server, ownToolNames: own, otherServers: index, blocking: true });
      out.push({
        server: r.server,
        tool: t.name,
        blocked: res.blocked,
        findings: res.findings.map((f) => ({ rule: f.rule, action: f.action, field: f.field, reason: f.reason })),
      });
    }
  }
  return out;
}

/** Milliseconds to sanitize the real catalog once with every cache cold. */
function onePass(s: Sanitizer, real: RealServer[], index: InstanceType<Sanitizer['CatalogIndex']>): number {
  s.clearSanitizeCaches();
  const t0 = process.hrtime.bigint();
  for (const r of real) {
    const own = new Set(r.tools.map((t) => t.name));
    for (const t of r.tools) s.sanitizeEntity('tool', t, { server: r.server, ownToolNames: own, otherServers: index, blocking: true });
  }
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/**
 * Both sanitizers, warmed, then in alternating passes (ABBA) so that the machine's other load falls
 * on both alike; the medians of each.
 */
function costs(a: Sanitizer, b: Sanitizer | undefined, real: RealServer[], rounds = 6): { a: number; b: number | undefined } {
  const ia = realIndex(a, real);
  const ib = b ? realIndex(b, real) : undefined;
  for (let i = 0; i < 2; i++) {
    onePass(a, real, ia);
    if (b && ib) onePass(b, real, ib);
  }
  const ta: number[] = [];
  const tb: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const order = i % 2 === 0 ? ['a', 'b'] : ['b', 'a'];
    for (const which of order) {
      if (which === 'a') ta.push(onePass(a, real, ia));
      else if (b && ib) tb.push(onePass(b, real, ib));
    }
  }
  return { a: median(ta), b: b ? median(tb) : undefined };
}

async function baselineSanitizer(ref: string): Promise<Sanitizer | undefined> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-poison-base-'));
  // Loaded modules stay in memory: the copy can go when the run ends.
  process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  try {
    // All of src/: the sanitizer of a later release imports beyond its folder (audit-log.ts the rotating log).
    const tar = execFileSync('git', ['-C', ROOT, 'archive', ref, 'src'], { maxBuffer: 64 << 20 });
    execFileSync('tar', ['-x', '-C', dir], { input: tar });
  } catch {
    process.stderr.write(`bench:poison: cannot extract src at ${ref}; no baseline cost\n`);
    return undefined;
  }
  return (await import(pathToFileURL(path.join(dir, 'src/sanitize/index.ts')).href)) as Sanitizer;
}

const pct = (n: number, d: number): string => (d === 0 ? '-' : `${((100 * n) / d).toFixed(1)} %`);

async function main(): Promise<void> {
  const real = realCatalog();
  const cases = [...(await fixtureCorpus()), ...corpusDir('tune'), ...corpusDir('heldout')];
  const rows: { part: string; cls: string; caught: number; total: number; missed: string[] }[] = [];
  // Held-out detection by the batch a case came from (its id without the number): each batch had
  // its own writer, so a weak batch is a voice the sanitizer does not yet read.
  const byBatch = new Map<string, { caught: number; total: number }>();
  for (const part of ['tune', 'heldout'] as const) {
    const byClass = new Map<string, Case[]>();
    for (const c of cases.filter((x) => x.part === part)) {
      const list = byClass.get(c.cls) ?? [];
      list.push(c);
      byClass.set(c.cls, list);
    }
    for (const [cls, list] of [...byClass.entries()].sort(([a], [b]) => a.localeCompare(b))) {
      const benign = cls === 'benign';
      const missed: string[] = [];
      let caught = 0;
      for (const c of list) {
        const r = judgeCase(current, c, real);
        // For poison "caught" is withheld; for benign cases it is served (a flag is allowed).
        if (part === 'heldout') {
          const batch = `${c.id.replace(/-\d+$/, '')} (${cls})`;
          const b = byBatch.get(batch) ?? { caught: 0, total: 0 };
          b.total++;
          if (r.blocked !== benign) b.caught++;
          byBatch.set(batch, b);
        }
        if (r.blocked !== benign) caught++;
        else missed.push(benign ? `${c.id} ${r.findings.filter((f) => f.action === 'block').map((f) => `${f.rule}: ${f.reason}`).join('; ')}` : c.id);
      }
      rows.push({ part, cls, caught, total: list.length, missed });
    }
  }

  const outcomes = judgeReal(current, real);
  const withheld = outcomes.filter((o) => o.blocked);
  const flagged = outcomes.filter((o) => !o.blocked && o.findings.some((f) => f.action === 'flag'));
  // The collected servers, judged in the company of every real server (498): a large deployment.
  const sets = realSets();
  const everyServer = [...sets.values()].flat();
  const moreOutcomes = judgeReal(current, everyServer).filter((o) => !real.some((r) => r.server === o.server));
  const setOf = new Map<string, RealSet>();
  for (const [set, servers] of sets) for (const r of servers) setOf.set(r.server, set);

  const base = BASELINE_REF === 'none' ? undefined : await baselineSanitizer(BASELINE_REF);
  const measured = costs(current, base, real);
  const msNow = measured.a;
  const msBase = measured.b;
  const baseOutcomes = base ? judgeReal(base, real) : undefined;

  const lines: string[] = [];
  lines.push('## Poison withheld (benign: served)', '', '| part | class | caught | of | rate |', '|---|---|---:|---:|---:|');
  for (const r of rows) lines.push(`| ${r.part} | ${r.cls} | ${r.caught} | ${r.total} | ${pct(r.caught, r.total)} |`);
  for (const part of ['tune', 'heldout']) {
    const poison = rows.filter((r) => r.part === part && r.cls !== 'benign');
    const caught = poison.reduce((a, r) => a + r.caught, 0);
    const total = poison.reduce((a, r) => a + r.total, 0);
    lines.push(`| ${part} | **all poison** | ${caught} | ${total} | ${pct(caught, total)} |`);
  }
  lines.push('', '## Held-out by batch (poison: withheld; benign: served)', '', '| batch | caught | of | rate |', '|---|---:|---:|---:|');
  for (const [batch, b] of [...byBatch].sort(([x], [y]) => x.localeCompare(y))) lines.push(`| ${batch} | ${b.caught} | ${b.total} | ${pct(b.caught, b.total)} |`);
  lines.push('', `## Real tools (${outcomes.length} of ${real.length} servers)`, '');
  lines.push(`withheld: ${withheld.length}; served with a flag: ${flagged.length}`);
  for (const o of withheld) {
    lines.push(`- WITHHELD ${o.server}/${o.tool}: ${o.findings.filter((f) => f.action === 'block').map((f) => `${f.rule} at ${f.field}: ${f.reason}`).join('; ')}`);
  }
  for (const o of flagged) {
    lines.push(`- flag ${o.server}/${o.tool}: ${o.findings.filter((f) => f.action === 'flag').map((f) => `${f.rule} at ${f.field}: ${f.reason}`).join('; ')}`);
  }
  // Every collection after the catalog, in the order realSets() lists them.
  for (const set of [...sets.keys()].filter((name) => name !== 'catalog')) {
    const mine = moreOutcomes.filter((o) => setOf.get(o.server) === set);
    const held = mine.filter((o) => o.blocked);
    lines.push('', `## More real tools, ${set} (${mine.length} of ${sets.get(set)!.length} servers, judged among all ${everyServer.length} real servers)`, '');
    lines.push(`withheld: ${held.length}; served with a flag: ${mine.filter((o) => !o.blocked && o.findings.some((f) => f.action === 'flag')).length}`);
    // The held-out halves are counted by rule only, never read tool by tool.
    if (set.endsWith('-heldout')) {
      const rules = new Map<string, number>();
      for (const o of held) for (const f of o.findings) if (f.action === 'block') rules.set(f.rule, (rules.get(f.rule) ?? 0) + 1);
      if (rules.size > 0) lines.push(`withheld by rule: ${[...rules].map(([r, n]) => `${r} ${n}`).join(', ')}`);
    } else {
      for (const o of held) lines.push(`- WITHHELD ${o.server}/${o.tool}: ${o.findings.filter((f) => f.action === 'block').map((f) => `${f.rule} at ${f.field}: ${f.reason}`).join('; ')}`);
      if (VERBOSE) for (const o of mine.filter((x) => !x.blocked && x.findings.some((f) => f.action === 'flag'))) {
        lines.push(`- flag ${o.server}/${o.tool}: ${o.findings.filter((f) => f.action === 'flag').map((f) => `${f.rule} at ${f.field}: ${f.reason}`).join('; ')}`);
      }
    }
  }
  lines.push('', '## Cost (sanitizing the real catalog with cold caches; medians of 6 alternating passes each, after 2 warm-up passes)', '');
  const per1000 = (ms: number): string => `${((ms * 1000) / outcomes.length).toFixed(1)} ms`;
  lines.push(`this tree: ${per1000(msNow)} per 1,000 tools`);
  if (msBase !== undefined && baseOutcomes) {
    lines.push(`${BASELINE_REF}: ${per1000(msBase)} per 1,000 tools (ratio ${(msNow / msBase).toFixed(2)}); it withheld ${baseOutcomes.filter((o) => o.blocked).length} real tools`);
  }
  if (VERBOSE) {
    lines.push('', '## Missed');
    // Only the tune part's misses: the held-out part is measured, never read case by case.
    for (const r of rows) if (r.part === 'tune' && r.missed.length > 0) lines.push(`- ${r.part}/${r.cls}: ${r.missed.join(', ')}`);
  }
  process.stdout.write(`${lines.join('\n')}\n`);
  const summary = rows.map(({ part, cls, caught, total }) => ({ part, cls, caught, total }));
  if (JSON_FILE) fs.writeFileSync(JSON_FILE, JSON.stringify({ rows: summary, withheld, flagged, msNow, msBase, tools: outcomes.length, more: moreOutcomes.map((o) => ({ set: setOf.get(o.server), blocked: o.blocked })) }, null, 1));
}

main().catch((err: unknown) => {
  process.stderr.write(`bench:poison: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
