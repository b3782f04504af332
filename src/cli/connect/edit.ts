// The client file with connect's entry in place of the servers the switchboard now serves: JSON
// (with comments) edited in place, Codex's TOML by whole tables; each result parsed again and
// checked to hold exactly what was meant before it may be written.
import { applyEdits, modify, parse as parseJsonc, type ParseError } from 'jsonc-parser';
import { parse as parseToml } from 'smol-toml';
import { insertProperty, layoutOf, objectAt, removeProperty } from '../jsonc-edit.js';
import { ENTRY_NAME, type Target } from './targets.js';

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The new text, or why it cannot be made safely (the file is then left alone). */
export function connectedText(before: string, target: Target, remove: readonly string[]): { ok: true; text: string } | { ok: false; problem: string } {
  return target.source.format === 'codex' ? connectedToml(before, target, remove) : connectedJson(before, target, remove);
}

function connectedJson(before: string, target: Target, remove: readonly string[]): { ok: true; text: string } | { ok: false; problem: string } {
  let text = before.trim() === '' ? '{}\n' : before;
  const names = [...remove, ENTRY_NAME];
  for (const name of names) {
    const container = objectAt(text, target.container);
    if (container !== undefined) text = removeProperty(text, container, name);
  }
  const container = objectAt(text, target.container);
  if (container !== undefined) text = insertProperty(text, container, ENTRY_NAME, target.entry);
  else {
    const root = objectAt(text, []);
    if (root === undefined) return { ok: false, problem: 'it is not a JSON object' };
    text = insertProperty(text, root, target.container[0] ?? 'mcpServers', { [ENTRY_NAME]: target.entry });
  }
  if (target.input !== undefined) text = withInput(text, target.input);
  // Parsed again: the client must read exactly the servers meant, the rest untouched.
  const errors: ParseError[] = [];
  const after: unknown = parseJsonc(text, errors, { allowTrailingComma: true });
  const was: unknown = parseJsonc(before.trim() === '' ? '{}' : before, [], { allowTrailingComma: true });
  if (errors.length > 0 || !isObject(after) || !isObject(was)) return { ok: false, problem: 'the edit would not parse' };
  const servers = (doc: Json): Json => {
    const found = target.container.reduce<unknown>((node, key) => (isObject(node) ? node[key] : undefined), doc);
    return isObject(found) ? found : {};
  };
  const expected = Object.fromEntries(Object.entries(servers(was)).filter(([name]) => !names.includes(name)));
  if (JSON.stringify(servers(after)) !== JSON.stringify({ ...expected, [ENTRY_NAME]: target.entry })) return { ok: false, problem: 'the edit would not leave the servers meant' };
  return { ok: true, text };
}

/** VS Code's `inputs` with the token prompt, added once. */
function withInput(text: string, input: Readonly<Record<string, unknown>>): string {
  const doc: unknown = parseJsonc(text, [], { allowTrailingComma: true });
  const inputs = isObject(doc) ? doc['inputs'] : undefined;
  if (Array.isArray(inputs) && inputs.some((i) => isObject(i) && i['id'] === input['id'])) return text;
  if (!Array.isArray(inputs)) {
    const root = objectAt(text, []);
    return root === undefined ? text : insertProperty(text, root, 'inputs', [input]);
  }
  const layout = layoutOf(text);
  const edits = modify(text, ['inputs', inputs.length], input, { isArrayInsertion: true, formattingOptions: { insertSpaces: layout.unit !== '\t', tabSize: layout.unit === '\t' ? 4 : layout.unit.length, eol: layout.eol } });
  return applyEdits(text, edits);
}

/** A TOML string value. */
function tomlString(value: string): string {
  return JSON.stringify(value);
}

function connectedToml(before: string, target: Target, remove: readonly string[]): { ok: true; text: string } | { ok: false; problem: string } {
  const names = [...remove, ENTRY_NAME];
  const lines = before.split('\n');
  const kept: string[] = [];
  let dropping = false;
  for (const line of lines) {
    const header = /^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(#.*)?$/.exec(line);
    if (header !== null) {
      const key = header[1] ?? '';
      dropping = names.some((name) => key === `mcp_servers.${name}` || key.startsWith(`mcp_servers.${name}.`) || key === `mcp_servers."${name}"` || key.startsWith(`mcp_servers."${name}".`));
    }
    if (!dropping) kept.push(line);
  }
  let text = kept.join('\n');
  if (text !== '' && !text.endsWith('\n')) text += '\n';
  const body = Object.entries(target.entry).map(([key, value]) => `${key} = ${tomlString(String(value))}`);
  text += `${text.trim() === '' ? '' : '\n'}[mcp_servers.${ENTRY_NAME}]\n${body.join('\n')}\n`;
  let was: unknown;
  let after: unknown;
  try {
    was = parseToml(before);
    after = parseToml(text);
  } catch {
    return { ok: false, problem: 'the edit would not parse as TOML' };
  }
  if (!isObject(was) || !isObject(after)) return { ok: false, problem: 'not a TOML table' };
  const servers = (doc: Json): Json => (isObject(doc['mcp_servers']) ? doc['mcp_servers'] : {});
  const expected = Object.fromEntries(Object.entries(servers(was)).filter(([name]) => !names.includes(name)));
  const rest = (doc: Json): string => JSON.stringify(Object.fromEntries(Object.entries(doc).filter(([key]) => key !== 'mcp_servers')));
  if (rest(was) !== rest(after) || JSON.stringify(servers(after)) !== JSON.stringify({ ...expected, [ENTRY_NAME]: target.entry })) {
    return { ok: false, problem: 'its servers are not written as [mcp_servers.NAME] tables this edit can change safely' };
  }
  return { ok: true, text };
}
