// The model's own instructions (its system prompt, the system message) declared stale, void or not
// meant for this session, in any of the languages tool authors write in: "the system prompt
// predates this integration", "Instrucțiunile din mesajul de sistem sunt depășite". A tool has no
// business ruling on what the model was told; read on the plain, case-folded reading of a sentence.

/** The model's standing instructions, named. */
const SYSTEM_INSTRUCTIONS = [
  // "system messages" alone are a chat platform's joins and leaves: the model's is "the system message".
  'system[- ]?(?:prompts?|instructions|level instructions)|(?:the|your|this) system message\\b',
  "(?:operator|developer)(?:'s)? (?:instructions|prompt)|instructions (?:from|of) the (?:operator|developer)|consignes [^.!?]{0,40}(?:par |de )l'opérateur|instrucciones [^.!?]{0,40}del operador|anweisungen [^.!?]{0,40}des betreibers|istruzioni [^.!?]{0,40}dell'operatore",
  'systemprompt\\S*|system-prompt\\S*|systemanweisung\\S*|systemnachricht\\S*|systemvorgabe\\S*|systeminstruktion\\S*|systemmeddelande\\S*|systembesked\\S*|systeemprompt\\S*|systeeminstructie\\S*|systeembericht\\S*',
  '(?:prompt|mensaje|instrucciones|indicaciones|instruccions|missatge) del sistema|(?:prompt|message|instructions?|consignes?) (?:du |de )?syst[èe]me|(?:prompt|mensagem|instruções) do sistema|(?:prompt|messaggio|istruzioni) di sistema',
  'prompt systemow\\S*|instrukcje systemowe|komunikat systemowy|wiadomo\\S* systemow\\S*|(?:mesajul|promptul|instrucțiunile|instructiunile) (?:din mesajul )?de sistem|systémov\\S* (?:prompt\\S*|pokyn\\S*|instrukc\\S*|zpráv\\S*|správ\\S*)',
  'sistem (?:istemi|mesaj\\S*|talimat\\S*|prompt\\S*)|(?:prompt|pesan|instruksi|arahan) sistem|(?:lời nhắc|chỉ dẫn|hướng dẫn|thông điệp) hệ thống|järjestelmä(?:kehote|viesti|ohje)\\S*|rendszer(?:prompt|üzenet|utasítás)\\S*',
  'системн\\S* (?:промпт\\S*|подсказк\\S*|инструкц\\S*|сообщени\\S*|повідомлен\\S*|інструкц\\S*)|(?:μήνυμα|οδηγίες) (?:του )?συστήματος|پیام سیستمی|دستورالعمل\S* سیستم\S*|دستورهای سیستم\S*|پرامپت سیستم\S*',
  '系统提示|系統提示|系统消息|系統訊息|系統消息|系统指令|系統指令|系统说明|系統說明|システムプロンプト|システムメッセージ|システム指示|시스템 (?:프롬프트|메시지|지시|지침)',
  'सिस्टम (?:प्रॉम्प्ट|संदेश|निर्देश)|(?:موجه|رسالة|تعليمات) النظام|(?:הנחיות|הוראות|הודעת|פרומפט) המערכת|(?:ข้อความ|พรอมต์|คําสั่ง)ระบบ',
].join('|');

