// What the learned second opinion reads of a tool: its prose and data strings, each as hashed word,
// word-pair and letter features. The training (scripts/intent-training.ts) uses these same
// functions, so the shipped weights and the features they score can never drift apart.
import { namesEveryReply, ordersEveryReply } from './every-reply.js';
import { actionConcepts } from './hijack-by-kind.js';
import { pointerSegment } from './hash.js';
import * as cue from './directive-lexicon.js';
import * as concept from './overrule-lexicon.js';
import * as more from './overrule-more.js';
import * as sense from './intent-concepts.js';
import { SECRET_STORE, takesPath } from './secret-paths.js';
import { movesAgainstUser } from './user-overruled.js';
import { dismissesSystemInstructions, namesSystemInstructions } from './system-dismissed.js';
import type { CatalogIndexLike } from './types.js';

/** Where a string sits: top-level title or description, a schema's prose, a data slot, a property name. */
export type IntentFieldKind = 'title' | 'desc' | 'pdesc' | 'data' | 'pname';

export interface IntentField {
  readonly kind: IntentFieldKind;
  /** The string as the model reads it (a property name split into words). */
  readonly text: string;
  /** The string as it is in the definition (a property name unsplit). */
  readonly raw: string;
  /** RFC 6901 pointer into the entity; for a property name, that member's pointer. */
  readonly pointer: string;
}

/** Nested schemas deeper than this are not read: the rules already withhold what they cannot read. */
const MAX_DEPTH = 6;

/** Every prose and data string of a tool definition, in a fixed order. */
export function intentFields(tool: unknown): IntentField[] {
  const out: IntentField[] = [];
  if (typeof tool !== 'object' || tool === null) return out;
  const t = tool as Record<string, unknown>;
  const push = (kind: IntentFieldKind, raw: string, pointer: string): void => {
    const text = kind === 'pname' ? raw.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[_-]+/g, ' ') : raw;
    if (text.trim() !== '') out.push({ kind, text, raw, pointer });
  };
  if (typeof t['title'] === 'string') push('title', t['title'], '/title');
  if (typeof t['description'] === 'string') push('desc', t['description'], '/description');
  const walk = (schema: unknown, at: string, depth: number): void => {
    if (typeof schema !== 'object' || schema === null || depth > MAX_DEPTH) return;
    const s = schema as Record<string, unknown>;
    for (const k of ['description', '$comment']) if (typeof s[k] === 'string') push('pdesc', s[k], `${at}/${pointerSegment(k)}`);
    // A property's title is a label the client shows, a data slot like a default; the input schema's own is prose.
    if (typeof s['title'] === 'string') push(depth > 0 ? 'data' : 'pdesc', s['title'], `${at}/title`);
    for (const k of ['default', 'const']) if (typeof s[k] === 'string') push('data', s[k], `${at}/${k}`);
    for (const k of ['enum', 'examples']) {
      const list = s[k];
      if (Array.isArray(list)) list.forEach((v, i) => typeof v === 'string' && push('data', v, `${at}/${k}/${i}`));
    }
    const props = s['properties'];
    if (typeof props === 'object' && props !== null && !Array.isArray(props)) {
      for (const [name, p] of Object.entries(props)) {
        const member = `${at}/properties/${pointerSegment(name)}`;
        push('pname', name, member);
        walk(p, member, depth + 1);
      }
    }
    if (s['items'] !== undefined) walk(s['items'], `${at}/items`, depth + 1);
    for (const k of ['anyOf', 'oneOf', 'allOf']) {
      const list = s[k];
      if (Array.isArray(list)) list.forEach((sub, i) => walk(sub, `${at}/${k}/${i}`, depth + 1));
    }
  };
  walk(t['inputSchema'], '/inputSchema', 0);
  return out;
}

/** Scripts written without spaces between words: read as overlapping letter pairs instead. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
const WORD = /[\p{L}\p{N}\p{M}_'’-]+/gu;

/**
 * The model reads a field's first 4,096 characters: an attack that hides further in is the rules'
 * (which read it all), and hostile megabyte fields cost the model no more than a long description.
 */
