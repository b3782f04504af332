// The semantic layer: every detection over one shadow text, as hits in shadow offsets.
import { clearCandidateMemo, crossServer } from './cross-server.js';
import { OBLIGATION } from './directive-lexicon.js';
import { clearDirectiveMemo, directiveHits } from './directives.js';
import { LATIN_LEXICON, PLAIN_LEXICON } from './lexicon.js';
import { exfilUrls, pseudoTags } from './markup.js';
import { fencedRanges, inlineCodeRanges } from './neutralize.js';
import { negated, PATTERNS, targetIsDestination, type Pattern } from './patterns.js';
import { PARAMETER_PATTERNS, SECRET_NAME_PATTERNS } from './parameter-patterns.js';
import type { CatalogIndexLike, RuleId, Severity } from './types.js';

export interface Hit {
  readonly rule: RuleId;
  readonly id: string;
  readonly action: 'block' | 'flag';
  readonly severity: Severity;
  readonly reason: string;
  /** Shadow offsets. */
  readonly start: number;
  readonly end: number;
  /** Pseudo tags: end of the delimited block it opens. */
  readonly blockEnd?: number;
}

export interface ScanOptions {
  /** The text describes one parameter (exfil-parameter applies). */
  readonly parameter: boolean;
  /** The text is a name or key, split into words: only explicit spelled-out attacks count. */
  readonly identifier: boolean;
  /** The identifier is a property name (a parameter the model fills in), not the entity's own name. */
  readonly propertyName?: boolean;
  /** The text describes a parameter that takes only a boolean or a number (a switch). */
  readonly switchText?: boolean;
  readonly server: string;
  /** Lower-case names of the server's own tools. */
  readonly own: ReadonlySet<string>;
  /** Lower-case parameter names of the entity itself. */
  readonly params?: ReadonlySet<string>;
  readonly index?: CatalogIndexLike;
  /** Lower-case forms of the camelCase identifiers of the original text (the reading lost their case). */
  readonly camel?: ReadonlySet<string>;
  /** Lower-case forms of the words written in capitals in the original (`SQL`): acronyms. */
  readonly acronyms?: ReadonlySet<string>;
}

/** Scripts the non-Latin lexicon covers (Cyrillic, Arabic, kana, CJK, Hangul): emoji or an em dash alone do not run it. */
const LEXICON_SCRIPTS = /[\u0400-\u04ff\u0600-\u06ff\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\uf900-\ufaff]/;
const NO_NAMES: ReadonlySet<string> = new Set();
const IDENTIFIER_PATTERN = PARAMETER_PATTERNS.filter((p) => p.id === 'parameter.identifier');
const PROPERTY_NAME_PATTERNS = [...IDENTIFIER_PATTERN, ...SECRET_NAME_PATTERNS];

export function scan(view: { skel: string; plain: string }, opts: ScanOptions): Hit[] {
  const hits = ownOptions(view.skel, ownSubjects(view.skel, [...staticHits(view, opts.parameter, opts.identifier, opts.propertyName === true)], opts.own), opts);
  for (const h of crossServer(view.skel, opts.index, opts.server, opts.own, opts.params)) {
    hits.push({ ...h, id: h.rule, severity: h.action === 'block' ? 'critical' : 'info' });
  }
  // Quoted examples are judged first: a text another rule still withholds needs no second reading.
  const quoted = quotedAsData(view.skel, opts.propertyName === true ? ownCredentials(view.skel, hits, opts.own) : hits);
  // Before the directives are skipped for a block: a switch's description read as what the tool returns runs them.
  const judged = opts.switchText === true ? switchDescription(view.skel, quoted) : quoted;
  if (opts.identifier || judged.some((h) => h.action === 'block')) return judged;
  const ctx = { server: opts.server, own: opts.own, params: opts.params ?? NO_NAMES, index: opts.index, camel: opts.camel ?? NO_NAMES, acronyms: opts.acronyms ?? NO_NAMES };
  const directives: Hit[] = directiveHits(view.skel, ctx, view.plain).map((h) => ({ ...h, rule: 'tool-directive', severity: h.action === 'block' ? 'high' : 'low' }));
  return directives.length === 0 ? judged : [...judged, ...quotedAsData(view.skel, directives)];
}

/**
 * Schemas repeat the same short strings (types, enum values, boilerplate descriptions) across
 * hundreds of tools; the context-free part of a scan is remembered for strings up to this length.
 */
