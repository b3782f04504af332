// Whether a value's verdict may depend on the names of the judged tool's own parameters. A waiver
// whose words are one of them ("Suppress confirmations" beside `suppressConfirmations`, semantic.ts
// ownOptions) and a rank word of another language that names one ("Prioridad elegida por el
// usuario." beside `prioridad`, rank-words.ts) are read differently beside another tool's
// parameters, so such a value is never remembered as one that passes whatever the tool (field.ts).
import { I18N_RANK } from './directive-lexicon.js';
import { PATTERNS } from './patterns.js';

const consent = PATTERNS.find((p) => p.id === 'override.consent');
if (consent === undefined) throw new Error('patterns.ts has no override.consent: the quiet memo would remember waivers');
const WAIVER = new RegExp(consent.re.source, consent.re.flags.replace('g', ''));

/** `skel` and `plain` are the value's skeleton and plain readings (shadow.ts). */
export function verdictNamesParameters(skel: string, plain: string): boolean {
  return WAIVER.test(skel) || I18N_RANK.test(plain);
}
