// A word list of many languages matched in one pass: stems that start a word ("versend" for
// "versenden", "versendet"), short words that must stand whole ("при", "al"), and stems matched
// anywhere (scripts written without spaces, and words that take prefixes or clitics). Thousands of
// entries cost what a few do: an entry is only tried where the text has its first two characters,
// never as one alternation of thousands that a regular expression would try at every position.
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

export class StemLexicon {
  /** Entries that must start a word, by their first two characters (or their one). */
  private readonly atWordStart = new Map<string, Entry[]>();
  /** Entries matched anywhere, by their first two characters (or their one). */
  private readonly anywhere = new Map<string, Entry[]>();

  constructor(groups: Iterable<readonly [key: string, words: Words]>) {
    for (const [key, words] of groups) {
      for (const text of words.worded ?? []) this.add(this.atWordStart, { text, key, whole: false });
      for (const text of words.whole ?? []) this.add(this.atWordStart, { text, key, whole: true });
      for (const text of words.anywhere ?? []) this.add(this.anywhere, { text, key, whole: false });
    }
    // Longest first, so "bei jedem" is found before "bei".
    for (const map of [this.atWordStart, this.anywhere]) for (const list of map.values()) list.sort((a, b) => b.text.length - a.text.length);
  }

  /** Every match, in order of position; at one position only the longest entry. */
  findAll(text: string): StemMatch[] {
    const out: StemMatch[] = [];
    for (let i = 0; i < text.length; i++) {
      const wordStart = i === 0 || !LETTER.test(text[i - 1]!);
      const hit = (wordStart ? this.at(this.atWordStart, text, i) : undefined) ?? this.at(this.anywhere, text, i);
      if (hit === undefined) continue;
      out.push({ index: i, length: hit.text.length, key: hit.key });
      i += hit.text.length - 1;
    }
    return out;
  }

  test(text: string): boolean {
    for (let i = 0; i < text.length; i++) {
      const wordStart = i === 0 || !LETTER.test(text[i - 1]!);
      if ((wordStart && this.at(this.atWordStart, text, i) !== undefined) || this.at(this.anywhere, text, i) !== undefined) return true;
    }
    return false;
  }

  private add(map: Map<string, Entry[]>, entry: Entry): void {
    const text = entry.text.normalize('NFKC').toLowerCase();
    if (text.trim() === '') return;
    const head = text.slice(0, 2);
    const list = map.get(head);
    if (list === undefined) map.set(head, [{ ...entry, text }]);
    else if (!list.some((e) => e.text === text && e.whole === entry.whole)) list.push({ ...entry, text });
  }

  private at(map: Map<string, Entry[]>, text: string, i: number): Entry | undefined {
    for (const head of [text.slice(i, i + 2), text[i]!]) {
      const list = map.get(head);
      if (list === undefined) continue;
      for (const e of list) {
        if (!text.startsWith(e.text, i)) continue;
        if (e.whole && i + e.text.length < text.length && LETTER.test(text[i + e.text.length]!)) continue;
        return e;
      }
    }
    return undefined;
  }
}
