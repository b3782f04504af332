// Cross-server rules: text of one server that names another server's tool, and whether it directs that tool's use.
import { usedAsData } from './name-as-data.js';
import { ownWords, valueOfOwnParameter } from './tool-refs.js';
import type { CatalogIndexLike, NameOwner } from './types.js';

export interface Mention {
  readonly start: number;
  readonly end: number;
  /** What the text names, and who owns it. */
  readonly what: string;
  /** A plain word in quotes ('mobile', `curl`): named, but not shown to be a tool or server. */
  readonly quotedWord: boolean;
}

export interface CrossHit {
  readonly rule: 'cross-server-shadowing' | 'cross-server-reference';
  readonly start: number;
  readonly end: number;
  readonly action: 'block' | 'flag';
  readonly reason: string;
}

/** Identifier-like tokens (`send_email`, `mail__send`, `github.create_issue`): distinctive enough to be a name. */
const COMPOUND = /(?<![a-z0-9])[a-z0-9]+(?:[_\-.:/][a-z0-9]+)+/g;
/** A plain word counts only where the text calls it a tool or server, or quotes it as code. */
const CALLED = /\b(?:tool|server|function|mcp) [`'"]?([a-z0-9]{3,64})\b|\b([a-z0-9]{3,64})\b[`'"]? (?:tool|server|mcp|function)\b/g;
const QUOTED = /[`'"]([a-z0-9]{3,64})[`'"]/g;

/**
 * A directive about another tool's arguments, recipients, prefixes or results, in the same sentence
 * as the mention (SANITIZE.md `cross-server-shadowing`): BCC, redirect, prefix, "when X returns...".
 */
const DIRECTIVE =
  /\b(?:bcc|cc:|recipients?|redirect|reroute|forward(?:ed)? (?:to|all|every)|prefix(?:ed)?|prepend(?:ed)?|append(?:ed)?|instead|replaced?|change[sd]?|modif(?:y|ied)|rewrite|override|must (?:be|include|use|always|contain|start|send|go|first)|always (?:include|add|set|pass|send|bcc|cc|prefix|append|prepend|copy|forward|route)|also (?:pass|send|include|call|add|copy|forward|bcc|cc)|(?:set|change) (?:the |its )?[a-z_]{1,30} (?:parameter|argument|field|to)|do not (?:use|call)|don't (?:use|call)|never (?:use|call)|deprecated|disabled|broken|no longer (?:works|available)|should not be used|is (?:unsafe|compromised|malicious)|(?:when|after|once|if) [^.\n]{0,60} returns|(?:pass|send|copy|hand|pipe|feed|forward|mirror|route|give)(?:es|ed)? (?:its|the|their|all|every|that|this|what it) [^.\n]{0,40}?(?:to|into|here|as)|(?:must|should|is to|are to) (?:also )?be (?:passed|sent|copied|forwarded|handed|piped|mirrored|fed) (?:to|into|here)|copy [^.\n]{0,40}? here|(?:whatever|each time|every time|after every|after each) [^.\n]{0,60}? (?:returns|runs|is used|is called|call|prints))\b/;

const NO_PARAMS: ReadonlySet<string> = new Set();

interface Owned {
  readonly what: string;
}

function lookup(token: string, index: CatalogIndexLike, server: string, own: ReadonlySet<string>, params: ReadonlySet<string>, servers: boolean): Owned | undefined {
  if (own.has(token) || params.has(token)) return undefined;
  // "The MySQL MCP server" in the text of server mysql_berthojoris is its own name.
  if (servers && server.split(/[_.-]/).includes(token)) return undefined;
  const tools = index.toolOwners(token);
  if (tools.length > 0) {
    let other: NameOwner | undefined;
    for (const o of tools) {
      if (o.server === server) return undefined; // the server's own tool of that name
      other ??= o;
    }
    if (other) return { what: `tool ${other.name} of server ${other.server}` };
  }
  if (!servers) return undefined;
  const owners = index.serverOwners(token);
  if (owners.length === 0 || owners.includes(server)) return undefined;
  return { what: `server ${owners[0]}` };
}

interface Candidate {
  readonly start: number;
  readonly end: number;
  /** Whole token, then its namespaced parts (compound), or the quoted/called word (plain). */
  readonly tokens: readonly string[];
  readonly servers: boolean;
  readonly quotedWord: boolean;
}

/** Candidate names of a text, independent of the catalog (remembered for short texts). */
const candidateMemo = new Map<string, readonly Candidate[]>();

export function clearCandidateMemo(): void {
  candidateMemo.clear();
}

function candidates(skel: string): readonly Candidate[] {
  const cached = skel.length <= 512 ? candidateMemo.get(skel) : undefined;
  if (cached) return cached;
  const found: Candidate[] = [];
  for (const m of skel.matchAll(COMPOUND)) {
    const token = m[0];
    // Namespaced forms: alias__tool, alias.tool, alias/tool, alias:tool (tool part only: a host in a URL is no mention).
    const parts = token.split(/__|[.:/]/).filter((p) => p.length >= 3 && p !== token && /[_-]/.test(p));
    found.push({ start: m.index, end: m.index + token.length, tokens: [token, ...parts], servers: false, quotedWord: false });
  }
  // Each regex only where its anchor words can be present (a cheap test that skips most text).
  if (/tool|server|function|mcp/.test(skel)) {
    for (const m of skel.matchAll(CALLED)) found.push({ start: m.index, end: m.index + m[0].length, tokens: [m[1] ?? m[2] ?? ''], servers: true, quotedWord: false });
  }
  if (/[`'"]/.test(skel)) {
    for (const m of skel.matchAll(QUOTED)) found.push({ start: m.index, end: m.index + m[0].length, tokens: [m[1] ?? ''], servers: true, quotedWord: true });
  }
  if (skel.length <= 512) {
    if (candidateMemo.size >= 20_000) candidateMemo.clear();
    candidateMemo.set(skel, found);
  }
  return found;
}

/** A called plain word whose word before is also a word of the server's own tool names. */
function ownPhrase(skel: string, c: Candidate, own: ReadonlySet<string>): boolean {
  const word = c.tokens[0] ?? '';
  const words = ownWords(own);
  if (word === '' || /[_.:/-]/.test(word) || !words.has(word)) return false;
  const before = /([a-z0-9]+)\s+$/.exec(skel.slice(Math.max(0, c.start - 32), c.start));
  return before !== null && words.has(before[1]!);
}

/** Mentions of other servers' tools or servers in a shadow text. */
export function mentions(skel: string, index: CatalogIndexLike, server: string, own: ReadonlySet<string>, params: ReadonlySet<string> = NO_PARAMS): Mention[] {
  const found: Mention[] = [];
  for (const c of candidates(skel)) {
    const around = sentence(skel, c.start, c.end);
    if (valueOfOwnParameter(around, around.indexOf(skel.slice(c.start, c.end)), params)) continue;
    // A key of a shown document, a command run on the tool's own path, its own operation shortened.
    if (!c.servers && usedAsData(skel, c.start, c.end, c.tokens[0] ?? '', params)) continue;
    // "Retry the remote devices tool" on a server with `mobile_list_remote_devices`: the phrase before
    // "tool" is the server's own naming, word for word; "the devices tool" is another server's.
    if (c.servers && ownPhrase(skel, c, own)) continue;
    for (const token of c.tokens) {
      const hit = lookup(token, index, server, own, params, c.servers);
      if (hit) {
        found.push({ start: c.start, end: c.end, what: hit.what, quotedWord: c.quotedWord });
        break;
      }
    }
  }
  return found;
}

/** The sentence around [start, end), at most 120 chars each way: a directive must be near the name it is about. */
function sentence(text: string, start: number, end: number): string {
  let a = start;
  while (a > 0 && start - a < 120 && !boundary(text, a - 1)) a--;
  let b = end;
  while (b < text.length && b - end < 120 && !boundary(text, b)) b++;
  return text.slice(a, b);
}

function boundary(text: string, i: number): boolean {
  const c = text[i];
  if (c === '\n') return text[i + 1] === '\n' || text[i - 1] === '\n';
  return (c === '.' || c === '!' || c === '?') && (i + 1 >= text.length || /\s/.test(text[i + 1]!));
}

export function crossServer(
  skel: string,
  index: CatalogIndexLike | undefined,
  server: string,
  own: ReadonlySet<string>,
  params: ReadonlySet<string> = NO_PARAMS,
): CrossHit[] {
  if (!index) return [];
  const hits: CrossHit[] = [];
  for (const m of mentions(skel, index, server, own, params)) {
    // A quoted plain word ('mobile', 'query', `curl`) is a value, a column or a command as often as
    // a tool: it is reported, and the directive analysis decides whether the sentence uses it as one.
    const directive = m.quotedWord ? null : DIRECTIVE.exec(sentence(skel, m.start, m.end));
    hits.push(
      directive
        ? { rule: 'cross-server-shadowing', start: m.start, end: m.end, action: 'block', reason: `names ${m.what} and directs its use ("${directive[0]}")` }
        : { rule: 'cross-server-reference', start: m.start, end: m.end, action: 'flag', reason: `names ${m.what}` },
    );
  }
  return hits;
}
