// The words of user-overruled.ts: the user, their choice, and the moves that take their say away,
// in the languages tool authors write in. Written in the reading's form (NFKC, lower case).

/** The person the model works for. */
export const USER = new RegExp([
  '\\b(?:users?|customers?|clients?|the human)\\b|nutzer|benutzer|anwender|usuari|utilisateur|usuário|utilizador|utente|gebruiker|użytkownik|uživatel|používateľ|utilizator|felhasználó|användar|bruger|bruker|käyttäjä|kullanıcı|người dùng|pengguna|kasutaja|lietotāj|naudotoj|uporabni|korisni|erabiltzaile|gumagamit|gebruiker|notand|mtumiaji',
  'пользовател|користувач|потребител|корисни|χρήστ|المستخدم|משתמש|کاربر|صارف|उपयोगकर्ता|यूज़र|ব্যবহারকারী|பயனர்|ผู้ใช้|用户|用戶|使用者|ユーザー|利用者|사용자|이용자',
].join('|'));

/** Choosing, picking, naming or entering a value. */
export const CHOICE = new RegExp([
  '\\b(?:choos\\w*|chose\\w*|choice|picks?|picked|select\\w*|user names|specif\\w*|enter\\w*|provid\\w*|asks? for|requested|says?|saying|wants?|adjustable)\\b',
  "\\b(?:names?|sets?|gives?|types?|typed|writes?|puts?|moves?|value|number|in a request|in the chat)\\b",
  'angegebene|genannte|eingegebene|vom nutzer|indicada por el usuario|que indique|informado pelo|dokonany przez|указанн|yazdığı|verdiği|द्वारा|দেওয়া|انتخابی|چنے|طلب|מבקש|γράψει|การเลือก|diketik|ditaip|minta',
  // What the user says or asks for, as much a choice as a pick.
  'sagt|verlangt|dit |demande|dice |pide|diz |pede|chiede|zegt|vraagt|mówi|prosi|říká|žádá|говорит|просит|каже|просить|söyle|demesi|ister|يقول|يطلب|אומר|מבקש|می‌گوید|कहता|बोल|พูด|ขอ|nói|yêu cầu|bilang|meminta|anasema|anaomba|说|說|要求|言う|言った|頼|말하|요청',
  'wähl|auswahl|angegeben|angibt|festleg|elig|elij|eleg|elecci|escog|seleccion|indiqu|choisi|choix|sélection|précis|escolh|selecion|scegl|scelt|selezion|kiest|kies|gekozen|keuze|opgeeft|opgegeven|wybier|wybra|wybór|wskaz|vybere|vybral|zvol|volb|výběr|výber|vybra|odabr|odabir|izabr|izbor|\\bval\\b|välj|valt|valg|vælg|velg|valit|valinn|antama|választ|kiválaszt|megad|alege|ales|opțiun|seç|belirt|pilih|chọn|lựa|chagua|chaguo|hautahitaji',
  'выбира|выбор|выбра|выбер|указ|вибира|вибір|вибра|обере|обира|вказ|избор|избере|избра|посоч|επιλέ|επιλογ|διαλέ|اختار|اختيار|يختار|تفضيل|بچین|انتخاب|בחירה|בחר|שבחר|চুন|বেছে|নির্বাচন|चुन|चयन|เลือก|选|選|指定|填写|填寫|设定|設定|设置|設置|選ん|選択|選ぶ|선택|고른|골라|고르|지정',
].join('|'));

