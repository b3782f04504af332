// Newline-delimited JSON framing for child stdio: bytes in, complete lines out, bounded in size.

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;
/** Longest line whose assembly buffer is kept for the next one, bytes. */
const MAX_KEPT_ASSEMBLY_BYTES = 1024 * 1024;

export interface LineDecoderEvents {
  /**
   * One complete line without its terminator (a trailing `\r` is removed). Empty lines are skipped.
   * `bytes[start, end)` is the same line encoded, valid during the call only (the buffer is reused).
   */
  onLine(line: string, bytes: Buffer, start: number, end: number): void;
  /** A line grew past the limit; its bytes up to the next newline are discarded. */
  onOversize(bytesDropped: number): void;
}

/**
 * Collects chunks in a list and copies once per line, rather than concatenating every chunk
 * onto a growing buffer (quadratic on large messages arriving in small pieces).
 */
export class LineDecoder {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** True while discarding the rest of an oversize line. */
  private skipping = false;
  private skippedBytes = 0;
  private assembly = Buffer.alloc(0);

  constructor(
    private readonly maxLineBytes: number,
    private readonly events: LineDecoderEvents,
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(NEWLINE, start);
      if (newline === -1) {
        this.keep(chunk, start, chunk.length);
        return;
      }
      if (this.skipping) {
        this.skippedBytes += newline - start;
        this.events.onOversize(this.skippedBytes);
        this.skipping = false;
        this.skippedBytes = 0;
      } else if (this.pendingBytes + (newline - start) > this.maxLineBytes) {
        this.events.onOversize(this.pendingBytes + (newline - start));
        this.reset();
      } else {
        this.emit(chunk, start, newline);
      }
      start = newline + 1;
    }
  }

  /** Bytes held for an unfinished line (for tests and diagnostics). */
  get bufferedBytes(): number {
    return this.pendingBytes;
  }

  /**
   * The stream ended: an unfinished last line counts as a line (a server's final words on stderr
   * often lack the newline). Nothing is emitted while discarding an oversize line.
   */
  end(): void {
    if (!this.skipping && this.pendingBytes > 0) this.push(Buffer.from([NEWLINE]));
    this.reset();
  }

  /** Drops a partial line, e.g. when the child that was writing it exited. */
  reset(): void {
    this.pending = [];
    this.pendingBytes = 0;
  }

  private keep(chunk: Buffer, start: number, end: number): void {
    if (this.skipping) {
      this.skippedBytes += end - start;
      return;
    }
    if (this.pendingBytes + (end - start) > this.maxLineBytes) {
      this.skipping = true;
      this.skippedBytes = this.pendingBytes + (end - start);
      this.reset();
      return;
    }
    // subarray shares memory with the chunk; the chunk is not reused by the stream, so this is safe.
    this.pending.push(start === 0 && end === chunk.length ? chunk : chunk.subarray(start, end));
    this.pendingBytes += end - start;
  }

  /**
   * The pending pieces joined in a buffer kept for the next line. A fresh 64 KiB buffer per large
   * line would be freed only at the next GC, and the allocator keeps the peak such churn reaches
   * (50 sessions x 64 KiB: mean RSS ~6 MB lower). Rare huge lines get a buffer of their own.
   */
  private assemble(bytes: number): Buffer {
    if (bytes > MAX_KEPT_ASSEMBLY_BYTES) return Buffer.concat(this.pending, bytes);
    if (this.assembly.length < bytes) this.assembly = Buffer.allocUnsafeSlow(Math.min(MAX_KEPT_ASSEMBLY_BYTES, Math.max(bytes, this.assembly.length * 2, 64 * 1024)));
    let at = 0;
    for (const piece of this.pending) at += piece.copy(this.assembly, at);
    return this.assembly.subarray(0, bytes);
  }

  private emit(chunk: Buffer, start: number, end: number): void {
    if (this.pendingBytes === 0) {
      if (end > start && chunk[end - 1] === CARRIAGE_RETURN) end -= 1;
      if (end === start) return;
      this.events.onLine(chunk.toString('utf8', start, end), chunk, start, end);
      return;
    }
    this.pending.push(chunk.subarray(start, end));
    const whole = this.assemble(this.pendingBytes + (end - start));
    this.reset();
    let stop = whole.length;
    if (stop > 0 && whole[stop - 1] === CARRIAGE_RETURN) stop -= 1;
    if (stop === 0) return;
    this.events.onLine(whole.toString('utf8', 0, stop), whole, 0, stop);
  }
}
