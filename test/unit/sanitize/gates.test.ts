import { describe, expect, it } from 'vitest';
import { LATIN_LEXICON, PLAIN_LEXICON } from '../../../src/sanitize/lexicon.js';
import { PATTERNS } from '../../../src/sanitize/patterns.js';
import { PARAMETER_PATTERNS } from '../../../src/sanitize/parameter-patterns.js';
import { prng } from '../../prng.js';

/** Literal-ish words of a regex source, so generated text can actually match it. */
function vocabulary(source: string): string[] {
  const words = source
    .replace(/\\b|\\s|\\n/g, ' ')
    .replace(/\\([./$\-{}[\]|])/g, '$1')
    .split(/[()|?:*+{}\[\]^,\\]+/)
    .map((w) => w.trim())
    .filter((w) => w.length >= 2 && !/^\d+$/.test(w));
  return [...new Set(words)];
}

describe('cheap gates never hide a match (a gate that rejects text its pattern matches is a missed attack)', () => {
  const gated = [...PATTERNS, ...PARAMETER_PATTERNS, ...LATIN_LEXICON, ...PLAIN_LEXICON].filter((p) => p.gate || p.gateRe);

  for (const pat of gated) {
    it(pat.id, () => {
      const rand = prng(pat.id.length * 7919);
      const words = vocabulary(pat.re.source);
      let matched = 0;
      for (let n = 0; n < 6000; n++) {
        // Half the texts keep the words in source order, which is how a pattern's tokens follow each other.
        const count = 2 + Math.floor(rand() * 10);
        const picks = Array.from({ length: count }, () => Math.floor(rand() * words.length));
        if (n % 2 === 0) picks.sort((a, b) => a - b);
        const text = picks.map((i) => words[i] ?? 'x').join(' ');
        pat.re.lastIndex = 0;
        if (!pat.re.test(text)) continue;
        matched++;
        const open = (!pat.gate || pat.gate.some((g) => text.includes(g))) && (!pat.gateRe || pat.gateRe.test(text));
        expect(open, `${pat.id} gate rejected a matching text: ${text}`).toBe(true);
      }
      // The generator must exercise the pattern, or this test proves nothing.
      expect(matched, `${pat.id}: no generated text matched`).toBeGreaterThan(0);
    });
  }
});
