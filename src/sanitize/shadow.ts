// The shadow copy detection runs on: hidden text revealed, invisibles and escapes gone, NFKC + lower case, whitespace collapsed.
import { scanEscape } from './ansi.js';
import {
  BLACK_FLAG,
  CANCEL_TAG,
  isFlagTag,
  isShadowInvisible,
  isShadowNewline,
  isShadowSpace,
  isTag,
  isVariationSelector,
} from './chars.js';
import { confusableOf, foldConfusables } from './confusables.js';
import { findEncoded } from './encoded.js';
import type { HiddenText } from './types.js';

export type { HiddenKind, HiddenText } from './types.js';

export interface Shadow {
  /** NFKC, lower case, collapsed whitespace; the view multilingual lexicons match on. */
  readonly plain: string;
  /** `plain` with confusables folded to ASCII (same length); the view English patterns match on. */
  readonly skel: string;
  readonly hidden: readonly HiddenText[];
  /** Runs of the base64 alphabet (A-Z a-z 0-9 + / _ -) of >= 24 chars in the input, whatever they decode to. */
  readonly encodedRuns: readonly { start: number; end: number }[];
}

export interface MappedShadow {
  readonly skel: string;
  /** For each UTF-16 unit of the shadow, the original span it came from. */
  readonly starts: Int32Array;
  readonly ends: Int32Array;
}

/** Printable ASCII, LF and TAB only: lower-casing and whitespace collapse give the same result as the full walk. */
const NOT_SIMPLE = /[^\x20-\x7e\n\t]/;
const SIMPLE_SPACE = /[ \t\n]{2,}|[\t\n]/g;
/**
 * What only the full walk handles: controls, format characters, selectors, tags, fillers, the
 * joiners, and the spaces and line separators NFKC keeps. Text without these that NFKC leaves as
 * it is (most CJK, Cyrillic, Arabic, emoji without selectors) gets the same shadow from lower
 * case + whitespace collapse + confusable folding, at native speed.
 */
const NEEDS_WALK =
  /[\x00-\x08\x0b-\x1f\x7f-\x9f\xad\u034f\u1680\u115f\u1160\u17b4\u17b5\u180b-\u180f\u2028\u2029\u3164\uffa0\ufe00-\ufe0d\u{e0000}-\u{e01ef}\u039d\u03a5]|(?![\u200c\u200d])\p{Cf}/u;
/** Emoji presentation selectors and joiners alone are just deleted; a run of two selectors is a byte channel (walk). */
const JOINERS = /[\u200c\u200d\ufe0e\ufe0f]/g;
const SELECTOR_RUN = /[\ufe0e\ufe0f]{2}/;
const HANGUL_JAMO = /[\u1100-\u11ff\ua960-\ua97f\ud7b0-\ud7ff]/;
const RLO_RUN = /\u202e([^\u202c\n]*)/g;

export function buildShadow(text: string): Shadow {
  const hidden: HiddenText[] = [];
  let plain: string;
  let skel: string;
  if (!NOT_SIMPLE.test(text)) {
    plain = skel = text.toLowerCase().replace(SIMPLE_SPACE, collapse);
  } else if (!NEEDS_WALK.test(text) && !SELECTOR_RUN.test(text) && !HANGUL_JAMO.test(text)) {
    // NFKC of the whole text equals the walk's NFKC of each base + marks cluster once joiners,
    // controls and conjoining jamo (which compose across clusters) are ruled out.
    plain = text.normalize('NFKC').replace(JOINERS, '').toLowerCase().replace(SIMPLE_SPACE, collapse);
    skel = foldConfusables(plain);
  } else {
    const walked = walk(text, false, hidden);
    plain = walked.plain;
    skel = walked.skel;
    if (text.includes('\u202e')) {
      for (const m of text.matchAll(RLO_RUN)) {
        const body = m[1] ?? '';
        if (body) hidden.push({ kind: 'bidi-reversed', text: Array.from(body).reverse().join(''), start: m.index, end: m.index + m[0].length });
      }
    }
  }
  const encodedRuns = findEncoded(text, hidden);
  return { plain, skel, hidden, encodedRuns };
}

