// Whether a sentence in another language claims a rank. The rank words of I18N_RANK also name a
// ticket's field and compare quantities: "Prioridad elegida por el usuario." describes the tool's
// own `prioridad` parameter, "Pilih prioritas dari dampak yang dijelaskan pengguna." says how to
// fill `prioritas`, and "se o usuário escolher um prazo acima de 420 meses" and "请求的电流高于上限时"
// compare a number with a limit. None of them puts anything above the user. The parameter's name
// with something it is over ("tienen prioridad sobre lo que pida el usuario") is a rank again, and
// a number after a priority ("prioridad 1 sobre ...") compares nothing.
import { I18N_RANK } from './directive-lexicon.js';

const EVERY_RANK = new RegExp(I18N_RANK.source, `${I18N_RANK.flags.replace('g', '')}g`);
/**
 * After the rank word: a number, or a limit, with at most a preposition or an article between
 * ("acima de 420", "por encima de 3 intentos", "выше 100", "高于上限", "über dem Limit").
 */
const QUANTITY_AFTER =
  /^\s{0,2}(?:(?:d[aeo]s?|de la|del|des|du|aux?|à|di|dei|della|dem|der|den|the|от|за|на)\s{1,2})?(?:\d|[$€£¥₹%]|límite|limite|umbral|teto|tetto|grenze|limit|grens|granic|лимит|ліміт|порог|上限|下限|阈值|閾値|限度|限额|上限値|한도|임계)/iu;
/** The rank words that compare: "above", "higher than" (not a priority, which a number only ranks). */
const COMPARATIVE = /acima|encima|supérieur|вище|高于/;
/** A rank stated over something: "prioridad sobre lo que pida", "prioritas di atas permintaan". */
const OVER = /(?<![\p{L}])(?:sobre|encima|acima|atas|daripada|über|vor|su|sur|over|than|над|перед|ніж|чем|على|از|よりも|より|보다|于|之上)(?![\p{L}])/u;
const SENTENCE_END = /[.!?;\n。]/;
/** Letters of a word, for matching a rank word against a parameter's name (`prioridad`, `priorität`). */
const WORD_AT_END = /[\p{L}\p{N}_]+$/u;

/** Whether `plain` (a sentence, other scripts kept) claims a rank with a word that is neither one of `params` nor a comparison of quantities. */
export function claimsRank(plain: string, params: ReadonlySet<string>): boolean {
  for (const m of plain.matchAll(EVERY_RANK)) {
    const after = plain.slice(m.index + m[0].length);
    if (COMPARATIVE.test(m[0]) && QUANTITY_AFTER.test(after)) continue;
    if (namesParameter(m[0], params) && !OVER.test(after.split(SENTENCE_END)[0] ?? '')) continue;
    return true;
  }
  return false;
}

/** "prioridad" for `prioridad`, "prioritas" for `prioritas_tiket`: the rank word is a parameter's name or its first word. */
function namesParameter(rank: string, params: ReadonlySet<string>): boolean {
  const word = WORD_AT_END.exec(rank.trim())?.[0]?.toLowerCase();
  if (word === undefined || word.length < 5) return false;
  for (const p of params) if (p === word || p.split(/[_\s-]+/)[0] === word) return true;
  return false;
}
