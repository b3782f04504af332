// Which strings of an entity the model reads, where each one is (JSON Pointer), and how it may be changed.
import { pointerSegment } from './hash.js';
import type { EntityKind, JsonValue } from './types.js';

/**
 * - name: a tool, prompt or prompt-argument name. Identity: never rewritten; a problem blocks.
 * - key: an object member name inside a schema (property names included). Never rewritten: the
 *   server expects exactly these keys back, so a key that needs stripping blocks the entity.
 * - contract: schema strings the server validates against (enum, const, required, pattern, type...).
 *   Same treatment as keys.
 * - text: prose and advisory values (descriptions, titles, $comment, default, examples). Rewritten.
 */
export type SlotClass = 'name' | 'key' | 'contract' | 'text';

export interface Slot {
  readonly pointer: string;
  /** Path to the value (for keys: to the member whose name this is). */
  readonly path: readonly (string | number)[];
  readonly value: string;
  readonly cls: SlotClass;
  /** Length budget: the entity's own description/instructions, or any other string. */
  readonly budget: 'description' | 'other';
  /** Description or title of one parameter (schema property or prompt argument): `exfil-parameter` looks here. */
  readonly parameterText: boolean;
  /** A slot that holds data, not prose: a default, enum member, example, const, title or property name. */
  readonly data: boolean;
  /**
   * The name, description or title of a parameter whose schema takes only a boolean or a number:
   * whatever it says, the value the model passes cannot carry text out.
   */
  readonly scalar?: boolean;
}

function holdsNoText(schema: unknown): boolean {
  if (!isObject(schema)) return false;
  const type = schema['type'];
  return type === 'boolean' || type === 'integer' || type === 'number';
}

/** Schema keywords whose string values the server checks arguments against. */
const CONTRACT_KEYS = new Set([
  'enum', 'const', 'required', 'pattern', 'type', 'format', '$ref', '$id', '$schema', '$anchor',
  '$dynamicRef', '$dynamicAnchor', 'contentEncoding', 'contentMediaType', 'dependentRequired',
]);
/** Objects whose members are parameter schemas, so a `description` inside one describes a parameter. */
const PROPERTY_MAPS = new Set(['properties', 'patternProperties']);
/**
 * Keys that are exactly a JSON Schema keyword, and type names, carry nothing to strip or detect:
 * not listing them halves the slots of a typical schema (measured: scripts/bench-sanitize.ts).
 */
const SCHEMA_KEYWORDS = new Set([
  'type', 'description', 'title', 'properties', 'required', 'enum', 'const', 'default', 'examples', 'items',
  'additionalProperties', 'format', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minLength',
  'maxLength', 'minItems', 'maxItems', 'uniqueItems', 'pattern', 'patternProperties', 'anyOf', 'oneOf', 'allOf', 'not',
  '$schema', '$id', '$ref', '$defs', 'definitions', '$comment', 'multipleOf', 'nullable', 'readOnly', 'writeOnly',
  'deprecated', 'contentEncoding', 'contentMediaType', 'dependentRequired', 'minProperties', 'maxProperties',
  'propertyNames', 'prefixItems', 'contains', 'if', 'then', 'else', 'unevaluatedProperties',
]);
const TYPE_NAMES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);
/** Deeper than this, a schema is not walked further (no real schema nests this deep). */
const MAX_DEPTH = 64;

/**
 * Model-visible strings of one entity. Not walked, because hosts do not show them to the model:
 * `uri`, `uriTemplate`, `mimeType`, `size`, `icons`, resource `annotations` (audience/priority),
 * and the boolean tool annotations. They are still part of the canonical hash, so a change to any
 * of them is a rug pull. `_meta` and members the protocol does not define are judged but never
 * rewritten (`contract`): some hosts hand the whole definition to the model, and a server that
 * hides text where the protocol puts none has no claim to have it rewritten rather than withheld.
 */
