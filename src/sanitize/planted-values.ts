// A concrete phone number, IBAN or card number written into a tool's prose as a fact, not as an
// example of a format. A tool documents the shape of the numbers its parameters take ("E.164, e.g.
// +14155552671", "esempio: IT60 X054 ..."); it has no reason to name one particular account or
// number the model should put somewhere, and that is what an argument hijack plants, in any language
// and whatever the verbs: a second recipient for every SMS, the IBAN to pay "instead", the card to
// print on every reminder. Read on the plain, case-folded reading of prose (descriptions); data slots
// hold examples by their nature and are judged in data-slots.ts.
import { ibanCheckDigits } from './data-slots.js';
import type { Hit } from './semantic.js';

/**
 * `+49 1570 0000 312`, `+447700900123`, `+1 (555) 010-0199`. Groups after the first run of digits
 * need a separator, so a long run of digits is read one way only (no backtracking over its splits);
 * the 8-15 digits a number has are counted in code.
 */
const PHONE = /(?<![\w+])\+\d{1,3}(?:[ .-]?\(\d{1,5}\))?[ .-]?\d{1,14}(?:[ .-]\d{1,14}){0,5}(?![\w])/g;
/** An IBAN as it is printed (groups of four) or as it is stored (unspaced, its check digits verified). */
const IBAN = /(?<![a-z0-9])[a-z]{2}\d{2}(?:(?: [a-z0-9]{4}){3,7}(?: [a-z0-9]{1,4})?|[a-z0-9]{11,30})(?![a-z0-9])/g;
/** A card number: four groups of four digits, one separator throughout (not a UUID's zeros). */
const CARD = /(?<![\w-])\d{4}([ -])\d{4}\1\d{4}\1\d{4}(?![\w-])/g;

/** Cheap look for the gate: nothing here can match without one of these. */
const CUE = /\+\d|\d{4}[ -]\d{4}|[a-z]{2}\d{2}[ a-z0-9]/;

/**
 * Words that make a number an example, a format or a stand-in, in the languages tool text is
 * written in: e.g., for example, sample, format, test, placeholder, fictional, illustrative.
 */
const EXAMPLE_WORD = new RegExp(
  [
    '\\be\\.g\\.|\\bi\\.e\\.|\\bexamples?\\b|\\bfor instance\\b|\\bsuch as\\b|\\bsample\\b|\\bformat(?:ted|s)?\\b|\\btest(?:ing)?\\b|\\bsandbox\\b|\\bdummy\\b|\\bplaceholder\\b|\\bfake\\b|\\bfictional\\b|\\bfiction\\b|\\billustrat|\\bsimulat|\\bbecomes\\b|\\bvalidat|\\bnormali[sz]',
    '\\bz\\. ?b\\.|\\bbsp\\.|\\bbeispiel|\\bp\\. ?ej\\.|\\bej\\.|\\bejemplo|\\bex\\.|\\bexemple|\\bexemplo|\\bes\\.|\\besempio|\\bnp\\.|\\bprzykład|\\bbijv\\.|\\bbv\\.|\\bvoorbeeld|\\börn\\.|\\börne[kğ]',
    '\\bt\\.? ?ex\\.|\\btill exempel|\\beksempel|\\bf\\.? ?eks\\.|\\besim\\.|\\besimerk|\\bpl\\.|\\bpélda|\\bexemplu|\\bnapř\\.|\\bnapr\\.|\\bpříklad|\\bpríklad|\\bví dụ|\\bvd\\.|\\bcontoh|\\bmisal|\\bhalimbawa|\\bmfano|\\bformato|\\bformát|\\bформат',
    'например|напр\\.|пример|приклад|наприклад|π\\.?χ\\.|παράδειγμα|مثال|مثلا|مثلاً|לדוגמה|למשל|उदाहरण|जैसे|ตัวอย่าง|เช่น|উদাহরণ|যেমন|உதாரணம்|எ\\.கா|例如|例:|比如|示例|範例|范例|例えば|形式|格式|예:|예시|예를 들어|테스트|测试|測試|テスト',
  ].join('|'),
  'u',
);
/** "Not a test", "no example": the word then says the opposite. */
const NEGATED_EXAMPLE = /\b(?:not|no|never) (?:an? |just an? )?(?:test|example|sample|placeholder)\b/;
/**
 * Where the clause around a number ends: a full stop after a word (not the one of "e.g.", "z. B.",
 * "ex."), a question or exclamation mark, a semicolon, a line break. A colon does not end it
 * ("Esempio: IT60 ...").
 */
const CLAUSE_BREAK_G = /(?<=\p{L}{4})\.\s|[!?;\n\u3002]/gu;
/** How far around a number its clause is read for an example word: a short label's reach. */
const CLAUSE_REACH = 64;
/** How close a number must follow an exempt one to be part of the same list of examples. */
const LIST_GAP = 48;

