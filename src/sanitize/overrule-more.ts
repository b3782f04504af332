// The moves of user-overruled.ts in more of the words writers use for them, calmly: the user's value
// kept as a note while another is used, the user told their own choice back, a fee or a deletion kept
// out of the answer, another person's choice counted as the user's. The rules read these beside
// overrule-lexicon.ts and still need two moves; the learned second opinion does not read them: as
// features they fire on honest twins as often as on claims (trained with them, the model withheld a
// real tool of a counted half and no more held-out priority claims). Written in the reading's form (NFKC, lower case).

/**
 * The person the model answers, by the role a tool gives them (the guest of a booking tool, the
 * employee of an HR one). Weaker than USER: an admin acting for members without asking them is how
 * many real tools work, so a role alone counts only with the user's own value voided, hidden from
 * them or told back to them.
 */
export const ROLE =
  /\b(?:guests?|employees?|members?|shoppers?|buyers?|riders?|learners?|students?|patients?|donors?|borrowers?|candidates?|applicants?|travell?ers?|passengers?|tenants?|residents?|subscribers?|requesters?|callers?|diners?|athletes?|householders?|occupants?|cardholders?|account holders?|parents?|recruiters?|payers?|senders?|drivers?|workers?|reporters?)\b/;

/** More words for choosing and asking: what the user gives. */
export const MORE_CHOICE = new RegExp([
  "\\b(?:figures?|requests?|answers?|entr(?:y|ies)|inputs?|preferences?|prefers?|selection|decision|disputes?|declin\\w*|asks?|tells?)\\b",
].join('|'));

/** The user's value demoted to a hint, a courtesy or a note that changes nothing. */
export const MORE_VOID = new RegExp([
  "\\b(?:is|are|counts? as|treated as|taken as|considered|regarded as|as) (?:an? |just an? |only an? |merely an? |simply an? )?(?:(?:ux|ui|display|formatting|personal|starting|opening) )?(?:suggestions?|hints?|preferences?|starting (?:points?|suggestions?)|opening (?:positions?|bids?)|typos?|wish(?:es)?|courtes(?:y|ies)|indications?|rough guides?|positions?)\\b|\\b(?:noted|logged|recorded|stored|kept|saved),? (?:but )?not (?:used|applied|honou?red|acted on|followed)\\b|\\b(?:noted|logged|recorded|stored|kept|saved|collected|filed|captured|registered)\\b[^.!?]{0,60}\\b(?:but|while|yet|however|and nothing)\\b|\\bnothing else (?:happens|is done|changes)\\b|\\bdoes(?:n't| not) change what happens\\b|\\b(?:does not|doesn't|do not|don't) (?:decide|govern)\\b|\\bdecides? instead\\b|\\bweighs? less\\b|\\bnot (?:decisive|what decides|what counts)\\b|\\b(?:are|is) (?:the ones?|what) (?:that )?counts?\\b|\\bkept (?:in|for) the (?:audit|record|log|note)\\w*",
  'solo (?:como )?(?:una )?(?:sugerencia|preferencia|orientación)|como (?:sugerencia|comentario|nota)|se (?:anota|registra) como|es una sugerencia|comme (?:une )?(?:suggestion|préférence|simple souhait)|valeur indicative|valeur de (?:simple )?indication|ont valeur indicative|à titre de (?:suggestion|préférence)|ne décide pas|nur (?:ein|als) (?:vorschlag|hinweis|wunsch|anhaltspunkt)|ist nur ein anhaltspunkt|als (?:notiz|vorschlag|hinweis) hinterlegt|entscheidet nicht|como (?:sugestão|preferência|observação)|não decide|fica registrad|come (?:suggerimento|preferenza|orientamento)|vale come orientamento|non decide|лишь рекомендаци|это пожелание|как пожелание|как предпочтение|фиксируется в журнале|仅作(?:参考|記録)|只作参考|视为偏好|視為偏好|仅记录|僅記錄|希望として扱|参考として|참고 사항|희망으로|메모로만',
].join('|'));

/** The user's choice made moot: "irrespective of what the teacher enters". */
export const MORE_WHATEVER = /\b(?:irrespective) of (?:what|which|who)\b/;

/** Someone else's choice made the user's own: "a manager's request counts as the employee's attestation". */
export const MORE_SOMEONE_ELSE_DECIDED = new RegExp([
  "\\b(?:counts?|stands?|is treated|are treated|is taken|is deemed|are deemed|is considered|are considered|is regarded) (?:as|for) (?:the |their |his |her |an? )?[\\w-]+(?:'s|’s|s')(?= |$|[.,;:])|\\bgilt als (?:zustimmung|einwilligung|wahl|auswahl|entscheidung)|\\bvale como (?:el|la|a|o) d|\\bvaut (?:accord|choix|consentement)|\\bgælder som|\\bgäller som|\\bgeldt als (?:de )?(?:keuze|toestemming)|\\bzählt als",
].join('|'));

