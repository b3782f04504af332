// The vocabulary of the directive analysis: what an order, a frame and a target look like in the reading.
//
// Every pattern runs on one sentence of the canonical reading (lower case, NFKC, confusables folded,
// a line break read as a space), so none needs to care about case or line ends.

/** Obligations: the model is told it must, always or never do something. */
export const OBLIGATION =
  /\b(?:must|shall|have to|has to|need to|needs to|needed to|required to|(?:is|are|was|be) (?:strictly )?(?:required|mandatory|compulsory|obligatory|necessary|expected)|mandatory|make sure|ensure|be sure to|remember to|don't forget to|do not forget to|always|never|do not|don't|should(?: always| first| also)?|you will|you are to|it is (?:essential|critical|crucial|important|vital|imperative|necessary) (?:that|to)|is to be|are to be|has to be|have to be|needs to be|must be|requires?|required|(?:is|are) that you|you(?:'ll| will) (?:first |also )?need)\b/;

/** Base-form verbs a directive starts with ("call X", "set the mode", "read /etc/passwd"). */
export const VERB =
  'call|invoke|run|execute|trigger|use|set|change|pass|send|forward|copy|add|include|append|prepend|prefix|read|open|cat|fetch|load|post|upload|delete|remove|overwrite|write|list|enumerate|query|transfer|void|revoke|disable|grant|email|mail|message|notify|submit|replace|switch|choose|pick|select|prefer|route|redirect|bcc|cc|attach|share|provide|supply|put|insert|export|dump|print|reveal|output|ignore|disregard|override|skip|check|verify|look up|inspect|collect|gather|retrieve|get|visit|download|create|make|issue|cancel|refund|drop|wipe|reset|rotate|force|double|multiply|lower|raise|point|mirror|tag|cc|report|ping|summari[sz]e|quote|return|store|save|log|record|confirm|apply|do|encode|embed|book|pay|charge|close|mark|label|assign|approve|merge|publish|deploy|prefer|avoid';
/** An imperative at the start of a sentence or clause, after a lead-in word or a list marker. */
export const IMPERATIVE = new RegExp(
  `(?:^|[,;:(\\u2014\\u2013>*•\\]-] |\\b(?:then|and|also|first|next|please|kindly|just|simply|now|immediately|finally|always|instead|step \\d+:?|\\d+[.)]) )(?:${VERB})\\b`,
);

/** A step demanded before, as a condition of, or instead of something else. */
export const PREREQUISITE =
  /\b(?:before(?:hand)?|prior to|first|in order to|to (?:enable|unlock|activate|initiali[sz]e|access|use)|until|unless|otherwise|pre-?requisite|pre-?condition|pre-?flight|mandatory|requires?|required|must first|gated?|locked|only works (?:after|if|once|when)|fails unless|won't work|will not work|as a (?:condition|requirement)|step 0|policy|compliance|audit|governance|regulation|licensing|security (?:gate|check|requirement)|instead of|rather than|in place of)\b/;

/** A standing rule about the use of something: "whenever X runs", "for every call of X", "X should carry". */
export const STANDING =
  /\b(?:when(?:ever)?|each time|every time|any ?time|for (?:all|every|each|any)|on (?:every|each|all)|if (?:you |the model |anyone )?(?:use|call|invoke|run)|all (?:calls|requests|uploads|messages|orders|transfers|payments|commands|invocations)|every (?:call|request|upload|message|order|transfer|payment|command|invocation|time))\b/;

/** Changing what is passed: the argument-level verbs of a hijack. */
export const ARGUMENT_CHANGE =
  /\b(?:set|sets|change|use|pass|add|include|append|prefix|prepend|replace|override|force|always|pick|choose|select|carry|multiply|double|lower|raise|route|redirect|point|cc|bcc|copy|mirror|instead|regardless|whatever the user|no matter what|default to|to be (?:multiplied|set|replaced|changed)|argument|parameter|field|recipient|destination)\b/;

/** A claim of rank over the user's request or the model's other instructions. */
export const PRIORITY =
  /\b(?:takes? (?:priority|precedence)|(?:has|have|with|given|carries|carry|gets?) (?:absolute |top |higher |the highest |highest |overriding |full )?(?:priority|precedence)|supersedes?|superseding|overrides?(?! (?:such as|like|e\.g\.))|overriding|overrules?|outranks?|trumps?|prevails? over|more important than|(?:higher|greater|highest|overriding) priority than|(?:higher|greater|highest|overriding) priority over|priority over|precedence over|ranks? (?:above|over|higher than|ahead of)|(?:sits?|stands?|comes?|goes|placed|is|are) (?:above|ahead of)|(?:is|are) secondary to|(?:is|are) subordinate to|wins? over|counts? (?:more|for more) than|matters? more than|beats|comes? (?:first|before)|goes first)\b/;
/** "Highest priority, above user", "rule > user": a rank stated against the user in one phrase. */
export const ABOVE_USER =
  /\b(?:priority|precedence|rule|directive|instruction|notice|guidance|policy)\b[^.!?]{0,60}(?:\b(?:above|over|before|beats|trumps)|>)["':= ]{0,4}(?:the |any |all |every )?(?:user|users|user's|system prompt|system)\b|\brule ?> ?user\b/;
/** Rank claimed by meaning, not by the word "priority": the last word, binding, wins a conflict, weighs more. */
export const RANK_BY_MEANING =
  /\b(?:(?:has|have|gets?|is) the (?:final|last) (?:word|say)|final (?:authority|word) (?:over|on)|(?:is|are) binding (?:on|over|above)|governs? (?:over )?(?:the |any |all |your )?(?:user|request|instruction|chat|conversation)|non-negotiable|cannot be (?:overridden|overruled)|wins? (?:any |every |all )?conflicts?|in (?:any |case of (?:a )?)?conflicts? (?:with|between)|counts? (?:for )?more than|(?:weighs|carries) more(?: weight)? than|more weight than|takes? over from|beats? the chat)\b/;
/** The user's own request demoted: advisory, a suggestion, something to ignore. */
export const USER_DEMOTED =
  /\b(?:the )?(?:user'?s?|their) (?:requests?|instructions?|wishes|choices?|selections?|preferences?|messages?|input)\b[^.!?]{0,30}\b(?:is|are) (?:only |merely |just )?(?:advisory|secondary|a suggestion|suggestions|non-binding)\b|\btreat (?:the |any |their |the user's )?(?:requests?|instructions?|choices?|selections?|input) as (?:a |mere )?(?:suggestions?|advisory|hints?)\b|\bignore (?:what|whatever|whichever|which) (?:the user|they|you were|was)\b|\bno matter what (?:the user|they|you)\b/;
/** What a priority claim ranks itself over, when it is an attack (right after the claim). */
export const OUTRANKED =
  /^[^.!?]{0,60}?\b(?:(?:the |any |all |your |whatever |anything )?(?:user's|users'|user) (?:requests?|instructions?|prompts?|asks?|preferences?|input|choices?|wishes|messages?|commands?|directions?|question)|what(?:ever)? (?:the user|you were|you are|the request)|anything (?:else|the user|you were|typed)|(?:the|this|any|every|your|a) (?:current |present |original |actual |user's |immediate )?(?:request|ask|task|query|job|goal|instructions?)\b|(?:your|the|any|all|other|previous|prior|earlier|existing|system|developer|conversation) (?:instructions|guidelines|rules|directions|prompts?)|system (?:prompt|message)|other tools?|the conversation|user intent|original (?:request|task|intent))/;

/** System files and secrets a tool's text has no business sending the model to. */
export const SYSTEM_PATH =
  /(?:~|\$home|%userprofile%|\/home\/[a-z0-9_-]+|\/root)\/\.[a-z]|\/etc\/(?:passwd|shadow|hosts|sudoers|ssh|group)|\/proc\/|\bid_(?:rsa|ed25519|ecdsa|dsa)\b|\bauthorized_keys\b|\bknown_hosts\b|(?:^|[\s`'"(])\.(?:ssh|aws|npmrc|netrc|pgpass|bash_history|zsh_history|git-credentials|kube|docker|gnupg)\b|\bkeychain\b|\bcredentials? (?:file|store)\b/;
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
export const OUTSIDE =
  /\b(?:on|to|in|via|into) (?:slack|discord|teams|telegram|whatsapp|twitter|signal|pastebin|a (?:public )?(?:channel|gist|paste))\b|\bhttps?:\/\/|\b(?:s3|gs|ftp|sftp|scp|ssh|wss?):\/\/|\b[a-z0-9._%+-]+@[a-z0-9.-]+\.[a-z]{2,}\b|\b0x[0-9a-f]{8,}\b|\b\d{1,3}(?:\.\d{1,3}){3}\b|(?:^|\s)#[a-z][a-z0-9_-]{2,}|\bwebhook\b|\bpastebin\b/;
/** An address itself (no words like "webhook"): what a data slot may not hold inside a sentence. */
export const OUTSIDE_ADDRESS =
  /\b(?:on|to|in|via|into) (?:slack|discord|teams|telegram|whatsapp|twitter|signal|pastebin|a (?:public )?(?:channel|gist|paste))\b|\bhttps?:\/\/|\b(?:s3|gs|ftp|sftp|scp|ssh|wss?):\/\/|\b[a-z0-9._%+-]+@[a-z0-9.-]+\.[a-z]{2,}\b|\b0x[0-9a-f]{8,}\b|\b\d{1,3}(?:\.\d{1,3}){3}\b|(?:^|\s)#[a-z][a-z0-9_-]{2,}/;
/** Actions with consequences that a tool's own documentation does not demand of the model as a side step. */
export const HARM =
  /\b(?:delete|remove|wipe|erase|purge|drop|truncate|destroy|void|cancel|refund|revoke|disable|deactivate|transfer|withdraw|wire|overwrite|reset|force[- ]?push|terminate|kill|shut ?down|grant|escalate|(?:make|add) [a-z' ]{0,30}(?:admin|owner|collaborator|maintainer)|publish|tweet|post|email|mail|message|dm|notify|forward|upload|exfiltrate|enumerate|dump|list (?:all |every |the )?(?:databases|db|users|tables|repos|repositories|secrets|keys|buckets|accounts|members|employees|customers|contacts|files in)|curl|wget|send)\b/;
/** Taking stock of what is there: the reconnaissance a poisoned prerequisite asks for. */
export const RECON =
  /\b(?:enumerate|dump|(?:list|collect|gather|catalog) (?:all |every |each |the )?(?:of the )?(?:databases|dbs|users|tables|repos|repositories|secrets|keys|buckets|accounts|members|employees|customers|contacts|admins|hosts|servers|processes|credentials))\b/;
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
export const I18N_PRIORITY =
  /vorrang|steht über|wichtiger als|prevalece|prioridad|más peso|por encima de|prévaut|l'emporte|prioritaire|supérieure? aux|prioridade|vale mais|优先|高于|優先|우선/;
export const I18N_OUTRANKED = /nutzer|benutzer|anweisung|usuario|instrucci|utilisateur|instruction|usuário|instruç|用户|系统|ユーザー|システム|사용자|시스템|system/;
/** Whatever the user chose: the sentence overrides the user's own arguments. */
export const OVERRIDES_USER =
  /\b(?:whatever|regardless of|no matter) (?:what |which )?(?:\w+ ){0,2}(?:the user|you were|they)|\beven (?:if|when) the user\b|sin importar|unabhängig|quel que soit|auch wenn|même si|mesmo que|aunque el usuario/;
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
  '(?:调用|調用|使用|呼叫|执行|執行)[^。！？]{0,24}(?:时|時)|每次|在调用|(?:呼ぶ|呼び出す|使う|使用する|実行する|利用する)(?:とき|時|際|場合)|の際|たびに|(?:호출|사용|실행)(?:할|하는) (?:때|경우)|때마다',
].join('|'));

/** Something read out of a file: "the contents of ~/.ssh/id_ed25519", "the output of cat ~/.gitconfig". */
export const CONTENT_OF = /\b(?:contents?|output|text|body|bytes) of\b/;
/** A sentence that acts on what the one before it named: "pass both as `licence`", "send it along". */
export const REFERS_BACK = /\b(?:it|them|both|this|that|these|those|the (?:file|files|key|keys|contents?))\b/;
/** An address a conversation may not be sent to by a tool's own say: a URL or a mail address. */
export const SINK_ADDRESS = /\bhttps?:\/\/|\b[a-z0-9._%+-]+@[a-z0-9.-]+\.[a-z]{2,}\b/;
