// Making attacker text safe to print: escaped invisibles and controls, redacted secrets, bounded excerpts.

/** SANITIZE.md "The log record": excerpts and decoded payloads are at most this many chars. */
export const EXCERPT_CHARS = 240;
const ELLIPSIS = '…';

/** Characters shown as escapes: controls, format chars, separators, selectors, private use, surrogates, noncharacters. */
const NEEDS_ESCAPE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Co}\p{Cs}\u034f\u115f\u1160\u17b4\u17b5\u180b-\u180f\u3164\uffa0\ufe00-\ufe0f\ufff0-\uffff\u{e0100}-\u{e01ef}\\]/u;
const NEEDS_ESCAPE_G = new RegExp(NEEDS_ESCAPE.source, 'gu');

/**
 * One code point as the log shows it. ESC and other C0/C1 controls as \xNN, LF and TAB as \n and \t,
 * everything invisible as \u{XXXX}, a backslash doubled so escapes stay unambiguous.
 */
function escapeChar(ch: string): string {
  const cp = ch.codePointAt(0)!;
  if (ch === '\\') return '\\\\';
  if (cp === 0x0a) return '\\n';
  if (cp === 0x09) return '\\t';
  if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f)) return `\\x${cp.toString(16).padStart(2, '0')}`;
  return `\\u{${cp.toString(16).toUpperCase()}}`;
}

/** The whole string escaped (no length bound): safe to print to a terminal, to put in a JSON line. */
export function escapeText(s: string): string {
  return NEEDS_ESCAPE.test(s) ? s.replace(NEEDS_ESCAPE_G, escapeChar) : s;
}

const SECRET_PATTERNS: readonly RegExp[] = [
  /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]{0,8000}?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|$)/g,
  /\b(?:sk|pk|rk)-(?:[A-Za-z0-9_-]{2,20}-)?[A-Za-z0-9_-]{20,}/g, // OpenAI/Anthropic/Stripe style
  /\bgh[pousr]_[A-Za-z0-9]{30,}|\bgithub_pat_[A-Za-z0-9_]{30,}/g,
  /\bxox[abposr]-[A-Za-z0-9-]{10,}/g,
  /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g,
  /\bAIza[0-9A-Za-z_-]{35}\b/g,
  /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g, // JWT
  /\b(?:bearer|basic)\s+[A-Za-z0-9._~+/=-]{16,}/gi,
  /\b(?:api[_-]?key|access[_-]?token|auth[_-]?token|secret|password|passwd|token)(["']?\s*[:=]\s*["']?)[^\s"',;]{8,}/gi,
];

/** Replaces credentials the log must never hold (SPEC: never log tokens). */
export function redactSecrets(s: string): string {
  let out = s;
  for (const re of SECRET_PATTERNS) {
    re.lastIndex = 0;
    out = out.replace(re, (m: string, sep?: string) =>
      typeof sep === 'string' ? `${m.slice(0, m.indexOf(sep) + sep.length)}[REDACTED]` : '[REDACTED]',
    );
  }
  return out;
}

/**
 * An escaped, redacted excerpt of at most EXCERPT_CHARS chars around [start, end): some context
 * before the match, as much of the match and what follows as fits. Cut ends are marked with `…`.
 */
export function excerpt(text: string, start = 0, end = start): string {
  const budget = EXCERPT_CHARS;
  const from = Math.max(0, start - 60);
  // Redact a generous window first so a secret cut by the window is still recognised whole.
  const windowEnd = Math.min(text.length, Math.max(end, from) + budget * 2);
  const raw = redactSecrets(text.slice(from, windowEnd));
  let out = from > 0 ? ELLIPSIS : '';
  const room = budget - 1; // always leave space for a closing ellipsis
  for (const ch of raw) {
    const piece = NEEDS_ESCAPE.test(ch) ? escapeChar(ch) : ch;
    if (out.length + piece.length > room) return `${out}${ELLIPSIS}`;
    out += piece;
  }
  return windowEnd < text.length ? `${out}${ELLIPSIS}` : out;
}

/** A bounded, escaped, redacted rendering of a revealed payload (the record's `decoded`). */
export function escapeDecoded(s: string): string {
  return excerpt(s, 0, 0);
}
