// The neutralize layer: markup that hides text or leaks data when rendered is replaced by a visible marker.

export type NeutralizeRule = 'html-comment' | 'markdown-image' | 'whitespace-padding';

export interface Edit {
  readonly rule: NeutralizeRule;
  /** UTF-16 span in the input text. */
  readonly start: number;
  readonly end: number;
  readonly replacement: string;
  /** What was hidden or linked (an image URL), for the log's `decoded`. */
  readonly detail?: string;
}

export const COMMENT_MARKER = '[comment removed]';
export const IMAGE_MARKER = '[image removed]';
/**
 * SANITIZE.md says >= 8 spaces/tabs. We collapse runs of >= 40: aligned Markdown tables, CLI help
 * and code comments outside fences legitimately use 8-39 (and must pass unchanged), while pushing a
 * payload off-screen in a truncating UI takes far more than 40.
 */
const PADDING_RUN = 40;
const SPACE = '[ \\t\\u00a0\\u2000-\\u200a\\u202f\\u205f\\u3000]';

/** One cheap test for "anything to do?"; the lookbehind starts the padding check only at the start of a run. */
const GATE = new RegExp(`<!--|!\\[|<img|(?<!${SPACE})${SPACE}{${PADDING_RUN}}|\\n(?:[ \\t]*\\n){3}`, 'i');
const SPACE_RUN = new RegExp(`${SPACE}{${PADDING_RUN},}`, 'g');
const BLANK_LINES = /\n(?:[ \t]*\n){3,}/g;
const INLINE_IMAGE =
  /!\[([^\]\n]{0,1000})\]\(\s*<?([^\s)>]{1,4096})>?(?:\s+(?:"[^"\n]{0,500}"|'[^'\n]{0,500}'|\([^)\n]{0,500}\)))?\s*\)/g;
const REF_IMAGE = /!\[([^\]\n]{0,1000})\](?:\[([^\]\n]{0,200})\])?/g;
const REF_DEFINITION = /^ {0,3}\[([^\]\n]{1,200})\]:[ \t]*<?([^\s>]+)>?/gm;
const IMG_TAG = /<img\b[^>]{0,2000}>/gi;
const REMOTE = /^(?:[a-z][a-z0-9+.-]{0,20}:|\/\/)/i;

export function neutralize(text: string): { text: string; edits: Edit[] } {
  if (!GATE.test(text)) return { text, edits: [] };
  const fences = fencedRanges(text);
  const code = [...fences, ...inlineCodeRanges(text, fences)].sort((a, b) => a[0] - b[0]);
  const inCode = (ranges: readonly (readonly [number, number])[], at: number): boolean =>
    ranges.some(([s, e]) => at >= s && at < e);
  const edits: Edit[] = [];

  for (let at = text.indexOf('<!--'); at >= 0; at = text.indexOf('<!--', at + 4)) {
    if (inCode(code, at)) continue;
    const close = text.indexOf('-->', at + 4);
    const end = close < 0 ? text.length : close + 3;
    edits.push({ rule: 'html-comment', start: at, end, replacement: COMMENT_MARKER, detail: text.slice(at + 4, close < 0 ? end : close) });
    at = end - 4;
  }
  for (const m of text.matchAll(INLINE_IMAGE)) {
    const url = m[2] ?? '';
    if (!inCode(code, m.index) && REMOTE.test(url)) edits.push(imageEdit(m.index, m[0].length, m[1] ?? '', url));
  }
  if (text.includes('![')) {
    const defs = new Map<string, string>();
    for (const m of text.matchAll(REF_DEFINITION)) defs.set(label(m[1] ?? ''), m[2] ?? '');
    for (const m of text.matchAll(REF_IMAGE)) {
      if (text[m.index + m[0].length] === '(' && m[2] === undefined) continue; // inline form, handled above
      const url = defs.get(label(m[2] || m[1] || ''));
      if (url !== undefined && !inCode(code, m.index) && REMOTE.test(url)) edits.push(imageEdit(m.index, m[0].length, m[1] ?? '', url));
    }
  }
  for (const m of text.matchAll(IMG_TAG)) {
    const src = /\bsrc\s*=\s*["']?([^"'\s>]+)/i.exec(m[0])?.[1] ?? '';
    if (inCode(code, m.index) || !REMOTE.test(src)) continue;
    const alt = /\balt\s*=\s*(?:"([^"]*)"|'([^']*)')/i.exec(m[0]);
    edits.push(imageEdit(m.index, m[0].length, alt?.[1] ?? alt?.[2] ?? '', src));
  }
  for (const m of text.matchAll(SPACE_RUN)) {
    if (!inCode(fences, m.index)) edits.push({ rule: 'whitespace-padding', start: m.index, end: m.index + m[0].length, replacement: ' ' });
  }
  for (const m of text.matchAll(BLANK_LINES)) {
    if (!inCode(fences, m.index + 1)) edits.push({ rule: 'whitespace-padding', start: m.index, end: m.index + m[0].length, replacement: '\n\n' });
  }
  return apply(text, edits);
}