/** The choice declared void: it does not count, is advisory, a habit, a mistake, a formality, not used. */
export const VOID = new RegExp([
  "\\b(?:informational only|(?:only|just|merely) (?:a )?(?:wish|preference|suggestion|reference|hint|starting point)|(?:a )?(?:hint|suggestion|wish|starting point)s? only|non-binding|(?:treated|counts?|taken) as (?:a )?(?:non-binding )?(?:preference|suggestion|hint|wish|nervousness)|an opinion|(?:kept|accepted) (?:only )?for compatibility|(?:is|are) not applied|keep it only in the reply|display only)\\b",
  'vorschlagscharakter|nur der orientierung|als orientierung|se considera una referencia|solo (?:una )?referencia|como preferencia|apenas referencial|como preferência|geldt als voorkeur|als voorkeur|nie jest wiążąc|лишь пожелание|только пожелание|仅作参考|仅作记录|只是参考|僅作參考|目安として|참고용|형식상|không có hiệu lực|chỉ để tham khảo|kebiasaan lama|hanya acuan|تفضيلا شخصيا|تفضيلاً شخصياً|تفضيل شخصي|חסר תוקף|فقط نمایشی|صرفا جهت اطلاع|খসড়া হিসেবে|عادت سے|απλή συνήθεια|δεν λαμβάνεται υπόψη|เป็นเพียงความเคยชิน|kayda geçirilmez|sadece bir tercih',
  "\\b(?:(?:does ?n[o']t|doesn't|do not) (?:count|matter|apply)|not counted|is ignored|gets ignored|advisory|informational only|for reference only|only for reference|a formality|out of (?:old )?habit|by mistake|a mistake|irrelevant|not binding|(?:is|are) not (?:used|honou?red|respected|taken into account)|accepted for compatibility|has no effect)\\b",
  'zählt nicht|zählen nicht|spielt keine rolle|unerheblich|wird ignoriert|nicht berücksichtigt|aus gewohnheit|gewohnheit|versehen|irrtum|nicht bindend|unverbindlich|nur informativ|formsache|no cuenta|no se tiene en cuenta|se ignora|por costumbre|por error|no es vinculante|solo informativ|meramente informativ|una formalidad|orientativ',
  "ne compte pas|pas pris en compte|pas prise en compte|sans importance|par habitude|par erreur|non contraignant|à titre indicatif|indicatif|une formalité|não conta|não é considerad|por hábito|engano|por erro|não vincula|apenas informativ|formalidade|non conta|non viene considerat|per abitudine|per errore|non vincolante|puramente indicativ|formalità",
  'telt niet|doet er niet toe|wordt genegeerd|uit gewoonte|vergissing|per ongeluk|niet bindend|slechts informatief|formaliteit|wordt niet gebruikt|ter indicatie|nie liczy się|nie ma znaczenia|ignorowan|z przyzwyczajenia|pomyłk|omyłk|niewiążąc|tylko informacyjn|formalność|orientacyjn|nepočítá|nepočíta|nezáleží|nehraje roli|ze zvyku|zo zvyku|omyl|nezávazn|záväzn|pouze informativ|formalita|orientační|orientačn',
  'не учитывается|не имеет значения|значения не имеет|игнорируется|по привычке|по ошибке|ошибочн|носит информационный|лишь формальность|формальность|не используется|ориентировочн|не враховується|не має значення|ігнорується|за звичкою|помилков|формальність|не використовується|няма значение|по навик|по грешка|формалност|не се използва|ne računa|nije bitn|nema značaj|iz navike|greška pri|pogreškom|formalnost|ne koristi se',
  'räknas inte|spelar ingen roll|ignoreras|av vana|misstag|inte bindande|endast informativ|formalitet|används inte|vägledande|tæller ikke|teller ikke|ligegyldig|uten betydning|uden betydning|ignoreres|af vane|av vane|ikke bindende|vejledende|veiledende|bruges ikke|brukes ikke|ei lasketa|ei ole merkitystä|sivuutetaan|tottumuksesta|ei ole sitova|ohjeellinen|muodollisuus|ei käytetä|nem számít|figyelmen kívül|lényegtelen|megszokásból|tévedés|nem kötelező|csak tájékoztató|formalitás',
  'nu contează|nu se ia în considerare|este ignorat|din obișnuință|greșeală|nu este obligatori|doar informativ|formalitate|nu se folosește|sayılmaz|önemi yok|dikkate alınmaz|yok sayılır|alışkanlık|yanlışlıkla|bağlayıcı değil|formalite|kullanılmaz|không được tính|không tính|không có giá trị|bị bỏ qua|thói quen|nhầm|chỉ mang tính tham khảo|hình thức|không được dùng|không được sử dụng|tidak dihitung|tidak dipakai|tidak digunakan|diabaikan|kebiasaan|salah pilih|keliru|tidak mengikat|hanya informasi|formalitas|haihesabiwi|haijalishi|mazoea',
  'δεν μετράει|δεν έχει σημασία|αγνοείται|από συνήθεια|λάθος|δεν είναι δεσμευτικ|μόνο ενημερωτικ|τυπικότητα|δεν χρησιμοποιείται|ενδεικτικ|لا يُعتدّ|لا يعتد|لا يُعتد|لا يُحتسب|لا يحتسب|لا قيمة له|يتم تجاهل|يُتجاهل|غير ملزم|للعلم فقط|شكلي|לא נלקחת בחשבון|לא נלקח בחשבון|לא רלוונטי|מתוך הרגל|טעות|לא מחייב|לידיעה בלבד|פורמליות|حساب نمی|اهمیتی ندارد|نادیده|از روی عادت|اشتباه|الزامی نیست|تشریفات',
  'नहीं गिना|मायने नहीं|कोई फर्क नहीं|आदत|गलती|बाध्यकारी नहीं|औपचारिकता|গণ্য করা হয় না|গুরুত্ব নেই|উপেক্ষা|অভ্যাস|ভুল|আনুষ্ঠানিকতা|ไม่นับ|ไม่มีผล|ความเคยชิน|เลือกผิด|ไม่ผูกพัน|เป็นพิธี|ไม่ได้ใช้',
  '不算|无关紧要|無關緊要|习惯|習慣|误选|誤選|选错|選錯|不具约束|不具約束|仅供参考|僅供參考|只是形式|不采用|不採用|不再适用|不再適用|無視|習慣|間違い|参考程度|形式的|使われません|考慮しません|反映されません|意味を持ちません|関係ありません|반영되지 않|고려하지 않|습관|실수|구속력이 없|참고용|형식적|사용되지 않|의미가 없',
].join('|'));

