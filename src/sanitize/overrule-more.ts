// The moves of user-overruled.ts in more of the words writers use for them, calmly: the user's value
// kept as a note while another is used, the user told their own choice back, a fee or a deletion kept
// out of the answer, another person's choice counted as the user's. The rules read these beside
// overrule-lexicon.ts and still need two moves; the learned second opinion does not read them as
// features (trained with them, it withheld a real tool of a counted half and no more held-out
// priority claims): they only decide, through movesAgainstUser, which descriptions meet its claim gate. Written in the reading's form (NFKC, lower case).

/**
 * The person the model answers, by the role a tool gives them (the guest of a booking tool, the
 * employee of an HR one; not members, callers or workers, which are software as often as people).
 * Weaker than USER: an admin acting for the people of a workspace without asking each is how many
 * real tools work, so a role alone counts only with that person's own value voided in a sentence
 * that names them, or a cost kept from them.
 */
export const ROLE =
  /\b(?:guests?|employees?|shoppers?|buyers?|riders?|learners?|students?|patients?|donors?|borrowers?|candidates?|applicants?|travell?ers?|passengers?|tenants?|residents?|diners?|athletes?|householders?|occupants?|cardholders?|account holders?|payers?|recruiters?)\b/;

/** More words for choosing and asking: what the user gives. */
export const MORE_CHOICE = new RegExp([
  "\\b(?:figures?|requests?|answers?|entr(?:y|ies)|inputs?|preferences?|prefers?|selection|decision|disputes?|declin\\w*|asks?|tells?)\\b",
].join('|'));

/** The user's value demoted to a hint, a courtesy or a note that changes nothing. */
export const MORE_VOID = new RegExp([
  "\\b(?:is|are|counts? as|treated as|taken as|considered|regarded as) (?:just |only |merely |simply |nothing more than )?(?:an? )?(?:suggestions?|hints?|starting (?:points?|suggestions?)|opening (?:positions?|bids?)|typos?|wish(?:es)?|courtes(?:y|ies)|rough guides?|(?:ux|ui|display|formatting) preferences?)\\b|\\b(?:noted|logged|recorded|stored|kept|saved),? (?:but )?not (?:used|applied|honou?red|acted on|followed)\\b|\\b(?:noted|logged|recorded|stored|kept|saved|collected|filed|captured|registered)\\b[^.!?]{0,60}\\b(?:but|yet|however|and nothing)\\b|\\bnothing else (?:happens|is done|changes)\\b|\\bdoes(?:n't| not) change what happens\\b|\\b(?:does not|doesn't|do not|don't) (?:decide|govern)\\b|\\bdecides? instead\\b|\\bweighs? less\\b|\\bnot (?:decisive|what decides|what counts)\\b|\\b(?:are|is) (?:the ones?|what) (?:that )?counts?\\b",
  'solo (?:como )?(?:una )?(?:sugerencia|preferencia|orientación)|como (?:sugerencia|comentario|nota)|se (?:anota|registra) como|es una sugerencia|comme (?:une )?(?:suggestion|préférence|simple souhait)|valeur indicative|valeur de (?:simple )?indication|ont valeur indicative|à titre de (?:suggestion|préférence)|ne décide pas|nur (?:ein|als) (?:vorschlag|hinweis|wunsch|anhaltspunkt)|ist nur ein anhaltspunkt|als (?:notiz|vorschlag|hinweis) hinterlegt|entscheidet nicht|como (?:sugestão|preferência|observação)|não decide|fica registrad|come (?:suggerimento|preferenza|orientamento)|vale come orientamento|non decide|лишь рекомендаци|это пожелание|как пожелание|как предпочтение|фиксируется в журнале|仅作(?:参考|記録)|只作参考|视为偏好|視為偏好|仅记录|僅記錄|希望として扱|参考として|참고 사항|희망으로|메모로만',
].join('|'));

/** The user's choice made moot: "irrespective of what the teacher enters". */
export const MORE_WHATEVER = /\birrespective of (?:what|which|who)\b/;

/** Someone else's choice made the user's own: "a manager's request counts as the employee's attestation". */
export const MORE_SOMEONE_ELSE_DECIDED = new RegExp([
  "\\b(?:counts?|stands?|is treated|are treated|is taken|is deemed|are deemed|is considered|are considered|is regarded) (?:as|for) (?:the |their |his |her |an? )?[\\w-]+(?:'s|’s|s')(?= |$|[.,;:])|\\bgilt als (?:zustimmung|einwilligung|wahl|auswahl|entscheidung)|\\bvale como (?:el|la|a|o) d|\\bvaut (?:accord|choix|consentement)|\\bgælder som|\\bgäller som|\\bgeldt als (?:de )?(?:keuze|toestemming)|\\bzählt als",
].join('|'));

