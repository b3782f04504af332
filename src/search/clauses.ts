// A long request in one `query` is often a task of several steps ("get the pods, show the logs of
// the crashing one and then restart the deployment"): searched whole, the words of one step drown
// the others and only one or two of its tools reach the top. Split into clauses, each step is
// searched on its own words (merge.ts). Splitting is by the surface of the text only: sentence
// ends, ';', "then" and its kin, numbered or bulleted lines, and "and" or a comma followed by a
// new imperative verb. Quoted text, brackets and URLs are never split.
import { MAX_QUERIES } from './meta-tools.js';
import { terms, words } from './words.js';

/** Fewer words than this are one intent however they read ("copy and paste", "list, then read"). */
const MIN_WORDS = 5;

/**
 * Verbs a step of a task starts with. Only words that are verbs when they follow "and" or a comma
 * in a request; nouns that are also verbs ("file", "post", "test") are left out, or guarded by
 * NOUN_AFTER, because "issues, pull requests and commits" must stay one list.
 */
const VERBS = new Set(
  (
    'add analyse analyze append apply approve archive ask assign attach book broadcast build calculate call cancel change check ' +
    'clean clear click clone close comment commit compare exec compute configure connect convert copy count crawl create delete deploy ' +
    'describe detect disable download drop duplicate edit email enable execute explain export extract fetch fill find fork format ' +
    'generate get give go grab import insert install invite kill label launch leave list load locate log look make mark merge move ' +
    'navigate notify open paste ping port-forward post press print publish pull push query read rebase reload remove rename reopen ' +
    'reply rerun reset resize resolve restore ' +
    'restart retrieve review revert rollback run save scale schedule scrape scroll search see select send set share show stage ' +
    'start stop store submit summarise summarize switch sync tag take tell transfer translate trigger turn type uninstall unpublish ' +
    'update upgrade upload upsert validate verify view visit wait watch write'
  ).split(' '),
);

/** A verb followed by one of these is a noun ("pull requests", "search results"): no new step. */
const NOUN_AFTER: Readonly<Record<string, readonly string[]>> = {
  pull: ['request', 'requests'],
  push: ['notification', 'notifications'],
  build: ['log', 'logs', 'failure', 'failures', 'status', 'number'],
  search: ['result', 'results', 'engine', 'index', 'query', 'bar', 'term', 'terms'],
  log: ['file', 'files', 'entry', 'entries', 'level', 'levels', 'message', 'messages'],
  run: ['detail', 'details', 'id', 'history', 'log', 'logs'],
  type: ['of'],
  set: ['of'],
  list: ['of'],
  view: ['of'],
  call: ['note', 'notes', 'log', 'logs'],
};

/** "go ahead and merge", "try and fix", "make sure and send": one action, whatever follows "and". */
const IDIOM_BEFORE = new Set(['ahead', 'go', 'come', 'try', 'sure']);

/** Words a lead-in starts with ("in slack, ...", "mit GitHub, ..."). */
const PREPOSITIONS = new Set(['in', 'on', 'at', 'with', 'using', 'via', 'from', 'for', 'inside', 'within', 'auf', 'mit', 'im', 'dans', 'avec', 'sur', 'en', 'con']);

