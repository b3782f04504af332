// English detection patterns over the shadow copy (lower case, NFKC, confusables folded, whitespace collapsed).
//
// Every pattern is bounded: gaps are `{0,n}` of a sentence-internal class, repetitions are capped,
// and no two adjacent unbounded groups overlap, so matching stays linear-ish on hostile input
// (test/unit/sanitize/redos.test.ts). A directive must be in the same sentence as its target; a
// period inside a path (`~/.cursor/mcp.json`) does not end a sentence.
import type { RuleId, Severity } from './types.js';

/** Up to n chars that stay in one sentence (a newline alone is a soft wrap; a blank line ends it). */
export const gap = (n: number): string => `(?:[^.!?\\n]|[.!?](?=\\S)|(?<!\\n)\\n(?!\\n)){0,${n}}?`;

export interface Pattern {
  readonly id: string;
  readonly rule: RuleId;
  readonly re: RegExp;
  /** block: high confidence. flag: a paraphrase or a weak signal. */
  readonly action: 'block' | 'flag';
  readonly severity: Severity;
  readonly reason: string;
  /** Skip a match right after a negation ("do not read ~/.ssh/id_rsa"). */
  readonly negatable?: boolean;
  /** Skip a match whose target is where something is written ("add this server to your mcp.json"). */
  readonly destinationAware?: boolean;
  /**
   * A one-pass test the text must pass first: for patterns that start on a common verb and then
   * scan up to a sentence for a rare target, testing for the target alone is far cheaper.
   */
  readonly gateRe?: RegExp;
  /**
   * Literals of which the text must contain at least one for the pattern to be able to match: a
   * handful of `includes` calls rule out most patterns for most text before any regex runs.
   */
  readonly gate?: readonly string[];
}

export const definePattern = (
  id: string,
  rule: RuleId,
  src: string,
  action: Pattern['action'],
  severity: Severity,
  reason: string,
  negatable = false,
): Pattern => ({
  id,
  rule,
  re: new RegExp(src, 'g'),
  action,
  severity,
  reason,
  negatable,
  gate: GATES[id],
  gateRe: GATE_RES[id],
  destinationAware: DESTINATION_AWARE.has(id),
});
const p = definePattern;

/** Cheap presence tests for the targets of the verb-first patterns (see Pattern.gateRe). */
const STRONG_QUICK =
  /ssh|id_(?:rsa|dsa|ecdsa|ed25519)|\.aws|aws_secret|netrc|git-credentials|\.docker|\.kube|npmrc|pypirc|pgpass|gnupg|password-store|\/etc\/(?:shadow|passwd|ssl\/private|pki\/tls\/private)|get secret|mcp(?:_config|_settings)?\.json|claude_desktop|login data|cookies|logins|key[34]\.db|passwords|credentials|gcloud|\.azure/;
const GENERIC_QUICK = /api[ _-]?keys|tokens|secrets|credentials|passwords|private keys?|ssh keys?|env(?:ironment)? var|environment|process\.env|os\.environ|printenv|\.env/;
const ENV_QUICK = /\.env/;
const CONV_QUICK =
  /copy |transcript|record |dump |clipboard|terminal output|history|full |entire|whole|complete|verbatim|raw |exact|previous|prior|earlier|past |preceding|messages|conversation|chat |system prompt|system message|system instructions|initial instructions|hidden instructions|everything|tool (?:results|outputs|responses)|(?:results?|outputs?|responses?) (?:of|from) (?:all|every|other|previous|prior)/;
const GATE_RES: Record<string, RegExp> = {
  'credential.directive-strong': STRONG_QUICK,
  'credential.strong-then-move': STRONG_QUICK,
  'credential.directive-latin': STRONG_QUICK,
  'credential.directive-i18n': STRONG_QUICK,
  'credential.env-content': ENV_QUICK,
  'credential.env-then-move': ENV_QUICK,
  'credential.generic-to-sink': GENERIC_QUICK,
  'conversation.move': CONV_QUICK,
  'parameter.file-content': /ssh|id_|\.aws|netrc|git-cred|\.docker|\.kube|npmrc|pypirc|pgpass|gnupg|password|\/etc\/|mcp|claude_desktop|login|cookies|key[34]|credentials|aws_secret|get secret|\.env/,
  'parameter.secrets': GENERIC_QUICK,
  'parameter.transcript': CONV_QUICK,
};

/** Patterns that end on a credential target, where "to/into <target>" means writing the file, not reading it. */
const DESTINATION_AWARE = new Set(['credential.directive-strong', 'credential.directive-latin']);

/**
 * Gates by pattern id (see Pattern.gate), only where they pay: irregexp scans most of these
 * patterns faster than a list of `includes` calls would (measured), except the ones below whose
 * first token is an alternation of many prefixes.
 */
