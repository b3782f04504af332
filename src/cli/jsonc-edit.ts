// Adding and removing one property of a JSON-with-comments text, touching nothing else: no
// neighbour is re-indented and a comment stays with the entry it was written beside. (jsonc-parser's
// own `modify` re-formats the lines around an edit, which would rewrite a user's hand-made layout.)
import { parseTree, type Node } from 'jsonc-parser';

export interface Layout {
  /** One level of indentation as the file writes it. */
  readonly unit: string;
  readonly eol: string;
}

/** Indentation and line ends as the file has them, so an inserted entry looks like its neighbours. */
export function layoutOf(text: string): Layout {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const indented = /^([ \t]+)["/}\]]/m.exec(text)?.[1];
  if (indented?.startsWith('\t')) return { unit: '\t', eol };
  return { unit: ' '.repeat(indented === undefined ? 2 : Math.min(indented.length, 8)), eol };
}

/** The object at `at` (keys from the root), or undefined when the text has none there. */
export function objectAt(text: string, at: readonly string[]): Node | undefined {
  let node = parseTree(text, [], { disallowComments: false, allowTrailingComma: true });
  for (const key of at) {
    if (node?.type !== 'object') return undefined;
    node = node.children?.find((p) => p.children?.[0]?.value === key)?.children?.[1];
  }
  return node?.type === 'object' ? node : undefined;
}

/** `value` as JSON whose lines continue at `indent`: objects one key a line, short arrays of plain values inline. */
export function render(value: unknown, indent: string, layout: Layout): string {
  if (Array.isArray(value)) {
    const inline = `[${value.map((v) => JSON.stringify(v)).join(', ')}]`;
    if (value.every((v) => typeof v !== 'object' || v === null) && inline.length <= 100) return inline;
    if (value.length === 0) return '[]';
    const inner = indent + layout.unit;
    return `[${value.map((v) => `${layout.eol}${inner}${render(v, inner, layout)}`).join(',')}${layout.eol}${indent}]`;
  }
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value);
    if (entries.length === 0) return '{}';
    const inner = indent + layout.unit;
    return `{${entries.map(([k, v]) => `${layout.eol}${inner}${JSON.stringify(k)}: ${render(v, inner, layout)}`).join(',')}${layout.eol}${indent}}`;
  }
  return JSON.stringify(value);
}

/** The whitespace a line starts with, for the line holding `offset`. */
function lineIndent(text: string, offset: number): string {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(start))?.[0] ?? '';
}

function startsLine(text: string, offset: number): boolean {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*$/.test(text.slice(start, offset));
}

/** From `offset`, past spaces and one comment that ends on the same line: where that line's content ends. */
function endOfLine(text: string, offset: number): number {
  let i = offset;
  while (text[i] === ' ' || text[i] === '\t') i++;
  if (text.startsWith('//', i)) {
    const newline = text.indexOf('\n', i);
    return newline === -1 ? text.length : text[newline - 1] === '\r' ? newline - 1 : newline;
  }
  if (text.startsWith('/*', i)) {
    const close = text.indexOf('*/', i + 2);
    const newline = text.indexOf('\n', i);
    if (close !== -1 && (newline === -1 || close < newline)) return close + 2;
  }
  return offset;
}

/** The text with `key: value` added as the object's last property. */
export function insertProperty(text: string, object: Node, key: string, value: unknown): string {
  const layout = layoutOf(text);
  const props = object.children ?? [];
  const last = props[props.length - 1];
  if (last === undefined) {
    const open = object.offset;
    const close = object.offset + object.length - 1;
    const outer = lineIndent(text, open);
    const inner = outer + layout.unit;
    const entry = `${JSON.stringify(key)}: ${render(value, inner, layout)}`;
    const inside = text.slice(open + 1, close);
    if (/^\s*$/.test(inside)) return `${text.slice(0, open + 1)}${layout.eol}${inner}${entry}${layout.eol}${outer}${text.slice(close)}`;
    return `${text.slice(0, open + 1)}${layout.eol}${inner}${entry}${text.slice(open + 1)}`;
  }
  const valueEnd = last.offset + last.length;
  if (!startsLine(text, last.offset)) {
    // An object written on one line stays on one line.
    return `${text.slice(0, valueEnd)}, ${JSON.stringify(key)}: ${JSON.stringify(value)}${text.slice(valueEnd)}`;
  }
  const indent = lineIndent(text, last.offset);
  const lineEnd = endOfLine(text, valueEnd);
  const entry = `${layout.eol}${indent}${JSON.stringify(key)}: ${render(value, indent, layout)}`;
  return `${text.slice(0, valueEnd)},${text.slice(valueEnd, lineEnd)}${entry}${text.slice(lineEnd)}`;
}

/** The text without the object's property `key` (its line, its comma and a comment beside it); unchanged when absent. */
export function removeProperty(text: string, object: Node, key: string): string {
  const props = object.children ?? [];
  const index = props.findIndex((p) => p.children?.[0]?.value === key);
  const prop = props[index];
  if (prop === undefined) return text;
  const ownLine = startsLine(text, prop.offset);
  let start = ownLine ? text.lastIndexOf('\n', prop.offset - 1) + 1 : prop.offset;
  let end = prop.offset + prop.length;
  let i = end;
  while (text[i] === ' ' || text[i] === '\t') i++;
  const commaAfter = text[i] === ',';
  if (commaAfter) end = i + 1;
  if (ownLine) {
    end = endOfLine(text, end);
    if (text.startsWith('\r\n', end)) end += 2;
    else if (text[end] === '\n') end += 1;
  } else if (commaAfter) {
    while (text[end] === ' ') end++;
  }
  const before = props[index - 1];
  if (!commaAfter && before !== undefined) {
    // The last property goes: the comma after the one before it must go too.
    const comma = commaBetween(text, before.offset + before.length, prop.offset);
    if (comma !== undefined) {
      if (!ownLine) start = comma;
      else return text.slice(0, comma) + text.slice(comma + 1, start) + text.slice(end);
    }
  }
  return text.slice(0, start) + text.slice(end);
}

/** The offset of the comma between two properties, past any comments. */
function commaBetween(text: string, from: number, to: number): number | undefined {
  let i = from;
  while (i < to) {
    if (text[i] === ',') return i;
    if (text.startsWith('//', i)) i = text.indexOf('\n', i) === -1 ? to : text.indexOf('\n', i);
    else if (text.startsWith('/*', i)) i = text.indexOf('*/', i + 2) === -1 ? to : text.indexOf('*/', i + 2) + 2;
    else i++;
  }
  return undefined;
}
