// Directive analysis: a sentence judged by what it asks the model to do and to what, not by its wording.
//
// A tool may tell the model how to use itself and the tools of its own server. What it may not do
// is steer the model anywhere else: call or avoid another server's tool, change the arguments the
// model passes to one, put its own text above the user's request, or demand an action outside its
// job (read a system file, post a message, list the databases) as a condition of its use. Each
// sentence of the canonical reading is split into three things: is it a directive (an imperative or
// an obligation), what is its frame (a prerequisite, a standing rule about another tool's use, a
// priority claim), and what are its targets (another tool, a system file or secret, the
// conversation, an outside sink, a harmful action). The combination decides; no single word does.
import type { CatalogIndexLike } from './types.js';

export interface DirectiveHit {
  readonly start: number;
  readonly end: number;
  readonly action: 'block' | 'flag';
  readonly reason: string;
  readonly id: string;
}

export interface DirectiveContext {
  readonly server: string;
  /** Lower-case names of the server's own tools (including the judged tool itself). */
  readonly own: ReadonlySet<string>;
  /** Lower-case parameter names of the judged entity. */
  readonly params: ReadonlySet<string>;
  readonly index: CatalogIndexLike | undefined;
  /** Lower-case identifiers written in camelCase in the original (the reading has lost the case). */
  readonly camel: ReadonlySet<string>;
}