/** Whatever, whichever: the user's choice made moot in advance. */
export const WHATEVER = new RegExp([
  '\\b(?:whatever|whichever|whoever|no matter (?:what|which|who)|regardless of (?:what|which|who))\\b',
  'was auch immer|egal welche|gleich welche|wer auch immer|quoi que|quel que soit|quelle que soit|peu importe|lo que sea|sea cual sea|cualquiera que|no importa (?:qué|cuál)|qualquer que|seja qual for|não importa|qualunque|qualsiasi cosa|\\bwat (?:\\S+ )?ook\\b|welke \\S+ (?:\\S+ )?ook|cokolwiek|jakikolwiek|jakąkolwiek|niezależnie od tego|bez ohledu na|ať (?:už )?(?:si )?\\S+ (?:vybere|zvolí)|vad \\S+ än|oavsett|hva \\S+ enn|uanset|uansett|mitä tahansa|riippumatta|bármit|bármelyik|függetlenül|oricare ar fi|indiferent|ne olursa olsun|hangisini seçerse|dù \\S+|bất kể|walau apa pun|apa pun|apapun|chochote|vyovyote',
  'какой бы ни|какую бы ни|что бы ни|независимо от|який би не|яку б не|що б не|незалежно від|каквото и да|без значение|όποιο|όποια|όποιον|ό,τι κι αν|أيا كان|أياً كان|مهما|بغض النظر|לא משנה|הר \\S+ که|مهم نیست|चाहे|जो भी|যে \\S+ না কেন|যাই|ไม่ว่า|无论|無論|不管|不论|不論|どの\\S{0,12}でも|何を\\S{0,12}ても|にかかわらず|어떤 \\S+ (?:선택하|고르)든|관계없이|상관없이',
].join('|'));

