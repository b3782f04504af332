// Features of the poison classifier (classifier.ts), shared with its trainer
// (scripts/train-classifier.ts) so that training and scoring can never read a text differently.
// Self-contained on purpose: it does not reuse the rules' shadow or confusables, because a change
// there would silently change what the stored weights mean. Any change here or in
// classifier-reading.ts (character classes, hashing, word lists) must bump
// FEATURE_VERSION and retrain; classifier.ts refuses weights of another version.
//
// Reading: NFKC, lower case, every space, line separator, invisible, filler and variation selector
// read as a space; a word mixing Latin with Cyrillic or Greek letters has those folded to their
// Latin look-alikes. Features: signed hashed word unigrams and bigrams (identifiers and numbers
// take a class token in bigrams, so "call <ident>" generalizes over tool names), a sentence-start
// token, and a few dense structural counts (DENSE_FEATURES). One linear pass, no regular
// expressions.
//
// Windows. A text is cut into sentences (bigrams never cross one) and scored per window of two
// consecutive sentences; the text scores its highest window. A poisoned sentence inside long,
// genuine documentation is then judged on its own words instead of being diluted by them, and a
// long real description does not score by its length.

import * as reading from './classifier-reading.js';

export { BUCKETS, bigramBucket, HASH_BITS, tokenHash, unigramBucket } from './classifier-reading.js';
export const FEATURE_VERSION = 1;

// Copied once into locals: read per character, and under a transpiler (tsx, vitest) an imported
// binding can be a getter.
const {
  bigramBucket,
  CJK,
  CLASS,
  END,
  FNV_OFFSET,
  FOLD,
  INVIS,
  isCyrGreek,
  isLatinLetter,
  MARK_BOS,
  MARK_EMAIL,
  MARK_IDENT,
  MARK_NUM,
  MARK_PATH,
  MARK_URL,
  MODAL,
  NL,
  SCHEMES,
  SECOND_PERSON,
  SEP,
  unigramBucket,
  VERB,
  WORD,
  WORDS,
} = reading;

export const DENSE_FEATURES = [
  'log_chars', // log1p(length) / 8
  'identifiers', // identifier-shaped tokens: snake_case, camelCase, kebab-case, dotted
  'url',
  'email',
  'path', // ~/..., /abs/path, C:\..., .dotfile
  'second_person', // you, your, assistant, agent, model, llm...
  'imperative_start', // a sentence that starts with a bare verb
  'modal', // must, always, never, before, first, shall, mandatory...
  'invisible', // any invisible, filler, selector or line separator
  'mixed_script', // a word mixing Latin with Cyrillic or Greek
  'caps_words', // words of 3+ capitals (IMPORTANT, SYSTEM)
  'tags', // <tag ...> or [UPPER ...]
  'newlines',
  'non_ascii_letters', // share of letters outside ASCII
  'text_sentences', // log1p(sentences of the whole text) / 3: a window of a long document
  'numbers',
] as const;
export const N_DENSE = DENSE_FEATURES.length;

// Raw per-sentence counters; a window's dense features are computed from their sums.
const R_CHARS = 0, R_IDENTS = 1, R_URL = 2, R_EMAIL = 3, R_PATH = 4, R_YOU = 5, R_IMPER = 6, R_MODAL = 7;
const R_INVIS = 8, R_MIXED = 9, R_CAPS = 10, R_TAGS = 11, R_NL = 12, R_NONASCII = 13, R_LETTERS = 14;
const R_NUMBERS = 15, R_TOKENS = 16;
const N_RAW = 17;

/** One text's features, written into reusable buffers (see newFeatures). */
export interface Features {
  /**
   * Every hashed occurrence (repeats allowed), signed: bucket b counts +1 as b and -1 as ~b (a
   * negative number), which keeps colliding n-grams from adding up. Only the first nHashed are valid.
   */
  hashed: Int32Array;
  nHashed: number;
  /** Sentences (at least 1); sentence s holds hashed[sentStart[s] .. sentStart[s + 1]). */
  nSent: number;
  sentStart: Int32Array;
  /** N_RAW counters per sentence. */
  counts: Float64Array;
}

export function newFeatures(): Features {
  return { hashed: new Int32Array(1024), nHashed: 0, nSent: 0, sentStart: new Int32Array(65), counts: new Float64Array(64 * N_RAW) };
}

/** Windows of a text: each sentence, then each two consecutive sentences. */
export const windowCount = (f: Features): number => 2 * f.nSent - 1;
/** First sentence of window k. */
export const windowStart = (f: Features, k: number): number => (k < f.nSent ? k : k - f.nSent);
/** Last sentence (exclusive) of window k. */
export const windowEnd = (f: Features, k: number): number => (k < f.nSent ? k + 1 : k - f.nSent + 2);

