// One string field through the pipeline: strip, neutralize, semantic scan of the original's shadow, hidden channels, length budget.
import { INVISIBLE_SEPARATORS } from './chars.js';
import { escapeText, redactSecrets } from './escape.js';
import { editFindings, finding, mapOffset, stripFindings, truncate, type FieldContext, type Replaced } from './findings.js';
import { neutralize } from './neutralize.js';
import { scan, identifierWords, type Hit, type ScanOptions } from './semantic.js';
import { joinedReading } from './joined-reading.js';
import { buildShadow, mapShadow, type HiddenText, type MappedShadow } from './shadow.js';
import { entropy, mergeSpans, sentenceAround } from './spans.js';
import { withDataSlotHits } from './data-slots.js';
import { withHijackByKind } from './hijack-by-kind.js';
import { withPrereqByKind } from './prereq-by-kind.js';
import { withPlantedValue } from './planted-values.js';
import { stripHidden } from './strip.js';
import { severityRank, type CatalogIndexLike, type Finding, type Limits, type MatchSpan } from './types.js';
import type { Slot } from './walk.js';

export interface FieldOptions {
  readonly server: string;
  readonly own: ReadonlySet<string>;
  /** The words of the server's own tool names, lower case (`sendEmail` -> send, email). */
  readonly ownWords: ReadonlySet<string>;
  /** The entity's own parameter names (walk.ts parameterNames). */
  readonly params: ReadonlySet<string>;
  readonly index: CatalogIndexLike | undefined;
  readonly limits: Limits;
  readonly blocking: boolean;
}

export interface FieldOutcome {
  readonly slot: Slot;
  /** The value to forward (equal to the original for names, keys and contract strings). */
  readonly forwarded: string;
  readonly findings: Finding[];
  readonly hiddenInstruction: boolean;
}

export const BLOCK_REMOVED_MARKER = '[instructions removed by switchboard]';
const HIDDEN_LABEL: Record<HiddenText['kind'], string> = {
  tags: 'Unicode tag characters',
  selectors: 'variation selectors',
  'bidi-reversed': 'a right-to-left override run (read reversed)',
  base64: 'a base64 blob',
  hex: 'a hex blob',
  'escape-payload': 'a terminal escape sequence',
};

const EMPTY: Finding[] = [];

const NAMES_A_PERSON = /\b(?:user|users|owner|human|customer|admin|they|approved|consented|agreed)\b/;

/**
 * What the name of a boolean or number parameter says of the value it takes, which cannot carry
 * text out. `getAllEnvVars: boolean` names what a switch does: only a text parameter can carry
 * secrets out (a name that orders the model, names another tool or an address is judged whatever
 * its type). `suppressConfirmations: boolean` switches off the tool's own prompts; a switch that
 * says the user has already agreed is still a claim.
 */
function switchesOnly(hit: Hit, slot: Slot, skel: string): boolean {
  // Descriptions are read in the scan (semantic.ts switchDescription): there a claim can still hide.
  if (slot.cls !== 'key') return false;
  if (hit.rule === 'exfil-parameter') return true;
  return hit.id === 'override.consent' && !NAMES_A_PERSON.test(skel);
}

/**
 * `auth: {oneOf: [..., {properties: {access_key_id, secret_access_key}}]}`: a key the schema's
 * top-level `auth` parameter declares as one way the tool signs in to the service it reaches (S3,
 * a model hub), which the user gives it. Only keys a service signs in with (SIGN_IN_CREDENTIAL):
 * an SSH key, cookies or the environment there are judged as anywhere else.
 */
function inAuthObject(slot: Slot): boolean {
  const [schema, properties, parameter] = slot.path;
  return schema === 'inputSchema' && properties === 'properties' && typeof parameter === 'string' && AUTH_OBJECT.test(parameter) && slot.path.length > 3;
}
const AUTH_OBJECT = /^(?:auth|authentication)$/i;
const SIGN_IN_CREDENTIAL = /^(?:(?:aws |s3 )?(?:secret access key|access key(?: id)?|api key|api token|access token|auth token|bearer token|token|password|client secret)|personal access token)$/;

