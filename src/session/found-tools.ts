// The tools a search-mode session found, which join its tool list: bounded, the least recently
// found leaving first, so a long conversation's list stays short.

/** Tools a session's list gains from searches at most. */
export const MAX_FOUND_TOOLS = 20;

export class FoundTools {
  /** Client-facing names, least recently found first (Map keeps insertion order). */
  private readonly names = new Map<string, true>();
  /** Bumped on every change, so a cached listing knows it is stale. */
  version = 0;

  /** Adds (or refreshes) names; true when the list of names changed. */
  add(names: readonly string[]): boolean {
    let changed = false;
    for (const name of names) {
      if (this.names.has(name)) {
        this.names.delete(name);
        this.names.set(name, true);
        continue;
      }
      this.names.set(name, true);
      changed = true;
      if (this.names.size > MAX_FOUND_TOOLS) this.names.delete(this.names.keys().next().value as string);
    }
    if (changed) this.version += 1;
    return changed;
  }

  /** Oldest first. */
  list(): IterableIterator<string> {
    return this.names.keys();
  }

  get size(): number {
    return this.names.size;
  }
}