/** The shadow of a plain string (for tests and for comparing names). */
export function shadowOf(text: string): string {
  return buildShadow(text).skel;
}

/** The same walk, remembering where every shadow unit came from (used only once a finding needs offsets). */
export function mapShadow(text: string): MappedShadow {
  const walked = walk(text, true, []);
  return { skel: walked.skel, starts: Int32Array.from(walked.starts), ends: Int32Array.from(walked.ends) };
}

function collapse(run: string): string {
  // A line break inside a paragraph reads as a space (an injection split over two lines is one
  // sentence to the model); a blank line still ends the paragraph.
  const first = run.indexOf('\n');
  if (first < 0) return ' ';
  return run.indexOf('\n', first + 1) < 0 ? ' ' : '\n\n';
}

interface Walked {
  plain: string;
  skel: string;
  starts: number[];
  ends: number[];
}

function walk(text: string, withMap: boolean, hidden: HiddenText[]): Walked {
  const w: Walked = { plain: '', skel: '', starts: [], ends: [] };
  let newlines = -1; // -1: no pending whitespace; else newlines in the pending run
  let wsStart = 0;
  const flush = (): void => {
    if (newlines < 0) return;
    const s = newlines <= 1 ? ' ' : '\n\n';
    for (let k = 0; k < s.length; k++) push(w, s[k]!, s[k]!, wsStart, wsStart + 1, withMap);
    newlines = -1;
  };
  const space = (at: number, isNewline: boolean): void => {
    if (newlines < 0) {
      newlines = 0;
      wsStart = at;
    }
    if (isNewline) newlines++;
  };
  let prevCp = 0;
  let i = 0;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    if (code < 0x80) {
      if (code === 0x20 || code === 0x09 || code === 0x0b || code === 0x0c) space(i, false);
      else if (code === 0x0a) space(i, true);
      else if (code === 0x0d) space(i, text.charCodeAt(i + 1) !== 0x0a);
      else if (code === 0x1b) {
        i = escape(text, i, hidden);
        continue;
      } else if (code >= 0x20 && code !== 0x7f) {
        if (text.charCodeAt(i + 1) >= 0x300) {
          i = cluster(text, i, 1);
          continue;
        }
        flush();
        const lower = code >= 0x41 && code <= 0x5a ? String.fromCharCode(code + 32) : text[i]!;
        push(w, lower, lower, i, i + 1, withMap);
      }
      prevCp = code;
      i++;
      continue;
    }
    const cp = text.codePointAt(i)!;
    const width = cp > 0xffff ? 2 : 1;
    if (cp <= 0x9f) {
      i = escape(text, i, hidden);
      continue;
    }
    if (isTag(cp)) {
      i = tags(text, i, prevCp === BLACK_FLAG);
      continue;
    }
    if (isVariationSelector(cp)) {
      i = selectors(text, i);
      continue;
    }
    if (isShadowNewline(cp)) space(i, true);
    else if (isShadowSpace(cp)) space(i, false);
    else if (!isShadowInvisible(cp)) {
      i = cluster(text, i, width);
      prevCp = cp;
      continue;
    }
    prevCp = cp;
    i += width;
  }
  flush();
  return w;

  /** A base character and its combining marks, NFKC-normalized together so composition works. */
  function cluster(t: string, start: number, width: number): number {
    let j = start + width;
    while (j < t.length) {
      const c = t.codePointAt(j)!;
      if (c < 0x300 || !MARK.test(String.fromCodePoint(c)) || isShadowInvisible(c)) break;
      j += c > 0xffff ? 2 : 1;
    }
    if (j === start + width) {
      // One code point alone (the common case: CJK, Cyrillic, emoji...): its folding is cached.
      const folded = foldOne(t.codePointAt(start)!);
      if (folded) {
        flush();
        for (let k = 0; k < folded.plain.length; k++) push(w, folded.plain[k]!, folded.skel[k]!, start, j, withMap);
        return j;
      }
    }
    const norm = t.slice(start, j).normalize('NFKC').toLowerCase();
    for (const ch of norm) {
      const c = ch.codePointAt(0)!;
      if (c === 0x20) {
        space(start, false);
        continue;
      }
      flush();
      const folded = c >= 0x80 ? (confusableOf(c) ?? ch) : ch;
      if (ch.length === 1) push(w, ch, folded, start, j, withMap);
      else {
        push(w, ch[0]!, ch[0]!, start, j, withMap);
        push(w, ch[1]!, ch[1]!, start, j, withMap);
      }
    }
    return j;
  }

  /** Tag characters read as the ASCII they encode, set off by spaces; a subdivision flag's tags are just dropped. */
  function tags(t: string, start: number, afterFlag: boolean): number {
    let j = start;
    let decoded = '';
    let flagLike = afterFlag;
    let n = 0;
    for (let c = t.codePointAt(j)!; isTag(c); c = t.codePointAt(j) ?? 0) {
      if (c >= 0xe0020 && c <= 0xe007e) decoded += String.fromCharCode(c - 0xe0000);
      if (!isFlagTag(c) && c !== CANCEL_TAG) flagLike = false;
      j += 2;
      n++;
    }
    if (flagLike && n >= 3 && n <= 7 && t.codePointAt(j - 2) === CANCEL_TAG) return j;
    if (decoded) {
      hidden.push({ kind: 'tags', text: decoded, start, end: j });
      space(start, false);
      for (let k = 0; k < decoded.length; k++) {
        flush();
        const lower = decoded[k]!.toLowerCase();
        push(w, lower, lower, start + 2 * k, start + 2 * k + 2, withMap);
      }
      space(j, false);
    }
    return j;
  }

  /** A run of two or more selectors is a byte channel (U+FE00+b, U+E0100+b-16): decode it for the scan. */
  function selectors(t: string, start: number): number {
    let j = start;
    const bytes: number[] = [];
    for (let c = t.codePointAt(j)!; isVariationSelector(c); c = t.codePointAt(j) ?? 0) {
      bytes.push(c <= 0xfe0f ? c - 0xfe00 : c - 0xe0100 + 16);
      j += c > 0xffff ? 2 : 1;
    }
    if (bytes.length >= 2) hidden.push({ kind: 'selectors', text: Buffer.from(bytes).toString('utf8'), start, end: j });
    return j;
  }
}

