// Operator acceptances of sanitizer findings: a withheld entity served as is, for one definition
// only (its canonical hash), so a later change of the definition is judged again.
import type { Finding, RuleId, SanitizeResult } from './types.js';

/** One acceptance as the pin file keeps it. */
export interface Acceptance {
  /** canonicalHash of the definition accepted; any other definition is judged afresh. */
  readonly sha256: string;
  /** The blocking rules accepted; a rule not among them still withholds the definition. */
  readonly rules: readonly string[];
  readonly acceptedAt: string;
  /** The operator's user name, as the CLI saw it. */
  readonly by: string;
}

/** An acceptance with where it belongs, as `approve --list` shows it. */
export interface AcceptanceEntry extends Acceptance {
  readonly serverId: string;
  /** The server's config name when the daemon last recorded one. */
  readonly server: string | undefined;
  readonly key: string;
}

/** An entity whose pinned definition the sanitizer withholds, as `approve` shows it. */
export interface WithheldDefinition {
  readonly key: string;
  readonly sha256: string;
  readonly rules: readonly string[];
  readonly definition: unknown;
  readonly accepted: Acceptance | undefined;
}

/**
 * Rules no acceptance lifts: a name with invisible or confusable characters is no text to vouch
 * for (rename it upstream), and a schema too deep to read was never read. `rug-pull` is lifted by
 * re-pinning (`approve`), never here.
 */
export const UNACCEPTABLE_RULES: ReadonlySet<string> = new Set<RuleId>(['homoglyph-name', 'oversize', 'rug-pull']);

/** True when the acceptance covers this definition and every rule that withholds it. */
export function acceptanceCovers(acceptance: Acceptance | undefined, sha256: string, blockingRules: readonly string[]): acceptance is Acceptance {
  if (acceptance === undefined || acceptance.sha256 !== sha256 || blockingRules.length === 0) return false;
  return blockingRules.every((rule) => !UNACCEPTABLE_RULES.has(rule) && acceptance.rules.includes(rule));
}

/**
 * The verdict of an accepted definition: served as sanitized (hidden characters still stripped),
 * its blocking findings kept as flags that name the acceptance, so the log and `check` still show them.
 */
export function withAcceptance<T>(result: SanitizeResult<T>, acceptance: Acceptance): SanitizeResult<T> {
  const note = `; accepted by ${acceptance.by} at ${acceptance.acceptedAt}`;
  const findings: Finding[] = result.findings.map((f) => (f.action === 'block' ? { ...f, action: 'flag', reason: `${f.reason}${note}` } : f));
  const modified = findings.some((f) => f.action === 'strip' || f.action === 'neutralize');
  return { ...result, findings, blocked: false, outcome: modified ? 'modify' : findings.length > 0 ? 'flag' : 'none' };
}

export function isAcceptance(v: unknown): v is Acceptance {
  if (typeof v !== 'object' || v === null) return false;
  const a = v as Record<string, unknown>;
  return typeof a['sha256'] === 'string' && Array.isArray(a['rules']) && a['rules'].every((r) => typeof r === 'string') && typeof a['acceptedAt'] === 'string' && typeof a['by'] === 'string';
}