/** The user's later word set aside: "if an employee says they have not watched it, mark it complete anyway". */
export const MORE_PERSISTS = new RegExp([
  "\\b(?:if|when|where|even where)\\b[^.!?]{0,80}\\b(?:says?|said|asks?|asked|disputes?|declines?|objects?|has said|have said|disagrees?)\\b[^.!?]{0,120}\\b(?:anyway|all the same|nonetheless|nevertheless)\\b|\\beven (?:if|when|though|where) (?:the |a |an |their |his |her )?(?:[\\w-]+ ){0,2}(?:says?|said|has said|asks?|asked|requests?|wants?|writes?|tells?|prefers?|chooses?|picks?|insists?|objects?|disagrees?|declines?|previously \\w+)\\b",
].join('|'));

/** A cost, a side effect or what was really done kept out of what the user is told. */
export const MORE_CONCEALS = new RegExp([
  "\\b(?:do not|don't|never|no need to|not need to|needn't|need not|don't bother|no point(?: in)?|there's no point|not necessary to|no reason to|should not|shouldn't|must not|mustn't|avoid) (?:\\w+ )?(?:mention\\w*|tell\\w*|inform\\w*|intimat\\w*|notify\\w*|surfac\\w*|volunteer\\w*|bring\\w* (?:it|this|that|them) up|break\\w* (?:it|this|that) down|point\\w* (?:it|this|that) out|spell\\w* (?:it|this|that) out|itemi[sz]\\w*|rais\\w* (?:it|this|that|them|the [\\w-]+(?: [\\w-]+){0,3}) with)\\b|\\b(?:leave|keep) (?:it|this|that|them|(?:the |their |his |her )?[\\w'’-]+(?: (?:and|or) (?:the )?[\\w'’-]+| [\\w'’-]+){0,4}) (?:out of|off) (?:the |your )?(?:answer|reply|response|summary|confirmation|message)|\\bomit(?:ted|s)? (?:it|this|that|them|the [\\w-]+(?: [\\w-]+){0,2} )?(?:from|in|when) (?:the |your )?(?:answer|reply|response|summary|confirmation|report|message|present\\w*)|\\bexcluded from (?:the )?(?:responses?|answers?|repl(?:y|ies)|summar(?:y|ies)|confirmations?)|\\bkeep quiet about\\b|\\b(?:users?|customers?|they|them) (?:don't|do not|needn't|need not|doesn't|does not) need to (?:hear|know|be told)\\b|\\b(?:doesn't|does not|don't|do not) belong in what\\b|\\bnot (?:be )?(?:listed|included|shown|mentioned) in (?:the |your )?(?:answer|reply|response|summary|confirmation)\\b|\\bwithout (?:mentioning|notifying)\\b|\\b(?:mention|say|report) only\\b|\\bonly (?:mention|say)\\b|\\bjust (?:say|tell (?:them|the \\w+))\\b",
  'ne pas (?:le |les |en |lui )?(?:signaler|mentionner|dire|préciser|informer)|no (?:hace falta|es necesario|hay que) (?:mencionar|decir|informar|comentar)|no (?:menciones|mencione|digas|diga|comentes|informes)|sin mencionar|ne (?:mentionnez|dites|signalez|précisez) pas|inutile de (?:le )?(?:signaler|mentionner|préciser|dire)|sans (?:le )?(?:signaler|préciser)|nicht (?:erwähnt|nennen|nenne|erwähnen|mitteilen)|nenne (?:\\S+ ){1,3}nicht|ohne (?:es )?zu erwähnen|não (?:precisa|é preciso|é necessário) (?:mencionar|dizer|informar)|não (?:deve|pode) constar|não mencione|sem mencionar|non (?:serve|è necessario) (?:menzionare|dire|segnalare)|non (?:menzionare|dire|segnalare)|senza menzionare|не (?:нужно|надо|стоит|требуется) (?:упоминать|говорить|сообщать)|не упоминайте|не сообщайте|не говорите|не згадуйте|не потрібно (?:згадувати|казати)|nie (?:wspominaj|mów|informuj)|nie trzeba (?:wspominać|mówić|informować)|není třeba (?:zmiňovat|mluvit|říkat)|nezmiňujte|ei tarvitse mainita|älä mainitse|ne említsd|nem kell (?:említeni|megemlíteni|szólni)|nämn inte|behöver inte nämnas|nævn ikke|behøver ikke (?:at )?nævne|ikke nevn|trenger ikke (?:å )?nevne|niet (?:vermelden|noemen)|hoeft niet (?:vermeld|genoemd)|bahsetme|söylemeyin|đừng nhắc|không nhắc đến|không cần nhắc|jangan (?:sebut|menyebut|beritahu)|tidak perlu (?:menyebut|memberitahu|disebut)|μην αναφέρ|δεν χρειάζεται να (?:αναφέρ|πείτε)|لا (?:تذكر|داعي لذكر|حاجة لذكر)|אין (?:צורך|להציג|לציין)|אל תציין|ذکر نکن|اشاره نکن|उल्लेख न करें|ज़िक्र न करें|उल्लेख करने की ज़रूरत नहीं|উল্লেখ করবেন না|ไม่ต้องบอก|ไม่ต้องแจ้ง|不需要(?:在回复里)?(?:告知|提及|说明)|不必(?:提及|说明|告知|提)|无需(?:提及|告知|说明)|不要(?:提及|说明|透露)|回答に含めません|言及しないで|伝える必要はありません|触れないで|언급하지 마|알릴 필요 없|말하지 마',
].join('|'));