export function sanitizeField(slot: Slot, opts: FieldOptions): FieldOutcome {
  const value = slot.value;
  const rewritable = slot.cls === 'text';
  const identifier = slot.cls === 'key' || slot.cls === 'name';
  const stripped = stripHidden(value);
  const neutral = rewritable ? neutralize(stripped.text) : { text: stripped.text, edits: [] };
  // Semantic layer on the shadow of the full original (SANITIZE.md "Policy" 3).
  let source = identifier ? identifierWords(value) : value;
  let shadow = buildShadow(source);
  const scanOpts = { parameter: slot.parameterText, identifier, propertyName: slot.cls === 'key', switchText: slot.parameterText && slot.scalar === true, server: opts.server, own: opts.own, params: opts.params, index: opts.index, camel: camelCaseWords(value), acronyms: acronymWords(value) };
  // The rules of the whole field, beyond the sentence scan, on either reading.
  const judged = (view: typeof shadow): Hit[] => {
    let out = scan(view, scanOpts);
    if (slot.data || slot.parameterText) out = withDataSlotHits(out, view.skel, slot, scanOpts, view.plain);
    if (slot.cls === 'text' && !slot.data) out = withPrereqByKind(withHijackByKind(withPlantedValue(out, view.plain), view.plain, opts), view.plain, opts);
    return out;
  };
  let hits = judged(shadow);
  if (slot.cls === 'key' && inAuthObject(slot)) hits = hits.map((h) => (h.id === 'parameter.credential-name' && h.action === 'block' && SIGN_IN_CREDENTIAL.test(shadow.skel) ? { ...h, action: 'flag', severity: 'low', reason: `${h.reason} (in the tool's own authentication object)` } : h));
  if (slot.scalar) hits = hits.map((h) => (h.action === 'block' && switchesOnly(h, slot, shadow.skel) ? { ...h, action: 'flag', severity: 'low', reason: `${h.reason} (a boolean or number parameter)` } : h));
  if (!identifier && stripped.removals.length > 0) {
    // Invisibles between letters read as spaces too ("ignore<ZWSP>all<ZWSP>previous"): the same
    // length, so offsets still point into the original; the reading with more to withhold wins.
    const spaced = source.replace(INVISIBLE_SEPARATORS, (run) => ' '.repeat(run.length));
    if (spaced !== source) {
      const spacedShadow = buildShadow(spaced);
      const spacedHits = judged(spacedShadow);
      if (blockingHits(spacedHits) > blockingHits(hits)) [source, shadow, hits] = [spaced, spacedShadow, spacedHits];
    }
  }
  if (!identifier) hits = withJoinedReadingHits(value, shadow.skel.length, hits, scanOpts);
  const budget = rewritable && slot.budget === 'description' ? opts.limits.description : opts.limits.other;
  const opaque = value.length >= 120 && !identifier ? opaqueBlob(value, shadow) : undefined;
  const quiet =
    stripped.removals.length === 0 && neutral.edits.length === 0 && hits.length === 0 && shadow.hidden.length === 0 &&
    value.length <= budget && !opaque;
  // Nearly every field of a real catalog ends here, before any of the bookkeeping below.
  if (quiet) return { slot, forwarded: value, findings: EMPTY, hiddenInstruction: false };
  return report(slot, opts, { stripped, neutral, source, shadow, hits: strongestPerRule(hits), budget, opaque, scanOpts });
}

interface Analysis {
  readonly stripped: ReturnType<typeof stripHidden>;
  readonly neutral: ReturnType<typeof neutralize>;
  readonly source: string;
  readonly shadow: ReturnType<typeof buildShadow>;
  readonly hits: Hit[];
  readonly budget: number;
  readonly opaque: MatchSpan | undefined;
  readonly scanOpts: Parameters<typeof scan>[1];
}

