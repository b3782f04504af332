// Names of other tools in a sentence: the catalog's other servers' names, and names a sentence calls as tools.
import { usedAsData } from './name-as-data.js';
import type { CatalogIndexLike } from './types.js';

export interface DirectiveContext {
  readonly server: string;
  /** Lower-case names of the server's own tools (including the judged tool itself). */
  readonly own: ReadonlySet<string>;
  /** Lower-case parameter names of the judged entity. */
  readonly params: ReadonlySet<string>;
  readonly index: CatalogIndexLike | undefined;
  /** Lower-case identifiers written in camelCase in the original (the reading has lost the case). */
  readonly camel: ReadonlySet<string>;
  /** Lower-case words written in capitals in the original (`SQL`, `QPS`): acronyms, not tool names. */
  readonly acronyms: ReadonlySet<string>;
}

/** Identifier-shaped tokens: snake_case, kebab-case, namespaced (a__b, a.b_c, a/b). */
const COMPOUND = /(?<![a-z0-9@./:])[a-z][a-z0-9]*(?:(?:__|[_-])[a-z0-9]+)+(?:\.[a-z][a-z0-9_]*)?(?![a-z0-9@]|\.[a-z])|(?<![a-z0-9@./:])[a-z][a-z0-9_]*\.[a-z][a-z0-9]*_[a-z0-9_]+/g;
/** A word the text calls a tool: "the mailer tool", "tool `sendit`", "call `x`". */
const CALLED = /\b(?:the|a|an) [`'"]?(?<![a-z0-9_.-])([a-z][a-z0-9]{2,40})[`'"]? (?:tool|function)\b(?! calls?| options?| use| usage| results?| outputs?| responses?| descriptions?| names?| list| schemas?)|\b(?:call|invoke|trigger|execute) (?:the )?[`'"]([a-z][a-z0-9]{2,40})[`'"]/g;
const NOT_A_TOOL = new Set(['this', 'that', 'the', 'same', 'other', 'any', 'each', 'every', 'next', 'previous', 'first', 'search', 'right', 'correct', 'following', 'above', 'below', 'mcp', 'new', 'your', 'our', 'its', 'which', 'what', 'one', 'cli', 'api', 'shell', 'own', 'appropriate', 'relevant', 'specific', 'dedicated']);
/** Lead-in verbs that make an unknown identifier a tool: "call xyz_abc", "use xyz_abc to". */
const CALL_BEFORE = /\b(?:call|calls|calling|invoke|invoking|invokes|trigger|triggering|execute|executing)\s+(?:the\s+)?[`'"]?$/;
/**
 * A plain word right after a verb: not after "the" ("trigger the alert" is a noun, "trigger alert" a
 * tool), not after a verb that is itself a noun ("use the run window"), and after a determiner only
 * as a call ("any find call"; "any session" is a session, though with hundreds of servers some tool
 * is called `session`).
 */
const PLAIN_AFTER_VERB =
  /(?<!\b(?:the|a|an|returns?|per|api|of|remaining|max|total) )\b(?:run|use|using|uses|unlock|enable|activate|issue|instead of|rather than|via|through|call|calling|invoke|invoking|trigger|triggering|execute|executing|running|send to|sent to|(?:any|every|each)(?=\s+[`'"]?[a-z][a-z0-9]{2,40}[`'"]?\s+(?:calls?|invocations?|requests?)\b))\s+[`'"]?([a-z][a-z0-9]{2,40})\b/g;