const KNOWN_MEMBERS: Readonly<Record<EntityKind, ReadonlySet<string>>> = {
  tool: new Set(['name', 'title', 'description', 'inputSchema', 'outputSchema', 'annotations', 'icons', 'execution']),
  prompt: new Set(['name', 'title', 'description', 'arguments', 'icons']),
  resource: new Set(['uri', 'name', 'title', 'description', 'mimeType', 'size', 'annotations', 'icons']),
  resourceTemplate: new Set(['uriTemplate', 'name', 'title', 'description', 'mimeType', 'annotations', 'icons']),
  instructions: new Set(),
};
const DATA_KEYWORDS = new Set(['default', 'const', 'title', 'example']);
const DATA_LISTS = new Set(['enum', 'examples', 'default']);

/** Is the value at this path data (SANITIZE.md `data-slot-prose`)? Property names are data too. */
const VALUE_HOLDERS: ReadonlySet<string> = new Set(['default', 'const', 'example', 'examples', 'enum']);

function isDataPath(path: readonly (string | number)[], cls: SlotClass): boolean {
  if (cls === 'key') return true;
  const last = path[path.length - 1];
  if (typeof last === 'string' && DATA_KEYWORDS.has(last)) return true;
  const parent = path[path.length - 2];
  if (typeof last === 'number' && typeof parent === 'string' && DATA_LISTS.has(parent)) return true;
  // Inside an object or a list a default, const or example holds (`default: [{email: ...}]`,
  // `examples: [{cc: ...}]`): every string there is a value too.
  return holderOf(path, VALUE_HOLDERS) !== undefined;
}

/**
 * The schema keyword of `keys` (a default, an example...) whose value holds the string at `path`,
 * nearest first; a property that happens to be called `default` is a name, not the keyword.
 */
export function holderOf(path: readonly (string | number)[], keys: ReadonlySet<string>): string | undefined {
  for (let i = path.length - 1; i >= 0; i--) {
    const key = path[i];
    if (typeof key === 'string' && keys.has(key) && (i === 0 || !PROPERTY_MAPS.has(String(path[i - 1])))) return key;
  }
  return undefined;
}

/** The names of the properties a slot sits under, outermost first (`delivery`, `email`). */
export function propertyPath(path: readonly (string | number)[]): string[] {
  const names: string[] = [];
  for (let i = 1; i < path.length; i++) if (PROPERTY_MAPS.has(String(path[i - 1])) && typeof path[i] === 'string') names.push(path[i] as string);
  return names;
}

/**
 * @param tooDeep receives the pointer of every subtree nested deeper than MAX_DEPTH, which is not
 * walked: the caller must not forward what it could not read.
 */
export function slotsOf(kind: EntityKind, entity: unknown, tooDeep?: string[]): Slot[] {
  const slots: Slot[] = [];
  if (kind === 'instructions') {
    if (typeof entity === 'string') slots.push(slot('', [], entity, 'text', 'description', false));
    return slots;
  }
  if (!isObject(entity)) return slots;
  const top = (key: string, cls: SlotClass, budget: Slot['budget']): void => {
    const v = entity[key];
    if (typeof v === 'string') slots.push(slot(`/${key}`, [key], v, cls, budget, false, key === 'title'));
  };
  const nameClass: SlotClass = kind === 'tool' || kind === 'prompt' ? 'name' : 'text';
  top('name', nameClass, 'other');
  top('title', 'text', 'other');
  top('description', 'text', 'description');
  if (kind === 'tool') {
    for (const key of ['inputSchema', 'outputSchema']) {
      const schema = entity[key];
      if (schema !== undefined) new SchemaWalker(slots, tooDeep).walk(schema as JsonValue, `/${key}`, [key], 'text', false, 0);
    }
    const ann = entity['annotations'];
    if (isObject(ann) && typeof ann['title'] === 'string') {
      slots.push(slot('/annotations/title', ['annotations', 'title'], ann['title'], 'text', 'other', false, true));
    }
  }
  const known = KNOWN_MEMBERS[kind];
  for (const key of Object.keys(entity)) {
    if (known.has(key)) continue;
    new SchemaWalker(slots, tooDeep).walk(entity[key] as JsonValue, `/${pointerSegment(key)}`, [key], 'contract', false, 0);
  }
  if (kind === 'prompt' && Array.isArray(entity['arguments'])) {
    entity['arguments'].forEach((arg, i) => {
      if (!isObject(arg)) return;
      for (const key of ['name', 'title', 'description']) {
        const v = arg[key];
        if (typeof v !== 'string') continue;
        const cls: SlotClass = key === 'name' ? 'name' : 'text';
        slots.push(slot(`/arguments/${i}/${key}`, ['arguments', i, key], v, cls, 'other', key !== 'name', key === 'title'));
      }
    });
  }
  return slots;
}

