// A concrete phone number, IBAN or card number written into a tool's prose as a fact, not as an
// example of a format. A tool documents the shape of the numbers its parameters take ("E.164, e.g.
// +14155552671", "esempio: IT60 X054 ..."); it has no reason to name one particular account or
// number the model should put somewhere, and that is what an argument hijack plants, in any language
// and whatever the verbs: a second recipient for every SMS, the IBAN to pay "instead", the card to
// print on every reminder. Read on the plain, case-folded reading of prose (descriptions); data slots
// hold examples by their nature and are judged in data-slots.ts.
import type { Hit } from './semantic.js';

/** `+49 1570 0000 312`, `+447700900123`, `+1 (555) 010-0199`: a country code, then 8 to 15 digits in all. */
const PHONE = /(?<![\w+])\+\d{1,3}(?:[ .-]?(?:\(\d{1,5}\)|\d{1,5})){2,6}(?![\w])/g;
/** An IBAN as it is printed: country, check digits, groups of four. */
const IBAN = /(?<![\p{L}\p{N}])[a-z]{2}\d{2}(?: [a-z0-9]{4}){3,7}(?: [a-z0-9]{1,4})?(?![\p{L}\p{N}])/gu;
/** A card number: four groups of four digits, one separator throughout (not a UUID's zeros). */
const CARD = /(?<![\w-])\d{4}([ -])\d{4}\1\d{4}\1\d{4}(?![\w-])/g;

/** Cheap look for the gate: nothing here can match without one of these. */
const CUE = /\+\d|\d{4}[ -]\d{4}|[a-z]{2}\d{2} [a-z0-9]{4}/;

/**
 * Words that make what follows an example, a format or a stand-in, in the languages tool text is
 * written in: e.g., for example, sample, format, test, placeholder, illustrative.
 */
const EXAMPLE_BEFORE = new RegExp(
  [
    '\\be\\.? ?g\\.?|\\bi\\.e\\.|\\bexamples?\\b|\\bfor instance\\b|\\bsuch as\\b|\\bsample\\b|\\bformat(?:ted)?\\b|\\blike\\b|\\btest\\b|\\bsandbox\\b|\\bdummy\\b|\\bplaceholder\\b|\\bfake\\b|\\bfictional\\b|\\billustrat',
    '\\bz\\. ?b\\.|\\bbsp\\.?|\\bbeispiel|\\bp\\. ?ej\\.|\\bej\\.|\\bejemplo|\\bex\\.|\\bexemple|\\bexemplo|\\bes\\.|\\besempio|\\bnp\\.|\\bprzykład|\\bna przykład|\\bbijv\\.?|\\bbv\\.|\\bvoorbeeld|\\börn\\.?|\\börne[kğ]',
    '\\bt\\.? ?ex\\.|\\btill exempel|\\beksempel|\\bf\\.? ?eks\\.|\\besim\\.|\\besimerk|\\bpl\\.|\\bpélda|\\bexemplu|\\bnapř\\.|\\bnapr\\.|\\bpříklad|\\bpríklad|\\bví dụ|\\bvd\\.?|\\bcontoh|\\bmisal|\\bhalimbawa|\\bmfano|\\bformato|\\bformát|\\bформат',
    'например|напр\\.|пример|приклад|наприклад|π\\.?χ\\.|παράδειγμα|مثال|مثلا|مثلاً|לדוגמה|למשל|उदाहरण|जैसे|ตัวอย่าง|เช่น|উদাহরণ|যেমন|உதாரணம்|எ\\.கா|例如|例:|比如|示例|範例|范例|例えば|形式|格式|예:|예시|예를 들어|테스트|测试|測試|テスト',
  ].join('|'),
  'u',
);
/** How far before a number its "e.g." may stand. */
const EXAMPLE_REACH = 48;

export interface PlantedValue {
  readonly index: number;
  readonly length: number;
  readonly kind: 'phone number' | 'IBAN' | 'card number';
}

/** The first phone number, IBAN or card number the text states as a fact; null when every one is an example. */
export function plantedValue(plain: string): PlantedValue | null {
  if (!CUE.test(plain)) return null;
  for (const [pattern, kind] of [[PHONE, 'phone number'], [IBAN, 'IBAN'], [CARD, 'card number']] as const) {
    pattern.lastIndex = 0;
    for (let m = pattern.exec(plain); m !== null; m = pattern.exec(plain)) {
      const digits = m[0].replace(/\D/g, '').length;
      if (digits < 8 || (kind === 'phone number' && digits > 15)) continue;
      if (asExample(plain, m.index, m[0].length)) continue;
      return { index: m.index, length: m[0].length, kind };
    }
  }
  return null;
}

/** An example: an example word shortly before it, or the number alone in brackets right after a word ("E.164 (+4915112345678)"). */
function asExample(text: string, at: number, length: number): boolean {
  if (EXAMPLE_BEFORE.test(text.slice(Math.max(0, at - EXAMPLE_REACH), at))) return true;
  return /\(\s*["'`]?$/.test(text.slice(Math.max(0, at - 3), at)) && /^["'`]?\s*\)/.test(text.slice(at + length, at + length + 3));
}

/** The field's hits with a planted value's block added, unless another rule already withholds it. */
export function withPlantedValue(hits: Hit[], plain: string): Hit[] {
  if (hits.some((h) => h.action === 'block')) return hits;
  const planted = plantedValue(plain);
  if (planted === null) return hits;
  return [...hits, { rule: 'tool-directive', id: 'directive.planted-value', action: 'block', severity: 'high', reason: `states a ${planted.kind} as a fact, not as an example of a format: a value planted for the model to use`, start: planted.index, end: planted.index + planted.length }];
}
