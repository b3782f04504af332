// Reading the sanitization log (current and rotated files) back, and summarizing it per server and rule for `switchboard audit`.
import { createReadStream } from 'node:fs';
import { access } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { UsageError } from './flags.js';

export const ACTIONS = ['strip', 'neutralize', 'flag', 'block'] as const;
export type AuditAction = (typeof ACTIONS)[number];
export type ActionCounts = Record<AuditAction, number>;

/** The fields of a log record (sanitize/audit-record.ts) the summary reads; the rest is ignored. */
export interface LogEntry {
  readonly time: string;
  /** Milliseconds since the epoch, parsed once. */
  readonly at: number;
  readonly server: string;
  readonly entity: string;
  readonly tool: string;
  readonly exposedAs: string | null;
  readonly rule: string;
  readonly action: AuditAction;
  readonly decoded: string | null;
  readonly key: string | undefined;
  /** The instance that wrote it (several daemons behind one balancer), when it says. */
  readonly instance: string | undefined;
}

export interface RuleSummary {
  readonly rule: string;
  readonly records: number;
  readonly actions: ActionCounts;
  readonly newest: string;
}

export interface WithheldSummary {
  readonly entity: string;
  readonly name: string;
  readonly rules: readonly string[];
  readonly newest: string;
}

export interface ServerSummary {
  readonly server: string;
  readonly records: number;
  readonly actions: ActionCounts;
  readonly rules: readonly RuleSummary[];
  readonly withheld: readonly WithheldSummary[];
  readonly suspect: boolean;
  /** Why it is suspect, one phrase each; empty when it is not. */
  readonly suspectReasons: readonly string[];
  readonly newest: string;
}

/**
 * Rules that describe a hidden channel itself, not what it says: their `decoded` is the payload
 * (tag text, a comment, an image URL), which is an instruction only when a content rule says so.
 */
const CHANNEL_RULES = new Set([
  'unicode-tag',
  'zero-width',
  'bidi-control',
  'variation-selector-smuggling',
  'ansi-escape',
  'control-char',
  'html-comment',
  'markdown-image',
  'whitespace-padding',
  'oversize',
  'cross-server-reference',
]);

const UNIT_MS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** `--since 30m|24h|7d|2w` in milliseconds; anything else is a usage error. */
export function parseSince(value: string): number {
  const m = /^(\d{1,6})([mhdw])$/.exec(value.trim());
  const n = m === null ? 0 : Number(m[1]);
  if (m === null || n === 0) throw new UsageError(`--since expects a positive duration like 30m, 24h, 7d or 2w, got "${value}"`);
  return n * UNIT_MS[m[2]!]!;
}

/** The log's files, oldest first (`path.N` ... `path.1`, then `path`), those that exist. */
export async function logFiles(path: string, keep: number): Promise<string[]> {
  const candidates = [...Array.from({ length: keep }, (_, i) => `${path}.${keep - i}`), path];
  const found: string[] = [];
  for (const file of candidates) {
    try {
      await access(file);
      found.push(file);
    } catch {
      // Not rotated that far (yet).
    }
  }
  return found;
}

/**
 * Every readable record of the files, each key once (a rotation racing the read may show a line
 * twice, and several instances' logs hold the same finding of a shared server's tool). A torn
 * last line (the daemon is appending, or crashed mid-line) or foreign text is counted in
 * `skipped`, never fatal.
 */
export async function readEntries(files: readonly string[]): Promise<{ entries: LogEntry[]; skipped: number }> {
  const entries: LogEntry[] = [];
  const keys = new Set<string>();
  let skipped = 0;
  for (const file of files) {
    const lines = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
    for await (const line of lines) {
      if (line.trim() === '') continue;
      const entry = parseEntry(line);
      if (entry === undefined) skipped += 1;
      else if (entry.key === undefined || !keys.has(entry.key)) {
        if (entry.key !== undefined) keys.add(entry.key);
        entries.push(entry);
      }
    }
  }
  return { entries, skipped };
}

