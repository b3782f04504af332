// An argument hijack of a tool named by what it does, in any of 79 languages: a sentence that
// binds an action the model takes through some other tool ("al crear eventos", "при удалении",
// "메시지를 보낼 때", "whenever you post") to an order ("always add", "set", "also") and to a
// value for it (an address, a path, a flag, a channel, a quoted name). A tool explains its own
// use, so the action must not be one its own server's tool names are named for (`send_sms` may say
// how its messages are sent), and the sentence must not speak of its own parameters. The grammar
// is not read, only these four parts, from the word lists of hijack-lexicon.json. In English,
// where the directive analysis reads the grammar and "when" opens conditions of every kind, the
// clause must also say who acts: "whenever you post", "any message you send".
import { readsAsEnglish } from './directive-lexicon.js';
import type { Hit } from './semantic.js';
import { hijackLexicon, type HijackLexicon, type Lists } from './hijack-lexicon.js';
import type { StemMatch } from './stem-lexicon.js';

export interface HijackContext {
  /** Lower-case names of the server's own tools. */
  readonly own: ReadonlySet<string>;
  /** The words of those names, split where the original changes case too (`createNewCampaign`). */
  readonly ownWords: ReadonlySet<string>;
  /** Lower-case parameter names of the judged tool. */
  readonly params: ReadonlySet<string>;
}

export interface HijackByKind {
  readonly index: number;
  readonly length: number;
  /** The action's English name ("send", "merge"). */
  readonly action: string;
}

/** Hosts and currencies, as the value patterns and their cheap gate both name them. */
export const TLDS = 'com|net|org|io|dev|ai|co|app|cloud|example|xyz|info|me';
const CURRENCIES = 'chf|eur|usd|gbp|jpy|pln|czk|inr';
/** Text in quotes or code, in the quotation marks of the languages read ('single quotes' not an apostrophe inside a word). */
const QUOTED = "`[^`\\n]{1,200}`|\"[^\"\\n]{1,120}\"|«[^»\\n]{1,120}»|„[^“”\\n]{1,120}[“”]|“[^”\\n]{1,120}”|「[^」\\n]{1,120}」|『[^』\\n]{1,120}』|(?<![\\p{L}\\p{N}])['‘][^'‘’\\n]{1,120}['’](?![\\p{L}\\p{N}])";
export const QUOTED_G = new RegExp(QUOTED, 'gu');
/**
 * A value handed to the other tool: quoted or in code, an address, a path, a flag, a channel, an
 * empty filter, a share, a currency, a phone number (after a plus) or an account number (a run of
 * four digits or more, not an ISO date), or `key=value`. A bare snake_case name in code is not one:
 * tools name their own fields and error codes that way.
 */
