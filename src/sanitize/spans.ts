// Spans of a field's text: the sentence around a match, merging overlaps, how random a run looks.
import type { MatchSpan } from './types.js';

/** The sentence of the original text that holds [start, end): from the previous sentence end to the next. */
export function sentenceAround(text: string, span: MatchSpan): MatchSpan {
  const END = /[.!?](?=\s)|\n\s*\n/g;
  let start = 0;
  for (let m = END.exec(text); m && m.index < span.start; m = END.exec(text)) start = m.index + m[0].length;
  END.lastIndex = span.end;
  const next = END.exec(text);
  const end = next ? next.index + 1 : text.length;
  while (start < span.start && /\s/.test(text[start] ?? '')) start++;
  return { start, end: Math.max(end, span.end) };
}

/** Sorts and merges overlapping spans in place. */
export function mergeSpans(spans: MatchSpan[]): void {
  spans.sort((a, b) => a.start - b.start);
  for (let i = 1; i < spans.length; ) {
    const prev = spans[i - 1]!;
    const cur = spans[i]!;
    if (cur.start <= prev.end) {
      spans[i - 1] = { start: prev.start, end: Math.max(prev.end, cur.end) };
      spans.splice(i, 1);
    } else i++;
  }
}

/** Shannon entropy in bits per char: ~5.6 for random base64 of this length, ~4.2 for words run together. */
export function entropy(s: string): number {
  const counts = new Map<string, number>();
  for (const ch of s) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let h = 0;
  for (const n of counts.values()) {
    const p = n / s.length;
    h -= p * Math.log2(p);
  }
  return h;
}