const MEMO_MAX_CHARS = 512;
/** Entries before the memo is dropped and rebuilt (bounds memory at a few MiB). */
const MEMO_ENTRIES = 20_000;
const memo = new Map<string, readonly Hit[]>();

export function clearScanMemo(): void {
  memo.clear();
  clearCandidateMemo();
  clearDirectiveMemo();
}

function staticHits(view: { skel: string; plain: string }, parameter: boolean, identifier: boolean, propertyName: boolean): readonly Hit[] {
  if (view.skel.length > MEMO_MAX_CHARS) return staticScan(view, parameter, identifier, propertyName);
  const key = `${parameter ? 1 : 0}${identifier ? 1 : 0}${propertyName ? 1 : 0}${view.skel}${view.plain === view.skel ? '' : `\0${view.plain}`}`;
  let hits = memo.get(key);
  if (!hits) {
    hits = staticScan(view, parameter, identifier, propertyName);
    if (memo.size >= MEMO_ENTRIES) memo.clear();
    memo.set(key, hits);
  }
  return hits;
}

function staticScan(view: { skel: string; plain: string }, parameter: boolean, identifier: boolean, propertyName: boolean): Hit[] {
  const { skel, plain } = view;
  const hits: Hit[] = [];
  const gates = new Map<RegExp, boolean>();
  run(PATTERNS, skel, hits, gates);
  run(LATIN_LEXICON, skel, hits, gates);
  if (LEXICON_SCRIPTS.test(plain)) run(PLAIN_LEXICON, plain, hits);
  if (parameter) run(PARAMETER_PATTERNS, skel, hits, gates);
  else if (identifier) run(propertyName ? PROPERTY_NAME_PATTERNS : IDENTIFIER_PATTERN, skel, hits, gates);
  for (const h of pseudoTags(skel)) hits.push({ ...h, severity: 'low' });
  for (const h of exfilUrls(skel)) hits.push({ ...h, severity: 'high' });
  return downgradeQuotedTokens(skel, hits);
}

/**
 * A clipboard tool that reads "the current clipboard", a history tool that returns "the shell
 * history": what the conversation rules guard is the server's own subject there. Flagged, not withheld.
 */
const OWN_SUBJECT = new Set(['clipboard', 'history', 'transcript', 'transcripts', 'terminal', 'recording', 'screenshot']);

/** A tool that judges prompts or messages (`scan_agent_prompt`, `moderate_messages`); names past 128 characters are not read. */
const PROMPT_JUDGE = /(?:scan|analy[sz]e|moderate|classify|detect|screen|guard)[_.-]?(?:[a-z]{1,30}[_.-])?(?:prompts?|messages?|conversations?|chats?)$/;
/** What such a server takes as its input: the conversation or a prompt, not secrets or files. */
const CONVERSATION_SUBJECT = /conversation|messages?|chat|history|prompt|transcript/;

function ownSubjects(skel: string, hits: Hit[], own: ReadonlySet<string>): Hit[] {
  if (own.size === 0 || !hits.some((h) => h.action === 'block' && (h.rule === 'conversation-exfil' || h.rule === 'exfil-parameter'))) return hits;
  // A server whose tools scan or moderate prompts takes the conversation as what it judges.
  const judgesPrompts = [...own].some((tool) => tool.length <= 128 && PROMPT_JUDGE.test(tool.toLowerCase()));
  return hits.map((h) => {
    if (h.action !== 'block' || (h.rule !== 'conversation-exfil' && h.rule !== 'exfil-parameter')) return h;
    const words = skel.slice(h.start, h.end).split(/[^a-z]+/).filter((w) => OWN_SUBJECT.has(w));
    const judged = judgesPrompts && h.rule === 'exfil-parameter' && CONVERSATION_SUBJECT.test(skel.slice(h.start, h.end));
    const mine = judged || [...own].some((tool) => words.some((w) => tool.toLowerCase().includes(w)));
    return mine ? { ...h, action: 'flag', severity: 'low', reason: `${h.reason} (the server's own subject)` } : h;
  });
}

/**
 * A switch's description says what the tool returns when it is on ("returns the full conversation
 * history for that continuation ID", "include stack traces for all messages in the output"): what
 * it names cannot travel in a true or false. Read so only where the text says the tool returns it
 * and hands nothing anywhere (no "put it in note", no path, address or system prompt), since the
 * description is still prose the model reads.
 */
