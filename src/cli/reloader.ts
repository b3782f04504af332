// Config reload for the daemon: on SIGHUP and when the config file or a token file it names changes
// (debounced), load it again and apply it; a config that does not load is refused with its one-line
// reason, and the running one stays in force.
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
  /** Watchers by file: the config file and the token files of the config in force. */
  private readonly watchers = new Map<string, fs.FSWatcher>();
  private watching = false;
  /** The files whose content the running config holds: the config file, then its token files. */
  private files: readonly string[];
  /** Which of `files` are token files, for the log's words. */
  private tokenFiles: ReadonlySet<string>;
  private lastDigest: string;
  /** The last reload was refused: the next change reloads even if it restores the running text. */
  private refused = false;

  constructor(
    private readonly file: string,
    private readonly target: Reloadable,
    private readonly log: Logger,
    /** The command line's overrides (`--port`, `--strict`): a reload keeps them. */
    private readonly options: LoadOptions = {},
    /** The config in force, whose token files are watched too; without it, the config file alone. */
    running?: SwitchboardConfig,
  ) {
    this.files = running === undefined ? [file] : sourceFiles(running);
    this.tokenFiles = tokenFilesOf(running);
    this.lastDigest = digest(this.files);
  }

  /**
   * Reloads when the config file or one of its token files changes (see watchFile): a rotated token
   * is in force without SIGHUP. SIGHUP still works when a directory cannot be watched.
   */
  watch(): void {
    this.watching = true;
    this.follow();
  }

  /** Watches exactly the files of the config in force (a reload may add or drop token files). */
  private follow(): void {
    if (!this.watching) return;
    for (const [file, watcher] of this.watchers) {
      if (this.files.includes(file)) continue;
      watcher.close();
      this.watchers.delete(file);
    }
    for (const file of this.files) {
      if (this.watchers.has(file)) continue;
      const what = file === this.file ? 'config file' : this.tokenFiles.has(file) ? 'token file' : 'secret file';
      try {
        this.watchers.set(
          file,
          watchFile(
            file,
            () => this.schedule(`${what} changed`, true),
            (error) => this.log.warn({ file, err: error.message }, `${what} watch failed; reload with SIGHUP`),
          ),
        );
      } catch (error) {
        this.log.warn({ err: (error as Error).message, dir: path.dirname(file) }, `cannot watch the ${what}'s directory; reload with SIGHUP`);
      }
    }
  }

  /**
   * Reloads after the debounce; repeated triggers within it make one reload. `ifChanged`: skip it
   * when no watched file's content changed (a watch event for a touch, a chmod, a save of the same text).
   */
  schedule(reason: string, ifChanged = false): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.reload(reason, ifChanged), DEBOUNCE_MS);
    this.timer.unref();
  }

  /** Loads and applies the file now; false when it was refused (the running config stays). */
  reload(reason: string, ifChanged = false): boolean {
    const current = digest(this.files);
    // A file put back as it was after a refused edit is a reload, so the refusal shown is cleared.
    if (ifChanged && !this.refused && current === this.lastDigest) return true;
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
    const files = sourceFiles(config);
    // Read before loading when the files are the same, so a change made during the load is not missed.
    this.lastDigest = sameList(files, this.files) ? current : digest(files);
    this.files = files;
    this.tokenFiles = tokenFilesOf(config);
    this.follow();
    for (const warning of config.warnings) this.log.warn(warning);
    this.log.info({ reason }, 'reloading config');
    this.target.reload(config);
    return true;
  }

  stop(): void {
    clearTimeout(this.timer);
    this.watching = false;
    for (const watcher of this.watchers.values()) watcher.close();
    this.watchers.clear();
  }
}

function tokenFilesOf(config: SwitchboardConfig | undefined): Set<string> {
  return new Set((config?.auth.tokens ?? []).flatMap((token) => (token.file === undefined ? [] : [token.file])));
}

/**
 * The config file, the token files and the `${file:...}` secret files it names: what a reload reads
 * (tokenEnv values and systemd credentials cannot change under a running daemon).
 */
function sourceFiles(config: SwitchboardConfig): string[] {
  const files = [config.file];
  for (const token of config.auth.tokens) if (token.file !== undefined && !files.includes(token.file)) files.push(token.file);
  for (const file of config.secretFiles ?? []) if (!files.includes(file)) files.push(file);
  return files;
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((file, i) => file === b[i]);
}

/** One hash over every file's content (each prefixed by its length); a missing file counts as a content of its own. */
function digest(files: readonly string[]): string {
  const hash = createHash('sha256');
  for (const file of files) {
    try {
      const content = fs.readFileSync(file);
      hash.update(`${content.length}:`).update(content);
    } catch {
      hash.update('missing:');
    }
  }
  return hash.digest('hex');
}
