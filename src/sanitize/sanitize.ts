// sanitizeEntity: every model-visible string of one tool, prompt, resource or instructions text, judged and rewritten as a whole.
import { sanitizeField, type FieldOutcome } from './field.js';
import { finding, type FieldContext } from './findings.js';
import { intentFindings } from './intent-model.js';
import { judgeName, toolNameWords } from './names.js';
import { clearScanMemo } from './semantic.js';
import { identifierWords } from './semantic.js';
import {
  DEFAULT_LIMITS,
  LISTING_LIMIT,
  raiseSeverity,
  type Finding,
  type EntityKind,
  type RuleId,
  type SanitizeContext,
  type SanitizeResult,
} from './types.js';
import { isObject, parameterNames, slotsOf, withReplacements } from './walk.js';

/** Rules listed above `pseudo-system-tag` in SANITIZE.md, plus the other content blocks: a pseudo tag next to any of them blocks. */
const ESCALATES_TAG = new Set<RuleId>([
  'instruction-override', 'credential-exfil', 'exfil-parameter', 'conversation-exfil', 'cross-server-shadowing',
  'cross-server-reference', 'tool-priority', 'encoded-payload', 'exfil-url',
]);
/** Content rules whose severity concealment raises (not the silent strips, not identity). */
const CONCEALABLE = new Set<RuleId>([
  'instruction-override', 'credential-exfil', 'exfil-parameter', 'conversation-exfil', 'cross-server-shadowing',
  'tool-priority', 'pseudo-system-tag', 'encoded-payload', 'exfil-url',
]);
/** Identity findings block even when the operator turned blocking off: they are not text that can be removed. */
const IDENTITY = new Set<RuleId>(['homoglyph-name', 'rug-pull', 'oversize']);

/** Matched on the name split into words (`deleteRecord` -> `delete record`), so `undelete` is not destructive. */
const DESTRUCTIVE_NAME = /\b(?:delete|drop|purge|overwrite|remove|destroy|erase|truncate|wipe|kill|terminate|rm|unlink|reset|format)\b/i;
const DESTRUCTIVE_TEXT = /^\s*(?:permanently )?(?:deletes|drops|purges|overwrites|removes|destroys|erases|truncates|wipes|kills|terminates)\b/i;

/** A server's own names, lower-cased, and their words (`reach_createNewCampaignV1` -> reach, create, new, campaign, v1), once per set (a catalog passes the same set for all its tools). */
interface OwnNames {
  readonly lower: ReadonlySet<string>;
  readonly words: ReadonlySet<string>;
}
const ownNamesOfSet = new WeakMap<ReadonlySet<string>, OwnNames>();
const NO_NAMES: OwnNames = { lower: new Set(), words: new Set() };

function ownNames(names: ReadonlySet<string> | undefined): OwnNames {
  if (!names) return NO_NAMES;
  let out = ownNamesOfSet.get(names);
  if (!out) {
    out = { lower: new Set([...names].map((n) => n.toLowerCase())), words: new Set([...names].flatMap(toolNameWords)) };
    ownNamesOfSet.set(names, out);
  }
  return out;
}

/** Drops every memo of the sanitizer's readings (they only ever speed up repeated strings). */
export function clearSanitizeCaches(): void {
  clearScanMemo();
}

export function sanitizeEntity<T>(kind: EntityKind, entity: T, ctx: SanitizeContext): SanitizeResult<T> {
  const limits = { ...DEFAULT_LIMITS, ...(ctx.limits ?? {}) };
  const blocking = ctx.blocking !== false;
  const names = ownNames(ctx.ownToolNames);
  const own = names.lower;
  const fieldOpts = { server: ctx.server, own, ownWords: names.words, params: parameterNames(kind, entity), index: ctx.otherServers, limits, blocking };

  const tooDeep: string[] = [];
  const outcomes: FieldOutcome[] = slotsOf(kind, entity, tooDeep).map((slot) => sanitizeField(slot, fieldOpts));
  const findings: Finding[] = outcomes.flatMap((o) => o.findings);
  for (const pointer of tooDeep.slice(0, 1)) {
    const c = plainContext(pointer, '');
    findings.push(finding(c, 'oversize', 'medium', 'block', { start: 0, end: 0 }, 'schema nested too deep to read; not forwarded unread'));
  }
  if (kind === 'tool' || kind === 'prompt') findings.push(...nameFindings(kind, entity, ctx));
  if (kind === 'tool') findings.push(...annotationFindings(entity));
  // Rules decide first; the model is asked only about a tool they let through.
  if (kind === 'tool' && ctx.learnedIntent !== false && !findings.some((f) => f.action === 'block')) {
    findings.push(...intentFindings(entity, { server: ctx.server, own, index: ctx.otherServers }));
  }

  const decided = decide(findings, blocking);
  const blocked = decided.some((f) => f.action === 'block');
  const changes = new Map<string, { path: readonly (string | number)[]; value: string }>();
  for (const o of outcomes) {
    if (o.slot.cls === 'text' && o.forwarded !== o.slot.value) changes.set(o.slot.pointer, { path: o.slot.path, value: o.forwarded });
  }
  const final = blocked ? decided.map((f) => ({ ...f, after: null, afterSha256: null })) : decided;
  const outcome = blocked ? 'block' : changes.size > 0 ? 'modify' : final.length > 0 ? 'flag' : 'none';
  return {
    forwarded: withReplacements(entity, changes),
    findings: final,
    blocked,
    outcome,
    hiddenInstruction: outcomes.some((o) => o.hiddenInstruction),
  };
}

