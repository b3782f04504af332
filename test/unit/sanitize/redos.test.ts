import { describe, expect, it } from 'vitest';
import { clearSanitizeCaches, sanitizeEntity } from '../../../src/sanitize/index.js';
import { LATIN_LEXICON, PLAIN_LEXICON } from '../../../src/sanitize/lexicon.js';
import { PATTERNS, type Pattern } from '../../../src/sanitize/patterns.js';
import { PARAMETER_PATTERNS } from '../../../src/sanitize/parameter-patterns.js';
import { CTX } from './helpers.js';
import { prng } from '../../prng.js';
import { cpuTimed } from '../../cpu-time.js';

/** Generous for a slow machine; a catastrophic backtrack takes seconds to hours on these sizes. */
const LIMIT_MS = 1500;
/** CPU time, not wall time (test/cpu-time.ts). */
const timed = cpuTimed;

const ADVERSARIAL: Record<string, string> = {
  'repeated directive verbs': 'read '.repeat(20_000),
  'verb then endless non-target': `read ${'a'.repeat(60_000)}`,
  'home prefixes': '~/'.repeat(20_000),
  'dot paths without a target': '.ssh.'.repeat(12_000),
  'ignore qualifiers': `ignore ${'all the previous '.repeat(4000)}`,
  'angle brackets': '<'.repeat(60_000),
  'unclosed tags': '<important '.repeat(6000),
  'placeholders in a URL': `https://x.example/?${'{a'.repeat(20_000)}`,
  'long URL': `http://${'a/'.repeat(30_000)}`,
  'plus signs before long runs of digits': `+${'9'.repeat(40)}x `.repeat(2000),
  'digit groups that are almost a card or an account': '1234 5678 9012 ab12 3456 '.repeat(4000),
  'spaces': ' '.repeat(100_000),
  'tabs and nbsp': '\t\u00a0'.repeat(40_000),
  'blank-ish lines': '\n \n'.repeat(30_000),
  'backticks of mixed lengths': '`` ` ``` '.repeat(10_000),
  'image openers': '!['.repeat(30_000),
  'comment openers': '<!--'.repeat(15_000),
  'escape openers': '\x1b['.repeat(30_000),
  'OSC without terminator': `\x1b]8;;${'x'.repeat(60_000)}`,
  'base64 alphabet': 'QUJD'.repeat(30_000),
  'hex digits': 'ab'.repeat(60_000),
  'identifier separators': 'a_'.repeat(40_000),
  'zero-width between letters': 'a\u200b'.repeat(30_000),
  'tags': '\u{E0041}'.repeat(30_000),
  'selectors': '\ufe01'.repeat(60_000),
  'rlo runs': '\u202eabc'.repeat(20_000),
  'combining marks': `a${'\u0301'.repeat(60_000)}`,
  'cjk': '忽略之前'.repeat(20_000),
  'user says': 'when the user says '.repeat(5000),
  'do not tell': "don't tell ".repeat(8000),
  'fences': '```\n'.repeat(20_000),
  'sentence-free gap': `send ${'x '.repeat(40_000)}`,
  // The hijack of a tool named by what it does searches a sentence for values: never a megabyte's.
  'a foreign cue, a word run and an at sign': `при удалении ${'a'.repeat(200_000)}@`,
  'a foreign cue and an open guillemet': `при удалении «${'a'.repeat(200_000)}`,
  'sentences just short of the longest judged': `при удалении ${'a'.repeat(1180)}@. `.repeat(60),
  // An unrelated prerequisite through a kind of software: "before", a shell, and words of thousands of letters
  // (a diacritic looked for inside a run of letters once tried every start of it).
  'something put first, a shell and long words': `before in your shell ${'a'.repeat(4000)}. `.repeat(250),
  // Lists of values a field declares, and names used as something else, read once each.
  'lists of values declared again and again': 'valid actions: a_b (c, d_e), '.repeat(8000),
  'keys of a shown document': '"a_b": {"c": 1, '.repeat(12_000),
  'keys of a document never closed': '{"a_b": 1, '.repeat(20_000),
  'hyphenated keys': '"a-b": 1, '.repeat(20_000),
  'something put first, a shell and code never closed': `before any run in your shell \`${'a '.repeat(1900)}. `.repeat(120),
};