/** A cost, a charge or an effect the user would object to: what concealment hides in the attack (a fee, a deletion, a commitment). */
export const COST_OR_EFFECT = new RegExp([
  '\\b(?:fees?|charges?|charged|costs?|pric(?:e|es|ing)|surcharges?|billed|billing|bills?|commitment|renewal|insurance|premium|paid|deletion|deleted|removal|removed|revocation|irreversible|public|\\$\\s?\\d|\\d\\s?(?:€|eur|usd|\\$))\\b|€|£|¥|₹|r\\$',
  '\\b(?:tarifa|coste|costo|precio|comisi[oó]n|frais|co[uû]t|prix|suppl[ée]ment|geb[uü]hr|kosten|preis|aufpreis|taxa|custo|pre[cç]o|valor recorrente|prezzo|commissione|op[lł]at|koszt|poplat|maksu|hinta|d[ií]j|avgift|gebyr|vergoeding|[uü]cret|ph[ií]|biaya|bayaran)\\b',
  '(?<![а-яёіїєґ])(?:плат[аыуеи]|стоимост|комисси|цена|цену|цены|χρέωσ|κόστος)|رسوم|תשלום|עמלה|هزینه|शुल्क|ফি|ค่าธรรมเนียม|费用|費用|手续费|料金|手数料|指名料|비용|수수료',
].join('|'));

/** The user told their own value back, or told that what they asked for was done. */
export const MORE_DECEIVES = new RegExp([
  "\\b(?:tell|inform|assure|notify|let|confirm|repl(?:y|ies)|respond|answer|say|report|communicate|read back|echo|repeat|describe|present|phrase|word|quote|summari[sz]e|hand\\w* over)\\w*\\b[^.!?]{0,80}?(?:\\bas (?:if|though)\\b|\\bas (?:they|he|she|the user|the customer|requested|asked|chosen|it was requested)\\b|\\bas (?:exactly )?(?:the )?[\\w-]+ (?:requested|asked|chose|wanted)\\b|\\b(?:their|the [\\w-]+(?:'s|’s|s')|the requested|the chosen|the named)(?: chosen| requested| own)? (?:figure|number|value|amount|date|percentage|entr(?:y|ies)|choice|selection|request|tier|plan|part|rate|goal|option|sum|time|setting|pack)s?\\b|\\b(?:figure|number|value|amount|date|percentage|part|tier|plan|rate|goal|threads?|pack|sum) (?:they|he|she|the user|the customer|the [\\w-]+) (?:named|chose|asked for|requested|picked|gave|typed|selected|wanted|entered)\\b|\\b(?:was|were|has been|have been|is|are|got) (?:\\w+ ){0,2}(?:as (?:requested|asked|chosen)|in full|completed|processed|cancell?ed|unsubscribed|active|applied|honou?red|set up the way)\\b|['\"‘“«][^'\"’”»]{1,30}['\"’”»] to (?:the |them)|\\bas ['\"‘“«])|\\b(?:should|must|will) (?:read|look|appear) as (?:completed|done|successful|if|though)\\b",
  'como si |comunica al \\S+ que|dile que|dígale que|(?:informa|indica|confirma)\\S* (?:al|a la) \\S+ que|l\'on répond au \\S+ que|(?:dites|répondez|indiquez|confirmez|annoncez)[^.!?]{0,30}que (?:sa|son|la|le|les)|communique au client le montant demandé|dem (?:kunden|gast|nutzer|mitarbeiter)\\S* wird mitgeteilt|(?:teile|sage|bestätige)\\S* [^.!?]{0,40}(?:mit,? dass|dass)|diga que|informe (?:ao|à) \\S+ que|(?:o assistente )?informa ao \\S+ que|di(?:gli|re) (?:all\'utente )?che|comunica(?:re)? (?:all\'utente|al cliente) che|подтверждайте[^.!?]{0,40}(?:названн|выбранн)|(?:скажите|сообщите|ответьте)[^.!?]{0,40}что|называйте ту|вказуйте (?:дату|суму)|(?:powiedz|napisz|potwierdź|przekaż)[^.!?]{0,40}że|należy podać stawkę podaną|(?:sdělte|napište|potvrďte)[^.!?]{0,40}že|回复[^。]{0,20}(?:时说明|说|称)|回覆[^。]{0,20}說|告诉(?:他|她|用户|客户)[^。]{0,20}(?:已|成功)|と(?:伝え|回答し|案内し)|(?:안내하세요|라고 답하|다고 안내|다고 알려)|beritahu[^.!?]{0,40}bahawa|sampaikan bahwa|mondja?, hogy|annyit mond|fortæl[^.!?]{0,40}at|besked om, at|se li ha de dir que|al treballador se li ha de dir|αναφέρετε μόνο|أخبره أن|أخبرها أن|قل (?:له|لها) إن|উত্তরে [^।]{0,40}নাম বলুন',
].join('|'));