/**
 * Writes the dense features of window k into `dense` and returns the weight of each of its hashed
 * occurrences (1 / sqrt(tokens), so a window does not score by its length).
 */
export function windowFeatures(f: Features, k: number, dense: Float64Array): number {
  const end = windowEnd(f, k);
  const c = f.counts;
  let chars = 0, idents = 0, url = 0, email = 0, path = 0, you = 0, imper = 0, modal = 0, invis = 0, mixed = 0;
  let caps = 0, tags = 0, nl = 0, nonAscii = 0, letters = 0, numbers = 0, tokens = 0;
  for (let s = windowStart(f, k); s < end; s++) {
    const o = s * N_RAW;
    chars += c[o + R_CHARS]!;
    idents += c[o + R_IDENTS]!;
    url += c[o + R_URL]!;
    email += c[o + R_EMAIL]!;
    path += c[o + R_PATH]!;
    you += c[o + R_YOU]!;
    imper += c[o + R_IMPER]!;
    modal += c[o + R_MODAL]!;
    invis += c[o + R_INVIS]!;
    mixed += c[o + R_MIXED]!;
    caps += c[o + R_CAPS]!;
    tags += c[o + R_TAGS]!;
    nl += c[o + R_NL]!;
    nonAscii += c[o + R_NONASCII]!;
    letters += c[o + R_LETTERS]!;
    numbers += c[o + R_NUMBERS]!;
    tokens += c[o + R_TOKENS]!;
  }
  dense[0] = Math.log1p(chars) / 8;
  dense[1] = Math.log1p(idents) / 2;
  dense[2] = url > 0 ? 1 : 0;
  dense[3] = email > 0 ? 1 : 0;
  dense[4] = path > 0 ? 1 : 0;
  dense[5] = Math.log1p(you) / 2;
  dense[6] = Math.log1p(imper) / 2;
  dense[7] = Math.log1p(modal) / 2;
  dense[8] = invis > 0 ? 1 : 0;
  dense[9] = mixed > 0 ? 1 : 0;
  dense[10] = Math.log1p(caps) / 2;
  dense[11] = Math.log1p(tags) / 2;
  dense[12] = Math.log1p(nl) / 3;
  dense[13] = letters > 0 ? nonAscii / letters : 0;
  dense[14] = Math.log1p(f.nSent) / 3;
  dense[15] = Math.log1p(numbers) / 2;
  return 1 / Math.sqrt(Math.max(1, tokens));
}

// State of the text being read: module-level, so a call allocates no closures.
interface ReadState {
  f: Features;
  onToken: ((bucket: number, label: string) => void) | undefined;
  /** Offset where the current sentence started. */
  sentChar: number;
  /** Class hash of the previous token, for bigrams; BOS at a sentence start. */
  prev: number;
  prevLabel: string;
  atStart: boolean;
}
const S: ReadState = { f: newFeatures(), onToken: undefined, sentChar: 0, prev: MARK_BOS, prevLabel: '^', atStart: true };
/** Counters of the current sentence. */
const CUR = new Float64Array(N_RAW);
const bump = (r: number): void => {
  CUR[r] = CUR[r]! + 1;
};

function push(bucket: number): void {
  const f = S.f;
  if (f.nHashed === f.hashed.length) {
    const grown = new Int32Array(f.hashed.length * 2);
    grown.set(f.hashed);
    f.hashed = grown;
  }
  f.hashed[f.nHashed++] = bucket;
}

function emit(h: number, cls: number, label?: string, clsLabel?: string): void {
  push(unigramBucket(h));
  if (cls !== h) push(unigramBucket(cls));
  push(bigramBucket(S.prev, cls));
  if (S.onToken) {
    S.onToken(unigramBucket(h), label ?? '?');
    if (cls !== h) S.onToken(unigramBucket(cls), clsLabel ?? '?');
    S.onToken(bigramBucket(S.prev, cls), `${S.prevLabel} ${clsLabel ?? label ?? '?'}`);
    S.prevLabel = clsLabel ?? label ?? '?';
  }
  S.prev = cls;
  bump(R_TOKENS);
}

function marker(h: number, label: string): void {
  push(unigramBucket(h));
  push(bigramBucket(S.prev, h));
  if (S.onToken) {
    S.onToken(unigramBucket(h), label);
    S.onToken(bigramBucket(S.prev, h), `${S.prevLabel} ${label}`);
    S.prevLabel = label;
  }
  S.prev = h;
}

