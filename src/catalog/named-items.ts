// A server's tools and prompts under the names clients see: the naming rule applied, the definition
// a client gets, and the tools a client could never call left out.
import type { Logger } from '../log.js';
import type { JsonObject } from '../jsonrpc/messages.js';
import type { ServerIdentity } from '../upstream/types.js';
import { assignNames, type NamingRule } from './names.js';

export interface NamedItem {
  readonly emitted: string;
  readonly original: string;
  readonly definition: JsonObject;
}

/** The items under the rule's names; an item no name can be given is left out with a warning. */
export function nameItems(log: Logger, server: string, rule: NamingRule, items: readonly JsonObject[], taken: Set<string>): NamedItem[] {
  const byOriginal = new Map<string, JsonObject>();
  for (const item of items) if (typeof item.name === 'string' && !byOriginal.has(item.name)) byOriginal.set(item.name, item);
  const originals = items.flatMap((item) => (typeof item.name === 'string' ? [item.name] : []));
  const names = assignNames(rule, originals, taken, (original, reason) => log.warn({ server, name: original, reason }, 'left out of the catalog'));
  const named: NamedItem[] = [];
  for (const [emitted, original] of names) {
    const definition = byOriginal.get(original) as JsonObject;
    named.push({ emitted, original, definition: clientDefinition(definition, emitted, original, rule) });
  }
  return named;
}

/** Emitted name by original name. */
export function namespacedNames(items: readonly NamedItem[]): Map<string, string> {
  return new Map(items.map((item) => [item.original, item.emitted]));
}

/**
 * Tools a client can call through us. A task-only tool of a server that does not declare `tasks`
 * could never be called (tasks.mdx: clients MUST NOT task-augment without the capability): hidden.
 */
export function visibleTools(tools: readonly JsonObject[], identity: ServerIdentity | undefined): readonly JsonObject[] {
  if (identity?.capabilities.tasks !== undefined) return tools;
  return tools.filter((tool) => {
    const execution = tool.execution;
    return !(typeof execution === 'object' && execution !== null && (execution as JsonObject).taskSupport === 'required');
  });
}

/**
 * The definition a client sees: the server's JSON with only `name` replaced (schemas, `_meta`,
 * annotations and icons untouched). When the name was more than prefixed, the original stays
 * readable in `title` unless the server set one.
 */
function clientDefinition(definition: JsonObject, emitted: string, original: string, rule: NamingRule): JsonObject {
  if (emitted === original) return definition;
  const renamed: JsonObject = { ...definition, name: emitted };
  if (emitted !== rule.prefix + original && renamed.title === undefined) renamed.title = original;
  return renamed;
}