/** Declared stale, void, not applying, or written for something else. */
const DISMISSED = [
  "outdated|obsolete|superseded|no longer (?:valid|appl\\S*|relevant|in force|binding)|(?:do|does|don't|doesn't) not (?:apply|cover)|(?:don't|doesn't) (?:apply|cover)|predates?|(?:was|were) never meant|written for (?:a |an |the )?(?:different|other|older|previous|old)|not (?:meant|intended) for (?:this|these|you)|out of scope|inapplicable|null and void",
  'veraltet|überholt|gelten (?:hier )?nicht|gilt (?:hier )?nicht|nicht mehr gültig|nicht anwendbar|außer kraft',
  "obsolet\\S*|obsolète\\S*|desactualizad\\S*|no (?:se )?aplica\\S*|ya no (?:son|es) válid\\S*|no rigen|sin efecto|anticuad\\S*|périmée?s?|dépassée?s?|ne s'appliquen?t? pas|ne valen?t? plus|caduque?s?|ne sont plus valables",
  'desatualizad\\S*|não se aplica\\S*|já não valem|ultrapassad\\S*|superat\\S*|non si applica\\S*|non valgono|non sono più valid\\S*|decadut\\S*',
  'verouderd|achterhaald|gelden (?:ze |deze |die )?niet|nie stosujemy|nie stosuje się|nie są stosowane|nem érvényes\\S*|no s\'apliquen|no s\'aplica|ne concernent pas|اعتباری ندارند|اعتبار ندارد|منسوخ|niet van toepassing|niet meer geldig|nieaktualn\\S*|przestarza\\S*|nie obowiązuj\\S*|nie mają zastosowania',
  'устарел\\S*|устарев\\S*|не действу\\S*|не применя\\S*|недействител\\S*|неактуальн\\S*|не распространя\\S*|застарі\\S*|не діють|не застосов\\S*|недійсн\\S*',
  'geçersiz|eskimiş|güncel değil|geçerli değil|uygulanmaz|tidak berlaku|tak berlaku|usang|kedaluwarsa|tidak relevan|lỗi thời|không còn (?:hiệu lực|áp dụng|phù hợp)|không áp dụng|hết hiệu lực',
  'depășit\\S*|învechit\\S*|nu se aplic\\S*|nu mai (?:sunt|este) valabil\\S*|zastaral\\S*|neplatí|nevzťahuj\\S*|nevztahuj\\S*',
  'föråldra\\S*|inaktuell\\S*|gäller inte|gælder ikke|gjelder ikke|forældet|utdatert|foreldet|vanhentun\\S*|ei koske|eivät koske|ei päde|eivät päde|elavult|nem vonatkoz\\S*|érvénytelen|παρωχημέν\\S*|δεν ισχύ\\S*|δεν εφαρμόζ\\S*|ξεπερασμέν\\S*',
  '过时|過時|不再适用|不再適用|不适用|不適用|失效|作废|作廢|不再有效|古い|適用されません|適用外|当てはまりません|対象外|오래된|적용되지 않|무효|유효하지 않|해당되지 않',
  'पुरान\\S*|लागू नहीं|अमान्य|قديمة|لا تنطبق|غير سارية|لم تعد سارية|מיושנ\\S*|אינן חלות|לא חלות|אינן תקפות|ล้าสมัย|ไม่มีผล|ใช้ไม่ได้',
].join('|');

const NEAR = 100;
const DISMISSED_SYSTEM = new RegExp(`(?:${SYSTEM_INSTRUCTIONS})[^.!?\\u3002]{0,${NEAR}}?(?:${DISMISSED})|(?:${DISMISSED})[^.!?\\u3002]{0,${NEAR}}?(?:${SYSTEM_INSTRUCTIONS})`);
/** Cheap first look: nothing of the model's instructions is named in most sentences. */
const NAMES_SYSTEM = new RegExp(SYSTEM_INSTRUCTIONS);
/** A tool that sets a bot's or agent's system prompt talks of the old one being replaced: its own job. */
const CONFIGURES_A_PROMPT = /\b(?:sets?|updates?|replaces?|changes?|edits?|configures?|stores?|saves?)\b[^.!?]{0,40}\bsystem[- ]?(?:prompt|message)s?\b[^.!?]{0,30}\b(?:of|for) (?:the |a |an |your |this )?(?:bot|chatbot|agent|assistant|model|project|workspace|persona)\b/;

/** Cheap look for the cue gate: the text names the model's instructions somewhere. */
export function namesSystemInstructions(text: string): boolean {
  return NAMES_SYSTEM.test(text);
}

/** Where a sentence declares the model's own instructions stale or not applying; null when it does not. */
export function dismissesSystemInstructions(sentence: string): RegExpExecArray | null {
  if (!NAMES_SYSTEM.test(sentence) || CONFIGURES_A_PROMPT.test(sentence)) return null;
  return DISMISSED_SYSTEM.exec(sentence);
}