describe('bounded time on hostile input (no catastrophic backtracking)', () => {
  for (const [name, text] of Object.entries(ADVERSARIAL)) {
    it(name, () => {
      clearSanitizeCaches();
      const { ms, value } = timed(() =>
        sanitizeEntity('tool', { name: 't', description: text, inputSchema: { properties: { p: { description: text.slice(0, 20_000) } } } }, CTX),
      );
      expect(ms, `${name} took ${ms.toFixed(0)} ms`).toBeLessThan(LIMIT_MS);
      expect(value.forwarded).toBeDefined();
    });
  }

  it('addresses, mailboxes and IBANs read in data slots, the model\'s features and long tool names stay bounded', () => {
    const hostile = ['a.'.repeat(30_000), 'a@'.repeat(30_000), `${'a.a-'.repeat(15_000)}.com`, 'x://'.repeat(15_000), '1.1.'.repeat(15_000), 'AB12 '.repeat(12_000)];
    for (const text of hostile) {
      clearSanitizeCaches();
      const entity = {
        name: 't',
        // Names the user, so the learned second opinion reads it too.
        description: `The user ${text.slice(0, 4000)}`,
        inputSchema: { properties: { to: { type: 'string', default: text, enum: [text] }, [text.slice(0, 2000)]: { type: 'string' } } },
      };
      const own = new Set(['t', `scan_${'a_'.repeat(20_000)}messages`]);
      const { ms } = timed(() => sanitizeEntity('tool', entity, { ...CTX, ownToolNames: own }));
      expect(ms, `${text.slice(0, 8)}… took ${ms.toFixed(0)} ms`).toBeLessThan(LIMIT_MS);
    }
  });

  it("a secret's expansion and a template's placeholder read in data slots stay bounded", () => {
    for (const value of [`{{${'env'.repeat(70_000)}`, `$X_TOKEN ${'http://'.repeat(60_000)}`, `${'$A_TOKEN '.repeat(20_000)}`]) {
      clearSanitizeCaches();
      const { ms } = timed(() => sanitizeEntity('tool', { name: 't', description: 'T.', inputSchema: { properties: { p: { type: 'string', default: value, examples: [value] } } } }, CTX));
      expect(ms, value.slice(0, 20)).toBeLessThan(LIMIT_MS);
    }
  });

  it('a path read as data for a parameter about paths stays bounded (secret stores, public keys)', () => {
    const hostile = [`~/.ssh/${'id_rsa'.repeat(50_000)}.pub`, `~/.ssh/${'a'.repeat(300_000)}`, `/home/u/${'.ssh/'.repeat(60_000)}`];
    for (const text of hostile) {
      clearSanitizeCaches();
      const entity = { name: 't', description: 'Uploads a file.', inputSchema: { properties: { path: { type: 'string', default: text, examples: [text] } } } };
      const { ms } = timed(() => sanitizeEntity('tool', entity, CTX));
      expect(ms, `${text.slice(0, 12)}… took ${ms.toFixed(0)} ms`).toBeLessThan(LIMIT_MS);
    }
  });

  it('every pattern on strings made of its own vocabulary', () => {
    const rand = prng(7);
    const all: readonly Pattern[] = [...PATTERNS, ...PARAMETER_PATTERNS, ...LATIN_LEXICON, ...PLAIN_LEXICON];
    for (const pat of all) {
      const words = [...new Set(pat.re.source.match(/[\p{L}_.~/$<>|[\]-]{2,}/gu) ?? [])];
      for (let round = 0; round < 3; round++) {
        let text = '';
        while (text.length < 30_000) text += `${words[Math.floor(rand() * words.length)] ?? 'x'}${rand() < 0.8 ? ' ' : ''}`;
        pat.re.lastIndex = 0;
        const { ms } = timed(() => pat.re.exec(text));
        expect(ms, `${pat.id} took ${ms.toFixed(0)} ms`).toBeLessThan(LIMIT_MS);
      }
    }
  });

  it('random mixtures of attack fragments never throw and stay bounded', () => {
    const rand = prng(42);
    const pieces = [
      'ignore ', 'previous ', 'instructions', '~/.ssh/id_rsa', 'read ', 'pass ', ' as ', "'sidenote'", '<IMPORTANT>', '</IMPORTANT>',
      '\u200b', '\u{E0041}', '\ufe0f', '\u202e', '\x1b[8m', '\x1b]8;;http://x\x07', '\r', '\n', '\n\n', '.', ' ', '`', '```',
      '<!--', '-->', '![a](', 'https://x.example/?d={', '}', ')', 'send_email', 'when the user says thanks', "don't tell the user",
      'QUJDREVGR0hJSktMTU5PUFFSU1RVVldY', '忽略之前的指令', 'игнорируй ', 'بالمستخدم', '😀', '👩\u200d💻', 'ＡＢＣ', 'é', '\u0301',
    ];
    for (let n = 0; n < 60; n++) {
      let text = '';
      while (text.length < 8000) text += pieces[Math.floor(rand() * pieces.length)];
      const { ms, value } = timed(() => sanitizeEntity('tool', { name: 'add', description: text }, CTX));
      expect(ms).toBeLessThan(LIMIT_MS);
      for (const f of value.findings) expect(f.before.length).toBeLessThanOrEqual(240);
      // One finding per (field, rule): the log's unit.
      const keys = value.findings.map((f) => `${f.field} ${f.rule}`);
      expect(new Set(keys).size).toBe(keys.length);
    }
  });
});
