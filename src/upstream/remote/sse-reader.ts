// Server-Sent Events as a remote MCP server sends them (HTML Living Standard, "Parsing an event
// stream"), read from bytes without a string per chunk: each event's data stays a Buffer until
// it is a message. Bounded: an event larger than the limit is dropped, and said so.

export interface SseEvent {
  /** `message` when the event named none. */
  readonly event: string;
  /** The data lines joined with LF, as bytes. */
  readonly data: Buffer;
  /** The last event id seen on the stream (for Last-Event-ID on reconnect), if any. */
  readonly id: string | undefined;
}

const LF = 0x0a;
const CR = 0x0d;

/** Bytes held by several readers of one server together, against one bound. */
export interface ByteBudget {
  used: number;
  readonly max: number;
}

export class SseReader {
  /** What this reader holds now and has counted against the budget. */
  private counted = 0;
  /** The start of a line that continues in the next chunk (kept as parts: no copy per chunk). */
  private partial: Buffer[] = [];
  private partialBytes = 0;
  /** Inside a line too long for any event: its bytes are skipped up to its end. */
  private skipping = false;
  private dataParts: Buffer[] = [];
  private dataBytes = 0;
  private eventName = '';
  private oversize = false;
  /** The stream's last event id: it persists across events until changed (the standard's rule). */
  lastEventId: string | undefined;
  private sawCr = false;

  constructor(
    /** Most bytes of one event's data. */
    private readonly maxEventBytes: number,
    private readonly onEvent: (event: SseEvent) => void,
    private readonly onOversize: (bytes: number) => void,
    /** Shared with the server's other streams: a reader past it drops the event it is building. */
    private readonly budget?: ByteBudget,
  ) {}

  /** The stream is over: what it held no longer counts. */
  release(): void {
    if (this.budget !== undefined) this.budget.used -= this.counted;
    this.counted = 0;
  }

  /** Counts what is held now against the budget; past it, the event being built is dropped. */
  private account(): void {
    if (this.budget === undefined) return;
    const held = this.partialBytes + this.dataBytes;
    this.budget.used += held - this.counted;
    this.counted = held;
    if (this.budget.used <= this.budget.max || held === 0) return;
    this.drop(held);
    if (this.partialBytes > 0) this.skipping = true;
    this.partial = [];
    this.partialBytes = 0;
    this.dataBytes = 0;
    this.budget.used -= this.counted;
    this.counted = 0;
  }

  push(chunk: Buffer): void {
    this.read(chunk);
    this.account();
  }

  private read(chunk: Buffer): void {
    let start = 0;
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i];
      if (byte !== LF && byte !== CR) continue;
      // CRLF is one line end: the LF right after a CR that ended a line is skipped.
      if (byte === LF && this.sawCr && i === start && this.partialBytes === 0) {
        this.sawCr = false;
        start = i + 1;
        continue;
      }
      this.sawCr = byte === CR;
      if (this.skipping) this.skipping = false;
      else if (this.partialBytes === 0) this.line(chunk.subarray(start, i));
      else this.line(Buffer.concat([...this.partial, chunk.subarray(start, i)]));
      this.partial = [];
      this.partialBytes = 0;
      start = i + 1;
    }
    if (start >= chunk.length || this.skipping) return;
    this.sawCr = false;
    const rest = chunk.subarray(start);
    // A line longer than any event may be is dropped as it grows, not once it is whole.
    if (this.partialBytes + rest.length > this.maxEventBytes + 64) {
      this.drop(this.partialBytes + rest.length);
      this.partial = [];
      this.partialBytes = 0;
      this.skipping = true;
      return;
    }
    // Copied: the socket may reuse the chunk's memory.
    this.partial.push(Buffer.from(rest));
    this.partialBytes += rest.length;
  }

  private line(line: Buffer): void {
    if (line.length === 0) {
      this.dispatch();
      return;
    }
    if (line[0] === 0x3a /* : comment */) return;
    const colon = line.indexOf(0x3a);
    const field = (colon === -1 ? line : line.subarray(0, colon)).toString('utf8');
    let value = colon === -1 ? Buffer.alloc(0) : line.subarray(colon + 1);
    if (value.length > 0 && value[0] === 0x20) value = value.subarray(1);
    switch (field) {
      case 'data':
        if (this.oversize) return;
        this.dataBytes += value.length + (this.dataParts.length > 0 ? 1 : 0);
        if (this.dataBytes > this.maxEventBytes) {
          this.drop(this.dataBytes);
          return;
        }
        // Copied: the chunk it came in is reused by the socket.
        this.dataParts.push(Buffer.from(value));
        return;
      case 'event':
        this.eventName = value.toString('utf8');
        return;
      case 'id':
        if (!value.includes(0)) this.lastEventId = value.toString('utf8');
        return;
      default:
        // `retry` and unknown fields: nothing to do for a proxy.
        return;
    }
  }

  private drop(bytes: number): void {
    if (!this.oversize) this.onOversize(bytes);
    this.oversize = true;
    this.dataParts = [];
  }

  private dispatch(): void {
    const parts = this.dataParts;
    const oversize = this.oversize;
    const name = this.eventName;
    this.dataParts = [];
    this.dataBytes = 0;
    this.eventName = '';
    this.oversize = false;
    if (oversize || parts.length === 0) return;
    const data = parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts.flatMap((part, i) => (i === 0 ? [part] : [Buffer.from([LF]), part])));
    this.onEvent({ event: name === '' ? 'message' : name, data, id: this.lastEventId });
  }
}
