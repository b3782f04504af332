// Text to search terms for tool retrieval: names split into words (snake, camel, kebab, dots),
// lower case, stop words dropped, Porter-stemmed, so "listPullRequests" and "list the pull requests"
// meet on the same terms.
import { stemmer } from 'stemmer';

/**
 * Words that carry no meaning for choosing a tool: English function words, and the filler of
 * requests ("please", "can you") and of descriptions ("this tool", "allows").
 */
const STOP_WORDS = new Set(
  (
    'a an the and or but if then else of to in on at by for with from into onto over under as is are was were be been being ' +
    'it its this that these those there here i me my we our you your he she they them their his her what which who whom whose ' +
    'when where why how can could would should will shall may might must do does did done have has had having not no nor so ' +
    'than too very just also any some all each every both either neither such own same other only about above below up down out ' +
    'off again further once please pls plz want wanna need like let lets help tool tools use using used allows allow given ' +
    'specified provided via e g eg etc ie optional required default returns return'
  ).split(' '),
);

/** Camel humps become separate words (`listPullRequests`, `HTTPServer`, `S3Bucket`); `s3`, `v2` stay whole. */
const CAMEL = /([a-z0-9])([A-Z])|([A-Z])([A-Z][a-z])/g;
const SEPARATORS = /[^\p{L}\p{N}]+/u;

const stems = new Map<string, string>();
/** Memo bound: a catalog's vocabulary is a few tens of thousands of words. */
const MAX_STEMS = 200_000;

/** The stem of one lower-case word, memoized. */
export function stem(word: string): string {
  let out = stems.get(word);
  if (out === undefined) {
    // Short words and numbers are kept whole: stemming "ids" to "id" helps, "s3" to "s3" changes nothing.
    out = word.length <= 3 || /\d/.test(word) ? word.replace(/s$/, '') || word : stemmer(word);
    if (stems.size >= MAX_STEMS) stems.clear();
    stems.set(word, out);
  }
  return out;
}

/** Splits text into lower-case words: camelCase, snake_case, kebab-case, dotted.names and prose alike. */
export function words(text: string): string[] {
  const spaced = text.replace(CAMEL, '$1$3 $2$4');
  const out: string[] = [];
  for (const part of spaced.split(SEPARATORS)) if (part !== '') out.push(part.toLowerCase());
  return out;
}

/** Search terms of a text: its words without stop words, stemmed. */
export function terms(text: string): string[] {
  const out: string[] = [];
  for (const word of words(text)) if (!STOP_WORDS.has(word)) out.push(stem(word));
  return out;
}