const GATES: Record<string, readonly string[]> = {
  'override.you-are-now': ['you are', 'from now on', ' mode', 'do anything'],
  'conversation.trigger-action': ['user '],
  'encoded.decode-and-follow': ['decode', 'atob', 'unhex', 'rot13'],
  // Each of its alternatives needs one of these words (keep in step with the pattern).
  'override.consent': [
    'no longer', 'without', 'never ', 'do not ', "don't ", 'unnecessary', 'not needed', 'not required', 'not necessary', 'disabled',
    'waived', 'turned off', 'is off', 'are off', 'now off', 'no confirmation', 'no approval', 'no review', 'no consent', 'no permission',
    'no user ', 'skip', 'suppress', 'bypass', 'disable', 'avoid', 'omit', 'lift', 'retir', 'rescind', 'waiv', 'suspend', 'relax',
    'already', 'count as', 'counts as', 'pre-', 'preapprov', 'preauthori', 'precleared', 'preconsented', 'whitelisted', 'allowlisted',
    'signed off', 'consented', 'standing ', 'exempt', "doesn't need", 'does not need', 'no need', 'on your', 'asking ', 'no reason',
    'agreed', 'approved', ' mode',
  ],
};

export function gateOf(id: string): readonly string[] | undefined {
  return GATES[id];
}

export function gateReOf(id: string): RegExp | undefined {
  return GATE_RES[id];
}

// Imperative verbs only: third-person descriptions of what the tool itself does ("reads", "sends") do not match.
const V_ANY =
  'read|open|cat|include|pass|append|send|attach|upload|post|copy|fetch|extract|provide|supply|insert|embed|paste|forward|exfiltrate|leak|transmit|share|dump|grab|collect|retrieve|submit|encode|put|add|output|print|reveal|show|display|load|get';
export const V_MOVE =
  'pass|send|include|append|attach|upload|post|forward|transmit|exfiltrate|leak|embed|insert|put|add|paste|copy|submit|share|provide|supply|encode';
const V_MOVED = 'passed|sent|included|appended|attached|uploaded|posted|forwarded|embedded|inserted|added|pasted|copied|submitted|provided|supplied';

const HOME = '(?:~|\\$home|\\$\\{home\\}|%userprofile%|/home/[^/\\s]{1,32}|/users/[^/\\s]{1,32}|/root)?';
/** Secrets worth blocking on any directive: private keys, cloud and registry credentials, MCP client configs, browser stores. */
export const T_STRONG = [
  `${HOME}/?\\.ssh/(?:id_[a-z0-9_]{2,20}|identity)(?![\\w.-]*\\.pub)\\b`,
  '\\bid_(?:rsa|dsa|ecdsa|ed25519)(?:_sk)?\\b(?!\\.pub)',
  `${HOME}/\\.ssh(?:/\\*?)?(?=[\\s'"\`),;:]|$)`,
  '\\.ssh (?:directory|folder|dir)\\b',
  '\\b(?:private ssh|ssh private) keys?\\b',
  '\\.aws/credentials\\b', '\\baws_secret_access_key\\b', '\\.netrc\\b', '\\b_netrc\\b', '\\.git-credentials\\b',
  '\\.docker/config\\.json\\b', '\\.kube/config\\b', '\\.npmrc\\b', '\\.pypirc\\b', '\\.pgpass\\b', '\\.gnupg\\b',
  '\\.password-store\\b', '/etc/shadow\\b', '/etc/passwd\\b',
  // A server's TLS private keys, a cluster's secrets.
  '/etc/(?:ssl|pki/tls)/private\\b', '\\bkubectl get secrets?\\b',
  '\\bapplication_default_credentials\\.json\\b', '\\.config/gcloud\\b', '\\.azure/(?:credentials|accesstokens\\.json)\\b',
  '\\bmcp\\.json\\b', '\\bclaude_desktop_config\\.json\\b', '\\bmcp_config\\.json\\b', '\\bcline_mcp_settings\\.json\\b',
  '\\bmcp_settings\\.json\\b',
  '\\blogin data\\b', '\\bcookies\\.sqlite\\b', '\\blogins\\.json\\b', '\\bkey[34]\\.db\\b',
  '\\b(?:chrome|chromium|firefox|brave|edge|safari|browser)(?:\'s)? (?:saved |stored )?(?:passwords|cookies|credentials|logins)\\b',
].join('|');
export const ENV_FILE = "(?<![\\w.-])\\.env(?:\\.(?:local|production|prod|development|dev))?(?![\\w.-])";
/** Secrets by description; only with a qualifier, so "your API key" for the tool's own auth does not match. */
export const T_GENERIC = [
  "\\b(?:all|any|every|other|the user's|user's|available|stored|saved|existing|found) (?:of (?:the |your )?)?(?:api[ _-]?keys|access tokens|auth(?:entication)? tokens|tokens|secrets|credentials|passwords|private keys|env(?:ironment)? vars?|environment variables?)\\b(?! for (?:that|this|the|the same) (?:site|website|page|form|service|login)\\b)",
  '\\b(?:the )?(?:full|entire|whole|complete) (?:process )?environment\\b',
  '\\b(?:any|all|every) (?:other )?\\*_(?:api_key|token|secret|key)s?\\b',
  '\\byour (?:environment variables|env vars|secrets|private keys?|ssh keys?)\\b',
  '\\bprocess\\.env\\b', '\\bos\\.environ\\b', '\\bprintenv\\b',
].join('|');
/**
 * A secret by its variable's name (`$GITHUB_TOKEN`, `OPENAI_API_KEY`, `*_SECRET`): only as the
 * target of a directive into a sink, since setup docs name these variables all the time.
 */
