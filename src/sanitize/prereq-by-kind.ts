// An unrelated prerequisite through software named by what it is, in any of 79 languages: a
// sentence that puts an action first ("before any conversion", "zanim odpowiesz", "使用前请先"),
// names a kind of software the model acts through ("your shell", "the ticket system", "whatever
// database connector is available"), gives an order or names an action ("run", "open a ticket") or
// names the model as the one who acts ("l'assistente invia"), and carries something: a value (a command, a
// channel, an address, a path) or one of the tool's own parameters to put the result in. A tool may
// speak of its own kind of software (a browser tool of the browser), so a kind that one of the
// server's tool names is named for is not this rule's. The grammar is not read, only these parts.
import { readsAsEnglish } from './directive-lexicon.js';
import { QUOTED_G, TLDS, firstOfSentences, namedByOwnTools, overlaps, speaksOfOwnParameter, type HijackContext } from './hijack-by-kind.js';
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
  /(?<![\p{L}\p{N}])(?:assistants?|the model|assistente|assistent(?:en|in)?|asystent\p{L}*|asistent\p{L}*|asisten|avustaja\p{L}*|asszisztens\p{L}*|ассистент\p{L}*|асистент\p{L}*|помощник\p{L}*|помічник\p{L}*|βοηθ\p{L}*|msaidizi|trợ lý)(?![\p{L}\p{N}])|助手|助理|アシスタント|어시스턴트|सहायक|সহকারী|المساعد|העוזר|دستیار|ผู้ช่วย/u;

/** The first sentence of the text that demands an action through another kind of software first; null when none does. */
export function prereqByKind(plain: string, ctx: HijackContext): PrereqByKind | null {
  const lex = hijackLexicon();
  if (!lex.before.english.test(plain) && !lex.before.other.test(plain)) return null;
  return firstOfSentences(plain, (sentence) => judgeSentence(sentence, ctx, lex));
}

/** A sentence read as English is read with the English lists only: other languages' nouns are English words ("fail", "terminal"). */
function judgeSentence(sentence: string, ctx: HijackContext, lex: HijackLexicon): PrereqByKind | null {
  // The cheap look first: most sentences put nothing first in any language.
  if (!lex.before.english.test(sentence) && !lex.before.other.test(sentence)) return null;
  const english = readsAsEnglish(sentence);
  const reading = english ? 'english' : 'other';
  const before = lex.before[reading].findAll(sentence).filter((b) => !PRIORITY_BEFORE.test(sentence.slice(Math.max(0, b.index - 1), b.index)));
  if (before.length === 0) return null;
  // A kind named inside quotes or code is a word the text is about ("by functionality (e.g. "database")").
  const quoted = quotedSpans(sentence);
  let tools: readonly StemMatch[] | undefined;
  const evidenced = (m: StemMatch): boolean => {
    const evidence = KINDS_NEEDING_EVIDENCE.get(m.key);
    if (evidence === undefined) return true;
    tools ??= lex.tool.findAll(sentence);
    return tools.some((t) => near(t, m, TOOL_NEAR)) || (evidence?.test(sentence) ?? false);
  };
  const kind = lex.software[reading].findAll(sentence).find((m) => !overlapsAny(m, before) && !overlapsAny(m, quoted) && !namedByOwnTools(lex.softwareWords.get(m.key) ?? [m.key], ctx) && evidenced(m));
  if (kind === undefined || !before.some((b) => near(b, kind, NEAR))) return null;
  // An order ("run", "pass", "must"), an action taken through software ("open a ticket", "post"), or the model named.
  const lists = english ? lex.english : lex.other;
  const apart = (m: StemMatch): boolean => !overlapsAny(m, before) && !overlaps(m, kind);
  const acts = lists.order.findAll(sentence).some(apart) || lists.action.findAll(sentence).some(apart);
  if (!acts && !THE_MODEL.test(sentence)) return null;
  if (!CARRIED.test(sentence) && !speaksOfOwnParameter(sentence, ctx)) return null;
  // What comes first is one of the server's own tools ("先用 queryEnv(action=domains) 检查"): the server's own order.
  if (namesOwnTool(sentence, ctx)) return null;
  return { index: kind.index, length: kind.length, kind: kind.key };
}