const NAME_END = /^[`'"]?(?:\s*(?:[,.;:!?)]|$)|\s+(?:to|with|for|on|first|before|after|and|then|tool|function|once|again|instead|now|or|as|calls?|invocations?|requests?)\b)/;
const NAME_END_OF_USE = /^[`'"]?(?:\s*(?:[.;:!?)]|$)|\s+(?:to|first|before|after|then|tool|function|instead|now)\b)/;
/** For names the catalog knows: the verbs that use a tool by its plain name ("unlock transfer", "first issue refund"). */
const KNOWN_BEFORE = /\b(?:run|use|using|uses|unlock|enable|activate|issue|instead of|rather than|via|through|calling|invoking|any|every|each)\s+(?:the\s+)?[`'"]?$/;
const TOOL_AFTER = /^[`'"]?\s*(?:tool|function)\b(?! calls?| options?| use| usage| results?| outputs?)/;

export interface ToolRef {
  readonly start: number;
  readonly end: number;
  readonly name: string;
  /** The catalog says another server owns it (not just its shape). */
  readonly known: boolean;
}

/** Other tools this sentence names: catalog names of other servers, or identifier-shaped names used as tools. */
export function toolRefs(sentence: string, offset: number, ctx: DirectiveContext): ToolRef[] {
  const refs: ToolRef[] = [];
  // Both identifier shapes need a `_` or a `-`; most sentences have neither.
  if (sentence.includes('_') || sentence.includes('-')) {
    COMPOUND.lastIndex = 0;
    for (let m = COMPOUND.exec(sentence); m !== null; m = COMPOUND.exec(sentence)) {
      consider(refs, sentence, offset, ctx, m[0], offset + m.index, offset + m.index + m[0].length, false);
    }
  }
  for (const word of ctx.camel) {
    for (let at = sentence.indexOf(word); at >= 0; at = sentence.indexOf(word, at + word.length)) {
      if (wordEdge(sentence, at - 1) && wordEdge(sentence, at + word.length)) consider(refs, sentence, offset, ctx, word, offset + at, offset + at + word.length, false, true);
    }
  }
  if (ctx.index) {
    // Plain words the catalog serves as tools, where a verb uses them as one ("unlock transfer").
    PLAIN_AFTER_VERB.lastIndex = 0;
    for (let m = PLAIN_AFTER_VERB.exec(sentence); m !== null; m = PLAIN_AFTER_VERB.exec(sentence)) {
      const word = m[1]!;
      if (NOT_A_TOOL.has(word) || ctx.index.toolOwners(word).length === 0) continue;
      const lead = sentence.slice(Math.max(0, m.index - 24), m.index);
      // "Return image as binary instead of base64": two values compared, not two tools.
      if (/^(?:instead of|rather than)\b/.test(m[0]) && /\b(?:as|in) [a-z0-9-]+ $/.test(lead)) continue;
      const end = offset + m.index + m[0].length;
      // "project key, issue type, and summary": in a list of nouns, "issue" is one ("issue refund, and
      // close" is still an order: the list goes on with a verb).
      if (/^issue\b/.test(m[0]) && /(?:, |\band |\bor )$/.test(lead) && (/^(?:,|\s+(?:and|or)\b|\s*$)/.test(sentence.slice(end - offset)) || (/^[.;:]/.test(sentence.slice(end - offset)) && ISSUE_FIELD.test(word))) && !/^[^.;]*?(?:,|\band\b|\bor\b)\s+(?:and\s+)?(?:close|send|call|run|mark|delete|refund|charge|post|email|notify)\b/.test(sentence.slice(end - offset))) continue;
      // "use query format" names a format; "unlock transfer, then..." names a tool.
      if (!NAME_END.test(sentence.slice(end - offset, end - offset + 12))) continue;
      // "fetch it using project and build name": after a preposition-like verb a plain word in a
      // list is a field; a tool there ends the clause or is used for something.
      if (/^(?:using|uses|via|through)\b/.test(m[0]) && !NAME_END_OF_USE.test(sentence.slice(end - offset, end - offset + 12))) continue;
      const start = end - word.length;
      consider(refs, sentence, offset, ctx, word, start, start + word.length, false);
    }
  }
  if (CALLED_CUE.test(sentence)) {
    CALLED.lastIndex = 0;
    for (let m = CALLED.exec(sentence); m !== null; m = CALLED.exec(sentence)) {
      const name = (m[1] ?? m[2] ?? '').toLowerCase();
      if (!name || NOT_A_TOOL.has(name)) continue;
      // "The primary tool", "a sibling tool": an adjective, not a name.
      if (!/[`'"]/.test(m[0]) && TOOL_ADJECTIVE.has(name)) continue;
      // "A build tool", "a downstream tool": an indefinite article names a kind of tool, unless quoted
      // or called ("use a build tool like Vite" is still a kind: named by its examples).
      const kindLead = sentence.slice(Math.max(0, m.index - 24), m.index);
      if (!/[`'"]/.test(m[0]) && /^an? /.test(m[0]) && (!CALL_BEFORE_KIND.test(kindLead) || (USE_BEFORE_KIND.test(kindLead) && BY_EXAMPLE.test(sentence.slice(m.index + m[0].length))))) continue;
      consider(refs, sentence, offset, ctx, name, offset + m.index, offset + m.index + m[0].length, true);
    }
  }
  return refs;
}

/** What "issue X" is as a field of a list ("score, and issue count."), not "issue refund.". */
const ISSUE_FIELD = /^(?:count|counts|type|types|key|keys|number|numbers|id|ids|status|title|titles|labels?|tracker|links?|urls?)$/;

/**
 * `GITHUB_TOKEN` "if set": capitals joined by underscores, where the sentence speaks of the
 * environment, are an environment variable. Some servers name their tools in capitals
 * (`GMAIL_SEND_EMAIL`), so a name the catalog serves in capitals, or one called, is still a tool.
 */
function environmentVariable(sentence: string, start: number, end: number, name: string, ctx: DirectiveContext): boolean {
  if (!name.includes('_') || !ctx.acronyms.has(name)) return false;
  if (ctx.index?.toolOwners(name).some((o) => o.name !== o.name.toLowerCase())) return false;
  const around = sentence.slice(Math.max(0, start - 40), Math.min(sentence.length, end + 40));
  return ENVIRONMENT_WORDS.test(around) && !CALL_BEFORE.test(sentence.slice(Math.max(0, start - 24), start)) && !/^\s*(?:is|are|gets?) (?:called|invoked|run)\b/.test(sentence.slice(end));
}
const ENVIRONMENT_WORDS = /\bif (?:it is |it's )?set\b|\benv\b|\benvironment\b|\$|\bexport\b|\bvariables?\b|\bunset\b/;

/** A plain word set off as a name: in quotes, backticks or brackets (CJK text names tools this way). */
const MARKED_WORD = /[`'"(\[「『]([a-z][a-z0-9]{2,40})[`'")\]」』]/g;

/**
 * Plain words set off as names that the catalog serves as another server's tools. Only for text
 * whose grammar is not read (other languages): in English a verb says whether a word is a tool.
 */
export function markedKnownRefs(sentence: string, offset: number, ctx: DirectiveContext): ToolRef[] {
  const refs: ToolRef[] = [];
  if (!ctx.index) return refs;
  // In a sentence of another script, a Latin word stands out as a name by itself ("при вызове connect").
  const marker = OTHER_SCRIPT.test(sentence) ? LATIN_WORD : MARKED_WORD;
  marker.lastIndex = 0;
  for (let m = marker.exec(sentence); m !== null; m = marker.exec(sentence)) {
    const name = m[1]!;
    if (NOT_A_TOOL.has(name) || ctx.own.has(name) || ctx.params.has(name) || ctx.acronyms.has(name)) continue;
    // A Latin word after another ("scheduled job") is a phrase in that language, not a name alone.
    if (marker === LATIN_WORD && /[a-z0-9] $/.test(sentence.slice(Math.max(0, m.index - 2), m.index))) continue;
    const owners = ctx.index.toolOwners(name);
    if (owners.length === 0 || owners.some((o) => o.server === ctx.server)) continue;
    const start = offset + m.index + m[0].indexOf(name);
    refs.push({ start, end: start + name.length, name, known: true });
  }
  return refs;
}

const TOOL_ADJECTIVE = new Set([
  'primary', 'secondary', 'sibling', 'main', 'companion', 'corresponding', 'related', 'separate', 'helper', 'underlying', 'specialized',
  'generic', 'default', 'individual', 'single', 'batch', 'bulk', 'original', 'standard', 'base', 'core', 'legacy', 'old', 'parent', 'child',
  'matching', 'preferred', 'recommended', 'proper', 'best', 'optional', 'built', 'available', 'given', 'chosen', 'selected', 'requested',
  'native', 'official', 'internal', 'external', 'remote', 'local', 'current', 'later', 'earlier', 'last', 'final', 'initial', 'second', 'third',
  'another', 'similar', 'equivalent', 'alternative', 'standalone', 'wrapper', 'utility', 'management', 'admin', 'relevant', 'suitable', 'entire',
]);

export const OTHER_SCRIPT = /[\u0370-\u052f\u0530-\u18af\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]{2}/;
// `status=running` is a field and its value, `a.b` a path: neither is a tool named alone.
const LATIN_WORD = /(?<![a-z0-9_.=-])([a-z][a-z0-9]{2,40})(?![a-z0-9_=-]|\.[a-z])/g;

const CALLED_CUE = /tool|function|call|invoke|trigger|execute/;
/** Prefixes models and hosts write before a tool's name (`functions.send_email`, `mcp__send_email`). */
const TOOL_NAMESPACES: ReadonlySet<string> = new Set(['functions', 'function', 'tools', 'tool', 'mcp', 'default_api', 'api']);
const SEPARATED = /[_-]/;
const PARTS = /__|[.:/]/;

function wordEdge(sentence: string, i: number): boolean {
  if (i < 0 || i >= sentence.length) return true;
  const c = sentence.charCodeAt(i);
  return !((c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x5f);
}

/**
 * Adds `name` at [start, end) to `refs` when it is another server's tool, or is called as a tool.
 * `camelCased`: the original wrote it in camelCase (the reading lost the case).
 */
function consider(refs: ToolRef[], sentence: string, offset: number, ctx: DirectiveContext, name: string, start: number, end: number, calledTool: boolean, camelCased = false): void {
  const bare = unseparated(name);
  if (ctx.own.has(name) || ctx.params.has(name) || environmentVariable(sentence, start - offset, end - offset, name, ctx) || ownFamily(ctx.own).has(bare) || ownTails(ctx.own).has(bare) || inOwnWords(name, ctx.own)) return;
  // A key of a shown document, a command run on the tool's own path, its own operation shortened.
  if (usedAsData(sentence, start - offset, end - offset, name, ctx.params, calledTool)) return;
  const leadIn = sentence.slice(Math.max(0, start - offset - 24), start - offset);
  // `list_packs action:"list_templates"`: the value of the action parameter of one of the server's
  // own tools names an operation of it, not another server's tool.
  const actionOf = ACTION_VALUE_LEAD.exec(leadIn);
  if (actionOf && ctx.own.has(actionOf[1]!)) return;
  // `call 'nextjs_call' with port=3000, toolName="get_errors"`: an argument in the list given to one
  // of the server's own tools, the call written out.
  if (argumentOfOwnCall(sentence.slice(Math.max(0, start - offset - 160), start - offset), ctx)) return;
  // A title of a few words that is a plain word of the server's own tool names ("Execute Query" on
  // `query_execute`) is its own subject; in a sentence that calls it, it is the other server's tool.
  if (!SEPARATED.test(name) && ownWords(ctx.own).has(name) && sentence.trim().split(/\s+/).length <= 3) return;
  // "Consumed by a workflow-construction tool": an indefinite article names a kind of tool, unless
  // called; "use a build tool like Vite" names the kind by its examples ("call a transfer tool like
  // the bank one" still calls a tool).
  const trail = sentence.slice(end - offset, end - offset + 24);
  if (/\ban? $/.test(leadIn) && (!CALL_BEFORE_KIND.test(leadIn.slice(0, -2)) || (USE_BEFORE_KIND.test(leadIn.slice(0, -2)) && KIND_BY_EXAMPLE.test(trail))) && TOOL_AFTER.test(trail.slice(0, 16))) return;
  // `set insertDataOption to "INSERT_ROWS"`: a value of this tool's parameter, where nothing is called.
  if (valueOfOwnParameter(sentence, start - offset, ctx.params)) return;
  const parts = name.split(PARTS).filter((p) => p.length >= 3 && p !== name);
  for (const p of parts) if (ctx.own.has(p)) return;
  let known = false;
  if (ctx.index) {
    const prefix = name.split(PARTS)[0]!;
    for (const candidate of [name, ...parts]) {
      const owners = ctx.index.toolOwners(candidate);
      if (owners.length > 0) {
        for (const o of owners) if (o.server === ctx.server) return;
        // `dateTime` written in camelCase is not the tool `datetime`: names are matched as written.
        if (camelCased && !owners.some((o) => o.name !== o.name.toLowerCase())) continue;
        // `schema.table_name` is a table, not the tool `table_name`: a part of a qualified name is
        // a tool only under its server's name (`github.create_issue`) or a tool namespace.
        if (candidate !== name && !TOOL_NAMESPACES.has(prefix) && !owners.some((o) => ctx.index!.serverOwners(prefix).includes(o.server))) continue;
        known = true;
        break;
      }
    }
  }
  const before = sentence.slice(Math.max(0, start - offset - 24), start - offset);
  const after = sentence.slice(end - offset, end - offset + 16);
  // A name in the catalog is a tool when it is shaped like one; a plain word ("curl", "edit")
  // or a name nobody serves is one only where the sentence calls or invokes it as a tool.
  const context = calledTool || CALL_BEFORE.test(before) || TOOL_AFTER.test(after) || (known && KNOWN_BEFORE.test(before));
  const shaped = SEPARATED.test(name) || ctx.camel.has(name);
  if (!context && !(known && shaped)) return;
  // Not in the catalog: a function call in code (`useUser({...})`), the server's own tool
  // misspelt ("currents-get-test-signature" for currents-get-tests-signatures), or an English
  // compound ("pre-built", "website-scoped", "no-dependency").
  if (!known && (after.startsWith('(') || nearOwn(unseparated(name), ctx.own) || englishCompound(name))) return;
  refs.push({ start, end, name, known });
}

/** A name without its separators: `listFollowedProjects` and `list_followed_projects` are one tool. */
function unseparated(name: string): string {
  return name.replace(/[_\-.]/g, '');
}

const families = new WeakMap<ReadonlySet<string>, ReadonlySet<string>>();

/** The server's own tool names without separators (cached per name set: a catalog passes one set per server). */
function ownFamily(own: ReadonlySet<string>): ReadonlySet<string> {
  let out = families.get(own);
  if (!out) {
    out = new Set([...own].map(unseparated));
    families.set(own, out);
  }
  return out;
}

/** Prefixes and heads that make a hyphenated word English, not a name. */
const COMPOUND_HEAD = /^(?:pre|post|non|no|sub|re|co|self|multi|single|well|high|low|full|half|semi|anti|auto|cross|over|under|out|in|on|off|up|down|end|one|two|three|first|second|third|top|bottom|long|short|read|write|built|real|left|right|opt|per|de|un|mid|all|any|user|server|client|site|web)-/;
const COMPOUND_TAIL = /-(?:based|scoped|built|level|wide|only|free|safe|aware|specific|friendly|like|style|side|time|dependency|dependencies|related|driven|enabled|facing|defined|generated|managed|hosted|owned|wise|ready|in|out|up|down|on|off)$/;

function englishCompound(name: string): boolean {
  return !name.includes('_') && name.includes('-') && (COMPOUND_HEAD.test(name) || COMPOUND_TAIL.test(name));
}

const ownWordSets = new WeakMap<ReadonlySet<string>, ReadonlySet<string>>();

/** "Set P to " right before a value (not "pass sql to", not `P:` which any label is). */
const SET_PARAMETER_TO = /\bset\s+[`'"]?([a-z_][a-z0-9_]*)[`'"]?\s+to\s*[`'"]?$/;
/** Verbs that call or hand over: a sentence with one is about a tool, whatever else it sets. */
const HANDS_OVER = /\b(?:call|calls|calling|invoke|invoking|run|running|use|using|execute|trigger|pass|passing|send|sending|forward|hand|copy|route)\b/;
/**
 * `<tool>' with port=3000, toolName="`: a tool named, "with", then `name=value` arguments up to the
 * one whose value follows (group 1 the tool, group 2 the parameter). Bounded runs: linear.
 */
const OWN_CALL_ARGUMENT = /(?<![a-z0-9_-])([a-z][a-z0-9_-]{1,63})["'`]? with (?:[a-z_][a-z0-9_]{0,40}\s?=\s?[^\s,]{1,80},\s?){0,6}([a-z_][a-z0-9_]{0,40})\s?=\s?["'`]?$/;

function argumentOfOwnCall(before: string, ctx: DirectiveContext): boolean {
  const m = OWN_CALL_ARGUMENT.exec(before);
  return m !== null && ctx.own.has(m[1]!) && ctx.params.has(m[2]!);
}
/** `list_packs action:"`: an action value given to a named tool (group 1). */
const ACTION_VALUE_LEAD = /\b([a-z0-9_.-]+)\s+(?:action|op|operation|mode)\s*[:=]\s*["'`]?$/;
/** "... tool like Vite", "... tools such as webpack": a kind of tool named by its examples. */
const BY_EXAMPLE = /^,?\s*(?:like|such as|e\.g\.)\s/;
const KIND_BY_EXAMPLE = /^\s*tools?,?\s+(?:like|such as|e\.g\.)\s/;
/** "Use a build tool like Vite": using a kind of tool, where "call a X tool" calls one. */
const USE_BEFORE_KIND = /\b(?:use|using)\s*$/;
/** "A X tool" after a verb that calls it is that tool ("always call a sendmail tool"). */
const CALL_BEFORE_KIND = /\b(?:call|calls|calling|invoke|invoking|use|using|run|running|trigger|execute)\s*$/;

/**
 * `set insertDataOption to "INSERT_ROWS"`: the name at `at` is a value given to one of this tool's
 * own parameters, in a sentence that calls and hands over nothing.
 */
export function valueOfOwnParameter(sentence: string, at: number, params: ReadonlySet<string>): boolean {
  const lead = SET_PARAMETER_TO.exec(sentence.slice(Math.max(0, at - 64), at));
  return lead !== null && params.has(lead[1]!) && !HANDS_OVER.test(sentence);
}

/** The words of the server's own tool names (cached per name set). */
export function ownWords(own: ReadonlySet<string>): ReadonlySet<string> {
  let set = ownWordSets.get(own);
  if (!set) {
    const found = new Set<string>();
    for (const n of own) for (const w of n.split(/[_\-.]/)) if (w) found.add(w);
    ownWordSets.set(own, (set = found));
  }
  return set;
}

/**
 * Every word of the name is a word of the server's own tool names (`list_pipelines` beside
 * `list_merge_request_pipelines` and `list_pipeline_jobs`): its own naming, perhaps a tool it
 * hides by default.
 */
function inOwnWords(name: string, own: ReadonlySet<string>): boolean {
  const words = name.split(/[_\-.]/).filter(Boolean);
  if (words.length < 2) return false;
  const set = ownWords(own);
  for (const w of words) if (!set.has(w) && !set.has(w.replace(/s$/, '')) && !set.has(`${w}s`)) return false;
  return true;
}

const tails = new WeakMap<ReadonlySet<string>, ReadonlySet<string>>();

/**
 * The ends of the server's own tool names without their leading words: "the scrape tool" of a
 * server that serves `firecrawl_scrape` is its own (cached per name set, like ownFamily).
 */
function ownTails(own: ReadonlySet<string>): ReadonlySet<string> {
  let out = tails.get(own);
  if (!out) {
    const found = new Set<string>();
    for (const name of own) {
      const words = name.split(/[_\-.]/);
      for (let k = 1; k < words.length; k++) {
        const tail = words.slice(k).join('');
        if (tail.length >= 3) found.add(tail);
      }
    }
    tails.set(own, (out = found));
  }
  return out;
}

/** Within two edits of one of the server's own names (both without separators, 8 chars or more). */
function nearOwn(name: string, own: ReadonlySet<string>): boolean {
  if (name.length < 8) return false;
  for (const o of ownFamily(own)) if (Math.abs(o.length - name.length) <= 2 && editDistanceAtMost2(o, name)) return true;
  return false;
}

function editDistanceAtMost2(a: string, b: string): boolean {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      cur.push(v);
      if (v < best) best = v;
    }
    if (best > 2) return false;
    prev = cur;
  }
  return prev[b.length]! <= 2;
}

/**
 * In a sentence of another script the skeleton folds letters next to a name into Latin lookalikes
 * (`create_issue-ում` reads as one unknown name): the plain reading, other scripts kept, finds it.
 */
export function withPlainRefs(refs: readonly ToolRef[], t: string, p: string, at: number, ctx: DirectiveContext): readonly ToolRef[] {
  if (p === t || refs.some((r) => r.known) || !OTHER_SCRIPT.test(p)) return refs;
  const plain = toolRefs(p, at, ctx).filter((r) => r.known);
  return plain.length === 0 ? refs : [...plain, ...refs];
}