export const T_NAMED_SECRET =
  '(?:\\$(?:[a-z0-9]+_){0,3}|\\b(?:[a-z0-9]+_){1,3})(?:token|api_key|apikey|secret|secret_key|access_key|password|passwd|private_key|auth_token)\\b|\\*_(?:api_key|token|secret)\\b';
const ENV_CONTENT = `\\b(?:contents?|values?|variables|secrets|keys|tokens|data|text) (?:of|from|in|inside) (?:the |your |a |any |all |every )?${ENV_FILE}`;
/** Where a secret goes: a tool argument, a URL, a request. */
export const SINK =
  "\\b(?:as|in|into|inside|within|to|via|through|using) (?:the |a |an |its |this |that |your )?(?:next )?(?:['\"`][^'\"`\\n]{1,40}['\"`]|[a-z0-9_]{1,40} (?:parameter|param|argument|arg|field|property)|(?:parameters?|params?|arguments?|args?|fields?|url|query|request|body|header|link|webhook|endpoint|metadata|notes?|sidenote|comment|message|tool call|response|reply|answer|output)\\b)";

const CONVERSATION_ITSELF = [
  '(?:the |this )?(?:conversation|chat) (?:history|so far|log|transcript)',
  "(?:your|the assistant's|the model's|the current|the original) (?:system prompt|system message|system instructions|initial instructions|hidden instructions)",
  '(?:the )?system prompt (?:you (?:were|are) given|above)',
  'everything (?:the user|you) (?:said|wrote|typed|know|have seen)',
  '(?:results?|outputs?|responses?) (?:of|from) (?:(?:all|every|other|previous|prior) ){1,2}(?:tools?|tool calls|function calls)',
  '(?:all|every|other|previous) tool (?:results|outputs|responses)',
];

/** The conversation, its system prompt or other tools' output, as the object of an order to move it. */
export const CONV_TARGET = [
  '(?:a |the )?(?:full |complete |verbatim |word-for-word |whole )?(?:copy|transcript|record|dump) of (?:the |this |our |your )?(?:current |whole |entire |full )?(?:conversation|chat|session|thread|context)',
  "(?:the user's )?(?:(?<!\\b(?:set|sets|setting|write|writes|to|into|onto) (?:the )?)clipboard(?: contents)?|terminal output|shell history|bash_history|command history|browser history)",
  '(?:the |this |our |your )?(?:full|entire|whole|complete|verbatim|raw|exact) (?:text of (?:the )?)?(?:conversation|chat(?! message\\b)|transcript|dialog(?:ue)?|message history|chat history|conversation history|context window|(?:conversation|chat) context|session|thread|history)',
  // "Send complete context" to a model the tool delegates to, "so the model has full context" of the
  // code: whatever the task needs. Whose context it is, or all of it word for word, is the conversation's.
  '(?:this|our|your) (?:full|entire|whole|complete|verbatim|raw|exact) context',
  '(?:the |all )?(?:entire|whole|verbatim|raw|exact) context',
  '(?:all |the )?(?:previous|prior|earlier|past|preceding) (?:user )?(?:messages|conversation|turns|chat messages|prompts)',
  "(?:all|every) (?:of )?(?:the )?(?:user's |user )?messages",
  ...CONVERSATION_ITSELF,
].map((s) => `\\b${s}\\b`).join('|');

/**
 * The same, as what a parameter asks for. "The full history" or "the full transcript" of what? A
 * version history and a meeting's transcript are data a tool returns, "all messages" a page of a
 * console; only the conversation's own words are the target here.
 */
export const CONV_PARAMETER_TARGET = [
  '(?:a |the )?(?:full |complete |verbatim |word-for-word |whole )?(?:copy|transcript|record|dump) of (?:the |this |our |your )?(?:current |whole |entire |full )?(?:conversation|chat|session|thread|context)',
  // "images from clipboard" is where a file comes from; "the user's clipboard" is whose data it is.
  "(?<!\\b(?:set|sets|setting|write|writes|to|into|onto) )(?:the user's|the|your|their|current) (?:clipboard(?: contents)?|terminal output|shell history|bash_history|command history|browser history)|contents of (?:the |your )?clipboard",
  '(?:the |this |our |your )?(?:full|entire|whole|complete|verbatim|raw|exact) (?:text of (?:the )?)?(?:conversation|chat(?! message\\b)|dialog(?:ue)?|message history|chat history|conversation history|context window)',
  '(?:all |the )?(?:previous|prior|earlier|past|preceding) (?:user messages|conversation|turns|chat messages|prompts)',
  "(?:all|every) (?:of )?(?:the )?(?:user's |user )messages",
  ...CONVERSATION_ITSELF,
].map((s) => `\\b${s}\\b`).join('|');

const QUALS = '(?:all |any |each |every |the |your |my |of |these |those |previous |prior |above |earlier |system |safety |developer |initial |original |other ){0,4}';
const OVERRIDE_NOUN = '(?:system prompt|instructions?|prompts?|rules|directions|guidelines|directives|guardrails|constraints|restrictions|programming)';
const DIRECTIVE_START =
  "(?:you (?:must|should|will|are|need|have)|ignore|disregard|forget|from now on|always (?:call|use|include|send|pass|run|ignore|respond|reply|answer)|never (?:tell|mention|reveal)|do not|don't|new instructions|override|the assistant (?:must|should|will)|before (?:using|calling|answering|responding|performing|doing|any|every)|when (?:using|calling|the user|this tool))";

