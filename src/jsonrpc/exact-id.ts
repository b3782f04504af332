// Request ids beyond 2^53 echoed exactly as the client wrote them: JSON.parse rounds such a number
// (12345678901234567890 becomes 12345678901234567000), so the id would come back as another one.

/**
 * Marks an id kept as its digits: a string that begins with NUL. No client id can begin so (one
 * that tries is refused as invalid), so the mark is unambiguous, and a string is what every id
 * map, comparison and log already handles. Only serialization (encode, idJson) looks inside.
 */
const EXACT = '\u0000';

/** Whether `id` is an integer id kept as the digits the client wrote. */
export function isExactNumberId(id: unknown): id is string {
  return typeof id === 'string' && id.charCodeAt(0) === 0;
}

/** The id as JSON text: the client's digits. */
export function exactNumberIdText(id: string): string {
  return id.slice(1);
}

/**
 * After parsing a single message from `text`: a top-level integer id too large for a double is
 * replaced by its marked digits; a string id that begins with the mark becomes null (refused as
 * invalid). Costs a typeof on every message and a walk of the text only for such ids.
 */
export function keepExactId(parsed: unknown, text: string): void {
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return;
  const message = parsed as { id?: unknown };
  const id = message.id;
  if (typeof id === 'number') {
    if (Number.isSafeInteger(id) || !Number.isInteger(id)) return;
    const digits = topLevelIdText(text);
    if (digits !== undefined && /^-?\d+$/.test(digits)) message.id = EXACT + digits;
  } else if (isExactNumberId(id)) message.id = null;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * The text of the outermost object's `id` value when it is a number literal, found by walking the
 * (already valid) JSON: strings skipped, depth counted, `"id"` recognised only one brace deep.
 */
export function topLevelIdText(text: string): string | undefined {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const start = i;
      for (i++; i < text.length && text.charCodeAt(i) !== QUOTE; i++) if (text.charCodeAt(i) === BACKSLASH) i++;
      if (depth !== 1 || i - start !== 3 || text.slice(start + 1, i) !== 'id') continue;
      let j = i + 1;
      while (j < text.length && /\s/.test(text[j]!)) j++;
      if (text[j] !== ':') continue;
      j++;
      while (j < text.length && /\s/.test(text[j]!)) j++;
      const match = /^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(j, j + 400));
      return match?.[0];
    }
    if (c === 0x7b || c === 0x5b) depth++;
    else if (c === 0x7d || c === 0x5d) depth--;
  }
  return undefined;
}