/** Walks a schema with one mutable path; a slot copies it only when it is created. */
class SchemaWalker {
  constructor(
    private readonly out: Slot[],
    private readonly tooDeep: string[] | undefined,
  ) {}

  walk(value: JsonValue, pointer: string, path: (string | number)[], cls: SlotClass, parameterText: boolean, depth: number, scalar = false): void {
    if (depth > MAX_DEPTH) {
      this.tooDeep?.push(pointer);
      return;
    }
    if (typeof value === 'string') {
      if (cls === 'contract' && TYPE_NAMES.has(value) && path[path.length - 1] === 'type') return;
      this.emit(pointer, path, value, cls, parameterText, scalar);
      return;
    }
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        path.push(i);
        this.walk(value[i] as JsonValue, `${pointer}/${i}`, path, cls, false, depth + 1);
        path.pop();
      }
      return;
    }
    if (!isObject(value)) return;
    const inPropertyMap = PROPERTY_MAPS.has(String(path[path.length - 1]));
    const isParameter = path.length >= 2 && PROPERTY_MAPS.has(String(path[path.length - 2]));
    for (const key of Object.keys(value)) {
      const childPointer = `${pointer}/${pointerSegment(key)}`;
      path.push(key);
      if (inPropertyMap || !SCHEMA_KEYWORDS.has(key)) this.emit(childPointer, path, key, 'key', false, inPropertyMap && holdsNoText(value[key]));
      const childCls: SlotClass = cls === 'contract' || (!inPropertyMap && CONTRACT_KEYS.has(key)) ? 'contract' : 'text';
      const describesParameter = isParameter && (key === 'description' || key === 'title');
      this.walk(value[key] as JsonValue, childPointer, path, childCls, describesParameter, depth + 1, describesParameter && holdsNoText(value));
      path.pop();
    }
  }

  private emit(pointer: string, path: readonly (string | number)[], value: string, cls: SlotClass, parameterText: boolean, scalar = false): void {
    const s = slot(pointer, path.slice(), value, cls, 'other', parameterText, isDataPath(path, cls));
    this.out.push(scalar ? { ...s, scalar } : s);
  }
}

function slot(
  pointer: string,
  path: (string | number)[],
  value: string,
  cls: SlotClass,
  budget: Slot['budget'],
  parameterText: boolean,
  data = false,
): Slot {
  return { pointer, path, value, cls, budget, parameterText, data };
}

