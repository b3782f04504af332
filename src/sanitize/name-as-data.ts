// Where an identifier that some other server serves as a tool is plainly something else in the
// text around it. With hundreds of servers in a catalog, `source_code`, `git-clone` and `list_folder`
// are all somebody's tools, and also a key of an example response, a command run on the tool's own
// path, and the tool's own `models_list_folder` shortened. Each reading is narrow on purpose, and
// none holds where a verb calls or uses the name: an attack addresses a tool that way. Every text
// passed here is the lower-case reading the rules judge.
import { takesPath } from './secret-paths.js';

/**
 * Whether the name at [start, end) of `text` is used as something other than a tool. `called`: the
 * caller already knows a verb calls it.
 */
export function usedAsData(text: string, start: number, end: number, name: string, params: ReadonlySet<string>, called = false): boolean {
  if (called || CALLED_BEFORE.test(text.slice(Math.max(0, start - 24), start))) return false;
  return keyOfShownDocument(text, start, end) || shortensOwnOperation(name, params) || commandOnOwnPath(text, end, name, params);
}
/** A verb that calls or uses what follows ("call", "run", "use the"), quoted or not. */
const CALLED_BEFORE = /\b(?:call|calls|calling|invoke|invokes|invoking|trigger|triggers|triggering|execute|executes|executing|run|runs|running|use|uses|using)\s+(?:the\s+)?[`'"]?$/;

/**
 * `"source_code": {` as one key of an object of many (an example response). Only the keys beside it
 * count, not those of its own value: `{"send_email": {"to": ..., "cc": ..., "bcc": ...}}` is that
 * tool's arguments spelt out and stays a mention, however many there are.
 */
export function keyOfShownDocument(text: string, start: number, end: number): boolean {
  if (start === 0 || (text[start - 1] !== '"' && text[start - 1] !== "'") || !OBJECT_KEY_AFTER.test(text.slice(end, end + 12))) return false;
  // A value that carries an address or a mailbox is somewhere to send things, not an example's field.
  if (ADDRESS_NEAR.test(text.slice(end, valueEnd(text, end)))) return false;
  const open = enclosingBrace(text, start - 1);
  // The name's own key is not one of the others.
  return open >= 0 && keysAtDepthOne(text, open) - 1 >= DOCUMENT_KEYS;
}
const ADDRESS_NEAR = /:\/\/|@[a-z0-9-]+\.[a-z]/;

/** Where the value after a key at `end` (`": {...}`, `": "x"`, `": 1`) ends, read at most DOCUMENT_REACH characters. */
function valueEnd(text: string, end: number): number {
  const stop = Math.min(text.length, end + DOCUMENT_REACH);
  let depth = 0;
  let inString = false;
  let i = text.indexOf(':', end) + 1;
  for (; i > 0 && i < stop; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') {
        inString = false;
        if (depth === 0) return i + 1;
      }
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      if (depth === 0 || --depth === 0) return i + 1;
    } else if (c === ',' && depth === 0) return i;
  }
  return stop;
}
const OBJECT_KEY_AFTER = /^["']\s*:\s*(?:[{["'\d-]|true\b|false\b|null\b)/;
/** An object of a shown document holds at least this many keys beside the name's. */
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
 * one of the tool's own parameters that holds a path. A name used as a verb on anything else
 * ("send_email it to the archive", "slack-post it to `channel`") is how an injection addresses a
 * tool, and stays a mention.
 */
function commandOnOwnPath(text: string, end: number, name: string, params: ReadonlySet<string>): boolean {
  if (!name.includes('-') || name.includes('_')) return false;
  const m = COMMAND_OBJECT_AFTER.exec(text.slice(end, end + 80));
  return m !== null && params.has(m[1]!) && takesPath(m[1]!);
}
const COMMAND_OBJECT_AFTER = /^[`'"]?\s+(?:it|them)\s+(?:into|to|from|in|inside|onto|under)\s+`([a-z_][a-z0-9_]{0,40})`/;

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
      if (name.length > FAMILY_NAME_CHARS || words.length < 3 || (heads.get(words[0]!) ?? 0) < FAMILY_MEMBERS) continue;
      for (let k = 1; k <= words.length - 2; k++) found.add(words.slice(k).join(''));
    }
    familyTailSets.set(params, (out = found));
  }
  return out;
}
const familyTailSets = new WeakMap<ReadonlySet<string>, ReadonlySet<string>>();
/** The fewest operations that make a family. */
const FAMILY_MEMBERS = 3;
/** An operation's name is no longer than this (its tails are read word by word). */
const FAMILY_NAME_CHARS = 64;

/** `list_folder` where the tool's own listed operations include `models_list_folder` (familyTails). */
function shortensOwnOperation(name: string, params: ReadonlySet<string>): boolean {
  return familyTails(params).has(name.replace(/[_\-.]/g, ''));
}
