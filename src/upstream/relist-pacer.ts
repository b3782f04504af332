// Paces re-list passes per list kind: at most one start per spacing over any period, and a change
// announced meanwhile always leads to one more pass (leading and trailing edge).

/**
 * Least time between two re-list passes of one kind after a pass, ms: a burst of list_changed is one
 * or two passes; a flood is at most 5 per second (the catalog, the sanitizer and every session's
 * list_changed are then paced, while a real change is still shown within a fifth of a second).
 */
export const RELIST_SPACING_MS = 200;

interface Slot {
  /** The pass to run for the latest change. */
  pass: () => Promise<void>;
  /** A pass is running now. */
  running: boolean;
  /** A change came after the running (or last) pass started: one more pass is owed. */
  owed: boolean;
  /** When the last pass started, ms since epoch; 0 before the first. */
  lastStart: number;
  timer: NodeJS.Timeout | undefined;
  /** A reset dropped it: a pass still running finishes, nothing more is scheduled. */
  dropped: boolean;
}

export class RelistPacer {
  private slots = new Map<string, Slot>();

  constructor(private readonly spacingMs: number) {}

  /**
   * A change of `key` was announced: `pass` runs now if no pass of `key` started within the spacing
   * and none runs; else once as soon as both hold. Changes announced before that pass starts are
   * covered by it, so a flood costs one pass per spacing, and the last change is always listed.
   */
  changed(key: string, pass: () => Promise<void>): void {
    let slot = this.slots.get(key);
    if (slot === undefined) this.slots.set(key, (slot = { pass, running: false, owed: false, lastStart: 0, timer: undefined, dropped: false }));
    slot.pass = pass;
    slot.owed = true;
    this.schedule(slot);
  }

  /** Forgets owed passes and their timers (the child is gone; its successor lists everything anew). */
  reset(): void {
    for (const slot of this.slots.values()) {
      clearTimeout(slot.timer);
      slot.dropped = true;
    }
    this.slots = new Map();
  }

  private schedule(slot: Slot): void {
    if (slot.dropped || slot.running || slot.timer !== undefined || !slot.owed) return;
    const wait = slot.lastStart + this.spacingMs - Date.now();
    if (wait > 0) {
      slot.timer = setTimeout(() => {
        slot.timer = undefined;
        this.schedule(slot);
      }, wait);
      slot.timer.unref();
      return;
    }
    slot.owed = false;
    slot.running = true;
    slot.lastStart = Date.now();
    void slot.pass().finally(() => {
      slot.running = false;
      this.schedule(slot);
    });
  }
}