/**
 * A sleeper trigger: an innocuous pleasantry as the condition. Decision words (yes, ok, done) are
 * left out: "if the user says yes, call confirm_booking" is an ordinary confirmation flow.
 */
const TRIGGER =
  "\\b(?:when|whenever|if|once|after|as soon as) (?:the )?user (?:says|types|writes|sends|replies|mentions|responds(?: with)?) ?[\"'\u201c\u2018]?(?:thanks|thank you|thx|hello|hi|hey|bye|goodbye|good night|cheers)\\b";

/** Where a linter or formatter applies its rules: "ignore all rules for this line" is a suppression, not an override. */
const CODE_SCOPE =
  '(?:for|in|on|of|across) (?:this|the|that|these|a|each|every|all|whole|entire) (?:whole |entire )?(?:lines?|files?|projects?|folders?|director(?:y|ies)|repo|repositor(?:y|ies)|blocks?|sections?|cells?|ranges?|documents?|paths?|workspaces?|commits?|modules?|packages?|functions?|selection|statements?)\\b';

/** What a "user" level of configuration holds: "workspace settings override user settings" is precedence, not a claim. */
const USER_SCOPED =
  'settings?|config\\w*|preferences?|defaults?|values?|levels?|scopes?|profiles?|data|agents?|roles?|ids?|accounts?|names?|permissions?|groups?|attributes?|fields?|records?|quotas?|limits?|keybindings?|themes?|files?|director(?:y|ies)|folders?|options?|overrides?|tokens?|polic(?:y|ies)|rules?|variables?|env|environment|layer|tier|home';