/** Closes the current sentence at offset `at` (one without a token is merged into the next). */
function close(at: number): void {
  const f = S.f;
  const s = f.nSent;
  if (f.nHashed === f.sentStart[s] && s > 0 && CUR[R_INVIS]! + CUR[R_NL]! + CUR[R_TAGS]! === 0) return;
  if (s + 2 > f.sentStart.length) {
    const grownStart = new Int32Array(f.sentStart.length * 2);
    grownStart.set(f.sentStart);
    f.sentStart = grownStart;
    const grownCounts = new Float64Array(grownStart.length * N_RAW);
    grownCounts.set(f.counts);
    f.counts = grownCounts;
  }
  CUR[R_CHARS] = at - S.sentChar;
  f.counts.set(CUR, s * N_RAW);
  CUR.fill(0);
  S.sentChar = at;
  f.nSent = s + 1;
  f.sentStart[s + 1] = f.nHashed;
}

function sentenceEnd(at: number): void {
  if (!S.atStart) close(at);
  S.prev = MARK_BOS;
  S.prevLabel = '^';
  S.atStart = true;
}

/**
 * Extracts the features of `text` into `f` (reusing its buffers; the hashed buffer grows when a
 * long text needs it and stays grown). `onToken`, for the trainer's report only, names each bucket
 * as it is filled.
 */