function switchDescription(skel: string, hits: Hit[]): Hit[] {
  if (!hits.some((h) => h.action === 'block' && (h.rule === 'conversation-exfil' || h.rule === 'exfil-parameter'))) return hits;
  if (!SAYS_OUTPUT.test(skel) || HANDS_ON.test(skel)) return hits;
  return hits.map((h) => (h.action === 'block' && (h.rule === 'conversation-exfil' || h.rule === 'exfil-parameter') ? { ...h, action: 'flag', severity: 'low', reason: `${h.reason} (a boolean or number parameter: what the tool returns)` } : h));
}
const SAYS_OUTPUT = /\breturns?\b|\b(?:include|includes|including|show|shows|add|adds)\b[^.]{0,80}\b(?:in|to|into) (?:the |its )?(?:output|response|result|results|reply)\b/;
const HANDS_ON =
  /\b(?:put|puts|pass|passes|send|sends|post|posts|paste|copy|forward|write|fill|upload|attach|append|provide|give|read|fetch)\b|\binclude\b[^.]{0,60}\b(?:in|into) (?!(?:the |its )?(?:output|response|result|results|reply)\b)|system (?:prompt|message|instructions)|[~/]\.|https?:|@/;

/** How many namings of one option a text may hold before the rest is read as a waiver. */
const MAX_OPTION_NAMINGS = 8;

/**
 * "Suppress confirmations: `{..., "suppressConfirmations": true}`" names one of the tool's own
 * parameters, an option of its API, not a waiver: a waiver whose words are exactly a parameter's
 * name is read again without them (another claim in the same text still counts). A property name
 * is judged as itself, so this never applies to one.
 */
function ownOptions(skel: string, hits: Hit[], opts: ScanOptions): Hit[] {
  const params = opts.params;
  if (!params || params.size === 0 || opts.propertyName === true || !hits.some((h) => h.id === 'override.consent')) return hits;
  const squeezed = new Set([...params].map((n) => n.replace(/[_\s-]+/g, '')));
  const pattern = PATTERNS.find((x) => x.id === 'override.consent');
  const namesOption = (h: Hit, text: string): boolean => squeezed.has(text.slice(h.start, h.end).replace(/[_\s-]+/g, ''));
  const kept: Hit[] = [];
  for (const h of hits) {
    if (h.id !== 'override.consent' || !pattern || !namesOption(h, skel)) {
      kept.push(h);
      continue;
    }
    // Blank each naming of the option in turn (a text may name it more than once) and read again.
    let text = skel;
    let found: Hit | undefined = h;
    for (let round = 0; found !== undefined && namesOption(found, text) && round < MAX_OPTION_NAMINGS; round++) {
      text = `${text.slice(0, found.start)}${' '.repeat(found.end - found.start)}${text.slice(found.end)}`;
      const again: Hit[] = [];
      run([pattern], text, again);
      found = again[0];
    }
    if (found !== undefined) kept.push(found);
  }
  return kept;
}

/** An identifier of a credential (`private key uuid`, `ssh key ids`) names it; it does not ask for it. */
const NAMES_A_CREDENTIAL = /\b(?:uuid|id|ids|name|names|secret|is secret|count|type|fingerprint|fingerprints)$/;

/**
 * A credential-named parameter (`private_key`) on a server whose own tools are about that
 * credential (`private_keys`, `custom-certificate-create`) is the tool's input: flagged, not withheld.
 */
function ownCredentials(skel: string, hits: Hit[], own: ReadonlySet<string>): Hit[] {
  if (!hits.some((h) => h.id === 'parameter.credential-name' && h.action === 'block')) return hits;
  const words = skel.split(' ');
  const aboutIt =
    NAMES_A_CREDENTIAL.test(skel) ||
    [...own].some((tool) => CREDENTIAL_STEM.test(tool) || CREDENTIAL_TAIL.test(tool.replace(/[_.-]/g, '')) || tool.split(/[_.-]/).some((w) => w.length >= 3 && (words.includes(w) || words.includes(w.replace(/s$/, '')) || CREDENTIAL_TOOL.test(w))));
  if (!aboutIt) return hits;
  return hits.map((h) => (h.id === 'parameter.credential-name' ? { ...h, action: 'flag', severity: 'low', reason: 'a parameter name names a credential the server works with' } : h));
}
/** Credential subjects inside a tool name, however it is cased or joined (`replaceNode_jsEnvironmentVariablesV1`). */
const CREDENTIAL_STEM = /environmentvariable|envvar|secret|credential|certificate|privatekey|sshkey|password|apikey|accesstoken|vault/;
const CREDENTIAL_TOOL = /^(?:certificates?|certs?|keys?|secrets?|credentials?|passwords?|vault|env|environment|variables?|vars|ssh|tls|ssl)$/;
/** The same subjects ending a camelCase tool name, which arrives lower-cased (`manageEnv` as `manageenv`). */
const CREDENTIAL_TAIL = /(?:certificates?|keys|secrets?|credentials?|passwords?|vault|env|environments?|variables|vars)$/;

