// Turning removals, edits and hits into log-shaped findings: excerpts, hashes, counts, reasons.
import { escapeDecoded, excerpt } from './escape.js';
import { sha256 } from './hash.js';
import type { Edit } from './neutralize.js';
import type { Removal, StripRule } from './strip.js';
import type { Action, Finding, MatchSpan, Removed, RuleId, Severity } from './types.js';

/** A replaced span of some text: [start, end) became `length` chars. */
export interface Replaced {
  readonly start: number;
  readonly end: number;
  readonly length: number;
}

/** Where an offset of the text before the replacements lands after them (inside a replaced span: at its start). */
export function mapOffset(spans: readonly Replaced[], pos: number): number {
  let shift = 0;
  for (const s of spans) {
    if (s.end <= pos) shift += s.length - (s.end - s.start);
    else if (s.start < pos) return s.start + shift;
    else break;
  }
  return pos + shift;
}

/** Everything a finding needs about the field it is in. */
export interface FieldContext {
  readonly pointer: string;
  readonly original: string;
  readonly forwarded: string;
  /** Original offset -> forwarded offset. */
  readonly toForwarded: (pos: number) => number;
}

export function finding(
  f: FieldContext,
  rule: RuleId,
  severity: Severity,
  action: Action,
  match: MatchSpan,
  reason: string,
  extra: { removed?: Removed; decoded?: string } = {},
): Finding {
  const a = f.toForwarded(match.start);
  const b = Math.max(a, f.toForwarded(match.end));
  return {
    rule,
    severity,
    action,
    field: f.pointer,
    beforeSha256: sha256(f.original),
    afterSha256: sha256(f.forwarded),
    before: excerpt(f.original, match.start, match.end),
    after: excerpt(f.forwarded, a, b),
    match,
    reason,
    ...(extra.removed ? { removed: extra.removed } : {}),
    ...(extra.decoded ? { decoded: escapeDecoded(extra.decoded) } : {}),
  };
}

const STRIP_REASON: Record<StripRule, string> = {
  'unicode-tag': 'Unicode tag characters (invisible ASCII)',
  'zero-width': 'zero-width or invisible characters',
  'bidi-control': 'bidirectional override/isolate controls',
  'variation-selector-smuggling': 'variation selectors carrying hidden bytes',
  'ansi-escape': 'terminal escape sequences',
  'control-char': 'control characters',
};

function stripSeverity(rule: StripRule, group: readonly Removal[], decoded: string): Severity {
  switch (rule) {
    case 'unicode-tag':
      return decoded.trim() ? 'high' : 'medium';
    case 'variation-selector-smuggling':
      return decoded.length >= 2 ? 'high' : 'low';
    case 'zero-width':
      return group.length >= 8 ? 'medium' : 'low';
    case 'control-char':
      return group.every((r) => r.label === 'CRLF') ? 'info' : 'low';
    default:
      return 'medium';
  }
}

/**
 * One finding per strip rule in a field. `action` is strip for prose; for names, keys and contract
 * strings, which cannot be rewritten, the caller passes block.
 */
export function stripFindings(f: FieldContext, removals: readonly Removal[], action: Action, where: string): Finding[] {
  const byRule = new Map<StripRule, Removal[]>();
  for (const r of removals) {
    const list = byRule.get(r.rule);
    if (list) list.push(r);
    else byRule.set(r.rule, [r]);
  }
  const out: Finding[] = [];
  for (const [rule, group] of byRule) {
    const codepoints: Record<string, number> = {};
    let count = 0;
    for (const r of group) {
      codepoints[r.label] = (codepoints[r.label] ?? 0) + r.count;
      count += r.count;
    }
    const decoded = group.map((r) => r.payload ?? '').filter(Boolean).join(' ');
    const severity = action === 'block' ? 'high' : stripSeverity(rule, group, decoded);
    const consequence = action === 'block' ? `; ${where} cannot be rewritten without changing what the tool accepts` : '';
    const reason = `${action === 'block' ? 'contains' : 'removed'} ${count} ${STRIP_REASON[rule]} in ${where}${consequence}`;
    const match = { start: group[0]!.start, end: group[group.length - 1]!.end };
    out.push(finding(f, rule, severity, action, match, reason, { removed: { count, codepoints }, ...(decoded ? { decoded } : {}) }));
  }
  return out;
}

const EDIT_REASON: Record<Edit['rule'], string> = {
  'html-comment': 'HTML comment hidden when rendered',
  'markdown-image': 'remote image fetched when rendered',
  'whitespace-padding': 'whitespace padding',
};

/** Neutralize edits are in stripped-text offsets; `toOriginal` maps them back for excerpts. */
export function editFindings(f: FieldContext, edits: readonly Edit[], toOriginal: (pos: number) => number): Finding[] {
  const byRule = new Map<Edit['rule'], Edit[]>();
  for (const e of edits) {
    const list = byRule.get(e.rule);
    if (list) list.push(e);
    else byRule.set(e.rule, [e]);
  }
  const out: Finding[] = [];
  for (const [rule, group] of byRule) {
    const chars = group.reduce((n, e) => n + (e.end - e.start), 0);
    const match = { start: toOriginal(group[0]!.start), end: toOriginal(group[group.length - 1]!.end) };
    const decoded = group.map((e) => e.detail ?? '').filter(Boolean).join(' ');
    const severity: Severity = rule === 'whitespace-padding' ? 'low' : 'medium';
    const reason = `replaced ${group.length} ${EDIT_REASON[rule]}${group.length > 1 ? 's' : ''} with a visible marker`;
    out.push(finding(f, rule, severity, 'neutralize', match, reason, { removed: { chars, reason: EDIT_REASON[rule] }, ...(decoded ? { decoded } : {}) }));
  }
  return out;
}

export const TRUNCATION_PREFIX = '[truncated by switchboard: ';

/**
 * Cuts so that text plus marker fit the budget, without splitting a surrogate pair, and says how
 * much went and what the full original hashed to.
 */
export function truncate(text: string, budget: number, fullOriginal: string): { text: string; removedChars: number } {
  const hash = sha256(fullOriginal);
  const markerLength = `${TRUNCATION_PREFIX}${text.length} chars, ${hash}]`.length;
  let cut = Math.max(0, budget - markerLength);
  const code = text.charCodeAt(cut - 1);
  if (code >= 0xd800 && code <= 0xdbff) cut -= 1;
  const removedChars = text.length - cut;
  return { text: `${text.slice(0, cut)}${TRUNCATION_PREFIX}${removedChars} chars, ${hash}]`, removedChars };
}