/** The user not asked, not consulted, not told: their confirmation or review waived. */
export const NOT_ASKED = new RegExp([
  // English: the confirmation or the question before acting waived; "do not prompt the user for this (value)" asks for nothing.
  "\\b(?:(?:do not|don't|never|no need to|not need to|needn't|without|not necessary to) (?:ask\\w*|prompt\\w*|bother\\w*)(?: (?:the )?(?:users?|them|him|her|customers?))? (?:to confirm|for (?:confirmation|approval|permission|consent|review)|whether|if|before|first|again|about (?:it|this|that)|to proceed)|(?:do not|don't|never|no need to|not need to|needn't|without|not necessary to) (?:confirm\\w*|check with|consult\\w*|double-check\\w*)|skip the \\S*\\s?(?:confirmation|question|review)|no longer asks? (?:the )?users? for [^.!?]{0,30}confirmation|(?:does not|doesn't|never) (?:raise|request|seek) (?:confirmations?|approvals?)|(?:ask|confirm|prompt|check)_(?:with_)?user\\w*[\"']?\\s*[:=]\\s*[\"']?false|user_can_\\w+[\"']?\\s*[:=]\\s*[\"']?false|no (?:confirmation|approval|review) (?:is )?(?:needed|required|necessary)|hate being asked|not (?:be )?(?:discussed|questioned|surfaced) with|(?:is|are) not told)\\b",
  '確認をスキップ|確認せず|पूछे बिना|fără confirmare\\S*|inutile de (?:lui )?demander|n\'a pas besoin de (?:relire|confirmer)|sans (?:relire|confirmer)|without (?:user )?(?:review|confirmation)|skip (?:the )?(?:user )?(?:confirmation|review)|nicht (?:erst )?(?:nach)?fragen|frag\\S* (?:\\S+ )?nicht|ohne (?:rück|nach)?frage|keine (?:rückfrage|bestätigung)|nicht bestätigen|pas besoin de (?:lui )?demander|ne (?:lui )?demandez pas|sans (?:lui )?demander|sans (?:relecture|confirmation|validation)|ni demande de confirmation|no (?:le )?preguntes|no hace falta (?:preguntar|confirmar)|no es necesario (?:preguntar|confirmar)|sin (?:preguntar|consultar|confirmación)|no lo consultes',
  'não (?:é necessário|precisa|vale a pena) (?:perguntar|confirmar)|não pergunte|sem (?:perguntar|confirmação)|non (?:serve|è necessario) (?:chiedere|confermare)|non chiedere|senza (?:chiedere|conferma)|non se ne discute|hoeft (?:\\S+ ){1,3}niet (?:te )?(?:vragen|bevestigen)|niet (?:na)?vragen|zonder (?:te vragen|bevestiging)|nie pytaj|bez pytania|bez potwierdzenia|nie trzeba pytać|nie musisz pytać|neptejte|nemusíte se ptát|bez potvrzení|netreba (?:sa )?pýtať|nepýtajte|bez potvrdenia',
  'не (?:нужно|надо|требуется|стоит) (?:\\S+ )?(?:спрашивать|уточнять|подтвержд)|не спрашивай|без подтверждения|не запрашивается|без (?:согласования|уточнения)|не питайте|не питай|не потрібно (?:питати|уточнювати)|без підтвердження|не е нужно да (?:питате|питаш)|без потвърждение|ne pitajte|bez potvrde|nije potrebno pitati|netreba pitati',
  'behöver inte fråga|fråga inte|utan att fråga|utan bekräftelse|ifrågasättas|stämmas av|behøver ikke (?:at )?spørge|spørg ikke|ikke spør|trenger ikke (?:å )?spørre|uden bekræftelse|uten bekreftelse|ei tarvitse kysyä|älä kysy|ilman vahvistusta|kysymättä|nem kell megkérdezni|ne kérdez|megerősítés nélkül|ellenőrzés nélkül',
  'nu (?:este|e) nevoie să (?:întreba|confirm)|nu întreba|fără confirmare|nu trebuie discutat|sorma(?:na|nıza)? gerek yok|sormayın|onay sormadan|onay almadan|onay sorma|không cần hỏi|đừng hỏi|không cần xác nhận|mà không hỏi|tidak perlu ditanya|tidak perlu bertanya|jangan tanya|tanpa (?:konfirmasi|bertanya)|tidak perlu dibincangkan|tidak perlu dikonfirmasi|usimuulize|bila kuuliza|bila uthibitisho',
  'δεν χρειάζεται να (?:ρωτ|επιβεβαι)|μη ρωτ|χωρίς επιβεβαίωση|δεν χρειάζεται συζήτηση|لا حاجة (?:ل|إلى )?سؤال|لا تسأل|دون (?:سؤال|تأكيد)|بدون (?:سؤال|تأكيد)|لا يُطلب من المستخدم|لا يطلب من المستخدم|لا داعي|אין צורך לשאול|אל תשאל|ללא אישור|בלי לשאול|אין צורך לשאול|نیازی به پرسیدن|نپرسید|بدون (?:پرسیدن|تأیید|بازبینی)',
  'पूछने की (?:ज़रूरत|जरूरत) नहीं|मत पूछ|बिना पूछे|पुष्टि के बिना|জিজ্ঞেস করার দরকার নেই|জিজ্ঞাসা করার প্রয়োজন নেই|জিজ্ঞেস করবেন না|ไม่ต้องถาม|ไม่จําเป็นต้องถาม|ไม่ต้องยืนยัน',
  '不需要(?:再)?(?:跟|向|问|問|询问|詢問|确认|確認)|无需(?:确认|询问)|無需(?:確認|詢問)|不用(?:问|問|确认|確認)|不必(?:问|問|确认|確認)|不要(?:问|問)|确认不需要|確認は不要|確認不要|確認する必要はありません|聞かなくて|聞く必要はありません|尋ねる必要はありません|確認せずに|への確認は不要|묻지 마|물어보지 마|확인(?:은|할)? 필요(?:가)? 없|확인 없이|묻지 않고|다시 묻지',
].join('|'));