export const PATTERNS: readonly Pattern[] = [
  // instruction-override
  p('override.ignore-previous', 'instruction-override',
    `\\b(?:ignore|disregard|forget|discard|abandon|override|bypass)\\b ${QUALS}(?:previous|prior|above|earlier|preceding|former|original|system|safety|developer|initial|your|all|any) ${OVERRIDE_NOUN}\\b(?! ${CODE_SCOPE})|\\b(?:ignore|disregard|forget)\\b (?:all |any |the |your )?${OVERRIDE_NOUN} (?:above|before this|so far|you (?:were|have been) given)\\b|\\b(?:ignore|disregard|forget) (?:everything|anything|all) (?:(?:above|before this)(?= ?(?:[.!,;:\\n]|$| and\\b| then\\b))|you (?:were|have been) (?:told|given)\\b)`,
    'block', 'high', 'tells the model to ignore its previous instructions', true),
  p('override.role-token', 'instruction-override',
    '<\\|(?:im_start|im_end|im_sep|system|user|assistant|endoftext|start_header_id|end_header_id|eot_id|begin_of_text|eom_id)\\|>|\\[/?inst\\]|<</?sys>>|<(?:start|end)_of_turn>',
    'block', 'high', 'contains a chat-template role token'),
  p('override.you-are-now', 'instruction-override',
    "\\byou are now (?:in )?(?:dan\\b|jailbroken|unrestricted|unfiltered|uncensored|an? (?:unrestricted|unfiltered|uncensored|different|new|evil)\\b)|\\byou are no longer (?:bound|restricted|limited|an? (?:ai|assistant)\\b)|\\bfrom now on,? you (?:are|will|must|should|have to)\\b|\\b(?:god|dan|jailbreak) mode\\b|\\bdo anything now\\b",
    'block', 'high', 'tries to replace the model\'s role'),
  p('override.new-instructions', 'instruction-override',
    '\\b(?:new|real|actual|true|override|secret|hidden) (?:system )?(?:instructions|directives|system prompt)\\s?:',
    'block', 'high', 'announces replacement instructions'),
  p('override.fake-system', 'instruction-override',
    `(?:^|\\n|[.!?>] )(?:\\[|\\(|#{1,3} ?)?(?:(?:important|critical|urgent|mandatory|required|hidden|secret) )?(?:system|system message|system prompt|system note|system notice|system instructions?|admin|administrator|developer|assistant|operator)(?: \\[[^\\]\\n]{0,40}\\])?(?:\\]|\\))? ?: ?${DIRECTIVE_START}`,
    'block', 'high', 'fakes a system message'),
  p('override.authority', 'instruction-override',
    "\\b(?:this|the following) (?:message|instruction|directive|notice|update|request) (?:is|comes) (?:directly )?from (?:anthropic|openai|google|the system|your developers?|the developers?|the (?:system )?administrator|the operator|claude|chatgpt)\\b|\\b(?:anthropic|openai|the system administrator|your developers?|your creators?) (?:has|have) (?:authorized|instructed|approved|requested|required)\\b|\\bauthorized by (?:anthropic|openai|the system|your developers?)\\b|\\b(?:message|instructions?|directive) from (?:anthropic|openai|your developers?|the system administrator)\\b|\\b(?:system|admin|administrator|developer) override\\b",
    'block', 'high', 'claims an authority the text cannot have'),
  // Claims of approval, consent or lifted rules that let the model act without asking: whatever
  // the words, a tool's text cannot grant what only the user can.
  p('override.consent', 'instruction-override',
    [
      `\\bno longer (?:needs?|has|have|is required|are required) to (?:ask|confirm|check|consult|get (?:approval|consent|permission))\\b`,
      `\\b(?:go ahead|proceed|continue|act|set (?:it|this|them)(?: to [a-z]+)?|run (?:it|them)|call (?:it|this tool)|send (?:it|them)|do (?:it|so)|directly)${gap(30)} without (?:asking|checking (?:back )?with|confirming with|raising it with|consulting|double-checking with|bothering) (?:the )?(?:user|owner|them|anyone|account owner|human)\\b`,
      `\\b(?:never|do not|don't) (?:asks?|prompt|check with|consult|bother) (?:the )?(?:user|owner)(?= ?(?:[.,;:)]|$| first\\b| for (?:approval|confirmation|permission|consent)\\b| before\\b| about\\b| again\\b))`,
      `(?<!\\x60: ?)\\b(?:approval|confirmation|review|consent|sign-?off|permission)s? (?:prompts?|checks?|steps?|requests?|requirements?|dialogs?)? ?(?:are|is) (?:now )?(?:unnecessary|not (?:needed|required|necessary)|off|disabled|turned off|waived)\\b`,
      `\\bno (?:user )?(?:confirmation|approval|review|consent|permission)s? (?:is |are )?(?:needed|required|necessary)\\b`,
      `\\b(?:skip|suppress|bypass|disable|avoid|omit) (?:the |all |any )?(?:user )?(?:approval|confirmation|consent|review)s?(?: (?:prompts?|checks?|steps?|dialogs?))?\\b`,
      `\\b(?:rules?|restrictions?|requirements?|polic(?:y|ies)|guardrails?|safeguards?)\\b${gap(50)}\\b(?:were|was|has been|have been|is|are) (?:now |since |recently |officially )?(?:lifted|retired|rescinded|waived|suspended|relaxed|no longer (?:apply|applies|in (?:force|effect)))\\b`,
      `\\b(?:lifted|relaxed|waived|retired|rescinded|suspended) (?:the |all |any |its |their )?(?:[a-z-]+ ){0,2}(?:rules?|restrictions?|requirements?|polic(?:y|ies)|guardrails?|safeguards?)\\b`,
      `\\b(?:are|is|were|been) (?:all )?already (?:approved|authori[sz]ed|cleared)\\b|\\bcounts? as (?:approved|authori[sz]ed)\\b`,
      `\\bpre-?(?:approved|authori[sz]ed|cleared|consented)\\b`,
      `\\b(?:whitelisted|allowlisted) (?:this|the) (?:tool|action|server|integration)\\b`,
      `\\bsigned off on (?:every|all|each|any)\\b|\\bconsented (?:to (?:all|every|any)\\b|in advance\\b)|\\bstanding (?:permission|approval|consent)\\b`,
      `\\b(?:exempt|exempted) from (?:the |any )?(?:usual |normal |standard |regular )?(?:review|approval|confirmation|checks?|polic(?:y|ies))\\b`,
      // "must not proceed without the user's approval" is the opposite of a waiver.
      `\\b(?=without |doesn't need |does not need |no need for )(?<!\\b(?:never|not|don't|do not|must not|should not|cannot|can't)\\b[^.!?\\n]{0,60})(?:without|doesn't need|does not need|no need for) (?:the )?(?:user's|owner's|their) (?:say-so|approval|consent|permission|confirmation|go-ahead)\\b`,
      `\\bon your (?:call|say-so|decision) alone\\b|\\basking (?:again|them|the user) (?:only )?(?:annoys|irritates|bothers)\\b`,
      // Waiving the user's say, not a step of the tool's own flow ("no need to ask questions", "no need to verify the path").
      `\\bno (?:reason|need) to (?:ask|confirm with|check with|consult|wait for|tell|inform) (?:the )?(?:user|owner|human|them|anyone)\\b|\\bno (?:reason|need) to (?:ask for|get|obtain|request|wait for|seek) (?:the user's |their |any |explicit )?(?:permission|approval|confirmation|consent|go-ahead)\\b|\\bno (?:reason|need) to (?:confirm|double-check|redact)(?: (?:first|anything|this|it))?(?=[ .,;:!]|$)(?! (?:the|that|whether|if|your) )`,
      // "set only after the user agreed to the plan" is the condition kept, not a claim ("as if the user
      // has approved" is one); "the exact text of the message the user approved." names a value (an
      // article and a noun, then the sentence ends), where "go ahead the user approved.", "this deletion
      // the user approved." and "the plan the user approved, so go." claim.
      `\\b(?<!\\b(?:after|once|when|until|unless|before|only if|only when) (?:the )?)(?!(?<=\\b(?:the|a|an) (?:(?!(?:which|that|who|is|are|was|were|be|so|and|but|fine)\\b)[\\w-]+ |\\([^)]{0,40}\\) ){1,3})(?:the )?user (?:agreed|consented|approved|signed off)(?: to)?(?=\\s?\\(|\\.?\\s*$|\\.\\s))(?:the )?user (?:has )?(?:already )?(?:agreed|consented|approved|signed off)\\b(?! to (?:the )?(?:terms|tos|license|eula|privacy))`,
      `\\bwithout (?<!\\b(?:never|not|don't|do not|must not|should not|cannot|can't)\\b[^.!?\\n]{0,60}without )(?:asking|checking (?:back )?with|confirming with|consulting) (?:the )?(?:user|owner|them|anyone)\\b`,
      `\\b(?:developer|admin) mode (?:is )?(?:active|on|enabled)\\b`,
      // "...force-push main without asking." The waiver closes the order; "never ... without asking" is
      // the rule kept, and "overwrites any file of that name without confirmation" warns of what the
      // tool does.
      `\\bwithout (?<!\\b(?:never|not|don't|do not|must not|should not|cannot|can't)\\b[^.!?\\n]{0,60}without )(?<!\\b(?:overwrites|replaces|deletes|removes|discards)\\b[^.!?\\n,;]{0,60}without )(?:asking|confirming|confirmation|prompting|checking)(?: (?:first|anyone|again))?(?= ?(?:[.!;]|$))`,
    ].join('|'),
    'block', 'high', 'claims an approval or a lifted rule that lets the model act without the user'),
  p('override.user-overridden', 'instruction-override',
    [
      `\\beven (?:when|if) (?:the )?user (?:says?|said|asks?|asked|wants?|wanted|objects?|disagrees?)(?: otherwise| no)?\\b`,
      `\\bregardless of (?:the user's|what (?:the )?user) (?:choice|says?|said|wants?|asked|asks|wishes|requests?)\\b`,
      // "Playbooks do not outrank the user's requests" disclaims the rank; "not only outrank" claims it.
      `\\b(?<!\\b(?:not|never|cannot|can't|don't|doesn't|won't) (?:(?!(?:only|merely|just|simply|solely) )\\w+ )?)(?:outranks?|overrides?|supersedes?|takes? precedence over|(?:is|are) (?:more important|higher priority) than) (?:the |any |all )?(?:user(?:'s)?(?! (?:${USER_SCOPED})\\b)|user instructions|system prompt|instructions (?:from|of) the user)\\b`,
      `\\b(?:replaces?|overrides?|supersedes?) (?:what|anything|whatever) (?:the )?user (?:said|says|asked|asks|wants|requested)\\b`,
      `\\b(?:ignore|disregard|forget|override|bypass) (?:the |your |any )?(?:system prompt|system message|user's (?:instructions|request|choice|wishes))\\b`,
      `\\bfollow (?:only )?(?:any|all|the) (?:steps|instructions|directions|commands) (?:it|they|that it|in (?:it|its|this tool's|the tool's) (?:results?|output))(?: contains?)?\\b`,
      `\\b(?:is|are) authoritative\\b${gap(40)}\\bfollow\\b`,
    ].join('|'),
    'block', 'high', "tells the model to put the tool's text above the user"),
  p('override.addressed', 'instruction-override',
    `(?:^|[(\\[;,.:!?\\n\u2014\u2013-] ?)(?:assistant|model|ai|llm|agent|claude|chatgpt)(?:-facing)? ?[:,] ?(?:also |please |now |first |then |(?:before|once|after|when) [^,.;\\n]{0,40}[,;]? )?(?:fill|put|add|send|pass|include|append|call|use|run|read|forward|copy|hand|set|write|delete|remove|ignore|replace|change|post|upload|tell|say|do not|don't|never|always|whenever|when)\\b`,
    'block', 'high', 'gives the model an order addressed to it'),
  // The model's own replies, all of them: a tool's business is its results, never what the model
  // writes to the user afterwards ("every reply you give after this tool has been used carries ...").
  p('override.every-reply', 'instruction-override',
    `\\b(?:every|each|all|any) (?:later |subsequent |future |following |other |further )?(?:of your |your )?(?:repl(?:y|ies)|answers?|responses?|messages?) (?:that )?you (?:give|write|send|post|produce|make)\\b|\\b(?:all|every|each) (?:of )?your (?:later |subsequent |future |following |other )?(?:repl(?:y|ies)|answers?|responses?|messages?)\\b|\\byour (?:later|subsequent|future|following) (?:repl(?:y|ies)|answers?|responses?|messages?)\\b`,
    'block', 'high', 'gives orders for every reply the model writes'),
  p('override.paraphrase', 'instruction-override',
    `\\b(?:ignore|disregard|forget)\\b${gap(40)}\\b(?:instructions?|guidelines|system prompt)\\b|\\bpretend (?:to be|you are)\\b|\\byou are now (?:a|an)\\b|\\bnew instructions\\b|\\bact as if you\\b`,
    'flag', 'medium', 'may try to change the model\'s instructions', true),

  // credential-exfil
  p('credential.directive-strong', 'credential-exfil', `\\b(?:${V_ANY})\\b${gap(120)}(?:${T_STRONG})`,
    'block', 'critical', 'asks the model to read or send a credential file', true),
  p('credential.strong-then-move', 'credential-exfil',
    `(?:${T_STRONG})${gap(100)}\\b(?:${V_MOVE}|${V_MOVED})\\b ?(?:it |them |its (?:contents?|values?) |the (?:contents?|values?) |this )?(?:(?:unchanged|verbatim|as is|as-is|directly|too|also|exactly|raw|whole) )?(?:as|in|into|to|inside|within|via|through)\\b`,
    'block', 'critical', 'asks for a credential file to be passed on', true),
  p('credential.env-content', 'credential-exfil', `\\b(?:${V_ANY})\\b${gap(120)}${ENV_CONTENT}`,
    'block', 'critical', 'asks the model to read the contents of a .env file', true),
  p('credential.env-then-move', 'credential-exfil',
    `\\b(?:${V_MOVE}|cat|dump|read|open)\\b (?:the |your |a |any |all |every )?${ENV_FILE}(?: files?)?\\b${gap(60)}\\b(?:${V_MOVE})\\b`,
    'block', 'critical', 'asks the model to read a .env file and pass it on', true),
  p('credential.generic-to-sink', 'credential-exfil',
    `\\b(?:${V_ANY})\\b${gap(120)}(?:${T_GENERIC}|${ENV_CONTENT})${gap(120)}${SINK}`,
    'block', 'critical', 'asks the model to put secrets into a tool argument or request', true),
  p('credential.named-to-sink', 'credential-exfil',
    `\\b(?:${V_MOVE})\\b (?:(?:in |into )?(?:the |its )?(?:value|contents?) of )?${gap(30)}(?:${T_NAMED_SECRET})${gap(80)}${SINK}`,
    'block', 'critical', 'asks the model to put a secret variable into a tool argument or request', true),

  // conversation-exfil
  p('conversation.move', 'conversation-exfil',
    // "Navigate forward in browser history" moves through history; it does not forward it.
    `\\b(?=(?:${V_MOVE}|repeat|reveal|print|output|dump|leak|disclose)\\b)(?<!\\b(?:navigate|navigates|go|goes|move|moves|step|steps|scroll|seek|skip|jump|page|fast) )(?:${V_MOVE}|repeat|reveal|print|output|dump|leak|disclose)\\b${gap(100)}(?:${CONV_TARGET})`,
    'block', 'critical', 'asks the model to pass on the conversation, its system prompt or other tools\' output', true),
  p('conversation.private-to-sink', 'conversation-exfil',
    `\\b(?:${V_ANY})\\b${gap(60)}\\b(?:clipboard|terminal output|shell history|bash_history|command history|browser history)\\b${gap(80)}${SINK}`,
    'block', 'critical', "asks the model to put the user's clipboard or history into a tool argument", true),
  p('conversation.pass-through', 'conversation-exfil',
    `\\b(?:every|all|each) (?:answers?|responses?|outputs?|replies|requests?|messages?|results?) (?:must|should|has to|have to|needs? to) (?:be )?(?:passed|sent|routed|go|piped|forwarded|copied) (?:through|to|via) (?:here|this tool|it)\\b`,
    'block', 'critical', 'asks for every answer or message to be routed through the tool'),
  p('conversation.trigger-action', 'conversation-exfil',
    `${TRIGGER}${gap(200)}(?:\\b(?:call|invoke|run|use) (?:this|the [a-z0-9_.-]{1,40}) (?:tool|function)\\b|\\b(?:${V_MOVE})\\b)`,
    'block', 'critical', 'sets a hidden trigger on an innocuous user phrase'),

  // tool-priority
  p('priority.first', 'tool-priority',
    `\\b(?:always |must |should )?(?:call|use|invoke|run|execute) this(?: tool| function)? (?:first|before (?:any|all|every|using|calling|other|doing|answering|responding)|prior to (?:any|all|every|using|calling))\\b|\\bthis (?:tool|function) (?:must|should|has to|needs to) (?:always )?be (?:called|used|invoked|run) (?:first|before)\\b|\\bbefore (?:using|calling) any other tools?\\b`,
    'flag', 'low', 'demands to be called first'),
  p('priority.coerce', 'tool-priority',
    `\\byou (?:must|need to|have to|are required to) (?:always )?(?:use|call|invoke|run|execute) this (?:tool|function)\\b|\\b(?:required|mandatory|essential) to (?:use|call|invoke|run|execute) this (?:tool|function) (?:first|before)\\b|\\bhighest priority over (?:all )?other tools\\b|\\b(?:otherwise|or else) (?:the|this) tool (?:will not|won't|does not|doesn't) work\\b|\\b(?:the|this) tool (?:will not|won't) work unless\\b`,
    'flag', 'low', 'coerces the model into using it'),
  p('priority.instead', 'tool-priority',
    '\\b(?:use|call|prefer) this(?: tool| function)? (?:instead of|over|rather than)\\b|\\binstead of (?:using|calling) (?:the )?[a-z0-9_.-]{2,64}(?: tool)?\\b|\\b(?:do not|don\'t|never) (?:use|call|invoke) (?:any )?other tools?\\b|\\b(?:replaces|supersedes) the [a-z0-9_.-]{2,64} tool\\b',
    'flag', 'low', 'steers the model away from other tools'),

  // concealment
  p('conceal.tell-user', 'concealment',
    `\\b(?:do not|don't|dont|never|must not|should not|shouldn't)\\b (?:ever )?(?:tell|mention|inform|notify|reveal|disclose|show|alert|say|bring (?:this |it |that )?up|point out|draw attention to|acknowledge)\\b${gap(80)}\\b(?:user|human|operator|anyone|substitution|change)\\b|\\b(?:do not|don't|dont|never) (?:mention|reveal|disclose|explain) (?:that|this|it|anything|the fact)\\b|\\bwithout (?<!\\b(?:never|not|don't|do not|must not|should not|cannot|can't)\\b[^.!?\\n]{0,60}without )(?:telling|informing|notifying|alerting|asking|warning|showing|letting) (?:the )?(?:user|human)\\b`,
    'block', 'high', 'asks the model to hide something from the user'),
  p('conceal.secret', 'concealment',
    `\\b(?:the )?user (?:must|should|will|need|needs) (?:not|never) (?:know|see|be told|notice|find out|learn)\\b|\\bkeep (?:this|it|these|that) (?:a )?secret\\b|\\bkeep (?:this|it|these|that)(?: step| instruction| part| detail)? to yourself\\b|\\b(?:hide|conceal) (?:this|it|these|that)${gap(30)} from (?:the )?user\\b|\\b(?<!\\b(?:never|not|don't|do not|must not|should not|cannot|can't) )silently (?:call|send|include|pass|add|run|execute|use|read|append|forward|copy|upload|invoke|fetch)\\b|\\b(?:this|it) is (?:just |only |merely )?an? implementation detail\\b${gap(80)}\\b(?:user|mention|tell)\\b|\\b(?:the )?user (?:won't|will not|doesn't|does not) (?:notice|see|know)\\b|\\binvisible to the user\\b|\\bbe (?:very )?gentle and not scary\\b`,
    'block', 'high', 'asks the model to keep something from the user'),
  p('conceal.deceive', 'concealment',
    [
      `\\b(?:skip|avoid|without) mentioning\\b|\\bno need to (?:mention|tell|say|bring)\\b|\\bkeep quiet about\\b|\\bquietly (?:add|send|include|pass|forward|copy|set|remove|delete|call|run|upload|append)\\b`,
      // "The password will not be shown in the response" is the server's own output; hiding is from the user.
      `\\b(?:must|should|will) not be (?:revealed|mentioned|disclosed|shown) (?:to (?:the )?user)?(?<!\\bwill not be shown )`,
      // The reply is the model's, not a quote of what the user asks ("when the user asks 'tell me about X'"),
      // and not the user sent to a place to act there, nothing more said ("tell them to open the vault UI
      // instead.").
      `\\b(?:if|when) (?:the )?user asks${gap(60)}(?<![\`'"\u201c\u2018] ?)\\b(?:say|tell(?! me\\b| us\\b)|answer|reply|respond|claim)\\b(?! (?:them|the user|him|her) to (?:open|visit|contact|use|go to) (?:the |their |your |our )?[\\w -]{0,40}?\\b(?:ui|website|site|settings|page|portal|app|support|service desk|help ?desk|admin(?:istrator)?|vault)\\b(?: instead)?\\s*(?:[.!?]|$))`,
      `\\bsay only\\b|\\breport (?:the|it|this|that) (?:[a-z]+ ){0,3}as (?:local|successful|done|complete|unchanged|normal)\\b`,
    ].join('|'),
    'block', 'high', 'asks the model to hide what it does or mislead the user'),

  // encoded-payload: an instruction to decode and obey
  p('encoded.decode-and-follow', 'encoded-payload',
    `\\b(?:decode|base64[ -]?decode|atob|unhex|rot13)\\b${gap(60)}\\b(?:follow|execute|apply|run|obey|perform|carry out|do what)\\b`,
    'block', 'high', 'asks the model to decode hidden text and act on it'),
];

