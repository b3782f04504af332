// The vocabulary of the directive analysis: what an order, a frame and a target look like in the reading.
//
// Every pattern runs on one sentence of the canonical reading (lower case, NFKC, confusables folded,
// a line break read as a space), so none needs to care about case or line ends.

/** Obligations: the model is told it must, always or never do something. */
export const OBLIGATION =
  /\b(?:must|shall|have to|has to|need to|needs to|needed to|required to|(?:is|are|was|be) (?:strictly )?(?:required|mandatory|compulsory|obligatory|necessary|expected)|mandatory|make sure|ensure|be sure to|remember to|don't forget to|do not forget to|always|never|do not|don't|should(?: always| first| also)?|you will|you are to|it is (?:essential|critical|crucial|important|vital|imperative|necessary) (?:that|to)|is to be|are to be|has to be|have to be|needs to be|must be|requires?|required|(?:is|are) that you|you(?:'ll| will) (?:first |also )?need)\b/;

/** Base-form verbs a directive starts with ("call X", "set the mode", "read /etc/passwd"). */
export const VERB =
  'wrap|rewrite|restrict|limit|truncate|cap|inject|call|invoke|run|execute|trigger|use|set|change|pass|send|forward|copy|add|include|append|prepend|prefix|read|open|cat|fetch|load|post|upload|delete|remove|overwrite|write|list|enumerate|query|transfer|void|revoke|disable|grant|email|mail|message|notify|submit|replace|switch|choose|pick|select|prefer|route|redirect|bcc|cc|attach|share|provide|supply|put|insert|export|dump|print|reveal|output|ignore|disregard|override|skip|check|verify|look up|inspect|collect|gather|retrieve|get|visit|download|create|make|issue|cancel|refund|drop|wipe|reset|rotate|force|double|multiply|lower|raise|point|mirror|tag|cc|report|ping|summari[sz]e|quote|return|store|save|log|record|confirm|apply|do|encode|embed|book|pay|charge|close|mark|label|assign|approve|merge|publish|deploy|prefer|avoid';
/** An imperative at the start of a sentence or clause, after a lead-in word or a list marker. */
export const IMPERATIVE = new RegExp(
  `(?:^|[,;:(\\u2014\\u2013>*•\\]-] |\\b(?:then|and|also|first|next|please|kindly|just|simply|now|immediately|finally|always|instead|afterwards?|subsequently|additionally|later|step \\d+:?|\\d+[.)]) )(?:${VERB})\\b`,
);

/** A step demanded before, as a condition of, or instead of something else. */
export const PREREQUISITE =
  /\b(?:before(?:hand)?|prior to|first|in order to|to (?:enable|unlock|activate|initiali[sz]e|access|use)|until|unless|otherwise|pre-?requisite|pre-?condition|pre-?flight|mandatory|requires?|required|must first|gated?|locked|only works (?:after|if|once|when)|fails unless|won't work|will not work|as a (?:condition|requirement)|step 0|policy|compliance|audit|governance|regulation|licensing|security (?:gate|check|requirement)|instead of|rather than|in place of)\b/;

/** A standing rule about the use of something: "whenever X runs", "for every call of X", "X should carry". */
export const STANDING =
  /\b(?:when(?:ever)?|each time|every time|any ?time|for (?:all|every|each|any)|on (?:every|each|all)|if (?:you |the model |anyone )?(?:use|call|invoke|run)|all (?:calls|requests|uploads|messages|orders|transfers|payments|commands|invocations)|every (?:call|request|upload|message|order|transfer|payment|command|invocation|time)|(?:any|every|each|all) [a-z_-]+ (?:calls?|invocations?|requests?) (?:you make|made|you send))\b/;

/** Changing what is passed: the argument-level verbs of a hijack. */
export const ARGUMENT_CHANGE =
  /\b(?:set|sets|change|use|pass|add|include|append|prefix|prepend|replace|override|force|always|pick|choose|select|carry|multiply|double|lower|raise|route|redirect|point|cc|bcc|copy|mirror|instead|regardless|whatever the user|no matter what|default to|to be (?:multiplied|set|replaced|changed)|argument|parameter|field|recipient|destination)\b/;

/** A claim of rank over the user's request or the model's other instructions. */
export const PRIORITY =
  /\b(?:takes? (?:priority|precedence)|(?:has|have|with|given|carries|carry|gets?) (?:absolute |top |higher |the highest |highest |overriding |full )?(?:priority|precedence)|supersedes?|superseding|overrides?(?= (?:the|any|all|every|your|their|its|his|her|users?|system|instructions?|previous|prior|earlier|other|whatever|what|anything|everything)\b)|overriding|overrules?|outranks?|trumps?|prevails? over|more important than|(?:higher|greater|highest|overriding) priority than|(?:higher|greater|highest|overriding) priority over|priority over|precedence over|ranks? (?:above|over|higher than|ahead of)|(?:sits?|stands?|comes?|goes|placed|is|are) (?:above|ahead of)|(?:is|are) secondary to|(?:is|are) subordinate to|wins? over|counts? (?:more|for more) than|matters? more than|beats|comes? (?:first|before)|goes first)\b/;
/** "Highest priority, above user", "rule > user": a rank stated against the user in one phrase. */
export const ABOVE_USER =
  /\b(?:priority|precedence|rule|directive|instruction|notice|guidance|policy)\b[^.!?]{0,60}(?:\b(?:above|over|before|beats|trumps)|>)["':= ]{0,4}(?:the |any |all |every )?(?:user|users|user's|system prompt|system)\b|\brule ?> ?user\b/;
/** Rank claimed by meaning, not by the word "priority": the last word, binding, wins a conflict, weighs more. */
export const RANK_BY_MEANING =
  /\b(?:(?:has|have|gets?|is) the (?:final|last) (?:word|say)|final (?:authority|word) (?:over|on)|(?:is|are) binding (?:on|over|above)|governs? (?:over )?(?:the |any |all |your )?(?:user|request|instruction|chat|conversation)|non-negotiable|cannot be (?:overridden|overruled)|wins? (?:any |every |all )?conflicts?|in (?:any |case of (?:a )?)?conflicts? (?:with|between)|counts? (?:for )?more than|(?:weighs|carries) more(?: weight)? than|more weight than|takes? over from|beats? the chat)\b/;
/** The user's own request demoted: advisory, a suggestion, something to ignore. */
export const USER_DEMOTED =
  /\b(?:user'?s?|their) (?:[a-z]+ ){0,2}(?:requests?|instructions?|wishes|choices?|selections?|preferences?|messages?|input|goals?|values?|settings?)\b[^.!?]{0,40}\b(?:is|are) (?:only |merely |just )?(?:advisory|secondary|a suggestion|suggestions|non-binding|informational)\b|\b(?:any|all|other|previous|existing|earlier) (?:[a-z]+ ){0,2}(?:instructions?|rules?|guidelines?|guidance)\b[^.!?]{0,60}\b(?:is|are) (?:now )?(?:outdated|obsolete|superseded|void|invalid|no longer valid|deprecated|to be ignored)\b|\btreat (?:the |any |their |the user's )?(?:requests?|instructions?|choices?|selections?|input) as (?:a |mere )?(?:suggestions?|advisory|hints?)\b|\bignore (?:what|whatever|whichever|which) (?:the user|they|you were|was)\b|\bno matter what (?:the user|they|you)\b|\b(?:ignore|disregard|discard|override|overwrite|replace) (?:any|the|whatever|every|all)? ?(?:[a-z]+ ){0,3}(?:the )?user (?:supplies|supplied|provides|provided|gives|gave|enters|entered|chooses|chose|picks|picked|specifies|specified|says|said|asks for|asked for|requests|requested|names|named|types|typed|wants|selects|selected)\b|\b(?:any|whatever|the) (?:[a-z]+ ){0,2}(?:the )?user (?:specifies|supplies|provides|gives|enters|chooses|picks|names|requests|asks for|selects)\b[^.!?]{0,30}\b(?:is|are|will be) (?:only |merely |just )?(?:informational|advisory|ignored|overridden|replaced|a suggestion|for reference|irrelevant|not used|cosmetic)\b/;
/** What a priority claim ranks itself over, when it is an attack (right after the claim). */
export const OUTRANKED =
  /^[^.!?]{0,60}?\b(?:(?:the |any |all |your |whatever |anything )?(?:user's|users'|user) (?:requests?|instructions?|prompts?|asks?|preferences?|input|choices?|wishes|messages?|commands?|directions?|question)|(?:any|whatever|the) (?:[a-z]+ ){0,2}(?:the )?user (?:names|specifies|supplies|provides|gives|enters|chooses|picks|selects|asks for|requests|types|wants)\b|what(?:ever)? (?:(?:the )?users? (?:is |are |has |have )?(?:say|says|said|asks?|asked|wants?|wanted|requests?|requested|types?|typed|chooses|chose|picks|picked)|the user|you were|you are|the request)|anything (?:else|the user|you were|typed)|(?:the|this|any|every|your|a) (?:current |present |original |actual |user's |immediate )?(?:request|ask|task|query|job|goal|instructions?)\b|(?:your|the|any|all|other|previous|prior|earlier|existing|system|developer|conversation|general|chat|model|assistant) (?:chat |model |assistant )?(?:instructions|guidelines|guidance|rules|directions|prompts?)|system (?:prompt|message)|other tools?|the conversation|user intent|original (?:request|task|intent))/;

/** System files and secrets a tool's text has no business sending the model to. */
export const SYSTEM_PATH =
  /(?:~|\$home|%userprofile%|\/home\/[a-z0-9_-]+|\/root)\/\.[a-z]|\/etc\/(?:passwd|shadow|hosts|sudoers|ssh|group)|\/proc\/|\bid_(?:rsa|ed25519|ecdsa|dsa)\b|\bauthorized_keys\b|\bknown_hosts\b|(?:^|[\s`'"(])\.(?:ssh|aws|npmrc|netrc|pgpass|bash_history|zsh_history|git-credentials|kube|docker|gnupg)\b|\bkeychain\b|\bcredentials? (?:file|store)\b/;
/** A project's .env file: read as a system file where a directive reads or passes it on. */
export const ENV_FILE_PATH = /(?<=^|[\s`'"(/])\.env(?:\.[a-z]+)?(?![\w-])/;
/** Reading or passing on: what a directive must do to a system file to be about it ("create ~/.config/x" is setup). */
export const READ_OR_PASS_G =
  /\b(?:read|reading|opening|including|passing|sending|uploading|attaching|copying|listing|checking|dumping|printing|open|cat|include|pass|send|upload|attach|copy|list|check|dump|print|quote|summari[sz]e|return|paste|look (?:at|in|up)|inspect|load|fetch|grab|collect|extract|show|display|output|append|forward|post|email|mail|share|embed|insert|put|add|supply|provide|scan|parse|tail|head)\b/g;

export const INTO_PATH = /\b(?:in|into|to|under|inside|at)\s+(?:your\s+|the\s+|a\s+)?[`'"]?$/;

export function lastMatch(re: RegExp, text: string): number {
  let last = -1;
  re.lastIndex = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) last = m.index;
  return last;
}
export const SECRET =
  /\b(?:api[ _-]?keys?|access[ _-]?tokens?|auth(?:entication)? tokens?|bearer tokens?|secrets?|passwords?|passphrases?|credentials|private keys?|session cookies?|cookies|environment variables?|env(?:ironment)? vars?|process\.env|printenv|os\.environ|the environment|seed phrases?|mnemonics?|recovery codes?|2fa codes?|one-time codes?|password hash(?:es)?)\b/;
export const CONVERSATION =
  /\b(?:(?:this|the|our|current|whole|entire|full) (?:conversation|chat|dialog(?:ue)?|session transcript)|conversation (?:history|so far|log)|chat (?:history|log)|(?:previous|prior|earlier|all) (?:user )?messages|the user's (?:(?:last|previous|recent|earlier|prior|first|latest|own) )?(?:[a-z0-9]+ )?(?:messages|prompts|questions|words)|system prompt|your instructions|everything (?:the user|you) (?:said|wrote|typed|know))\b/;
/** Somewhere outside: a URL, a mail address, a bucket, a wallet, a channel. */
// A mailbox in these starts where a run of its characters does and is bounded: a start at every `.`
// of `a.a.a...` without an `@` would scan the rest again each time.
export const OUTSIDE =
  /\b(?:on|to|in|via|into) (?:slack|discord|teams|telegram|whatsapp|twitter|signal|pastebin|a (?:public )?(?:channel|gist|paste))\b|\bhttps?:\/\/|\b(?:s3|gs|ftp|sftp|scp|ssh|wss?):\/\/|(?<![a-z0-9._%+-])[a-z0-9._%+-]{1,64}@[a-z0-9.-]{1,253}\.[a-z]{2,}\b|\b0x[0-9a-f]{8,}\b|\b\d{1,3}(?:\.\d{1,3}){3}\b|(?:^|\s)#[a-z][a-z0-9_-]{2,}|\bwebhook\b|\bpastebin\b/;
/** An address itself (no words like "webhook"): what a data slot may not hold inside a sentence. */
export const OUTSIDE_ADDRESS =
  /\b(?:on|to|in|via|into) (?:slack|discord|teams|telegram|whatsapp|twitter|signal|pastebin|a (?:public )?(?:channel|gist|paste))\b|\bhttps?:\/\/|\b(?:s3|gs|ftp|sftp|scp|ssh|wss?):\/\/|(?<![a-z0-9._%+-])[a-z0-9._%+-]{1,64}@[a-z0-9.-]{1,253}\.[a-z]{2,}\b|\b0x[0-9a-f]{8,}\b|\b\d{1,3}(?:\.\d{1,3}){3}\b|(?:^|\s)#[a-z][a-z0-9_-]{2,}/;
/** Actions with consequences that a tool's own documentation does not demand of the model as a side step. */
export const HARM =
  /\b(?:delete|remove|wipe|erase|purge|drop|truncate|destroy|void|cancel|refund|revoke|disable|deactivate|transfer|withdraw|wire|overwrite|reset|force[- ]?push|terminate|kill|shut ?down|grant|escalate|(?:make|add) [a-z' ]{0,30}(?:admin|owner|collaborator|maintainer)|publish|tweet|post|email|mail|message|dm|notify|forward|upload|exfiltrate|enumerate|dump|list (?:all |every |the )?(?:databases|db|users|tables|repos|repositories|secrets|keys|buckets|accounts|members|employees|customers|contacts|files in)|curl|wget|send)\b/;
/** Taking stock of what is there: the reconnaissance a poisoned prerequisite asks for. */
/** What a survey takes stock of; "enumerate offers across SKUs" is the tool's own data. */
const RECON_OBJECT = 'databases|dbs|users|tables|repos|repositories|secrets|keys|buckets|accounts|members|employees|customers|contacts|admins|hosts|servers|processes|credentials';
export const RECON = new RegExp(
  `\\b(?:(?:enumerate|dump)(?: (?:all|every|each|the|of|installed|available|existing|local|remote|[a-z]+'s))*(?: [a-z-]+){0,2}? (?:${RECON_OBJECT}|env|environment|variables|files|directories|ports|services|permissions|roles|history)|(?:enumerate|dump) (?:it|them|everything|all)|(?:list|collect|gather|catalog) (?:all |every |each |the )?(?:of the )?(?:${RECON_OBJECT}))\\b`,
);
/** Secrets that are not the user's own key for this tool: someone else's, all of them, the environment. */
export const OTHERS_SECRET =
  /\b(?:all|any|every|each|admin|administrator|root|stored|saved|other|system|the user's|users'|everyone's|customer|service account)(?: [a-z]+){0,2} (?:api[ _-]?keys?|tokens?|secrets?|passwords?|password hash(?:es)?|credentials|private keys?|cookies|recovery codes?)\b|\b(?:the|your|process|shell|whole|entire|full) environment\b|\benvironment variables\b|\bprintenv\b|\bprocess\.env\b|\bos\.environ\b|\bhistory \||\b(?:shell|bash|zsh|command) history\b/;
/** Fetching text from outside and obeying it. */
export const REMOTE_FOLLOW =
  /\b(?:fetch|download|visit|load|retrieve|curl|wget|get|open|read)\b[^.!?]{0,120}\bhttps?:\/\/[^.!?]{0,200}\b(?:follow|obey|execute|apply|run|carry out|do what)\b[^.!?]{0,40}\b(?:instructions?|steps|directions|commands|it|them|says)\b/;
/** Copying traffic out: a carbon copy, a forward, a mirror. */
export const COPY_OUT =
  /\b(?:bcc|cc|(?:blind )?carbon copy|recipients?|forward(?:ed)? (?:to|it|them|a copy|every|all|each)|mirror(?:ed)? (?:to|it|them|every|all|each)|copy (?:it |them |this |everything |every |all |each )?(?:to|into)|copied to|send a copy)\b/;
export const EVERY = /\b(?:all|every|each|any|always|whenever)\b/;
export const I18N_CONVERSATION = /conversación|conversation|gespräch|unterhaltung|conversa|会话|对话|会話|대화|chat/;
/** Fetching something and acting on it: remote instructions. */
export const REMOTE =
  /\b(?:fetch|fetching|download|downloading|visit|visiting|load|loading|retrieve|retrieving|curl|wget|get|open|opening)\b[^.!?]{0,80}\bhttps?:\/\//;
export const NEGATED = /\b(?:never|not|don't|do not|must not|should not|shouldn't|cannot|can't|won't|will not|no need to)\s+(?:[a-z]+\s+){0,2}$/;


/** The lexicon words that let a sentence in another language through the cheap test (see I18N_DIRECTIVE). */
export const I18N_CUE =
  'immer|stets|muss|zuerst|vorher|bevor|vorrang|siempre|debe|antes|primero|toujours|doit|avant|sempre|deve|prioridad|prioridade|priorit|l\'emporte|必须|务必|一律|总是|之前|优先|高于|请|前|必ず|常に|前に|ください|優先|必要|반드시|항상|우선';

/**
 * Obligations and orders in the other languages tool text is written in (de, es, fr, pt, zh, ja,
 * ko): with another server's tool named in the same sentence they are a directive about it.
 */
export const I18N_DIRECTIVE =
  /\b(?:immer|stets|muss|müssen|musst|zuerst|vorher|bevor|zunächst|unbedingt|pflicht|siempre|debe|deben|debes|antes|primero|obligatori[oa]|nunca|toujours|doit|doivent|devez|avant|d'abord|obligatoire|jamais|utilisez|sempre|deve|devem|primeiro|obrigatóri[oa])\b|sin importar|unabhängig|quel que soit|auch wenn|aunque|même si|mesmo que|必须|务必|一律|总是|始终|之前|前|请|必ず|常に|前に|ください|必要があります|반드시|항상|하세요/;
/**
 * Priority in Spanish and Portuguese, except as a ticket's field: "si el usuario no indica prioridad",
 * "un ticket con prioridad alta" set a value; "tienen más prioridad que lo que pida el usuario" ranks.
 */
const TICKET_PRIORITY_EXCEPTED =
  '(?<!\\b(?:indica|indique|indicar|elige|elija|escolha|con|com|de|sin|sem|por|una|uma|su|sua) )prioridade?(?! (?:alta|baja|baixa|media|média|normal|urgente|máxima|mínima)\\b)';
/** A rank over something in Chinese, Japanese or Korean (see I18N_RANK). */
const CJK_RANK = '优先于|优先级(?:高于|更高|最高)|高于|凌驾|比[^。,]{0,24}(?:优先|重要)|より(?:も)?優先|に優先|より(?:も)?上位|優先順位が(?:高|上)|보다(?:도)? 우선|보다(?:도)? 중요|우선순위가 (?:높|더)';
export const I18N_PRIORITY = new RegExp(
  `vorrang|steht über|wichtiger als|prevalece|${TICKET_PRIORITY_EXCEPTED}|más peso|por encima de|prévaut|l'emporte|prioritaire|supérieure? aux|vale mais|${CJK_RANK}`,
);
export const I18N_OUTRANKED = /nutzer|benutzer|anweisung|usuario|instrucci|utilisateur|instruction|usuário|instruç|用户|系统|ユーザー|システム|사용자|시스템|system/;
/** Whatever the user chose: the sentence overrides the user's own arguments. */
// "Whatever they ask" overrides the user; "whatever status they report" speaks of things (workers,
// services), so a verb that reports is read as that.
export const OVERRIDES_USER =
  /\b(?:whatever|regardless of|no matter) (?:what |which )?(?:\w+ ){0,2}(?:the user|you were|they(?! (?:report|reports|return|returns|show|shows|display|displays|emit|emits|output|outputs|contain|contains|log|logs)\b))|\beven (?:if|when) the user\b|sin importar|unabhängig|quel que soit|auch wenn|même si|mesmo que|aunque el usuario/;
/** Arguments spelt out for a named tool: `tool: key=value`, `tool → region=x`, `{"key": ...}`. */
export const ASSIGNMENT = /\b[a-z_][a-z0-9_]{1,40} ?[=:] ?[^\s]|→|->|=>|\{ ?["'][a-z_]/;

/**
 * A standing rule about using or calling something, in the other languages tool text is written
 * in (fr, es, pt, it, de, nl, pl, ru, tr, zh, ja, ko): "lorsque vous appelez X", "ao usar X",
 * "X を呼ぶときは". With another server's tool named in the sentence it is about that tool's use.
 */
export const I18N_STANDING = new RegExp([
  "lorsque (?:vous |tu )?(?:appel|utilis|invoqu)|quand (?:vous|tu) (?:appel|utilis)|[àa] chaque (?:appel|utilisation|fois)|chaque fois que|pour (?:chaque|tout) appel|avant d'(?:appeler|utiliser)|en (?:appelant|utilisant)",
  'cuando (?:se )?(?:us|utilic|llam|invoq)|al (?:usar|llamar|utilizar|invocar)|siempre que|cada vez que|antes de (?:usar|llamar|utilizar|invocar)|en cada (?:llamada|uso)|para (?:cada|toda) llamada',
  'quando (?:voc[eê] )?(?:for )?(?:usar|chamar|utilizar|invocar|usi|chiami|utilizzi|invochi)|ao (?:usar|chamar|utilizar|invocar)|sempre que|antes de (?:usar|chamar)|em cada chamada|ogni volta che|prima di (?:usare|chiamare|utilizzare)|ad ogni (?:chiamata|uso)',
  'wenn (?:du|sie|man)\\b[^.!?]{0,40}(?:aufruf|verwend|nutz|benutz|einsetz)|beim (?:aufruf|aufrufen|verwenden|nutzen|benutzen|einsatz)|bei jedem (?:aufruf|einsatz)|jedes mal|vor (?:dem|jedem) (?:aufruf|einsatz)',
  'wanneer (?:je|u) |telkens (?:als|wanneer)|bij (?:elke|iedere) (?:aanroep|oproep)|(?:kiedy|gdy) (?:u[żz]ywasz|wywo[łl]ujesz|u[żz]yjesz|wywo[łl]asz)|za ka[żz]dym razem|przed (?:u[żz]yciem|wywo[łl]aniem)',
  '(?:когда|при) (?:вызове|использовании|вызываешь|вызываете|используешь|используете)|каждый раз|перед (?:вызовом|использованием)',
  'kullan[ıi]rken|[çc]a[ğg][ıi]r[ıi]rken|her [çc]a[ğg]r[ıi]da|her seferinde|(?:kullanmadan|[çc]a[ğg][ıi]rmadan) [öo]nce',
  '(?:调用|調用|使用|呼叫|执行|執行)[^。!?]{0,24}(?:时|時)|每次|在调用|(?:呼ぶ|呼び出す|使う|使用する|実行する|利用する)(?:とき|時|際|場合)|の際|たびに|(?:호출|사용|실행)(?:할|하는) (?:때|경우)|때마다',
].join('|'));

/** Something read out of a file: "the contents of ~/.ssh/id_ed25519", "the output of cat ~/.gitconfig". */
export const CONTENT_OF = /\b(?:contents?|output|text|body|bytes) of\b/;
/** A sentence that acts on what the one before it named: "pass both as `licence`", "send it along". */
export const REFERS_BACK = /\b(?:it|them|both|this|that|these|those|the (?:file|files|key|keys|contents?))\b/;
/** An address a conversation may not be sent to by a tool's own say: a URL or a mail address. */
export const SINK_ADDRESS = /\bhttps?:\/\/|(?<![a-z0-9._%+-])[a-z0-9._%+-]{1,64}@[a-z0-9.-]{1,253}\.[a-z]{2,}\b/;

/** A sentence that is mostly English: the function words of English make up part of it. */
const ENGLISH_WORDS = new Set([
  'the', 'a', 'an', 'to', 'of', 'and', 'or', 'is', 'are', 'for', 'with', 'this', 'that', 'you', 'it', 'in', 'on', 'be', 'by', 'as',
  'from', 'at', 'if', 'use', 'before', 'after', 'call', 'your', 'not', 'when', 'then', 'all', 'any', 'each', 'its', 'will', 'can',
  'must', 'should', 'into', 'only', 'also', 'returns', 'return', 'get', 'set', 'list', 'run',
  // Words the Latin-script languages tool text is written in do not spell the same (not `have`,
  // `find`: Danish; `been`: Dutch), so they add to the English count only.
  'which', 'what', 'who', 'how', 'where', 'there', 'their', 'they', 'them', 'does', 'than', 'such',
  'these', 'those', 'about', 'one', 'were', 'would', 'could', 'other', 'because', 'without',
]);
const LETTERS = /\p{L}+/gu;

export function readsAsEnglish(sentence: string): boolean {
  let words = 0;
  let english = 0;
  let foreignScript = 0;
  LETTERS.lastIndex = 0;
  for (let m = LETTERS.exec(sentence); m !== null; m = LETTERS.exec(sentence)) {
    // Words of identifiers (`documentation.mime_type`) are no language.
    if (/[_.]/.test(sentence[m.index - 1] ?? '') || /[_.]\w/.test(sentence.slice(m.index + m[0].length, m.index + m[0].length + 2))) continue;
    words++;
    if (ENGLISH_WORDS.has(m[0])) english++;
    else if (/[^\u0000-\u024f]/.test(m[0])) foreignScript++;
  }
  if (foreignScript * 4 >= words && foreignScript > 0) return false;
  if (words >= 5 && english * 8 < words) return false;
  // Latin-script languages show themselves by their own function words and their diacritics;
  // terse technical text ("sort field, e.g. documentation.mime_type") has neither and reads as English.
  const foreign = countWords(sentence, FOREIGN_WORDS) + diacriticWords(sentence);
  return foreign < 2 || english >= foreign;
}

/** Function words of the Latin-script languages tool text is written in (de, es, fr, pt, it, nl, pl, tr, sv, cs, id, vi). */
const FOREIGN_WORDS = new Set([
  'der', 'das', 'und', 'ist', 'nicht', 'mit', 'ein', 'eine', 'den', 'dem', 'auf', 'für', 'von', 'zu', 'vor', 'nach', 'wird', 'sie', 'du',
  'el', 'la', 'los', 'las', 'y', 'es', 'del', 'para', 'con', 'una', 'que', 'por', 'antes', 'cada', 'su', 'sus',
  'le', 'les', 'des', 'et', 'est', 'du', 'pour', 'avec', 'une', 'dans', 'sur', 'avant', 'chaque', 'vous', 'ce', 'cette',
  'os', 'um', 'uma', 'da', 'dos', 'das', 'em', 'ao', 'não', 'com', 'você', 'seu',
  'il', 'di', 'che', 'gli', 'della', 'dei', 'prima', 'ogni', 'non', 'con', 'nel', 'alla',
  'het', 'een', 'en', 'van', 'voor', 'na', 'met', 'niet', 'je', 'bij', 'naar', 'elke',
  'się', 'w', 'z', 'nie', 'jest', 'przed', 'oraz', 'dla', 'po',
  've', 'bir', 'bu', 'için', 'ile', 'önce', 'her', 'da', 'de', 'dengan', 'jika', 'ini', 'itu', 'dari', 'akan', 'tidak',
  'och', 'att', 'är', 'för', 'av', 'på', 'som', 'inte', 'je', 'pro', 'yang', 'dan', 'untuk', 'và', 'các', 'của', 'là',
]);

/**
 * Cheap: could this sentence be in another language? Any letter beyond ASCII, a function word of
 * another language, or too few English ones. False for the plain English most tool text is.
 */
export function mayBeForeign(sentence: string): boolean {
  if (NON_ASCII_LETTER.test(sentence)) return true;
  let words = 0;
  let english = 0;
  LETTERS.lastIndex = 0;
  for (let m = LETTERS.exec(sentence); m !== null; m = LETTERS.exec(sentence)) {
    words++;
    if (ENGLISH_WORDS.has(m[0])) english++;
    else if (FOREIGN_WORDS.has(m[0])) return true;
  }
  return english === 0 || english * 8 < words;
}
const NON_ASCII_LETTER = /[\u00c0-\u024f\u0370-\u1fff\u3040-\uffef]/;

/** Could any sentence of this text be in another language? One look for letters beyond ASCII or another language's function words. */
export function textMayBeForeign(text: string, plain: string): boolean {
  return NON_ASCII_LETTER.test(plain) || FOREIGN_FUNCTION_WORD.test(text);
}

/** Runs of letters, read once each: a pattern that looks for a diacritic inside a run tries every start of a long one. */
const LETTER_RUN_G = /\p{L}+/gu;
const DIACRITIC = /[\u00c0-\u00ff\u0100-\u024f]/;

/** How many words carry a Latin diacritic ("für", "é"): other Latin-script languages show themselves so. */
function diacriticWords(sentence: string): number {
  let n = 0;
  LETTER_RUN_G.lastIndex = 0;
  for (let m = LETTER_RUN_G.exec(sentence); m !== null; m = LETTER_RUN_G.exec(sentence)) if (DIACRITIC.test(m[0])) n++;
  return n;
}


const FOREIGN_FUNCTION_WORD = new RegExp(`\\b(?:${[...FOREIGN_WORDS].join('|')})\\b`);

function countWords(sentence: string, set: ReadonlySet<string>): number {
  let n = 0;
  LETTERS.lastIndex = 0;
  for (let m = LETTERS.exec(sentence); m !== null; m = LETTERS.exec(sentence)) if (set.has(m[0])) n++;
  return n;
}

/**
 * What an exfiltration asks for, in the languages tool text is written in: the system prompt or
 * the developer's instructions, the conversation, the environment, API keys.
 */
export const I18N_EXFIL_TARGET = new RegExp([
  'system ?prompt|prompt (?:de |del |do |di )?(?:sistema|système|systemowy)|systeemprompt|systemanweisung|instructions? (?:du )?syst[eè]me|instrucciones del sistema|instruções do sistema|istruzioni di sistema|sistem (?:istemi|talimat)',
  'системн\\S* (?:промпт|инструкц|інструкц|подсказ)|系统提示|系統提示|系统指令|系統指令|システムプロンプト|システム指示|시스템 ?프롬프트|시스템 ?지침|सिस्टम प्रॉम्प्ट',
  "(?:entwickler|desarrollador|développeur|desenvolvedor|sviluppatore|dewelopera|ontwikkelaar|разработчик|розробник|geliştirici)",
  'chatverlauf|gesprächsverlauf|historial (?:de (?:la )?conversación|del chat)|historique (?:de (?:la )?conversation|du chat)|histórico (?:da conversa|do chat)|cronologia (?:della )?(?:conversazione|chat)|histori[aęi] (?:rozmowy|czatu)|gespreksgeschiedenis|chatgeschiedenis',
  'истори\\S* (?:разговора|переписки|чата|диалога)|історі\\S* розмови|sohbet geçmiş|konuşma geçmiş|对话记录|聊天记录|对话历史|會話記錄|對話記錄|会話履歴|チャット履歴|대화 ?(?:기록|내역)|채팅 ?기록|बातचीत का इतिहास|चैट इतिहास',
  "umgebungsvariable|variables? de entorno|variables? d'environnement|variáve(?:l|is) de ambiente|variabil[ei] d'ambiente|zmienn\\S* środowisk|omgevingsvariabele|переменн\\S* (?:окружения|среды)|змінн\\S* середовища|ortam değişken|环境变量|環境變數|環境変数|환경 ?변수|पर्यावरण चर|वातावरण",
  "api[- ]?(?:schlüssel|sleutel|ключ|anahtar|密钥|金鑰|キー|키|कुंजी)|(?:claves?|llaves?|clés?|chaves?|chiavi|chiave|klucz\\S*) (?:de |d'|di )?api",
].join('|'));
/** Everything, in full, word for word: the quantity an exfiltration asks for. */
export const I18N_ALL = /\b(?:alle[ns]?|gesamte?n?|vollständige?n?|todos|todas|toutes|tous|tutti|tutte|wszystki\S*|cał\S*|pełn\S*|volledige|hele|tüm|bütün|completo|completa|complet|complète|intero|intera|wörtlich|textualmente|integral\S*)\b|все|всю|всі|весь|повн\S*|полн\S*|全部|所有|すべて|全て|모든|전체|सभी|पूरा|पूरी|entire|whole|full|complete|verbatim/;
/** Put it here: paste, insert, copy, write, in the same languages. */
export const I18N_PASTE = /\b(?:einfügen|füge|fügen|kopier\S*|pega|pegue|pegar|colle[rz]?|copie[rz]?|cole|colar|incolla|copia|wklej\S*|kopiuj\S*|plak|kopieer|yapıştır\S*|kopyala\S*|inserisci|inserte|inserta|insira|insérez|insère)\b|встав\S*|скопир\S*|скопіюй\S*|粘贴|貼上|复制|複製|貼り付け|コピー|붙여|복사|चिपका|डाल|जोड़|इस क्वेरी|に入れ|に貼|に書/;

/**
 * A claim of rank, in the other languages tool text is written in (read on the plain view: the
 * skeleton folds Cyrillic and Greek into Latin lookalikes).
 */
export const I18N_RANK = new RegExp([
  'vorrang|steht über|wichtiger als|wiegt schwerer|übergeordnet|hat priorität|geht vor|weegt zwaarder|önce gelir|prevalece|' + TICKET_PRIORITY_EXCEPTED + '|más peso|manda más|pesa más|cuenta más|por encima de|prévaut|l\'emporte|prioritaire|prime sur|a la priorité|supérieure? aux|vale mais|acima d[aeo]s?',
  'ha la precedenza|ha (?:la )?priorità|prevale su|è prioritari|heeft voorrang|gaat voor|prevaleert|belangrijker dan|ma pierwszeństwo|jest nadrzędn|nadrzędn\\S* wobec|ma priorytet|ważniejsz',
  'má přednost|má prioritu|nadřazen|are prioritate|are întâietate|prevalează|elsőbbség|felülírja|prioritást élvez|har företräde|går före|prioriteras|har forrang|går forud|on ensisijainen|etusija|menee edelle|ohittaa',
  'öncelikli|önceliği|öncelik taşır|üstündür|geçersiz kılar|ưu tiên cao hơn|ưu tiên hơn|được ưu tiên|lebih diutamakan|diutamakan|prioritas',
  'приоритет|важнее|выше запроса|превалирует|преобладает|пріоритет|важливіш|вище за|υπερισχύει|προτεραιότητα|προηγείται',
  'لها الأولوية|أولوية على|الأولوية على|تتقدم على|تعلو على|גוברת על|עדיפות על|קודמת ל|से ऊपर|को प्राथमिकता|पर प्राथमिकता|प्राथमिकता दी|प्राथमिकता दें|सर्वोपरि|มีผลเหนือ|สําคัญกว่า|มาก่อน|ลําดับความสําคัญ',
  // CJK: a rank over something (优先于, より優先, 보다 우선), not a preference (优先使用 "preferably use",
  // 優先して "first", 우선 "first of all"), which tools use to steer between their own options.
  CJK_RANK,
].join('|'));
/** The user, the user's request, in the same languages. */
export const I18N_USER = new RegExp([
  'nutzer|benutzer|anwender|usuario|utilisateur|usuário|utilizador|utente|gebruiker|użytkownik|uživatel|utilizator|felhasználó|användare|bruger|käyttäjä|kullanıcı|người dùng|pengguna',
  'пользовател|користувач|χρήστ|المستخدم|משתמש|उपयोगकर्ता|ผู้ใช้|用户|用戶|ユーザー|사용자',
].join('|'));
/** Other tools' documentation or the model's other instructions, in the same languages. */
export const I18N_OTHERS = new RegExp([
  'dokumentation|documentación|documentation|documentação|documentazione|documentatie|dokumentacj|dokumentac|τεκμηρίωση|документаци|документаці',
  'anweisung|instrucci|instruction|instruç|istruzion|instructie|instrukcj|instrukc|οδηγί|инструкци|інструкці|talimat|hướng dẫn|petunjuk|ohje|تعليمات|הוראה|निर्देश|คําสั่ง|指令|指示|지시|지침',
  'werkzeug|herramienta|outil|ferramenta|strumento|narzędzi|nástroj|εργαλεί|инструмент|araç|công cụ|työkalu|أداة|כלי|उपकरण|เครื่องมือ|工具|ツール|도구',
].join('|'));

/** Whatever the user says, in the other languages (with I18N_USER in the sentence: the user overridden). */
export const I18N_REGARDLESS = new RegExp([
  'sin importar|unabhängig|egal was|ganz gleich|gleichgültig|quel que soit|quelle que soit|independientemente|independentemente|indipendentemente|a prescindere',
  'ongeacht|niezależnie|bez ohledu|indiferent|függetlenül|oavsett|uanset|riippumatta|ne olursa olsun|bất kể|apa pun',
  'независимо|незалежно|ανεξάρτητα|بغض النظر|ללא קשר|चाहे|ไม่ว่า|无论|不管|にかかわらず|관계없이|상관없이',
].join('|'));
/** Disregard it, in the other languages. */
export const I18N_IGNORE = new RegExp([
  "(?<![a-z.])(?:ne tenez pas compte|ignorez|ignorer|n'utilisez pas|no tengas en cuenta|no tenga en cuenta|ignora[rn]?|ignore[ns]?|não considere|ignorare|non considerare|ignoriere|ignorieren|nicht beachten|negeer|zignoruj|pomiń|nevšímejte|ignorujte)\\b",
  'игнорир|не учитывай|ігнору|не враховуй|αγνόησε|αγνοήστε|yok say|dikkate alma|bỏ qua|abaikan|تجاهل|התעלם|नज़रअंदाज़|अनदेखा|ไม่ต้องสนใจ|忽略|无视|無視|무시',
].join('|'));
