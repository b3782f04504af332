// Data slots hold data: a default, enum member, example, const, title or property name that reads as a sentence to someone.
//
// A schema's data slots are values the model copies into arguments or reads as labels; no real
// server needs a sentence addressed to the model there, a credential file, an outside address in
// prose, or another server's tool name. Each of those is withheld (SANITIZE.md `data-slot-prose`).
// A bare URL or path as a default (`https://api.example.com`, `./output`) is data and passes.
import { expandsSecret, placeholderOfContext } from './context-fill.js';
import { ENV_FILE_PATH, I18N_ALL, I18N_EXFIL_TARGET, I18N_PASTE, OTHERS_SECRET, OUTSIDE_ADDRESS, SECRET, SYSTEM_PATH } from './directive-lexicon.js';
import type { Hit, ScanOptions } from './semantic.js';
import { namesSystemInstructions } from './system-dismissed.js';
import { waivesAsking } from './user-overruled.js';
import { SECRET_STORE, takesPath } from './secret-paths.js';
import { holderOf, propertyPath, type Slot } from './walk.js';

/** Second person or an order: prose that speaks to someone (a flag alone: a default system prompt does too). */
const ADDRESSED = /\b(?:you|your|yours|please|must|always|never|do not|don't|make sure|remember to)\b/;
/** The model named as the one addressed, or an order to drop what it was told. */
const TO_THE_MODEL =
  /\b(?:assistants?|models?|ai|llms?|agents?|claude|chatgpt) ?[:,]|^(?:assistant|llm|ai agent|agent) |\b(?:the model|ai agents?|llms?|ai assistants?)\b|\b(?:ignore|disregard|forget|override) (?:all |any |the |your |previous |prior |above )(?![^.!?]{0,30}\b(?:for|in|on) (?:this|the|that|each|every) (?:line|file|project|block|folder|directory|repo|repository|workspace)\b)/;
/**
 * A property name that speaks to the model: the model, then an obligation ("assistant must ..."), a
 * greeting to it, or an order to drop what it was told (not a linter's "ignore all errors in this file").
 */
const KEY_TO_THE_MODEL =
  /^(?:assistant|llm|ai|agent|model|the model|claude|chatgpt) (?:must|should|shall|always|never|please)\b|\b(?:dear|hey|attention|note to(?: the)?) (?:assistant|llm|ai|agent|model)s?\b|\b(?:ignore|disregard|forget|override) (?:all|any|the|your|previous|prior|above)\b(?![^.!?]{0,30}\b(?:for|in|on) (?:this|the|that|each|every) (?:line|file|project|block|folder|directory|repo|repository|workspace)\b)/;
/** Speaking as the system or waiving the user's confirmation. */
const AUTHORITY =
  /\b(?:system|admin|administrator|developer|operator|security team) (?:note|notice|message|override|directive|instruction)s? ?:|\[(?:system|admin)\]|^(?:system|assistant) ?:|\b(?:pre-?approved|auto-?approved|already (?:approved|authori[sz]ed)|no (?:user )?confirmation|skip (?:the )?confirmation|confirmation (?:is )?(?:not needed|not required|waived)|without (?:asking|confirmation|confirming|the user))\b/;
const CONVERSATION_WORDS = /\b(?:(?:the|this|your|our|current|full|entire|whole) (?:conversation|chat history|chat so far)|previous messages|your (?:system prompt|instructions)|transcript of (?:the|this|our))\b/;
/** A URL, a mail address or an IP: data on its own, counted out before words are counted. */
/** Moving data somewhere: an order to send, copy or forward, with where to. */
const MOVE_TO =
  /(?:^|[.;,:!?(] |\b(?:also|always|then|and|please|first) )(?:send|forward|copy|email|mail|upload|post|transfer|share|leak|bcc|cc|mirror|sync|push|pipe)\b[^.!?]{0,60}\b(?:to|into|at|onto|with)\b/;
/** Secrets the parameter wants from what the model has seen (not the user's own key for this tool). */
const SEEN_SECRETS = /\b(?:you (?:have|'ve|had) (?:seen|saw|read|used|got)|you know|in (?:this|the) (?:session|conversation|chat|context)|from (?:memory|the conversation|earlier))\b/;
const STORED_INPUT =
  /\b(?:system prompt (?:for|of) (?:the |this |a |your |new )?(?:bot|agent|assistant|chatbot|persona|gpt|model|app)|new (?:system prompt|instructions?|prompt|values?|password|secret|key)|to (?:save|set|store|write|update|apply|configure)|(?:will be|are|is|get) (?:saved|set|stored|written|applied)|replaces? the (?:previous|existing|current)|you want to keep)\b/;
/** A property name that asks rather than names (`all_env_and_api_keys`, not `root_password`). */
const ASKING = /\b(?:all|every|any|full|entire|whole|dump|include|including|copy|paste|read|contents?|current|seen|your|my|system|process|raw|stored|saved|other)\b/;
/** The ends of setting names (`action.auto_create_index.enabled`): a switch or a number, not a tool. */
const SETTING_END = /[_.-](?:enabled|disabled|allowed|count|limit|ids?|uuid|type|name|mode|level|size|timeout|interval|max|min|threshold|ratio|percent|seconds|ms|flag)$/;
/** "All (of the) API keys", "every secret you have": the quantifier is on the secret, not elsewhere in the text. */
const QUANTIFIED_SECRET =
  /\b(?:all|every|any|each)(?: of)?(?: (?:the|your|my|its|their|available|known|current|stored|saved|other|[a-z]+)){0,2} (?:api[ _-]?keys?|access tokens?|tokens|secrets?|passwords?|credentials|private keys?|environment variables?|env vars?|cookies|keys)\b(?! names?\b)/;
/** Secrets by their environment variable names: OPENAI_API_KEY, STRIPE_SECRET_KEY, GITHUB_TOKEN (the reading is lower case). */
const SECRET_VARIABLE = /\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*_(?:API_KEY|SECRET_KEY|SECRET|TOKEN|ACCESS_KEY|ACCESS_TOKEN|PASSWORD|PRIVATE_KEY|AUTH_TOKEN)\b/g;
/** The path is named as refused ("System paths (e.g. ~/.ssh) are rejected"). */
const REJECTED = /\b(?:rejected|not allowed|forbidden|denied|refused|blocked|disallowed)\b/;
/** The value itself asked for: paste it, "the value of", "fill it with". */
const VALUE_OF = /\b(?:paste|the values? of|value of|fill (?:it |this )?(?:in )?with|valeur de|valor de|wert von|valore di|wartość|значение)\b|\bremplir avec/;
const FILE_CONTENTS = /\b(?:contents?|inhalt|contenido|contenu|conteúdo|contenuto|zawartość|inhoud|içeri\S*)\b|содержим|вміст|内容|내용|सामग्री/;
/** Speaking as the system, or waiving the user's say, in the other languages. */
const I18N_AUTHORITY =
  /systemhinweis|systemnachricht|mensaje del sistema|mensagem do sistema|message syst[eè]me|messaggio di sistema|komunikat systemowy|системное сообщение|системне повідомлення|sistem mesajı|系统消息|系統訊息|システムメッセージ|시스템 메시지|(?:vom|von der) administrat\S* freigegeben|keine rückfrage|ohne rückfrage|sin (?:pedir )?confirmación|sans (?:demander )?confirmation|sem (?:pedir )?confirmação|senza (?:chiedere )?conferma|bez (?:pytania|potwierdzenia)|без подтверждения|без підтвердження|onay (?:gerekmez|istemeden)|无需确认|無需確認|確認不要|확인 (?:불필요|없이)/;
/** Put it here, in the languages of the lexicons. */
const PUT_HERE = /\b(?:here|hier|aquí|aqui|ici|qui|tutaj|sem|buraya|burada|ide|di sini|ở đây)\b|здесь|сюда|сюди|тут|כאן|هنا|اینجا|यहाँ|यहां|ที่นี่|这里|這裡|此处|ここ|여기/;
/** The conversation, in the same languages. */
const I18N_CONVERSATION_WORD = /\b(?:conversation|chat|gesprächs?verlauf|gespräch\S*|percakapan|conversación|conversa|conversazione|gesprek|rozmow\S*|konverzac\S*|sohbet\S*|konuşma\S*|cuộc trò chuyện|beszélgetés\S*|samtal\S*|keskustelu\S*|mazungumzo)\b|разговор|диалог|переписк|розмов|συνομιλ|对话|對話|会話|대화|שיחה|محادثة|گفتگو|बातचीत|บทสนทนา/;
/** A secret the user may have typed: a password, a PIN, a card number, an IBAN, a token. */
const SECRET_WORD = /\b(?:pin|passwor\S*|passwort\S*|contraseña|mot de passe|senha|hasło|heslo|şifre|kata sandi|mật khẩu|card number|kartennummer|numéro de carte|número de tarjeta|nomor kartu|iban|tokens?|api keys?|kod jednorazow\S*|one-time code|pankkitunnukset)\b|-passwort|пароль|密码|密碼|パスワード|비밀번호|카드번호|주민등록번호|סיסמה|كلمة المرور|رمز عبور|पासवर्ड/;
/** The model addressed by name before an order, in the languages of the lexicons. */
const ADDRESSES_THE_MODEL = /(?:^|[\s(«"'])(?:assistant|asistente|assistente|assistent|asystenci\S*|asystent|asistan|asisten|avustaja|asszisztens|model|modelo|modèle|modello|модель|ассистент|помощник|помічник|trợ lý|어시스턴트|सहायक|助手|アシスタント|βοηθέ)\s*[:,]|أيها المساعد|أيها النموذج|(?:^|\s)המודל\s*[:,]|دستیار\s*[:،]/;
/** Put it in, add it, send it along. */
const ADD_VERB = /\b(?:include|add|append|attach|send|put|insert|paste|copy|añade|agrega|incluye|inclua|adicione|aggiungi|includi|füge|ajoute[zr]?|voeg|stuur|dodaj|dopisz|přidej|pridaj|ekle|thêm|tambahkan|lisää|mets)\b|добавь|добавьте|додай|вставь|أضف|הוסף|اضافه کن|जोड़|डालें|เพิ่ม|添加|附上|追加|入れて|넣으세요|추가/;
/** The process environment, in the same languages. */
const ENVIRONMENT = /\b(?:environment|env vars?|entorno|ambiente|umgebung|environnement|omgeving|środowisk\S*|prostředí|ortam)\b|окружени|среды|середовищ|环境|環境|환경|محیط|סביבה|بيئة/;
/** One secret by its variable name (upper case in the original). */
const SECRET_VARIABLE_ONE = /\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*_(?:API_KEY|SECRET_KEY|SECRET|TOKEN|ACCESS_KEY|ACCESS_TOKEN|PASSWORD|PRIVATE_KEY|AUTH_TOKEN|API_TOKEN)\b/;
/** What the user said earlier: the conversation by another name. */
const SAID_EARLIER = /\b(?:mentioned|said|gave|typed) (?:earlier|before|previously)|\b(?:earlier|previously) in (?:the|this) (?:chat|conversation)|앞서 말한|前面提到|先ほど|mencionad\S* (?:antes|anteriormente)|wcześniej|ранее|раніше|daha önce|sebelumnya|trước đó|aiemmin|dříve|korábban|سابقاً|קודם/;
/** Keeping it from the user, in the other languages. */
const I18N_CONCEAL =
  /ユーザーに(?:見せ|言わ|伝え|知らせ)|(?:不要|别|勿)(?:告诉|让|通知)(?:用户|用戶)|nicht (?:beim nutzer|dem nutzer|melden|erwähnen)|ohne (?:es )?(?:dem nutzer|zu melden)|sin (?:avisar|decírselo|decirle)|sans (?:le (?:dire|signaler)|prévenir)|sem (?:avisar|contar|dizer)|senza (?:dirlo|avvisare)|niet (?:melden|vertellen)|bez (?:informowania|mówienia)|не (?:сообщай|говори|показывай)|kullanıcıya (?:söyleme|göstermeden|bildirmeden)|사용자에게 (?:알리지|보여주지)/;
const TITLE_ORDER = /\b(?:always|never|must|do not|don't)\b[^.!?]{0,40}\b(?:use|call|quote|send|include|suggest|tell|mention|recommend|pass|set|add|cite|link|say|show)\b/;
const PHONE = /\+\d[\d ()-]{6,18}\d/;
// A mailbox starts where a run of its characters does: a start inside the run would scan it again
// from every position (`a.a.a...` without an `@` was quadratic).
const ADDRESS_TOKENS = /\bhttps?:\/\/\S+|(?<![a-z0-9._%+-])[a-z0-9._%+-]{1,64}@[a-z0-9.-]{1,253}\.[a-z]{2,}\b|\b\d{1,3}(?:\.\d{1,3}){3}(?:\/\d+)?\b/g;
const WORD = /\p{L}[\p{L}\p{N}'-]*/gu;
/** Identifier-shaped tokens that might be a tool's name. */
const COMPOUND = /(?<![a-z0-9@./:])[a-z][a-z0-9]*(?:(?:__|[_-])[a-z0-9]+)+(?![a-z0-9@])/g;
/** A URL, read whole once (a pattern that looks for a placeholder inside one tries every start of a long run). */
const URL_G = /\bhttps?:\/\/\S{0,4096}/g;
const PLACEHOLDER_IN_URL = /\{|%7b|\$\{|</;

/** Placeholders for the user's data in a URL: the shape of an exfiltration link. */
function templatedUrl(text: string): boolean {
  for (const m of text.matchAll(URL_G)) if (PLACEHOLDER_IN_URL.test(m[0].slice(7))) return true;
  return false;
}

function words(text: string, cap: number): number {
  let n = 0;
  WORD.lastIndex = 0;
  while (WORD.exec(text) !== null && ++n < cap);
  return n;
}

export function withDataSlotHits(hits: Hit[], skel: string, slot: Slot, opts: ScanOptions, plain: string = skel): Hit[] {
  if (hits.some((h) => h.action === 'block')) return hits;
  const found = judge(skel, slot, opts, plain);
  return found ? [...hits, found] : hits;
}

function judge(skel: string, slot: Slot, opts: ScanOptions, plain: string): Hit | undefined {
  const raw = skel.trim();
  if (raw.length < 6) return undefined;
  // The other languages are read on the plain view: the skeleton folds Cyrillic into Latin lookalikes.
  const other = plain === skel ? raw : `${raw} ${plain.trim()}`;
  if (!slot.data) return parameterSecrets(raw, slot, other, opts.own);
  if (n0(raw) >= 4 && ENV_FILE_PATH.test(raw) && (I18N_PASTE.test(other) || FILE_CONTENTS.test(other))) return dataHit(slot, skel, 'holds a credential or system file path', 'data-slot.path');
  // Identifier-shaped values read as words ("assistant-must-first-read_file-.env").
  const text = /^[a-z0-9_.-]+$/.test(raw) && /[a-z][_-][a-z]/.test(raw) ? raw.replace(/[_-]+/g, ' ') : raw;
  const prose = text.replace(ADDRESS_TOKENS, ' ');
  const n = words(prose, 6);
  const hit = (reason: string, id: string, action: Hit['action'] = 'block'): Hit => ({
    rule: 'data-slot-prose',
    id,
    action,
    severity: action === 'block' ? 'high' : 'low',
    reason: `${where(slot)} ${reason}`,
    start: 0,
    end: skel.length,
  });
  // An action parameter's values are this tool's own verbs (`fill_form` as a browser tool's `action`):
  // one spelt like another server's tool is still an argument of this one.
  const ownVerb = slot.cls !== 'key' && ACTION_PARAMETER.test(parameterOf(slot));
  const tool = ownVerb ? undefined : (otherTool(raw, opts) ?? (slot.cls === 'key' || text !== raw ? otherToolInWords(slot.value, opts) : undefined));
  if (tool) return hit(`names ${tool}, another server's tool`, 'data-slot.tool');
  const path = SYSTEM_PATH.exec(text);
  // A bare path is data when the parameter is about it (a kubeconfig default of `~/.kube/config`).
  if (path) {
    const file = text.slice(path.index).split(/[\s`'"]/)[0]!;
    // The sentence is counted around the path, not the path's pieces (`~/.config/prose-lint/config.yml`
    // is one word); a secret store is never data, whatever the parameter (SECRET_STORE, checked on the
    // whole value: a default may hold two paths).
    const sentenceWords = words(prose.replace(file, ' '), 6);
    if (sentenceWords >= 4 || !aboutPath(slot, text, opts.own)) return hit('holds a credential or system file path', 'data-slot.path');
  }
  // A property's name is read split into words, which takes a path apart (`token_from_~/.git-credentials`).
  if (slot.cls === 'key' && /[~/]/.test(slot.value) && SYSTEM_PATH.test(slot.value.toLowerCase())) return hit('holds a credential or system file path', 'data-slot.path');
  if (templatedUrl(text)) return hit('holds a URL with placeholders for data', 'data-slot.url');
  // What a call carries when the model names nothing (a default, a const), or one of the few values
  // it may pick (an enum member): a mailbox there, for a parameter that says where things go, or a
  // URL to a public IP address, is a recipient the user did not name. A mailbox elsewhere (a new
  // user's `email` placeholder) is only flagged.
  const offered = holderOf(slot.path, FIXED) !== undefined || enumMember(slot);
  if (offered && PUBLIC_IP_URL.test(text)) return hit('fixes an outside address the user did not give', 'data-slot.outside');
  if (offered && MAILBOX.test(text)) {
    const names = propertyPath(slot.path).map((n) => n.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/[_.-]+/g, ' ').toLowerCase()).join(' ');
    return RECIPIENT.test(names) ? hit('fixes a recipient the user did not give', 'data-slot.outside') : hit('fixes a mail address', 'data-slot.outside', 'flag');
  }
  // A bank account fixed in or offered by the schema is a payee the user did not name (ISO 13616's
  // check digits or a parameter for an account tell it from an ISIN of the same shape).
  if (offered && IBAN.test(slot.value) && payeeAccount(slot)) return hit('fixes a bank account the user did not give', 'data-slot.payee');
  if (AUTHORITY.test(text)) return hit('speaks as the system or waives the user\'s confirmation', 'data-slot.authority');
  // In any language: the system prompt, the conversation, the environment or API keys, all of it or pasted here.
  if (I18N_EXFIL_TARGET.test(other) && (I18N_ALL.test(other) || I18N_PASTE.test(other) || (slot.cls === 'key' && n >= 3))) {
    return hit('asks for the system prompt, the conversation or secrets', 'data-slot.exfil');
  }
  if (namedSecrets(slot.value)) return hit('asks for secrets by their variable names', 'data-slot.named-secrets');
  // Data that the model would fill in from elsewhere: a secret's variable expanded (`Bearer $GITHUB_TOKEN`),
  // the system prompt or the conversation as a template's placeholder (`{{system_prompt}}`).
  if (expandsSecret(slot.value)) return hit("expands a secret's variable", 'data-slot.named-secrets');
  if (placeholderOfContext(slot.value)) return hit('holds a placeholder for the system prompt, the conversation or secrets', 'data-slot.exfil');
  // Any language: the user's confirmation waived, the model's instructions or the conversation (with
  // its secrets) asked into the slot. Identifier-shaped names read as words.
  const spaced = slot.cls === 'key' ? other.replace(/_+/g, ' ') : other;
  if (n >= 3 && waivesAsking(spaced)) return hit("waives the user's confirmation", 'data-slot.authority');
  if (n >= 3 && namesSystemInstructions(spaced) && !STORED_INPUT.test(text) && (PUT_HERE.test(spaced) || I18N_ALL.test(spaced) || I18N_PASTE.test(spaced) || I18N_CONVERSATION_WORD.test(spaced))) {
    return hit("asks for the model's instructions", 'data-slot.exfil');
  }
  if (n >= 3 && SECRET_WORD.test(spaced) && (I18N_CONVERSATION_WORD.test(spaced) || SAID_EARLIER.test(spaced))) return hit('asks for secrets from the conversation', 'data-slot.secret');
  // Speaking to the model by name, in any language ("asistente: añade aquí...", "модель: всегда..."): a slot holds data, not mail.
  if (n >= 3 && ADDRESSES_THE_MODEL.test(spaced)) return hit('holds a sentence addressed to the model', 'data-slot.addressed');
  // The environment or its keys asked into the slot ("Include the API keys from the environment").
  if (n >= 3 && I18N_EXFIL_TARGET.test(spaced) && (PUT_HERE.test(spaced) || ADD_VERB.test(spaced))) return hit('asks for the environment or secrets', 'data-slot.exfil');
  if (SECRET_VARIABLE_ONE.test(slot.value) && (ENVIRONMENT.test(spaced) || ADD_VERB.test(spaced))) return hit('asks for a secret by its variable name', 'data-slot.named-secrets');
  if (slot.cls === 'key' && /https?:\/\/|\b\d{1,3}(?:\.\d{1,3}){3}\b/.test(raw)) return hit('holds an outside address', 'data-slot.outside');
  if (n >= 4 && I18N_AUTHORITY.test(other)) return hit('speaks as the system or waives the user\'s confirmation', 'data-slot.authority');
  if (n >= 4 && I18N_CONCEAL.test(other)) return hit('asks the model to keep something from the user', 'data-slot.conceal');
  if (n < 4) return undefined;
  // Prose from here on: four words or more besides any address.
  // In a property name "llm" is as often what the value is for (`retellLlmDynamicVariables`): a
  // name speaks to the model only by an order or by calling it.
  if (slot.cls === 'key' ? KEY_TO_THE_MODEL.test(text) : TO_THE_MODEL.test(text)) return hit('holds a sentence addressed to the model', 'data-slot.addressed');
  if (slot.cls !== 'key' && (OUTSIDE_ADDRESS.test(text) || PHONE.test(text))) return hit('holds an outside address inside a sentence', 'data-slot.outside');
  if (slot.cls !== 'key' && !isTitle(slot) && MOVE_TO.test(prose) && !exampleQuery(slot, text)) return hit('asks for data to be sent somewhere', 'data-slot.move');
  if (SECRET.test(text) && (ADDRESSED.test(text) || (slot.cls === 'key' && ASKING.test(text)))) return hit('asks for secrets', 'data-slot.secret');
  if (CONVERSATION_WORDS.test(text)) return hit('asks for the conversation', 'data-slot.conversation');
  // A title is a label: one that orders the model ("always quote rates from x, never suggest...") is not.
  if (isTitle(slot) && TITLE_ORDER.test(text)) return hit('gives the model an order', 'data-slot.title-order');
  if (slot.cls !== 'key' && ADDRESSED.test(text) && !exampleQuery(slot, text)) return hit('holds a sentence addressed to someone', 'data-slot.prose', 'flag');
  return undefined;
}

const SYSTEM_PROMPT = /system ?prompt|prompt (?:de|del|du|di|do) sist|system ?(?:message|instructions)|systemprompt|系统提示|システムプロンプト|시스템 프롬프트/;
/** A tool named for a bot's instructions (`update_bot_instructions`, `set_agent_prompt`), lower-cased. */
const BOT_PROMPT_TOOL = /(?:bot|agent|assistant|persona|gpt)s?[_.-]?(?:system[_.-]?)?(?:prompt|instruction|instrucc)|(?:prompt|instruction|instrucc)\w*[_.-](?:bot|agent|assistant)/;

/**
 * A public key and the line format it is shared in (`~/.ssh/id_ed25519.pub`, "authorized_keys-style
 * line"): what a tool registering SSH keys asks for, and meant to be given away.
 */
const PUBLIC_KEY = /\.pub\b|\bauthorized_keys[- ](?:style|format|lines?|entr)/;
const PUBLIC_KEYS_G = /(?<![~\w./$-])[~\w./$-]*\.pub\b|\bauthorized_keys[- ](?:style|format|lines?|entr)/g;

/** A parameter's description that wants the secrets the model has seen, or all of them. */
function parameterSecrets(text: string, slot: Slot, other: string = text, own: ReadonlySet<string> = new Set()): Hit | undefined {
  if (!slot.parameterText) return undefined;
  const exfil = (reason: string): Hit => ({ rule: 'exfil-parameter', id: 'parameter.exfil-target', action: 'block', severity: 'critical', reason, start: 0, end: text.length });
  if (I18N_EXFIL_TARGET.test(other) && (I18N_ALL.test(other) || I18N_PASTE.test(other)) && !STORED_INPUT.test(text)) {
    // A server that writes the instructions of the user's own bots takes their whole system prompt.
    if (SYSTEM_PROMPT.test(other) && [...own].some((tool) => BOT_PROMPT_TOOL.test(tool))) {
      return { ...exfil("a parameter takes a bot's system prompt, on a server that writes bots' instructions"), action: 'flag', severity: 'low' };
    }
    return exfil('a parameter asks for the system prompt, the conversation or secrets');
  }
  if (namedSecrets(slot.value)) return exfil('a parameter asks for secrets by their variable names');
  const privateText = PUBLIC_KEY.test(text) ? text.replace(PUBLIC_KEYS_G, ' ') : text;
  if ((SYSTEM_PATH.test(privateText) || ENV_FILE_PATH.test(privateText)) && (I18N_ALL.test(other) || I18N_PASTE.test(other) || FILE_CONTENTS.test(other)) && !STORED_INPUT.test(text) && !REJECTED.test(text)) {
    return exfil('a parameter asks for the contents of a system file or a secret store');
  }
  if (!(OTHERS_SECRET.test(text) || (SECRET.test(text) && SEEN_SECRETS.test(text)))) return undefined;
  if (!SEEN_SECRETS.test(text) && !QUANTIFIED_SECRET.test(text)) return undefined;
  // What the tool stores ("environment variables to save for the application; include every
  // variable you want to keep") is the user's own input, unless it is what the model has seen.
  if (!SEEN_SECRETS.test(text) && STORED_INPUT.test(text)) return undefined;
  return { rule: 'exfil-parameter', id: 'parameter.seen-secrets', action: 'block', severity: 'critical', reason: 'a parameter asks for secrets the model has seen or all of them', start: 0, end: text.length };
}

/** Tool names spelt inside an identifier: `always_bcc_on_every_send_email` holds send_email. */
function otherToolInWords(identifier: string, opts: ScanOptions): string | undefined {
  if (!opts.index || SETTING_END.test(identifier.toLowerCase())) return undefined;
  const parts = identifier.toLowerCase().split(/[_\-.\s]+|(?<=[a-z0-9])(?=[A-Z])/).filter(Boolean);
  // Long names only: a three-word name (`wait_for_prompt`) holding a tool's two words is chance.
  if (parts.length < 5) return undefined;
  for (let len = 2; len <= 4; len++) {
    for (let i = 0; i + len <= parts.length; i++) {
      for (const sep of ['_', '-']) {
        const name = parts.slice(i, i + len).join(sep);
        if (opts.own.has(name) || opts.params?.has(name)) continue;
        const owners = opts.index.toolOwners(name);
        if (owners.length > 0 && !owners.some((o) => o.server === opts.server)) return name;
      }
    }
  }
  return undefined;
}

function isTitle(slot: Slot): boolean {
  return slot.path[slot.path.length - 1] === 'title';
}

/** A value that is mail addresses and nothing else (`from:alice@x subject:y` is a search query). */
const MAILBOX = /^\s*(?:mailto:)?[a-z0-9._%+-]{1,64}@[a-z0-9-]{1,63}(?:\.[a-z0-9-]{1,63}){1,8}(?:\s*[,;]\s*(?:mailto:)?[a-z0-9._%+-]{1,64}@[a-z0-9-]{1,63}(?:\.[a-z0-9-]{1,63}){1,8}){0,20}\s*$/;
/** Words of a parameter that says where something goes, as parameter names spell them in the languages tools are written in. */
const RECIPIENT = new RegExp(
  '\\b(?:to|cc|bcc|cco|ccn|cci|recipients?|notify|notifications?|forward|share|shared|reviewers?|deliver|delivery|destination|invitees?|attendees?|guests?|observers?|members?|mirror|copies|copy' +
    '|destinatari[oa]s?|destinatári[oa]s?|destinataires?|destinatar[iy]?|empf(?:ae|ä|a)nger|ontvangers?|odbiorc[ay]|p[rř][ií]jemc[ei]|poluchatel\\w*|al[ıi]c[ıi]|nguoi nhan|penerima|mpokeaji|mottagare|modtagere?|mottakere?|vastaanottaja|c[ií]mzett' +
    '|copia|copie|c[oó]pia|kopie|kopia|kopya|ban sao|salinan|nakala|kopi|kopio|m[aá]solat|inoltra|reenviar|encaminhar|transf[eé]rer|weiterleiten|doorsturen|przeka[zż]\\w*)\\b',
);
/**
 * A URL to a bare public IPv4 address: not loopback, private, link-local (the cloud metadata
 * address) or carrier-grade NAT, which are local services.
 */
const PUBLIC_IP_URL =
  /(?<![a-z0-9+.-])(?:https?|s?ftp|wss?|scp|rsync):\/\/(?:[a-z0-9._%-]{1,64}@)?(?!(?:127|10|0)\.|192\.168\.|172\.(?:1[6-9]|2\d|3[01])\.|169\.254\.|100\.(?:6[4-9]|[7-9]\d|1[01]\d|12[0-7])\.)\d{1,3}(?:\.\d{1,3}){3}\b/;
/** An IBAN's shape, printed in groups of four or not (ISO 13616: two letters, two check digits, up to 30 more). */
const IBAN = /^\s*[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,4})?\s*$/;
const FIXED: ReadonlySet<string> = new Set(['default', 'const']);
const EXAMPLE: ReadonlySet<string> = new Set(['examples', 'example']);
const ACCOUNT_PARAMETER = /iban|account|payee|beneficiar|konto|cuenta|compte|conta|conto|rekening|rachun|ucet|účet|bank|payout|settlement/;
const SECURITY_PARAMETER = /isin|symbol|ticker|cusip|sedol|securit|instrument|sku/;

/** An IBAN-shaped value of a parameter for an account, or with valid check digits, and not a security's id. */
function payeeAccount(slot: Slot): boolean {
  const names = propertyPath(slot.path).join(' ').toLowerCase();
  if (SECURITY_PARAMETER.test(names)) return false;
  return ACCOUNT_PARAMETER.test(names) || ibanCheckDigits(slot.value);
}

/** ISO 13616 mod 97: the first four characters moved to the end, letters as 10..35, the number mod 97 is 1. */
export function ibanCheckDigits(value: string): boolean {
  const s = value.replace(/\s+/g, '').toUpperCase();
  let rest = 0;
  for (const ch of `${s.slice(4)}${s.slice(0, 4)}`) {
    const code = ch.charCodeAt(0);
    const digits = code >= 65 && code <= 90 ? String(code - 55) : ch;
    for (const d of digits) rest = (rest * 10 + (d.charCodeAt(0) - 48)) % 97;
  }
  return rest === 1;
}

/** An enum member: one of the few values the model may choose. */
function enumMember(slot: Slot): boolean {
  return typeof slot.path[slot.path.length - 1] === 'number' && slot.path[slot.path.length - 2] === 'enum';
}

/** Parameters whose values name what this tool does: `action`, `op`, `operation`, `mode`, `insertDataOption`. */
const ACTION_PARAMETER = /^(?:action|actions|op|operation|mode|\w+option)$/i;

/** The name of the parameter a data slot belongs to. */
function parameterOf(slot: Slot): string {
  for (let i = slot.path.length - 1; i > 0; i--) {
    if (slot.path[i - 1] === 'properties' && typeof slot.path[i] === 'string') return String(slot.path[i]);
  }
  return '';
}

/** Whether a short value (one path, or a few) is what its parameter is about (a kubeconfig default for `kubeconfig`), and no secret store. */
function aboutPath(slot: Slot, value: string, own: ReadonlySet<string>): boolean {
  const parameter = parameterOf(slot);
  const name = parameter.toLowerCase();
  if (!name) return false;
  const pathWords = value.toLowerCase().split(/[^a-z0-9]+/).filter((w) => w.length >= 3);
  if (pathWords.some((w) => name.includes(w)) || /key|identity|cert/.test(name)) return true;
  // A parameter that takes any path or command line (`["cat", "/etc/hosts"]` for `command`) names
  // files as a matter of course, but not a private key or a credential store by default.
  if (takesPath(parameter) || /command|cmd|args|argv/.test(name)) return !SECRET_STORE.test(value);
  // The server's own job: `~/.ssh` as the key directory of `list_ssh_keys`.
  for (const tool of own) if (pathWords.some((w) => tool.split(/[_.-]/).includes(w))) return true;
  return false;
}

/**
 * An example (an `examples` entry, or a value inside an example object) may be a request in a
 * user's words ("find me flights to Paris"); it only fails on the other tests.
 */
function exampleQuery(slot: Slot, text: string): boolean {
  return holderOf(slot.path, EXAMPLE) !== undefined && !/\b(?:you|your|assistant|the model|system ?:|admin ?:|ignore|disregard)\b/.test(text);
}

const VALUE_KEYWORDS: ReadonlySet<string> = new Set(['default', 'const', 'example', 'examples', 'enum']);

function where(slot: Slot): string {
  if (slot.cls === 'key') return 'a property name';
  const last = slot.path[slot.path.length - 1];
  const holder = holderOf(slot.path, VALUE_KEYWORDS);
  // A value inside a default or example object: say whose value it is.
  if (holder !== undefined && last !== holder && slot.path[slot.path.length - 2] !== holder) return `a value inside a schema ${holder}`;
  if (typeof last === 'string') return `a schema ${last}`;
  return `an ${String(slot.path[slot.path.length - 2])} entry`;
}

function otherTool(text: string, opts: ScanOptions): string | undefined {
  const index = opts.index;
  if (!index) return undefined;
  for (const m of text.matchAll(COMPOUND)) {
    const name = m[0];
    if (opts.own.has(name) || opts.params?.has(name)) continue;
    const owners = index.toolOwners(name);
    if (owners.length > 0 && !owners.some((o) => o.server === opts.server)) return name;
  }
  return undefined;
}

/**
 * Two or more secrets by their environment variable names (upper case in the original), or one
 * with its value asked for ("paste the value of GITHUB_TOKEN").
 */
function namedSecrets(original: string): boolean {
  const names = new Set(original.match(SECRET_VARIABLE) ?? []);
  return names.size >= 2 || (names.size === 1 && VALUE_OF.test(original.toLowerCase()));
}

function n0(text: string): number {
  return words(text, 6);
}

function dataHit(slot: Slot, skel: string, reason: string, id: string): Hit {
  return { rule: 'data-slot-prose', id, action: 'block', severity: 'high', reason: `${where(slot)} ${reason}`, start: 0, end: skel.length };
}