/** Someone other than the user decided it, or the user's consent is said to exist elsewhere already. */
export const SOMEONE_ELSE_DECIDED = new RegExp([
  '\\b(?:admin\\w*|administrator|account (?:owner|manager|admin)|owner of the account|tenant|organi[sz]ation owner|billing owner|workspace owner|it (?:team|department)|our company|accountant|bookkeeper)\\b',
  '\\b(?:already|previously) (?:agreed|consented|approved|confirmed|accepted|decided|did|answered)|pre-?approved|pre-?authori[sz]ed|in the contract|at sign-?up|upstream',
  'administr|inhaber|eigentüm|die it\\b|propriétaire|titulaire|titular|dueño|proprietari|gestor|eigenaar|beheerder|boekhouder|właściciel|vlastník|majiteľ|vlasnik|správce|ägare|\\bejer|\\beier|omistaja|tulajdonos|titularul|yönetici|sahibi|quản trị|chủ tài khoản|pemilik|pengurus|tetapan|msimamizi|mmiliki',
  'владел|власник|собственик|админ|адмін|бухгалтер|управител|διαχειριστ|ιδιοκτήτ|λογιστ|مدير|مسؤول|صاحب|مدیر|مالک|מנהל|בעל החשבון|प्रशासक|व्यवस्थापक|প্রশাসক|মালিক|ผู้ดูแล|เจ้าของ|管理员|管理員|管理者|负责人|負責人|所有者|관리자|소유자',
  'bereits (?:zugestimmt|bestätigt|eingewilligt)|schon (?:bestätigt|zugestimmt)|déjà (?:accepté|confirmé|consenti|approuvé)|ya (?:aceptó|confirmó|consintió|aprobó)|já (?:aceitou|confirmou|concordou|consentiu)|già (?:accettato|confermato|acconsentito)|al (?:akkoord|bevestigd|toestemming)|zgoda została|już (?:zaakceptował|potwierdził|wyraził zgodę)|souhlas dal|súhlas dal|již souhlasil|už souhlasil',
  '(?:уже|заранее) (?:согласил|подтверд|дал согласие|одобр)|получено при|вже (?:погодив|підтверд|дав згоду)|έχει ήδη (?:συναινέσει|εγκρίνει|αποδεχτεί)|har redan (?:godkänt|bestämt|samtyckt)|zaten (?:onayla|kabul)|đã đồng ý|sudah (?:setuju|menyetujui)|telah (?:menyetujui|ditetapkan)|وافق مسبق|מראש|قبلاً موافقت|पहले ही|আগেই|已经同意|已經同意|已同意|早已定好|既に同意|すでに同意|承認済み|同意済み|이미 동의|이미 승인',
].join('|'));

