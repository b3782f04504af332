// The sanitizer's public surface: judge and rewrite what servers say to the model, log it, pin it.
export { clearSanitizeCaches, fitListing, isServerSuspect, sanitizeEntity } from './sanitize.js';
export { CatalogIndex, judgeName, type ServerNames } from './names.js';
export { canonicalHash, canonicalJson, findingKey, serverId, sha256 } from './hash.js';
export { escapeText, excerpt, redactSecrets, EXCERPT_CHARS } from './escape.js';
export { nameSkeleton } from './confusables.js';
export { shadowOf } from './shadow.js';
export { AuditLog, type AppendResult, type AuditLogOptions } from './audit-log.js';
export { toRecords, RECORD_VERSION, type AuditRecord, type RecordMeta } from './audit-record.js';
export { PinStore, defaultPinPath, fieldHashes, rugPullFinding, withPinCheck, type PendingChange, type PinCheck, type PinStatus } from './pins.js';
export { fromFields, entryField, acceptedField, nameField, type PinFile, type Pinned } from './pin-data.js';
export {
  DEFAULT_LIMITS,
  LISTING_LIMIT,
  RULESET,
  type Action,
  type CatalogIndexLike,
  type EntityKind,
  type Finding,
  type JsonObject,
  type JsonValue,
  type Limits,
  type MatchSpan,
  type Removed,
  type RuleId,
  type SanitizeContext,
  type SanitizeResult,
  type Severity,
} from './types.js';
export { UNACCEPTABLE_RULES, acceptanceCovers, withAcceptance, type Acceptance, type AcceptanceEntry, type WithheldDefinition } from './acceptances.js';
export { shippedModelProblem } from './intent-model.js';
export { hijackLexiconProblem } from './hijack-lexicon.js';
