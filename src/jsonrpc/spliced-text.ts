// A message's text with one span replaced, kept as its three pieces so a large one is never joined.

/**
 * A child's line with its id replaced by the caller's. Joining the pieces would copy the whole
 * payload once more (and once again when HTTP prepends its headers); written piece by piece on a
 * corked socket, they go out in one writev with no copy on the JS heap.
 */
export class SplicedText {
  constructor(
    readonly head: string,
    readonly middle: string,
    readonly tail: string,
    /** UTF-8 length of the whole, for Content-Length. */
    readonly byteLength: number,
  ) {}

  /** The joined text, for the paths that frame or store it (SSE events, WebSocket frames). */
  toString(): string {
    return this.head + this.middle + this.tail;
  }
}

/** A message already encoded for the wire. */
export type Serialized = string | SplicedText;

/**
 * `text` with [start, end) replaced by `replacement`. The replaced span must be ASCII (it is an id
 * we minted), so the byte length follows without encoding the text again.
 */
export function spliceSpan(text: string, start: number, end: number, replacement: string): SplicedText {
  const byteLength = Buffer.byteLength(text) - (end - start) + Buffer.byteLength(replacement);
  return new SplicedText(text.slice(0, start), replacement, text.slice(end), byteLength);
}
