// Estimated model-context tokens of tool definitions, for budgets (maxTokens) and `switchboard check`.
//
// Why a heuristic and not a tokenizer: the model behind a host is unknown to the proxy and Claude's
// current tokenizer is not public, so an exact count for one vocabulary would be false precision,
// while a pure-JS BPE package adds megabytes of vocabulary to load. This scan costs one pass over
// the serialized definition (about 1 µs per 100 characters).
//
// Calibration (test/fixtures/tool-tokens.json, 44 definitions: the three reference servers'
// real tools plus German, Japanese, Chinese, Russian, emoji, code and id-heavy ones), measured with
// gpt-tokenizer 4.0.0 and @anthropic-ai/tokenizer 0.0.4 (scripts/calibrate-token-estimate.mjs):
//   vs o200k_base (GPT-4o):      mean |error| 3.4 %, worst 16 % (Russian), total +2.5 %
//   vs cl100k_base (GPT-4):      mean |error| 5.4 %, worst 16 %, total +4.0 %
//   vs the Claude 2 tokenizer:   mean |error| 3.1 %, worst 21 % (Russian), total -1.7 %
//   plain chars/4 for comparison: mean 13.6 % / 11.5 %, worst 36 % / 45 % (CJK, ids).
// Newer Claude models are reported to use somewhat more tokens for the same text than these
// vocabularies; a budget is a guard rail, not an invoice, so the estimate is not inflated for that.

import { tryStringify, type JsonObject } from '../jsonrpc/messages.js';

/** The fields a host passes to the model for a tool; icons and `_meta` stay with the host. */
const MODEL_FIELDS = ['name', 'title', 'description', 'inputSchema', 'outputSchema', 'annotations'] as const;

/** Letters per token in a long word; shorter words (and each camelCase part) are one token. */
const LETTERS_PER_TOKEN = 10;
/** Digits per token: BPE vocabularies split numbers into groups of up to three. */
const DIGITS_PER_TOKEN = 3;
/** Punctuation characters per token: JSON's `":"`, `","`, `{"` are mostly single tokens. */
const PUNCTUATION_PER_TOKEN = 4;
/** Tokens per CJK character (o200k 0.7-1, older vocabularies 1-1.3). */
const TOKENS_PER_CJK = 0.8;
/** Tokens per character outside the BMP (emoji and the like). */
const TOKENS_PER_ASTRAL = 2;
/** Other non-ASCII letters (accents, Cyrillic, Greek...) per token. */
const OTHER_PER_TOKEN = 3.5;

/** The text a host sends for one tool: its model-visible fields as compact JSON, in a fixed order. */
export function modelText(tool: JsonObject): string {
  const visible: JsonObject = {};
  for (const field of MODEL_FIELDS) if (tool[field] !== undefined) visible[field] = tool[field];
  return tryStringify(visible) ?? '';
}

export function estimateToolTokens(tool: JsonObject): number {
  return estimateTextTokens(modelText(tool));
}

/** Estimated tokens of any text; see the calibration note at the top of this file. */
export function estimateTextTokens(text: string): number {
  let tokens = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (isLetter(c)) {
      // A word costs at least one token per camelCase part, and long words more.
      let parts = 1;
      let j = i + 1;
      for (; j < n; j++) {
        const d = text.charCodeAt(j);
        if (!isLetter(d)) break;
        if (isUpper(d) && isLower(text.charCodeAt(j - 1))) parts++;
      }
      tokens += Math.max(parts, Math.ceil((j - i) / LETTERS_PER_TOKEN));
      i = j;
    } else if (isDigit(c)) {
      let j = i + 1;
      while (j < n && isDigit(text.charCodeAt(j))) j++;
      tokens += Math.ceil((j - i) / DIGITS_PER_TOKEN);
      i = j;
    } else if (c === 0x20) {
      // A space joins the word after it.
      i++;
    } else if (c < 0x80) {
      let j = i + 1;
      while (j < n && isPunctuation(text.charCodeAt(j))) j++;
      tokens += Math.ceil((j - i) / PUNCTUATION_PER_TOKEN);
      i = j;
    } else if (isCjk(c)) {
      tokens += TOKENS_PER_CJK;
      i++;
    } else if (c >= 0xd800 && c <= 0xdbff) {
      tokens += TOKENS_PER_ASTRAL;
      i += 2;
    } else {
      let j = i + 1;
      while (j < n && isOtherNonAscii(text.charCodeAt(j))) j++;
      tokens += Math.ceil((j - i) / OTHER_PER_TOKEN);
      i = j;
    }
  }
  return Math.ceil(tokens);
}

const isUpper = (c: number): boolean => c >= 0x41 && c <= 0x5a;
const isLower = (c: number): boolean => c >= 0x61 && c <= 0x7a;
const isLetter = (c: number): boolean => isUpper(c) || isLower(c);
const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;
const isPunctuation = (c: number): boolean => c < 0x80 && c !== 0x20 && !isLetter(c) && !isDigit(c);
/** CJK ideographs, kana, Hangul syllables and full-width forms: about one token each. */
const isCjk = (c: number): boolean =>
  (c >= 0x2e80 && c <= 0x9fff) || (c >= 0xac00 && c <= 0xd7af) || (c >= 0xf900 && c <= 0xfaff) || (c >= 0xff00 && c <= 0xffef);
const isOtherNonAscii = (c: number): boolean => c >= 0x80 && !isCjk(c) && !(c >= 0xd800 && c <= 0xdfff);

/** One tool's estimate with the server it belongs to. */
export interface ToolTokens {
  readonly server: string;
  readonly tokens: number;
}

export interface TokenTotals {
  readonly tools: number;
  readonly tokens: number;
  /** Per server, in the order servers first appear. */
  readonly byServer: ReadonlyMap<string, { readonly tools: number; readonly tokens: number }>;
}

/**
 * Totals over tools, optionally only those `include` accepts: per server for `switchboard check`,
 * and per profile by passing a view filter's predicate, e.g.
 * `tokenTotals(tools, (t) => filter.allowsTool(t.name, t.server))`.
 */
export function tokenTotals<T extends ToolTokens>(tools: Iterable<T>, include: (tool: T) => boolean = () => true): TokenTotals {
  const byServer = new Map<string, { tools: number; tokens: number }>();
  let count = 0;
  let tokens = 0;
  for (const tool of tools) {
    if (!include(tool)) continue;
    count++;
    tokens += tool.tokens;
    const entry = byServer.get(tool.server);
    if (entry === undefined) byServer.set(tool.server, { tools: 1, tokens: tool.tokens });
    else {
      entry.tools++;
      entry.tokens += tool.tokens;
    }
  }
  return { tools: count, tokens, byServer };
}
