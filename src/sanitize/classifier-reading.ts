// The reading under the poison classifier's features (classifier-features.ts): character classes,
// the Cyrillic/Greek fold, hashing, and the word lists of the dense features. Part of the feature
// definition: a change here bumps FEATURE_VERSION there and needs a retrain.

export const HASH_BITS = 14;
export const BUCKETS = 1 << HASH_BITS;

// ---- character classes (one table, built once) ----
export const SEP = 0; // space, tab, CR, other punctuation that only separates
export const WORD = 1;
export const CJK = 2; // a token of its own (Han, kana, Hangul syllables)
export const END = 3; // sentence end: . ! ? ; 。
export const NL = 4;
export const INVIS = 5; // invisible / filler / selector / line separator: a space, counted

export const CLASS = new Uint8Array(65536);
(function buildClasses(): void {
  for (let c = 0; c < 65536; c++) CLASS[c] = classify(c);
})();

function classify(c: number): number {
  if (c < 128) {
    if ((c >= 48 && c <= 57) || (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95) return WORD;
    if (c === 10) return NL;
    if (c === 46 || c === 33 || c === 63 || c === 59) return END;
    return SEP;
  }
  if (
    c === 0x85 || c === 0xad || c === 0x34f || c === 0x61c || c === 0x115f || c === 0x1160 || c === 0x17b4 ||
    c === 0x17b5 || (c >= 0x180b && c <= 0x180f) || (c >= 0x2000 && c <= 0x200f) || (c >= 0x2028 && c <= 0x202f) ||
    (c >= 0x205f && c <= 0x206f) || c === 0x3000 || c === 0x3164 || c === 0x1680 || (c >= 0xfe00 && c <= 0xfe0f) ||
    c === 0xfeff || c === 0xffa0 || (c >= 0xfff9 && c <= 0xfffb) || c === 0xa0 ||
    // High surrogate of U+E0000-U+E03FF: tag characters and the variation selectors supplement.
    c === 0xdb40
  ) return INVIS;
  if (c === 0x3002 || c === 0xff0e || c === 0xff01 || c === 0xff1f) return END;
  if ((c >= 0x3040 && c <= 0x30ff) || (c >= 0x3400 && c <= 0x4dbf) || (c >= 0x4e00 && c <= 0x9fff) ||
    (c >= 0xac00 && c <= 0xd7af) || (c >= 0xf900 && c <= 0xfaff)) return CJK;
  if ((c >= 0xa1 && c <= 0xbf) || c === 0xd7 || c === 0xf7 || (c >= 0x2010 && c <= 0x205e) ||
    (c >= 0x2070 && c <= 0x2bff) || (c >= 0x3001 && c <= 0x303f) || (c >= 0xd800 && c <= 0xdfff) ||
    (c >= 0xe000 && c <= 0xf8ff) || (c >= 0xff00 && c <= 0xff65) || c === 0xfffd) return SEP;
  return WORD;
}

/** Cyrillic and Greek lower-case letters that look like one Latin letter (UTS #39 prototypes). */
export const FOLD = new Map<number, number>([
  [0x430, 97], [0x432, 98], [0x435, 101], [0x43a, 107], [0x43c, 109], [0x43d, 104], [0x43e, 111], [0x440, 112],
  [0x441, 99], [0x442, 116], [0x443, 121], [0x445, 120], [0x455, 115], [0x456, 105], [0x458, 106], [0x4bb, 104],
  [0x501, 100], [0x51b, 113], [0x51d, 119], [0x3b1, 97], [0x3b5, 101], [0x3b9, 105], [0x3ba, 107], [0x3bd, 118],
  [0x3bf, 111], [0x3c1, 112], [0x3c4, 116], [0x3c5, 117], [0x3c7, 120], [0x3b7, 110], [0x3c9, 119], [0x3f2, 99],
  [0x3f3, 106], [0x491, 114],
]);
export const isCyrGreek = (c: number): boolean => (c >= 0x370 && c <= 0x3ff) || (c >= 0x400 && c <= 0x52f);
export const isLatinLetter = (c: number): boolean => (c >= 97 && c <= 122) || (c >= 0xe0 && c <= 0x24f);

// ---- hashing ----
export const FNV_OFFSET = 0x811c9dc5;
function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}
/** FNV-1a of a plain string: the word lists below and tests name tokens by it. */
export function tokenHash(s: string): number {
  let h = FNV_OFFSET;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}
export const MARK_IDENT = tokenHash('\u0001ident');
export const MARK_NUM = tokenHash('\u0001num');
export const MARK_URL = tokenHash('\u0001url');
export const MARK_EMAIL = tokenHash('\u0001email');
export const MARK_PATH = tokenHash('\u0001path');
export const MARK_BOS = tokenHash('\u0001bos');
export const SCHEMES = new Set(['http', 'https', 'ftp', 'file', 'ws', 'wss'].map(tokenHash));

/** A signed bucket: the low bits choose the bucket, the top bit the sign (~bucket when negative). */
const signed = (m: number): number => (m >>> 31 ? ~(m & (BUCKETS - 1)) : m & (BUCKETS - 1));
export const unigramBucket = (h: number): number => signed(fmix(h ^ 0x5bd1e995));
export const bigramBucket = (a: number, b: number): number => signed(fmix(Math.imul(a, 0x9e3779b1) ^ b ^ 0x27d4eb2f));

// ---- word lists, looked up by hash ----
export const SECOND_PERSON = 1;
export const MODAL = 2;
export const VERB = 4;
export const WORDS = new Map<number, number>();
for (const w of ['you', 'your', 'yours', 'yourself', 'assistant', 'agent', 'ai', 'model', 'llm', 'claude', 'gpt', 'chatbot', 'copilot']) {
  WORDS.set(tokenHash(w), SECOND_PERSON);
}
for (const w of ['must', 'always', 'never', 'before', 'first', 'shall', 'required', 'requires', 'mandatory', 'important',
  'immediately', 'silently', 'quietly', 'secretly', 'automatically', 'every', 'whenever', 'instead', 'override', 'ignore',
  'priority', 'precedence', 'regardless', 'critical', 'need', 'needs', 'should']) {
  WORDS.set(tokenHash(w), (WORDS.get(tokenHash(w)) ?? 0) | MODAL);
}
for (const w of ['send', 'call', 'include', 'ignore', 'read', 'use', 'always', 'never', 'do', 'forward', 'add', 'set', 'append',
  'copy', 'upload', 'post', 'write', 'run', 'execute', 'invoke', 'pass', 'attach', 'cc', 'bcc', 'fetch', 'open', 'delete',
  'remove', 'replace', 'change', 'make', 'ensure', 'disregard', 'skip', 'first', 'before', 'put', 'insert', 'embed',
  'report', 'share', 'transfer', 'route', 'redirect', 'save', 'store', 'collect', 'gather', 'retrieve', 'get', 'grab',
  'list', 'dump', 'export', 'print', 'output', 'return', 'reply', 'respond', 'tell', 'ask', 'treat', 'consider',
  'remember', 'note', 'override', 'prefer', 'choose', 'pick', 'select', 'force', 'update', 'modify', 'email', 'mail',
  'notify', 'log', 'sync', 'mirror', 'back', 'paste', 'provide', 'supply', 'fill', 'enter', 'type', 'click', 'visit',
  'go', 'navigate', 'create', 'grant', 'disable', 'enable', 'turn', 'keep', 'hide', 'avoid', 'stop', 'follow', 'obey',
  'please', 'don', 'dont', 'do']) {
  WORDS.set(tokenHash(w), (WORDS.get(tokenHash(w)) ?? 0) | VERB);
}
