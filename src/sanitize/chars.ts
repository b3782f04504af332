// Code point classes the strip layer and the shadow copy agree on (SANITIZE.md "Policy" table).

export const ZWNJ = 0x200c;
export const ZWJ = 0x200d;
export const ESC = 0x1b;
export const BLACK_FLAG = 0x1f3f4;
export const CANCEL_TAG = 0xe007f;

export function isTag(cp: number): boolean {
  return cp >= 0xe0000 && cp <= 0xe007f;
}

/** Tag letters and digits, the only ones a subdivision flag (England, Scotland, Wales) uses. */
export function isFlagTag(cp: number): boolean {
  return (cp >= 0xe0061 && cp <= 0xe007a) || (cp >= 0xe0030 && cp <= 0xe0039);
}

/** The `zero-width` rule's set, ZWNJ/ZWJ excluded (they depend on their neighbours). */
export function isZeroWidth(cp: number): boolean {
  switch (cp) {
    case 0x200b: // ZWSP
    case 0xfeff: // BOM / ZWNBSP: a BOM has no place inside a JSON string
    case 0x00ad: // soft hyphen
    case 0x034f: // combining grapheme joiner
    case 0x180e: // Mongolian vowel separator
    case 0x115f: // Hangul choseong filler
    case 0x1160: // Hangul jungseong filler
    case 0x3164: // Hangul filler
    case 0xffa0: // halfwidth Hangul filler
    case 0x17b4: // Khmer inherent vowels, invisible
    case 0x17b5:
      return true;
    default:
      return cp >= 0x2060 && cp <= 0x2064; // word joiner, invisible operators
  }
}

/** Embeddings, overrides and isolates. LRM/RLM/ALM stay: they are how RTL text is written correctly. */
export function isBidiControl(cp: number): boolean {
  return (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
}

/** LRM, RLM, ALM: legitimate in right-to-left text. */
export function isBidiMark(cp: number): boolean {
  return cp === 0x200e || cp === 0x200f || cp === 0x061c;
}

export function isLatinLetter(cp: number | undefined): boolean {
  return cp !== undefined && ((cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a) || (cp >= 0xc0 && cp <= 0x24f && cp !== 0xd7 && cp !== 0xf7));
}

/**
 * Invisible characters that may stand between two words where a space should be: detection reads
 * them both ways, as nothing ("ig<ZWSP>nore" is "ignore") and as a space ("ignore<ZWSP>all").
 */
// Hangul fillers and variation selectors too: "ignore<U+3164>all" and "send<U+FE00>the" are two words each.
export const INVISIBLE_SEPARATORS = /(?<=\p{L})[\u00ad\u061c\u180e\u200b-\u200f\u2060-\u2064\ufeff\u115f\u1160\u3164\uffa0\ufe00-\ufe0f]+(?=\p{L})/gu;

export function isVariationSelector(cp: number): boolean {
  return (cp >= 0xfe00 && cp <= 0xfe0f) || (cp >= 0xe0100 && cp <= 0xe01ef);
}

const JOINING_SCRIPT =
  /[\p{Script=Arabic}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}\p{Script=Mongolian}\p{Script=Devanagari}\p{Script=Bengali}\p{Script=Gurmukhi}\p{Script=Gujarati}\p{Script=Oriya}\p{Script=Tamil}\p{Script=Telugu}\p{Script=Kannada}\p{Script=Malayalam}\p{Script=Sinhala}\p{Script=Khmer}\p{Script=Myanmar}\p{Script=Tibetan}\p{Script=Hebrew}\p{Script=Adlam}]/u;
const LETTER_OR_MARK = /[\p{L}\p{M}]/u;
const PICTOGRAPHIC = /\p{Extended_Pictographic}/u;
const EMOJI = /\p{Emoji}/u;
const IDEOGRAPH = /[\p{Unified_Ideograph}\u3005\u3006\u3007]/u;
const MATH = /\p{Sm}/u;

/** A letter or mark of a script that uses ZWJ/ZWNJ to choose glyph forms (Persian, Indic, Khmer...). */
export function isJoiningLetter(cp: number): boolean {
  if (cp < 0x0590) return false;
  const ch = String.fromCodePoint(cp);
  return JOINING_SCRIPT.test(ch) && LETTER_OR_MARK.test(ch);
}

export function isPictographic(cp: number): boolean {
  return cp >= 0xa9 && PICTOGRAPHIC.test(String.fromCodePoint(cp));
}

/** Can end an emoji before a ZWJ: the pictograph itself, VS16, a skin tone, a keycap or a tag sequence's cancel. */
export function endsEmoji(cp: number): boolean {
  return cp === 0xfe0f || (cp >= 0x1f3fb && cp <= 0x1f3ff) || cp === 0x20e3 || cp === CANCEL_TAG || isPictographic(cp);
}

/** A character after which one text/emoji presentation selector (FE0E/FE0F) is legitimate. */
export function takesEmojiSelector(cp: number): boolean {
  return EMOJI.test(String.fromCodePoint(cp)); // includes keycap bases 0-9 # *
}

export function isIdeograph(cp: number): boolean {
  return cp >= 0x3005 && IDEOGRAPH.test(String.fromCodePoint(cp));
}

export function isMathSymbol(cp: number): boolean {
  return MATH.test(String.fromCodePoint(cp));
}

/** Is one variation selector after `prev` legitimate (emoji, keycap base, CJK ideograph incl. IVS, math)? */
export function singleSelectorAllowed(prev: number, vs: number): boolean {
  if (vs === 0xfe0e || vs === 0xfe0f) {
    if (takesEmojiSelector(prev)) return true;
  }
  if (isIdeograph(prev)) return true; // standardized variants (FE00-FE02) and IVS (E0100-E01EF)
  return vs <= 0xfe0f && isMathSymbol(prev);
}

/** Does removing nothing around this ZWJ/ZWNJ matter? True when it is part of real text (SANITIZE.md `zero-width`). */
export function joinerAllowed(joiner: number, prev: number | undefined, next: number | undefined): boolean {
  if (prev === undefined || next === undefined) return false;
  if (isJoiningLetter(prev) && isJoiningLetter(next)) return true;
  return joiner === ZWJ && endsEmoji(prev) && isPictographic(next);
}

/** Removed from the shadow copy: every format char (Cf), selectors, fillers and joiners. */
const SHADOW_INVISIBLE = /[\p{Cf}\u034f\u115f\u1160\u17b4\u17b5\u180b-\u180f\u3164\uffa0\ufe00-\ufe0f\u{e0100}-\u{e01ef}]/u;

export function isShadowInvisible(cp: number): boolean {
  return cp >= 0xad && SHADOW_INVISIBLE.test(String.fromCodePoint(cp));
}

/** Whitespace for the shadow: Unicode White_Space, plus the vertical controls that render as breaks. */
export function isShadowSpace(cp: number): boolean {
  if (cp <= 0x20) return cp === 0x20 || cp === 0x09 || cp === 0x0b || cp === 0x0c;
  return cp === 0xa0 || cp === 0x1680 || (cp >= 0x2000 && cp <= 0x200a) || cp === 0x202f || cp === 0x205f || cp === 0x3000;
}

export function isShadowNewline(cp: number): boolean {
  return cp === 0x0a || cp === 0x0d || cp === 0x85 || cp === 0x2028 || cp === 0x2029;
}

export function hex(cp: number): string {
  return cp.toString(16).toUpperCase().padStart(4, '0');
}