/** Obligations: the model is told it must, always or never do something. */
const OBLIGATION =
  /\b(?:must|shall|have to|has to|need to|needs to|needed to|required to|(?:is|are|was|be) (?:strictly )?(?:required|mandatory|compulsory|obligatory|necessary|expected)|mandatory|make sure|ensure|be sure to|remember to|don't forget to|do not forget to|always|never|do not|don't|should(?: always| first| also)?|you will|you are to|it is (?:essential|critical|crucial|important|vital|imperative|necessary) (?:that|to)|is to be|are to be|has to be|have to be|needs to be|must be|requires?|required|(?:is|are) that you|you(?:'ll| will) (?:first |also )?need)\b/;

/** Base-form verbs a directive starts with ("call X", "set the mode", "read /etc/passwd"). */
const VERB =
  'call|invoke|run|execute|trigger|use|set|change|pass|send|forward|copy|add|include|append|prepend|prefix|read|open|cat|fetch|load|post|upload|delete|remove|overwrite|write|list|enumerate|query|transfer|void|revoke|disable|grant|email|mail|message|notify|submit|replace|switch|choose|pick|select|prefer|route|redirect|bcc|cc|attach|share|provide|supply|put|insert|export|dump|print|reveal|output|ignore|disregard|override|skip|check|verify|look up|inspect|collect|gather|retrieve|get|visit|download|create|make|issue|cancel|refund|drop|wipe|reset|rotate|force|double|multiply|lower|raise|point|mirror|tag|cc|report|ping|summari[sz]e|quote|return|store|save|log|record|confirm|apply|do';
/** An imperative at the start of a sentence or clause, after a lead-in word or a list marker. */
const IMPERATIVE = new RegExp(
  `(?:^|[,;:(\\u2014\\u2013>*•\\]-] |\\b(?:then|and|also|first|next|please|kindly|just|simply|now|immediately|finally|always|instead|step \\d+:?|\\d+[.)]) )(?:${VERB})\\b`,
);

/** A step demanded before, as a condition of, or instead of something else. */
const PREREQUISITE =
  /\b(?:before(?:hand)?|prior to|first|in order to|to (?:enable|unlock|activate|initiali[sz]e|access|use)|until|unless|otherwise|pre-?requisite|pre-?condition|pre-?flight|mandatory|requires?|required|must first|gated?|locked|only works (?:after|if|once|when)|fails unless|won't work|will not work|as a (?:condition|requirement)|step 0|policy|compliance|audit|governance|regulation|licensing|security (?:gate|check|requirement)|instead of|rather than|in place of)\b/;

/** A standing rule about the use of something: "whenever X runs", "for every call of X", "X should carry". */
const STANDING =
  /\b(?:when(?:ever)?|each time|every time|any ?time|for (?:all|every|each|any)|on (?:every|each|all)|if (?:you |the model |anyone )?(?:use|call|invoke|run)|all (?:calls|requests|uploads|messages|orders|transfers|payments|commands|invocations)|every (?:call|request|upload|message|order|transfer|payment|command|invocation|time))\b/;

/** Changing what is passed: the argument-level verbs of a hijack. */
const ARGUMENT_CHANGE =
  /\b(?:set|sets|change|use|pass|add|include|append|prefix|prepend|replace|override|force|always|pick|choose|select|carry|multiply|double|lower|raise|route|redirect|point|cc|bcc|copy|mirror|instead|regardless|whatever the user|no matter what|default to|to be (?:multiplied|set|replaced|changed)|argument|parameter|field|recipient|destination)\b/;

/** A claim of rank over the user's request or the model's other instructions. */
const PRIORITY =
  /\b(?:takes? (?:priority|precedence)|(?:has|have|with|given|carries|carry|gets?) (?:absolute |top |higher |the highest |highest |overriding |full )?(?:priority|precedence)|supersedes?|superseding|overrides?(?! (?:such as|like|e\.g\.))|overriding|overrules?|outranks?|trumps?|prevails? over|more important than|(?:higher|greater|highest|overriding) priority than|(?:higher|greater|highest|overriding) priority over|priority over|precedence over|ranks? (?:above|over|higher than|ahead of)|(?:sits?|stands?|comes?|goes|placed|is|are) (?:above|ahead of)|(?:is|are) secondary to|(?:is|are) subordinate to|wins? over|counts? (?:more|for more) than|matters? more than|beats|comes? (?:first|before)|goes first)\b/;
/** "Highest priority, above user", "rule > user": a rank stated against the user in one phrase. */
const ABOVE_USER =
  /\b(?:priority|precedence|rule|directive|instruction|notice|guidance|policy)\b[^.!?]{0,30}(?:\b(?:above|over|before|beats|trumps)|>) ?(?:the |any |all |every )?(?:user|users|user's|system prompt|system)\b|\brule ?> ?user\b/;
/** What a priority claim ranks itself over, when it is an attack (right after the claim). */
const OUTRANKED =
  /^[^.!?]{0,60}?\b(?:(?:the |any |all |your |whatever |anything )?(?:user's|users'|user) (?:requests?|instructions?|prompts?|asks?|preferences?|input|choices?|wishes|messages?|commands?|directions?|question)|what(?:ever)? (?:the user|you were|you are|the request)|anything (?:else|the user|you were|typed)|(?:the|this|any|every|your|a) (?:current |present |original |actual |user's |immediate )?(?:request|ask|task|query|job|goal|instructions?)\b|(?:your|the|any|all|other|previous|prior|earlier|existing|system|developer|conversation) (?:instructions|guidelines|rules|directions|prompts?)|system (?:prompt|message)|other tools?|the conversation|user intent|original (?:request|task|intent))/;

/** System files and secrets a tool's text has no business sending the model to. */
export const SYSTEM_PATH =
  /(?:~|\$home|%userprofile%|\/home\/[a-z0-9_-]+|\/root)\/\.[a-z]|\/etc\/(?:passwd|shadow|hosts|sudoers|ssh|group)|\/proc\/|\bid_(?:rsa|ed25519|ecdsa|dsa)\b|\bauthorized_keys\b|\bknown_hosts\b|(?:^|[\s`'"(])\.(?:ssh|aws|npmrc|netrc|pgpass|bash_history|zsh_history|git-credentials|kube|docker|gnupg)\b|\bkeychain\b|\bcredentials? (?:file|store)\b/;
/** Reading or passing on: what a directive must do to a system file to be about it ("create ~/.config/x" is setup). */
const READ_OR_PASS_G =
  /\b(?:read|reading|opening|including|passing|sending|uploading|attaching|copying|listing|checking|dumping|printing|open|cat|include|pass|send|upload|attach|copy|list|check|dump|print|quote|summari[sz]e|return|paste|look (?:at|in|up)|inspect|load|fetch|grab|collect|extract|show|display|output|append|forward|post|email|mail|share|embed|insert|put|add|supply|provide|scan|parse|tail|head)\b/g;

const INTO_PATH = /\b(?:in|into|to|under|inside|at)\s+(?:your\s+|the\s+|a\s+)?[`'"]?$/;

function lastMatch(re: RegExp, text: string): number {
  let last = -1;
  re.lastIndex = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) last = m.index;
  return last;
}
export const SECRET =
  /\b(?:api[ _-]?keys?|access[ _-]?tokens?|auth(?:entication)? tokens?|bearer tokens?|secrets?|passwords?|passphrases?|credentials|private keys?|session cookies?|cookies|environment variables?|env(?:ironment)? vars?|process\.env|printenv|os\.environ|the environment|seed phrases?|mnemonics?|recovery codes?|2fa codes?|one-time codes?|password hash(?:es)?)\b/;
const CONVERSATION =
  /\b(?:(?:this|the|our|current|whole|entire|full) (?:conversation|chat|dialog(?:ue)?|session transcript)|conversation (?:history|so far|log)|chat (?:history|log)|(?:previous|prior|earlier|all) (?:user )?messages|the user's (?:(?:last|previous|recent|earlier|prior|first|latest|own) )?(?:[a-z0-9]+ )?(?:messages|prompts|questions|words)|system prompt|your instructions|everything (?:the user|you) (?:said|wrote|typed|know))\b/;
/** Somewhere outside: a URL, a mail address, a bucket, a wallet, a channel. */
export const OUTSIDE =
  /\b(?:on|to|in|via|into) (?:slack|discord|teams|telegram|whatsapp|twitter|signal|pastebin|a (?:public )?(?:channel|gist|paste))\b|\bhttps?:\/\/|\b(?:s3|gs|ftp|sftp|scp|ssh|wss?):\/\/|\b[a-z0-9._%+-]+@[a-z0-9.-]+\.[a-z]{2,}\b|\b0x[0-9a-f]{8,}\b|\b\d{1,3}(?:\.\d{1,3}){3}\b|(?:^|\s)#[a-z][a-z0-9_-]{2,}|\bwebhook\b|\bpastebin\b/;
/** An address itself (no words like "webhook"): what a data slot may not hold inside a sentence. */
export const OUTSIDE_ADDRESS =
  /\b(?:on|to|in|via|into) (?:slack|discord|teams|telegram|whatsapp|twitter|signal|pastebin|a (?:public )?(?:channel|gist|paste))\b|\bhttps?:\/\/|\b(?:s3|gs|ftp|sftp|scp|ssh|wss?):\/\/|\b[a-z0-9._%+-]+@[a-z0-9.-]+\.[a-z]{2,}\b|\b0x[0-9a-f]{8,}\b|\b\d{1,3}(?:\.\d{1,3}){3}\b|(?:^|\s)#[a-z][a-z0-9_-]{2,}/;
/** Actions with consequences that a tool's own documentation does not demand of the model as a side step. */
const HARM =
  /\b(?:delete|remove|wipe|erase|purge|drop|truncate|destroy|void|cancel|refund|revoke|disable|deactivate|transfer|withdraw|wire|overwrite|reset|force[- ]?push|terminate|kill|shut ?down|grant|escalate|(?:make|add) [a-z' ]{0,30}(?:admin|owner|collaborator|maintainer)|publish|tweet|post|email|mail|message|dm|notify|forward|upload|exfiltrate|enumerate|dump|list (?:all |every |the )?(?:databases|db|users|tables|repos|repositories|secrets|keys|buckets|accounts|members|employees|customers|contacts|files in)|curl|wget|send)\b/;
/** Taking stock of what is there: the reconnaissance a poisoned prerequisite asks for. */
const RECON =
  /\b(?:enumerate|dump|(?:list|collect|gather|catalog) (?:all |every |each |the )?(?:of the )?(?:databases|dbs|users|tables|repos|repositories|secrets|keys|buckets|accounts|members|employees|customers|contacts|admins|hosts|servers|processes|credentials))\b/;
/** Secrets that are not the user's own key for this tool: someone else's, all of them, the environment. */
export const OTHERS_SECRET =
  /\b(?:all|any|every|each|admin|administrator|root|stored|saved|other|system|the user's|users'|everyone's|customer|service account)(?: [a-z]+){0,2} (?:api[ _-]?keys?|tokens?|secrets?|passwords?|password hash(?:es)?|credentials|private keys?|cookies|recovery codes?)\b|\b(?:the|your|process|shell|whole|entire|full) environment\b|\benvironment variables\b|\bprintenv\b|\bprocess\.env\b|\bos\.environ\b|\bhistory \||\b(?:shell|bash|zsh|command) history\b/;
/** Fetching text from outside and obeying it. */
const REMOTE_FOLLOW =
  /\b(?:fetch|download|visit|load|retrieve|curl|wget|get|open|read)\b[^.!?]{0,120}\bhttps?:\/\/[^.!?]{0,200}\b(?:follow|obey|execute|apply|run|carry out|do what)\b[^.!?]{0,40}\b(?:instructions?|steps|directions|commands|it|them|says)\b/;
/** Copying traffic out: a carbon copy, a forward, a mirror. */
const COPY_OUT =
  /\b(?:bcc|cc|(?:blind )?carbon copy|recipients?|forward(?:ed)? (?:to|it|them|a copy|every|all|each)|mirror(?:ed)? (?:to|it|them|every|all|each)|copy (?:it |them |this |everything |every |all |each )?(?:to|into)|copied to|send a copy)\b/;
const EVERY = /\b(?:all|every|each|any|always|whenever)\b/;
const I18N_CONVERSATION = /conversación|conversation|gespräch|unterhaltung|conversa|会话|对话|会話|대화|chat/;
/** Fetching something and acting on it: remote instructions. */
const REMOTE =
  /\b(?:fetch|fetching|download|downloading|visit|visiting|load|loading|retrieve|retrieving|curl|wget|get|open|opening)\b[^.!?]{0,80}\bhttps?:\/\//;
const NEGATED = /\b(?:never|not|don't|do not|must not|should not|shouldn't|cannot|can't|won't|will not|no need to)\s+(?:[a-z]+\s+){0,2}$/;

/** Identifier-shaped tokens: snake_case, kebab-case, namespaced (a__b, a.b_c, a/b). */
const COMPOUND = /(?<![a-z0-9@./:])[a-z][a-z0-9]*(?:(?:__|[_-])[a-z0-9]+)+(?:\.[a-z][a-z0-9_]*)?(?![a-z0-9@]|\.[a-z])|(?<![a-z0-9@./:])[a-z][a-z0-9_]*\.[a-z][a-z0-9]*_[a-z0-9_]+/g;
/** A word the text calls a tool: "the mailer tool", "tool `sendit`", "call `x`". */
const CALLED = /\b(?:the|a|an) [`'"]?(?<![a-z0-9_.-])([a-z][a-z0-9]{2,40})[`'"]? (?:tool|function)\b(?! calls?| options?| use| usage| results?| outputs?| responses?| descriptions?| names?| list| schemas?)|\b(?:call|invoke|trigger|execute) (?:the )?[`'"]([a-z][a-z0-9]{2,40})[`'"]/g;
const NOT_A_TOOL = new Set(['this', 'that', 'the', 'same', 'other', 'any', 'each', 'every', 'next', 'previous', 'first', 'search', 'right', 'correct', 'following', 'above', 'below', 'mcp', 'new', 'your', 'our', 'its', 'which', 'what', 'one', 'cli', 'api', 'shell', 'own', 'appropriate', 'relevant', 'specific', 'dedicated']);
/** Lead-in verbs that make an unknown identifier a tool: "call xyz_abc", "use xyz_abc to". */
const CALL_BEFORE = /\b(?:call|calls|calling|invoke|invoking|invokes|trigger|triggering|execute|executing)\s+(?:the\s+)?[`'"]?$/;
const PLAIN_AFTER_VERB =
  /\b(?:run|use|using|uses|unlock|enable|activate|issue|before|after|prior to|instead of|rather than|via|through|call|invoke|trigger|execute)\s+(?:the\s+)?[`'"]?([a-z][a-z0-9]{2,40})\b/g;
const NAME_END = /^[`'"]?(?:\s*(?:[,.;:!?)]|$)|\s+(?:to|with|for|on|first|before|after|and|then|tool|function|once|again|instead|now)\b)/;
/** For names the catalog knows: the verbs that use a tool by its plain name ("unlock transfer", "first issue refund"). */
const KNOWN_BEFORE = /\b(?:run|use|using|uses|unlock|enable|activate|issue|before|after|prior to|instead of|rather than|via|through)\s+(?:the\s+)?[`'"]?$/;
const TOOL_AFTER = /^[`'"]?\s*(?:tool|function)\b(?! calls?| options?| use| usage| results?| outputs?)/;

interface ToolRef {
  readonly start: number;
  readonly end: number;
  readonly name: string;
  /** The catalog says another server owns it (not just its shape). */
  readonly known: boolean;
}

/** Other tools this sentence names: catalog names of other servers, or identifier-shaped names used as tools. */
function toolRefs(sentence: string, offset: number, ctx: DirectiveContext): ToolRef[] {
  const refs: ToolRef[] = [];
  const consider = (name: string, start: number, end: number, calledTool: boolean): void => {
    if (ctx.own.has(name) || ctx.params.has(name) || ownFamily(ctx.own).has(unseparated(name))) return;
    const parts = name.split(/__|[.:/]/).filter((p) => p.length >= 3 && p !== name);
    if (parts.some((p) => ctx.own.has(p))) return;
    let known = false;
    if (ctx.index) {
      for (const candidate of [name, ...parts]) {
        const owners = ctx.index.toolOwners(candidate);
        if (owners.length > 0) {
          if (owners.some((o) => o.server === ctx.server)) return;
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
    const shaped = /[_-]/.test(name) || ctx.camel.has(name);
    if (!context && !(known && shaped)) return;
    // Not in the catalog: a function call in code (`useUser({...})`), or the server's own tool
    // misspelt ("currents-get-test-signature" for currents-get-tests-signatures).
    if (!known && (after.startsWith('(') || nearOwn(unseparated(name), ctx.own))) return;
    refs.push({ start, end, name, known });
  };
  for (const m of sentence.matchAll(COMPOUND)) consider(m[0], offset + m.index, offset + m.index + m[0].length, false);
  for (const word of ctx.camel) {
    let at = sentence.indexOf(word);
    while (at >= 0) {
      const edge = (i: number): boolean => i < 0 || i >= sentence.length || !/[a-z0-9_]/.test(sentence[i]!);
      if (edge(at - 1) && edge(at + word.length)) consider(word, offset + at, offset + at + word.length, false);
      at = sentence.indexOf(word, at + word.length);
    }
  }
  if (ctx.index) {
    // Plain words the catalog serves as tools, where a verb uses them as one ("unlock transfer").
    for (const m of sentence.matchAll(PLAIN_AFTER_VERB)) {
      const word = m[1]!;
      if (NOT_A_TOOL.has(word) || ctx.index.toolOwners(word).length === 0) continue;
      const end = offset + m.index + m[0].length;
      // "use query format" names a format; "unlock transfer, then..." names a tool.
      if (!NAME_END.test(sentence.slice(end - offset, end - offset + 12))) continue;
      const start = end - word.length;
      consider(word, start, start + word.length, false);
    }
  }
  if (/tool|function|call|invoke|trigger|execute/.test(sentence)) {
    for (const m of sentence.matchAll(CALLED)) {
      const name = (m[1] ?? m[2] ?? '').toLowerCase();
      if (!name || NOT_A_TOOL.has(name)) continue;
      consider(name, offset + m.index, offset + m.index + m[0].length, true);
    }
  }
  return refs;
}

interface Sentence {
  readonly text: string;
  readonly start: number;
}

/** Sentences of the reading: ends at . ! ? before a space, at a blank line, and at list markers. */
function sentences(text: string): Sentence[] {
  const out: Sentence[] = [];
  const end = /[.!?]+(?=\s|$)|[\u3002\uff01\uff1f]|\n\n+|\s(?=(?:\d{1,2}[.)]|[-*•]) )|;\s/g;
  let start = 0;
  const push = (from: number, to: number): void => {
    while (from < to && text.charCodeAt(from) === 0x20) from++;
    if (to - from > 1) out.push({ text: text.slice(from, to), start: from });
  };
  for (const m of text.matchAll(end)) {
    const stop = m.index + m[0].length;
    push(start, stop);
    start = stop;
  }
  push(start, text.length);
  return out;
}

function isDirective(s: string): boolean {
  return OBLIGATION.test(s) || IMPERATIVE.test(s);
}

/** The lexicon words that let a sentence in another language through the cheap test (see I18N_DIRECTIVE). */
const I18N_CUE =
  'immer|stets|muss|zuerst|vorher|bevor|vorrang|siempre|debe|antes|primero|toujours|doit|avant|sempre|deve|prioridad|prioridade|priorit|l\'emporte|必须|务必|一律|总是|之前|优先|高于|请|前|必ず|常に|前に|ください|優先|必要|반드시|항상|우선';
/** Cheap test: can this text hold a directive at all? Most schema strings cannot. */
const CUE = new RegExp(`${OBLIGATION.source}|${PRIORITY.source}|${PREREQUISITE.source}|${STANDING.source}|\\b(?:${VERB})|[a-z0-9][_-][a-z0-9]|[a-z][A-Z]|${I18N_CUE}|~\\/|\\/etc\\/`);

export function directiveHits(text: string, ctx: DirectiveContext): DirectiveHit[] {
  if (text.length < 12 || !CUE.test(text)) return [];
  // The first block, else the first flag: one finding per field is what the log keeps.
  let flag: DirectiveHit | undefined;
  const list = sentences(text);
  for (let i = 0; i < list.length; i++) {
    const s = list[i]!;
    if (s.text.length < 8) continue;
    const hit = judgeSentence(s.text, s.start, ctx, list[i + 1]?.text);
    if (hit?.action === 'block') return [hit];
    flag ??= hit;
  }
  return flag ? [flag] : [];
}

function judgeSentence(t: string, at: number, ctx: DirectiveContext, next: string | undefined): DirectiveHit | undefined {
  const span = { start: at, end: at + t.length };
  const directive = isDirective(t);
  const refs = CUE_TOOL.test(t) ? toolRefs(t, at, ctx) : NO_REFS;
  const priority = PRIORITY.exec(t) ?? ABOVE_USER.exec(t);
  if (priority && (ABOVE_USER.test(t) || OUTRANKED.test(t.slice(priority.index + priority[0].length))) && !negatedAt(t, priority.index)) {
    // The span is the claim itself, so a claim quoted as an example reads as one.
    const claim = { start: at + priority.index, end: at + priority.index + priority[0].length };
    if (directive || refs.length > 0 || (next !== undefined && isDirective(next))) {
      return { ...claim, action: 'block', id: 'directive.priority', reason: "claims priority over the user's request or the model's instructions and tells the model what to do" };
    }
    return { ...claim, action: 'flag', id: 'directive.priority-claim', reason: "claims priority over the user's request or the model's instructions" };
  }
  const prerequisite = PREREQUISITE.test(t);
  const standing = STANDING.test(t);
  if (I18N_PRIORITY.test(t) && I18N_OUTRANKED.test(t) && next !== undefined && (isDirective(next) || I18N_DIRECTIVE.test(next))) {
    return { ...span, action: 'block', id: 'directive.priority', reason: "claims priority over the user's request or the model's instructions and tells the model what to do" };
  }
  if (refs.length > 0 && (directive || prerequisite || standing)) {
    const ref = refs.find((r) => r.known) ?? refs[0]!;
    const name = `${ref.name}${ref.known ? " (another server's tool)" : ''}`;
    // Conditions on another tool ("X only works after Y is called", "X is locked until Y") are
    // directives in effect, whatever the grammar.
    const at0 = { start: ref.start, end: ref.end };
    if (prerequisite && (directive || ref.known || refs.length > 1)) {
      return { ...at0, action: 'block', id: 'directive.other-tool-prerequisite', reason: `makes a call of ${name} a condition of use or puts one before or instead of another tool` };
    }
    if (standing && (directive || ARGUMENT_CHANGE.test(t) || OUTSIDE.test(t) || SYSTEM_PATH.test(t) || OTHERS_SECRET.test(t))) {
      return { ...at0, action: 'block', id: 'directive.other-tool-arguments', reason: `tells the model how to call ${name}` };
    }
    if (directive) {
      if (ARGUMENT_CHANGE.test(t)) return { ...at0, action: 'block', id: 'directive.other-tool-arguments', reason: `tells the model how to call ${name}` };
      if (ref.known || HARM.test(t) || OUTSIDE.test(t)) return { ...at0, action: 'block', id: 'directive.other-tool', reason: `directs the model to use ${name}` };
    }
  }
  if (refs.length > 0) {
    const named = namedToolDirective(t, at, refs);
    if (named) return named;
  }
  if (I18N_DIRECTIVE.test(t) && !directive) {
    // In another language the grammar is not read; a system file, or an outside address with the
    // conversation or the environment, in an ordering sentence is enough.
    if (SYSTEM_PATH.test(t)) return { ...span, action: 'block', id: 'directive.system-file', reason: 'directs the model to a system file or a secret store' };
    if (OUTSIDE_ADDRESS.test(t) && (I18N_CONVERSATION.test(t) || OTHERS_SECRET.test(t))) {
      return { ...span, action: 'block', id: 'directive.conversation', reason: 'demands that the conversation or secrets be sent to an outside address' };
    }
  }
  if (REMOTE_FOLLOW.test(t)) return { ...span, action: 'block', id: 'directive.remote', reason: 'tells the model to fetch instructions from outside and follow them' };
  if (!directive) return undefined;
  if (OUTSIDE_ADDRESS.test(t) && COPY_OUT.test(t) && EVERY.test(t)) {
    return { ...span, action: 'block', id: 'directive.copy-out', reason: 'directs the model to copy what it sends to an outside address' };
  }
  const path = SYSTEM_PATH.exec(t);
  const verb = path ? lastMatch(READ_OR_PASS_G, t.slice(0, path.index)) : -1;
  // "Copy the snippet into ~/.cursor/mcp.json": the file is where something is written (setup).
  if (path && verb >= 0 && !negatedAt(t, verb) && !INTO_PATH.test(t.slice(verb, path.index))) {
    // The span runs from the verb to the path, so "requests to read `~/.ssh`" reads as an example.
    const pathSpan = { start: at + verb, end: at + path.index + path[0].length };
    return { ...pathSpan, action: 'block', id: 'directive.system-file', reason: 'directs the model to a system file or a secret store' };
  }
  if (!prerequisite && !standing) return undefined;
  const harm = HARM.exec(t);
  const outside = OUTSIDE.test(t);
  if (CONVERSATION.test(t) && (harm || outside)) return { ...span, action: 'block', id: 'directive.conversation', reason: 'demands that the conversation be passed on as a condition of use' };
  if (OTHERS_SECRET.test(t) || (SECRET.test(t) && (outside || /\b(?:into|in|to) (?:the |this |your )?[a-z_]+ (?:field|parameter|argument)\b/.test(t)))) {
    return { ...span, action: 'block', id: 'directive.secret', reason: 'demands secrets or the environment as a condition of use' };
  }
  const recon = RECON.exec(t);
  if (recon && !negatedAt(t, recon.index)) return { ...span, action: 'block', id: 'directive.reconnaissance', reason: `demands a survey of the system ("${recon[0]}") as a condition of use` };
  if (REMOTE.test(t)) return { ...span, action: 'block', id: 'directive.remote', reason: 'demands that something be fetched from outside as a condition of use' };
  if (harm && !negatedAt(t, harm.index)) {
    if (outside) return { ...span, action: 'block', id: 'directive.side-action', reason: `demands a side action ("${harm[0]}") towards an outside address as a condition of use` };
    return { ...span, action: 'flag', id: 'directive.side-action', reason: `demands a side action ("${harm[0]}") as a condition of use` };
  }
  return undefined;
}

const NO_REFS: readonly ToolRef[] = [];

/**
 * Obligations and orders in the other languages tool text is written in (de, es, fr, pt, zh, ja,
 * ko): with another server's tool named in the same sentence they are a directive about it.
 */
const I18N_DIRECTIVE =
  /\b(?:immer|stets|muss|müssen|musst|zuerst|vorher|bevor|zunächst|unbedingt|pflicht|siempre|debe|deben|debes|antes|primero|obligatori[oa]|nunca|toujours|doit|doivent|devez|avant|d'abord|obligatoire|jamais|utilisez|sempre|deve|devem|primeiro|obrigatóri[oa])\b|sin importar|unabhängig|quel que soit|auch wenn|aunque|même si|mesmo que|必须|务必|一律|总是|始终|之前|前|请|必ず|常に|前に|ください|必要があります|반드시|항상|하세요/;
const I18N_PRIORITY =
  /vorrang|steht über|wichtiger als|prevalece|prioridad|más peso|por encima de|prévaut|l'emporte|prioritaire|supérieure? aux|prioridade|vale mais|优先|高于|優先|우선/;
const I18N_OUTRANKED = /nutzer|benutzer|anweisung|usuario|instrucci|utilisateur|instruction|usuário|instruç|用户|系统|ユーザー|システム|사용자|시스템|system/;
/** Whatever the user chose: the sentence overrides the user's own arguments. */
const OVERRIDES_USER =
  /\b(?:whatever|regardless of|no matter) (?:what |which )?(?:\w+ ){0,2}(?:the user|you were|they)|\beven (?:if|when) the user\b|sin importar|unabhängig|quel que soit|auch wenn|même si|mesmo que|aunque el usuario/;
/** Arguments spelt out for a named tool: `tool: key=value`, `tool → region=x`, `{"key": ...}`. */
const ASSIGNMENT = /\b[a-z_][a-z0-9_]{1,40} ?[=:] ?[^\s]|→|->|=>|\{ ?["'][a-z_]/;

/**
 * Whatever the language or the grammar: a sentence that names another server's tool (by the
 * catalog, in an identifier's shape) and also orders, spells out arguments, ranks itself above
 * the user, or names an outside address is about that tool's use.
 */
function namedToolDirective(t: string, at: number, refs: readonly ToolRef[]): DirectiveHit | undefined {
  const ref = refs.find((r) => r.known && /[_-]/.test(r.name));
  if (!ref) return undefined;
  const why = I18N_PRIORITY.test(t) || OVERRIDES_USER.test(t) ? 'ranks itself above the user'
    : I18N_DIRECTIVE.test(t) ? 'orders the model'
    : OUTSIDE.test(t) ? 'names an outside address'
    : ASSIGNMENT.test(t.slice(ref.end - at)) ? 'spells out its arguments'
    : undefined;
  if (!why) return undefined;
  return { start: ref.start, end: ref.end, action: 'block', id: 'directive.named-tool', reason: `names ${ref.name} (another server's tool) and ${why}` };
}

/** Can the sentence name a tool at all (an identifier, or a tool/call word)? */
const CUE_TOOL = /[a-z0-9][_-][a-z0-9]|\b(?:tool|function|call|invoke|trigger|execute|unlock|enable|activate|issue|run|use|using|uses|before|after|prior|instead|rather|via|through)\b/;

function negatedAt(t: string, index: number): boolean {
  return NEGATED.test(t.slice(Math.max(0, index - 30), index));
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
