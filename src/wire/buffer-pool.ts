// Reused buffers for large encoded messages: request bodies, lines to and from children.

/** Bytes of idle buffers kept per pool; a burst beyond it allocates and lets go. */
const MAX_POOLED_BYTES = 4 * 1024 * 1024;
/** Pooled buffers are sized in steps of this, so lines of similar length share them, bytes. */
const POOL_STEP = 16 * 1024;

/**
 * Buffers for large encoded messages, handed out again once whoever wrote them (a child's stdin, a
 * client's socket) has passed them to the OS. A fresh 64 KiB buffer per message would live until
 * the next GC, and the allocator keeps the peak such churn reaches.
 */
export class BufferPool {
  private readonly free: Buffer[] = [];
  private freeBytes = 0;

  take(bytes: number): Buffer {
    for (let i = this.free.length - 1; i >= 0; i--) {
      const buffer = this.free[i] as Buffer;
      if (buffer.length < bytes) continue;
      this.free[i] = this.free[this.free.length - 1] as Buffer;
      this.free.pop();
      this.freeBytes -= buffer.length;
      return buffer;
    }
    return Buffer.allocUnsafeSlow(Math.ceil(bytes / POOL_STEP) * POOL_STEP);
  }

  give(buffer: Buffer): void {
    if (this.freeBytes + buffer.length > MAX_POOLED_BYTES) return;
    this.free.push(buffer);
    this.freeBytes += buffer.length;
  }
}