/** Words that begin a clause without saying anything of its step. */
const LEADING_FILLER = /^(?:(?:and|also|please|first|firstly|then|so|now|ok|okay|zuerst|bitte|d'abord|primero|y|und|et)\b[,:]?\s*)+/iu;
/** A list marker: "- ", "* ", "1. ", "2) ", "(3) ", "step 4:". */
const MARKER = /^\s*(?:[-*•·]|\(?\d{1,2}[.)]|step\s+\d{1,2}[:.)]?)\s*/iu;

/** Connectives that end one step and start the next, in English, German, French and Spanish. */
const THEN = new RegExp(
  String.raw`(?:,\s*|\s+)(?:(?:and|und|et|y)\s+)?(?:then|after\s+that|afterwards?|finally|lastly|dann|danach|anschlie(?:ß|ss)end|zuletzt|puis|ensuite|apr[eè]s\s+(?:ça|ca|cela)|enfin|luego|despu[eé]s|finalmente)(?![\p{L}\p{N}'’-])[,:]?\s*`,
  'giu',
);
/** "and if it failed ...", "and when it's done ...": a condition that opens the next step. */
const AND_IF = /(?:,\s*|\s+)and\s+(?=(?:if|when|once|unless)\s)/giu;
/** "and once it's done", "when that is finished". */
const WHEN_DONE = /(?:,\s*|\s+)(?:and\s+)?(?:when|once)\s+(?:(?:it|that|this)(?:'s|’s|\s+is|\s+has)?\s+)?(?:done|finished|complete|completed|ready)\b,?\s*/giu;
/** Sentence ends: punctuation followed by space. A dot inside a word (README.md, v1.2) is no end. */
const SENTENCE_END = /[.!?。！？]+\s+/gu;
const ABBREVIATIONS = new Set(['e.g', 'i.e', 'eg', 'ie', 'etc', 'vs', 'approx', 'mr', 'mrs', 'ms', 'dr', 'st', 'no', 'nr', 'fig', 'z.b', 'bzw', 'usw']);
/** Text that reads as code: a ';' there ends a statement, not a step. */
const CODE = /[=<>{}$|&*\\]|\+\+|--/u;
/** "1. list ... 2. read ...", inline. */
const ENUMERATED = /(?:^|\s)\(?(\d{1,2})[.)]\s+/gu;
/** "and VERB" or ", VERB" (", and VERB"): a new step when VERB is one. */
const AND_VERB = /(?:\s*,\s*(?:(?:and|&)\s+)?|\s+(?:and|&)\s+)(?:also\s+|then\s+)?([\p{L}'’-]+)(?=(?:\s+([^\s,;.!?]+))?)/dgu;

interface Cut {
  readonly start: number;
  readonly end: number;
}

/**
 * The steps of a request, each a clause of its text; a request that does not read as several
 * steps comes back as itself, alone.
 */
export function clauses(text: string): string[] {
  if (words(text).length < MIN_WORDS) return [text];
  const masked = mask(text);
  const hard: Cut[] = [];
  for (const match of masked.matchAll(/\s*\n\s*/gu)) hard.push(cutOf(match));
  for (const match of masked.matchAll(SENTENCE_END)) if (!abbreviated(masked, match.index)) hard.push(cutOf(match));
  // The code test reads the text itself: the brackets of code are blanked in the mask.
  for (const match of masked.matchAll(/;\s+/gu)) if (!CODE.test(text.slice(Math.max(0, match.index - 40), match.index + 40))) hard.push(cutOf(match));
  for (const match of masked.matchAll(THEN)) hard.push(cutOf(match));
  for (const match of masked.matchAll(WHEN_DONE)) hard.push(cutOf(match));
  for (const match of masked.matchAll(AND_IF)) hard.push(cutOf(match));
  // On the text itself: "(1)" is a bracket the mask blanked.
  hard.push(...enumeration(text));
  const cuts: Cut[] = [];
  let from = 0;
  for (const cut of merged(hard)) {
    cuts.push(...verbCuts(text, masked, from, cut.start), cut);
    from = cut.end;
  }
  cuts.push(...verbCuts(text, masked, from, text.length));
  const parts: string[] = [];
  from = 0;
  for (const cut of [...merged(cuts), { start: text.length, end: text.length }]) {
    const part = tidy(text.slice(from, cut.start));
    if (terms(part).length > 0) parts.push(part);
    from = cut.end;
  }
  if (parts.length <= 1) return [text];
  // More steps than find_tools searches at once: the last clause takes the rest.
  if (parts.length > MAX_QUERIES) parts.splice(MAX_QUERIES - 1, parts.length, parts.slice(MAX_QUERIES - 1).join(', '));
  return parts;
}

/** Cuts at "and VERB" and ", VERB" between `from` and `to`: where the clause so far already says something. */
function verbCuts(text: string, masked: string, from: number, to: number): Cut[] {
  const out: Cut[] = [];
  let clauseStart = from;
  const span = masked.slice(from, to);
  for (const match of span.matchAll(AND_VERB)) {
    const verb = (match[1] ?? '').toLowerCase();
    const next = (match[2] ?? '').toLowerCase();
    if (!VERBS.has(verb) || next === '' || (NOUN_AFTER[verb]?.includes(next) ?? false)) continue;
    const start = from + match.index;
    const before = words(text.slice(clauseStart, start)).filter((word) => !FILLER_WORDS.has(word));
    if (before.length < 2 || IDIOM_BEFORE.has(before[before.length - 1] as string)) continue;
    // "In airtable, find ...": a lead-in that names where, not a step.
    if (before.length <= 3 && PREPOSITIONS.has(before[0] as string)) continue;
    // The cut takes the separator, not the verb: the next clause starts with it.
    const end = from + (match.indices?.[1]?.[0] ?? match.index + match[0].length);
    out.push({ start, end });
    clauseStart = end;
  }
  return out;
}

/** Words that do not make a clause say something ("can you please" is no step). */
const FILLER_WORDS = new Set(['please', 'can', 'could', 'would', 'you', 'hey', 'hi', 'also', 'first', 'then', 'and', 'so', 'now', 'ok', 'okay']);

/** "e.g. ", "Dr. ", a single letter ("J. Smith", "p.m. "): a dot that ends no sentence. */
function abbreviated(masked: string, at: number): boolean {
  if (masked[at] !== '.') return false;
  const word = /([\p{L}.]+)$/u.exec(masked.slice(Math.max(0, at - 12), at))?.[1]?.toLowerCase() ?? '';
  return word.length === 1 || ABBREVIATIONS.has(word) || /^(?:\p{L}\.)+\p{L}$/u.test(word);
}

/** An inline numbered list "1. ... 2. ...": cuts at its markers, from 1 on, in order. */
function enumeration(text: string): Cut[] {
  const out: Cut[] = [];
  let expected = 1;
  for (const match of text.matchAll(ENUMERATED)) {
    if (Number(match[1]) !== expected) continue;
    out.push(cutOf(match));
    expected += 1;
  }
  return out.length >= 2 ? out : [];
}

/** The text with quoted, bracketed and URL spans blanked (same length), so no split falls inside them. */
function mask(text: string): string {
  // UTF-16 units, as regular expressions index them.
  const units = text.split('');
  const blank = (start: number, end: number): void => {
    for (let i = start; i < end; i++) if (units[i] !== '\n') units[i] = '_';
  };
  for (const pattern of [/`[^`]*`/gu, /"[^"\n]*"/gu, /“[^”\n]*”/gu, /«[^»\n]*»/gu, /(?<=^|[\s(])['‘][^'’\n]*['’](?=$|[\s.,;:!?)])/gu, /\b(?:https?|ftp|file):\/\/\S+?(?=[.,;:!?)]*(?:\s|$))|\bwww\.\S+?(?=[.,;:!?)]*(?:\s|$))/giu]) {
    for (const match of text.matchAll(pattern)) blank(match.index, match.index + match[0].length);
  }
  const open: Array<{ char: string; at: number }> = [];
  const pairs: Readonly<Record<string, string>> = { ')': '(', ']': '[', '}': '{' };
  for (let i = 0; i < text.length; i++) {
    const char = units[i] as string;
    if (char === '(' || char === '[' || char === '{') open.push({ char, at: i });
    else if (pairs[char] !== undefined) {
      const index = open.map((entry) => entry.char).lastIndexOf(pairs[char]);
      if (index < 0) continue;
      const start = (open[index] as { at: number }).at;
      open.length = index;
      blank(start, i + 1);
    }
  }
  return units.join('');
}

/** A clause as searched: no list marker, no leading "and then", no trailing punctuation. */
function tidy(part: string): string {
  return part.replace(MARKER, '').replace(LEADING_FILLER, '').replace(/[\s.,;:!?。]+$/u, '').trim();
}

function cutOf(match: RegExpMatchArray): Cut {
  const start = match.index ?? 0;
  return { start, end: start + match[0].length };
}

/** Cuts in order, overlapping ones joined. */
function merged(cuts: readonly Cut[]): Cut[] {
  const sorted = [...cuts].sort((a, b) => a.start - b.start || b.end - a.end);
  const out: Cut[] = [];
  for (const cut of sorted) {
    const last = out[out.length - 1];
    if (last !== undefined && cut.start <= last.end) out[out.length - 1] = { start: last.start, end: Math.max(last.end, cut.end) };
    else out.push(cut);
  }
  return out;
}
