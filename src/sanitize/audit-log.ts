// The sanitization log file: append-only JSON lines, each finding once (dedupe on key), size-bounded by rotation.
import { appendFile, mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { AuditRecord } from './audit-record.js';
import { isMissing, rotateFiles, sizeOf } from '../rotating-log.js';

export interface AuditLogOptions {
  readonly path: string;
  /** Rotate before the current file would pass this many bytes. Default 10 MiB. */
  readonly maxBytes?: number;
  /** Rotated files kept beside the current one (`path.1` newest ... `path.N`). Default 4. */
  readonly keep?: number;
  /** Dedupe keys remembered, oldest forgotten first. Default 200,000 (~20 MiB of keys). */
  readonly maxKeys?: number;
  /** Written into every record: whose log it is when several instances keep one each. */
  readonly instance?: string;
}

export type AppendResult =
  | { readonly ok: true; readonly written: number; readonly skipped: number; readonly dropped?: number }
  | { readonly ok: false; readonly written: number; readonly skipped: number; readonly error: Error };

/**
 * Records waiting to be written at most. Appends queue behind each other; a server that changes
 * its tools faster than the disk takes them must not grow that queue without end: past this,
 * a batch is dropped (and counted) rather than queued.
 */
export const MAX_QUEUED_RECORDS = 5_000;

const DEFAULT_MAX_BYTES = 10 * 1024 * 1024;
const DEFAULT_KEEP = 4;
const DEFAULT_MAX_KEYS = 200_000;

/**
 * A hostile server relisting every second cannot fill the disk: records are deduped on their key
 * (including keys already in the files at open), and the files are rotated at `maxBytes` with
 * `keep` old ones kept, so the log never exceeds (keep + 1) * maxBytes. Disk errors are returned,
 * never thrown: losing a log line must not take down the catalog.
 */
export class AuditLog {
  private readonly keys = new Set<string>();
  private size = 0;
  private queue: Promise<unknown> = Promise.resolve();
  private queued = 0;
  /** Records dropped because the queue was full, since open. */
  dropped = 0;
  private readonly maxBytes: number;
  private readonly keep: number;
  private readonly maxKeys: number;
  private readonly instance: string | undefined;
  /** An error met while opening (unreadable old file); the log still works. */
  openError: Error | undefined;

  private constructor(readonly path: string, opts: AuditLogOptions) {
    this.maxBytes = opts.maxBytes ?? DEFAULT_MAX_BYTES;
    this.keep = Math.max(0, opts.keep ?? DEFAULT_KEEP);
    this.maxKeys = opts.maxKeys ?? DEFAULT_MAX_KEYS;
    this.instance = opts.instance;
  }

  static async open(opts: AuditLogOptions): Promise<AuditLog> {
    const log = new AuditLog(opts.path, opts);
    try {
      await mkdir(dirname(opts.path), { recursive: true, mode: 0o700 });
      for (let i = log.keep; i >= 0; i--) await log.loadKeys(i === 0 ? opts.path : `${opts.path}.${i}`);
      log.size = await sizeOf(opts.path);
    } catch (err) {
      log.openError = asError(err);
    }
    return log;
  }

  /** Already written (in this process or found in the files at open). */
  has(key: string): boolean {
    return this.keys.has(key);
  }

  /** Appends the records not written before, in order. Calls are serialized; the promise never rejects. */
  append(records: readonly AuditRecord[]): Promise<AppendResult> {
    if (this.queued + records.length > MAX_QUEUED_RECORDS) {
      this.dropped += records.length;
      return Promise.resolve({ ok: true, written: 0, skipped: 0, dropped: records.length });
    }
    this.queued += records.length;
    const result = this.queue.then(() => this.write(records)).finally(() => (this.queued -= records.length));
    this.queue = result;
    return result;
  }

  /** Resolves once the appends asked for so far are written (or have failed). */
  async settled(): Promise<void> {
    await this.queue;
  }

  /** Waits for pending appends. */
  close(): Promise<void> {
    return this.settled();
  }

  private async write(records: readonly AuditRecord[]): Promise<AppendResult> {
    const fresh: AuditRecord[] = [];
    const batch = new Set<string>();
    for (const r of records) {
      if (this.keys.has(r.key) || batch.has(r.key)) continue;
      batch.add(r.key);
      fresh.push(r);
    }
    const skipped = records.length - fresh.length;
    if (fresh.length === 0) return { ok: true, written: 0, skipped };
    const instance = this.instance;
    const data = fresh.map((r) => `${JSON.stringify(instance === undefined ? r : { ...r, instance })}\n`).join('');
    const bytes = Buffer.byteLength(data);
    try {
      if (this.size > 0 && this.size + bytes > this.maxBytes) await this.rotate();
      await appendFile(this.path, data, { mode: 0o600 });
      this.size += bytes;
    } catch (err) {
      return { ok: false, written: 0, skipped, error: asError(err) };
    }
    for (const k of batch) this.remember(k);
    return { ok: true, written: fresh.length, skipped };
  }

  private async rotate(): Promise<void> {
    await rotateFiles(this.path, this.keep);
    this.size = 0;
  }

  private remember(key: string): void {
    this.keys.add(key);
    if (this.keys.size > this.maxKeys) {
      const oldest = this.keys.values().next();
      if (!oldest.done) this.keys.delete(oldest.value);
    }
  }

  private async loadKeys(file: string): Promise<void> {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (err) {
      if (isMissing(err)) return;
      throw err;
    }
    for (const line of text.split('\n')) {
      // A torn last line (crash mid-append) or foreign text is skipped, not fatal.
      const m = /"key":"(sha256:[0-9a-f]{64})"/.exec(line);
      if (m) this.remember(m[1]!);
    }
  }
}

function asError(err: unknown): Error {
  return err instanceof Error ? err : new Error(String(err));
}