/**
 * Entity-level decisions (SANITIZE.md "Decide"): a pseudo-system tag next to another content
 * finding blocks; concealment raises the severity of what it hides; with blocking off, content
 * blocks become flags (delimited blocks were already removed by the field layer).
 */
function decide(findings: readonly Finding[], blocking: boolean): Finding[] {
  const rules = new Set(findings.map((f) => f.rule));
  // Text quoted as an example does not make a pseudo tag next to it an injection.
  const escalate = findings.some((f) => ESCALATES_TAG.has(f.rule) && f.match?.pattern?.endsWith(':quoted') !== true);
  const concealed = rules.has('concealment') && [...rules].some((r) => CONCEALABLE.has(r));
  return findings.map((f) => {
    let out = f;
    if (f.rule === 'pseudo-system-tag' && escalate) {
      out = { ...out, action: 'block', severity: 'high', reason: `${out.reason}, next to other injected instructions` };
    }
    if (concealed && CONCEALABLE.has(f.rule)) out = { ...out, severity: raiseSeverity(out.severity), reason: `${out.reason}; concealment` };
    if (concealed && f.rule === 'concealment') out = { ...out, severity: 'high' };
    if (!blocking && out.action === 'block' && !IDENTITY.has(out.rule)) out = { ...out, action: 'flag' };
    return out;
  });
}

function plainContext(pointer: string, value: string): FieldContext {
  return { pointer, original: value, forwarded: value, toForwarded: (pos) => pos };
}

function nameFindings(kind: EntityKind, entity: unknown, ctx: SanitizeContext): Finding[] {
  if (!isObject(entity) || typeof entity['name'] !== 'string') return [];
  const name = entity['name'];
  // Lookalikes and collisions are about tools; a prompt's name is only checked for what it is made of.
  const hits = judgeName(name, ctx.server, kind === 'tool' ? ctx.otherServers : undefined);
  const c = plainContext('/name', name);
  return hits.map((h) => finding(c, h.rule, h.severity, h.action, { start: 0, end: name.length }, h.reason));
}

/** Annotations are hints and never trusted; a read-only or non-destructive claim on a destructive tool is worth a flag. */
function annotationFindings(entity: unknown): Finding[] {
  if (!isObject(entity)) return [];
  const ann = entity['annotations'];
  if (!isObject(ann)) return [];
  const name = typeof entity['name'] === 'string' ? entity['name'] : '';
  const description = typeof entity['description'] === 'string' ? entity['description'] : '';
  if (!DESTRUCTIVE_NAME.test(identifierWords(name)) && !DESTRUCTIVE_TEXT.test(description)) return [];
  const out: Finding[] = [];
  for (const [key, lie] of [['readOnlyHint', true], ['destructiveHint', false]] as const) {
    if (ann[key] !== lie) continue;
    const c = plainContext(`/annotations/${key}`, String(lie));
    out.push(finding(c, 'annotation-mismatch', 'low', 'flag', { start: 0, end: String(lie).length }, `${key}: ${lie} on a tool that deletes or overwrites`));
  }
  return out;
}

/**
 * SANITIZE.md "What to block": a server is suspect (shown by `check`/`audit`, never auto-disabled)
 * when two or more of its entities are withheld or a hidden channel decoded to an instruction.
 */
export function isServerSuspect(results: readonly Pick<SanitizeResult<unknown>, 'blocked' | 'hiddenInstruction'>[]): boolean {
  let blocked = 0;
  for (const r of results) {
    if (r.hiddenInstruction) return true;
    if (r.blocked && ++blocked >= 2) return true;
  }
  return false;
}

/**
 * The listing budget (SANITIZE.md `oversize`: a server's listing over 64 KiB): how many entities, in
 * order, fit when serialized. The caller withholds the rest and logs an `oversize` record for them.
 */
export function fitListing(entities: readonly unknown[], limit: number = LISTING_LIMIT): number {
  let used = 2; // the brackets of the array
  for (let i = 0; i < entities.length; i++) {
    used += (JSON.stringify(entities[i]) ?? 'null').length + (i > 0 ? 1 : 0);
    if (used > limit) return i;
  }
  return entities.length;
}