const MARK = /\p{M}/u;
/**
 * Capitals whose lower case imitates another letter than they do: Greek Ν looks like N but ν like
 * v, Υ like Y but υ like u (the confusables table is keyed by lower case). They take the walk.
 */
const CAPITAL_LOOKALIKES: ReadonlyMap<number, string> = new Map([[0x039d, 'n'], [0x03a5, 'y']]);

interface Folded {
  readonly plain: string;
  readonly skel: string;
}

/** NFKC + lower case (+ confusable) of single code points; bounded by the number of distinct code points seen. */
const foldCache = new Map<number, Folded | null>();
const FOLD_CACHE_ENTRIES = 65_536;

/** The folding of one code point, or null when NFKC yields a space (handled by the caller's general path). */
function foldOne(cp: number): Folded | null {
  let f = foldCache.get(cp);
  if (f !== undefined) return f;
  const norm = String.fromCodePoint(cp).normalize('NFKC').toLowerCase();
  if (norm.includes(' ')) f = null;
  else {
    let skel = CAPITAL_LOOKALIKES.get(cp) ?? '';
    if (!skel) {
      for (const ch of norm) {
        const c = ch.codePointAt(0)!;
        skel += c >= 0x80 && ch.length === 1 ? (confusableOf(c) ?? ch) : ch;
      }
    }
    f = { plain: norm, skel };
  }
  if (foldCache.size >= FOLD_CACHE_ENTRIES) foldCache.clear();
  foldCache.set(cp, f);
  return f;
}

function escape(text: string, i: number, hidden: HiddenText[]): number {
  const seq = scanEscape(text, i);
  const payload = seq.linkTarget ?? seq.payload;
  if (payload && /[a-z]{2}/i.test(payload)) hidden.push({ kind: 'escape-payload', text: payload, start: i, end: seq.end });
  return seq.end;
}

function push(w: Walked, plainCh: string, skelCh: string, start: number, end: number, withMap: boolean): void {
  w.plain += plainCh;
  w.skel += skelCh;
  if (withMap) {
    w.starts.push(start);
    w.ends.push(end);
  }
}