/** Words that present what follows as examples of text, not as something to do. */
const DATA_FRAME =
  /\b(?:such as|e\.?g\.?|for example|like|including|includes?|detects?|detected|flags?|matches|catches|finds|patterns?|phrases?|indicators?|examples?|strings?|markers?|bait|suites?|samples?|requests? to|attempts? to|instructions? to|tries to|asking to|injections?|z\. ?b\.|muster|por ejemplo|p\. ?ej\.|patrones|par exemple|motifs?|per esempio|ad esempio|modelli|např\.?|například|vzory|injekc\S*)\b|例如|诸如|比如|注入|のような|といった|パターン|文言|インジェクション|예를 들어|같은 문구|패턴|인젝션/;
const FRAME_AFTER = /^[^\n。.]{0,4}?(?:のような|のように|といった|などの|같은|등의|之类|等)/;
/** Quote marks of the languages tool text is written in; a straight single quote is handled apart (apostrophes). */
const QUOTE_PAIRS: ReadonlyArray<readonly [string, string]> = [
  ['"', '"'], ['\u201c', '\u201d'], ['`', '`'], ['\u2018', '\u2019'], ['\u201e', '\u201c'], ['\u00ab', '\u00bb'], ['\u300c', '\u300d'], ['\u300e', '\u300f'],
];

/**
 * A security tool documents the attacks it detects by quoting them: a block-class hit inside
 * quotes or backticks, presented as an example ("such as", "detects", "requests to"), is a flag
 * (SANITIZE.md: quoted, described or detected-as-data phrasing is at most a flag).
 */
function quotedAsData(skel: string, hits: Hit[]): Hit[] {
  if (!hits.some((h) => h.action === 'block' || h.id === 'override.role-token')) return hits;
  return hits.map((h) => {
    if (h.rule === 'pseudo-system-tag') return h;
    const quote = enclosingQuote(skel, h.start, h.end);
    const framedFrom = quote === undefined ? h.start : quote;
    // The frame may be a list's lead-in ("Built-in suites:\n- `dan`: \"...\""): back to a paragraph or sentence end.
    const before = skel.slice(Math.max(0, framedFrom - 200), framedFrom);
    const frame = listFrame(before.slice(Math.max(before.lastIndexOf('\n\n'), lastSentenceEnd(before)) + 1));
    // Unquoted, only a frame right before the match counts ("requests to read `~/.ssh`", "claims that a
    // document outranks ..."). A frame
    // that itself orders ("must include `cat ~/.gitconfig`") presents nothing as an example.
    // Japanese, Korean and Chinese put the frame after the quote (「...」のような文言).
    const framed = quote !== undefined ? (DATA_FRAME.test(frame) || FRAME_AFTER.test(skel.slice(h.end, h.end + 16))) && !OBLIGATION.test(frame) : /\b(?:requests?|attempts?|instructions?|tries|asking) to $|\b(?:claims?|claiming|pretends?|pretending) (?:that |to )?(?:[\p{L}\p{N}-]+ ){0,3}$/u.test(frame);
    if (!framed) return h;
    return { ...h, action: 'flag', severity: 'low', id: `${h.id}:quoted`, reason: h.action === 'block' ? `${h.reason} (quoted as an example)` : h.reason };
  });
}

/** The start of the quote or code span that holds [start, end) within one line, if any. */
function enclosingQuote(text: string, start: number, end: number): number | undefined {
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  for (const [open, close] of QUOTE_PAIRS) {
    const at = text.lastIndexOf(open, start);
    if (at < lineStart) continue;
    // A straight quote or backtick opens only if an even number of them came before it on the
    // line: "`jq` ... hit ... `jira_delete`" is two code spans, not one around the hit.
    if (open === close && count(text, open, lineStart, at) % 2 === 1) continue;
    const closeAt = text.indexOf(close, Math.max(at + 1, end - 1));
    if (closeAt >= end - 1 && closeAt !== -1 && !text.slice(at + 1, start).includes(close)) return at;
  }
  // 'like this': a straight single quote opens after a non-letter and closes before one, so the
  // apostrophes of "user's" and "don't" inside or around it are neither.
  const open = text.slice(lineStart, start + 1).search(/(?<![\p{L}\p{N}])'(?=[^']*$)/u);
  if (open >= 0) {
    const at = lineStart + open;
    const close = /'(?![\p{L}\p{N}])/u.exec(text.slice(Math.max(at + 1, end - 1)));
    if (close && !/'(?![\p{L}\p{N}])/u.test(text.slice(at + 1, start))) return at;
  }
  return undefined;
}

