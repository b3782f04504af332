// Identity rules for names: invalid or confusable names (block), lookalikes and exact collisions across servers (flag).
import { nameSkeleton } from './confusables.js';
import type { CatalogIndexLike, NameOwner } from './types.js';

export interface ServerNames {
  readonly server: string;
  /** Other names the server is known by (its alias / tool prefix). */
  readonly aliases?: readonly string[];
  readonly tools: readonly string[];
}

const NONE: readonly never[] = [];
/** Names shorter than this are all one edit from each other (add/and, get/set): not worth comparing. */
const MIN_NEAR_LENGTH = 6;

/**
 * Every server's tool names and server names, indexed once per catalog change so that judging
 * 1,000 tools costs 1,000 lookups, not 1,000,000 comparisons. Near matches (edit distance 1) only
 * count when the first letter is shared (see ordinaryVariant), so names are bucketed by first letter
 * and length, and a name is compared with the few names of its length +-1 in its bucket.
 */
export class CatalogIndex implements CatalogIndexLike {
  private readonly tools = new Map<string, NameOwner[]>();
  private readonly servers = new Map<string, string[]>();
  private readonly skeletons = new Map<string, NameOwner[]>();
  private readonly near = new Map<string, { lower: string; owner: NameOwner }[]>();

  constructor(servers: readonly ServerNames[]) {
    for (const s of servers) {
      for (const n of [s.server, ...(s.aliases ?? [])]) add(this.servers, n.toLowerCase(), s.server);
      for (const name of s.tools) {
        const owner = { server: s.server, name };
        const lower = name.toLowerCase();
        add(this.tools, lower, owner);
        add(this.skeletons, nameSkeleton(name), owner);
        if (lower.length >= MIN_NEAR_LENGTH - 1) add(this.near, bucket(lower, lower.length), { lower, owner });
      }
    }
  }

  toolOwners(lowerName: string): readonly NameOwner[] {
    return this.tools.get(lowerName) ?? NONE;
  }

  serverOwners(lowerName: string): readonly string[] {
    return this.servers.get(lowerName) ?? NONE;
  }

  skeletonOwners(skeleton: string): readonly NameOwner[] {
    return this.skeletons.get(skeleton) ?? NONE;
  }

  nearOwners(lowerName: string): readonly NameOwner[] {
    if (lowerName.length < MIN_NEAR_LENGTH) return NONE;
    const found: NameOwner[] = [];
    for (let len = lowerName.length - 1; len <= lowerName.length + 1; len++) {
      for (const o of this.near.get(bucket(lowerName, len)) ?? NONE) {
        if (withinOneEdit(lowerName, o.lower)) found.push(o.owner);
      }
    }
    return found;
  }
}

function bucket(lower: string, length: number): string {
  return `${lower[0]}${length}`;
}