export function parseEntry(line: string): LogEntry | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return undefined;
  const r = raw as Record<string, unknown>;
  const { time, server, tool, rule, action } = r;
  if (typeof time !== 'string' || typeof server !== 'string' || typeof tool !== 'string' || typeof rule !== 'string') return undefined;
  if (!(ACTIONS as readonly unknown[]).includes(action)) return undefined;
  const at = Date.parse(time);
  if (Number.isNaN(at)) return undefined;
  // Defense in depth: the writer escapes, but the file is only text on disk; what we print must be inert.
  return {
    time: new Date(at).toISOString(),
    at,
    server: inert(server),
    entity: typeof r.entity === 'string' ? inert(r.entity) : 'tool',
    tool: inert(tool),
    exposedAs: typeof r.exposed_as === 'string' ? inert(r.exposed_as) : null,
    rule: inert(rule),
    action: action as AuditAction,
    decoded: typeof r.decoded === 'string' ? r.decoded : null,
    key: typeof r.key === 'string' ? r.key : undefined,
    instance: typeof r.instance === 'string' ? inert(r.instance) : undefined,
  };
}

/** Controls, format characters and line separators as visible escapes: nothing in the output can steer a terminal. */
export function inert(text: string): string {
  return text.replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Co}\p{Cs}]/gu, (ch) => {
    const cp = ch.codePointAt(0)!;
    return cp < 0x100 ? `\\x${cp.toString(16).padStart(2, '0')}` : `\\u{${cp.toString(16).toUpperCase()}}`;
  });
}

/**
 * Per server (first seen first) and rule (most records first): counts by action, the entities
 * withheld in the window with the rules that withheld them, and whether the server is suspect.
 *
 * Suspect (SANITIZE.md "What to block"), decided from the records alone as review.ts decides it
 * from one listing: two or more entities (not counting the server's instructions) withheld, or
 * a content finding whose `decoded` is set, i.e. a hidden channel (tag characters, base64/hex,
 * a reversed bidi run) that decodes to an instruction. The log is history: a tool withheld and
 * approved since still counts here; `switchboard check` shows the current state.
 */
export function summarize(entries: readonly LogEntry[]): ServerSummary[] {
  const byServer = new Map<string, LogEntry[]>();
  for (const entry of entries) {
    const list = byServer.get(entry.server);
    if (list === undefined) byServer.set(entry.server, [entry]);
    else list.push(entry);
  }
  return [...byServer].map(([server, list]) => summarizeServer(server, list));
}

function summarizeServer(server: string, list: readonly LogEntry[]): ServerSummary {
  const rules = new Map<string, { records: number; actions: ActionCounts; newest: string }>();
  const withheld = new Map<string, { entity: string; name: string; rules: Set<string>; newest: string }>();
  const actions = noActions();
  let hidden = 0;
  let newest = '';
  for (const e of list) {
    actions[e.action] += 1;
    newest = later(newest, e.time);
    const rule = rules.get(e.rule) ?? { records: 0, actions: noActions(), newest: '' };
    rule.records += 1;
    rule.actions[e.action] += 1;
    rule.newest = later(rule.newest, e.time);
    rules.set(e.rule, rule);
    if (e.action === 'block' && e.exposedAs === null) {
      const id = `${e.entity}\u0000${e.tool}`;
      const w = withheld.get(id) ?? { entity: e.entity, name: e.tool, rules: new Set<string>(), newest: '' };
      w.rules.add(e.rule);
      w.newest = later(w.newest, e.time);
      withheld.set(id, w);
    }
    if (e.decoded !== null && !CHANNEL_RULES.has(e.rule)) hidden += 1;
  }
  const blocked = [...withheld.values()].filter((w) => w.entity !== 'instructions').length;
  const suspectReasons = [
    ...(blocked >= 2 ? [`${blocked} entities withheld`] : []),
    ...(hidden > 0 ? [`${hidden} hidden-channel finding${hidden === 1 ? '' : 's'} decoding to an instruction`] : []),
  ];
  return {
    server,
    records: list.length,
    actions,
    rules: [...rules]
      .map(([rule, r]) => ({ rule, ...r }))
      .sort((a, b) => b.records - a.records || a.rule.localeCompare(b.rule)),
    withheld: [...withheld.values()].map((w) => ({ entity: w.entity, name: w.name, rules: [...w.rules].sort(), newest: w.newest })),
    suspect: suspectReasons.length > 0,
    suspectReasons,
    newest,
  };
}

function noActions(): ActionCounts {
  return { strip: 0, neutralize: 0, flag: 0, block: 0 };
}

/** The later of two ISO times (normalized by parseEntry, so they compare as strings). */
function later(a: string, b: string): string {
  return b > a ? b : a;
}
