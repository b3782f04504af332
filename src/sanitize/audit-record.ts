// The sanitization log's record (SANITIZE.md "The log record"): one JSON line per (entity, field, rule).
import { escapeText } from './escape.js';
import { findingKey } from './hash.js';
import { RULESET, type EntityKind, type Finding, type MatchSpan, type Removed, type Severity, type Action, type RuleId } from './types.js';

export const RECORD_VERSION = 1;

export interface AuditRecord {
  readonly v: number;
  readonly ruleset: string;
  /** RFC 3339 UTC with milliseconds. */
  readonly time: string;
  readonly server: string;
  readonly server_id: string;
  readonly entity: EntityKind;
  /** Original name, escaped. */
  readonly tool: string;
  /** Namespaced name the client sees, or null when withheld. */
  readonly exposed_as: string | null;
  readonly field: string;
  readonly rule: RuleId;
  readonly severity: Severity;
  readonly action: Action;
  readonly before_sha256: string;
  readonly after_sha256: string | null;
  readonly before: string;
  readonly after: string | null;
  readonly removed: Removed | null;
  readonly decoded: string | null;
  readonly match: MatchSpan | null;
  readonly tool_sha256: string;
  readonly pinned_sha256: string | null;
  /** Top-level fields that changed since the pin (rug-pull only). */
  readonly diff: readonly string[] | null;
  readonly listing: number;
  readonly reason: string;
  readonly key: string;
  /** Findings of the same entity and rule left out of the log before this one (a flood of changes); absent when none. */
  readonly suppressed?: number;
  /** The instance that wrote it, when several daemons serve behind one balancer (config `instance`). */
  readonly instance?: string;
}

export interface RecordMeta {
  readonly server: string;
  readonly serverId: string;
  readonly entity: EntityKind;
  /** The entity's original name ('' for instructions). */
  readonly tool: string;
  readonly exposedAs: string | null;
  /** canonicalHash of the entity as received. */
  readonly toolSha256: string;
  readonly pinnedSha256?: string | null;
  readonly diff?: readonly string[];
  /** Listing generation of this server: initial, after list_changed, after restart. */
  readonly listing: number;
  readonly time?: Date;
}

export function toRecords(findings: readonly Finding[], meta: RecordMeta): AuditRecord[] {
  const time = (meta.time ?? new Date()).toISOString();
  const tool = escapeText(meta.tool);
  return findings.map((f) => ({
    v: RECORD_VERSION,
    ruleset: RULESET,
    time,
    server: escapeText(meta.server),
    server_id: meta.serverId,
    entity: meta.entity,
    tool,
    exposed_as: f.action === 'block' || meta.exposedAs === null ? null : escapeText(meta.exposedAs),
    field: escapeText(f.field),
    rule: f.rule,
    severity: f.severity,
    action: f.action,
    before_sha256: f.beforeSha256,
    after_sha256: f.afterSha256,
    before: f.before,
    after: f.after,
    removed: f.removed ?? null,
    decoded: f.decoded ?? null,
    match: f.match ?? null,
    tool_sha256: meta.toolSha256,
    pinned_sha256: meta.pinnedSha256 ?? null,
    diff: f.rule === 'rug-pull' && meta.diff ? [...meta.diff] : null,
    listing: meta.listing,
    reason: escapeText(f.reason),
    // The key uses the raw name and field: escaping is for display, identity is the original.
    key: findingKey(meta.serverId, meta.entity, meta.tool, f.field, f.rule, f.beforeSha256),
  }));
}
