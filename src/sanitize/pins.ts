// The pin store: each tool's canonical hash when first seen, what changed since, and operator approvals (rug-pull defence).
import { excerpt } from './escape.js';
import { canonicalHash, canonicalJson } from './hash.js';
import type { Finding, SanitizeResult } from './types.js';
import { isAcceptance, type Acceptance, type AcceptanceEntry, type WithheldDefinition } from './acceptances.js';
import { acceptedField, allFields, entryField, fieldValue, nameField, type PinFile, type Pinned } from './pin-data.js';
import { defaultPinPath, readPinFile, writePinFile } from './pin-file.js';

export { defaultPinPath } from './pin-file.js';

export type PinStatus = 'new' | 'same' | 'changed';

export interface PinCheck {
  readonly status: PinStatus;
  /** Hash of the entity as received now. */
  readonly sha256: string;
  /** Hash pinned before this check (null when new). */
  readonly pinnedSha256: string | null;
  /** Top-level fields added, removed or changed since the pin, sorted. */
  readonly changedFields: readonly string[];
}

/** A pending change as `approve` shows it. */
export interface PendingChange {
  readonly key: string;
  readonly pinnedSha256: string;
  readonly sha256: string;
  readonly changedFields: string[];
  /** The approved and the changed definition, when both were kept. */
  readonly before: unknown;
  readonly after: unknown;
  /** Rules other than the pin that withheld the changed definition when last listed. */
  readonly blockedBy: readonly string[];
}

/**
 * Characters of canonical JSON kept per definition: enough for any real tool (the largest of the
 * public servers' tools are ~10 KiB) while a hostile 4 MiB schema cannot bloat the pin file.
 */
export const MAX_KEPT_DEFINITION = 64 * 1024;

function kept(entity: unknown): unknown {
  return canonicalJson(entity).length <= MAX_KEPT_DEFINITION ? entity : undefined;
}

export function fieldHashes(entity: unknown): Record<string, string> {
  if (typeof entity !== 'object' || entity === null || Array.isArray(entity)) return { '': canonicalHash(entity) };
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(entity)) if (v !== undefined) out[k] = canonicalHash(v);
  return out;
}

function diffFields(a: Record<string, string>, b: Record<string, string>): string[] {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].filter((k) => a[k] !== b[k]).sort();
}

/**
 * Keyed by server id (command line, not config name) and entity key (a tool's name; callers may
 * use `prompt:<name>` or `instructions` for other entities). Changes are in memory until save().
 */
export class PinStore {
  private dirty = false;
  /** Bumped on every change, so a save only marks clean what it wrote. */
  private version = 0;
  /** Fields (pin-data.ts) changed since the last takeChanges(): what a shared store must write. */
  private touched = new Set<string>();

  private constructor(
    readonly path: string,
    private readonly data: PinFile,
    /** sha256 of the file text this store was read from or last wrote; undefined before either. */
    private fileDigest: string | undefined = undefined,
  ) {}

  /** A missing file is an empty store. A corrupt one is an error: starting empty would silently re-pin every tool. */
  static async open(path: string = defaultPinPath()): Promise<PinStore> {
    const read = await readPinFile(path);
    return read === undefined ? new PinStore(path, { v: 1, servers: {} }) : new PinStore(path, read.data, read.digest);
  }

  /** A store of pins read from elsewhere (a shared store); `path` is the pin file it stands in for. */
  static of(path: string, data: PinFile): PinStore {
    return new PinStore(path, data);
  }

  /**
   * True when `other` was read from exactly the text this store last read or wrote: the file
   * changed only by this store's own save (or a touch), so reloading it would change nothing.
   */
  sameFileAs(other: PinStore): boolean {
    return this.fileDigest !== undefined && this.fileDigest === other.fileDigest;
  }

  /** The brief form: status only, from a hash (no field diff possible). */
  check(serverId: string, key: string, hash: string): PinStatus {
    return this.record(serverId, key, hash, {}).status;
  }

  /**
   * Compares an entity with its pin, pinning it when first seen and remembering a change as
   * pending, with its definition and `blockedBy`: the other rules that withhold it anyway.
   */
  checkEntity(serverId: string, key: string, entity: unknown, serverName?: string, blockedBy: readonly string[] = []): PinCheck {
    return this.record(serverId, key, canonicalHash(entity), fieldHashes(entity), serverName, entity, blockedBy);
  }

