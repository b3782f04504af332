// Encoded payloads: runs of the base64 alphabet and hex digits that decode to readable text.
import type { HiddenText } from './types.js';

const MIN_RUN = 24;

/**
 * base64 (>= 24 chars) and hex (>= 48 digits) runs that decode to >= 80% printable text are scanned
 * again as text. A plain loop over char codes: a regex for "run of >= 24 word-ish chars" retries at
 * every position and cost 10x more on ordinary prose (measured).
 */
export function findEncoded(text: string, hidden: HiddenText[]): { start: number; end: number }[] {
  const runs: { start: number; end: number }[] = [];
  if (text.length < MIN_RUN) return runs;
  let start = -1;
  let allHex = true;
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : 0;
    const inClass =
      (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2f || c === 0x5f || c === 0x2d;
    if (inClass) {
      if (start < 0) {
        start = i;
        allHex = true;
      }
      if (allHex && !((c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46))) allHex = false;
      continue;
    }
    if (start >= 0 && i - start >= MIN_RUN) {
      let end = i;
      while (end < text.length && end - i < 2 && text.charCodeAt(end) === 0x3d) end++; // '=' padding
      runs.push({ start, end });
      decodeRun(text, start, end, allHex && (i - start) % 2 === 0 && i - start >= 2 * MIN_RUN, hidden);
    }
    start = -1;
  }
  return runs;
}

function decodeRun(text: string, start: number, end: number, hex: boolean, hidden: HiddenText[]): void {
  const run = text.slice(start, end);
  if (hex) {
    const decoded = Buffer.from(run, 'hex').toString('utf8');
    if (mostlyPrintable(decoded)) hidden.push({ kind: 'hex', text: decoded, start, end });
    return;
  }
  const decoded = Buffer.from(run, 'base64').toString('utf8');
  if (mostlyPrintable(decoded)) hidden.push({ kind: 'base64', text: decoded, start, end });
}

const PRINTABLE = /[\p{L}\p{N}\p{P}\p{S}\p{Zs}\n\t]/u;

export function mostlyPrintable(s: string): boolean {
  let total = 0;
  let good = 0;
  for (const ch of s) {
    total++;
    if (ch !== '\ufffd' && PRINTABLE.test(ch)) good++;
  }
  return total >= 8 && good / total >= 0.8;
}
