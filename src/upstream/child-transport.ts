// Opens what a connection talks to: a stdio child process, or a remote server over HTTP behind the
// same interface (transport.ts).
import type { Logger } from '../log.js';
import type { ServerConfig } from '../config/types.js';
import { ServerProcess, type ShutdownTimings } from './child.js';
import { RemoteServer } from './remote/remote-server.js';
import type { ChildTransport, TransportEvents } from './transport.js';

export type { ChildTransport } from './transport.js';

/**
 * Opens what `server`'s connection talks to in place of its configured child or remote server: the
 * core's tests give it a scripted child held in memory, so routing is tested without processes.
 */
export type TransportOpener = (server: ServerConfig, events: TransportEvents) => ChildTransport;

export function openChild(server: ServerConfig, log: Logger, maxLineBytes: number, events: TransportEvents, shutdown?: ShutdownTimings): ChildTransport {
  if (server.remote !== undefined) return new RemoteServer(server.name, server.remote, log, maxLineBytes, events);
  return new ServerProcess(server, log, maxLineBytes, events, shutdown);
}
