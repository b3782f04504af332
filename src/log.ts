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
  if (options.destination !== undefined) {
    return pino({ level, redact }, pino.destination({ dest: options.destination, sync: false }));
  }
  if (process.stdout.isTTY && process.env.CI !== 'true') {
    return pino({ level, redact, transport: { target: 'pino-pretty', options: { destination: 1, translateTime: 'SYS:HH:MM:ss.l' } } });
  }
  return pino({ level, redact });
}

/** A logger that drops everything; for library use and tests that do not read logs. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