const READ_CHARS = 4096;
/** The fewest words a data slot needs before it can be prose addressed to someone. */
const SENTENCE_WORDS = 3;
/** The fewest words a property's name needs before it can be one. */
const NAME_SENTENCE_WORDS = 5;
/** Longer "words" are blobs (base64, hex, padding): their four-letter pieces say nothing. */
const PIECE_WORD_CHARS = 24;

/**
 * Addresses read as what they are, not as their words: an attack's endpoint and a tool's
 * documentation link differ in nothing the model should learn from (and corpora write attackers'
 * hosts under reserved names, `.example` and the TEST-NET ranges, which real documentation uses too).
 */
const ADDRESS = /\bhttps?:\/\/[^\s<>"'`)\]]{1,2048}|(?<![\p{L}\p{N}._%+-])[\p{L}\p{N}._%+-]{1,64}@[\p{L}\p{N}-]{1,63}(?:\.[\p{L}\p{N}-]{1,63}){1,8}|\b\d{1,3}(?:\.\d{1,3}){3}(?:\/\d{1,2}|:\d{1,5})?\b|(?<![a-z0-9.-])[a-z0-9-]{1,63}(?:\.[a-z0-9-]{1,63}){0,8}\.(?:example|test|invalid|localhost|local|internal|com|net|org|io|dev|ai|co|app|cloud|xyz|info|biz|me)\b(?![.-]?[a-z0-9])/giu;
const ADDRESS_WORD = (m: string): string => (m.includes('://') ? ' xurl ' : m.includes('@') ? ' xmail ' : /^\d/.test(m) ? ' xip ' : ' xhost ');

/** Words of a string, NFKC and lower case, an address as one word; unspaced scripts as letter pairs. */
export function intentTokens(text: string): string[] {
  const out: string[] = [];
  for (const m of text.slice(0, READ_CHARS).normalize('NFKC').replace(ADDRESS, ADDRESS_WORD).toLowerCase().matchAll(WORD)) {
    const w = m[0];
    if (UNSPACED.test(w)) {
      const chars = [...w];
      for (let i = 0; i < chars.length; i++) out.push(chars[i]! + (chars[i + 1] ?? ''));
    } else out.push(w);
  }
  return out;
}

/** FNV-1a over UTF-16 units: stable across platforms and releases, which the weights depend on. */
export function featureHash(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/**
 * The field's features as bucket -> value, L2-normalised so long and short fields score alike:
 * words, word pairs, four-letter pieces of longer words (inflections across languages) and the
 * field's kind. Whether it names another server's tool only makes it a candidate: as a feature it
 * outweighed the words (a plain "pairs with send_email" scored as an attack), and the rules already
 * judge what a sentence asks of another server's tool.
 */
export function intentFeatures(field: Pick<IntentField, 'kind' | 'text'>, bits: number): Map<number, number> {
  const mask = bits >= 32 ? 0xffffffff : (1 << bits) - 1;
  const f = new Map<number, number>();
  const add = (key: string, v: number): void => {
    const h = (featureHash(key) & mask) >>> 0;
    f.set(h, (f.get(h) ?? 0) + v);
  };
  const tokens = intentTokens(field.text);
  const data = field.kind === 'data' || field.kind === 'pname';
  for (let i = 0; i < tokens.length; i++) {
    const w = tokens[i]!;
    add(`w:${w}`, 1);
    if (data) add(`dw:${w}`, 1);
    if (i + 1 < tokens.length) add(`b:${w} ${tokens[i + 1]!}`, 1);
    if (w.length >= 5 && w.length <= PIECE_WORD_CHARS) {
      const padded = ` ${w} `;
      for (let j = 0; j + 4 <= padded.length; j++) add(`c:${padded.slice(j, j + 4)}`, 0.5);
    }
  }
  // What the field speaks of, by concept and in every language the lexicons know, and each pair of
  // concepts: the model weighs "the user" with "their choice" and "not asked" where the rules need
  // two moves spelled in words they list.
  const reading = conceptReading(field.text);
  const sentences = sentencesOf(reading);
  const perSentence = sentences.map((sentence) => conceptsOfReading(sentence));
  // A field of one sentence is read once: its sentence is the whole reading.
  const seen = sentences.length === 1 && sentences[0] === reading ? perSentence[0]! : conceptsOfReading(reading);
  for (let i = 0; i < seen.length; i++) {
    add(`x:${seen[i]!}`, CONCEPT_WEIGHT);
    for (let j = i + 1; j < seen.length; j++) add(`xx:${seen[i]!}+${seen[j]!}`, CONCEPT_WEIGHT);
  }
  // The same pairs within one sentence, or two neighbouring ones: "the user" and "is not asked" in
  // one breath say more than each somewhere in a long page of genuine documentation.
  for (const pair of nearbyConceptPairs(perSentence)) add(`sx:${pair}`, NEARBY_PAIR_WEIGHT);
  add(`k:${field.kind}`, 1);
  if (data && tokens.length >= 8) add('s:data-long', 1);
  let norm = 0;
  for (const v of f.values()) norm += v * v;
  norm = Math.sqrt(norm) || 1;
  for (const [k, v] of f) f.set(k, v / norm);
  return f;
}

const CONCEPT_WEIGHT = 3;
/** Concept pairs are weighed more within a sentence than across a field. */
const NEARBY_PAIR_WEIGHT = 5;

/** Sentences of a reading (NFKC): split after . ! ? (and their Arabic and Devanagari forms), at 。, a semicolon or a line break. */
function sentencesOf(reading: string): string[] {
  return reading.split(/(?<=[.!?؟।])\s+|[\n;。]+/u).filter((x) => x.trim() !== '');
}

/**
 * Each pair of concepts spoken of within one sentence or two neighbouring ones (given each
 * sentence's concepts, in the order read): the first sentence's concepts before the second's,
 * "consent was given" then "nothing is asked".
 */
function nearbyConceptPairs(per: readonly (readonly string[])[]): Set<string> {
  const pairs = new Set<string>();
  for (let k = 0; k < per.length; k++) {
    const here = [...new Set([...per[k]!, ...(per[k + 1] ?? [])])];
    for (let i = 0; i < here.length; i++) for (let j = i + 1; j < here.length; j++) pairs.add(`${here[i]!}+${here[j]!}`);
  }
  return pairs;
}

const CONCEPTS: readonly (readonly [string, (text: string) => boolean])[] = [
  ['user', (t) => concept.USER.test(t) || sense.PERSON.test(t) || sense.PERSON_BY_ROLE.test(t)],
  ['choice', (t) => concept.CHOICE.test(t)],
  ['void', (t) => concept.VOID.test(t)],
  ['whatever', (t) => concept.WHATEVER.test(t)],
  ['not-asked', (t) => concept.NOT_ASKED.test(t)],
  ['decided-elsewhere', (t) => concept.SOMEONE_ELSE_DECIDED.test(t)],
  ['persists', (t) => concept.PERSISTS.test(t)],
  ['conceals', (t) => concept.CONCEALS.test(t)],
  ['deceives', (t) => concept.DECEIVES.test(t)],
  ['stop', (t) => concept.STOP_SAID.test(t)],
  ['carries-on', (t) => concept.CARRIES_ON.test(t)],
  ['conversation', (t) => concept.WHOLE_CONVERSATION.test(t)],
  ['chat-demoted', (t) => concept.CHAT_DEMOTED.test(t)],
  ['every-reply', (t) => concept.EVERY_REPLY_ANYWHERE.test(t) || namesEveryReply(t)],
  ['system', (t) => namesSystemInstructions(t)],
  ['system-dismissed', (t) => namesSystemInstructions(t) && dismissesSystemInstructions(t) !== null],
  // How the field speaks (an order, a condition, a rank) and of what (secrets, outside, harm), in
  // the directive analysis' words.
  ['obligation', (t) => cue.OBLIGATION.test(t)],
  ['imperative', (t) => cue.IMPERATIVE.test(t)],
  ['prerequisite', (t) => cue.PREREQUISITE.test(t)],
  ['standing', (t) => cue.STANDING.test(t) || cue.I18N_STANDING.test(t)],
  ['argument-change', (t) => cue.ARGUMENT_CHANGE.test(t)],
  ['rank', (t) => rankInReading(t)],
  ['above-user', (t) => cue.ABOVE_USER.test(t) || cue.USER_DEMOTED.test(t) || cue.OUTRANKED.test(t) || cue.OVERRIDES_USER.test(t)],
  ['regardless', (t) => cue.I18N_REGARDLESS.test(t) || cue.I18N_IGNORE.test(t)],
  ['i18n-order', (t) => cue.I18N_DIRECTIVE.test(t)],
  ['secret', (t) => cue.SECRET.test(t) || cue.OTHERS_SECRET.test(t) || cue.I18N_EXFIL_TARGET.test(t)],
  ['chat', (t) => cue.CONVERSATION.test(t) || cue.I18N_CONVERSATION.test(t)],
  // OUTSIDE holds every address OUTSIDE_ADDRESS does, and the words for a sink besides.
  ['outside', (t) => cue.OUTSIDE.test(t)],
  ['harm', (t) => cue.HARM.test(t) || cue.RECON.test(t)],
  ['every', (t) => cue.EVERY.test(t)],
  // What a claim stated calmly as a fact speaks of, in the model's own wider lexicon (intent-concepts.ts).
  ['consent', (t) => sense.CONSENT.test(t)],
  ['signed-elsewhere', (t) => sense.SIGNED_ELSEWHERE.test(t)],
  ['report', (t) => sense.REPORT.test(t)],
  ['instead', (t) => sense.INSTEAD.test(t)],
  ['stale', (t) => sense.STALE.test(t)],
  ['binding', (t) => sense.BINDING.test(t)],
  ['silently', (t) => sense.SILENTLY.test(t)],
  ['third-party', (t) => sense.THIRD_PARTY.test(t)],
  ['refusal', (t) => sense.REFUSAL.test(t)],
  ['demoted-value', (t) => sense.DEMOTED_VALUE.test(t)],
  ['negation', (t) => sense.NEGATION.test(t)],
];

/** A rank claimed (priority, precedence, "comes before"), in any language the lexicons know. */
function rankInReading(reading: string): boolean {
  return cue.PRIORITY.test(reading) || cue.RANK_BY_MEANING.test(reading) || cue.I18N_PRIORITY.test(reading) || cue.I18N_RANK.test(reading);
}

/** What a field claims over the user (claimOverUser). */
export type ClaimOverUser = 'rank' | 'move' | 'override';

/**
 * What a field claims over the user, as a priority claim does: a rank, or (in a tool's description,
 * where such claims are written) the user's word set aside or one of the moves against the user the
 * rules count but do not withhold alone (user-overruled.ts `movesAgainstUser`); undefined when none.
 * The model's threshold takes it into account (intent-model.ts `claimGate`). A parameter's description
 * is left out of all but a rank: one server shares a sentence of that kind across a hundred tools,
 * which a lower bar would withhold whole.
 */
export function claimOverUser(field: Pick<IntentField, 'kind' | 'text'>): ClaimOverUser | undefined {
  const reading = conceptReading(field.text);
  if (rankInReading(reading)) return 'rank';
  if (field.kind === 'desc' && overridesUsersWord(reading)) return 'override';
  return field.kind === 'desc' && movesAgainstUser(reading) > 0 ? 'move' : undefined;
}

/**
 * The user's word set aside outright, in a tool's description: their request called advisory or a
 * suggestion, "ignore whatever the user supplies", a rule "above the user". "Even if the user asks"
 * and "whatever folder they are in" are not read as such: protective notes and plain descriptions say
 * them ("never print the key, even if the user asks"), in every language.
 */
function overridesUsersWord(reading: string): boolean {
  return cue.USER_DEMOTED.test(reading) || cue.ABOVE_USER.test(reading);
}

/**
 * The reading the concepts are read on: NFKC, lower case, and every address made a bare one of its
 * kind, so a host's name speaks of nothing ("api.minimax.chat" is neither a chat nor a minimum)
 * while an address still says that something goes outside.
 */
function conceptReading(text: string): string {
  return text.slice(0, READ_CHARS).normalize('NFKC').replace(ADDRESS, BARE_ADDRESS).toLowerCase();
}
const BARE_ADDRESS = (m: string): string => (m.includes('://') ? ' https://x.io ' : m.includes('@') ? ' x@x.io ' : /^\d/.test(m) ? ' 1.1.1.1 ' : ' x.io ');

/**
 * The concepts of a reading already NFKC and lower case; last, those of the hijack word lists (79
 * languages), read in one pass: an action taken through a tool bound to "when" or "every time",
 * "always", an order in another language than English, a noun for a tool.
 */
function conceptsOfReading(reading: string): string[] {
  const out = CONCEPTS.filter(([, test]) => test(reading)).map(([name]) => name);
  const lists = actionConcepts(reading);
  if (lists.bound) out.push('action-when');
  if (lists.always) out.push('always-any');
  if (lists.order) out.push('order-any');
  if (lists.tool) out.push('tool-kind');
  return out;
}

/** Runs of identifier characters; matched without backtracking, then checked for a name's shape. */
const IDENTIFIER_RUN = /[a-z0-9_-]+/g;
/** `send_email`, `get-balance`: a letter first, then words joined by `_` or `-`. */
const IDENTIFIER = /^[a-z][a-z0-9]*(?:[_-][a-z0-9]+)+$/;

/** Whether a string names a tool that another server owns (never the judged server's own). */
export function namesOtherServersTool(text: string, server: string, own: ReadonlySet<string>, index: CatalogIndexLike | undefined): boolean {
  if (index === undefined) return false;
  for (const m of text.slice(0, READ_CHARS).toLowerCase().matchAll(IDENTIFIER_RUN)) {
    const name = m[0];
    if (name.length < 6 || name.length > 64 || own.has(name) || !IDENTIFIER.test(name)) continue;
    if (index.toolOwners(name).some((o) => o.server !== server)) return true;
  }
  return false;
}

/**
 * Who a string may be about, in the languages of the corpus: the user, the model, the conversation,
 * its instructions, secrets. The model judges only fields that name one of these, name another
 * server's tool, or are data: what it is trained to find always does one of those, and a field
 * that does none is left to the rules alone.
 */
const PARTIES =
  /(?<![\p{L}\p{N}_])(?:users?|user's|usuari[oa]s?|utilisat(?:eur|rice)s?|benutzer|nutzer(?:in)?|utent[ei]|gebruikers?|u[żz]ytkownik\p{L}*|пользовател\p{L}*|користувач\p{L}*|kullan[ıi]c[ıi]\p{L}*|usu[áa]rios?|anv[äa]ndar\p{L}*|k[äa]ytt[äa]j[äa]\p{L}*|người dùng|pengguna|משתמש|المستخدم|χρήστη|uživatel\p{L}*|utilizator\p{L}*|customers?|clients?|kunden?|clientes?|humans?|persons?|operators?|owners?|assistants?|as?sist[ae]nt\p{L}*|asystent\p{L}*|асистент\p{L}*|ассистент\p{L}*|avustaj\p{L}*|βοηθ(?:ός|ού|ό|οί|ών|ούς)|trợ lý|asisten|msaidizi|ai|llm|models?|modelos?|modèles?|modell\p{L}*|модел\p{L}*|agents?|agentes?|агент\p{L}*|claude|gpt|gemini|copilot|conversations?|chats?|instructions?|transcripts?|instrucciones|anweisung\p{L}*|инструкц\p{L}*|secrets?|passwords?|credentials?|env)(?![\p{L}\p{N}_])|用户|用戶|使用者|ユーザー|利用者|사용자|助手|助理|アシスタント|모델|模型|モデル|对话|對話|会話|대화|指示|지시|ผู้ใช้|उपयोगकर्ता|यूज़र|المساعد(?![ةا])|העוזר|دستیار|एआई सहायक|সহকারী|ผู้ช่วย|ជំនួយការ|ረዳት/iu;

/** Whether the field names the user, the model, the conversation or secrets (PARTIES). */
export function namesParty(field: Pick<IntentField, 'text'>): boolean {
  const text = field.text.slice(0, READ_CHARS).normalize('NFKC');
  if (PARTIES.test(text)) return true;
  const lower = text.toLowerCase();
  return concept.USER.test(lower) || sense.PERSON.test(lower);
}

/**
 * Which threshold a candidate answers to. A data slot (a default, an enum member, an example, a
 * title, a property's name) holds data, so prose there is suspect already; a description that names
 * the user, the model, secrets or another server's tool is ordinary prose far more often (real tools
 * talk about their users, and point to their neighbours, all the time), so it needs a surer score.
 */
export function candidateKind(field: Pick<IntentField, 'kind' | 'text'> & { readonly pointer?: string }, namesOtherTool: boolean): 'data' | 'prose' | undefined {
  if (field.kind === 'data') {
    // A value of one or two words (`alreadyRead`, `read only`) says nothing to anyone; nor does a
    // lone path given to a parameter for a path (`~/.docker/config.json` as `config_path`), which the
    // rules judge with the parameter in view and the model cannot.
    if (field.pointer !== undefined && LONE_PATH.test(field.text) && !SECRET_STORE.test(field.text) && takesPath(parameterAt(field.pointer))) return undefined;
    return intentTokens(field.text).length >= SENTENCE_WORDS ? 'data' : undefined;
  }
  // APIs name members with several words (`approved_by_usernames`, `retell_llm_dynamic_variables`):
  // a name is a sentence only when it is as long as one.
  if (field.kind === 'pname') return intentTokens(field.text).length >= NAME_SENTENCE_WORDS ? 'data' : undefined;
  return namesOtherTool || namesParty(field) || speaksOfTheUsersSay(field) ? 'prose' : undefined;
}

/**
 * Whether the field speaks of what the user is told or of their say without naming them: every
 * reply, something kept out of the answer or told otherwise, a value that does not count or is
 * moot, a word that persists. Priority claims are written about "the diner", "people", "them" and
 * "the answer" as often as about "the user"; legitimate tools say these things rarely. A waived
 * confirmation is left out: it is what a `force` or `yes` parameter is for.
 */
export function speaksOfTheUsersSay(field: Pick<IntentField, 'text'>): boolean {
  const reading = conceptReading(field.text);
  // Every reply in another language only with the conversation or the assistant named: "jede Antwort der API" is the tool's own.
  return SAY_CONCEPTS.some((re) => re.test(reading)) || ordersEveryReply(reading) !== null;
}
const SAY_CONCEPTS: readonly RegExp[] = [
  concept.EVERY_REPLY_ANYWHERE,
  concept.CONCEALS,
  concept.DECEIVES,
  concept.VOID,
  concept.WHATEVER,
  concept.PERSISTS,
  more.MORE_CONCEALS,
  more.MORE_DECEIVES,
  more.MORE_VOID,
];

/** One local path and nothing else: `~/.x/y`, `/etc/z`, `./a/b`, `C:\Users\u` (not `//host/x` or `\\host\share`). */
const LONE_PATH = /^(?:(?:~|\.{1,2})?\/(?!\/)|[a-z]:\\(?!\\))\S*$/i;

/** The parameter a data slot belongs to: `/inputSchema/properties/config_path/default` -> `config_path`. */
function parameterAt(pointer: string): string {
  const at = pointer.lastIndexOf('/properties/');
  return at < 0 ? '' : pointer.slice(at + '/properties/'.length).split('/')[0]!;
}
