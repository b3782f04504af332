// An append-only JSON-lines file bounded by rotation: `path` grows to `maxBytes`, then becomes
// `path.1` (`path.1` becomes `path.2`, ... up to `keep`), so the log never passes (keep + 1) * maxBytes.
// Lines written in one turn of the event loop go out in one append; a disk slower than the lines
// coming in drops lines (counted) rather than queueing without end; a disk error is reported once.
import { appendFile, mkdir, rename, stat, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';

/** Lines waiting for the disk at most; beyond, lines are dropped and counted. */
const MAX_PENDING_LINES = 10_000;

export interface RotatingLogOptions {
  readonly path: string;
  readonly maxBytes: number;
  readonly keep: number;
  /** Told once per failure streak (the disk is full, the folder went away); the log keeps trying. */
  readonly onError?: (error: Error) => void;
}

export class RotatingLog {
  private size = -1;
  private pending: string[] = [];
  private flushing: Promise<void> | undefined;
  private failing = false;
  /** Lines dropped because the disk fell behind, since open. */
  dropped = 0;

  constructor(private readonly options: RotatingLogOptions) {}

  get path(): string {
    return this.options.path;
  }

  /** Queues one record as a JSON line. */
  write(record: object): void {
    if (this.pending.length >= MAX_PENDING_LINES) {
      this.dropped += 1;
      return;
    }
    this.pending.push(`${JSON.stringify(record)}\n`);
    this.flushing ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.flush());
  }

  /** Resolves once every line written so far is on disk (or failed). */
  async drained(): Promise<void> {
    while (this.flushing !== undefined) await this.flushing;
  }

  private async flush(): Promise<void> {
    const data = this.pending.join('');
    this.pending = [];
    try {
      if (this.size < 0) {
        await mkdir(dirname(this.options.path), { recursive: true, mode: 0o700 });
        this.size = await sizeOf(this.options.path);
      }
      const bytes = Buffer.byteLength(data);
      if (this.size > 0 && this.size + bytes > this.options.maxBytes) {
        await rotateFiles(this.options.path, this.options.keep);
        this.size = 0;
      }
      await appendFile(this.options.path, data, { mode: 0o600 });
      this.size += bytes;
      this.failing = false;
    } catch (error) {
      if (!this.failing) this.options.onError?.(error instanceof Error ? error : new Error(String(error)));
      this.failing = true;
      // Size unknown after a failure: read it again next time.
      this.size = -1;
    }
    this.flushing = this.pending.length > 0 ? this.flush() : undefined;
  }
}

/** Shifts `path` to `path.1`, `path.1` to `path.2`, ... dropping `path.<keep>`; keep 0 just removes `path`. */
export async function rotateFiles(path: string, keep: number): Promise<void> {
  if (keep === 0) {
    await unlink(path).catch(ignoreMissing);
    return;
  }
  await unlink(`${path}.${keep}`).catch(ignoreMissing);
  for (let i = keep - 1; i >= 1; i--) await rename(`${path}.${i}`, `${path}.${i + 1}`).catch(ignoreMissing);
  await rename(path, `${path}.1`);
}

/** A file's size; 0 when it does not exist. */
export async function sizeOf(path: string): Promise<number> {
  try {
    return (await stat(path)).size;
  } catch (error) {
    if (isMissing(error)) return 0;
    throw error;
  }
}

export function isMissing(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'ENOENT';
}

function ignoreMissing(error: unknown): void {
  if (!isMissing(error)) throw error;
}
