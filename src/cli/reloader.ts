// Config reload for the daemon: on SIGHUP and when the config file changes (debounced), load it
// again and apply it; a config that does not load is refused with its one-line reason, and the
// running one stays in force.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Logger } from '../log.js';
import { ConfigError, loadConfig, type LoadOptions } from '../config/load.js';
import type { SwitchboardConfig } from '../config/types.js';
import type { ConfigDiff } from '../config/reload-diff.js';
import { watchFile } from '../file-watch.js';

/** Editors write a file in several steps (truncate, write, rename); wait for them to settle, ms. */
const DEBOUNCE_MS = 300;

export interface Reloadable {
  reload(config: SwitchboardConfig): ConfigDiff;
  /** A reload was refused: shown on the status page until one succeeds. */
  reloadRefused?(message: string): void;
}

export class ConfigReloader {
  private timer: NodeJS.Timeout | undefined;
  private watcher: fs.FSWatcher | undefined;
  private lastDigest: string | undefined;
  /** The last reload was refused: the next change reloads even if it restores the running text. */
  private refused = false;

  constructor(
    private readonly file: string,
    private readonly target: Reloadable,
    private readonly log: Logger,
    /** The command line's overrides (`--port`, `--strict`): a reload keeps them. */
    private readonly options: LoadOptions = {},
  ) {
    this.lastDigest = digest(file);
  }

  /** Reloads when the file changes (see watchFile); SIGHUP still works when it cannot be watched. */
  watch(): void {
    try {
      this.watcher = watchFile(
        this.file,
        () => this.schedule('file changed'),
        (error) => this.log.warn({ err: error.message }, 'config file watch failed; reload with SIGHUP'),
      );
    } catch (error) {
      this.log.warn({ err: (error as Error).message, dir: path.dirname(this.file) }, 'cannot watch the config directory; reload with SIGHUP');
    }
  }

  /** Reloads after the debounce; repeated triggers within it make one reload. */
  schedule(reason: string): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.reload(reason), DEBOUNCE_MS);
    this.timer.unref();
  }

  /** Loads and applies the file now; false when it was refused (the running config stays). */
  reload(reason: string): boolean {
    const current = digest(this.file);
    // A watch event without a content change (touch, chmod, a save of the same text) is no reload;
    // but a file put back as it was after a refused edit is one, so the refusal shown is cleared.
    if (reason === 'file changed' && !this.refused && current !== undefined && current === this.lastDigest) return true;
    let config: SwitchboardConfig;
    try {
      config = loadConfig(this.file, process.env, this.options);
    } catch (error) {
      const message = error instanceof ConfigError ? error.message : (error as Error).message;
      this.log.error({ reason, err: message }, 'config reload refused; the running config stays in force');
      this.target.reloadRefused?.(message);
      this.refused = true;
      return false;
    }
    this.refused = false;
    this.lastDigest = current;
    for (const warning of config.warnings) this.log.warn(warning);
    this.log.info({ reason }, 'reloading config');
    this.target.reload(config);
    return true;
  }

  stop(): void {
    clearTimeout(this.timer);
    this.watcher?.close();
  }
}

function digest(file: string): string | undefined {
  try {
    return createHash('sha256').update(fs.readFileSync(file)).digest('hex');
  } catch {
    return undefined;
  }
}