/**
 * What the action carries or where it goes: an address, a host, a channel, a path, a command in code
 * (with a space, a pipe or a slash). A plain quoted word or a `key=value` is a tool's own vocabulary.
 */
const CHANNEL = '(?<![\\w&])#[a-z][\\w-]{2,64}';
/** A path of two parts or more (`/etc/hosts`, `./a/b`), one in the home directory (`~/.netrc`), or `.env`: not an API's `/users`. */
const PATH = "(?:^|[\\s(`'\"])(?:(?:~|\\.{1,2})?\\/[\\w.-]{1,64}\\/|~\\/[\\w.-]{1,64})|(?<![\\w-])\\.env\\b";
const CARRIED = new RegExp(
  `https?:\\/\\/|(?<![\\w.+-])[\\w.+-]{1,64}@[\\w-]{1,63}\\.[a-z]|\\b\\d{1,3}(?:\\.\\d{1,3}){3}\\b|${CHANNEL}|\`[^\`\\n]{0,200}[\\s|/][^\`\\n]{0,200}\`|${PATH}|(?<![a-z0-9.-])[a-z0-9-]{1,63}\\.(?:${TLDS})\\b`,
  'u',
);
/** How far apart, in characters, what is put first and the software may be ("before any conversion, run `env` in your shell"). */
const NEAR = 160;

/** 优先 is "preferably": "优先使用你提供的配置" puts nothing first. */
const PRIORITY_BEFORE = /优|優/;

function quotedSpans(sentence: string): StemMatch[] {
  const out: StemMatch[] = [];
  for (const m of sentence.matchAll(QUOTED_G)) out.push({ index: m.index, length: m[0].length, key: '' });
  return out;
}

function namesOwnTool(sentence: string, ctx: HijackContext): boolean {
  for (const m of sentence.matchAll(IDENTIFIER_G)) if (ctx.own.has(m[0])) return true;
  return false;
}
/** A name as a tool has one, without a sentence's full stop or a trailing hyphen (`fetch_rates.`). */
const IDENTIFIER_G = /[a-z][a-z0-9_]*(?:[.-][a-z0-9_]+)*/g;

/**
 * Kinds whose nouns name a domain or a thing as often as software ("a payment", "the agenda", "the
 * file", "in this chat"): a tool for payments speaks of payments. They count only within a few
 * characters of a word for a tool ("the payment tool", "支付工具", "the calendar integration"), or, for
 * messaging and files, with a channel or a path anywhere in the sentence.
 */
const KINDS_NEEDING_EVIDENCE = new Map<string, RegExp | null>([
  ['payments', null],
  ['calendar', null],
  ['mail', null],
  ['contacts', null],
  ['crm', null],
  ['messaging', new RegExp(CHANNEL, 'u')],
  ['files', new RegExp(PATH, 'u')],
]);
const TOOL_NEAR = 24;

function near(a: StemMatch, b: StemMatch, chars: number): boolean {
  return a.index <= b.index + b.length + chars && b.index <= a.index + a.length + chars;
}

function overlapsAny(m: StemMatch, others: readonly StemMatch[]): boolean {
  return others.some((o) => overlaps(m, o));
}

/** The field's hits with the prerequisite's block added, unless another rule already withholds it. */
export function withPrereqByKind(hits: Hit[], plain: string, ctx: HijackContext): Hit[] {
  if (hits.some((h) => h.action === 'block')) return hits;
  const found = prereqByKind(plain, ctx);
  if (found === null) return hits;
  const reason = `demands an action through another kind of software (${found.kind}) before the tool is used`;
  return [...hits, { rule: 'tool-directive', id: 'directive.unrelated-prerequisite', action: 'block', severity: 'high', reason, start: found.index, end: found.index + found.length }];
}
