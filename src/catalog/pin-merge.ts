// Which of an instance's pin changes go to the shared store, and on what condition: each field is
// written only if the store still holds what this instance last read (compare-and-set), and a
// review that merely follows another writer's change writes only what nobody can undo. Field
// names are pin-data.ts's: `entry [...]`, `accepted [...]`, `name [...]`.
import type { Pinned } from '../sanitize/index.js';

/** The value a compare-and-set expects of a field it creates (no field). */
export const ABSENT = '';
/** The expectation of a field written whatever it holds (a server's name: a label, no decision). */
export const ANY = '*';

export interface FieldWrite {
  readonly field: string;
  /** JSON the store must still hold, ABSENT, or ANY. */
  readonly expected: string;
  /** New JSON; undefined deletes the field. */
  readonly value: string | undefined;
}

export interface WritePlan {
  readonly writes: readonly FieldWrite[];
  /** Fields held back for this instance's next own save (see planWrite). */
  readonly deferred: readonly string[];
  /** True when a write can change what some instance serves: the others are told to reload. */
  readonly announce: boolean;
}

/**
 * The writes for `changes` (field -> JSON now, undefined when deleted) against `base` (what the
 * store held when last read or written).
 *
 * `echo`: the review that made these changes only followed another writer's change. Writing all
 * of it would let two instances that see different definitions of one tool (a rolling upgrade of
 * the server) undo each other for ever: one clears the pending change, the other records it
 * again, each write waking the other. So an echo writes only what is new to the store (a first
 * pin, a pending change where the entry had none), which no review undoes; the rest waits for
 * this instance's next own listing, and every write is then caused by a listing, which ends.
 */
export function planWrite(changes: ReadonlyMap<string, string | undefined>, base: ReadonlyMap<string, string>, echo: boolean): WritePlan {
  const writes: FieldWrite[] = [];
  const deferred: string[] = [];
  let announce = false;
  for (const [field, value] of changes) {
    const before = base.get(field);
    if (value === before) continue;
    if (echo && !onlyAdds(field, before, value)) {
      deferred.push(field);
      continue;
    }
    const label = field.startsWith('name ');
    writes.push({ field, expected: label ? ANY : (before ?? ABSENT), value });
    if (!label) announce = true;
  }
  return { writes, deferred, announce };
}

/** A field the store lacks, or a pending change added to an entry whose pin is the same. */
function onlyAdds(field: string, before: string | undefined, value: string | undefined): boolean {
  if (value === undefined) return false;
  if (before === undefined) return true;
  if (!field.startsWith('entry ')) return false;
  const was = parseEntry(before);
  const now = parseEntry(value);
  return was !== undefined && now !== undefined && was.pending === undefined && now.pending !== undefined && was.sha256 === now.sha256;
}

function parseEntry(json: string): Pinned | undefined {
  try {
    const value = JSON.parse(json) as unknown;
    return typeof value === 'object' && value !== null && typeof (value as { sha256?: unknown }).sha256 === 'string' ? (value as Pinned) : undefined;
  } catch {
    return undefined;
  }
}