/** The slow path: something was found or changed; build the findings and the forwarded value. */
function report(slot: Slot, opts: FieldOptions, a: Analysis): FieldOutcome {
  const { stripped, neutral, source, shadow, hits, scanOpts } = a;
  const value = slot.value;
  const rewritable = slot.cls === 'text';
  const identifier = slot.cls === 'key' || slot.cls === 'name';
  const where = WHERE[slot.cls];
  const stripSpans: Replaced[] = stripped.removals.map((r) => ({ start: r.start, end: r.end, length: 0 }));
  const editSpans: Replaced[] = neutral.edits.map((e) => ({ start: e.start, end: e.end, length: e.replacement.length }));
  const strippedToOriginal = (pos: number): number => {
    let removedBefore = 0;
    for (const r of stripped.removals) {
      if (r.start - removedBefore > pos) break;
      removedBefore += r.end - r.start;
    }
    return pos + removedBefore;
  };
  let forwarded = rewritable ? neutral.text : value;
  const ctx = (): FieldContext => ({
    pointer: slot.pointer,
    original: value,
    forwarded,
    toForwarded: rewritable ? (pos) => Math.min(forwarded.length, mapOffset(editSpans, mapOffset(stripSpans, pos))) : (pos) => pos,
  });
  let mapped: MappedShadow | undefined;
  const toOriginal = (h: Hit): MatchSpan => {
    if (identifier) return { start: 0, end: value.length, pattern: h.id };
    mapped ??= mapShadow(source);
    const start = mapped.starts[Math.min(h.start, mapped.starts.length - 1)] ?? 0;
    const end = mapped.ends[Math.min(Math.max(h.end - 1, 0), mapped.ends.length - 1)] ?? value.length;
    return { start, end: Math.max(start, end), pattern: h.id };
  };

  // With blocking off, a block-class hit inside a delimited <IMPORTANT>...</IMPORTANT> block removes
  // the block whole; any other block-class hit removes its sentence. Either way the attack is not
  // forwarded as it came (SANITIZE.md: "neutralized or flagged" must not mean forwarding the PoC).
  const removeBlocks: MatchSpan[] = [];
  if (!opts.blocking && rewritable) {
    for (const tag of hits.filter((h) => h.rule === 'pseudo-system-tag' && h.blockEnd !== undefined)) {
      if (hits.some((h) => h.action === 'block' && h.start >= tag.start && h.end <= tag.blockEnd!)) {
        removeBlocks.push(toOriginal({ ...tag, end: tag.blockEnd! }));
      }
    }
    for (const h of hits) {
      if (h.action !== 'block') continue;
      const span = toOriginal(h);
      if (removeBlocks.some((b) => span.start >= b.start && span.end <= b.end)) continue;
      removeBlocks.push(sentenceAround(value, span));
    }
    mergeSpans(removeBlocks);
  }

  const findings: Finding[] = [];
  const hiddenFindings: { rule: Finding['rule']; span: MatchSpan; reason: string; decoded: string }[] = [];
  let hiddenInstruction = false;
  for (const h of shadow.hidden) {
    // A link target or window title reads as words too when its words are joined by hyphens.
    const text = h.kind === 'escape-payload' ? h.text.replace(/-/g, ' ') : h.text;
    const inner = scan(buildShadow(text), { ...scanOpts, parameter: false, identifier: false }).filter(
      (x) => x.rule !== 'cross-server-reference',
    );
    if (inner.length === 0) continue;
    hiddenInstruction = true;
    if (h.kind === 'tags') continue; // decoded in place in the shadow, so the main scan reported it
    const top = strongestPerRule(inner).sort((a, b) => rank(b) - rank(a))[0]!;
    const span = { start: h.start, end: h.end, pattern: top.id };
    const encoded = h.kind === 'base64' || h.kind === 'hex';
    const reason = `${HIDDEN_LABEL[h.kind]} decodes to text that ${top.reason}`;
    hiddenFindings.push({ rule: encoded ? 'encoded-payload' : top.rule, span, reason, decoded: h.text });
  }

  // Apply block removal (blocking off) after strip/neutralize, then the length budget.
  if (removeBlocks.length > 0) {
    const c = ctx();
    const spans = removeBlocks.map((b) => ({ start: c.toForwarded(b.start), end: c.toForwarded(b.end) }));
    spans.sort((a, b) => b.start - a.start);
    for (const s of spans) forwarded = forwarded.slice(0, s.start) + BLOCK_REMOVED_MARKER + forwarded.slice(s.end);
  }
  const budget = a.budget;
  let truncatedChars = 0;
  if (rewritable && forwarded.length > budget) {
    const t = truncate(forwarded, budget, value);
    forwarded = t.text;
    truncatedChars = t.removedChars;
  }

  const c = ctx();
  // A tool's or prompt's own name is judged whole by judgeName (homoglyph-name); other names here.
  if (stripped.removals.length > 0 && !(slot.cls === 'name' && slot.pointer === '/name')) {
    findings.push(...stripFindings(c, stripped.removals, rewritable ? 'strip' : 'block', where));
  }
  findings.push(...editFindings(c, neutral.edits, strippedToOriginal));
  for (const h of hits) {
    const span = toOriginal(h);
    const inRemovedBlock = h.action === 'block' && removeBlocks.some((b) => span.start >= b.start && span.end <= b.end);
    const tag = stripped.removals.find((r) => r.rule === 'unicode-tag' && r.start < span.end && r.end > span.start);
    const quoted = quote(shadow.skel.slice(h.start, h.end));
    const reason = `${tag ? 'hidden in Unicode tag characters: ' : ''}${reasonFor(h, where)}${quoted}`;
    const extra = tag?.payload ? { decoded: tag.payload } : {};
    findings.push(finding(c, h.rule, h.severity, inRemovedBlock ? 'neutralize' : h.action, span, reason, extra));
  }
  for (const h of hiddenFindings) {
    findings.push(finding(c, h.rule, 'critical', 'block', h.span, h.reason, { decoded: h.decoded }));
  }
  const opaque = a.opaque;
  if (opaque) findings.push(finding(c, 'encoded-payload', 'low', 'flag', opaque, `contains an opaque encoded blob of ${opaque.end - opaque.start} chars`));
  if (truncatedChars > 0) {
    const reason = `${where} over ${budget} chars, truncated`;
    findings.push(finding(c, 'oversize', 'low', 'neutralize', { start: budget, end: value.length }, reason, { removed: { chars: truncatedChars, reason } }));
  } else if (!rewritable && value.length > opts.limits.other) {
    const reason = `${where} over ${opts.limits.other} chars cannot be truncated without changing what the tool accepts`;
    findings.push(finding(c, 'oversize', 'medium', 'block', { start: opts.limits.other, end: value.length }, reason));
  }
  return { slot, forwarded, findings: onePerRule(findings), hiddenInstruction };
}

