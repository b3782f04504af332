// The SSE events a Streamable HTTP session sent, kept (bounded) so a dropped stream can resume with Last-Event-ID.

/** Events kept per session for replay, events. */
const MAX_EVENTS = 512;
/** Bytes of event data kept per session for replay, bytes. */
const MAX_BYTES = 1024 * 1024;

interface StoredEvent {
  readonly stream: string;
  readonly seq: number;
  readonly data: string;
}

/**
 * Event ids are `<stream>_<seq>`: the stream (`g` for the GET stream, `r<n>` per request stream)
 * and a sequence number unique within the session, so ids are unique across all of a session's
 * streams and name the stream they belong to (transports.mdx, resumability).
 */
export class EventLog {
  private events: StoredEvent[] = [];
  private head = 0;
  private bytes = 0;
  private seq = 0;

  /** A sequence number for an event that is not stored (a priming event). */
  next(): number {
    return ++this.seq;
  }

  append(stream: string, data: string): number {
    const seq = ++this.seq;
    this.events.push({ stream, seq, data });
    this.bytes += data.length;
    while (this.events.length - this.head > MAX_EVENTS || (this.bytes > MAX_BYTES && this.events.length - this.head > 1)) {
      const dropped = this.events[this.head++] as StoredEvent;
      this.bytes -= dropped.data.length;
    }
    // Compact now and then rather than shifting on every append.
    if (this.head > 256 && this.head * 2 > this.events.length) {
      this.events = this.events.slice(this.head);
      this.head = 0;
    }
    return seq;
  }

  /** Stored events of `stream` after `seq`, oldest first. */
  since(stream: string, seq: number): Array<{ seq: number; data: string }> {
    const found: Array<{ seq: number; data: string }> = [];
    for (let i = this.head; i < this.events.length; i++) {
      const event = this.events[i] as StoredEvent;
      if (event.stream === stream && event.seq > seq) found.push({ seq: event.seq, data: event.data });
    }
    return found;
  }
}

export function eventId(stream: string, seq: number): string {
  return `${stream}_${seq}`;
}

/** Splits a Last-Event-ID we issued; undefined for anything else. */
export function parseEventId(value: string): { stream: string; seq: number } | undefined {
  const match = /^(g|r\d+)_(\d{1,15})$/.exec(value);
  if (match === null) return undefined;
  return { stream: match[1] as string, seq: Number(match[2]) };
}

export function sseFrame(id: string, data: string): string {
  return `id: ${id}\nevent: message\ndata: ${data}\n\n`;
}
