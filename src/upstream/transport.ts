// The seam between a connection and what carries its messages: a stdio child or a remote server.
// Outgoing, the connection hands over each message's text together with what it already knows of
// it (its id and method), so no transport reads its own messages back to route them; incoming, a
// transport hands back the lines it read, or a message it made up itself already as an object.
import type { JsonObject, JsonRpcId } from '../jsonrpc/messages.js';

export interface ChildExit {
  readonly code: number | null;
  readonly signal: string | null;
  /** Why the spawn itself failed (command missing, not executable), or a remote server could not be reached, if it did. */
  readonly spawnError?: string;
  /** Why a remote server's connection was lost (unreachable, the session forgotten). */
  readonly disconnected?: string;
}

/** What became of a write: gone on its way, refused because the transport is closed, or because it stopped reading. */
export type WriteOutcome = 'sent' | 'closed' | 'full';

export interface TransportEvents {
  /**
   * One message as the server wrote it: `line` is the text of `bytes[start, end)`, decoded once.
   * `carriedBy`: the id of our request on whose response stream a remote server sent this message.
   */
  onLine(line: string, bytes: Buffer, start: number, end: number, carriedBy?: number): void;
  /**
   * A message the transport made up itself (an error answer for a request it could not carry), as
   * an object: it never was text, so it is not made into text only to be parsed again.
   */
  onMessage(message: JsonObject, carriedBy?: number): void;
  onExit(exit: ChildExit): void;
}

export interface ChildTransport {
  /** The child's process id; undefined for a remote server. */
  readonly pid: number | undefined;
  readonly alive: boolean;
  /** False once messages can no longer reach it (it is dying or stopping). */
  readonly writable: boolean;
  /** Its last stderr lines, or for a remote server its last connection errors, oldest first. */
  readonly stderrTail: string[];
  /**
   * Sends one serialized message, newline included. `id` and `method` are the message's own: a
   * request has both, a notification only a method, a response only an id. Plain arguments, not an
   * object, so the stdio path allocates nothing to say them.
   */
  write(line: string, id: JsonRpcId | undefined, method: string | undefined): WriteOutcome;
  /** The same for a message of `bytes` bytes (newline included) that `encode` writes into the buffer it is given. */
  writeEncoded(bytes: number, encode: (target: Buffer) => void, id: JsonRpcId | undefined, method: string | undefined): WriteOutcome;
  /**
   * A request of ours is given up (its cancellation follows): a transport holding something for it
   * frees it (a remote server closes its POST); a stdio child holds nothing.
   */
  abandon(id: JsonRpcId): void;
  stop(): Promise<void>;
}

export function describeExit(exit: ChildExit): string {
  if (exit.spawnError !== undefined) return `could not start (${exit.spawnError})`;
  if (exit.disconnected !== undefined) return `disconnected (${exit.disconnected})`;
  if (exit.signal !== null) return `was killed by ${exit.signal}`;
  return `exited with code ${exit.code ?? 'unknown'}`;
}
