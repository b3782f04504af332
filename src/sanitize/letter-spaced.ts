// Letter-spaced text: "B e f o r e k u b e c t l _ a p p l y y o u m u s t" with one kind of
// space between letters and another (or a longer run) between words. The canonical reading makes
// every separator one space, which keeps the words apart as single letters; this reading joins them.

/** Single characters each followed by one separator run, at least this many in a row. */
const MIN_LETTERS = 10;
/** A non-space character, then a run of spaces (any Unicode space, including the zero-width ones). */
const CELL = /(\S)([\s\u200b-\u200d\u2060\ufeff]+)(?=\S)/gu;
/** Cheap test: two single characters separated by spaces, three times over. */
const QUICK = /(?:^|\s)\S\s+\S\s+\S\s+\S(?:\s|$)/u;

/**
 * The value with its letter-spaced runs joined into words, or undefined when it has none. In each
 * run, the separator seen most often is the one between letters (deleted); any other separator is
 * between words (read as one space).
 */
export function joinLetterSpaced(value: string): string | undefined {
  if (value.length < 2 * MIN_LETTERS || !QUICK.test(value)) return undefined;
  const cells = [...value.matchAll(CELL)];
  let out = '';
  let copied = 0;
  let changed = false;
  for (let i = 0; i < cells.length; ) {
    // A run: consecutive cells, each a single character right after the previous separator.
    let j = i;
    while (j + 1 < cells.length && cells[j + 1]!.index === cells[j]!.index + cells[j]![0].length && isSingle(value, cells[j]!.index)) j++;
    const length = j - i + 1;
    if (length >= MIN_LETTERS && isSingle(value, cells[i]!.index)) {
      const counts = new Map<string, number>();
      for (let k = i; k <= j; k++) counts.set(cells[k]![2]!, (counts.get(cells[k]![2]!) ?? 0) + 1);
      const between = [...counts].sort((a, b) => b[1] - a[1])[0]![0];
      out += value.slice(copied, cells[i]!.index);
      for (let k = i; k <= j; k++) out += cells[k]![1]! + (cells[k]![2] === between ? '' : ' ');
      copied = cells[j]!.index + cells[j]![0].length;
      changed = true;
    }
    i = j + 1;
  }
  return changed ? out + value.slice(copied) : undefined;
}

/** The character at `at` stands alone: the one before it is a separator (or the start). */
function isSingle(value: string, at: number): boolean {
  return at === 0 || /[\s\u200b-\u200d\u2060\ufeff]/u.test(value[at - 1]!);
}