function add<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** One substitution, insertion or deletion (not zero), without allocating. */
function withinOneEdit(a: string, b: string): boolean {
  if (a === b || Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  // Skip the one differing char in the longer string (both, for a substitution), then the rest must match.
  let ia = a.length >= b.length ? i + 1 : i;
  let ib = b.length >= a.length ? i + 1 : i;
  while (ia < a.length && ib < b.length) if (a.charCodeAt(ia++) !== b.charCodeAt(ib++)) return false;
  return ia >= a.length && ib >= b.length;
}

/** MCP tool/prompt names: `[A-Za-z0-9_.-]`. */
const MCP_NAME = /^[A-Za-z0-9_.-]+$/;
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

export interface NameHit {
  readonly rule: 'homoglyph-name' | 'lookalike-name' | 'name-collision';
  readonly action: 'block' | 'flag';
  readonly severity: 'high' | 'low' | 'info';
  readonly reason: string;
}

/** Letters of one non-Latin script, with digits and MCP's separators; no invisibles, no Latin mixed in. */
const SINGLE_SCRIPT = new RegExp(
  `^(?:${['\\p{Script=Cyrillic}', '\\p{Script=Greek}', '\\p{Script=Arabic}\\p{Mn}', '\\p{Script=Hebrew}\\p{Mn}', '\\p{Script=Devanagari}\\p{Mn}\\p{Mc}',
    '\\p{Script=Thai}\\p{Mn}', '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\u30fc', '\\p{Script=Hangul}'].map((letters) => `[${letters}0-9_.-]+`).join('|')})$`,
  'u',
);

/**
 * Every word of the name (between `_`, `.`, `-`) is ASCII or wholly in one other script, and no
 * such word is made only of letters that look Latin ("сору" reads as copy): проверить_sudoers is
 * Russian and English, sеnd_email (a Cyrillic е) is an imitation.
 */
function writtenInOtherScripts(name: string): boolean {
  for (const word of name.split(/[_.-]/)) {
    if (PRINTABLE_ASCII.test(word)) continue;
    if (!SINGLE_SCRIPT.test(word) || /^[a-z]+$/.test(nameSkeleton(word))) return false;
  }
  return true;
}

function describe(o: NameOwner): string {
  return `${o.name} of server ${o.server}`;
}

/**
 * Judges one tool or prompt name. A name with any non-ASCII or invisible character is blocked, never
 * repaired: dropping the odd character would manufacture a collision (`send_email\u200b` ->
 * `send_email`). ASCII punctuation outside MCP's set is only flagged, because the catalog's
 * deterministic renaming (src/catalog/names.ts) already maps it to a safe, collision-checked name.
 */
export function judgeName(name: string, server: string, index: CatalogIndexLike | undefined): NameHit[] {
  const hits: NameHit[] = [];
  const skeleton = nameSkeleton(name);
  if (!PRINTABLE_ASCII.test(name) || name.length === 0) {
    const like = index ? firstOther(index.skeletonOwners(skeleton), server, (o) => o.name !== name) : undefined;
    const why = like ? `; it looks like ${describe(like)}` : '';
    // A name wholly in one other script (создать_счет, تأكيد_الحجز) imitates nothing unless its
    // skeleton is another tool's name; the catalog renames it to MCP's character set.
    if (!like && writtenInOtherScripts(name)) {
      hits.push({ rule: 'homoglyph-name', action: 'flag', severity: 'low', reason: 'name is written in a non-Latin script; the catalog renames it' });
      return hits;
    }
    hits.push({ rule: 'homoglyph-name', action: 'block', severity: 'high', reason: `name has non-ASCII or invisible characters${why}` });
    return hits;
  }
  if (!MCP_NAME.test(name)) {
    hits.push({ rule: 'homoglyph-name', action: 'flag', severity: 'low', reason: 'name has characters outside [A-Za-z0-9_.-]; the catalog renames it' });
  }
  if (!index) return hits;
  const lower = name.toLowerCase();
  const exact = firstOther(index.toolOwners(lower), server, (o) => o.name === name);
  if (exact) {
    hits.push({ rule: 'name-collision', action: 'flag', severity: 'info', reason: `same name as ${describe(exact)}; namespacing keeps both reachable` });
  }
  const near =
    firstOther(index.skeletonOwners(skeleton), server, (o) => o.name !== name) ??
    firstOther(index.nearOwners(lower), server, (o) => !ordinaryVariant(lower, o.name.toLowerCase()));
  if (near) hits.push({ rule: 'lookalike-name', action: 'flag', severity: 'low', reason: `name looks like ${describe(near)}` });
  return hits;
}

/** The first owner on another server that passes `test` (no intermediate arrays: this runs per tool). */
function firstOther(list: readonly NameOwner[], server: string, test: (o: NameOwner) => boolean): NameOwner | undefined {
  for (const o of list) if (o.server !== server && test(o)) return o;
  return undefined;
}

/**
 * Pairs one edit apart that catalogs are full of for honest reasons: plurals (`get_user`/`get_users`),
 * numbered or versioned names (`tool_1`/`tool_2`), a different leading verb letter (`get_x`/`set_x`),
 * and short names where any two are one edit apart.
 */
function ordinaryVariant(a: string, b: string): boolean {
  if (a === `${b}s` || b === `${a}s`) return true;
  if (Math.min(a.length, b.length) < 6) return true;
  let i = 0;
  while (i < a.length && i < b.length && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  if (i === 0) return true;
  return isDigit(a.charCodeAt(i)) || isDigit(b.charCodeAt(i));
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** The words of a name (a tool's, a parameter's), lower case: `reach_createNewCampaignV1` -> reach, create, new, campaign, v1. */
export function toolNameWords(name: string): string[] {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase().split(/[^a-z0-9]+/).filter((w) => w !== '');
}
