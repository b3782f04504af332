// The vocabulary of the sanitizer: rule ids, severities, actions, findings and the context one entity is judged in.

/** Bumped whenever a rule's matching changes, so an audit can be replayed against the rules that wrote it. */
export const RULESET = '2026.11.2';

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

export type EntityKind = 'tool' | 'prompt' | 'resource' | 'resourceTemplate' | 'instructions';

/** Rule ids of SANITIZE.md "Policy" (the log's `rule` field). */
export type RuleId =
  | 'unicode-tag'
  | 'zero-width'
  | 'bidi-control'
  | 'variation-selector-smuggling'
  | 'ansi-escape'
  | 'control-char'
  | 'html-comment'
  | 'markdown-image'
  | 'whitespace-padding'
  | 'oversize'
  | 'instruction-override'
  | 'credential-exfil'
  | 'exfil-parameter'
  | 'conversation-exfil'
  | 'cross-server-shadowing'
  | 'cross-server-reference'
  | 'tool-directive'
  | 'data-slot-prose'
  | 'tool-priority'
  | 'pseudo-system-tag'
  | 'concealment'
  | 'encoded-payload'
  | 'exfil-url'
  | 'homoglyph-name'
  | 'lookalike-name'
  | 'name-collision'
  | 'annotation-mismatch'
  | 'rug-pull'
  /** The learned second opinion: a candidate field the model reads as an instruction to the model. */
  | 'learned-intent'
  /** Not sanitizer rules: an operator accepted or revoked an entity's findings (`switchboard approve`). */
  | 'operator-accept'
  | 'operator-revoke';

export type HiddenKind = 'tags' | 'selectors' | 'bidi-reversed' | 'base64' | 'hex' | 'escape-payload';

/** Text a hidden channel carries, with the span of the carrier in the original field (shadow.ts, encoded.ts). */
export interface HiddenText {
  readonly kind: HiddenKind;
  readonly text: string;
  readonly start: number;
  readonly end: number;
}

export type Severity = 'info' | 'low' | 'medium' | 'high' | 'critical';
export type Action = 'strip' | 'neutralize' | 'flag' | 'block';

const SEVERITIES: readonly Severity[] = ['info', 'low', 'medium', 'high', 'critical'];

export function severityRank(s: Severity): number {
  return SEVERITIES.indexOf(s);
}

/** One step up, capped at critical (concealment next to another finding). */
export function raiseSeverity(s: Severity): Severity {
  return SEVERITIES[Math.min(SEVERITIES.length - 1, severityRank(s) + 1)] ?? 'critical';
}

export type Removed =
  | { readonly count: number; readonly codepoints: Readonly<Record<string, number>> }
  | { readonly chars: number; readonly reason: string };

/** UTF-16 offsets into the original field value, and the pattern that matched. */
export interface MatchSpan {
  readonly start: number;
  readonly end: number;
  readonly pattern?: string;
}

/** One (field, rule) result, already in the shape of the log record's per-field part. */
export interface Finding {
  readonly rule: RuleId;
  readonly severity: Severity;
  readonly action: Action;
  /** RFC 6901 JSON Pointer into the entity; for a property name, the pointer of that member. */
  readonly field: string;
  /** Full original and forwarded values' hashes (`after` null when the entity is withheld). */
  readonly beforeSha256: string;
  readonly afterSha256: string | null;
  /** Escaped excerpts (<= 240 chars); never raw control bytes; secrets redacted. */
  readonly before: string;
  readonly after: string | null;
  readonly removed?: Removed;
  /** Escaped revealed payload of a hidden channel (tag text, base64, VS bytes, OSC-8 target). */
  readonly decoded?: string;
  readonly match?: MatchSpan;
  readonly reason: string;
}

/** Names known across the aggregate, built once per catalog change (see names.ts). */
export interface NameOwner {
  readonly server: string;
  readonly name: string;
}

export interface CatalogIndexLike {
  /** Owners of a tool name, case-insensitive exact match. */
  toolOwners(lowerName: string): readonly NameOwner[];
  /** Owner servers of a server name or alias, case-insensitive. */
  serverOwners(lowerName: string): readonly string[];
  /** Tools whose name skeleton equals this skeleton. */
  skeletonOwners(skeleton: string): readonly NameOwner[];
  /** Tools within edit distance 1 of this lower-case name. */
  nearOwners(lowerName: string): readonly NameOwner[];
}

export interface Limits {
  /** Top-level `description` and `instructions`, UTF-16 chars (SANITIZE.md: 8 KiB). */
  readonly description: number;
  /** Every other string (schema strings, titles, argument descriptions): 2 KiB. */
  readonly other: number;
}

export const DEFAULT_LIMITS: Limits = { description: 8192, other: 2048 };
/** A whole server listing, serialized, UTF-16 chars (SANITIZE.md: 64 KiB); enforced by the caller. */
export const LISTING_LIMIT = 65536;

export interface SanitizeContext {
  /** Config name of the server that sent the entity. */
  readonly server: string;
  /**
   * Names of the server's own tools (mentions of these are never cross-server). Read once per Set
   * object and remembered with it: pass a new Set when the names change, never the same one changed.
   */
  readonly ownToolNames?: ReadonlySet<string>;
  /** Every server's tool names and server names/aliases; entries of `server` itself are ignored. */
  readonly otherServers?: CatalogIndexLike;
  readonly limits?: Partial<Limits>;
  /**
   * false: the operator disabled blocking. A block-class finding in text removes its delimited
   * pseudo-system block (`<IMPORTANT>...</IMPORTANT>`) whole, or else its sentence, with a visible
   * marker (neutralize); findings that cannot be removed that way are flagged. Identity findings
   * (names, unreadable schemas) still block. Default true.
   */
  readonly blocking?: boolean;
  /**
   * false: the learned second opinion (`learned-intent`, intent-model.ts) stays silent and the rules
   * decide alone. Default true.
   */
  readonly learnedIntent?: boolean;
}

export interface SanitizeResult<T> {
  /** The entity to forward: the same reference when nothing changed. */
  readonly forwarded: T;
  readonly findings: readonly Finding[];
  /** Withhold this entity (this tool only; the server's other entities are judged on their own). */
  readonly blocked: boolean;
  /** block > modify (strip/neutralize) > flag > none. */
  readonly outcome: 'block' | 'modify' | 'flag' | 'none';
  /** A hidden channel (tags, VS bytes, base64, reversed bidi run) decoded to an instruction: mark the server suspect. */
  readonly hiddenInstruction: boolean;
}
