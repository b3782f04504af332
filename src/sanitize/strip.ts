// The strip layer: one pass that removes hidden characters and terminal sequences from forwarded text, recording each removal.
import { scanEscape, startsEscape } from './ansi.js';
import {
  BLACK_FLAG,
  CANCEL_TAG,
  hex,
  isBidiControl,
  isBidiMark,
  isLatinLetter,
  isFlagTag,
  isTag,
  isVariationSelector,
  isZeroWidth,
  joinerAllowed,
  singleSelectorAllowed,
  ZWJ,
  ZWNJ,
} from './chars.js';

export type StripRule =
  | 'unicode-tag'
  | 'zero-width'
  | 'bidi-control'
  | 'variation-selector-smuggling'
  | 'ansi-escape'
  | 'control-char';

export interface Removal {
  readonly rule: StripRule;
  /** UTF-16 span in the input. */
  readonly start: number;
  readonly end: number;
  /** How the log counts it: a code point range (`U+200B`, `U+E0000-E007F`) or a sequence kind (`CSI`). */
  readonly label: string;
  readonly count: number;
  /** What the channel carried: tag text as ASCII, selector bytes as UTF-8, an OSC payload or link target. */
  readonly payload?: string;
}

export interface StripResult {
  readonly text: string;
  /** In input order, non-overlapping. */
  readonly removals: readonly Removal[];
}

/** Everything the pass could act on; text without any of it is returned untouched at the cost of one regex test. */
const CANDIDATE =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u00ad\u034f\u115f\u1160\u17b4\u17b5\u180e\u200b-\u200f\u061c\u202a-\u202e\u2060-\u2064\u2066-\u2069\u3164\ufe00-\ufe0f\ufeff\uffa0\u{e0000}-\u{e007f}\u{e0100}-\u{e01ef}]/u;

export function needsStrip(text: string): boolean {
  return CANDIDATE.test(text);
}

export function stripHidden(text: string): StripResult {
  if (!needsStrip(text)) return { text, removals: [] };
  const removals: Removal[] = [];
  const out: string[] = [];
  let copied = 0; // input offset up to which text is in `out`
  let prevKept: number | undefined; // last code point that stays, for context rules
  const remove = (r: Removal): void => {
    if (r.start > copied) out.push(text.slice(copied, r.start));
    copied = r.end;
    removals.push(r);
  };

  let i = 0;
  while (i < text.length) {
    const cp = text.codePointAt(i) ?? 0;
    const width = cp > 0xffff ? 2 : 1;
    if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f)) {
      if (cp === 0x09 || cp === 0x0a) {
        prevKept = cp;
        i += 1;
        continue;
      }
      if ((cp < 0x20 && cp !== 0x1b) || cp === 0x7f) {
        const crlf = cp === 0x0d && text.charCodeAt(i + 1) === 0x0a;
        remove({ rule: 'control-char', start: i, end: i + 1, label: crlf ? 'CRLF' : `U+${hex(cp)}`, count: 1 });
        i += 1;
        continue;
      }
      if (startsEscape(cp)) {
        const seq = scanEscape(text, i);
        const payload = seq.linkTarget ?? seq.payload;
        remove({ rule: 'ansi-escape', start: i, end: seq.end, label: seq.kind, count: 1, ...(payload ? { payload } : {}) });
        i = seq.end;
        continue;
      }
    }
    if (cp === BLACK_FLAG) {
      const end = subdivisionFlagEnd(text, i + 2);
      prevKept = end > i + 2 ? CANCEL_TAG : cp;
      i = end;
      continue;
    }
    if (isTag(cp)) {
      let j = i;
      let payload = '';
      let n = 0;
      for (let c = cp; isTag(c); c = text.codePointAt(j) ?? 0) {
        if (c >= 0xe0020 && c <= 0xe007e) payload += String.fromCharCode(c - 0xe0000);
        j += 2;
        n++;
      }
      remove({ rule: 'unicode-tag', start: i, end: j, label: 'U+E0000-E007F', count: n, payload });
      i = j;
      continue;
    }
    if (isZeroWidth(cp)) {
      remove({ rule: 'zero-width', start: i, end: i + width, label: `U+${hex(cp)}`, count: 1 });
      i += width;
      continue;
    }
    if (cp === ZWJ || cp === ZWNJ) {
      if (joinerAllowed(cp, prevKept, text.codePointAt(i + 1))) {
        i += 1; // prevKept stays: the joiner's own context is its neighbours
      } else {
        remove({ rule: 'zero-width', start: i, end: i + 1, label: `U+${hex(cp)}`, count: 1 });
        i += 1;
      }
      continue;
    }
    if (isBidiControl(cp)) {
      remove({ rule: 'bidi-control', start: i, end: i + 1, label: `U+${hex(cp)}`, count: 1 });
      i += 1;
      continue;
    }
    // LRM, RLM and ALM order right-to-left text; between two Latin letters they order nothing and
    // only split words for a filter while the model reads them joined up.
    if (isBidiMark(cp) && isLatinLetter(prevKept) && isLatinLetter(text.codePointAt(i + 1))) {
      remove({ rule: 'bidi-control', start: i, end: i + 1, label: `U+${hex(cp)}`, count: 1 });
      i += 1;
      continue;
    }
    if (isVariationSelector(cp)) {
      i = selectorRun(text, i, prevKept, remove);
      continue;
    }
    prevKept = cp;
    i += width;
  }
  if (copied < text.length) out.push(text.slice(copied));
  return { text: out.join(''), removals };
}