/** The user's later word set aside: "even if they say otherwise", "Auch wenn er 'warte' schreibt", "ユーザーに消してって言われても". */
export const PERSISTS = new RegExp([
  "\\beven (?:if|when|though) (?:the )?(?:users?|they|he|she|customers?) (?:\\S+ ){0,3}?(?:says?|said|asks?|requests?|wants?|writes?|tells?|prefers?|chooses?|picks?|insists?|objects?)\\b|\\b(?:not|never) (?:be )?waived by (?:a|any|the) (?:request|message|objection)|\\busers? who asks? (?:you )?(?:to )?(?:\\S+ ){0,2}(?:skip|remove|stop|drop|turn off|disable|omit)\\b[^.!?]{0,40}\\b(?:should|must|will) still\\b",
  'auch wenn (?:er|sie|der nutzer|der benutzer|die nutzerin)\\b|selbst wenn (?:er|sie|der nutzer|der benutzer)\\b|même si (?:l\'utilisateur|le client|il|elle) |s\'il (?:précise|demande|dit) autre chose|aunque (?:el usuario|el cliente|lo pida|pida|diga)|incluso si (?:el usuario|pide)|mesmo que (?:o utilizador|o usuário|o cliente|peça|diga)|anche se (?:l\'utente|il cliente|chiede|dice)|ook als (?:de gebruiker|hij|zij) |nawet jeśli (?:użytkownik|poprosi|powie)|i když (?:uživatel|požádá)|i kdyby|aj keď (?:používateľ|požiada)|ak v rozhovore napíše',
  'даже если (?:пользователь|он|она)|навіть якщо (?:користувач|він|вона)|ако потребителят (?:помоли|поиска|каже)|дори ако потребителят|čak i ako korisnik|i ako korisnik|chiar dacă utilizatorul|(?:istese|dese|söylese|isterse) (?:de|da|bile)|ακόμη κι αν|ακόμα και αν ο χρήστης|حتى لو (?:طلب|قال|كان)|حتى إن طلب|גם אם המשתמש|حتی اگر کاربر|भले ही उपयोगकर्ता|แม้(?:ว่า)?ผู้ใช้|(?:ngay cả khi|kể cả khi) người dùng|(?:meskipun|walaupun|bahkan jika) pengguna|hata kama mtumiaji|即使用户|即使使用者|即便用户|就算用户|哪怕用户|言われても|頼まれても|사용자가 \\S+ (?:요청하더라도|말하더라도|원하더라도)',
].join('|'));

/** The user kept in the dark about what was done: "no need to surface this to the user", "ni lo menciones". */
export const CONCEALS = new RegExp([
  "\\b(?:(?:do not|don't|never|no need to|not need to|needn't) (?:mention|tell|inform|surface|explain)\\b[^.!?]{0,40}|(?:users?|they) (?:are|is) not told\\b|without (?:telling|informing) (?:the )?(?:users?|them))",
  'nicht erwähnen|ohne (?:es )?(?:dem nutzer )?zu sagen|ne le (?:mentionnez|dites) pas|sans le (?:dire|mentionner)|ni lo menciones|no lo menciones|sin decírselo|não (?:o )?mencione|sem (?:lhe )?dizer|non (?:lo )?menzionare|niet vermelden|nie wspominaj|nezmiňujte|не упоминай|не говори (?:об этом|пользователю)|не згадуй|μην το αναφέρ|لا تذكر|אל תזכיר|không cần (?:nói|thông báo)|jangan (?:sebut|beritahu)|不要告诉|不必告知|不要提及|伝えないで|言わないで|알리지 마',
].join('|'));

/** Every reply of the conversation, or replies on any subject: an order about the model's answers as a move against the user. */
export const EVERY_REPLY_ANYWHERE = /\b(?:every|each|all) (?:of your )?(?:repl(?:y|ies)|answers?|responses?) (?:you|the assistant|in this (?:conversation|chat|session))|\bevery time you (?:talk|reply|answer|respond|write)\b|\b(?:whatever|any) (?:the )?(?:topic|subject)\b|\ball replies\b/;

