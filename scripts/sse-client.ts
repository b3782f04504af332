// The client side of Server-Sent Events for the benchmark, chaos and fuzz drivers: complete events
// out of a growing buffer, the incomplete rest kept for the next chunk.

export interface SseEvent {
  /** The `event:` field, `message` when absent. */
  readonly event: string;
  /** The event's `data:` lines joined by newlines. */
  readonly data: string;
}

/** Every complete event in `buf` that carries data, and the unparsed rest. */
export function sseEvents(buf: string): { events: SseEvent[]; rest: string } {
  const events: SseEvent[] = [];
  let end: number;
  while ((end = buf.search(/\r?\n\r?\n/)) !== -1) {
    const block = buf.slice(0, end);
    buf = buf.slice(end).replace(/^\r?\n\r?\n/, '');
    let event = 'message';
    const data: string[] = [];
    for (const line of block.split(/\r?\n/)) {
      if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(line[5] === ' ' ? 6 : 5));
    }
    if (data.length > 0) events.push({ event, data: data.join('\n') });
  }
  return { events, rest: buf };
}

/** The data of each complete event that carries any (priming events with empty data are skipped). */
export function sseData(buf: string): { events: string[]; rest: string } {
  const { events, rest } = sseEvents(buf);
  return { events: events.map((e) => e.data).filter((data) => data !== ''), rest };
}