const VALUE_G = new RegExp(
  QUOTED +
    '|https?:\\/\\/\\S{1,2048}|(?<![\\w.+-])[\\w.+-]{1,64}@[\\w-]{1,63}\\.[\\w.-]{1,190}|(?<![a-z0-9.-])[a-z0-9-]{1,63}(?:\\.[a-z0-9-]{1,63}){0,8}\\.(?:' + TLDS + ')\\b(?:\\/\\S{0,2048})?|\\b\\d{1,3}(?:\\.\\d{1,3}){3}\\b|(?<![\\w&])#[a-z][\\w-]{2,64}|(?<![\\w-])--[a-z][\\w-]{0,64}|\\{\\s{0,8}\\}|(?<![\\d.,])\\d{1,15}(?:[.,]\\d{1,15})? ?%|\\b(?:' + CURRENCIES + ')\\b' +
    '|(?<![\\w.,])\\+\\d(?:[ .-]?\\d){6,24}(?!\\w)|(?<![\\w.,+])(?=[\\d .-]{0,30}\\d{4})(?!\\d{4}-\\d{2}-\\d{2}\\b)\\d(?:[ .-]?\\d){6,24}(?!\\w)|(?<![\\w-])[a-z][\\w.-]{1,40}=[^\\s,;]{1,80}',
  'gu',
);
const QUOTES = /^[`"«„“「『'‘]|[`"»“”」』'’]$/g;
const SNAKE_NAME = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$/;
/** "e.g.", "such as", "例如", "如": a value given as an example of a format. */
const EXAMPLE_BEFORE = /(?:e\.g\.|such as|like|for (?:example|instance)|z\. ?b\.|p\. ?ej\.|par ex\.|例如|比如|如|例えば|예:|например|np\.|bijv\.|esim\.|örn\.)\s*$/u;
/** How far an action may follow its cue ("al crear eventos", "при удалении") or precede it ("보낼 때"). */
const CUE_BEFORE_ACTION = 24;
const ACTION_BEFORE_CUE = 12;
/**
 * Where a sentence ends: a full stop before a space, not the dot of an address and not one after a word
 * of one or two letters ("e.g.", "z. B.", "p. ej.", "np."); a semicolon, 。. (The reading this runs on
 * has made single line breaks spaces already.)
 */
const SENTENCE_END_G = /(?<!(?:^|[^\p{L}])\p{L}{1,2})[.!?؟।](?:\s+|$)|[\n;。]+/gu;
/**
 * A hijack is said in a sentence of ordinary length; a longer run (a blob, a minified page) is left to
 * the other rules, which read it all. Each value pattern is bounded and anchored, so a sentence costs
 * its length, but a megabyte of one sentence is still a megabyte for each list.
 */
const LONGEST_SENTENCE = 4096;
/** Cheap look for the gate: nothing here can fire without something quoted, addressed or flagged. */
const VALUE_CUE = new RegExp(`[\`"«„“「『@#%{‘=]|--|:\\/\\/|\\d\\.\\d|\\d(?:[ .-]?\\d){6}|(?<![a-z0-9])'|[a-z0-9]\\.(?:${TLDS})\\b|\\b(?:${CURRENCIES})\\b`);

/** The first sentence of the text that hijacks another kind of tool's arguments; null when none does. */
export function hijackByKind(plain: string, ctx: HijackContext): HijackByKind | null {
  if (!VALUE_CUE.test(plain)) return null;
  return firstOfSentences(plain, (sentence) => (VALUE_CUE.test(sentence) ? judgeSentence(sentence, readsAsEnglish(sentence), ctx) : null));
}

/**
 * The first finding of `judge` over the text's sentences of ordinary length (12 to 4,096 characters),
 * its index made the text's.
 */
export function firstOfSentences<T extends { readonly index: number }>(plain: string, judge: (sentence: string) => T | null): T | null {
  SENTENCE_END_G.lastIndex = 0;
  for (let from = 0; from < plain.length; ) {
    const end = SENTENCE_END_G.exec(plain);
    const to = end === null ? plain.length : end.index + end[0].length;
    const sentence = plain.slice(from, to);
    if (sentence.length >= 12 && sentence.length <= LONGEST_SENTENCE) {
      const found = judge(sentence);
      if (found !== null) return { ...found, index: from + found.index };
    }
    from = to;
  }
  return null;
}

function judgeSentence(sentence: string, english: boolean, ctx: HijackContext): HijackByKind | null {
  const values = valuesOf(sentence, ctx);
  if (values.length === 0) return null;
  const lex = hijackLexicon();
  // A terse sentence of another language reads as English ("Beim Versenden immer `x` setzen."): an
  // English reading tries the English lists (who acts must be said) and then the others'.
  return (english ? judgeWith(sentence, values, lex.english, true, ctx, lex) : null) ?? judgeWith(sentence, values, lex.other, false, ctx, lex);
}

function judgeWith(sentence: string, values: readonly Span[], lists: Lists, english: boolean, ctx: HijackContext, lex: HijackLexicon): HijackByKind | null {
  const inValue = (m: StemMatch): boolean => values.some((v) => m.index < v.end && m.index + m.length > v.start);
  // An action named inside the value ("the setting “ask before deleting”") is the value's words.
  const actions = lists.action.findAll(sentence).filter((a) => !inValue(a));
  if (actions.length === 0) return null;
  const cues = lists.cue.findAll(sentence);
  const bound = actions.find((a) => !ownAction(a.key, ctx, lex) && cues.some((c) => bindsAction(sentence, c, a, english)));
  if (bound === undefined) return null;
  // The order is a word of its own: not inside the value, the action or a cue ("bei jedem" holds "bei", "and" in Lithuanian).
  const apart = (o: StemMatch): boolean => !inValue(o) && !overlaps(o, bound) && !cues.some((c) => overlaps(o, c));
  if (!lists.order.findAll(sentence).some(apart) || speaksOfOwnParameter(sentence, ctx)) return null;
  return { index: bound.index, length: bound.length, action: bound.key };
}

interface Span {
  readonly start: number;
  readonly end: number;
}

export function overlaps(a: StemMatch, b: StemMatch): boolean {
  return a.index < b.index + b.length && b.index < a.index + a.length;
}

/** In English who acts must be said ("whenever you post"); elsewhere the cue and the action are enough. */
function bindsAction(sentence: string, cue: StemMatch, action: StemMatch, english: boolean): boolean {
  return english ? saysWhoActs(sentence, cue, action) : boundTo(cue, action);
}

/** A cue right before its action ("при удалении") or, in languages that put it after, right after ("보낼 때"). */
function boundTo(cue: StemMatch, action: StemMatch): boolean {
  const cueEnd = cue.index + cue.length;
  const actionEnd = action.index + action.length;
  // A cue may hold its action ("al crear" is listed whole): overlapping, they are bound.
  if (cue.index < actionEnd && action.index < cueEnd) return true;
  return (cueEnd <= action.index && action.index - cueEnd <= CUE_BEFORE_ACTION) || (actionEnd <= cue.index && cue.index - actionEnd <= ACTION_BEFORE_CUE);
}

/** English: "when(ever) you [then] send", "any message you post": the cue, then "you", then the action. */
function saysWhoActs(sentence: string, cue: StemMatch, action: StemMatch): boolean {
  const cueEnd = cue.index + cue.length;
  return cueEnd <= action.index && action.index - cueEnd <= CUE_BEFORE_ACTION && YOU.test(sentence.slice(cueEnd, action.index));
}
const YOU = /\byou\b/;

function valuesOf(sentence: string, ctx: HijackContext): Span[] {
  const out: Span[] = [];
  VALUE_G.lastIndex = 0;
  for (let m = VALUE_G.exec(sentence); m !== null; m = VALUE_G.exec(sentence)) {
    const core = m[0].replace(QUOTES, '');
    if (SNAKE_NAME.test(core) || ctx.own.has(core) || ctx.params.has(core) || ctx.params.has(core.slice(0, Math.max(0, core.indexOf('='))))) continue;
    if (EXAMPLE_BEFORE.test(sentence.slice(Math.max(0, m.index - 12), m.index))) continue;
    out.push({ start: m.index, end: m.index + m[0].length });
  }
  return out;
}

/**
 * The action is what one of the server's own tools is named for (`send_sms`, `createCampaign` and
 * "보낼 때"): a whole word of a name, or the word with an "s" (`send_messages`). Not a piece of one
 * (`facebook` books nothing, `openai_chat` opens nothing).
 */
function ownAction(action: string, ctx: HijackContext, lex: HijackLexicon): boolean {
  return namedByOwnTools(lex.toolWords.get(action) ?? [action], ctx);
}

/** Whether one of these words is a whole word of the server's tool names (a word of two, `run_command`, is both there). */
export function namedByOwnTools(words: readonly string[], ctx: HijackContext): boolean {
  return words.some((w) => (w.includes('_') ? w.split('_').every((part) => ctx.ownWords.has(part)) : ctx.ownWords.has(w) || ctx.ownWords.has(`${w}s`)));
}

/** A parameter of the tool's own, named as a whole word ("set `pattern`", "the text"). */
export function speaksOfOwnParameter(sentence: string, ctx: HijackContext): boolean {
  for (const p of ctx.params) {
    if (p.length < 3) continue;
    for (let at = sentence.indexOf(p); at >= 0; at = sentence.indexOf(p, at + 1)) {
      if (!WORD_CHAR.test(sentence[at - 1] ?? ' ') && !WORD_CHAR.test(sentence[at + p.length] ?? ' ')) return true;
    }
  }
  return false;
}
const WORD_CHAR = /[\p{L}\p{N}_]/u;

/**
 * What the learned second opinion reads of these lists, in a sentence of a reading already NFKC and
 * lower case: an action bound to its cue ("при удалении", "whenever you post"), "always" or "every
 * time", an order or "also" in another language than English ("ustaw", "넣으세요"), a noun for a tool.
 */
export function actionConcepts(sentence: string): ActionConcepts {
  const lex = hijackLexicon();
  const english = readsAsEnglish(sentence);
  const lists = english ? lex.english : lex.other;
  const cues = lists.cue.findAll(sentence);
  const bound = cues.length > 0 && lists.action.findAll(sentence).some((a) => cues.some((c) => bindsAction(sentence, c, a, english)));
  return { bound, always: lex.always.test(sentence), order: !english && lists.order.test(sentence), tool: lex.tool.test(sentence) };
}

export interface ActionConcepts {
  readonly bound: boolean;
  readonly always: boolean;
  readonly order: boolean;
  readonly tool: boolean;
}

/** The field's hits with a hijack's block added, unless another rule already withholds it. */
export function withHijackByKind(hits: Hit[], plain: string, ctx: HijackContext): Hit[] {
  if (hits.some((h) => h.action === 'block')) return hits;
  const found = hijackByKind(plain, ctx);
  if (found === null) return hits;
  const reason = `tells the model how to pass arguments when it uses another tool, named by what it does, to ${found.action}`;
  return [...hits, { rule: 'tool-directive', id: 'directive.other-tool-arguments', action: 'block', severity: 'high', reason, start: found.index, end: found.index + found.length }];
}
