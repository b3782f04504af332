// A line diff of two tool definitions for the terminal: pretty canonical JSON, unified hunks, every line escaped.
import { structuredPatch } from 'diff';
import { canonicalJson, escapeText } from '../sanitize/index.js';

/** Lines shown per definition: a diff is for reading, the pin file and the log keep the rest. */
const MAX_DIFF_LINES = 80;
/** Unchanged lines shown around each change. */
const CONTEXT_LINES = 2;

/**
 * The diff from the approved to the changed definition, or one line saying why there is none.
 * Keys are sorted (canonical form), so a reordering shows as no change; server text is escaped, so
 * a hostile description cannot drive the terminal (ANSI, bidi, invisibles show as escapes).
 */
export function definitionDiff(before: unknown, after: unknown): string[] {
  if (after === undefined) return ['(the changed definition was too large to keep; the sanitization log has an excerpt)'];
  if (before === undefined) return ['(no text was kept for the approved definition, pinned by an earlier version: only the changed fields are known)'];
  const patch = structuredPatch('approved', 'changed', pretty(before), pretty(after), '', '', { context: CONTEXT_LINES });
  const lines: string[] = [];
  for (const hunk of patch.hunks) {
    lines.push(`@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`);
    for (const line of hunk.lines) lines.push(escapeText(line));
  }
  if (lines.length <= MAX_DIFF_LINES) return lines;
  return [...lines.slice(0, MAX_DIFF_LINES), `… ${lines.length - MAX_DIFF_LINES} more diff lines`];
}

function pretty(value: unknown): string {
  return `${JSON.stringify(JSON.parse(canonicalJson(value)), null, 2)}\n`;
}
