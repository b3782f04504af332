// The joined reading: text broken apart so that no word matches, put back together.
//
// The canonical reading (shadow.ts) never deletes a character: deleting joins words, and a space
// read as nothing would let "ignore<ZWSP>all" through. Obfuscation does the opposite: it breaks
// one word apart with characters a reader's eye skips. This reading deletes what sits inside
// words (invisibles, HTML comments, emphasis markers, piles of combining marks), joins
// letter-spaced runs, and joins a base64 block split over lines. A field whose joined reading is
// withheld where its canonical reading is not is withheld as a whole (field.ts).
import { joinLetterSpaced } from './letter-spaced.js';

/** Invisible characters that may sit inside a word: zero-width, joiners, BOM, soft hyphen, invisible operators. */
const INSIDE_WORD = /(?<=[\p{L}\p{N}_@.-])[\u00ad\u034f\u180e\u200b-\u200d\u2060-\u2064\ufeff]+(?=[\p{L}\p{N}_@.-])/gu;
const HTML_COMMENT = /<!--[\s\S]{0,200}?-->/g;
/** Emphasis markers that split a word ("wij**zig**", "in**box**", "**mel**den"). */
const EMPHASIS = /(?<=\p{L})(?:\*\*|~~|\*)(?=\p{L})|(?<=\p{L})(?:\*\*|~~)(?=[\s.,;:!?]|$)|(?<=^|\s)(?:\*\*|~~)(?=\p{L})/gu;
/** A marker strictly inside a word: only then are the markers read away (ordinary bold is left as it is). */
const EMPHASIS_INSIDE = /\p{L}(?:\*\*|~~|\*)\p{L}/u;
const MARKS = /\p{M}/gu;
/** Marks that strike or overlay a letter: no language writes with them. */
const STRIKE = /[\u0334-\u0338\u20d2\u20d3\u20e5\u20e6]/;
/** Base64 lines of a block broken over lines (each 16+ characters of the alphabet). */
const BASE64_BREAK = /^([ \t]*[A-Za-z0-9+/]{16,512})[ \t]*\r?\n[ \t]*(?=[A-Za-z0-9+/]{4,512}={0,2}[ \t]*(?:\r?\n|$))/gm;
/** Cheap tests for each thing this reading joins; most text has none of them. */
const INVISIBLE_OR_MARK = /[\u00ad\u034f\u180e\u200b-\u200d\u2060-\u2064\ufeff\u0300-\u036f\u0483-\u0489\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff]/;
const BASE64_LINE = /[A-Za-z0-9+/]{16}\r?\n/;
const SPACED_LETTERS = /(?:^|\s)\S\s\S\s\S\s\S(?=\s|$)/;

function mayJoin(value: string): boolean {
  return (
    INVISIBLE_OR_MARK.test(value) ||
    value.includes('<!--') ||
    ((value.includes('*') || value.includes('~~')) && EMPHASIS_INSIDE.test(value)) ||
    (value.includes('\n') && BASE64_LINE.test(value)) ||
    SPACED_LETTERS.test(value)
  );
}

/** The joined reading of `value`, or undefined when there is nothing to join. */
export function joinedReading(value: string): string | undefined {
  if (!mayJoin(value)) return undefined;
  let text = value.replace(HTML_COMMENT, '').replace(INSIDE_WORD, '');
  if (EMPHASIS_INSIDE.test(text)) text = text.replace(EMPHASIS, '');
  if (markedHeavily(text)) text = text.normalize('NFD').replace(MARKS, '').normalize('NFC');
  text = text.replace(BASE64_BREAK, '$1');
  text = joinLetterSpaced(text) ?? text;
  return text === value ? undefined : text;
}

/** Marks on a third of the letters or more, or any strike-through mark: decoration, not a language's accents. */
function markedHeavily(text: string): boolean {
  if (STRIKE.test(text)) return true;
  const nfd = text.normalize('NFD');
  let marks = 0;
  let letters = 0;
  for (const ch of nfd) {
    if (/\p{M}/u.test(ch)) marks++;
    else if (/\p{L}/u.test(ch)) letters++;
  }
  return letters > 0 && marks * 3 >= letters;
}
