// The process-wide pino root logger; every module takes a child with its `component` name.
import pino, { type DestinationStream, type Logger } from 'pino';

export type { DestinationStream, Logger };

export interface LogOptions {
  readonly level?: string;
  /**
   * Write to this file descriptor or path instead of stdout (tests use a file to grep), or to a
   * stream that receives each record as one JSON line (the CLI's probe reads child stderr from it).
   */
  readonly destination?: number | string | DestinationStream;
}

export function createRootLogger(options: LogOptions = {}): Logger {
  const level = options.level ?? process.env.SWITCHBOARD_LOG_LEVEL ?? 'info';
  // Tokens and other credentials must never reach a log line, whatever a caller passes in.
  const redact = {
    paths: ['token', '*.token', 'authorization', '*.authorization', 'headers.authorization', 'env', '*.env'],
    censor: '[redacted]',
  };
  if (typeof options.destination === 'object') return pino({ level, redact }, options.destination);
  if (options.destination !== undefined) return pino({ level, redact }, boundedDestination(options.destination));
  if (process.stdout.isTTY && process.env.CI !== 'true') {
    return pino({ level, redact, transport: { target: 'pino-pretty', options: { destination: 1, translateTime: 'SYS:HH:MM:ss.l' } } });
  }
  return pino({ level, redact }, boundedDestination(1));
}

/**
 * Bytes of log lines waiting for a slow reader (a busy journal, a full pipe) before new lines are
 * dropped: pino's own stdout stream buffers without limit, so a flood of child stderr lines once
 * grew the daemon to gigabytes.
 */
export const MAX_LOG_BUFFER_BYTES = 16 * 1024 * 1024;

let droppedBytes = 0;

/** Log bytes dropped because the reader fell MAX_LOG_BUFFER_BYTES behind, since start. */
export function droppedLogBytes(): number {
  return droppedBytes;
}

function boundedDestination(dest: number | string): DestinationStream {
  const stream = pino.destination({ dest, sync: false, maxLength: MAX_LOG_BUFFER_BYTES });
  stream.on('drop', (data: string | Buffer) => (droppedBytes += typeof data === 'string' ? Buffer.byteLength(data) : data.length));
  return stream;
}

/** A logger that drops everything; for library use and tests that do not read logs. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