const WHERE: Record<Slot['cls'], string> = { text: 'the text', key: 'a property name', contract: 'a schema value', name: 'the name' };

function reasonFor(h: Hit, where: string): string {
  return where === 'the text' ? h.reason : `${where}: ${h.reason}`;
}

/** The matched words (shadow text, escaped, redacted, short) so the reason says what was seen. */
function quote(matched: string): string {
  const short = matched.length > 80 ? `${matched.slice(0, 77)}...` : matched;
  return short.trim() ? `: "${escapeText(redactSecrets(short)).replace(/"/g, "'")}"` : '';
}

const ACTION_RANK: Record<Finding['action'], number> = { flag: 0, strip: 1, neutralize: 2, block: 3 };

/**
 * The log has one record per (entity, field, rule): when the visible text and a hidden channel (or
 * a decode directive and a decoded blob) both trip one rule, the stronger finding stands.
 */
function onePerRule(findings: readonly Finding[]): Finding[] {
  const best = new Map<string, Finding>();
  for (const f of findings) {
    const cur = best.get(f.rule);
    const stronger = !cur || ACTION_RANK[f.action] * 10 + severityRank(f.severity) > ACTION_RANK[cur.action] * 10 + severityRank(cur.severity);
    if (stronger) best.set(f.rule, f);
  }
  return [...best.values()];
}