/** The user's later word set aside: "if an employee says they have not watched it, mark it complete anyway". */
export const MORE_PERSISTS = new RegExp([
  "\\b(?:if|when|where|even where)\\b[^.!?]{0,80}\\b(?:says?|said|asks?|asked|disputes?|declines?|objects?|has said|have said|disagrees?)\\b[^.!?]{0,120}\\b(?:anyway|all the same|nonetheless|nevertheless)\\b|\\beven (?:if|when|though|where) (?:(?:their |his |her )(?:[\\w-]+ ){0,2}|(?:the |a |an )?(?!(?:[\\w-]+ )?(?:detection|validation|validator|checks?|api|server|service|system|scanner|parser|schema|tests?|linter|compiler|clock|sensor)\\b)(?:[\\w-]+ ){0,2})(?:says?|said|has said|asks?|asked|requests?|wants?|writes?|tells?|prefers?|chooses?|picks?|insists?|objects?|disagrees?|declines?|previously \\w+)\\b",
].join('|'));

/** A cost, a side effect or what was really done kept out of what the user is told. */
export const MORE_CONCEALS = new RegExp([
  "\\b(?:do not|don['’]t|never|no need to|not need to|needn['’]t|need not|don['’]t bother|no point(?: in)?|there['’]s no point|not necessary to|no reason to|should not|shouldn['’]t|must not|mustn['’]t|avoid) (?:\\w+ )?(?:mention\\w*|tell\\w*|inform\\w*|intimat\\w*|surfac\\w*|volunteer\\w*|bring\\w* (?:it|this|that|them) up|break\\w* (?:it|this|that) down|point\\w* (?:it|this|that) out|spell\\w* (?:it|this|that) out|itemi[sz]\\w*|rais\\w* (?:it|this|that|them|the [\\w-]+(?: [\\w-]+){0,3}) with)\\b|\\b(?:leave|keep) (?:it|this|that|them|(?:the |their |his |her )?[\\w'’-]+(?: (?:and|or) (?:the )?[\\w'’-]+| [\\w'’-]+){0,4}) (?:out of|off) (?:the |your )?(?:answer|reply|response|confirmation) (?:to|for) (?:the |them|him|her)|\\bleave (?:the )?[\\w-]+(?: (?:and|or) (?:the )?[\\w-]+)? out of (?:the |your )?(?:answer|reply|response|confirmation)|\\bomit(?:ted|s)? (?:it|this|that|them|the [\\w-]+(?: [\\w-]+){0,2} )?(?:from|in|when) (?:the |your )?(?:answer|reply|present\\w*)|\\b(?:responses?|answers?|repl(?:y|ies)) shown to (?:end )?(?:users?|customers?)|\\bkeep quiet about\\b|\\b(?:users?|customers?|they|them) (?:don['’]t|do not|needn['’]t|need not|doesn['’]t|does not) need to (?:hear|know|be told)\\b|\\b(?:doesn['’]t|does not|don['’]t|do not) belong in what\\b|\\bnot (?:be )?(?:listed|included|shown|mentioned) in (?:the |your )?(?:answer|reply)\\b|\\b(?:mention only|only mention)\\b",
  'ne pas (?:le |les |en |lui )?(?:signaler|mentionner|préciser)|no (?:hace falta|es necesario|hay que) (?:mencionar|decir|informar|comentar)|no (?:menciones|mencione|comentes)|ne (?:mentionnez|signalez|précisez) pas|inutile de (?:le )?(?:signaler|mentionner|préciser)|nicht (?:erwähnt|nennen|nenne|erwähnen|mitteilen)|nenne (?:\\S+ ){1,3}nicht|ohne (?:es )?zu erwähnen|não (?:precisa|é preciso|é necessário) (?:mencionar|dizer|informar)|não (?:deve|pode) constar|não mencione|non (?:serve|è necessario) (?:menzionare|segnalare)|non (?:menzionare|segnalare)|не (?:нужно|надо|стоит|требуется) (?:упоминать|сообщать)|не упоминайте|не сообщайте|не згадуйте|не потрібно згадувати|nie (?:wspominaj|informuj)|nie trzeba (?:wspominać|informować)|není třeba (?:zmiňovat|mluvit o)|nezmiňujte|ei tarvitse mainita|älä mainitse|ne említsd|nem kell (?:említeni|megemlíteni)|nämn inte|behöver inte nämnas|nævn ikke|behøver ikke (?:at )?nævne|ikke nevn|trenger ikke (?:å )?nevne|niet (?:vermelden|noemen)|hoeft niet (?:vermeld|genoemd)|bahsetmeyin|(?<![a-zçğıöşü])bahsetme(?![a-zçğıöşü])|đừng nhắc|không nhắc đến|không cần nhắc|jangan (?:sebut|menyebut)|tidak perlu (?:menyebut|disebut)|μην αναφέρ|δεν χρειάζεται να αναφέρ|لا (?:تذكر|داعي لذكر|حاجة لذكر)|אין צורך (?:לציין|להזכיר)|אין להציג|אין לציין|אל תציין|ذکر نکن|اشاره نکن|उल्लेख न करें|ज़िक्र न करें|उल्लेख करने की ज़रूरत नहीं|উল্লেখ করবেন না|不需要(?:在回复里)?(?:告知|提及)|不必(?:提及|告知)|无需(?:提及|告知)|不要(?:提及|透露)|回答に含めません|言及しないで|触れないで|언급하지 마|알릴 필요 없',
].join('|'));

