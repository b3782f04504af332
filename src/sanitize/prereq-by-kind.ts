// An unrelated prerequisite through software named by what it is, in any of 79 languages: a
// sentence that puts an action first ("before any conversion", "zanim odpowiesz", "使用前请先"),
// names a kind of software the model acts through ("your shell", "the ticket system", "whatever
// database connector is available"), gives the model the order or names it as the one who acts
// ("the assistant posts", "l'assistente invia"), and carries something: a value (a command, a
// channel, an address, a path) or one of the tool's own parameters to put the result in. A tool may
// speak of its own kind of software (a browser tool of the browser), so a kind that one of the
// server's tool names is named for is not this rule's. The grammar is not read, only these parts.
import { readsAsEnglish } from './directive-lexicon.js';
import { firstOfSentences, holdsValue, speaksOfOwnParameter, type HijackContext } from './hijack-by-kind.js';
import { hijackLexicon, type HijackLexicon } from './hijack-lexicon.js';
import type { Hit } from './semantic.js';
import type { StemMatch } from './stem-lexicon.js';

export interface PrereqByKind {
  readonly index: number;
  readonly length: number;
  /** The kind of software ("shell", "tickets"). */
  readonly kind: string;
}

/**
 * The model named as the one who acts, in the languages of the lists: "the assistant", "the agent",
 * "the model". A sentence that only tells someone to act must hold an order instead.
 */
const THE_MODEL =
  /(?<![\p{L}\p{N}])(?:assistants?|agents?|the model|ai|llm|asistente|assistente|assistent(?:en|in)?|asystent\p{L}*|asistent\p{L}*|asisten|avustaja\p{L}*|asszisztens\p{L}*|assistenten|ассистент\p{L}*|асистент\p{L}*|помощник\p{L}*|помічник\p{L}*|βοηθ\p{L}*|msaidizi|trợ lý)(?![\p{L}\p{N}])|助手|助理|アシスタント|어시스턴트|सहायक|সহকারী|المساعد|העוזר|دستیار|ผู้ช่วย/u;

/** The first sentence of the text that demands an action through another kind of software first; null when none does. */
export function prereqByKind(plain: string, ctx: HijackContext): PrereqByKind | null {
  const lex = hijackLexicon();
  if (!lex.before.test(plain)) return null;
  return firstOfSentences(plain, (sentence) => judgeSentence(sentence, ctx, lex));
}

function judgeSentence(sentence: string, ctx: HijackContext, lex: HijackLexicon): PrereqByKind | null {
  const before = lex.before.findAll(sentence);
  if (before.length === 0) return null;
  const kind = lex.software.findAll(sentence).find((m) => !overlapsAny(m, before) && !ownKind(m.key, ctx, lex));
  if (kind === undefined) return null;
  const lists = readsAsEnglish(sentence) ? [lex.english, lex.other] : [lex.other];
  const ordered = lists.some((l) => l.order.findAll(sentence).some((o) => !overlapsAny(o, before) && !overlapsAny(o, [kind])));
  if (!ordered && !THE_MODEL.test(sentence)) return null;
  if (!holdsValue(sentence) && !speaksOfOwnParameter(sentence, ctx)) return null;
  return { index: kind.index, length: kind.length, kind: kind.key };
}

function overlapsAny(m: StemMatch, others: readonly StemMatch[]): boolean {
  return others.some((o) => m.index < o.index + o.length && o.index < m.index + m.length);
}

/** The kind of software is what one of the server's own tools is named for (a browser server's `browser_navigate`). */
function ownKind(kind: string, ctx: HijackContext, lex: HijackLexicon): boolean {
  const words = lex.softwareWords.get(kind) ?? [kind];
  return words.some((w) => ctx.ownWords.has(w) || ctx.ownWords.has(`${w}s`));
}

/** The field's hits with the prerequisite's block added, unless another rule already withholds it. */
export function withPrereqByKind(hits: Hit[], plain: string, ctx: HijackContext): Hit[] {
  if (hits.some((h) => h.action === 'block')) return hits;
  const found = prereqByKind(plain, ctx);
  if (found === null) return hits;
  const reason = `demands an action through another kind of software (${found.kind}) before the tool is used`;
  return [...hits, { rule: 'tool-directive', id: 'directive.unrelated-prerequisite', action: 'block', severity: 'high', reason, start: found.index, end: found.index + found.length }];
}
