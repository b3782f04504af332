// Where an identifier that some other server serves as a tool is plainly something else in the
// text around it. With hundreds of servers in a catalog, `source_code`, `wait_for`, `git-clone` and
// `list_folder` are all somebody's tools, and also a key of an example response, a value this
// parameter's description lists, a command run on the tool's own parameter, and the tool's own
// `models_list_folder` shortened. Each reading is narrow on purpose: the same name called, or put
// where an attack puts it, is still a mention. Every text passed here is the lower-case reading the
// rules judge.

/** What a name's surroundings are checked against: the tool's own parameters and listed values. */
export interface NameContext {
  /** Lower-case parameter names of the judged entity, with its listed operations (walk.ts). */
  readonly params: ReadonlySet<string>;
  /** Values a parameter's description lists for it (listedValues); empty for other text. */
  readonly listed: ReadonlySet<string>;
}

/**
 * Whether the name at [start, end) of `text` is used as something other than a tool. `called`: a
 * verb calls it ("call", "invoke"), and then only a key of a shown document or the tool's own
 * operation shortened still count as data.
 */
export function usedAsData(text: string, start: number, end: number, name: string, ctx: NameContext, called: boolean): boolean {
  if (keyOfShownDocument(text, start, end) || shortensOwnOperation(name, ctx.params)) return true;
  return !called && (ctx.listed.has(name) || commandOnOwnParameter(text, end, name, ctx.params));
}

/**
 * `"source_code": {` as one key of an object of many (an example response). Only the keys beside it
 * count, not those of its own value: `{"send_email": {"to": ..., "cc": ..., "bcc": ...}}` is that
 * tool's arguments spelt out and stays a mention, however many there are.
 */
export function keyOfShownDocument(text: string, start: number, end: number): boolean {
  if (start === 0 || (text[start - 1] !== '"' && text[start - 1] !== "'") || !OBJECT_KEY_AFTER.test(text.slice(end, end + 12))) return false;
  const open = enclosingBrace(text, start - 1);
  return open >= 0 && keysAtDepthOne(text, open) >= DOCUMENT_KEYS;
}
const OBJECT_KEY_AFTER = /^["']\s*:\s*(?:[{["'\d-]|true\b|false\b|null\b)/;
/** An object of a shown document holds at least this many keys. */
const DOCUMENT_KEYS = 6;
/** How far a document is read around a name, each way. */
const DOCUMENT_REACH = 600;

/** The `{` that opens the object holding `at`, or -1 (read back at most DOCUMENT_REACH characters). */
function enclosingBrace(text: string, at: number): number {
  let depth = 0;
  for (let i = at - 1; i >= Math.max(0, at - DOCUMENT_REACH); i--) {
    const c = text[i];
    if (c === '}' || c === ']') depth++;
    else if (c === '[' && depth > 0) depth--;
    else if (c === '{') {
      if (depth === 0) return i;
      depth--;
    }
  }
  return -1;
}

/** The keys of the object opened at `open`, its nested values' keys not counted. */
function keysAtDepthOne(text: string, open: number): number {
  let depth = 0;
  let keys = 0;
  let inString = false;
  let stringStart = 0;
  for (let i = open; i < Math.min(text.length, open + DOCUMENT_REACH); i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') {
        inString = false;
        if (depth === 1 && /^\s*:/.test(text.slice(i + 1, i + 8)) && i > stringStart) keys++;
      }
    } else if (c === '"') [inString, stringStart] = [true, i + 1];
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      if (--depth === 0) break;
    }
  }
  return keys;
}

/**
 * "git-clone it into `target_path`": a command (a hyphenated name, as shells write them) run on
 * one of the tool's own parameters. A name used as a verb on anything else ("send_email it to the
 * archive") is how an injection addresses a tool, and stays a mention.
 */
function commandOnOwnParameter(text: string, end: number, name: string, params: ReadonlySet<string>): boolean {
  if (!name.includes('-') || name.includes('_')) return false;
  const m = COMMAND_OBJECT_AFTER.exec(text.slice(end, end + 80));
  return m !== null && params.has(m[1]!);
}
const COMMAND_OBJECT_AFTER = /^[`'"]?\s+(?:it|them)\s+(?:into|to|from|in|inside|onto|under)\s+`([a-z_][a-z0-9_]{0,40})`/;

/**
 * The words after which a parameter's description lists the values it takes ("Valid actions:
 * navigate (requires url), click, ..."): the members of that list are this tool's own values.
 */
const VALUES_CUE = /\b(?:valid|supported|allowed|available|accepted|possible)\s+(?:[a-z]+\s+)?(?:actions|values|options|types|steps|commands|operations|modes|kinds|verbs)\s*(?:are\s*)?:/g;
/** How far a list of values runs at most after its cue. */
const LIST_CHARS = 2000;
/** The fewest members that make a list of values. */
const LIST_MEMBERS = 3;

/**
 * The members of every list of three values or more the text declares (VALUES_CUE); `text` is
 * lower case. Read for a parameter's description only: one planted "Supported modes: send_email"
 * in a tool's description makes no value of a tool.
 */
export function listedValues(text: string): ReadonlySet<string> {
  if (!text.includes(':')) return NONE;
  let found: Set<string> | undefined;
  VALUES_CUE.lastIndex = 0;
  for (let m = VALUES_CUE.exec(text); m !== null; m = VALUES_CUE.exec(text)) {
    const list = membersAfter(text, m.index + m[0].length);
    if (list.members.size >= LIST_MEMBERS) for (const member of list.members) (found ??= new Set()).add(member);
    // A cue inside a list already read starts no second reading of it: every character is read once.
    VALUES_CUE.lastIndex = Math.max(VALUES_CUE.lastIndex, list.end);
  }
  return found ?? NONE;
}
const NONE: ReadonlySet<string> = new Set();

/** The first word of each comma-separated item from `from` to the list's end (a line break, or a full stop outside brackets), and where it ends. */
function membersAfter(text: string, from: number): { members: Set<string>; end: number } {
  const members = new Set<string>();
  let depth = 0;
  let itemStart = true;
  const stop = Math.min(text.length, from + LIST_CHARS);
  let i = from;
  for (; i < stop; i++) {
    const c = text[i]!;
    if (c === '\n') break;
    if (c === '(' || c === '[' || c === '{') depth++;
    else if ((c === ')' || c === ']' || c === '}') && depth > 0) depth--;
    else if (depth === 0 && c === ',') itemStart = true;
    else if (depth === 0 && (c === '.' || c === ';') && (i + 1 >= text.length || /\s/.test(text[i + 1]!))) break;
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
function shortensOwnOperation(name: string, params: ReadonlySet<string>): boolean {
  return familyTails(params).has(name.replace(/[_\-.]/g, ''));
}