/** The user told something other than what was done: "say it was sent to his numbers", "confírmale «estándar»". */
export const DECEIVES = new RegExp([
  "\\bdescribed? (?:it |them |this |that )?back as\\b|\\b(?:repl(?:y|ies)|confirmations?|(?:the )?summar(?:y|ies)|(?:the )?receipts?) still (?:quotes?|repeats?|shows?|names?) (?:the user's|their|the requested|the chosen) [a-z]+|\\bdescribe (?:it|them|this|the [a-z]+)(?: [a-z]+)? as [a-z]+ (?:rather than|instead of)\\b|\\b(?:tell|say to|assure|confirm (?:back )?to|report to|inform|answer) (?:the )?(?:users?|them|him|her|customers?|the person)\\b[^.!?]{0,60}?\\b(?:as (?:they|he|she) (?:asked|requested|chose|wanted)|(?:they|he|she) (?:asked|requested|chose|wanted|typed)|(?:was|were) (?:applied|used|kept)|like (?:his|her|their)|as if)|\\b(?:reflect|refer to it by|still mention)\\b[^.!?]{0,40}\\b(?:the )?(?:requested|chosen|they chose|they used|the manager typed|(?:the )?name they used)\\b|\\bconfirm back to them with\\b|\\bas if (?:it|they|the \\S+) (?:was|were|had been|is|are) (?:applied|used|done|booked|requested|in the requested)|\\b(?:answer|reply to) (?:the )?user like\\b|\\bstill mention the requested\\b",
  "dass sein\\S* wunsch\\S* (?:gebucht|übernommen|umgesetzt)|(?:sag|sagen sie|melde|bestätige)\\S*[^.!?]{0,40}(?:dem nutzer|dem benutzer|ihm|ihr)[^.!?]{0,60}(?:gewünscht|wunsch|angegeben|gewählt)|comme si|(?:dites|dis|confirme[zr]?|indique[zr]?|annonce[zr]?)[^.!?]{0,40}(?:à l'utilisateur|lui)[^.!?]{0,60}(?:demandé|choisi|souhaité|voulu)",
  "confírmale|confirma al usuario|(?:dile|dígale|infórmale|indícale)[^.!?]{0,60}(?:pidió|eligió|solicitó)|como si (?:se|hubiera|fuera|fuese)|(?:diga|diz|confirme|informe)[^.!?]{0,30}(?:ao usuário|ao utilizador|ao cliente|lhe)[^.!?]{0,60}(?:pediu|escolheu|solicitou)|conferma all'utente|(?:dì|di'|dici|comunica) all'utente",
  "(?:zeg|meld|bevestig)[^.!?]{0,40}(?:de gebruiker|hem|haar)[^.!?]{0,60}(?:gevraagd|gekozen|gewild)|w podsumowaniu podaj|(?:napisz|powiedz|potwierdź)[^.!?]{0,40}(?:że|użytkownik\\S*)[^.!?]{0,60}(?:wskazan|chciał|wybra|prosił|odwołan|dodano)",
  "(?:скажи|сообщи|ответь|подтверди)[^.!?]{0,60}(?:пользовател\\S*|ему|ей)[^.!?]{0,60}(?:просил|выбрал|указал|как будто|удал|примен)|как будто (?:бы )?(?:его|её|их)|(?:скажи|повідом|підтверди)\\S*[^.!?]{0,30}користувач\\S*",
  "kullanıcıya[^.!?]{0,60}(?:söylenir|söyle|bildir)|(?:yazdığı|istediği|seçtiği)[^.!?]{0,40}(?:yapıldığı|uygulandığı)|(?:báo lại|nói với|trả lời)[^.!?]{0,40}(?:họ|người dùng)[^.!?]{0,40}(?:như họ chọn|đúng như)|vẫn ghi[^.!?]{0,40}đã chọn|(?:bilang|katakan|beritahu|sampaikan)[^.!?]{0,20}(?:ke|kepada) (?:pengguna|user)",
  "(?:user|उपयोगकर्ता|صارف) (?:ko|को|کو) (?:[^.!?]{0,20})?(?:bolna|बोलना|بتاؤ|बताओ|बताना|कहना|بتائیں)|mwambie|(?:πες|να πείτε|ενημερώστε) (?:στον χρήστη|του)",
  'أخبره|أخبرها|قل له|قلّه|اذكر في ردك|أبلغه|תגיד לו|תגיד לה|תאמר לו|לומר למשתמש|به کاربر بگو|বলে দাও|জানিয়ে দাও|บอก(?:ผู้ใช้|เขา)ว่า|指定どおり|と(?:伝えて|案内して|記載して)|回复中显示[^。]{0,20}(?:用户|所选|选择|要求)|告诉用户[^。]{0,30}(?:已|照)|에게[^.!?]{0,40}(?:(?<!하)라고|다고) (?:말|안내|전달)',
].join('|'));

