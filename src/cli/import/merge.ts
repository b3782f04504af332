// Merging the servers found into the config: one server per command+args+env (or URL), a name
// that is taken by another server gets the client's name as a suffix, secrets move to files.
import path from 'node:path';
import { readSecretRef } from '../../config/secret-refs.js';
import { identity, walkStrings } from './normalize.js';
import { moveSecrets, secretOnDisk, type MovedSecret } from './secrets.js';
import type { CarriedServer } from './types.js';

export interface Added {
  readonly name: string;
  readonly entry: Record<string, unknown>;
  /** Where it was found; more than one when clients share it. */
  readonly from: CarriedServer[];
}

export interface MergePlan {
  readonly added: Added[];
  /** Found servers the config already has: their name there. */
  readonly present: { readonly server: CarriedServer; readonly as: string }[];
  readonly secrets: MovedSecret[];
}

/** Server names the loader accepts as keys and turns into readable aliases. */
function cleanName(name: string): string {
  const clean = name.replace(/[^A-Za-z0-9_.-]+/g, '-').replace(/^[^A-Za-z0-9]+/, '').slice(0, 56);
  return clean === '' ? 'server' : clean;
}

/**
 * Plans the merge. `existing`: the config's entries as written; their `${file:...}` values are read
 * (relative to `configDir`) so a server imported before, its secret since moved, is recognised.
 */
export function plan(found: readonly CarriedServer[], existing: Readonly<Record<string, unknown>>, configDir: string, secretsDir: string): MergePlan {
  const taken = identities(existing, configDir);
  const names = new Set(Object.keys(existing));
  const added: Added[] = [];
  const byIdentity = new Map<string, Added>();
  const present: MergePlan['present'][number][] = [];
  const secrets: MovedSecret[] = [];
  const relative = path.relative(configDir, secretsDir) || '.';
  for (const server of found) {
    const id = identity(server.entry);
    const already = taken.get(id);
    if (already !== undefined) {
      present.push({ server, as: already });
      continue;
    }
    const same = byIdentity.get(id);
    if (same !== undefined) {
      same.from.push(server);
      continue;
    }
    const base = cleanName(server.found.name);
    let name = base;
    if (names.has(name)) name = `${base}-${server.found.source.client}`;
    for (let n = 2; names.has(name); n++) name = `${base}-${server.found.source.client}-${n}`;
    names.add(name);
    const entry = structuredClone(server.entry);
    moveSecrets(entry, [server.found.source.client, base], (file) => `\${file:${path.posix.join(relative.split(path.sep).join('/'), file)}}`, secrets, (file) => secretOnDisk(secretsDir, file));
    const one: Added = { name, entry, from: [server] };
    byIdentity.set(id, one);
    added.push(one);
  }
  return { added, present, secrets };
}

/** Each config entry's identity (see `identity`), its `${file:...}` secrets read, to its name. */
export function identities(existing: Readonly<Record<string, unknown>>, configDir: string): Map<string, string> {
  const taken = new Map<string, string>();
  for (const [name, entry] of Object.entries(existing)) {
    if (typeof entry === 'object' && entry !== null && !Array.isArray(entry)) taken.set(identity(withFilesRead(entry as Record<string, unknown>, configDir)), name);
  }
  return taken;
}

/** The entry with each `${file:PATH}` replaced by what the file holds (left as written when unreadable). */
function withFilesRead(entry: Record<string, unknown>, dir: string): Record<string, unknown> {
  const copy = structuredClone(entry);
  walkStrings(copy, [], (text) =>
    text.includes('${file:')
      ? text.replace(/\$\{file:([^}]*)\}/g, (whole, ref: string) => {
          const read = readSecretRef('file', ref, dir, process.env);
          return read.ok ? read.value : whole;
        })
      : text,
  );
  return copy;
}
