// What a connection needs of the thing behind it: a stdio child process, or a remote server over
// HTTP that the proxy makes look like one (lines in, lines out, an exit when it is gone).
import type { Logger } from '../log.js';
import type { ServerConfig } from '../config/types.js';
import { ServerProcess, type ChildEvents, type ShutdownTimings } from './child.js';
import { RemoteServer } from './remote/remote-server.js';

export interface ChildTransport {
  /** The child's process id; undefined for a remote server. */
  readonly pid: number | undefined;
  readonly alive: boolean;
  /** False once messages can no longer reach it (it is dying or stopping). */
  readonly writable: boolean;
  /** Its last stderr lines, or for a remote server its last connection errors, oldest first. */
  readonly stderrTail: string[];
  write(line: string): 'sent' | 'closed' | 'full';
  writeEncoded(bytes: number, encode: (target: Buffer) => void): 'sent' | 'closed' | 'full';
  stop(): Promise<void>;
}

export function openChild(server: ServerConfig, log: Logger, maxLineBytes: number, events: ChildEvents, shutdown?: ShutdownTimings): ChildTransport {
  if (server.remote !== undefined) return new RemoteServer(server.name, server.remote, log, maxLineBytes, events);
  return new ServerProcess(server, log, maxLineBytes, events, shutdown);
}
