// Where an identifier that some other server serves as a tool is plainly something else in the
// text around it. With hundreds of servers in a catalog, `source_code`, `wait_for`, `git-clone` and
// `take_damage` are all somebody's tools, and also a key of an example response, a value this
// tool's own field lists, a verb, and a method of the user's game; `list_folder` is also the
// tool's own `models_list_folder` shortened. Every text passed here is the lower-case reading the
// rules judge.

/**
 * `"source_code": {` among the keys of a whole document the text shows (an example response): one
 * key of many. A small object keyed by a tool's name (`{"send_email": {"bcc": ...}}`) is that
 * tool's arguments spelt out, and stays a mention.
 */
export function keyOfShownDocument(text: string, start: number, end: number): boolean {
  if (start === 0 || (text[start - 1] !== '"' && text[start - 1] !== "'") || !OBJECT_KEY_AFTER.test(text.slice(end, end + 12))) return false;
  let keys = 0;
  for (const _ of text.slice(Math.max(0, start - DOCUMENT_REACH), end + DOCUMENT_REACH).matchAll(ANY_KEY)) if (++keys > DOCUMENT_KEYS) return true;
  return false;
}
const OBJECT_KEY_AFTER = /^["']\s*:\s*(?:[{["'\d-]|true\b|false\b|null\b)/;
const ANY_KEY = /["'][a-z_][a-z0-9_]{0,40}["']\s*:/g;
/** A document shows more keys than this within DOCUMENT_REACH characters either side of the name. */
const DOCUMENT_KEYS = 6;
const DOCUMENT_REACH = 300;

/** "git-clone it into `target_path`": a verb taking its object, not a tool named. */
export function verbWithObject(text: string, end: number): boolean {
  return VERB_OBJECT_AFTER.test(text.slice(end, end + 24));
}
const VERB_OBJECT_AFTER = /^[`'"]?\s+(?:it|them)\s+(?:into|to|from|in|inside|onto|on|under|with)\b/;

/**
 * "`take_damage`, `respawn`, `play_intro`, or any other game-logic method": examples of a kind of
 * thing, where at least one of the others listed is nobody's tool (so the list is of methods,
 * fields or values, and one of them shares a name with a tool by chance). `servedAsTool` says
 * whether some server serves a name.
 */
export function exampleOfAKind(text: string, end: number, servedAsTool: (name: string) => boolean): boolean {
  const m = EXAMPLES_AFTER.exec(text.slice(end, end + 160));
  if (m === null) return false;
  for (const other of m[0].matchAll(LISTED_NAME)) if (other[1] !== 'or' && other[1] !== 'and' && !servedAsTool(other[1]!)) return true;
  return false;
}
/** The rest of a list of names after the first, closed by "or any other", "and other" or "etc". */
const EXAMPLES_AFTER = /^[`'"]?(?:\s*,\s*[`'"]?[a-z][a-z0-9_]{1,40}[`'"]?){1,8},?\s+(?:(?:or|and)\s+(?:any\s+)?other\b|etc\b)/;
const LISTED_NAME = /,\s*[`'"]?([a-z][a-z0-9_]{1,40})/g;

/**
 * The words after which a field lists the values one of its members takes ("Valid actions:
 * navigate (requires url), click, ..."): the members of that list are this tool's own values.
 */
const VALUES_CUE = /\b(?:valid|supported|allowed|available|accepted|possible)\s+(?:[a-z]+\s+)?(?:actions|values|options|types|steps|commands|operations|modes|kinds|verbs)\s*(?:are\s*)?:/g;
/** How far a list of values runs at most after its cue. */
const LIST_CHARS = 2000;

/** The members of every list of values the text declares (VALUES_CUE); `text` is lower case. */
export function listedValues(text: string): ReadonlySet<string> {
  if (!text.includes(':')) return NONE;
  let found: Set<string> | undefined;
  VALUES_CUE.lastIndex = 0;
  for (let m = VALUES_CUE.exec(text); m !== null; m = VALUES_CUE.exec(text)) {
    const list = membersAfter(text, m.index + m[0].length);
    for (const member of list.members) (found ??= new Set()).add(member);
    // A cue inside a list already read starts no second reading of it: every character is read once.
    VALUES_CUE.lastIndex = Math.max(VALUES_CUE.lastIndex, list.end);
  }
  return found ?? NONE;
}
const NONE: ReadonlySet<string> = new Set();

/** The first word of each comma-separated item from `from` to the list's end (a full stop outside brackets), and where it ends. */
function membersAfter(text: string, from: number): { members: Set<string>; end: number } {
  const members = new Set<string>();
  let depth = 0;
  let itemStart = true;
  const stop = Math.min(text.length, from + LIST_CHARS);
  let i = from;
  for (; i < stop; i++) {
    const c = text[i]!;
    if (c === '(' || c === '[' || c === '{') depth++;
    else if ((c === ')' || c === ']' || c === '}') && depth > 0) depth--;
    else if (depth === 0 && c === ',') itemStart = true;
    else if (depth === 0 && (c === '.' || c === ';' || c === '\n') && (i + 1 >= text.length || /\s/.test(text[i + 1]!))) break;
    else if (itemStart && /[a-z]/.test(c)) {
      const word = /^[a-z][a-z0-9_-]*/.exec(text.slice(i, i + 64))![0];
      members.add(word);
      i += word.length - 1;
      itemStart = false;
    } else if (itemStart && !/[\s`'"]/.test(c)) itemStart = false;
  }
  return { members, end: i };
}

/**
 * The ends of the tool's listed operations of one family, without the family's word and two words
 * at least: `list_folder` is `models_list_folder` of a tool whose `action` lists `models_list_folders`,
 * `models_show` and `models_search` too (a single `after_create_issue` is no family).
 */
function familyTails(params: ReadonlySet<string>): ReadonlySet<string> {
  let out = familyTailSets.get(params);
  if (!out) {
    const heads = new Map<string, number>();
    for (const name of params) {
      const head = name.split(/[_-]/)[0]!;
      if (head !== name) heads.set(head, (heads.get(head) ?? 0) + 1);
    }
    const found = new Set<string>();
    for (const name of params) {
      const words = name.split(/[_-]/);
      if (words.length < 3 || (heads.get(words[0]!) ?? 0) < FAMILY_MEMBERS) continue;
      for (let k = 1; k <= words.length - 2; k++) found.add(words.slice(k).join(''));
    }
    familyTailSets.set(params, (out = found));
  }
  return out;
}
const familyTailSets = new WeakMap<ReadonlySet<string>, ReadonlySet<string>>();
/** The fewest operations that make a family. */
const FAMILY_MEMBERS = 3;

/** `list_folder` where the tool's own listed operations include `models_list_folder` (familyTails). */
export function shortensOwnOperation(name: string, params: ReadonlySet<string>): boolean {
  return familyTails(params).has(name.replace(/[_\-.]/g, ''));
}
