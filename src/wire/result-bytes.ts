// A large result as encoded bytes: the child's line with only its id replaced, never a JS string.

/**
 * A message held as UTF-8 in a pooled buffer. Written as is, HTTP sends it with no copy (a string
 * would be copied into a fresh buffer sized for the worst case, three bytes per character); when
 * the socket has taken it, the buffer goes back to its pool. Paths that frame or store text (SSE
 * events, WebSocket frames) take it as a string instead, which also hands the buffer back.
 */
export class ResultBytes {
  private text: string | undefined;
  private released = false;

  constructor(
    /** Exactly the message's bytes; a view of the pooled buffer. */
    readonly bytes: Buffer,
    private readonly giveBack: () => void,
  ) {}

  get byteLength(): number {
    return this.bytes.length;
  }

  /** The message as a string; the bytes must not be used after this. */
  toString(): string {
    if (this.text === undefined) {
      this.text = this.bytes.toString();
      this.release();
    }
    return this.text;
  }

  /** The bytes were written (or dropped): the buffer may be reused. Idempotent. */
  release(): void {
    if (this.released) return;
    this.released = true;
    this.giveBack();
  }
}

/** A message already encoded for the wire. */
export type Serialized = string | ResultBytes;