  /**
   * Whether an earlier check of this entity still describes the store, so a caller that remembers
   * checks by definition may reuse it: the pin unchanged, and a pending change exactly when the
   * check found one. Lookups only, no hashing.
   */
  stillHolds(serverId: string, key: string, check: PinCheck): boolean {
    const pin = this.data.servers[serverId]?.entries[key];
    if (pin === undefined) return false;
    if (check.status === 'changed') return pin.sha256 === check.pinnedSha256 && pin.pending?.sha256 === check.sha256;
    return pin.sha256 === check.sha256 && pin.pending === undefined;
  }

  /** Accepts pending changes of one entity, or of every entity of the server. Returns how many. */
  approve(serverId: string, key?: string): number {
    const server = this.data.servers[serverId];
    if (!server) return 0;
    let n = 0;
    for (const [k, pin] of Object.entries(server.entries)) {
      if ((key !== undefined && k !== key) || !pin.pending) continue;
      const approved: Pinned = { sha256: pin.pending.sha256, fields: pin.pending.fields, firstSeen: pin.firstSeen, approvedAt: now() };
      if (pin.pending.definition !== undefined) approved.definition = pin.pending.definition;
      if (pin.pending.blockedBy !== undefined) approved.blockedBy = pin.pending.blockedBy;
      server.entries[k] = approved;
      this.touch(entryField(serverId, k));
      n++;
    }
    return n;
  }

  /** Entities of a server waiting for approval, with what changed. */
  pending(serverId: string): PendingChange[] {
    const server = this.data.servers[serverId];
    if (!server) return [];
    const out: PendingChange[] = [];
    for (const [key, p] of Object.entries(server.entries)) {
      if (p.pending === undefined) continue;
      out.push({
        key,
        pinnedSha256: p.sha256,
        sha256: p.pending.sha256,
        changedFields: diffFields(p.fields, p.pending.fields),
        before: p.definition,
        after: p.pending.definition,
        blockedBy: p.pending.blockedBy ?? [],
      });
    }
    return out;
  }

  /** Entities whose pinned definition the sanitizer withholds (no pending change), with any acceptance. */
  withheld(serverId: string): WithheldDefinition[] {
    const server = this.data.servers[serverId];
    if (!server) return [];
    return Object.entries(server.entries)
      .filter(([, p]) => p.pending === undefined && (p.blockedBy?.length ?? 0) > 0)
      .map(([key, p]) => ({ key, sha256: p.sha256, rules: p.blockedBy ?? [], definition: p.definition, accepted: this.acceptance(serverId, key) }));
  }

  /** The operator's acceptance of an entity's findings, whatever definition it was for. */
  acceptance(serverId: string, key: string): Acceptance | undefined {
    const found = this.data.servers[serverId]?.accepted?.[key];
    return isAcceptance(found) ? found : undefined;
  }

  /** Records an acceptance (replacing an earlier one of the entity). */
  accept(serverId: string, key: string, acceptance: Acceptance): void {
    const server = (this.data.servers[serverId] ??= { entries: {} });
    (server.accepted ??= {})[key] = { ...acceptance, rules: [...acceptance.rules].sort() };
    this.touch(acceptedField(serverId, key));
  }

  /** Removes an acceptance; false when there was none. */
  revoke(serverId: string, key: string): boolean {
    const accepted = this.data.servers[serverId]?.accepted;
    if (accepted?.[key] === undefined) return false;
    delete accepted[key];
    this.touch(acceptedField(serverId, key));
    return true;
  }

  /** Every acceptance, of every server (a server's config name as last recorded). */
  acceptances(): AcceptanceEntry[] {
    return Object.entries(this.data.servers).flatMap(([serverId, server]) =>
      Object.entries(server.accepted ?? {}).flatMap(([key, a]) => (isAcceptance(a) ? [{ ...a, serverId, server: server.name, key }] : [])),
    );
  }

  get changed(): boolean {
    return this.dirty;
  }

  /** Writes the pin file (a temp file renamed over it). Never throws. */
  async save(): Promise<{ ok: true } | { ok: false; error: Error }> {
    if (!this.dirty) return { ok: true };
    try {
      const version = this.version;
      this.touched.clear();
      this.fileDigest = await writePinFile(this.path, this.data);
      // Pins recorded while the file was being written are not in it: they stay to be saved.
      if (this.version === version) this.dirty = false;
      return { ok: true };
    } catch (err) {
      return { ok: false, error: err instanceof Error ? err : new Error(String(err)) };
    }
  }