function rank(h: Hit): number {
  return (h.action === 'block' ? 10 : 0) + severityRank(h.severity);
}

/** One hit per rule: the strongest, first on ties. */
function strongestPerRule(hits: readonly Hit[]): Hit[] {
  const best = new Map<string, Hit>();
  for (const h of hits) {
    const cur = best.get(h.rule);
    if (!cur || rank(h) > rank(cur)) best.set(h.rule, h);
  }
  return [...best.values()];
}

/** A long base64-alphabet run with random-looking content that did not decode to text: flag, do not guess. */
function opaqueBlob(value: string, shadow: ReturnType<typeof buildShadow>): MatchSpan | undefined {
  for (const run of shadow.encodedRuns) {
    if (run.end - run.start < 120) continue;
    if (shadow.hidden.some((d) => d.start <= run.start && d.end >= run.end)) continue;
    if (entropy(value.slice(run.start, run.end)) >= 5) return { start: run.start, end: run.end, pattern: 'encoded.opaque' };
  }
  return undefined;
}

function blockingHits(hits: readonly Hit[]): number {
  let n = 0;
  for (const h of hits) if (h.action === 'block') n++;
  return n;
}

const CAMEL = /\b[a-z][a-z0-9]*[A-Z][A-Za-z0-9]*\b/g;
const NO_WORDS: ReadonlySet<string> = new Set();

/** camelCase identifiers of the original, lower-cased: the reading folds case, so `sendEmail` would read as a plain word. */
function camelCaseWords(value: string): ReadonlySet<string> {
  if (!/[a-z][A-Z]/.test(value)) return NO_WORDS;
  const out = new Set<string>();
  for (const m of value.matchAll(CAMEL)) if (m[0].length >= 5) out.add(m[0].toLowerCase());
  return out;
}

// Acronyms (`SQL`), and constants and environment variables (`GITHUB_TOKEN`). Some servers name tools
// in capitals too (`GMAIL_SEND_EMAIL`), so tool-refs.ts takes such a name for a variable only where
// the sentence speaks of the environment and the catalog serves no tool so named.
const ACRONYM = /\b[A-Z][A-Z0-9]{1,9}\b|\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/g;

/** Words written in capitals in the original (`SQL`, `QPS`), lower-cased: acronyms, which no tool is named as. */
function acronymWords(value: string): ReadonlySet<string> {
  if (!/[A-Z]{2}/.test(value)) return NO_WORDS;
  const out = new Set<string>();
  for (const m of value.matchAll(ACRONYM)) out.add(m[0].toLowerCase());
  return out;
}

/**
 * The joined reading (joined-reading.ts: invisibles, comments and emphasis inside words deleted,
 * letter-spaced runs and split base64 joined); what it withholds is withheld for the whole field
 * (the joined text has other offsets than the original).
 */
function withJoinedReadingHits(value: string, skelLength: number, hits: Hit[], scanOpts: ScanOptions): Hit[] {
  const joined = joinedReading(value);
  if (joined === undefined) return hits;
  const shadow = buildShadow(joined);
  const joinedHits = scan(shadow, scanOpts);
  for (const h of shadow.hidden) {
    if (h.kind !== 'base64' && h.kind !== 'hex') continue;
    for (const inner of scan(buildShadow(h.text), { ...scanOpts, parameter: false, identifier: false })) {
      if (inner.action === 'block') joinedHits.push({ ...inner, reason: `${inner.reason} (decoded from ${h.kind})` });
    }
  }
  if (blockingHits(joinedHits) <= blockingHits(hits)) return hits;
  const worst = joinedHits.find((h) => h.action === 'block')!;
  return [...hits, { ...worst, id: `${worst.id}:joined`, start: 0, end: skelLength, reason: `${worst.reason} (read with the characters that split its words removed)` }];
}
