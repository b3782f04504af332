// A small multilingual lexicon (zh, ja, ko, es, fr, de, ru, ar) for the override and concealment rules, and for directives next to credential paths.
//
// Path literals, URLs and role tokens are language independent and live in patterns.ts. Paraphrase
// coverage is left to an optional classifier tier (SANITIZE.md), which may only add flags.
import { gateOf, gateReOf, T_STRONG, type Pattern } from './patterns.js';
import type { RuleId, Severity } from './types.js';

/** Sentence-internal gap that also stops at CJK sentence ends. */
const g = (n: number): string => `(?:[^.!?\\n\u3002\uff01\uff1f]|[.!?](?=\\S)){0,${n}}?`;

const p = (id: string, rule: RuleId, src: string, action: 'block' | 'flag', severity: Severity, reason: string): Pattern => ({
  id,
  rule,
  re: new RegExp(src, 'g'),
  action,
  severity,
  reason,
  gate: gateOf(id),
  gateRe: gateReOf(id),
});

const OVERRIDE = 'tells the model to ignore its previous instructions';
const CONCEAL = 'asks the model to hide something from the user';

/** Matched on the NFKC + lower-case view without confusable folding (Cyrillic stays Cyrillic). */
export const PLAIN_LEXICON: readonly Pattern[] = [
  p('override.zh', 'instruction-override',
    '(?:忽略|无视|無視|忽视|忽視|不要理会|不要理會|忘记|忘記|忘掉)(?:掉)?(?:你)?(?:之前|以前|先前|上面|上述|以上|前面|所有|全部|原来|原來|原有)(?:的)?(?:所有|全部)?(?:的)?(?:指令|指示|说明|說明|提示词|提示詞|提示|规则|規則|命令|设定|設定|系统提示|系統提示)',
    'block', 'high', OVERRIDE),
  p('override.ja', 'instruction-override',
    '(?:以前|これまで|前|上記|上|先|元)の(?:すべての|全ての|全部の)?(?:指示|命令|指令|ルール|プロンプト|設定|システムプロンプト)を(?:すべて|全て)?(?:無視|忘れ)|(?:すべて|全て)の(?:指示|命令|指令)を(?:無視|忘れ)',
    'block', 'high', OVERRIDE),
  p('override.ko', 'instruction-override',
    '(?:이전|위의|앞의|기존|모든) ?(?:의 )?(?:모든 )?(?:지시|지침|명령|규칙|프롬프트|시스템 프롬프트)(?:사항)?(?:을|를|은|는)? ?(?:모두 )?(?:무시|잊어)',
    'block', 'high', OVERRIDE),
  p('override.ru', 'instruction-override',
    '(?:игнорируй|игнорируйте|проигнорируй|проигнорируйте|забудь|забудьте|не обращай внимания на) (?:все |всё )?(?:предыдущие|прежние|прошлые|вышеуказанные|предшествующие|системные|изначальные) (?:инструкции|указания|правила|команды|директивы|промпты)',
    'block', 'high', OVERRIDE),
  p('override.ar', 'instruction-override',
    '(?:تجاهل|تجاهلي|تجاهلوا|انس|إنس) (?:جميع |كل )?(?:التعليمات|الأوامر|الإرشادات|التوجيهات|القواعد) (?:السابقة|الأصلية|السابقه|أعلاه)',
    'block', 'high', OVERRIDE),
  p('conceal.zh', 'concealment',
    '(?:不要|别|別|切勿|请勿|請勿|不得|不能|千万不要)(?:告诉|告訴|通知|提及|提到|透露|让|讓)(?:给)?(?:用户|用戶|使用者)|(?:对|對)(?:用户|用戶|使用者)保密|向(?:用户|用戶|使用者)隐瞒|(?:不要|别|別|勿)(?:向|对|對|跟)(?:用户|用戶|使用者)(?:提及|透露|说|說|提起|提到)',
    'flag', 'low', CONCEAL),
  p('conceal.ja', 'concealment',
    'ユーザー?(?:に|には)(?:は)?(?:言わない|伝えない|知らせない|教えない|話さない|言及しない|秘密)|ユーザー?に(?:知られない|気づかれない)よう',
    'flag', 'low', CONCEAL),
  p('conceal.ko', 'concealment',
    '사용자(?:에게|한테) ?(?:는 )?(?:말하지|알리지|알려주지|언급하지|공개하지) ?(?:마|말|않)',
    'flag', 'low', CONCEAL),
  p('conceal.ru', 'concealment',
    'не (?:говори|сообщай|рассказывай|упоминай|показывай)(?:те)? (?:об этом |ничего )?пользовател[юя]|без ведома пользователя|скрой(?:те)? (?:это )?от пользователя',
    'flag', 'low', CONCEAL),
  p('conceal.ar', 'concealment',
    'لا (?:تخبر|تُخبر|تذكر|تُعلم|تعلم|تقل|تخبري) (?:هذا )?(?:ال|لل|ل)?مستخدم|دون (?:إخبار|علم|إعلام) (?:ال)?مستخدم',
    'flag', 'low', CONCEAL),
  // Verb after the path (SOV: ja, ko) or before it (zh, ru, ar): credential paths are language independent.
  p('credential.directive-i18n', 'credential-exfil',
    `(?:读取|讀取|读|讀|打开|打開|发送|發送|传递|傳遞|附加|包含|上传|上傳|复制|複製|粘贴|прочитай|прочти|открой|отправь|передай|включи|приложи|скопируй|اقرأ|افتح|أرسل|ارسل|أرفق|مرر|انسخ)${g(120)}(?:${T_STRONG})|(?:${T_STRONG})${g(120)}(?:読み取|読み込|読んで|開いて|送信|送って|渡して|含めて|添付|貼り付け|읽어|읽고|열어|보내|전달|포함|첨부|복사)`,
    'block', 'critical', 'asks the model to read or send a credential file'),
];

