// The process-wide pino root logger; every module takes a child with its `component` name.
import pino, { type Logger } from 'pino';

export type { Logger };

export interface LogOptions {
  readonly level?: string;
  /** Write to this file descriptor instead of stdout (tests use a file to grep). */
  readonly destination?: number | string;
}

export function createRootLogger(options: LogOptions = {}): Logger {
  const level = options.level ?? process.env.SWITCHBOARD_LOG_LEVEL ?? 'info';
  // Tokens and other credentials must never reach a log line, whatever a caller passes in.
  const redact = {
    paths: ['token', '*.token', 'authorization', '*.authorization', 'headers.authorization', 'env', '*.env'],
    censor: '[redacted]',
  };
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