export function isObject(v: unknown): v is { [key: string]: JsonValue } {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * A copy of `entity` with the given string values replaced, sharing every untouched subtree; the
 * same reference when there is nothing to replace.
 */
export function withReplacements<T>(entity: T, changes: ReadonlyMap<string, { path: readonly (string | number)[]; value: string }>): T {
  if (changes.size === 0) return entity;
  let root: unknown = entity;
  for (const { path, value } of changes.values()) root = setAt(root, path, 0, value);
  return root as T;
}

function setAt(node: unknown, path: readonly (string | number)[], i: number, value: string): unknown {
  if (i === path.length) return value;
  const key = path[i]!;
  if (Array.isArray(node) && typeof key === 'number') {
    const copy = node.slice();
    copy[key] = setAt(node[key], path, i + 1, value);
    return copy;
  }
  if (isObject(node)) return { ...node, [key]: setAt(node[String(key)], path, i + 1, value) };
  return node;
}

const SCHEMA_DEPTH = 32;

/**
 * The entity's own vocabulary: its parameter names at any depth (lower case). A tool that quotes
 * `query` or `search` is naming its own parameter, not another server's tool of that name.
 */
/** One word, no separator: a value, where a tool's name would be joined (`send_email`). */
const PLAIN_VALUE = /^[A-Za-z][A-Za-z0-9]{1,19}$/;
const ACTION_NAME = /^[A-Za-z][A-Za-z0-9]*(?:[_.-][A-Za-z0-9]+)*$/;
/** Verbs every tool name has: sharing one says nothing of what a tool is named for. */
const GENERIC_NAME_WORDS: ReadonlySet<string> = new Set(['get', 'list', 'set', 'create', 'update', 'delete', 'send', 'read', 'write', 'run', 'call', 'add', 'remove', 'search', 'fetch', 'find', 'tool', 'mcp']);

/** Whether `value` shares a word other than a generic verb with the tool's name. */
function namedFor(toolName: string, value: string): boolean {
  const words = new Set(toolName.toLowerCase().split(/[^a-z0-9]+/).filter((w) => w.length >= 3 && !GENERIC_NAME_WORDS.has(w)));
  return value.toLowerCase().split(/[^a-z0-9]+/).some((w) => words.has(w));
}

/** Property names whose value picks what the tool does. */
const ACTION_KEY = /^(?:action|operation|op|mode|method|command)$/i;

export function parameterNames(kind: EntityKind, entity: unknown): ReadonlySet<string> {
  const names = new Set<string>();
  if (!isObject(entity)) return names;
  const toolName = typeof entity['name'] === 'string' ? entity['name'] : '';
  const visit = (node: unknown, depth: number): void => {
    if (depth > SCHEMA_DEPTH) return;
    if (Array.isArray(node)) {
      for (const item of node) visit(item, depth + 1);
      return;
    }
    if (!isObject(node)) return;
    const props = node['properties'];
    if (isObject(props)) {
      for (const [key, schema] of Object.entries(props)) {
        names.add(key.toLowerCase());
        // The one operation a tool is fixed to is its own where the tool is named for it
        // (`operation: {const: "get-user"}` on `netlify-user-services-reader`): any other const is a
        // value the schema states, and naming another server's tool there is judged as such.
        const fixed = isObject(schema) ? schema['const'] : undefined;
        if (typeof fixed === 'string' && ACTION_KEY.test(key) && ACTION_NAME.test(fixed) && namedFor(toolName, fixed)) names.add(fixed.toLowerCase());
      }
    }
    // An action list (`action: ["create_application", "update_application", ...]`) is the tool's
    // own vocabulary: its members name what this tool does, not another server's tools.
    const members = node['enum'];
    if (Array.isArray(members) && members.length >= 3 && members.every((m) => typeof m === 'string' && ACTION_NAME.test(m))) {
      for (const m of members as string[]) names.add(m.toLowerCase());
    } else if (Array.isArray(members) && members.length >= 2 && members.every((m) => typeof m === 'string' && PLAIN_VALUE.test(m))) {
      // Plain words offered as values (`encoding: ["text", "base64"]`): "use 'base64'" picks one.
      for (const m of members as string[]) names.add(m.toLowerCase());
    }
    for (const value of Object.values(node)) if (typeof value === 'object' && value !== null) visit(value, depth + 1);
  };
  if (kind === 'tool') {
    visit(entity['inputSchema'], 0);
    visit(entity['outputSchema'], 0);
  } else if (kind === 'prompt' && Array.isArray(entity['arguments'])) {
    for (const arg of entity['arguments']) if (isObject(arg) && typeof arg['name'] === 'string') names.add(arg['name'].toLowerCase());
  }
  return names;
}
