// Where the daemon's pins live between reviews: the pin file (this module) or a Redis shared by
// several instances (pin-redis.ts). Either one saves what the review changed and brings in what
// another writer changed (`switchboard approve`, another instance), so approved tools come back.
import fs from 'node:fs';
import { dirname } from 'node:path';
import { watchFile } from '../file-watch.js';
import type { Logger } from '../log.js';
import { PinStore } from '../sanitize/index.js';

/** One reload of the pins' store after a change event: `changed` when it brought in another writer's pins. */
export type PinReloaded = (changed: boolean) => void;

export type PinSaveOutcome = { readonly ok: true } | { readonly ok: false; readonly error: Error };

export interface PinKeeper {
  /** The pins in use; a new store once another writer's change is loaded. */
  readonly pins: PinStore;
  /** Where the pins live, for messages; never a password. */
  readonly where: string;
  /** The shared store's health (/metrics); undefined for a pin file, which has no outage to report. */
  readonly shared: { readonly reachable: boolean } | undefined;
  /**
   * Follows other writers: `onChange` runs (synchronously re-reviewing) once their pins are in use.
   * `reloaded` hears the end of every reload a change event set off, and whether it brought in pins
   * new to us (false also when the store could not be read): the event to wait on where "nothing
   * changed" is the outcome. The pin file hears our own saves too; Redis does not announce them to us.
   */
  follow(onChange: () => void, reloaded?: PinReloaded): void;
  /**
   * Writes what changed. Never throws and never makes a caller wait for the store: a review calls
   * it and goes on; the promise is for the CLI, which reports the outcome.
   */
  save(): Promise<PinSaveOutcome>;
  /** Stops following, after the save in flight. */
  close(): Promise<void>;
}

/** Our own pin saves also touch the file; a short pause folds a save's events into one reload, ms. */
const PIN_RELOAD_DEBOUNCE_MS = 200;

/** The pin file of one daemon, watched for `switchboard approve` rewriting it from another process. */
export class FilePinKeeper implements PinKeeper {
  readonly shared = undefined;
  private current: PinStore;
  private watcher: fs.FSWatcher | undefined;
  private saving = false;
  private saveAgain = false;
  /** The save in flight; close() waits for it, so a stop never leaves a half-written temp file. */
  private saved: Promise<PinSaveOutcome> = Promise.resolve({ ok: true });

  constructor(
    pins: PinStore,
    private readonly log: Logger,
  ) {
    this.current = pins;
  }

  get pins(): PinStore {
    return this.current;
  }

  get where(): string {
    return this.current.path;
  }

  follow(onChange: () => void, reloaded?: PinReloaded): void {
    const file = this.current.path;
    const dir = dirname(file);
    let timer: NodeJS.Timeout | undefined;
    const reload = (): void => {
      PinStore.open(file).then(
        (pins) => {
          // The text our own save wrote: nothing changed, and treating it as a change would
          // re-review the catalog, which may pin again and save again, and so on for ever.
          if (pins.sameFileAs(this.current)) {
            reloaded?.(false);
            return;
          }
          this.current = pins;
          onChange();
          reloaded?.(true);
        },
        (error: unknown) => {
          this.log.error({ err: (error as Error).message, file }, 'could not read the changed pin file; keeping the pins in memory');
          reloaded?.(false);
        },
      );
    };
    try {
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
      this.watcher = watchFile(
        file,
        () => {
          clearTimeout(timer);
          timer = setTimeout(reload, PIN_RELOAD_DEBOUNCE_MS);
          timer.unref();
        },
        () => undefined,
      );
    } catch (error) {
      this.log.warn({ err: (error as Error).message, dir }, 'cannot watch the pin file; approvals apply after a restart');
    }
  }

  /**
   * One save at a time, and at most one more after it: a server relisting in a loop changes pins on
   * every pass, and a write per pass would pile up temp files and promises faster than the disk.
   */
  save(): Promise<PinSaveOutcome> {
    if (this.saving) {
      this.saveAgain = true;
      return this.saved;
    }
    this.saving = true;
    const pins = this.current;
    this.saved = pins.save().then((saved) => {
      if (!saved.ok) this.log.error({ err: saved.error.message, file: pins.path }, 'could not save tool pins');
      this.saving = false;
      if (this.saveAgain) {
        this.saveAgain = false;
        if (this.current.changed) void this.save();
      }
      return saved;
    });
    return this.saved;
  }

  async close(): Promise<void> {
    this.watcher?.close();
    while (this.saving) await this.saved;
  }
}
