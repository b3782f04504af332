// Matching a concrete resource URI against an RFC 6570 template, for routing reads to the template's owner.

/**
 * Compiles a template to an anchored RegExp. Simple `{var}` matches one path segment; reserved and
 * fragment expansions (`{+var}`, `{#var}`) and `{/var}`/`{?var}` style operators match more.
 * Enough to pick an owner; the server does the real parsing.
 */
export function compileTemplate(template: string): RegExp | undefined {
  let pattern = '^';
  let index = 0;
  while (index < template.length) {
    const open = template.indexOf('{', index);
    if (open === -1) {
      pattern += escape(template.slice(index));
      break;
    }
    pattern += escape(template.slice(index, open));
    const close = template.indexOf('}', open);
    if (close === -1) return undefined;
    const expression = template.slice(open + 1, close);
    const operator = expression[0];
    if (operator === '+' || operator === '#') pattern += '.*';
    else if (operator === '?' || operator === '&') pattern += '(?:[?&][^#]*)?';
    else if (operator === '/' || operator === '.' || operator === ';') pattern += `(?:\\${operator}[^?#]*)?`;
    else pattern += '[^/?#]+';
    index = close + 1;
  }
  try {
    return new RegExp(`${pattern}$`);
  } catch {
    return undefined;
  }
}

function escape(literal: string): string {
  return literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
