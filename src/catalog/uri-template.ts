// Matching a concrete resource URI against an RFC 6570 template, for routing reads to the template's owner.

/** A template as literal pieces between expressions: literals[0] expr[0] literals[1] ... literals[n]. */
export interface CompiledTemplate {
  readonly literals: readonly string[];
  readonly operators: readonly string[];
  test(uri: string): boolean;
}

/** Longest URI we try to match, chars; longer ones are not routed by template. */
const MAX_URI_LENGTH = 8192;

/**
 * Compiles a template for matching. Matching walks the URI once, taking each literal at its next
 * occurrence, so a server's template can never make matching slow (a RegExp of several `{+var}`
 * backtracks polynomially). Simple `{var}` matches one path segment; `{+var}`/`{#var}` anything;
 * `{?var}`/`{&var}` an optional query; `{/var}`/`{.var}`/`{;var}` an optional prefixed part.
 * Enough to pick an owner; the server does the real parsing.
 */
export function compileTemplate(template: string): CompiledTemplate | undefined {
  const literals: string[] = [];
  const operators: string[] = [];
  let index = 0;
  for (;;) {
    const open = template.indexOf('{', index);
    if (open === -1) {
      literals.push(template.slice(index));
      break;
    }
    const close = template.indexOf('}', open);
    if (close === -1) return undefined;
    literals.push(template.slice(index, open));
    const first = template[open + 1] ?? '';
    operators.push('+#?&/.;'.includes(first) && first !== '' ? first : '');
    index = close + 1;
  }
  return { literals, operators, test: (uri) => matches(literals, operators, uri) };
}

function matches(literals: readonly string[], operators: readonly string[], uri: string): boolean {
  if (uri.length > MAX_URI_LENGTH) return false;
  const head = literals[0] as string;
  if (!uri.startsWith(head)) return false;
  let at = head.length;
  for (let i = 0; i < operators.length; i++) {
    const literal = literals[i + 1] as string;
    const last = i === operators.length - 1;
    let end: number;
    if (last) {
      if (!uri.endsWith(literal) || uri.length - literal.length < at) return false;
      end = uri.length - literal.length;
    } else {
      end = literal === '' ? at : uri.indexOf(literal, at);
      if (end === -1) return false;
    }
    if (!valueFits(operators[i] as string, uri.slice(at, end))) return false;
    at = end + literal.length;
  }
  return operators.length > 0 || at === uri.length;
}

function valueFits(operator: string, value: string): boolean {
  switch (operator) {
    case '+':
    case '#':
      return true;
    case '?':
    case '&':
      return value === '' || value.startsWith('?') || value.startsWith('&');
    case '/':
    case '.':
    case ';':
      return value === '' || value.startsWith(operator);
    default:
      return value !== '' && !/[/?#]/.test(value);
  }
}
