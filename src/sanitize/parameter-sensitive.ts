// Whether a value's verdict may depend on the names of the judged tool's own parameters. A waiver
// whose words are one of them ("Suppress confirmations." beside `suppressConfirmations`, semantic.ts
// ownOptions) is served beside that tool and withheld beside any other, however it is spelled
// ("Sup**press** con**firm**ations."). Such a value is never remembered as one that passes whatever
// the tool (field.ts): a value that spells one of the tool's parameter names, ignoring case and
// everything but letters and digits, is judged again every time.

/** Parameter names shorter than this are words any text holds (`id`, `to`): they mark nothing. */
const MIN_NAME_CHARS = 4;
const NOT_LETTER_OR_DIGIT = /[^\p{L}\p{N}]+/gu;

/** Whether `value` spells one of `params` (the tool's lower-case parameter names). */
export function spellsOwnParameter(value: string, params: ReadonlySet<string> | undefined): boolean {
  if (params === undefined || params.size === 0) return false;
  const letters = value.toLowerCase().replace(NOT_LETTER_OR_DIGIT, '');
  for (const name of params) {
    const squeezed = name.replace(NOT_LETTER_OR_DIGIT, '');
    if (squeezed.length >= MIN_NAME_CHARS && letters.includes(squeezed)) return true;
  }
  return false;
}