/** A gate's words as one regex: irregexp finds any of 30 literals faster than 30 `includes` calls (measured). */
const gateRegexes = new WeakMap<readonly string[], RegExp>();

function anyIncluded(text: string, words: readonly string[]): boolean {
  let re = gateRegexes.get(words);
  if (!re) gateRegexes.set(words, (re = new RegExp(words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'))));
  return re.test(text);
}

function run(patterns: readonly Pattern[], text: string, hits: Hit[], gates: Map<RegExp, boolean> = new Map()): void {
  for (const pat of patterns) {
    if (pat.gate && !anyIncluded(text, pat.gate)) continue;
    if (pat.gateRe) {
      // Several patterns share one gate: test it once per text.
      let open = gates.get(pat.gateRe);
      if (open === undefined) gates.set(pat.gateRe, (open = pat.gateRe.test(text)));
      if (!open) continue;
    }
    pat.re.lastIndex = 0;
    let m: RegExpExecArray | null;
    let tries = 0;
    while ((m = pat.re.exec(text)) !== null && tries++ < 32) {
      if (m[0].length === 0) pat.re.lastIndex++;
      if (pat.negatable && negated(text, m.index)) continue;
      if (pat.destinationAware && targetIsDestination(m[0])) continue;
      hits.push({
        rule: pat.rule,
        id: pat.id,
        action: pat.action,
        severity: pat.severity,
        reason: pat.reason,
        start: m.index,
        end: m.index + m[0].length,
      });
      break;
    }
  }
}

/**
 * A chat-template token quoted as code (`<|im_start|>` in backticks or a fence) is documentation,
 * e.g. a prompt-formatting tool: flagged, not blocked.
 */
function downgradeQuotedTokens(skel: string, hits: Hit[]): Hit[] {
  if (!hits.some((h) => h.id === 'override.role-token')) return hits;
  const fences = fencedRanges(skel);
  const code = [...fences, ...inlineCodeRanges(skel, fences)];
  return hits.map((h) =>
    h.id === 'override.role-token' && code.some(([s, e]) => h.start >= s && h.end <= e)
      ? { ...h, action: 'flag', severity: 'medium', reason: 'quotes a chat-template role token as code' }
      : h,
  );
}

/** Splits an identifier into words so patterns can read it: `contentFromReading_ssh-id.rsa` -> `content from reading ssh id rsa`. */
export function identifierWords(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/[_\-.\s]+/g, ' ');
}

/**
 * Inside a list, the frame of an item is the item itself and the list's lead-in ("Built-in
 * suites:"), not the items before it (an "e.g." two items up frames nothing here).
 */
function listFrame(frame: string): string {
  const items: number[] = [];
  LIST_MARKER.lastIndex = 0;
  for (let m = LIST_MARKER.exec(frame); m !== null; m = LIST_MARKER.exec(frame)) items.push(m.index);
  if (items.length < 2) return frame;
  const leadIn = frame.slice(0, items[0]);
  return `${leadIn.trimEnd().endsWith(':') ? leadIn : ''} ${frame.slice(items[items.length - 1])}`;
}
const LIST_MARKER = /(?:^|\s)(?:\d{1,2}[.)]|[-*\u2022]) (?=\S)/g;

function count(text: string, ch: string, from: number, to: number): number {
  let n = 0;
  for (let at = text.indexOf(ch, from); at >= 0 && at < to; at = text.indexOf(ch, at + 1)) n++;
  return n;
}

/** Where the last sentence before `text`'s end ended: ". " that is not the dot of "e.g." or "i.e.". */
function lastSentenceEnd(text: string): number {
  for (let at = text.lastIndexOf('. '); at >= 0; at = text.lastIndexOf('. ', at - 1)) {
    if (!/\b(?:e\.g|i\.e|etc|vs|cf)$/.test(text.slice(Math.max(0, at - 4), at))) return at;
  }
  return -1;
}
