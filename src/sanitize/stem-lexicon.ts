// A word list of many languages matched in one pass: stems that start a word ("versend" for
// "versenden", "versendet"), short words that must stand whole ("при", "al"), and stems matched
// anywhere (scripts written without spaces, and words that take prefixes or clitics). Thousands of
// entries cost what a few do: an entry is only tried where the text has its first two characters,
// never as one alternation of thousands that a regular expression would try at every position (and
// the two characters are looked up as a number, so reading a text allocates nothing per position).
// Entries and text are read in the same form: NFKC, lower case.

export interface Words {
  /** Stems that must start a word. */
  readonly worded?: readonly string[];
  /** Words that must be whole (short ones that as stems would start unrelated words). */
  readonly whole?: readonly string[];
  /** Stems matched anywhere. */
  readonly anywhere?: readonly string[];
}

export interface StemMatch {
  readonly index: number;
  readonly length: number;
  /** The group the entry was listed under (an action's English name), or '' for a plain list. */
  readonly key: string;
}

interface Entry {
  readonly text: string;
  readonly key: string;
  readonly whole: boolean;
}

const LETTER = /[\p{L}\p{M}\p{N}]/u;

/** Whether the character before position i is part of a word (ASCII looked at directly). */
function inWord(text: string, i: number): boolean {
  if (i === 0) return false;
  const c = text.charCodeAt(i - 1);
  if (c < 128) return (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || (c >= 65 && c <= 90);
  return LETTER.test(text[i - 1]!);
}

/** Whether a word goes on at position i: a letter, or a hyphen joining one ("pre-execution" is not "pre"). */
function continuesWord(text: string, i: number): boolean {
  if (i >= text.length) return false;
  if (LETTER.test(text[i]!)) return true;
  return text[i] === '-' && i + 1 < text.length && LETTER.test(text[i + 1]!);
}

/** The lookup key of the one or two characters at i: a number, so nothing is allocated. */
function keyAt(text: string, i: number, two: boolean): number {
  const first = text.charCodeAt(i);
  return two && i + 1 < text.length ? first * 65536 + text.charCodeAt(i + 1) + 1 : first;
}

/**
 * Entries by their first two characters (or their one, for an entry of one character), with a
 * table of which heads exist in front: most positions of a text start no entry, and a byte read
 * there costs less than a lookup by a number past the small-integer range.
 */
class Heads {
  readonly entries = new Map<number, Entry[]>();
  /** Whether some entry may start with this pair of characters (slots shared, so only 'no' is sure). */
  private readonly pairs = new Uint8Array(PAIR_SLOTS);
  /** Whether some entry of one character is this character. */
  private readonly singles = new Uint8Array(65536);

  mark(text: string): void {
    if (text.length >= 2) this.pairs[pairSlot(text.charCodeAt(0), text.charCodeAt(1))] = 1;
    else this.singles[text.charCodeAt(0)] = 1;
  }

  mayStartPair(first: number, second: number): boolean {
    return this.pairs[pairSlot(first, second)] === 1;
  }

  mayBeSingle(first: number): boolean {
    return this.singles[first] === 1;
  }
}
const PAIR_SLOTS = 1 << 16;
const pairSlot = (first: number, second: number): number => (Math.imul(first, 40503) + second) & (PAIR_SLOTS - 1);

export class StemLexicon {
  /** Entries that must start a word. */
  private readonly atWordStart = new Heads();
  /** Entries matched anywhere. */
  private readonly anywhere = new Heads();

  constructor(groups: Iterable<readonly [key: string, words: Words]>) {
    for (const [key, words] of groups) {
      for (const text of words.worded ?? []) this.add(this.atWordStart, { text, key, whole: false });
      for (const text of words.whole ?? []) this.add(this.atWordStart, { text, key, whole: true });
      for (const text of words.anywhere ?? []) this.add(this.anywhere, { text, key, whole: false });
    }
    // Longest first, so "bei jedem" is found before "bei".
    for (const heads of [this.atWordStart, this.anywhere]) for (const list of heads.entries.values()) list.sort((a, b) => b.text.length - a.text.length);
  }

  /** Every match, in order of position; at one position only the longest entry. */
  findAll(text: string): StemMatch[] {
    const out: StemMatch[] = [];
    for (let i = 0; i < text.length; i++) {
      const hit = (inWord(text, i) ? undefined : this.at(this.atWordStart, text, i)) ?? this.at(this.anywhere, text, i);
      if (hit === undefined) continue;
      out.push({ index: i, length: hit.text.length, key: hit.key });
      i += hit.text.length - 1;
    }
    return out;
  }

  test(text: string): boolean {
    for (let i = 0; i < text.length; i++) {
      if ((!inWord(text, i) && this.at(this.atWordStart, text, i) !== undefined) || this.at(this.anywhere, text, i) !== undefined) return true;
    }
    return false;
  }

  private add(heads: Heads, entry: Entry): void {
    const text = entry.text.normalize('NFKC').toLowerCase();
    if (text.trim() === '') return;
    const head = keyAt(text, 0, text.length >= 2);
    heads.mark(text);
    const list = heads.entries.get(head);
    if (list === undefined) heads.entries.set(head, [{ ...entry, text }]);
    else if (!list.some((e) => e.text === text && e.whole === entry.whole)) list.push({ ...entry, text });
  }

  private at(heads: Heads, text: string, i: number): Entry | undefined {
    const first = text.charCodeAt(i);
    const pair = i + 1 < text.length && heads.mayStartPair(first, text.charCodeAt(i + 1));
    for (let two = 1; two >= 0; two--) {
      if (two === 1 ? !pair : !heads.mayBeSingle(first)) continue;
      const list = heads.entries.get(keyAt(text, i, two === 1));
      if (list === undefined) continue;
      for (const e of list) {
        if (!text.startsWith(e.text, i)) continue;
        if (e.whole && continuesWord(text, i + e.text.length)) continue;
        return e;
      }
    }
    return undefined;
  }
}
