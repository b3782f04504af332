// Whether a value's verdict may depend on the names of the judged tool's own parameters. A waiver
// whose words are one of them ("Suppress confirmations." beside `suppressConfirmations`, semantic.ts
// ownOptions) is served beside that tool and withheld beside any other, however it is spelled
// ("Sup**press** con**firm**ations."). Such a value is never remembered as one that passes whatever
// the tool (field.ts): a value that spells one of the tool's parameter names that speak of the
// user's say, ignoring case and everything but letters and digits, is judged again every time.
// Other names (`name`, `path`, `query`) cannot make a waiver, and values that spell them stay
// remembered: schemas repeat them across hundreds of tools.

/** The words a waiver is made of, as a parameter's name holds them. */
const SPEAKS_OF_THE_USERS_SAY = /confirm|approv|consent|permission|review|signoff|ask|prompt/;
const NOT_LETTER_OR_DIGIT = /[^\p{L}\p{N}]+/gu;

/** Each parameter set's names that speak of the user's say, squeezed: a tool's sets are read once, not once per value. */
const speakingNames = new WeakMap<ReadonlySet<string>, readonly string[]>();

/** Whether `value` spells one of `params` (the tool's lower-case parameter names) that speak of the user's say. */
export function spellsOwnParameter(value: string, params: ReadonlySet<string> | undefined): boolean {
  if (params === undefined || params.size === 0) return false;
  let names = speakingNames.get(params);
  if (names === undefined) {
    names = [...params].map((name) => name.replace(NOT_LETTER_OR_DIGIT, '')).filter((name) => SPEAKS_OF_THE_USERS_SAY.test(name));
    speakingNames.set(params, names);
  }
  if (names.length === 0) return false;
  const letters = value.toLowerCase().replace(NOT_LETTER_OR_DIGIT, '');
  return names.some((name) => letters.includes(name));
}
