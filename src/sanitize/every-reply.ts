// An order about every reply the model gives in the conversation, in another language: "každá odpověď
// končí odkazem ... platí pro celou konverzaci", "ทุกคําตอบของผู้ช่วยในแชทนี้". A tool's business is its own
// results; the model's answers are the user's. English is read by the directive analysis itself
// (ANSWER_SCOPE); this reads the other languages on the plain, case-folded reading of a sentence.

/** Every reply, answer or response. */
const EVERY_REPLY = new RegExp([
  '\\bjede[rns]? antwort\\b|\\balle antworten\\b|\\bcada respuesta\\b|\\btodas las respuestas\\b|\\bchaque réponse\\b|\\btoutes les réponses\\b',
  '\\bcada resposta\\b|\\btodas as respostas\\b|\\bogni risposta\\b|\\btutte le risposte\\b|\\b(?:elk|ieder) antwoord\\b|\\balle antwoorden\\b',
  '\\bka[żz]d\\S* odpowied\\S*|\\bwszystkie odpowiedzi\\b|\\bka[žz]d\\S* odpov[ěe]\\S*|\\bv[šs]echny odpov[ěe]di\\b',
  'кажд\\S* ответ\\S*|все ответы|кожн\\S* відповід\\S*|усі відповіді',
  '\\bher (?:yan[ıi]t|cevap)\\S*|\\bt[üu]m yan[ıi]tlar\\S*|\\bsetiap (?:jawaban|jawapan|balasan|respons)\\b|\\bm(?:ọi|ỗi) câu trả lời',
  'всеки отговор|всички отговори|\\bkila jibu\\b|\\bmajibu yote\\b|回答の最後に(?:は)?毎回|\\bkaikki vastaukset\\b|\\bcada resposta\\b|\\bfiecare răspuns\\S*|\\btoate răspunsurile\\b|\\b(?:varje|hvert|ethvert) svar\\b|\\b(?:alla|alle) svar\\b|\\bjokai\\S* vastau\\S*|\\bkaikki vastaukset\\b|\\bminden válasz\\S*',
  'κάθε απάντηση|每(?:一)?(?:个|個|条|條|次)?(?:回答|回复|回覆)|所有(?:的)?(?:回答|回复|回覆)|すべての(?:回答|返答|応答)|毎回の(?:回答|返答)|모든 (?:답변|응답)',
  '(?:हर|प्रत्येक) (?:जवाब|उत्तर)|كل (?:رد|إجابة)|כל תשובה|ทุกคําตอบ',
].join('|'));

/** The assistant, or the conversation as a whole: whose replies these are. */
const CONVERSATION_SCOPE = new RegExp([
  '\\b(?:asistente|assistant|assistent\\S*|assistente|asystent\\S*|asistan\\S*|asisten|asistent\\S*|avustaja\\S*|asszisztens\\S*)\\b|ассистент\\S*|помощник\\S*|помічник\\S*|trợ lý',
  '\\b(?:conversación|conversation|gesprächs?|unterhaltung|konversation\\S*|konverzac\\S*|conversa|conversazione|gesprek|rozmow\\S*|sohbet\\S*|percakapan|perbualan|conversați\\S*|samtal\\S*|samtale\\S*|keskustelu\\S*|beszélgetés\\S*|chat\\S*|czat\\S*)\\b',
  'разговор\\S*|диалог\\S*|бесед\\S*|розмов\\S*|чат\\S*|cuộc trò chuyện|συνομιλία\\S*|βοηθ\\S*',
  // Replies on any subject: not this tool's results.
  'independientemente del tema|sobre cualquier tema|zu jedem thema|unabhängig vom thema|quel que soit le sujet|su qualsiasi argomento|over elk onderwerp|na każdy temat|на любую тему|независимо от тем\\S*|για οποιοδήποτε θέμα|her konuda|bất kỳ chủ đề|topik apa pun|任何主题|任何主題|どんな話題|関係ない質問でも|어떤 주제|mazungumzo',
  '会话|會話|对话|對話|会話|チャット|アシスタント|대화|어시스턴트|채팅|बातचीत|सहायक|محادثة|مساعد|שיחה|עוזר|บทสนทนา|ผู้ช่วย|แชท|助手|助理|聊天',
].join('|'));

/** Cheap look for the cue gate: the text names every reply somewhere. */
export function namesEveryReply(text: string): boolean {
  return EVERY_REPLY.test(text);
}

/** Where a sentence gives an order about every reply of the conversation; null when it does not. */
export function ordersEveryReply(sentence: string): RegExpExecArray | null {
  const every = EVERY_REPLY.exec(sentence);
  return every !== null && CONVERSATION_SCOPE.test(sentence) ? every : null;
}
