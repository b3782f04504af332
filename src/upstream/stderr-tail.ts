// A child's last stderr lines as an operator wants them: what the server said, without Node's stack frames and trailer.

/** Raw lines kept per child, enough to hold a Node crash (source, message, 10 frames, properties, trailer). */
const RAW_LINES = 40;
/** Characters kept of one line; a blob or a minified stack is cut, with `…`. */
const LINE_CHARS = 300;
/** Lines `lines()` returns. */
export const STDERR_TAIL_LINES = 10;

/**
 * A frame of a V8 stack trace ("    at f (/app/x.js:1:7)", "    at node:internal/…:28:49 {",
 * "    at new Promise (<anonymous>)", "    at async Promise.all (index 0)"). Anchored on the
 * location, so a server's own indented "  at least one of …" is not taken for one.
 */
const STACK_FRAME = /^ {4}at .*(?::\d+:\d+\)?|\(<anonymous>\)|\(index \d+\)|\(native\))( \{)?$/;
/** The line Node prints last when it dies of an uncaught error ("Node.js v20.11.1"). */
const NODE_TRAILER = /^Node\.js v\d+\.\d+\.\d+$/;

export class StderrTail {
  private readonly raw: string[] = [];

  push(line: string): void {
    this.raw.push(line.length > LINE_CHARS ? `${line.slice(0, LINE_CHARS)}…` : line);
    if (this.raw.length > RAW_LINES) this.raw.shift();
  }

  /** The last STDERR_TAIL_LINES lines that say something, oldest first. */
  lines(): string[] {
    return significantLines(this.raw).slice(-STDERR_TAIL_LINES);
  }
}

/**
 * Drops what buries a server's own words when it dies: blank lines, stack frames, the properties
 * Node prints after a frame of an error that has some (`{ errno: -2, code: 'ENOENT', … }`), and
 * Node's version trailer. A Node crash then ends with its message ("Error: API_KEY is not set")
 * instead of "Node.js v20.11.1", and a status page's few lines show the message, not frames.
 */
export function significantLines(lines: readonly string[]): string[] {
  const out: string[] = [];
  let inProperties = false;
  for (const line of lines) {
    if (inProperties) {
      if (line === '}') inProperties = false;
      continue;
    }
    const frame = STACK_FRAME.exec(line);
    if (frame !== null) {
      inProperties = frame[1] !== undefined;
      continue;
    }
    if (line.trim() === '' || NODE_TRAILER.test(line)) continue;
    out.push(line);
  }
  return out;
}