  /** Every field with its JSON (pin-data.ts): a whole copy for a shared store that holds none. */
  fields(): Map<string, string> {
    return allFields(this.data);
  }

  /** The fields changed since last taken, each with its JSON now (undefined: deleted); the store is clean after. */
  takeChanges(): Map<string, string | undefined> {
    const out = new Map<string, string | undefined>();
    for (const field of this.touched) out.set(field, fieldValue(this.data, field));
    this.touched = new Set();
    this.dirty = false;
    return out;
  }

  /** Changes a shared store could not write: taken again with the next ones. */
  restoreChanges(fields: Iterable<string>): void {
    for (const field of fields) this.touched.add(field);
    if (this.touched.size > 0) this.dirty = true;
  }

  private touch(field: string): void {
    this.dirty = true;
    this.version += 1;
    this.touched.add(field);
  }

  private record(
    serverId: string,
    key: string,
    hash: string,
    fields: Record<string, string>,
    serverName?: string,
    entity?: unknown,
    blockedBy: readonly string[] = [],
  ): PinCheck {
    const server = (this.data.servers[serverId] ??= { entries: {} });
    if (serverName !== undefined && server.name !== serverName) {
      server.name = serverName;
      this.touch(nameField(serverId));
    }
    const pin = server.entries[key];
    if (!pin) {
      const at = now();
      const pinned: Pinned = { sha256: hash, fields, firstSeen: at, approvedAt: at };
      const definition = entity === undefined ? undefined : kept(entity);
      if (definition !== undefined) pinned.definition = definition;
      if (blockedBy.length > 0) pinned.blockedBy = [...blockedBy].sort();
      server.entries[key] = pinned;
      this.touch(entryField(serverId, key));
      return { status: 'new', sha256: hash, pinnedSha256: null, changedFields: [] };
    }
    if (pin.sha256 === hash) {
      if (pin.pending) {
        delete pin.pending; // reverted to the approved definition
        this.touch(entryField(serverId, key));
      }
      const blocked = [...blockedBy].sort();
      if ((pin.blockedBy ?? []).join() !== blocked.join()) {
        if (blocked.length > 0) pin.blockedBy = blocked;
        else delete pin.blockedBy;
        this.touch(entryField(serverId, key));
      }
      return { status: 'same', sha256: hash, pinnedSha256: pin.sha256, changedFields: [] };
    }
    const blocked = [...blockedBy].sort();
    if (pin.pending?.sha256 !== hash || (pin.pending.blockedBy ?? []).join() !== blocked.join()) {
      pin.pending = { sha256: hash, fields, seen: now() };
      const definition = entity === undefined ? undefined : kept(entity);
      if (definition !== undefined) pin.pending.definition = definition;
      if (blocked.length > 0) pin.pending.blockedBy = blocked;
      this.touch(entryField(serverId, key));
    }
    const changedFields = Object.keys(fields).length > 0 ? diffFields(pin.fields, fields) : [];
    return { status: 'changed', sha256: hash, pinnedSha256: pin.sha256, changedFields };
  }
}

/** The rug-pull finding for a changed entity: blocked until approved (unless the server accepts updates). */
export function rugPullFinding(check: PinCheck, entity: unknown): Finding | undefined {
  if (check.status !== 'changed') return undefined;
  const json = canonicalJson(entity);
  const fields = check.changedFields.length > 0 ? `: ${check.changedFields.join(', ')}` : '';
  return {
    rule: 'rug-pull',
    severity: 'high',
    action: 'block',
    field: '',
    beforeSha256: check.sha256, // the definition as received now; the pin is the record's pinned_sha256
    afterSha256: null,
    before: excerpt(json),
    after: null,
    reason: `definition changed since it was approved${fields}`,
  };
}

/**
 * The sanitizer's verdict with the pin's added: a changed definition is withheld until approved
 * (a server with `acceptUpdates` approves first, so its check comes back `same`).
 */
export function withPinCheck<T>(result: SanitizeResult<T>, check: PinCheck, entity: unknown): SanitizeResult<T> {
  const drift = rugPullFinding(check, entity);
  if (!drift) return result;
  const withheld = result.findings.map((f) => ({ ...f, after: null, afterSha256: null }));
  return { ...result, findings: [...withheld, drift], blocked: true, outcome: 'block' };
}

function now(): string {
  return new Date().toISOString();
}