export interface PlantedValue {
  readonly index: number;
  readonly length: number;
  readonly kind: 'phone number' | 'IBAN' | 'card number';
}

/** The first phone number, IBAN or card number the text states as a fact; null when every one is an example. */
export function plantedValue(plain: string): PlantedValue | null {
  if (!CUE.test(plain)) return null;
  for (const [pattern, kind] of [[PHONE, 'phone number'], [IBAN, 'IBAN'], [CARD, 'card number']] as const) {
    let exemptEnd = -Infinity;
    pattern.lastIndex = 0;
    for (let m = pattern.exec(plain); m !== null; m = pattern.exec(plain)) {
      if (!isNumberOfItsKind(m[0], kind)) continue;
      const end = m.index + m[0].length;
      // A list of examples: "e.g. +14155552671, +442071838750 or +33123456789".
      const listed = m.index - exemptEnd <= LIST_GAP && !breaksClause(plain.slice(exemptEnd, m.index));
      if (listed || statedAsExample(plain, m.index, end) || fictional(m[0], kind)) {
        exemptEnd = end;
        continue;
      }
      return { index: m.index, length: m[0].length, kind };
    }
  }
  return null;
}

/** The shape's own checks: a phone number's digit count, a quantity written like one, an unspaced IBAN's check digits. */
function isNumberOfItsKind(text: string, kind: PlantedValue['kind']): boolean {
  const digits = text.replace(/\D/g, '').length;
  if (kind === 'phone number') {
    // "+10 000 000 products": groups of three after a short head are thousands, not a line.
    return digits >= 8 && digits <= 15 && !/^\+\d{1,3}(?: \d{3})+$/.test(text);
  }
  if (kind === 'IBAN') return text.includes(' ') || ibanCheckDigits(text);
  return true;
}

/**
 * Numbers reserved for fiction and tests, which documentation uses as examples without saying so:
 * NANP 555-0100 to 0199, Ofcom's drama ranges (07700 900xxx, 020 7946 0xxx), the payment
 * processors' test cards (repeated groups such as 4242 4242 4242 4242, or 4000 0000 0000 xxxx).
 */
function fictional(text: string, kind: PlantedValue['kind']): boolean {
  const digits = text.replace(/\D/g, '');
  if (kind === 'phone number') return /^1\d{3}55501\d\d$/.test(digits) || /^15005550\d{3}$/.test(digits) || /^447700900\d{3}$/.test(digits) || /^442079460\d{3}$/.test(digits);
  if (kind === 'card number') return /^(\d{4})\1\1/.test(digits) || /^(\d{4})(\d{4})\2\2$/.test(digits) || digits.startsWith('40000000');
  return false;
}

/**
 * An example: an example word in the number's own clause, before it ("E.164, e.g. +1415...") or
 * after it ("... succeeds in test mode"), unless negated; or the number alone in brackets right
 * after a format word ("E.164 (+4915112345678)").
 */
function statedAsExample(text: string, start: number, end: number): boolean {
  const before = clauseBefore(text, start);
  const after = clauseAfter(text, end);
  if ((EXAMPLE_WORD.test(before) && !NEGATED_EXAMPLE.test(before)) || (EXAMPLE_WORD.test(after) && !NEGATED_EXAMPLE.test(after))) return true;
  return /\b(?:e\.164|format|iban|msisdn)\s*\(\s*["'`]?$/.test(text.slice(Math.max(0, start - 16), start)) && /^["'`]?\s*\)/.test(text.slice(end, end + 3));
}

/** Whether a stretch of text holds a clause break. */
function breaksClause(text: string): boolean {
  CLAUSE_BREAK_G.lastIndex = 0;
  return CLAUSE_BREAK_G.test(text);
}

function clauseBefore(text: string, start: number): string {
  const window = text.slice(Math.max(0, start - CLAUSE_REACH), start);
  let cut = 0;
  CLAUSE_BREAK_G.lastIndex = 0;
  for (let m = CLAUSE_BREAK_G.exec(window); m !== null; m = CLAUSE_BREAK_G.exec(window)) cut = m.index + m[0].length;
  return window.slice(cut);
}

function clauseAfter(text: string, end: number): string {
  const window = text.slice(end, end + CLAUSE_REACH);
  CLAUSE_BREAK_G.lastIndex = 0;
  const cut = CLAUSE_BREAK_G.exec(window);
  return cut === null ? window : window.slice(0, cut.index);
}

/** The field's hits with a planted value's block added, unless another rule already withholds it. */
export function withPlantedValue(hits: Hit[], plain: string): Hit[] {
  if (hits.some((h) => h.action === 'block')) return hits;
  const planted = plantedValue(plain);
  if (planted === null) return hits;
  return [...hits, { rule: 'tool-directive', id: 'directive.planted-value', action: 'block', severity: 'high', reason: `states a ${planted.kind} as a fact, not as an example of a format: a value planted for the model to use`, start: planted.index, end: planted.index + planted.length }];
}