/** After U+1F3F4 at `i - 2`: the end of a well-formed `[tag a-z0-9]{2,6} U+E007F` sequence, or `i` if there is none. */
function subdivisionFlagEnd(text: string, i: number): number {
  let j = i;
  let n = 0;
  while (n <= 6 && isFlagTag(text.codePointAt(j) ?? 0)) {
    j += 2;
    n++;
  }
  return n >= 2 && n <= 6 && text.codePointAt(j) === CANCEL_TAG ? j + 2 : i;
}

/**
 * A run of selectors at `i`. One selector after an emoji, keycap base, ideograph or math symbol is
 * kept; a run of two or more is a byte channel (U+FE00+b for b < 16, U+E0100+b-16 otherwise): the
 * legitimate first one stays, the rest goes, and the bytes are decoded for the log.
 */
function selectorRun(text: string, i: number, prev: number | undefined, remove: (r: Removal) => void): number {
  let j = i;
  const bytes: number[] = [];
  for (let c = text.codePointAt(j) ?? 0; isVariationSelector(c); c = text.codePointAt(j) ?? 0) {
    bytes.push(c <= 0xfe0f ? c - 0xfe00 : c - 0xe0100 + 16);
    j += c > 0xffff ? 2 : 1;
  }
  const first = text.codePointAt(i) ?? 0;
  const keepFirst = prev !== undefined && singleSelectorAllowed(prev, first);
  const firstWidth = first > 0xffff ? 2 : 1;
  if (bytes.length === 1) {
    if (!keepFirst) remove(selectorRemoval(i, j, [first], undefined));
    return j;
  }
  const start = keepFirst ? i + firstWidth : i;
  const payload = Buffer.from(keepFirst ? bytes.slice(1) : bytes).toString('utf8');
  const removedCps: number[] = [];
  for (let k = start; k < j; k += (text.codePointAt(k) ?? 0) > 0xffff ? 2 : 1) removedCps.push(text.codePointAt(k) ?? 0);
  remove(selectorRemoval(start, j, removedCps, payload));
  return j;
}

function selectorRemoval(start: number, end: number, cps: readonly number[], payload: string | undefined): Removal {
  const supplementary = cps.filter((c) => c > 0xffff).length;
  const label = supplementary === cps.length ? 'U+E0100-E01EF' : supplementary === 0 ? 'U+FE00-FE0F' : 'U+FE00-FE0F,U+E0100-E01EF';
  return {
    rule: 'variation-selector-smuggling',
    start,
    end,
    label,
    count: cps.length,
    ...(payload !== undefined ? { payload } : {}),
  };
}
