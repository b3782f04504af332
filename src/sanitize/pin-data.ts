// The shape of the pins (as the pin file holds them) and their field form: one field per pin entry,
// per acceptance and per server name, so a shared store can change one without rewriting the rest.
import { isAcceptance, type Acceptance } from './acceptances.js';

export interface Pinned {
  sha256: string;
  /** Hash of each top-level field, so a change can be named even where no definition is kept. */
  fields: Record<string, string>;
  firstSeen: string;
  approvedAt: string;
  /** The approved definition as received, for `approve` to show a diff; absent when too large or pinned by an older version. */
  definition?: unknown;
  /** Rules that withhold the pinned definition itself (a tool withheld since first seen), for `approve`. */
  blockedBy?: string[];
  /** The latest differing definition, waiting for approval. */
  pending?: {
    sha256: string;
    fields: Record<string, string>;
    seen: string;
    definition?: unknown;
    /** Other rules that withheld this definition when it was listed: approving cannot serve it. */
    blockedBy?: string[];
  };
}

export interface PinServer {
  name?: string;
  entries: Record<string, Pinned>;
  accepted?: Record<string, Acceptance>;
}

export interface PinFile {
  v: 1;
  servers: Record<string, PinServer>;
}

export function isPinFile(v: unknown): v is PinFile {
  if (typeof v !== 'object' || v === null) return false;
  const f = v as { v?: unknown; servers?: unknown };
  return f.v === 1 && typeof f.servers === 'object' && f.servers !== null && !Array.isArray(f.servers);
}

/**
 * Field names: the kind, a space, then the JSON of [server id, key] (or [server id] for a name).
 * JSON keeps any server id or key unambiguous (a command line may hold spaces or quotes).
 */
export function entryField(serverId: string, key: string): string {
  return `entry ${JSON.stringify([serverId, key])}`;
}

export function acceptedField(serverId: string, key: string): string {
  return `accepted ${JSON.stringify([serverId, key])}`;
}

export function nameField(serverId: string): string {
  return `name ${JSON.stringify([serverId])}`;
}

/** The JSON of one field's value in `data`, or undefined when `data` has none (a deleted field). */
export function fieldValue(data: PinFile, field: string): string | undefined {
  const parsed = parseField(field);
  if (parsed === undefined) return undefined;
  const server = data.servers[parsed.serverId];
  if (server === undefined) return undefined;
  const value = parsed.kind === 'name' ? server.name : parsed.kind === 'entry' ? server.entries[parsed.key] : server.accepted?.[parsed.key];
  return value === undefined ? undefined : JSON.stringify(value);
}

/** Every field of `data` with its value. */
export function allFields(data: PinFile): Map<string, string> {
  const out = new Map<string, string>();
  for (const [serverId, server] of Object.entries(data.servers)) {
    if (server.name !== undefined) out.set(nameField(serverId), JSON.stringify(server.name));
    for (const [key, pin] of Object.entries(server.entries)) out.set(entryField(serverId, key), JSON.stringify(pin));
    for (const [key, acceptance] of Object.entries(server.accepted ?? {})) out.set(acceptedField(serverId, key), JSON.stringify(acceptance));
  }
  return out;
}

/** Pins from their fields; a field that is not one (another tool's key, a damaged value) is counted, not kept. */
export function fromFields(fields: Readonly<Record<string, string>>): { data: PinFile; unreadable: number } {
  const data: PinFile = { v: 1, servers: Object.create(null) as Record<string, PinServer> };
  let unreadable = 0;
  for (const [field, text] of Object.entries(fields)) {
    const parsed = parseField(field);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      value = undefined;
    }
    if (parsed === undefined || value === undefined) {
      unreadable += 1;
      continue;
    }
    const server = (data.servers[parsed.serverId] ??= { entries: Object.create(null) as Record<string, Pinned> });
    if (parsed.kind === 'name' && typeof value === 'string') server.name = value;
    else if (parsed.kind === 'entry' && isPinned(value)) server.entries[parsed.key] = value;
    else if (parsed.kind === 'accepted' && isAcceptance(value)) (server.accepted ??= Object.create(null) as Record<string, Acceptance>)[parsed.key] = value;
    else unreadable += 1;
  }
  return { data, unreadable };
}

type ParsedField = { kind: 'name'; serverId: string; key: '' } | { kind: 'entry' | 'accepted'; serverId: string; key: string };

function parseField(field: string): ParsedField | undefined {
  const space = field.indexOf(' ');
  const kind = field.slice(0, space);
  let parts: unknown;
  try {
    parts = JSON.parse(field.slice(space + 1));
  } catch {
    return undefined;
  }
  if (!Array.isArray(parts) || !parts.every((p) => typeof p === 'string')) return undefined;
  if (kind === 'name' && parts.length === 1) return { kind, serverId: parts[0] as string, key: '' };
  if ((kind === 'entry' || kind === 'accepted') && parts.length === 2) return { kind, serverId: parts[0] as string, key: parts[1] as string };
  return undefined;
}

function isPinned(v: unknown): v is Pinned {
  if (typeof v !== 'object' || v === null) return false;
  const p = v as Record<string, unknown>;
  return typeof p['sha256'] === 'string' && typeof p['fields'] === 'object' && p['fields'] !== null && typeof p['firstSeen'] === 'string' && typeof p['approvedAt'] === 'string';
}