/**
 * A negation right before the match, allowing one verb in between so a target-first match is
 * covered too ("do not read ~/.ssh/id_rsa or pass it on"). "Do not forget/hesitate to..." is not a
 * negation of what follows.
 */
const NEGATION =
  /\b(?:do not|don't|dont|never|not|must not|should not|shouldn't|cannot|can't|won't|will not|without)\s(?:(?!forget|hesitate|fail|neglect)[a-z]+\s)?(?:the |your |any )?$/;

/** A match right after a negation is a warning, not a directive ("never send your .env"). */
export function negated(text: string, at: number): boolean {
  return NEGATION.test(text.slice(Math.max(0, at - 40), at));
}

let strongRe: RegExp | undefined;
/** The preposition, then the article, then any leading path of the target (`~/.cursor/` before `mcp.json`). */
const INTO = /\b(?:to|into|inside|within|under) (?:your |the |a |an |this )?[`'"]?(?:[~$%\w.-]{0,40}\/){0,6}$/;
const PUT_IN = /^(?:add|put|insert|append|save|write|store|place|paste)\b/;
const IN = /\b(?:in|at) (?:your |the |a |an |this )?[`'"]?(?:[~$%\w.-]{0,40}\/){0,6}$/;

/**
 * "Add this server to your mcp.json", "put your config in ~/.kube/config": the credential file is
 * where the text says to write, which is setup documentation, not exfiltration.
 */
export function targetIsDestination(matched: string): boolean {
  strongRe ??= new RegExp(T_STRONG, 'g');
  let last = -1;
  strongRe.lastIndex = 0;
  for (let m = strongRe.exec(matched); m; m = strongRe.exec(matched)) {
    last = m.index;
    if (m[0].length === 0) strongRe.lastIndex++;
  }
  if (last < 0) return false;
  const before = matched.slice(Math.max(0, last - 80), last);
  return INTO.test(before) || (PUT_IN.test(matched) && IN.test(before));
}