export function extractFeatures(text: string, f: Features, onToken?: (bucket: number, label: string) => void): void {
  const nf = text.normalize('NFKC');
  const lo = nf.toLowerCase();
  // Case-dependent features (camelCase, capitals) need the original case at the same offsets.
  const cased = lo.length === nf.length ? nf : lo;
  const n = lo.length;
  f.nHashed = 0;
  f.nSent = 0;
  f.sentStart[0] = 0;

  S.f = f;
  S.onToken = onToken;
  S.sentChar = 0;
  S.prev = MARK_BOS;
  S.prevLabel = '^';
  S.atStart = true;
  CUR.fill(0);
  let i = 0;

  while (i < n) {
    const c = lo.charCodeAt(i);
    const k = CLASS[c]!;
    if (k === WORD) {
      // One word: [\w and non-ASCII letters]+, hashed as it is read (folded when it mixes scripts).
      const start = i;
      let hasUnder = false, hump = false, digitsOnly = true, latin = false, cyrGreek = false, upper = 0, lower = 0;
      while (i < n && CLASS[lo.charCodeAt(i)] === WORD) {
        const ch = lo.charCodeAt(i);
        const orig = cased.charCodeAt(i);
        if (ch === 95) hasUnder = true;
        if (ch < 48 || ch > 57) digitsOnly = false;
        if (isLatinLetter(ch)) latin = true;
        else if (isCyrGreek(ch)) cyrGreek = true;
        if (orig >= 65 && orig <= 90) {
          upper++;
          if (i > start) {
            const before = cased.charCodeAt(i - 1);
            if (before >= 97 && before <= 122) hump = true;
          }
        } else if (ch >= 97 && ch <= 122) lower++;
        if (ch > 127 && (ch < 0x300 || ch > 0x36f)) bump(R_NONASCII);
        bump(R_LETTERS);
        i++;
      }
      const isMixed = latin && cyrGreek;
      if (isMixed) bump(R_MIXED);
      let h = FNV_OFFSET;
      for (let j = start; j < i; j++) {
        let ch = lo.charCodeAt(j);
        if (isMixed) ch = FOLD.get(ch) ?? ch;
        h = Math.imul(h ^ ch, 0x01000193);
      }
      h >>>= 0;
      if (upper >= 3 && lower === 0) bump(R_CAPS);
      // snake_case (an inner underscore), camelCase (a hump), kebab-case or dotted (joined to the next word).
      const trimmedUnder = hasUnder && lo.charCodeAt(start) !== 95 && lo.charCodeAt(i - 1) !== 95;
      const next = i < n ? lo.charCodeAt(i) : 0;
      const joined = (next === 45 || next === 46) && i + 1 < n && CLASS[lo.charCodeAt(i + 1)] === WORD &&
        !(lo.charCodeAt(i + 1) >= 48 && lo.charCodeAt(i + 1) <= 57) && !digitsOnly;
      const isIdent = trimmedUnder || hump || joined;
      if (isIdent) bump(R_IDENTS);
      if (digitsOnly) {
        bump(R_NUMBERS);
        emit(MARK_NUM, MARK_NUM, '<num>', '<num>');
      } else if (onToken) {
        emit(h, isIdent ? MARK_IDENT : h, lo.slice(start, i), isIdent ? '<ident>' : undefined);
      } else {
        emit(h, isIdent ? MARK_IDENT : h);
      }
      const flags = WORDS.get(h) ?? 0;
      if (flags & SECOND_PERSON) bump(R_YOU);
      if (flags & MODAL) bump(R_MODAL);
      // "Send ..." counts; "Sends ..." is another word and does not (a tool describing itself).
      if (S.atStart && flags & VERB) bump(R_IMPER);
      S.atStart = false;
      if (next === 58 && lo.startsWith('//', i + 1) && SCHEMES.has(h)) {
        bump(R_URL);
        marker(MARK_URL, '<url>');
        // The URL is one token of its own kind: its host and path are not prose.
        while (i < n && lo.charCodeAt(i) !== 32 && lo.charCodeAt(i) !== 10 && CLASS[lo.charCodeAt(i)] !== INVIS &&
          lo.charCodeAt(i) !== 41 && lo.charCodeAt(i) !== 62 && lo.charCodeAt(i) !== 34 && lo.charCodeAt(i) !== 96) i++;
      } else if (next === 64 && i + 1 < n && CLASS[lo.charCodeAt(i + 1)] === WORD) {
        bump(R_EMAIL);
        marker(MARK_EMAIL, '<email>');
        i++;
        while (i < n && (CLASS[lo.charCodeAt(i)] === WORD || lo.charCodeAt(i) === 46 || lo.charCodeAt(i) === 45)) i++;
        if (i > 0 && lo.charCodeAt(i - 1) === 46) i--; // a sentence's full stop after the address
      }
      continue;
    }
    if (k === CJK) {
      bump(R_NONASCII);
      bump(R_LETTERS);
      const h = Math.imul(FNV_OFFSET ^ c, 0x01000193) >>> 0;
      emit(h, h, onToken ? lo[i] : undefined);
      S.atStart = false;
      i++;
      continue;
    }
    if (k === END) {
      // A dot between word characters (v1.2, file.txt, e.g.) does not end a sentence.
      const nextC = i + 1 < n ? lo.charCodeAt(i + 1) : 32;
      if (c === 46 && CLASS[nextC] === WORD) {
        if (i === 0 || CLASS[lo.charCodeAt(i - 1)] !== WORD) {
          // ".env", ".ssh": a dot file.
          bump(R_PATH);
          marker(MARK_PATH, '<path>');
        }
      } else sentenceEnd(i + 1);
      i++;
      continue;
    }
    if (k === NL) {
      bump(R_NL);
      // A blank line, a bullet, a heading or a table row starts a new sentence; a wrapped line does not.
      let j = i + 1;
      while (j < n && (lo.charCodeAt(j) === 32 || lo.charCodeAt(j) === 9 || lo.charCodeAt(j) === 13)) j++;
      const nc = j < n ? lo.charCodeAt(j) : 10;
      if (nc === 10 || nc === 45 || nc === 42 || nc === 35 || nc === 124 || nc === 62 || nc === 0x2022) sentenceEnd(i + 1);
      i++;
      continue;
    }
    if (k === INVIS) {
      if (c !== 0xa0) bump(R_INVIS);
      i++;
      continue;
    }
    // Separators: a few start a path or a tag.
    const nextC = i + 1 < n ? lo.charCodeAt(i + 1) : 32;
    const prevC = i > 0 ? lo.charCodeAt(i - 1) : 32;
    if (c === 126 && nextC === 47) {
      bump(R_PATH);
      marker(MARK_PATH, '<path>');
    } else if (c === 47 && CLASS[nextC] === WORD && CLASS[prevC] !== WORD && prevC !== 47 && prevC !== 58 && prevC !== 126) {
      bump(R_PATH);
      marker(MARK_PATH, '<path>');
    } else if (c === 92 && prevC === 58 && i >= 2 && CLASS[lo.charCodeAt(i - 2)] === WORD) {
      bump(R_PATH);
      marker(MARK_PATH, '<path>');
    } else if (c === 60 && ((nextC >= 97 && nextC <= 122) || nextC === 47)) {
      bump(R_TAGS);
    } else if (c === 91) {
      const o = cased.charCodeAt(i + 1);
      if (o >= 65 && o <= 90) bump(R_TAGS);
    }
    i++;
  }
  // The last sentence, or the only one (possibly empty: every text has at least one).
  if (!S.atStart || f.nSent === 0 || f.nHashed > f.sentStart[f.nSent]!) {
    S.atStart = false;
    close(n);
  }
}