/** Latin-script languages, matched on the same skeleton view as English. */
export const LATIN_LEXICON: readonly Pattern[] = [
  p('override.es', 'instruction-override',
    '\\b(?:ignora|ignore|ignorar|olvida|olvidar|descarta|omite)\\b (?:todas |todos |las |los |tus |sus ){0,3}(?:instrucciones|indicaciones|reglas|directrices|[oó]rdenes) (?:anteriores|previas|de arriba|del sistema|originales)',
    'block', 'high', OVERRIDE),
  p('override.fr', 'instruction-override',
    '\\b(?:ignore|ignorez|ignorer|oublie|oubliez|oublier)\\b (?:toutes |tous |les |tes |vos |des ){0,3}(?:instructions|consignes|r[eè]gles|directives|indications) (?:pr[eé]c[eé]dentes|ant[eé]rieures|ci-dessus|du syst[eè]me|initiales|originales)',
    'block', 'high', OVERRIDE),
  p('override.de', 'instruction-override',
    '\\b(?:ignoriere|ignorieren sie|ignoriert|vergiss|vergessen sie|missachte)\\b (?:alle |die |deine |ihre |sämtliche ){0,2}(?:(?:bisherigen|vorherigen|obigen|vorigen|früheren|vorangegangenen|alten) (?:anweisungen|instruktionen|regeln|vorgaben|befehle)|(?:anweisungen|instruktionen|systemanweisungen) (?:von oben|davor))',
    'block', 'high', OVERRIDE),
  p('conceal.es', 'concealment',
    '\\bno (?:se lo |le |lo )?(?:digas|menciones|informes|cuentes|reveles|muestres) (?:nada |esto )?(?:al|a la) usuari[oa]\\b|\\bsin (?:decirle|informar|avisar|notificar)(?:le)? al usuari[oa]\\b',
    'flag', 'low', CONCEAL),
  p('conceal.fr', 'concealment',
    "\\bne (?:le |lui |leur )?(?:dis|dites|mentionne|mentionnez|r[eé]v[eè]le|r[eé]v[eé]lez|montre|montrez|signale|signalez) (?:rien )?(?:pas )?(?:[aà] )?l['\u2019]utilisat(?:eur|rice)|\\bsans (?:le dire|pr[eé]venir|informer|avertir) (?:[aà] )?l['\u2019]utilisat(?:eur|rice)",
    'flag', 'low', CONCEAL),
  p('conceal.de', 'concealment',
    '\\b(?:sag|sage|sagen sie|erwähne|erwähnen sie|verrate|verraten sie|zeige|zeigen sie)\\b (?:es |das |dies |davon |nichts )?(?:dem |der )?(?:benutzer|nutzer|anwender)(?:in)? (?:nichts|nicht)\\b|\\bohne (?:den |die )?(?:benutzer|nutzer|anwender)(?:in)? (?:zu )?(?:informieren|benachrichtigen|fragen|warnen)\\b|\\b(?:nicht|niemals|keinesfalls) (?:dem |der )?(?:benutzer|nutzer|anwender)(?:in)? (?:sagen|mitteilen|zeigen|verraten|erzählen)\\b',
    'flag', 'low', CONCEAL),
  p('credential.directive-latin', 'credential-exfil',
    `\\b(?:lee|leer|abre|abrir|envía|envia|enviar|incluye|incluir|pasa|pasar|adjunta|copia|lis|lire|ouvre|ouvrir|envoie|envoyer|inclus|inclure|passe|passer|joins|copie|lies|lesen|öffne|öffnen|sende|senden|füge|übergib|übergeben|kopiere|hänge)\\b${g(120)}(?:${T_STRONG})`,
    'block', 'critical', 'asks the model to read or send a credential file'),
];