function imageEdit(start: number, length: number, alt: string, url: string): Edit {
  const shown = alt.trim();
  return { rule: 'markdown-image', start, end: start + length, replacement: shown || IMAGE_MARKER, detail: url };
}

function label(s: string): string {
  return s.trim().toLowerCase().replace(/\s+/g, ' ');
}

/** Non-overlapping edits in order (the earlier of two overlapping ones wins), applied in one pass. */
export function apply(text: string, all: readonly Edit[]): { text: string; edits: Edit[] } {
  const sorted = [...all].sort((a, b) => a.start - b.start || b.end - a.end);
  const edits: Edit[] = [];
  const parts: string[] = [];
  let at = 0;
  for (const e of sorted) {
    if (e.start < at) continue;
    parts.push(text.slice(at, e.start), e.replacement);
    at = e.end;
    edits.push(e);
  }
  if (edits.length === 0) return { text, edits };
  parts.push(text.slice(at));
  return { text: parts.join(''), edits };
}

/** Fenced code blocks (``` or ~~~, up to 3 spaces of indent); an unclosed fence runs to the end. */
export function fencedRanges(text: string): [number, number][] {
  const ranges: [number, number][] = [];
  let open: { start: number; ch: string; len: number } | undefined;
  let lineStart = 0;
  while (lineStart <= text.length) {
    let lineEnd = text.indexOf('\n', lineStart);
    if (lineEnd < 0) lineEnd = text.length;
    const line = text.slice(lineStart, Math.min(lineEnd, lineStart + 256));
    const fence = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (fence) {
      const run = fence[1]!;
      if (!open) open = { start: lineStart, ch: run[0]!, len: run.length };
      else if (run[0] === open.ch && run.length >= open.len && line.slice(fence[0].length).trim() === '') {
        ranges.push([open.start, lineEnd]);
        open = undefined;
      }
    }
    if (lineEnd === text.length) break;
    lineStart = lineEnd + 1;
  }
  if (open) ranges.push([open.start, text.length]);
  return ranges;
}

/** Inline code spans: a backtick run closed by the next run of the same length (CommonMark), in one pass. */
export function inlineCodeRanges(text: string, fences: readonly (readonly [number, number])[]): [number, number][] {
  if (!text.includes('`')) return [];
  const runs: { start: number; len: number }[] = [];
  for (const m of text.matchAll(/`+/g)) {
    if (!fences.some(([s, e]) => m.index >= s && m.index < e)) runs.push({ start: m.index, len: m[0].length });
  }
  // For each run, the index of the next run of the same length, found right to left in O(n).
  const nextSame = new Array<number>(runs.length).fill(-1);
  const lastByLen = new Map<number, number>();
  for (let k = runs.length - 1; k >= 0; k--) {
    nextSame[k] = lastByLen.get(runs[k]!.len) ?? -1;
    lastByLen.set(runs[k]!.len, k);
  }
  const ranges: [number, number][] = [];
  for (let k = 0; k < runs.length; ) {
    const close = nextSame[k]!;
    if (close < 0) {
      k++;
      continue;
    }
    ranges.push([runs[k]!.start, runs[close]!.start + runs[close]!.len]);
    k = close + 1;
  }
  return ranges;
}