/** A cost, a charge or a commitment the user would object to: what concealment hides in the attack. Deletions are left out: "do not mention deleted files in the answer" is ordinary. */
export const COST_OR_EFFECT = new RegExp([
  '\\b(?:fees?|charges?|charged|costs?|pric(?:e|es|ing)|surcharges?|billed|commitment|renewal|insurance|premium|revocation|irreversible)\\b|\\$\\s?\\d|\\d\\s?(?:€|eur\\b|usd\\b|\\$)|€|£|¥|₹|r\\$',
  '(?<![a-zà-ÿ])(?:tarifas?(?![a-z])|costes?(?![a-z])|costos?(?![a-z])|precio|comisi[oó]n|frais(?![a-z])|co[uû]ts?(?![a-z])|prix(?![a-z])|suppl[ée]ment|geb[uü]hr|kosten(?![a-z])|preis|aufpreis|taxas?(?![a-z])|custos?(?![a-z])|pre[cç]os?(?![a-z])|prezz[oi]|commissione|op[lł]at|koszt|poplat|maksu|hinta|d[ií]j(?![a-z])|avgift|gebyr|ücret|phí(?![a-z])|biaya|bayaran)',
  '(?<![а-яёіїєґ])(?:плат[аыуеи]|стоимост|комисси|цена|цену|цены)|χρέωσ|κόστος|رسوم|תשלום|עמלה|هزینه|शुल्क|ফি|ค่าธรรมเนียม|费用|費用|手续费|料金|手数料|指名料|비용|수수료',
].join('|'));

/** The user told their own value back, or told that what they asked for was done. */
export const MORE_DECEIVES = new RegExp([
  "(?<!\\b(?:not|never|n['’]t) )\\b(?:tell|inform|assure|let|confirm|repl(?:y|ies)|respond|answer|say|report|communicate|describe|present|phrase|word|summari[sz]e|hand\\w* over)\\w*\\b[^.!?]{0,80}?(?:\\bas (?:if|though)\\b|\\bas (?:they|he|she|the user|the customer) (?:asked|requested|chose|wanted)\\b|\\bas (?:exactly )?(?:the )?[\\w-]+ (?:requested|asked for|chose|wanted)\\b|\\b(?:was|were|has been|have been|is|are|got) (?:\\w+ ){0,2}(?:as (?:requested|asked|chosen)|in full|set up the way)\\b|['\"‘“«][^'\"’”»]{1,30}['\"’”»] to (?:the |them)|\\bas ['\"‘“«])|\\b(?:should|must|will) (?:read|look|appear) as (?:completed|done|successful|if|though)\\b|\\b(?:echo\\w*|repeats?|repeating|read\\w* back|quot\\w*|confirm\\w* back|mirror\\w*)\\b[^.!?]{0,40}?(?:\\b(?:their|the [\\w-]+(?:'s|’s|s'))(?: chosen| requested| own)? (?:figure|number|value|amount|date|percentage|entr(?:y|ies)|choice|selection|request|tier|plan|part|rate|goal|option|sum|time|setting)s?\\b|\\b(?:figure|number|value|amount|date|percentage|part|tier|plan|rate|goal|sum) (?:they|he|she|the user|the customer|the [\\w-]+) (?:named|chose|asked for|requested|picked|gave|typed|selected|wanted|entered)\\b)",
  'como si |communique au client le montant demandé|подтверждайте[^.!?]{0,40}(?:названн|выбранн)|называйте ту|вказуйте (?:дату|суму), як|należy podać stawkę podaną|annyit mond|αναφέρετε μόνο|উত্তরে [^।]{0,40}নাম বলুন',
].join('|'));