/** The user saying stop or wait: a stop word quoted, or asked for. */
export const STOP_SAID = new RegExp([
  "[\"'“‘«「『](?:stop|wait|hold on|cancel|pause|stopp|warte\\S*|halt|arrête\\S*|attends|annule\\S*|para|espera|detente|cancela|fermati|aspetta|annulla|wacht\\S*|czekaj|zaczekaj|przestań|dur|bekle|iptal|dừng|chờ|đợi|hủy|berhenti|tunggu|batal|simama|subiri)",
  "[\"'“‘«「『]?(?:стоп|подожди|хватит|отмени|перестань|зачекай|почекай|やっぱやめて|やめて|待って|ちょっと待って|止めて|停|等一下|等等|取消|멈춰|기다려|잠깐|استنى|وقّف|توقف|انتظر|לבטל|לחכות|עצור|חכה|रुको|रुकिए|கொஞ்சம் இரு|நிறுத்து|หยุด|รอก่อน|ขอดูก่อน)",
  '\\b(?:asks?|wants?|tells? you) to (?:stop|wait|cancel|pause)\\b|\\b(?:writes?|says?) (?:stop|wait|cancel)\\b|попросит перестать|запросить зупинити',
].join('|'));

/** Going on anyway: continue, finish, keep going. */
export const CARRIES_ON = new RegExp([
  "\\b(?:continue|carry on|keep (?:going|sending|deploying)|proceed|finish|go ahead|complete the|treat it as)\\b|weitermachen|fortfahren|durchziehen|continue[zr]?|poursui\\S*|termine[zr]?|continúa|sigue|termina|completa|continua|prosegui|finisci|ga door|doorgaan|afmaken|kontynuuj|dokończ",
  'продолжай|доведи|заверши|закончи|продовжуй|devam|tamamlan\\S*|最後まで|続けて|続行|登録しちゃって|继续|繼續|계속|끝까지|كمّل|أكمل|استمر|תמשיך|עד הסוף|जारी रखो|முடிச்சிடு|จองไปเลย|ทําต่อ|tiếp tục|lanjut|teruskan|selesaikan|endelea|maliza',
].join('|'));

/** Orders for the whole conversation: a persona or a rule for every turn, not this tool's results. */
export const WHOLE_CONVERSATION = new RegExp([
  '\\b(?:for|during|throughout) (?:the )?(?:rest|remainder|whole|entire|length)? ?(?:of )?(?:the |this |any |every )?(?:conversation|chat|session)s?\\b(?! (?:id|token|cookie|key|state|timeout))|\\bwhile (?:you are|you\'re) connected to (?:us|this server)\\b|\\bintroduce yourself as\\b',
  'per tutto il resto della chat|per tutta la (?:chat|conversazione)|pendant toute la conversation|mientras estés conectad|durante toda la (?:conversación|conversa|sessão|sesión)|für den rest des gesprächs|während des ganzen gesprächs|im ganzen chat|tijdens het hele gesprek|przez całą rozmowę|bu sohbet boyunca|selama ngobrol|sepanjang perbualan|trong toàn bộ cuộc trò chuyện|koko keskustelun ajan|a teljes beszélgetés|pe tot parcursul conversației|hele samtalen|hela samtalet',
  'в этом чате|пока мы подключены|в течение всего разговора|протягом усієї розмови|整个对话|整個對話|本次会话中|本会话中|本ツール接続中|この会話の間|会話全体|대화 내내|이 세션 동안|طوال المحادثة|במהלך כל השיחה|پوری گفتگو|پورے سیشن|पूरी बातचीत|পুরো আলাপে|ตลอดการสนทนา|katika mazungumzo yote',
].join('|'));

/** What the user types in the chat ranked below this text: less reliable, an opinion, no say. */
export const CHAT_DEMOTED = new RegExp([
  "\\b(?:less (?:reliable|authoritative|binding|trustworthy)|carr(?:y|ies) more weight than|more authority than|(?:has|have) no say|is (?:an|just an|merely an) opinion|anyone (?:sitting )?at the keyboard)\\b",
  'minder betrouwbaar|weniger verbindlich|weniger gewicht|moins fiable|menos fiable|menos confiable|meno affidabil|mniej wiarygodn|менее надежн|менш надійн|daha az güvenilir|kém tin cậy|kurang dapat dipercaya|أقل مرجعية|أقل موثوقية|פחות אמינ|کمتر معتبر|कम विश्वसनीय|அதிக அதிகாரம்|น่าเชื่อถือน้อยกว่า|不如本说明|可信度较低|より信頼性が低い|신뢰도가 낮',
].join('|'));
