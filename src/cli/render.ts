// Plain-text tables sized for a terminal, and server-supplied text made safe to print in one.

export interface Column {
  readonly header: string;
  readonly align?: 'left' | 'right';
  /** Widest the column gets, characters; longer cells end in `…`. */
  readonly max?: number;
  /** Takes the width the other columns leave (give it to one column, usually the last). */
  readonly fill?: boolean;
}

/** Width when nothing says how wide the output is (piped, no COLUMNS), characters. */
const DEFAULT_WIDTH = 100;
/** Narrowest a terminal is assumed to be, characters. */
const MIN_WIDTH = 60;
/** Widest layout, characters: beyond this a description line is no easier to read. */
const MAX_WIDTH = 400;
/** Narrowest a fill column gets before it is dropped, characters. */
const MIN_FILL = 10;
const GAP = '  ';

/**
 * The width to lay tables out for: the terminal's own; piped, the COLUMNS variable (shells export
 * it, `COLUMNS=200 switchboard tools | less`), else DEFAULT_WIDTH.
 */
export function terminalWidth(): number {
  const fromEnv = Number.parseInt(process.env.COLUMNS ?? '', 10);
  const columns = process.stdout.isTTY && process.stdout.columns > 0 ? process.stdout.columns : Number.isFinite(fromEnv) && fromEnv > 0 ? fromEnv : DEFAULT_WIDTH;
  return Math.max(MIN_WIDTH, Math.min(columns, MAX_WIDTH));
}

/** Lines of a table: a header row, then one row per entry; cells are cut to fit `width`. */
export function table(columns: readonly Column[], rows: readonly (readonly string[])[], width: number): string[] {
  const widths = columns.map((column, i) => {
    if (column.fill === true) return 0;
    const longest = Math.max(length(column.header), ...rows.map((row) => length(row[i] ?? '')));
    return Math.min(longest, column.max ?? longest);
  });
  const fill = columns.findIndex((column) => column.fill === true);
  if (fill >= 0) {
    const used = widths.reduce((sum, w) => sum + w, 0) + GAP.length * (columns.length - 1);
    widths[fill] = Math.max(width - used, 0);
  }
  const shown = columns.map((column, i) => column.fill !== true || (widths[i] ?? 0) >= MIN_FILL);
  const line = (cells: readonly string[]) =>
    columns
      .flatMap((column, i) => {
        if (shown[i] !== true) return [];
        const w = widths[i] ?? 0;
        const text = truncate(cells[i] ?? '', w);
        const pad = ' '.repeat(Math.max(w - length(text), 0));
        return [column.align === 'right' ? pad + text : text + pad];
      })
      .join(GAP)
      .trimEnd();
  return [line(columns.map((column) => column.header)), ...rows.map(line)];
}

/** `text` cut to `width` characters, ending in `…` when cut. */
export function truncate(text: string, width: number): string {
  const chars = [...text];
  if (chars.length <= width) return text;
  if (width <= 0) return '';
  return chars.slice(0, width - 1).join('') + '…';
}

/** Control characters: ESC starts terminal escape sequences that could rewrite what the user sees. */
const CONTROL = /[\p{Cc}\u2028\u2029]/gu;
/** Format characters: bidi overrides reorder a row, zero-width ones hide text; none prints anything honest. */
const FORMAT = /\p{Cf}/gu;

/**
 * The first non-blank line of a server-supplied text, safe for a terminal: descriptions come
 * from third-party servers, and only the JSON output carries them verbatim.
 */
export function firstLine(text: string | undefined): string {
  if (text === undefined) return '';
  const line = text.split(/\r\n|[\r\n\u2028\u2029]/).find((l) => l.trim() !== '') ?? '';
  return printable(line);
}

/** One line of untrusted text with controls blanked, format characters dropped and runs of space collapsed. */
export function printable(text: string): string {
  return text.replace(CONTROL, ' ').replace(FORMAT, '').replace(/\s+/g, ' ').trim();
}

function length(text: string): number {
  return [...text].length;
}
