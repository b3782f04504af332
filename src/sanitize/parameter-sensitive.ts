// Whether a value's verdict may depend on the names of the judged tool's own parameters. A waiver
// whose words are one of them ("Suppress confirmations" beside `suppressConfirmations`, semantic.ts
// ownOptions) is read differently beside another tool's parameters, so such a value is never
// remembered as one that passes whatever the tool (field.ts).
import { PATTERNS } from './patterns.js';

const consent = PATTERNS.find((p) => p.id === 'override.consent');
if (consent === undefined) throw new Error('patterns.ts has no override.consent: the quiet memo would remember waivers');
const WAIVER = new RegExp(consent.re.source, consent.re.flags.replace('g', ''));

/** `skel` is the value's skeleton reading (shadow.ts). */
export function verdictNamesParameters(skel: string): boolean {
  return WAIVER.test(skel);
}
